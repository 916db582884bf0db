"""Positions and checks the computer player's tests share."""

from __future__ import annotations

from dataclasses import replace

from physics.record import ShotRecord
from physics.simulate import simulate
from rules.contract import CallKind, FoulCode
from rules.registry import get_referee
from rules.ruling import Ruling
from rules.state import MatchState
from scenes.core.opponent.candidates import COLOURS
from scenes.core.opponent.player import Plan, layout_for

# Fouls a computer's own declaration or placement would cause: it must never commit them.
DECLARATION_FOULS = frozenset(
    {
        FoulCode.CUE_BALL_MISPLACED,
        FoulCode.CUE_BALL_OUTSIDE_HOUSE,
        FoulCode.CUE_BALL_OUTSIDE_D,
        FoulCode.NO_NOMINATION,
    }
)


def after_break(game: str, plan: Plan, state: MatchState) -> MatchState:
    ref = get_referee(game)
    record = simulate(ref.table, layout_for(state, plan.place), plan.shot)
    return replace(state.apply(ref.judge(state, record), None), history=())


def check_legal(state: MatchState, plan: Plan) -> tuple[ShotRecord, Ruling]:
    """The plan's placement is one the referee allows, its call what the referee requires, and the referee
    judging the stroke as planned finds no placement or declaration foul."""
    ref = get_referee(state.game, state.the_rules().table_played)
    shot = plan.shot
    if state.in_hand is not None:
        assert plan.place is not None, "a ball in hand must be placed"
        x, y = plan.place
        assert ref.may_place(state, x, y, dict(state.balls)).ok, plan.place
        assert shot.ball == state.cue
    else:
        assert plan.place is None
        assert shot.ball in state.balls
    req = ref.required(state)
    objects = [b for b in state.balls if b != state.cue]
    if req.call == CallKind.BALL_AND_POCKET and objects:  # with no object ball left there is nothing to call
        assert shot.call_ball in state.balls, shot
        assert shot.call_pocket in ref.table.pockets, shot
    if req.call == CallKind.COLOUR:
        assert shot.call_ball in COLOURS, shot
        assert shot.call_ball in state.balls, shot
    record = simulate(ref.table, layout_for(state, plan.place), shot)
    ruling = ref.judge(state, record)
    assert not DECLARATION_FOULS & {f.code for f in ruling.fouls}, ruling.codes()
    return record, ruling
