"""Shared helpers for the physics tests: strokes on a bare layout, reading samples."""

from __future__ import annotations

import math

import numpy as np

from physics.cue import cue_speed_for
from physics.params import G, PhysicsParams
from physics.record import ShotParams, ShotRecord
from physics.simulate import simulate
from physics.tables import TableSpec, load_table

PYRAMID = load_table("pyramid-12ft")
P = PhysicsParams.for_table(PYRAMID)


def stroke(
    balls: dict[str, tuple[float, float]],
    ball_speed: float | None = None,
    *,
    cue_speed: float | None = None,
    direction: float = 0.0,
    elevation: float = 0.0,
    tip: tuple[float, float] = (0.0, 0.0),
    spec: TableSpec = PYRAMID,
    params: PhysicsParams | None = None,
    sample_hz: float | None = 1000.0,
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
    objects=(),
    cue: str = "playing",
) -> ShotRecord:
    p = params or PhysicsParams.for_table(spec, cue=cue)
    if cue_speed is None:
        assert ball_speed is not None
        cue_speed = cue_speed_for(ball_speed, math.hypot(*tip), p)
    shot = ShotParams(
        ball="cue", cue_speed=cue_speed, direction=direction, elevation=elevation, tip=tip, cue=cue
    )
    return simulate(spec, balls, shot, p, objects=objects, lamp=lamp, sample_hz=sample_hz)


def rows(record: ShotRecord, ball: str = "cue") -> np.ndarray:
    assert record.samples is not None
    return np.array(record.samples[ball], dtype=float)


def slip_speed(r: np.ndarray, R: float) -> np.ndarray:
    """Contact-point speed of sampled rows on the cloth."""
    ux = r[:, 4] - R * r[:, 8]
    uy = r[:, 5] + R * r[:, 7]
    return np.hypot(ux, uy)


def speed(r: np.ndarray) -> np.ndarray:
    return np.hypot(r[:, 4], r[:, 5])


__all__ = ["G", "P", "PYRAMID", "rows", "slip_speed", "speed", "stroke"]
