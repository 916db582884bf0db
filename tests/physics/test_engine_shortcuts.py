"""The engine's closed-form shortcuts give the motion the physics says (issue 13 §5: a stroke's cost follows its
events, not its length; these are the cases that kept a ball in Bullet's substeps for seconds).

* A hop so low that Bullet never loses the slate's contact is a landing once the ball lies on the slate
  again: the flight ends and the ball rolls on on the cloth's closed form (it used to stay "flying" for
  good, spinning in Bullet for 16 s in campaign seed 600075).
* A ball spinning in place on the slate by a pocket, or touching a cushion, goes nowhere: it stays where it
  is and its spin decays at the cloth's spin_decel, so it rests after w0 / spin_decel.
* A ball rolling on the floor slows at mu_roll_floor g (SurfaceContacts.support in Bullet, FreeRoll in closed
  form): it stops after v0 / (mu g), v0^2 / (2 mu g) on; and rolled toward a wall it still meets it.
* A ball falling off the table's edge is flown free (FreeFlight) and still lands on the floor.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from physics.engine import Engine
from physics.params import G, PhysicsParams
from physics.record import BallStatus, EventType
from physics.tables import load_table

SPEC = load_table("pyramid-12ft")
P = PhysicsParams.for_table(SPEC)
R = P.R


def _run(eng: Engine) -> Engine:
    try:
        eng.run(None)
    finally:
        eng.close()
    return eng


def _rest_t(eng: Engine, ball: str) -> float:
    return next(e.t for e in eng.events if e.type == EventType.REST and e.ball == ball)


def test_a_hop_that_never_leaves_the_slate_lands_and_rolls_on_the_cloth() -> None:
    """A rolling ball given 2 cm/s upwards (a 20 um hop) in Bullet: a landing on the bed is logged within
    a few substeps, and the ball then rolls out as on the cloth: v0 over the hop's 2 vz / g (no rolling
    resistance in the air), then v0^2 / (2 mu_r g)."""
    v0, vz = 0.6, 0.02
    x0 = -float(SPEC.half_length) + 0.1
    eng = Engine(SPEC, {"cue": (x0, 0.1)}, P)
    eng.vel[0] = (v0, 0.0, vz)
    eng.omg[0] = (0.0, v0 / R, 0.0)  # rolling along +x
    eng.to_bullet(0)
    eng.take_off(0)
    _run(eng)
    land = [e for e in eng.events if e.type == EventType.LANDED and e.ball == "cue"]
    assert len(land) == 1
    assert land[0].on == "bed"
    assert land[0].t < 0.03
    f = eng.finals["cue"]
    assert f.status == BallStatus.ON_TABLE
    assert f.pos is not None
    hop = 2.0 * vz / G
    assert f.pos[0] - x0 == pytest.approx(v0 * hop + v0 * v0 / (2.0 * P.mu_roll * G), abs=1e-3)
    assert _rest_t(eng, "cue") == pytest.approx(v0 / (P.mu_roll * G), abs=0.02)


def _by_the_corner_pocket(eng: Engine) -> tuple[float, float]:
    """A place on the slate, clear of the cushions, inside the foot-left corner pocket's zone."""
    z = eng.zones
    for d in np.arange(R + 0.005, 0.2, 0.002):
        x, y = float(z.lim[0] - d), float(z.lim[1] - d)
        if z.in_zone((x, y)) and z.over_slate(x, y):
            return x, y
    raise AssertionError("no slate inside the corner pocket's zone")


def _on_the_foot_cushion_by_the_pocket(eng: Engine) -> tuple[float, float]:
    """A place frozen to the foot cushion inside the foot-left corner pocket's zone, over the slate."""
    z = eng.zones
    x = float(z.lim[0])
    for d in np.arange(0.005, 0.3, 0.002):
        y = float(z.lim[1] - d)
        if z.in_zone((x, y)) and z.over_slate(x, y):
            return x, y
    raise AssertionError("no slate along the foot cushion inside the corner pocket's zone")


@pytest.mark.parametrize("where", ["pocket zone", "against the cushion", "against the cushion by a pocket"])
def test_a_ball_spinning_in_place_stays_put_and_stops_at_the_cloth_rate(where: str) -> None:
    w0 = 20.0
    eng = Engine(SPEC, {"cue": (0.0, 0.0)}, P)
    if where == "pocket zone":
        x, y = _by_the_corner_pocket(eng)
    elif where == "against the cushion":  # frozen to the head cushion, mid-way along it
        x, y = -float(eng.zones.lim[0]), 0.3
    else:  # pressed 0.3 mm into the foot cushion (Bullet's contact slop), by the corner pocket
        x, y = _on_the_foot_cushion_by_the_pocket(eng)
        x += 3e-4
    eng.pos[0] = (x, y, R)
    eng.omg[0] = (0.0, 0.0, w0)
    eng.to_bullet(0)
    _run(eng)
    assert _rest_t(eng, "cue") == pytest.approx(w0 / P.spin_decel, rel=0.02)
    f = eng.finals["cue"]
    assert f.status == BallStatus.ON_TABLE
    assert f.pos is not None
    assert math.hypot(f.pos[0] - x, f.pos[1] - y) < 4e-4


def _on_the_floor(x: float, y: float, vx: float, vy: float) -> Engine:
    eng = Engine(SPEC, {"cue": (0.0, 0.0)}, P, sample_hz=50.0)
    eng.pos[0] = (x, y, SPEC.floor_z + R)
    eng.vel[0] = (vx, vy, 0.0)
    eng.omg[0] = (-vy / R, vx / R, 0.0)  # rolling
    eng.to_bullet(0)
    return _run(eng)


def test_a_ball_rolling_on_the_floor_stops_where_the_floor_stops_it() -> None:
    """1 m/s along the floor beside the table, far from the walls: it stops v0 / (mu g) later,
    v0^2 / (2 mu g) on, and its sampled speed falls linearly on the way."""
    v0, mu = 1.0, P.mu_roll_floor
    x0, y0 = SPEC.half_length + 1.0, -1.5
    eng = _on_the_floor(x0, y0, 0.0, v0)
    f = eng.finals["cue"]
    assert f.status == BallStatus.OFF_TABLE
    assert f.rest == "floor"
    assert f.pos is not None
    assert f.pos[1] - y0 == pytest.approx(v0 * v0 / (2.0 * mu * G), abs=5e-3)
    assert abs(f.pos[0] - x0) < 1e-3
    assert _rest_t(eng, "cue") == pytest.approx(v0 / (mu * G), abs=0.1)
    assert eng.samples is not None
    rows = eng.samples["cue"]
    for t in (0.5, 1.0, 1.5):
        row = min(rows, key=lambda r: abs(r[0] - t))
        assert math.hypot(row[4], row[5]) == pytest.approx(v0 - mu * G * row[0], abs=0.01)


def test_a_ball_rolled_toward_a_wall_still_meets_it() -> None:
    """Rolled at 2 m/s toward the room's wall from 0.5 m away: it touches the wall and comes back off it."""
    from physics.plan.parts import ROOM_HALF

    x0 = ROOM_HALF[0] - 0.5
    eng = _on_the_floor(x0, 2.0, 2.0, 0.0)
    assert any(e.type == EventType.TOUCHED and e.object == "wall" and e.ball == "cue" for e in eng.events)
    f = eng.finals["cue"]
    assert f.pos is not None
    assert f.pos[0] < ROOM_HALF[0] - R


def test_a_ball_rolled_off_the_table_edge_lands_on_the_floor() -> None:
    """A ball set moving outwards on the rail top falls off the table's edge; flown free through the air it
    still reaches the floor and ends there."""
    eng = Engine(SPEC, {"cue": (0.0, 0.0)}, P)
    y = SPEC.half_width + SPEC.cushion_width + SPEC.rail_width / 2
    eng.pos[0] = (0.3, y, SPEC.rail_height + R)
    eng.vel[0] = (0.0, 1.5, 0.0)
    eng.omg[0] = (-1.5 / R, 0.0, 0.0)
    eng.to_bullet(0)
    _run(eng)
    assert any(e.type == EventType.TOUCHED and e.object == "floor" for e in eng.events)
    f = eng.finals["cue"]
    assert f.status == BallStatus.OFF_TABLE
    assert f.rest == "floor"
