"""Synthesize the contact sounds in ``assets/sounds/`` with numpy (run: ``python tools/make_sounds.py``).

Each sound is a short physical-ish model, not a recording: a few damped sinusoids at the modes of
the colliding bodies plus a band of noise for the contact itself. The output is deterministic (fixed
seed), 16-bit mono WAV at 44.1 kHz, so regenerating gives the same bytes.
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 44100
OUT = Path(__file__).resolve().parent.parent / "assets" / "sounds"


def _modes(
    duration: float, modes: list[tuple[float, float, float]], noise: tuple[float, float, float], seed: int
) -> np.ndarray:
    """Sum of damped sines ``(freq Hz, decay 1/s, amplitude)`` plus decaying low-passed noise."""
    t = np.arange(int(duration * RATE)) / RATE
    y = np.zeros_like(t)
    for f, decay, amp in modes:
        y += amp * np.sin(2 * np.pi * f * t) * np.exp(-decay * t)
    rng = np.random.default_rng(seed)
    n = rng.standard_normal(t.size)
    cutoff, decay, amp = noise
    # One-pole low pass: phenolic clicks are bright, cloth and rubber thuds are dull.
    a = np.exp(-2 * np.pi * cutoff / RATE)
    filtered = np.empty_like(n)
    acc = 0.0
    for i, v in enumerate(n):
        acc = a * acc + (1 - a) * v
        filtered[i] = acc
    filtered /= max(1e-9, float(np.abs(filtered).max()))
    y += amp * filtered * np.exp(-decay * t)
    # A 1 ms attack ramp avoids a click from the first sample itself.
    ramp = np.minimum(1.0, t / 0.001)
    y *= ramp
    return y / max(1e-9, float(np.abs(y).max()))


SOUNDS = {
    # Phenolic balls ring at a few kHz and die within ~30 ms.
    "ball": (0.09, [(3150.0, 160.0, 1.0), (5400.0, 260.0, 0.5), (1900.0, 120.0, 0.3)], (6000.0, 400.0, 0.5)),
    # Leather tip on a ball: a duller, shorter tock with a wooden cue body resonance.
    "cue": (0.08, [(1250.0, 140.0, 1.0), (2600.0, 260.0, 0.4), (420.0, 90.0, 0.3)], (3500.0, 500.0, 0.6)),
    # Rubber cushion: a low thud, mostly damped noise.
    "cushion": (0.14, [(180.0, 45.0, 0.7), (95.0, 35.0, 0.5)], (900.0, 60.0, 1.0)),
    # Ball into a pocket: knock on the pocket rim then a softer drop into the net/box.
    "pocket": (0.30, [(260.0, 18.0, 0.6), (140.0, 14.0, 0.5), (820.0, 60.0, 0.3)], (1500.0, 25.0, 0.6)),
}


def write_wav(path: Path, y: np.ndarray) -> None:
    data = (np.clip(y, -1.0, 1.0) * 0.9 * 32767).astype("<i2").tobytes()
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for seed, (name, (dur, modes, noise)) in enumerate(sorted(SOUNDS.items())):
        write_wav(OUT / f"{name}.wav", _modes(dur, modes, noise, seed))
        print(OUT / f"{name}.wav")


if __name__ == "__main__":
    main()
