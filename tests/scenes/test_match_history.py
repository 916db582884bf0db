"""Long sessions: the undo stack keeps sampled records only for its newest snapshots (hardening repro
tests/hardening/repro/practice_history_memory.py: memory grew ~6 MiB per stroke without bound)."""

from __future__ import annotations

import random

from physics.record import ShotParams
from scenes.match import HISTORY_WITH_SAMPLES, MatchController


def test_undo_history_drops_old_samples_but_keeps_positions() -> None:
    m = MatchController(game="practice", names=("",))
    rng = random.Random(1)
    layouts = []
    for _ in range(HISTORY_WITH_SAMPLES + 3):
        layouts.append(dict(m.positions))
        m.stroke(ShotParams(cue_speed=rng.uniform(1.5, 3.0), direction=rng.uniform(0, 360), elevation=5.0))
        m.apply()
    with_samples = [h[2] is not None and h[2].record.samples is not None for h in m.history]
    assert sum(with_samples) <= HISTORY_WITH_SAMPLES
    assert all(with_samples[-HISTORY_WITH_SAMPLES:])
    # Undo still walks back through every position, the slimmed ones included.
    for expected in reversed(layouts):
        assert m.undo()
        assert m.positions == expected
