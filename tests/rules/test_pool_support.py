"""Shared helpers for the pool, snooker and golf rule tests (no tests here)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from physics.record import BallId
from rules.registry import get_referee
from rules.ruling import InHand, Ruling
from rules.state import MatchState

Point = tuple[float, float]


def state(game: str, balls: dict[BallId, Point], players: int = 2, **kw: Any) -> MatchState:
    """A state in mid-frame (not a break) unless ``is_break``/``phase`` say otherwise."""
    ref = get_referee(game)
    extra = {**ref.initial_extra(players), **kw.pop("extra", {})}
    base: dict[str, Any] = dict(
        game=game, players=tuple(f"P{i}" for i in range(players)), balls=dict(balls), in_hand=None,
        is_break=False, phase="play", scores=(0,) * players, frames_won=(0,) * players,
        shelves=((),) * players, owed=(0,) * players, fouls_in_row=(0,) * players, extra=extra)
    base.update(kw)
    st = MatchState(**base)
    return replace(st, out=st.missing_balls(ref.ball_set(players)))


def check_places(st: MatchState, ruling: Ruling, decision: str | None = None) -> MatchState:
    """After the ruling every ball is in exactly one place and no ball is counted twice."""
    assert len(ruling.counted) == len(set(ruling.counted)), ruling.counted
    nxt = st.apply(ruling, decision)
    ref = get_referee(st.game)
    for b in ref.ball_set(st.n_players):
        where = nxt.where(b)
        assert len(where) == 1, (b, where, ruling.to_dict())
    for b, p in nxt.balls.items():
        assert abs(p[0]) <= ref.table.half_length and abs(p[1]) <= ref.table.half_width, (b, p)
    if nxt.in_hand is not None:
        assert nxt.cue not in nxt.balls
    assert all(isinstance(x, InHand) for x in ([nxt.in_hand] if nxt.in_hand else []))
    return nxt
