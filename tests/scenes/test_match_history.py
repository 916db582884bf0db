"""Long sessions: the undo stack keeps sampled records only for its newest snapshots (hardening repro
tests/hardening/repro/practice_history_memory.py: memory grew ~6 MiB per stroke without bound)."""

from __future__ import annotations

import random

from physics.record import ShotParams
from scenes.core.match import HISTORY_WITH_SAMPLES, MatchController


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


def test_undo_depth_is_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A long practice session keeps at most HISTORY_MAX strokes to undo (each snapshot holds its stroke's
    events, ~20 KB; the 500-stroke soak traced an unbounded stack)."""
    import scenes.core.match as match

    monkeypatch.setattr(match, "HISTORY_MAX", 4)
    m = MatchController(game="practice", names=("",))
    rng = random.Random(2)
    layouts = []
    for _ in range(7):
        layouts.append(dict(m.positions))
        m.stroke(ShotParams(cue_speed=rng.uniform(1.5, 3.0), direction=rng.uniform(0, 360), elevation=5.0))
        m.apply()
    assert len(m.history) == 4
    for expected in reversed(layouts[-4:]):
        assert m.undo()
        assert m.positions == expected
    assert not m.undo()


def test_the_sounds_remembered_are_bounded() -> None:
    from types import SimpleNamespace

    from scenes.sound import PLAYED_KEPT, SoundBank

    def silent(_path: object) -> SimpleNamespace:
        # What Panda3D's null audio manager hands back without an audio device: a sound that does nothing.
        return SimpleNamespace(setVolume=lambda _v: None, play=lambda: None)

    base = SimpleNamespace(loader=SimpleNamespace(loadSfx=silent))
    bank = SoundBank(base, SimpleNamespace(sound=SimpleNamespace(enabled=True, volume=1.0)))
    for k in range(3 * PLAYED_KEPT):
        bank.play("ball", k / (3 * PLAYED_KEPT))
    assert len(bank.played) == PLAYED_KEPT
    assert bank.played[-1][0] == "ball"
