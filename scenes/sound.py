"""Contact sounds (cue, ball, cushion, pocket) played from the shot record's events during playback.

The WAVs are synthesized by ``tools/make_sounds.py``. Volume follows the impact speed the physics
reports on the event (``speed``), on a log scale because loudness is perceived that way. With sound
off in the settings, or no audio device (Panda3D then hands out a null manager), every call is a no-op.
"""

from __future__ import annotations

import math
from collections import deque
from pathlib import Path
from typing import Any

from physics.record import Event, EventType

SOUND_DIR = Path(__file__).resolve().parent.parent / "assets" / "sounds"
KINDS = ("cue", "ball", "cushion", "pocket")
PLAYED_KEPT = 512  # sounds remembered in SoundBank.played (a stroke plays tens)
_EVENT_SOUND = {
    EventType.CUE_STRIKE: "cue",
    EventType.BALL_BALL: "ball",
    EventType.CUSHION: "cushion",
    EventType.POCKET_JAW: "cushion",
    EventType.POCKETED: "pocket",
}
# Typical impact speeds (m/s) for the loudness scale: a touch is ~0.05, a hard break ~8.
_SOFT, _HARD = 0.05, 8.0


def loudness(speed: float | None) -> float:
    """0..1 gain for an impact at ``speed`` m/s (0.5 when the physics gave no speed)."""
    if speed is None or not math.isfinite(speed):
        return 0.5
    s = min(max(abs(speed), _SOFT), _HARD)
    return 0.15 + 0.85 * math.log(s / _SOFT) / math.log(_HARD / _SOFT)


def sound_for(event: Event) -> str | None:
    return _EVENT_SOUND.get(event.type)


class SoundBank:
    """Loads the four contact sounds once; ``play_event`` plays the one an event calls for."""

    def __init__(self, base: Any, settings: Any) -> None:
        self.enabled = bool(settings.sound.enabled)
        self.volume = float(settings.sound.volume)
        self.sounds: dict[str, Any] = {}
        # (kind, gain) of the sounds asked for lately, for tests; bounded, so a long session does not grow.
        self.played: deque[tuple[str, float]] = deque(maxlen=PLAYED_KEPT)
        if not self.enabled:
            return
        from panda3d.core import Filename

        # Without an audio device Panda3D's null manager hands back silent sounds: nothing to catch here.
        for kind in KINDS:
            self.sounds[kind] = base.loader.loadSfx(Filename.fromOsSpecific(str(SOUND_DIR / f"{kind}.wav")))

    def play(self, kind: str, gain: float) -> None:
        if not self.enabled:
            return
        self.played.append((kind, gain))
        snd = self.sounds.get(kind)
        if snd is None:
            return
        snd.setVolume(max(0.0, min(1.0, gain * self.volume)))
        snd.play()

    def play_event(self, event: Event) -> None:
        kind = sound_for(event)
        if kind is not None:
            self.play(kind, loudness(event.speed))
