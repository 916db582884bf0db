"""The stroke (physics.cue): massé against Coriolis/TP A.19, vertical squirt (TP A.31), jumps that rise with
the cue (the rebound sliding off the tip), and the cue kinds."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from physics.cue import Strike, ball_speed, cue_frame, squirt_tan, strike
from physics.cues import CUE_KINDS, CUES
from physics.params import G, PhysicsParams
from physics.record import EventType, ShotParams
from physics.simulate import simulate
from physics.tables import TableSpec, load_table
from tests.physics.helpers import rows, stroke

POOL = load_table("pool-9ft")
PP = PhysicsParams.for_table(POOL)


def _tp_a19_path(r: np.ndarray, elevation: float, tip: tuple[float, float], p: PhysicsParams) -> np.ndarray:
    """Coriolis' massé (TP A.19) for the sampled stroke ``r``, written out: every impulse of the tip lies on
    the cue line through the contact point (the squirt of TP A.31 across it), the slate's push goes through
    the centre, so the ball leaves with v0 = (J/m) (d - tan(alpha) o)_h and w0 = (J/I) (contact x d), J the
    tip's impulses in all (taken from the launch speed). It slides on a parabola, the slip u shrinking along a
    fixed direction at (7/2) mu_s g, until it rolls at v_f = 5/7 v0 - 2/7 R (z x w0) (docs/physics.md §Cloth), then
    rolls straight out at mu_r g. Returns the predicted (x, y) at every sample time."""
    R, m, inertia = p.R, p.m, p.inertia
    d, right, up = cue_frame(0.0, elevation)
    a, b = tip
    rho = math.hypot(a, b)
    offset = a * right + b * up
    contact = R * offset - R * math.sqrt(1.0 - rho * rho) * d
    push = d - squirt_tan(rho, p) / rho * offset
    J = m * float(np.hypot(r[0, 4], r[0, 5])) / float(np.hypot(push[0], push[1]))
    v0 = J / m * push[:2]
    w0 = np.cross(contact, J * d) / inertia
    u0 = v0 + R * np.array([-w0[1], w0[0]])
    mus, mur = p.mu_slide * G, p.mu_roll * G
    tau = 2.0 * float(np.linalg.norm(u0)) / (7.0 * mus)
    u_hat = u0 / np.linalg.norm(u0)
    vf = 5.0 / 7.0 * v0 - 2.0 / 7.0 * R * np.array([-w0[1], w0[0]])
    assert np.allclose(vf, v0 - mus * tau * u_hat)
    p0 = r[0, 1:3]
    out = []
    for t in r[:, 0]:
        ts = min(t, tau)
        q = p0 + v0 * ts - 0.5 * mus * u_hat * ts * ts
        if t > tau:
            s = float(np.linalg.norm(vf))
            tr = min(t - tau, s / mur)
            q = q + vf / s * (s * tr - 0.5 * mur * tr * tr)
        out.append(q)
    return np.array(out)


@pytest.mark.parametrize("elevation", [78.0, 80.0, 84.0])
def test_a_masse_leaves_along_the_cue_line_and_curves_as_coriolis_predicts(elevation: float) -> None:
    """TP A.19: the ball leaves along the cue line (turned only by squirt), curves on a parabola and rolls
    on in Coriolis' direction. Before, at 80 degrees it left already turned 36-112 degrees and rolled straight.
    A cue this steep meets the ball's rebound coming back up along its axis, inside the tip's friction cone:
    the tip holds it and pins it on the slate (two or more tip impulses); a soft stroke, so the ball stays on
    the cloth as TP A.19 assumes. (Below ~76 degrees the rebound runs across the cue and slides off the tip: the
    ball hops, docs/strike.md.)"""
    tip = (0.4, 0.0)
    assert strike(1.0, 0.0, elevation, tip, PP).contacts >= 2
    rec = stroke({"cue": (-0.8, 0.3)}, cue_speed=1.0, elevation=elevation, tip=tip, spec=POOL)
    r = rows(rec)
    assert r[:, 3].max() - PP.R < 1e-9
    # The launch: along the cue's line (+x) but for the squirt, which turns it left (right English).
    d, right, up = cue_frame(0.0, elevation)
    push = d - squirt_tan(0.4, PP) / 0.4 * (0.4 * right)
    launch = math.degrees(math.atan2(r[0, 5], r[0, 4]))
    assert launch == pytest.approx(math.degrees(math.atan2(push[1], push[0])), abs=1e-3)  # samples: 6 digits
    assert (
        0.0 < launch < 20.0
    )  # the squirt's push across the cue, against the small horizontal part of the hit
    # The path, until the ball nears a cushion.
    end = min((e.t for e in rec.events if e.type == EventType.CUSHION), default=math.inf)
    keep = r[:, 0] < end
    predicted = _tp_a19_path(r, elevation, tip, PP)
    err = np.hypot(*(r[keep, 1:3] - predicted[keep]).T)
    assert err.max() < 2e-4, err.max()
    # It curves: the rolling direction is far to the right of the launch.
    turn = math.degrees(math.atan2(r[keep][-1, 5], r[keep][-1, 4]))
    assert turn < -25.0


@pytest.mark.parametrize("elevation", [45.0, 60.0, 70.0, 80.0, 85.0])
def test_without_squirt_a_masse_rolls_on_coriolis_line(elevation: float) -> None:
    """Coriolis' aiming rule (TP A.19): the ball ends up rolling from where it rested towards where the cue
    line meets the cloth, tan(delta) = -a sin(theta) / (cos(theta) + b), whatever the pinch and the slate
    did, and whether the tip held the rebounding ball or it slid off (every tip impulse lies on the cue line).
    Squirt (an end mass with no weight) left out, the rule is exact; where the tip holds the ball, it leaves
    along the cue."""
    p = replace(PP, squirt_mass_ratio=1e12)
    a, b = 0.4, -0.1
    s = strike(1.5, 0.0, elevation, (a, b), p)
    v0, w0 = np.array(s.v[:2]), np.array(s.w)
    vf = 5.0 / 7.0 * v0 - 2.0 / 7.0 * p.R * np.array([-w0[1], w0[0]])
    th = math.radians(elevation)
    coriolis = math.degrees(math.atan2(-a * math.sin(th), math.cos(th) + b))
    assert math.degrees(math.atan2(vf[1], vf[0])) == pytest.approx(coriolis, abs=1e-6)
    if elevation >= 75.0:
        assert math.degrees(math.atan2(v0[1], v0[0])) == pytest.approx(0.0, abs=1e-9)  # off along the cue


def test_follow_drives_the_ball_into_the_slate_harder_than_draw_and_hops_higher() -> None:
    """Vertical squirt (TP A.31): the end mass gives way across the cue in the plane of the offset, so the
    ball gets F tan(alpha) away from the offset: down for follow, up for draw. At 15 degrees the ball leaves
    the tip before the slate answers (one contact) and rises e_table (F/m)(sin(theta) +- tan(alpha) cos(theta)).
    Before, follow and draw hopped alike."""
    th = math.radians(15.0)
    rise = {}
    for b in (0.3, -0.3):
        assert strike(3.0, 0.0, 15.0, (0.0, b), PP).contacts == 1
        rec = stroke({"cue": (-0.8, 0.0)}, cue_speed=3.0, elevation=15.0, tip=(0.0, b), spec=POOL)
        r = rows(rec)
        fm = ball_speed(3.0, 0.3, PP)
        vz = PP.e_table * fm * (math.sin(th) + math.copysign(squirt_tan(0.3, PP), b) * math.cos(th))
        assert r[0, 6] == pytest.approx(vz, rel=1e-4)
        # The hop, flown by Bullet (its Euler step takes ~2 % off the apex).
        land = next(e for e in rec.events if e.type == EventType.LANDED)
        rise[b] = float(r[r[:, 0] <= land.t, 3].max()) - PP.R
        assert rise[b] == pytest.approx(vz * vz / (2.0 * G), rel=0.03)
    assert rise[0.3] > 1.3 * rise[-0.3]


def _clears(spec: TableSpec, cue: str, cue_speed: float, elevation: float, gap: float) -> bool:
    """Does the ball fly over a full ball ``gap`` m ahead (centre to centre) before touching it?"""
    shot = ShotParams(ball="cue", cue_speed=cue_speed, direction=0.0, elevation=elevation, cue=cue)
    rec = simulate(spec, {"cue": (-0.5, 0.0), "1": (-0.5 + gap, 0.0)}, shot, sample_hz=None)
    over = [e for e in rec.events if e.type == EventType.JUMPED_OVER and e.over == "1"]
    hit = rec.first_contact("cue")
    return bool(over) and (hit is None or hit.t > over[0].t)


TABLES = ("pool-9ft", "pyramid-12ft", "snooker-12ft")


@pytest.mark.parametrize("table", TABLES)
def test_a_jump_cue_clears_a_close_ball_steeper_the_closer_it_is(table: str) -> None:
    """Practice [VIK]: ~45 degrees for a ball a foot (0.3 m) away, steeper for a closer one; a player delivers
    a jump cue at up to ~8 m/s. Before, no speed up to 8 m/s cleared a ball 0.15 m away at 60 degrees."""
    spec = load_table(table)
    assert _clears(spec, "jump", 4.0, 60.0, 0.15)
    assert _clears(spec, "jump", 5.0, 45.0, 0.3)
    assert not _clears(spec, "jump", 5.0, 30.0, 0.15)  # too flat for so close a ball


def _hop(s: Strike) -> float:
    return max(0.0, s.v[2]) ** 2 / (2.0 * G)


def _launch(s: Strike) -> float:
    return math.degrees(math.atan2(s.v[2], math.hypot(s.v[0], s.v[1])))


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("cue", CUE_KINDS)
def test_hop_and_launch_rise_with_the_cue_up_to_70_degrees(table: str, cue: str) -> None:
    """Practice: the more elevated the cue, the higher the jump. Before, the jump cue's hop fell from 45 degrees
    (294 -> 9 mm from 45 to 60 degrees at 6 m/s) as the tip caught every rebound."""
    p = PhysicsParams.for_table(load_table(table), cue=cue)
    top = 70.0 if cue != "jump" else 74.0
    for speed in (3.0, 6.0):
        s = [strike(speed, 0.0, el, (0.0, 0.0), p) for el in np.arange(20.0, top + 0.1, 2.0)]
        hops, launches = [_hop(x) for x in s], [_launch(x) for x in s]
        assert all(b > a for a, b in zip(hops, hops[1:], strict=False)), hops
        assert all(b > a for a, b in zip(launches, launches[1:], strict=False)), launches


def test_the_rebound_slides_off_the_tip_and_meets_only_its_end_mass() -> None:
    """docs/strike.md: a centre hit at 60 degrees with the jump cue, written out. The tip's impulse (TP A.30)
    sends the ball along the cue at v_b; the slate returns it (TP B.10: e_t, friction mu_s (1 + e_t) v_z up to rolling);
    the cue, at V - F/M, gains on it along the axis, but the ball moves across the axis faster than mu_tip
    times that, so it slides across the tip, and the impact along the axis is with the end mass m/ratio."""
    p = PhysicsParams.for_table(POOL, cue="jump")
    V, th = 6.0, math.radians(60.0)
    m, M, me, e = p.m, p.cue_mass, p.m / p.squirt_mass_ratio, p.tip_e
    F = (1.0 + e) * V / (1.0 / M + 1.0 / m)
    vb, cue = F / m, V - F / M
    vx = vb * math.cos(th) - min(
        p.mu_slide * (1.0 + p.e_table) * vb * math.sin(th), 2.0 / 7.0 * vb * math.cos(th)
    )
    vz = p.e_table * vb * math.sin(th)
    d = np.array([math.cos(th), -math.sin(th)])
    rel = np.array([vx, vz]) - cue * d
    gain = -float(rel @ d)
    across = float(np.linalg.norm(rel + gain * d))
    # it meets the tip, and slides across it
    assert gain > 0.0
    assert across > p.tip_mu * gain
    jn = (1.0 + e) * gain / (1.0 / m + 1.0 / me)
    v = np.array([vx, vz]) + d * jn / m
    s = strike(V, 0.0, 60.0, (0.0, 0.0), p)
    assert (s.v[0], s.v[2]) == pytest.approx((v[0], v[1]), rel=1e-9)
    assert s.contacts == 2
    assert s.cue_after == pytest.approx(cue)


def test_a_playing_cue_sends_the_ball_faster_and_pins_it_sooner() -> None:
    """At one cue speed the heavier playing cue sends the ball faster (TP A.30: 1.32 V against the jump cue's
    1.14 V), so where the rebound slides off both tips it hops higher; its larger speed after the hit makes the
    rebound meet it more along its axis, so it holds (pins) the ball from a lower elevation (72 against 76
    degrees on the pool cues)."""
    jump, playing = (PhysicsParams.for_table(POOL, cue=c) for c in ("jump", "playing"))
    assert _hop(strike(6.0, 0.0, 60.0, (0.0, 0.0), playing)) > _hop(strike(6.0, 0.0, 60.0, (0.0, 0.0), jump))
    pins = {}
    for name, p in (("jump", jump), ("playing", playing)):
        pins[name] = next(
            el for el in range(40, 90) if _launch(strike(6.0, 0.0, el, (0.0, 0.0), p)) < 30.0 and el > 60
        )
    assert pins["playing"] < pins["jump"]


def test_the_stroke_never_gives_the_ball_more_energy_than_the_cue_loses() -> None:
    for kind in CUE_KINDS:
        p = PhysicsParams.for_table(POOL, cue=kind)
        for el in (0.0, 15.0, 45.0, 60.0, 80.0, 89.0):
            for tip in ((0.0, 0.0), (0.4, 0.0), (0.0, 0.45), (-0.3, -0.3), (0.0, 0.6)):
                s = strike(4.0, 30.0, el, tip, p)
                ball = 0.5 * p.m * float(np.dot(s.v, s.v)) + 0.5 * p.inertia * float(np.dot(s.w, s.w))
                cue_lost = 0.5 * p.cue_mass * (4.0**2 - s.cue_after**2)
                assert ball <= cue_lost + 1e-12 or s.miscue
                assert all(math.isfinite(x) for x in (*s.v, *s.w))


def test_each_table_has_a_playing_break_and_jump_cue() -> None:
    for table, cues in CUES.items():
        assert tuple(cues) == CUE_KINDS
        playing, brk, jump = (cues[k] for k in CUE_KINDS)
        # ~half the weight [SIMPSON]
        assert jump.mass <= 0.55 * playing.mass
        assert jump.length < playing.length
        # phenolic against leather [DD-TIP]
        assert brk.tip_e > playing.tip_e
        assert jump.tip_e > playing.tip_e
        assert 0.81 <= jump.tip_e <= 0.87
        assert 0.71 <= playing.tip_e <= 0.75
        p = PhysicsParams.for_table(load_table(table), cue="jump")
        assert (p.cue, p.cue_mass, p.tip_e) == ("jump", jump.mass, jump.tip_e)
    assert 0.51 <= CUES["pool-9ft"]["playing"].mass <= 0.60  # 18-21 oz [RB/WPA]
    assert CUES["snooker-12ft"]["playing"].mass == pytest.approx(0.478)  # [PT]


def test_the_shot_names_the_cue_and_the_record_carries_it() -> None:
    shot = ShotParams(ball="cue", cue_speed=2.0, elevation=10.0, cue="break")
    rec = simulate(POOL, {"cue": (0.0, 0.0)}, shot, sample_hz=None)
    brk = CUES["pool-9ft"]["break"]
    assert rec.params["cue"] == "break"
    assert rec.params["cue_mass"] == brk.mass
    assert rec.params["tip_e"] == brk.tip_e
    assert ShotParams.from_dict(shot.to_dict()).cue == "break"
    assert "cue" not in ShotParams(ball="cue").to_dict()  # the playing cue goes without saying
    # The same stroke with the jump cue: a lighter cue, a slower ball.
    light = simulate(POOL, {"cue": (0.0, 0.0)}, replace(shot, cue="jump"), sample_hz=None)
    assert light.params["cue"] == "jump"
    assert light.events[0].speed is not None
    assert rec.events[0].speed is not None
    assert light.events[0].speed < rec.events[0].speed
