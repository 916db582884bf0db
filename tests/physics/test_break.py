"""Hard breaks: wherever the balls end up, they end up somewhere real; the same stroke twice is the same."""

from __future__ import annotations

import math
import random
from functools import cache

import numpy as np
import pytest
from panda3d.bullet import BulletWorld

from physics.cue import cue_speed_for
from physics.geometry import build_table_geometry
from physics.params import PhysicsParams
from physics.racks import BENCH_PYRAMID, initial_layout
from physics.record import BallStatus, ShotParams
from physics.simulate import simulate
from physics.tables import load_table

SPEC = load_table("pyramid-12ft")
P = PhysicsParams.for_table(SPEC)
R = P.R
BALL_SPEED = 13.0


@cache
def _geometry():
    return build_table_geometry(BulletWorld(), SPEC)


def _variation(seed: int) -> tuple[dict[str, tuple[float, float]], ShotParams]:
    rng = random.Random(seed)
    layout = initial_layout(BENCH_PYRAMID, SPEC, seed=seed)
    tip = (rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.3))
    shot = ShotParams(
        ball="cue",
        cue_speed=cue_speed_for(BALL_SPEED, math.hypot(*tip), P),
        direction=rng.uniform(-1.5, 1.5),
        elevation=rng.uniform(0.0, 6.0),
        tip=tip,
    )
    return layout, shot


def _check(record) -> None:
    geo = _geometry()
    on_table = []
    assert set(record.final) == set(record.initial)
    for ball, f in record.final.items():
        if f.status == BallStatus.POCKETED:
            assert f.pocket in SPEC.pockets
            continue
        assert f.pos is not None
        assert all(math.isfinite(c) for c in f.pos)
        if f.status == BallStatus.ON_TABLE:
            assert f.pos[2] == pytest.approx(R, abs=1e-3), ball
            assert geo.in_bed_outline(f.pos[0], f.pos[1]), ball
            on_table.append(f.pos)
        else:
            assert f.status == BallStatus.OFF_TABLE, ball
            assert f.rest in (
                "rail",
                "floor",
                "frame",
                "lamp",
                "pocket",
            ), ball
        # Never inside a cushion, jaw, rail, the frame or the slate (1 mm of contact slop allowed).
        worst = min((d for _s, _p, _n, d in geo.contacts(f.pos, R)), default=0.0)
        assert worst > -1e-3, (ball, f, worst)
    pts = np.array(on_table)
    if len(pts) > 1:
        d = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2))
        d[np.diag_indices(len(pts))] = np.inf
        assert d.min() >= 2 * R - 5e-4


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(4))
def test_hard_breaks_leave_every_ball_somewhere_real(batch: int) -> None:
    for seed in range(batch * 25, batch * 25 + 25):
        layout, shot = _variation(seed)
        _check(simulate(SPEC, layout, shot, P))


def test_the_same_stroke_twice_gives_the_identical_record() -> None:
    layout, shot = _variation(7)
    a = simulate(SPEC, layout, shot, P, sample_hz=120.0).to_json()
    b = simulate(SPEC, layout, shot, P, sample_hz=120.0).to_json()
    assert a == b
