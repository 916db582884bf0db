"""Free flight (physics.engine.freeflight): a flying ball far from everything is flown on its exact parabola,
and a low hop over the open cloth lands where and when that parabola meets the cloth (the slate is left to
the engine's analytic landing, Transitions.landing_time)."""

from __future__ import annotations

import math

import pytest

from physics.engine import Engine
from physics.params import G, PhysicsParams
from physics.record import EventType
from physics.tables import load_table


@pytest.mark.parametrize("vz", [0.15, 0.4, 1.0])
def test_a_low_hop_over_the_open_cloth_lands_on_its_parabola(vz: float) -> None:
    spec = load_table("pyramid-12ft")
    p = PhysicsParams.for_table(spec)
    eng = Engine(spec, {"b": (-0.6, 0.2), "o": (0.6, -0.4)}, p)
    vx, vy = 0.8, 0.3
    eng.vel[0] = (vx, vy, vz)
    eng.to_bullet(0)
    eng.take_off(0)
    eng.run(None)
    land = next(e for e in eng.events if e.type == EventType.LANDED and e.ball == "b")
    t = 2.0 * vz / G  # from the cloth back to it, no drag
    assert land.t == pytest.approx(t, abs=1e-6)
    assert land.pos is not None
    assert math.hypot(land.pos[0] - (-0.6 + vx * t), land.pos[1] - (0.2 + vy * t)) < 1e-5
    assert land.speed == pytest.approx(vz, abs=1e-6)
