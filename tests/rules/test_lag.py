"""The played lag (rules/lag.py) on real simulated strokes: each fault of 003/000 loses it, the ball
nearer the head cushion wins, mirror strokes tie and the lag is played again."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from physics.record import BallFinal, BallStatus, ShotParams, ShotRecord
from physics.simulate import simulate
from physics.tables import load_table
from rules.lag import LagBall, LagFault, judge_lag, lag_faults, lag_spot

PYR = load_table("pyramid-12ft")
POOL = load_table("pool-9ft")


@cache
def lag(table_id: str, side: int, speed: float, direction: float = 0.0) -> ShotRecord:
    t = load_table(table_id)
    shot = ShotParams(ball="cue", cue_speed=speed, direction=direction, elevation=0.0, tip=(0.0, 0.0))
    return simulate(t, {"cue": lag_spot(t, side)}, shot, sample_hz=60.0)


def ball(player: int, side: int, rec: ShotRecord) -> LagBall:
    return LagBall(player, "cue", side, rec)


def test_lag_spots_are_in_the_house_on_each_half() -> None:
    for t in (PYR, POOL):
        for side in (1, -1):
            x, y = lag_spot(t, side)
            assert x < t.lines["head-string"]
            assert side * y > 0


def test_a_ball_that_never_reaches_the_foot_cushion_loses() -> None:
    short, good = lag("pyramid-12ft", 1, 0.6), lag("pyramid-12ft", -1, 2.0)
    res = judge_lag(PYR, "russian-pyramid", [ball(0, 1, short), ball(1, -1, good)])
    assert res.faults[0] == (LagFault.NO_FOOT_CUSHION,)
    assert res.faults[1] == ()
    assert res.winner == 1
    assert "заднего борта" in res.explain["ru"]
    assert "foot cushion" in res.explain["en"]


def test_the_ball_nearer_the_head_cushion_wins() -> None:
    # 1.6 m/s comes back to ~0.13 m short of the head cushion, 1.5 m/s to ~0.68 m (the measured cushions).
    a, b = lag("pyramid-12ft", 1, 1.5), lag("pyramid-12ft", -1, 1.6)
    res = judge_lag(PYR, "russian-pyramid", [ball(0, 1, a), ball(1, -1, b)])
    assert res.faults == {0: (), 1: ()}
    da, db = res.distance[0], res.distance[1]
    assert da is not None
    assert db is not None
    assert db < da
    assert res.winner == 1


def test_mirror_strokes_tie_and_the_lag_is_played_again() -> None:
    a, b = lag("pyramid-12ft", 1, 2.0), lag("pyramid-12ft", -1, 2.0)
    res = judge_lag(PYR, "russian-pyramid", [ball(0, 1, a), ball(1, -1, b)])
    assert res.faults == {0: (), 1: ()}
    assert res.winner is None
    assert "повторяется" in res.explain["ru"]


def test_both_faulted_is_played_again() -> None:
    short = lag("pyramid-12ft", 1, 0.6)
    mirror = lag("pyramid-12ft", -1, 0.6)
    assert judge_lag(PYR, "american", [ball(0, 1, short), ball(1, -1, mirror)]).winner is None


def test_crossing_onto_the_opponents_half_loses() -> None:
    rec = lag("pyramid-12ft", 1, 3.0, -8.0)  # aimed across the long axis
    assert LagFault.OPPONENT_HALF in lag_faults(PYR, "russian-pyramid", ball(0, 1, rec))


def test_a_long_cushion_loses() -> None:
    rec = lag("pyramid-12ft", 1, 2.0, 8.0)  # aimed at its own long cushion
    assert any(e.cushion in ("left-head", "left-foot") for e in rec.events)
    assert LagFault.LONG_CUSHION in lag_faults(PYR, "russian-pyramid", ball(0, 1, rec))


def test_a_pocketed_ball_loses() -> None:
    import math

    # Straight at the foot corner (a pool pocket takes a ball from this angle; 1.5-3 m/s all drop).
    (x0, y0), (px, py) = lag_spot(POOL, 1), POOL.pockets["foot-left"].centre
    rec = lag("pool-9ft", 1, 2.5, math.degrees(math.atan2(py - y0, px - x0)))
    assert "cue" in rec.pocketed()
    assert LagFault.POCKETED in lag_faults(POOL, "pool-8-ball", ball(0, 1, rec))
    assert LagFault.POCKETED in lag_faults(POOL, "golf", ball(0, 1, rec))


@pytest.mark.parametrize("game,lost", [("pool-9-ball", True), ("golf", False)])
def test_two_foot_cushions_lose_in_pool_only(game: str, lost: bool) -> None:
    rec = lag("pool-9ft", 1, 3.0)  # to the foot, back to the head, out to the foot again
    assert [e.cushion for e in rec.events if e.cushion].count("foot") >= 2
    assert (LagFault.FOOT_TWICE in lag_faults(POOL, game, ball(0, 1, rec))) is lost


def test_stopping_in_a_head_corner_mouth_loses_in_pool() -> None:
    rec = lag("pool-9ft", 1, 1.5)
    R = POOL.ball_radius
    mouth = (-POOL.length / 2 + R - 0.01, POOL.width / 2 - 0.03, R)
    in_mouth = replace(rec, final={**rec.final, "cue": BallFinal(BallStatus.ON_TABLE, pos=mouth)})
    lb = LagBall(0, "cue", 1, in_mouth)
    assert LagFault.HEAD_POCKET_MOUTH in lag_faults(POOL, "pool-8-ball", lb)
    assert LagFault.HEAD_POCKET_MOUTH not in lag_faults(POOL, "pool-8-ball", ball(0, 1, rec))
