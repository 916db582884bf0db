"""Bullet balls on hard supports, and the engine's teardown.

* Spin about the vertical decays on a rail top at that surface's rate
  (Panda3D's Bullet has no spinning friction; the engine applies the constant twisting-friction
  deceleration of the supporting surface, params spin_decel_floor / spin_decel_rail): a ball set
  spinning in place at w0 stops after w0 / alpha (+-5 %) and stays where it was. On the floor (out of
  play) a ball only spinning in place rests at once where it is.
* An engine built and dropped without being run does not crash the interpreter at exit (it did,
  every time: Bullet's contact callback pointer was left dangling by the dropped world).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from physics.engine import Engine
from physics.params import PhysicsParams
from physics.record import BallStatus, EventType
from physics.tables import load_table

ROOT = Path(__file__).resolve().parents[2]
SPEC = load_table("pyramid-12ft")
P = PhysicsParams.for_table(SPEC)


def _spin_in_place(where: str, w0: float) -> Engine:
    eng = Engine(SPEC, {"cue": (0.0, 0.0)}, P, sample_hz=50.0)
    R = P.R
    if where == "floor":
        eng.pos[0] = (SPEC.half_length + 0.6, 0.0, SPEC.floor_z + R)
    else:  # the middle of the left rail top
        eng.pos[0] = (0.5, SPEC.half_width + SPEC.cushion_width + SPEC.rail_width / 2, SPEC.rail_height + R)
    eng.omg[0] = (0.0, 0.0, w0)
    eng.to_bullet(0)
    try:
        eng.run(None)
    finally:
        eng.close()
    return eng


def test_spin_in_place_on_the_floor_ends_the_stroke_where_the_ball_is() -> None:
    """A ball on the floor is out of play; spinning in place about the vertical it moves nowhere, so it
    rests at once where it is (the stroke does not wait for the floor's slow pivot friction)."""
    eng = _spin_in_place("floor", 300.0)
    stop = [e for e in eng.events if e.type == EventType.REST]
    # two Bullet steps (50 ms) apart: the rest test
    assert len(stop) == 1
    assert stop[0].t <= 0.15
    f = eng.finals["cue"]
    assert f.status == BallStatus.OFF_TABLE
    assert f.rest == "floor"
    assert f.pos is not None
    assert abs(f.pos[0] - (SPEC.half_length + 0.6)) < 1e-3
    assert abs(f.pos[1]) < 1e-3


def test_spin_in_place_on_the_rail_top_ends_the_stroke_where_the_ball_is() -> None:
    """The wooden rail top is level too: a ball spinning in place on it moves nowhere and rests at once."""
    eng = _spin_in_place("rail", 12.0)
    stop = [e for e in eng.events if e.type == EventType.REST]
    assert len(stop) == 1
    assert stop[0].t <= 0.15
    f = eng.finals["cue"]
    assert f.status == BallStatus.OFF_TABLE
    assert f.rest == "rail"
    assert f.pos is not None
    assert abs(f.pos[0] - 0.5) < 1e-3


def test_spin_about_the_vertical_on_the_rail_top_decays_at_the_rail_rate() -> None:
    """A ball rolling slowly along the rail top with side spin: its spin about the vertical falls at
    spin_decel_rail (the wood's pivot friction), its speed at mu_roll_rail g, until it stops."""
    eng = Engine(SPEC, {"cue": (0.0, 0.0)}, P, sample_hz=50.0)
    R, v0, w0 = P.R, 0.3, 12.0
    eng.pos[0] = (-0.5, SPEC.half_width + SPEC.cushion_width + SPEC.rail_width / 2, SPEC.rail_height + R)
    eng.vel[0] = (v0, 0.0, 0.0)
    eng.omg[0] = (0.0, v0 / R, w0)  # rolling along +x, and spinning
    eng.to_bullet(0)
    try:
        eng.run(None)
    finally:
        eng.close()
    assert eng.samples is not None
    rows = np.array(eng.samples["cue"])
    t_stop = v0 / (P.mu_roll_rail * 9.81)
    moving = rows[(rows[:, 0] > 0.1) & (rows[:, 0] < 0.8 * t_stop)]
    wz = np.polyfit(moving[:, 0], moving[:, 9], 1)[0]
    vx = np.polyfit(moving[:, 0], moving[:, 4], 1)[0]
    assert wz == pytest.approx(-P.spin_decel_rail, rel=0.05)
    assert vx == pytest.approx(-P.mu_roll_rail * 9.81, rel=0.05)
    assert eng.finals["cue"].rest == "rail"


def test_engines_dropped_without_running_exit_cleanly() -> None:
    code = textwrap.dedent("""
        from physics.engine import Engine
        from physics.params import PhysicsParams
        from physics.racks import BENCH_PYRAMID, initial_layout
        from physics.tables import load_table
        spec = load_table("pyramid-12ft")
        p = PhysicsParams.for_table(spec)
        layout = initial_layout(BENCH_PYRAMID, spec)
        kept = []
        for k in range(20):
            e = Engine(spec, layout, p, sample_hz=100.0 if k % 2 else None)
            for i in range(0, len(layout), 3):
                e.to_bullet(i)        # balls in the world too
            if k % 3 == 0:
                kept.append(e)         # some alive until exit, the rest dropped at once
            del e
        print("built")
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, (out.returncode, out.stderr[-500:])
    assert out.stdout.strip() == "built"
