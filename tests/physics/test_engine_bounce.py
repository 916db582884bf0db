"""Impacts on Bullet's surfaces (rail tops, floor, jaws, lamp...) keep the surface's restitution.

Bullet alone returned almost nothing below ~1 m/s (its contact point exists ~0.02 R before the touch,
slows the approach there, and loses its restitution once two substeps old; on a bare box with e 0.85:
0 below 1 m/s, 0.35 at 2 m/s, 0.6 at 4 m/s). The engine makes Bullet's contacts plastic and adds the
rebound itself (engine.hooks.BulletHooks.tick): a ball leaves at e times the speed it met the surface with.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from physics.engine import Engine
from physics.params import G, PhysicsParams
from physics.tables import load_table


def _drop(
    table: str, xy: tuple[float, float], z_top: float, height: float, e_key: str
) -> tuple[float, float, float]:
    """A ball dropped from ``height`` (its bottom above the surface at z_top) onto the surface under ``xy``:
    (impact speed, speed of the first rebound, the surface's restitution)."""
    spec = load_table(table)
    p = PhysicsParams.for_table(spec)
    eng = Engine(spec, {"b": xy}, p, sample_hz=1000.0)
    eng.pos[0, 2] = z_top + p.R + height
    eng.to_bullet(0)
    eng.run(None)
    assert eng.samples is not None
    rows = np.array(eng.samples["b"])
    vz = rows[:, 6]
    k = int(np.argmax(vz > 0.0))  # first row moving up: after the first impact
    assert k > 0
    return float(-vz[:k].min()), float(vz[k : k + 5].max()), float(getattr(p, e_key))


@pytest.mark.parametrize("height", [0.005, 0.02, 0.1, 0.3])
def test_a_ball_dropped_on_the_rail_top_rebounds_with_e_rail(height: float) -> None:
    spec = load_table("pyramid-12ft")
    # The middle of the wooden rail top behind the right cushion, away from the pockets.
    y = -(spec.half_width + spec.cushion_width + 0.5 * spec.rail_width)
    v_in, v_out, e = _drop("pyramid-12ft", (0.3, y), spec.rail_height, height, "e_rail")
    assert v_in == pytest.approx(math.sqrt(2 * G * height), rel=0.05)
    # Gravity over the rebound's substep takes g h = 0.01 m/s off the peak rebound row.
    assert v_out == pytest.approx(e * v_in, abs=0.012 + 0.02 * v_in)


@pytest.mark.parametrize("height", [0.01, 0.2])
def test_a_ball_dropped_on_the_floor_rebounds_with_e_floor(height: float) -> None:
    spec = load_table("pool-9ft")
    v_in, v_out, e = _drop("pool-9ft", (0.0, -spec.half_width - 0.6), spec.floor_z, height, "e_floor")
    assert v_out == pytest.approx(e * v_in, abs=0.012 + 0.02 * v_in)


@pytest.mark.parametrize("speed", [5.0, 10.0, 15.0])
def test_a_fast_ball_barely_enters_a_wall(speed: float) -> None:
    """A ball thrown at a room wall: Bullet meets the wall only once the ball is in it, so the depth is the
    ball's travel in one of Bullet's steps, which the engine keeps under MICRO_TRAVEL (2.5 mm) while a
    ball is fast; at one 1 ms step a 15 m/s ball went 14 mm in. It comes off at e_wall times the speed it met
    the wall with."""
    from panda3d.bullet import BulletWorld

    from physics.engine import MICRO_TRAVEL
    from physics.geometry import DEFAULT_MATERIALS, build_table_geometry

    spec = load_table("pool-9ft")
    p = PhysicsParams.for_table(spec)
    geo = build_table_geometry(BulletWorld(), spec)
    eng = Engine(spec, {"b": (0.0, 0.0)}, p, sample_hz=1000.0)
    # Half a metre over the floor beyond the table's foot end, thrown straight at the +x wall.
    eng.pos[0] = (spec.half_length + 1.0, 0.0, spec.floor_z + 0.5)
    eng.vel[0] = (speed, 0.0, 0.0)
    eng.to_bullet(0)
    eng.take_off(0)
    eng.run(None)
    assert eng.samples is not None
    rows = np.array(eng.samples["b"])
    worst = 0.0
    for r in rows:
        for surf, _pt, _n, dist in geo.contacts(r[1:4], p.R):
            if surf.kind == "wall":
                worst = max(worst, -dist)
    assert worst <= MICRO_TRAVEL + 1e-3, worst
    k = int(np.argmax(rows[:, 4] < 0.0))  # first row moving back (a slower ball bounces on the floor first)
    assert k > 0
    assert -rows[k, 4] == pytest.approx(DEFAULT_MATERIALS["wall"][0] * rows[k - 1, 4], rel=0.01)
