"""Reproducer: memory grows by ~5-6 MiB per stroke in one match or practice session, without bound.

    python tests/hardening/repro/practice_history_memory.py

Seen (this script, no window): RSS 84 -> 130 MiB over 8 strokes, ~6 MiB per stroke; through the
scene (python -m tests.soak --strokes 100 --rerack 0): 152 -> 602 MiB over 100 strokes, while the
scene-graph node count stays at 66 + 29. Cause: scenes/core/match.py MatchController.apply appends
``self.last`` (a StrokeResult holding the full ShotRecord with every sample row, ~12-15k tuples at
120 Hz) to ``self.history`` for undo, for every stroke of the session. A 500-stroke session keeps
~2.5 GB. Expected: the undo stack keeps positions and states (small), or a bounded number of records.
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from physics.record import ShotParams  # noqa: E402
from scenes.core.match import MatchController  # noqa: E402
from tests.soak import rss  # noqa: E402

m = MatchController(game="practice", names=("",))
rng = random.Random(1)
for k in range(int(sys.argv[1]) if len(sys.argv) > 1 else 8):
    m.stroke(ShotParams(cue_speed=rng.uniform(2, 6), direction=rng.uniform(0, 360), elevation=5.0))
    m.apply()
    rows = sum(len(r) for r in m.last.record.samples.values()) if m.last and m.last.record.samples else 0
    print(
        f"stroke {k + 1}: RSS {rss() >> 20} MiB, undo history {len(m.history)}, sample rows in the last record {rows}"
    )
