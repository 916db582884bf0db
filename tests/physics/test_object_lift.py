"""Object balls leave the slate when an airborne ball lands on them (docs/physics.md §Ball-ball, §Flight).

A cue ball coming down onto an object ball touches it above its equator: the contact normal n
(from the cue ball's centre to the object ball's) points down, so the normal impulse drives the
object ball into the slate with

    dv_z = (1 + e_ball) / 2 * ((v_cue - v_obj) . n) * n_z      (< 0; equal masses, TP A.14)

The slate answers that short impact like any landing, with restitution e_table (TP B.10), so the
object ball leaves the cloth with

    v_z = e_table * |dv_z|

and flies (it must then rise v_z^2 / 2g). A level hit between two balls on the cloth has a
horizontal normal: whatever the throw friction does vertically is absorbed by the slate, and the
struck ball must stay on the cloth.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from physics.params import G, PhysicsParams
from physics.tables import load_table
from tests.physics.helpers import PYRAMID, rows, stroke

POOL = load_table("pool-9ft")


def _landing_x(spec, cue_speed: float, elevation: float) -> float:
    rec = stroke(
        {"cue": (-0.8, 0.0)}, cue_speed=cue_speed, elevation=elevation, spec=spec, sample_hz=None, cue="jump"
    )
    land = next(e for e in rec.events if e.type == "landed" and e.ball == "cue")
    assert land.pos is not None
    return land.pos[0]


@pytest.mark.parametrize(
    ("spec", "cue_speed", "elevation", "short"),
    [
        # Jump-cue strokes whose cue ball leaves the slate free of the tip, rolling (physics.cue): the slip at
        # the contact is small and the impulse is the normal one written out below.
        (PYRAMID, 3.0, 45.0, 0.02),
        (PYRAMID, 5.0, 40.0, 0.01),
        (POOL, 4.0, 40.0, 0.01),
        (POOL, 3.0, 40.0, 0.02),
    ],
)
def test_a_descending_jumped_cue_ball_throws_the_object_ball_off_the_slate(spec, cue_speed, elevation, short):
    p = PhysicsParams.for_table(spec)
    R = p.R
    x_obj = _landing_x(spec, cue_speed, elevation) - short  # the cue ball comes down onto it
    rec = stroke(
        {"cue": (-0.8, 0.0), "1": (x_obj, 0.0)},
        cue_speed=cue_speed,
        elevation=elevation,
        spec=spec,
        sample_hz=1000.0,
        cue="jump",  # a playing cue catches the rebound at these elevations (physics.cue) and barely jumps
    )
    hit = next(e for e in rec.events if e.type == "ball_ball")
    assert hit.pos is not None
    pa = np.array(hit.pos)
    assert pa[2] > R + 0.005  # the cue ball is in the air, above the equator
    # The cue ball's velocity at contact: its last sample before the hit, carried on ballistically.
    cue = rows(rec, "cue")
    k = int(np.searchsorted(cue[:, 0], hit.t, side="right")) - 1
    va = cue[k, 4:7] + np.array([0.0, 0.0, -G]) * (hit.t - cue[k, 0])
    pb = np.array([x_obj, 0.0, R])
    n = (pb - pa) / np.linalg.norm(pb - pa)
    assert n[2] < -0.1  # contact above the object ball's equator
    dvz = 0.5 * (1.0 + p.e_ball) * float(np.dot(va, n)) * float(n[2])
    expected = p.e_table * -dvz
    takeoff = next(e for e in rec.events if e.type == "airborne" and e.ball == "1")
    assert takeoff.speed is not None
    assert takeoff.t == pytest.approx(hit.t, abs=1e-9)
    # 3 %: the cue ball's velocity is reconstructed from a 1 ms sample (Bullet's Euler step).
    assert takeoff.speed == pytest.approx(expected, rel=0.03)
    # It really leaves the cloth. (Its peak is not simply v_z^2 / 2g: the cue ball, still coming
    # down on it, may touch it again - the three-body cue-object-slate impact is resolved as a
    # sequence of pair impulses, each of which can only take energy out.)
    obj = rows(rec, "1")
    rise = float(obj[:, 3].max()) - R
    assert rise > 0.005
    assert float(obj[:, 3].max()) < 1.0


@pytest.mark.parametrize("tip", [(0.0, 0.0), (0.0, 0.5), (0.0, -0.5), (0.4, 0.0)])
@pytest.mark.parametrize("ball_speed", [1.0, 4.0, 9.0])
def test_a_level_hit_on_the_cloth_never_lifts_the_struck_ball(tip, ball_speed) -> None:
    R = PYRAMID.ball_radius
    # A hard level draw lifts the cue ball a few millimetres (vertical squirt, test_motion): 1.1 m ahead it has
    # landed and settled long before it gets there, so the hit is level.
    x = 0.3 if ball_speed > 5.0 else -0.3
    rec = stroke({"cue": (-0.8, 0.0), "1": (x, 0.01)}, ball_speed, tip=tip, sample_hz=1000.0)
    hit = next(e for e in rec.events if e.type == "ball_ball")
    assert hit.pos is not None
    assert abs(hit.pos[2] - R) < 1e-6
    # Until the struck ball reaches a cushion (what a cushion or a jaw does is another matter).
    until = min(
        (e.t for e in rec.events if e.ball == "1" and e.type in ("cushion", "pocketed")), default=math.inf
    )
    assert not any(e.type == "airborne" and e.ball == "1" and e.t < until for e in rec.events)
    obj = rows(rec, "1")
    before = obj[obj[:, 0] < until]
    assert len(before) > 10
    assert float(before[:, 3].max()) - R < 0.001


def test_a_hopping_break_throws_an_object_ball_off_the_pool_table() -> None:
    """A hard break with 5 deg of elevation hops the cue ball (test_table: 8-20 mm); it comes down on
    the apex ball above its equator and throws it up (e_table of a ~1 m/s push), and object balls
    thrown up leave the table. Which one does is the break's chaos: the apex ball with the cushions
    of before, ball 5 with the measured ones (physics.cushion)."""
    from physics.racks import BENCH_POOL, initial_layout  # noqa: PLC0415 - only this test needs a rack
    from physics.record import ShotParams  # noqa: PLC0415
    from physics.simulate import simulate  # noqa: PLC0415

    layout = initial_layout(BENCH_POOL, POOL)
    shot = ShotParams(ball="cue", cue_speed=12.0, direction=0.0, elevation=5.0, tip=(0.0, 0.0))
    rec = simulate(POOL, layout, shot, sample_hz=None)
    fliers = {e.ball for e in rec.events if e.type == "airborne" and e.ball != "cue"}
    assert "1" in fliers
    assert any(rec.final[b].status == "off_table" for b in fliers)
    first = next(e for e in rec.events if e.type == "ball_ball")
    # the apex was hit from above
    assert first.pos is not None
    assert first.pos[2] > POOL.ball_radius
