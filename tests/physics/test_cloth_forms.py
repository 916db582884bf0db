"""The cloth motion has a plain-float form (fast for the few balls of a step) and an array form (many
balls, per-ball step lengths); records must not depend on which one ran, so they agree bit for bit —
signed zeros, zero-length steps, pure rolling and sliding states included."""

from __future__ import annotations

import numpy as np
import pytest

from physics import cloth
from physics.params import PhysicsParams
from physics.tables import load_table

P = PhysicsParams.for_table(load_table("pool-9ft"))


def _state(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pos = rng.normal(size=(n, 3))
    v = rng.normal(size=(n, 3)) * rng.choice([0.0, 1e-10, 0.01, 1.0, 5.0])
    w = rng.normal(size=(n, 3)) * rng.choice([0.0, 1.0, 50.0])
    if n and rng.random() < 0.3:
        w[:, :2] = np.stack((-v[:, 1], v[:, 0]), 1) / P.R  # rolling without slip
    if n and rng.random() < 0.2:
        pos[0, 1] = -0.0
        v[0, 1] = -0.0
    if n and rng.random() < 0.2:
        w[0, 2] = 0.0
    return pos, v, w


def test_plain_float_and_array_forms_agree_bit_for_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(1)
    for _ in range(3000):
        n = int(rng.integers(0, 12))
        pos, v, w = _state(rng, n)
        dt = float(rng.choice([0.0, 1e-3, 0.05, 0.2, 3.0]) * rng.random())
        a = cloth._advance_scalar(pos, v, w, dt, P)
        with monkeypatch.context() as m:
            m.setattr(cloth, "SCALAR_MAX", -1)  # force the array form
            b = cloth.advance(pos, v, w, dt, P)
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            assert x.shape == y.shape, (n, dt)
            assert x.tobytes() == y.tobytes(), (n, dt)


def test_motion_gives_advances_positions_and_velocities() -> None:
    rng = np.random.default_rng(2)
    for _ in range(1000):
        n = int(rng.integers(0, 40))
        pos, v, w = _state(rng, n)
        dt = rng.random(n) * rng.choice([0.0, 1e-3, 0.05, 0.2, 3.0])
        a = cloth.advance(pos, v, w, dt, P)
        b = cloth.motion(pos, v, w, dt, P)
        assert a[0].tobytes() == b[0].tobytes()
        assert a[1].tobytes() == b[1].tobytes()


def test_rows_form_is_advance_of_each_ball_alone() -> None:
    """cloth.advance_rows (the samples' ball-by-ball form) gives for each ball what advance gives that ball
    alone, bit for bit: the rolling phase of a one-ball step depends on that ball only."""
    rng = np.random.default_rng(3)
    for _ in range(3000):
        n = int(rng.integers(1, 8))
        pos, v, w = _state(rng, n)
        dt = float(rng.choice([0.0, 1e-3, 0.05, 0.2, 3.0]) * rng.random())
        rows = cloth.advance_rows(pos.tolist(), v.tolist(), w.tolist(), dt, P)
        for i, (p1, v1, w1) in enumerate(rows):
            p0, v0, w0, _stop = cloth.advance(pos[i : i + 1], v[i : i + 1], w[i : i + 1], dt, P)
            got = np.array([p1, v1, w1])
            assert got.tobytes() == np.concatenate((p0, v0, w0)).tobytes(), (n, dt, i)
