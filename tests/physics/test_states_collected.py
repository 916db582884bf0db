"""A process that simulates without drawing must not grow: Panda3D caches every transform state
Bullet writes until something prunes the cache (a rendered frame, or ``simulate``'s own call).
Regression: the app's physics worker grew ~20 MiB over a 500-stroke soak (issue 6)."""

from __future__ import annotations

from panda3d.core import TransformState

from physics.record import ShotParams
from physics.simulate import simulate
from physics.tables import load_table


def test_varied_strokes_leave_no_cached_transform_states_behind() -> None:
    t = load_table("pool-9ft")
    layout = {"cue": (-0.6, 0.1), "1": (0.3, -0.05), "2": (0.5, 0.2)}
    simulate(t, layout, ShotParams(ball="cue", cue_speed=3.0, direction=0.0, elevation=0.0, tip=(0.0, 0.0)))
    before = TransformState.get_num_states()
    for i in range(12):
        # Every stroke different (so no state is shared with the one before): ~300 new states each.
        shot = ShotParams(
            ball="cue",
            cue_speed=2.0 + 0.37 * i,
            direction=-20.0 + 3.3 * i,
            elevation=15.0 + 2 * i,
            tip=(0.0, 0.1),
        )
        simulate(t, layout, shot)
    assert TransformState.get_num_states() - before < 300
