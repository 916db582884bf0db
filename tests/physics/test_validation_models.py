"""The published models ``python main.py validate`` measures against reproduce the numbers docs/physics.md quotes
from their sources (so a wrong reference can never make the physics look right)."""

from __future__ import annotations

import math

import pytest

from physics import validation_models as M

R_POOL = 0.028575


@pytest.mark.parametrize(
    ("v", "ratio"), [(0.3, 0.787), (0.5, 0.897), (1.0, 0.948), (2.0, 0.908), (3.0, 0.836)]
)
def test_mat09_cushion_speed_curve(v: float, ratio: float) -> None:
    assert M.mat09_rebound_speed(v) / v == pytest.approx(ratio, abs=1e-3)


@pytest.mark.parametrize(("incidence", "rebound"), [(30.0, 35.82), (60.0, 65.21)])
def test_mathavan_without_friction_is_tp_6_3(incidence: float, rebound: float) -> None:
    """With no friction the cushion keeps the tangential speed and returns e of the normal one: atan(tan/e)."""
    b = M.CushionBall(e=0.8, mu_s=0.0, mu_w=0.0)
    vx, vy, *_ = M.mathavan_cushion(1.0, math.radians(90.0 - incidence), 0.0, 0.0, b)
    assert math.degrees(math.atan2(abs(vx), abs(vy))) == pytest.approx(rebound, abs=0.02)
    assert -vy == pytest.approx(0.8 * math.cos(math.radians(incidence)), rel=2e-3)


def test_mathavan_rolling_ball_with_the_papers_values() -> None:
    # [MAT10]: the rebound of a rolling ball hardly depends on its speed (a rigid model); square-on it keeps
    # about 0.91 of it, and at an angle the cushion's friction takes the rebound nearer the normal.
    square = [-M.mathavan_cushion(v, math.pi / 2, v / 0.02625, 0.0)[1] / v for v in (0.5, 1.0, 2.5)]
    assert max(square) - min(square) < 1e-3
    assert 0.88 < square[0] < 0.94
    for inc in (20.0, 40.0, 60.0):
        assert M.mathavan_rebound_angle_deg(1.0, inc) < inc
        assert M.mathavan_rebound_angle_deg(2.0, inc) == pytest.approx(
            M.mathavan_rebound_angle_deg(1.0, inc), abs=0.05
        )


@pytest.mark.parametrize(
    ("v", "cut", "roll", "throw"),
    [
        (0.447, 30.0, False, 4.72),
        (1.341, 30.0, False, 3.55),
        (3.129, 30.0, False, 1.70),
        (1.341, 10.0, False, 1.44),
        (0.447, 30.0, True, 2.19),
        (1.341, 30.0, True, 1.00),
        (3.129, 30.0, True, 0.39),
    ],
)
def test_tp_a14_throw(v: float, cut: float, roll: bool, throw: float) -> None:
    w = v / R_POOL if roll else 0.0
    assert M.throw_deg(v, cut, R_POOL, w_roll=w) == pytest.approx(throw, abs=0.01)


@pytest.mark.parametrize(
    ("ratio", "expected"),
    [
        (12.0, (0.92, 2.26, 4.16)),
        (20.0, (0.61, 1.49, 2.71)),
        (30.0, (0.43, 1.04, 1.89)),
        (50.0, (0.27, 0.65, 1.17)),
    ],
)
def test_tp_a31_squirt(ratio: float, expected: tuple[float, float, float]) -> None:
    got = tuple(M.squirt_deg(b, ratio) for b in (0.1, 0.25, 0.5))
    assert got == pytest.approx(expected, abs=0.006)


def test_tp_a30_strike_and_the_jump_example() -> None:
    # 6 oz ball, 19 oz cue, leather tip 0.73: 1.315 V; docs/physics.md §Flight's jump cue example: v_b 4.44, apex 126 mm.
    assert M.strike_speed(1.0, 0.0, 6.0, 19.0, 0.73) == pytest.approx(1.315, abs=1e-3)
    assert M.strike_speed(4.0, 0.0, 0.17, 0.255, 0.85) == pytest.approx(4.44, abs=0.01)
    assert M.jump_apex(4.0, 45.0, 0.17, 0.255, 0.85, 0.5) == pytest.approx(0.126, abs=1e-3)


def test_cloth_slide_and_roll_out() -> None:
    cloth = M.Cloth(0.2, 0.01)
    # docs/physics.md §Cloth: a stun ball at 1 m/s slides 0.1456 s and 0.1248 m; draw Rw = -2 at 2 m/s: 0.5825 s,
    # 0.8321 m, then rolls forward at 0.857 m/s; the lag: one 9 ft length (2.54 m) in 7.20 s.
    t, d, vf = cloth.to_roll(1.0, 0.0, R_POOL)
    assert (t, d, vf) == pytest.approx((0.1456, 0.1248, 5 / 7), abs=1e-4)
    t, d, vf = cloth.to_roll(2.0, -2.0 / R_POOL, R_POOL)
    assert (t, d, vf) == pytest.approx((0.5825, 0.8321, 0.857), abs=1e-3)
    v_lag = math.sqrt(2 * 0.01 * M.G * 2.54)
    assert cloth.rollout(v_lag) == pytest.approx((2.54, 7.20), abs=0.005)


def test_draw_and_follow_after_a_full_hit() -> None:
    cloth = M.Cloth(0.2, 0.01)
    # A stun hit (no spin left at contact, e = 1) leaves the cue ball dead; a rolling one follows; a drawn one
    # comes back.
    assert M.draw_follow_distance(1.0, 0.0, 0.0, R_POOL, 1.0, cloth) == pytest.approx(0.0, abs=1e-12)
    assert M.draw_follow_distance(1.0, 1.0 / R_POOL, 0.0, R_POOL, 1.0, cloth) > 0.3
    assert M.draw_follow_distance(2.0, -2.5 / R_POOL, 0.05, R_POOL, 0.95, cloth) < -0.3


def test_coriolis_masse_direction() -> None:
    """The cue's axis through the contact point meets the cloth at A; the ball ends rolling from where it rested
    towards A: tip 0.3 R right at 80° points 59.6° right of the cue line (atan(0.3 / cot 80°))."""
    contact, d = M.cue_contact(0.0, 80.0, (0.3, 0.0), R_POOL)
    ux, uy = M.coriolis_final_direction((0.0, 0.0, R_POOL), (contact[0], contact[1], R_POOL + contact[2]), d)
    expected = -math.degrees(math.atan2(0.3, 1.0 / math.tan(math.radians(80.0))))
    assert math.degrees(math.atan2(uy, ux)) == pytest.approx(expected, abs=1e-9)
    path = M.masse_path((0.0, 0.0), (1.0, 0.0), (0.5 * ux, 0.5 * uy), 0.2, 1.0)
    assert path[0] == (0.0, 0.0)
    assert path[-1][1] < 0.0


def test_slate_bounce_50_mm_drop() -> None:
    # docs/physics.md §Flight: impacts 0.1010 s and 0.2019 s after release, apexes 12.5 mm then 3.1 mm (e_t 0.5).
    hops = M.bounce_series(math.sqrt(2 * M.G * 0.05), 0.5, 0.001)
    assert [round(a * 1000, 1) for _, a in hops] == [12.5, 3.1]
    assert hops[0][0] == pytest.approx(0.2019 - 0.1010, abs=2e-4)


def test_tp_3_6_corner_target() -> None:
    """TP 3.6's own pocket (4.5875 in mouth, 7 degree facings): about 61 mm of target 20 degrees off the axis, the
    halves equal straight in, the long-rail half growing near the rail where the rail bounce helps."""
    from physics.validation_pockets import CornerPocket

    m = CornerPocket()
    left, right = m.target(math.radians(20.0))
    assert left + right == pytest.approx(0.0616, abs=0.001)
    a, b = m.target(0.0)
    assert a == pytest.approx(b)
    assert a + b == pytest.approx(0.0678, abs=0.001)
    far, near = m.target(math.radians(40.0))
    assert far > near
