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
    else:   # the middle of the left rail top
        eng.pos[0] = (0.5, SPEC.half_width + SPEC.cushion_width + SPEC.rail_width / 2, SPEC.rail_height + R)
    eng.omg[0] = (0.0, 0.0, w0)
    eng._to_bullet(0)
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
    assert len(stop) == 1 and stop[0].t <= 0.15     # two Bullet steps (50 ms) apart: the rest test
    f = eng.finals["cue"]
    assert f.status == BallStatus.OFF_TABLE and f.rest == "floor" and f.pos is not None
    assert abs(f.pos[0] - (SPEC.half_length + 0.6)) < 1e-3 and abs(f.pos[1]) < 1e-3


@pytest.mark.parametrize(("where", "rest"), [("rail", "rail")])
def test_spin_in_place_stops_at_the_surface_rate(where: str, rest: str) -> None:
    w0 = 12.0
    alpha = P.spin_decel_rail
    eng = _spin_in_place(where, w0)
    stop = [e for e in eng.events if e.type == EventType.REST]
    assert len(stop) == 1
    assert stop[0].t == pytest.approx(w0 / alpha, rel=0.05)
    f = eng.finals["cue"]
    assert f.status == BallStatus.OFF_TABLE and f.rest == rest
    assert eng.samples is not None
    rows = np.array(eng.samples["cue"])
    # It spun in place: the centre moved less than a millimetre, the spin fell linearly.
    assert np.abs(rows[:, 1:4] - rows[0, 1:4]).max() < 1e-3
    mid = rows[np.argmin(np.abs(rows[:, 0] - 0.5 * w0 / alpha))]
    assert mid[9] == pytest.approx(w0 - alpha * mid[0], abs=0.05 * w0)


def test_engines_dropped_without_running_exit_cleanly() -> None:
    code = textwrap.dedent("""
        from physics.engine import Engine
        from physics.params import PhysicsParams
        from physics.racks import initial_layout
        from physics.tables import load_table
        spec = load_table("pyramid-12ft")
        p = PhysicsParams.for_table(spec)
        layout = initial_layout("russian-pyramid", spec)
        kept = []
        for k in range(20):
            e = Engine(spec, layout, p, sample_hz=100.0 if k % 2 else None)
            for i in range(0, len(layout), 3):
                e._to_bullet(i)        # balls in the world too
            if k % 3 == 0:
                kept.append(e)         # some alive until exit, the rest dropped at once
            del e
        print("built")
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, (out.returncode, out.stderr[-500:])
    assert out.stdout.strip() == "built"
