"""Snooker, what every part of the referee reads: the rule references, the family state and
:class:`SnookerRules` - the declarations both snooker games share, the ball on and the free ball, and the
penalty a foul is worth.

The referee (``rules/games/snooker.py``) is assembled from one class per concern, each built on this one:
outside interference (``snooker_interference.py``), the fouls (``snooker_fouls.py``), counting, scoring and
the respots (``snooker_counting.py``), who plays next and the end of the frame (``snooker_turn.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from physics.racks import Rack
from physics.record import BallId, EventType
from rules.base import Draft, Referee, Stroke
from rules.contract import CallKind, Family, FamilyState, Phase, RefereeWarning, WarningCode, player_index
from rules.games.snooker_geometry import COLOURS, is_red, value
from rules.ruling import FoulCode, InHand, Point
from rules.state import MatchState

REDS: tuple[BallId, ...] = tuple(f"red{i}" for i in range(1, 16))

S = "000: Международный снукер"
R_PENALTY = f"{S}, Штрафы за нарушения"
R_PLAY = f"{S}, Правила игры"
R_OFF = f"{S}, Выскочившие прицельные шары"
R_CUE_OFF = f"{S}, Выскочивший биток"
R_TOUCH = f"{S}, Касание шара"
R_FREE = f"{S}, Свободный шар"
R_MISS = f"{S}, Промах по шару"
R_SCORE = f"{S}, Ведение счета"
R_SNOOKER = f"{S}, Снукер (маска)"
R_JUMP_DEF = "WPBSA Definitions: Jump Shot"
R_OUTSIDE = "WPBSA S3 R15"
R_OUTSIDE_US = "000: Вмешательство постороннего"
R_INTERFERE_US = "000: Вмешательство в игру соперника"

AGENT_RU = {"outsider": "посторонний", "spectator": "зритель", "referee": "судья", "wind": "ветер"}

BALL_NOT_ON_POTTED = FoulCode.BALL_NOT_ON_POTTED
FREE_BALL_SNOOKER = FoulCode.FREE_BALL_SNOOKER
NO_NOMINATION = FoulCode.NO_NOMINATION
REDS_IN_SUCCESSION = FoulCode.REDS_IN_SUCCESSION
NON_WHITE_CUE_BALL = FoulCode.NON_WHITE_CUE_BALL
THREE_MISSES = FoulCode.THREE_MISSES
ILLEGAL_BREAK = FoulCode.ILLEGAL_BREAK
CUE_BALL_OUTSIDE_D = FoulCode.CUE_BALL_OUTSIDE_D


@dataclass(frozen=True)
class SnookerState(FamilyState):
    """Snooker: ``free_ball_for`` - the player who may nominate a free ball (-1: none); ``misses`` - misses
    in a row by ``miss_by`` with the ball on in full view; ``opening_by`` - the player owed a re-break."""

    free_ball_for: int = -1
    misses: int = 0
    miss_by: int = -1
    opening_by: int = -1

    @classmethod
    def read(cls, key: str, value: Any, n_players: int, file: str) -> Any:
        return player_index(file, key, value)

    def implied_warnings(self) -> tuple[RefereeWarning, ...]:
        # The referee warns after the second miss; a file with two or more misses counted had the warning.
        if self.misses >= 2 and self.miss_by >= 0:
            return (RefereeWarning(WarningCode.THIRD_MISS, self.miss_by),)
        return ()


class SnookerRules(Referee):
    """What both snooker games declare and the facts of a stroke they ask: the ball on, a free ball, the D."""

    balls: ClassVar[tuple[BallId, ...]] = ("cue", *REDS, *COLOURS)
    break_in_hand = InHand.D
    family = Family.SNOOKER
    phases = frozenset({Phase.BREAK, Phase.PLAY, Phase.RESPOTTED_BLACK})
    state_type = SnookerState
    # Only where a ball comes to rest decides whether it was forced off the table: a ball that comes
    # back from the lamp is in play (rules-notes §2 row 4); a player's things are a touching foul.
    fixtures = frozenset(
        {"bed", "rail_top", "rail", "frame", "bracket", "pocket", "cushion", "jaw", "liner", "lamp"}
    )
    free_ball_allowed: ClassVar[bool] = True
    miss_rule: ClassVar[bool] = True

    def touch_jumps(self, obj: str, inside: bool) -> bool:
        return False

    def rack_spec(self, n_players: int) -> Rack:
        # 000: the colours on their spots; the reds' apex as near the pink as possible without touching it
        # (1 mm reads as "not touching"); the cue ball starts in hand in the D.
        r = self.table.ball_radius
        rows: list[tuple[BallId, ...]] = []
        i = 0
        for k in range(5):
            rows.append(REDS[i : i + k + 1])
            i += k + 1
        return Rack(
            rows=tuple(rows), apex="pink", apex_offset=2 * r + 0.001, spots=tuple((c, c) for c in COLOURS)
        )

    def sstate(self, st: MatchState | Draft) -> SnookerState:
        fam = st.family
        assert isinstance(fam, SnookerState), fam
        return fam

    def set_state(self, d: Draft, **values: Any) -> None:
        d.family = replace(self.sstate(d), **values)

    def ball_on(self, state: MatchState) -> tuple[str, ...]:
        if state.ball_on == "colour":
            return ("colour",)
        if any(is_red(b) for b in state.balls):
            return ("red",)
        left = [c for c in COLOURS if c in state.balls]
        return (state.ball_on,) if state.ball_on in COLOURS else tuple(left[:1])

    def call_needed(self, state: MatchState) -> CallKind:
        if self.free_ball_allowed and self.sstate(state).free_ball_for == state.to_play:
            return CallKind.FREE_BALL
        return CallKind.COLOUR if state.ball_on == "colour" else CallKind.NONE

    # --- facts ------------------------------------------------------------------------------
    def breaking(self, s: Stroke) -> bool:
        st = s.state
        return st.is_break or (
            st.phase == Phase.BREAK and st.in_hand is not None and self.sstate(st).opening_by == st.to_play
        )

    def reds_at_start(self, s: Stroke) -> list[BallId]:
        return [b for b in s.initial if is_red(b)]

    def on_kind(self, s: Stroke) -> str:
        """ "red", "colour" or the colour in sequence."""
        st = s.state
        if st.phase == Phase.RESPOTTED_BLACK:
            return "black"
        if st.ball_on == "colour":
            return "colour"
        if self.reds_at_start(s):
            return "red"
        if st.ball_on in COLOURS and st.ball_on in s.initial:
            return st.ball_on
        left = [c for c in COLOURS if c in s.initial]
        return left[0] if left else "black"

    def free_ball(self, s: Stroke) -> BallId | None:
        """The nominated free ball, when the striker has one and named a ball that is not on."""
        st = s.state
        if not self.free_ball_allowed or self.sstate(st).free_ball_for != st.to_play:
            return None
        shot = s.record.shot
        kind = self.on_kind(s)
        if shot is None or shot.call_ball is None or shot.call_ball not in s.initial:
            return None
        nominated = shot.call_ball
        if kind == "red" and is_red(nominated):
            return None
        if kind in COLOURS and nominated == kind:
            return None
        return nominated

    def on_set(self, s: Stroke) -> tuple[set[BallId], int, BallId | None]:
        """(balls on, value of the ball on, nominated colour)."""
        kind = self.on_kind(s)
        fb = self.free_ball(s)
        if kind == "red":
            on = set(self.reds_at_start(s))
            if fb is not None:
                on.add(fb)
            return on, 1, None
        if kind == "colour":
            shot = s.record.shot
            nom = shot.call_ball if shot is not None and shot.call_ball in COLOURS else None
            if nom is None and s.first in COLOURS:
                nom = s.first  # an obvious choice needs no words
            if nom is None:
                return set(), 0, None
            return {nom}, value(nom), nom
        on = {kind}
        if fb is not None:
            on.add(fb)
        return on, value(kind), None

    def in_d(self, p: Point | None) -> bool:
        """On or inside the D (000: Сектор): the semicircle on the baulk line, toward the baulk cushion."""
        if p is None:
            return True
        t = self.table
        bx = t.lines["head-string"]
        return p[0] <= bx + 1e-9 and math.hypot(p[0] - bx, p[1]) <= (t.d_radius or 0.0) + 1e-9

    def player_touches(self, s: Stroke) -> list[tuple[BallId, str]]:
        """Balls the striker's things touched (his cue, chalk, clothes...), on the bed or in the air."""
        out: list[tuple[BallId, str]] = []
        for e, owner in zip(s.record.events, s.owners, strict=True):
            if (
                e.type == EventType.TOUCHED
                and e.ball is not None
                and e.object is not None
                and owner == "striker"
            ):
                out.append((e.ball, e.object))
        return out

    # --- penalties --------------------------------------------------------------------------
    def penalty(self, worth: int) -> int:
        """International snooker: the value asked for, but at least 4 (000: Штрафы за нарушения)."""
        return max(4, worth)

    def add(self, d: Draft, code: FoulCode, rule: str, worth: int, en: str, ru: str) -> None:
        n = self.penalty(worth)
        d.fouls.append(
            self.foul(code, rule, f"{en.rstrip('.')} ({n} points).", f"{ru.rstrip('.')} ({n} очк.).")
        )
        d.worth = max(d.worth, n)
