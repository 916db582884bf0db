"""Two-line rule tests: a layout, a script, a state → the ruling (no physics)."""

from __future__ import annotations

from typing import Any

from physics.record import ShotRecord
from rules.contract import Family
from rules.notation import record
from rules.registry import game_ids, get_referee
from rules.ruling import Ruling
from rules.state import MatchState

# Every game of Russian billiards the registry knows (the called variants included).
PYRAMID_GAMES = tuple(g for g in game_ids() if get_referee(g).family == Family.RUSSIAN)
R = 0.034


def state_for(game: str, rec: ShotRecord, **state: Any) -> MatchState:
    balls = {b: (p[0], p[1]) for b, p in rec.initial.items()}
    return MatchState.from_scenario(get_referee(game), state, balls, "test")


def judge(game: str, layout: str, script: str = "", **state: Any) -> Ruling:
    rec = record(layout, script)
    return get_referee(game).judge(state_for(game, rec, **state), rec)


def judge_st(game: str, layout: str, script: str = "", **state: Any) -> tuple[MatchState, Ruling]:
    rec = record(layout, script)
    st = state_for(game, rec, **state)
    return st, get_referee(game).judge(st, rec)
