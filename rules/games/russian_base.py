"""Russian billiards, what every part of the referee reads: the rule references, the constants, the family
states and :class:`PyramidRules` - the declarations of the general rules, the house, and the facts of a stroke
the fouls, the counting and the placing all ask (what counts were it free of fouls, what goes back on the table).

The rulebook (``rules/games/russian.py``) is assembled from one class per concern, each built on this one:
the fouls (``russian_fouls.py``, the отыгрыш in ``russian_safety.py``), counting and scoring
(``russian_scoring.py``), placing and who plays (``russian_placing.py``). The readings of the rule texts are
listed in ``russian.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from physics.errors import InputError
from physics.record import BallId, EventType
from rules import filters as F
from rules.base import Draft, Referee, Stroke
from rules.contract import Family, FamilyState, RefereeWarning, WarningCode, int_list
from rules.placement import house_zone
from rules.ruling import InHand, Point

# --- rule references (text file and section; 003's paragraphs carry no numbers, so their topic) ---
R_STRIKE = "003: Удар по битку"
R_BREAK = "003: Начальный удар (с руки из дома)"
R_ROLLED = "003: Скатывание шара по борту"
R_SAFETY_FAST = "003: Отыгрыш в быстрых видах игр"
R_POCKET_ZONE = "003: Отыгрыш, зона лузы"
R_JUMPED = "003: Выскочившие шары"
R_SPOTTED = "003: Выставление шаров"
R_HANGING = "003: Зависшие шары"
R_OUTSIDE = "003: Вмешательство постороннего"
R_PLAY_ON = "003: Вступление в игру соперника"
R_FOULS = "003: Штрафы"
R_HOUSE = "003: Начальный удар (с руки из дома), в"
R_REF_ERROR = "003: Судейская ошибка (I)"
R_OPPONENT = "003: Вмешательство соперника"
R_CLOSE = "000: 11. Удар по близко стоящему прицельному шару"
R_71_SPOT = "000: Русская пирамида, Выставление шаров"
R_71_PENALTY = "000: Русская пирамида, Штрафы за нарушения"
R_71_SCORE = "000: Русская пирамида, Ведение счета"
R_71_CALL = "000: Русская пирамида, Заказ"
R_71_7070 = "000: Русская пирамида, Игра при счете 70:70"
R_71_STALE = "000: Русская пирамида, Патовая позиция"
# The called variants (003: Штрафы (13) names them) call as the 71-point game does.
R_CALLED = "000: Русская пирамида, Заказ; 003: Штрафы (13)"
R_AM_SAFETY = "000: Американка, Отыгрыш"
R_AM_PENALTY = "000: Американка, Штрафы за нарушения"
R_AM_SPOT = "000: Американка, Выставление шаров"
R_MO_PLAY = "000: Московская пирамида, Ведение игры"
R_MO_PENALTY = "000: Московская пирамида, Штрафы за нарушения"
R_MO_SPOT = "000: Московская пирамида, Выставление шаров"

OBJECT_BALLS: tuple[BallId, ...] = tuple(str(i) for i in range(1, 16))
ALL_BALLS: tuple[BallId, ...] = ("cue",) + OBJECT_BALLS
# 000: Русская пирамида, «Расстановка шаров»: rows from the apex.
RACK_71: tuple[tuple[BallId, ...], ...] = (
    ("4",),
    ("5", "6"),
    ("7", "15", "8"),
    ("9", "14", "13", "10"),
    ("2", "1", "12", "11", "3"),
)
PENALTY_POINTS = 5  # 000: Русская пирамида, «Штрафы за нарушения»
POCKET_ZONE_CUSHION = 0.068  # 003: one ball diameter along the cushion from the jaw
POCKET_ZONE_STOP = 0.136  # 003: two diameters from the pocket's edge to the ball's centre
FROZEN_ANGLE = 45.0  # 003: Удар по битку
# 003 (игра с руки): a ball in the house may not have the cue ball placed frozen to it; closer than this is frozen.
FROZEN_GAP = 0.0005


@dataclass(frozen=True)
class SeventyOneState(FamilyState):
    """Russian 71: fouls in a row of each player that left the object balls where they were (000:
    Патовая позиция)."""

    quiet_fouls: tuple[int, ...] = (0, 0)

    @classmethod
    def read(cls, key: str, value: Any, n_players: int, file: str) -> Any:
        return int_list(file, key, value, 2)

    def implied_warnings(self) -> tuple[RefereeWarning, ...]:
        # The referee warns at the second such foul in a row; a file with the counter at two or more had it.
        return tuple(
            RefereeWarning(WarningCode.STALEMATE, p) for p, n in enumerate(self.quiet_fouls) if n >= 2
        )


@dataclass(frozen=True)
class AmericanState(FamilyState):
    """Американка: the balls respotted by the last stroke (an object ball for the next stroke)."""

    spotted: tuple[BallId, ...] = ()

    @classmethod
    def read(cls, key: str, value: Any, n_players: int, file: str) -> Any:
        if not isinstance(value, list) or not all(x in ALL_BALLS for x in value):
            raise InputError(file, "state.extra.spotted", "a list of ball ids just respotted")
        return tuple(value)


class PyramidRules(Referee):
    """The general rules' declarations and the facts of a stroke; the games (``russian.py``) set what differs."""

    table_id = "pyramid-12ft"
    family = Family.RUSSIAN
    balls = ALL_BALLS
    fixtures = frozenset({"rail_top", "frame", "lamp", "bracket", "pocket"})
    break_in_hand = InHand.HOUSE
    hanging_until_end = True  # 003 «Зависшие шары»: after the stroke has ended, whatever the seconds
    fast: ClassVar[bool] = False
    cue_pocket_foul: ClassVar[bool] = True  # 71, 8 balls: the cue ball in a pocket is a foul
    in_off_scores: ClassVar[bool] = False  # Moscow, Американка: the cue ball off an object ball counts
    hand_after_cue_lost: ClassVar[bool] = True  # 71, Moscow, 8: from hand from the house after it
    safety: ClassVar[str | None] = None  # "american" (000) or "fast" (003)
    spotting: ClassVar[str] = "line"  # "line": back spot; "cushion": middle of the back cushion
    points_game: ClassVar[bool] = False  # 71: points; otherwise balls on the shelf
    target: ClassVar[int] = 8
    penalty_rule: ClassVar[str] = R_FOULS
    spot_rule: ClassVar[str] = R_SPOTTED
    call_rule: ClassVar[str] = R_71_CALL

    # --- geometry of the house ------------------------------------------------------------
    def house(self, s: Stroke) -> tuple[str, int]:
        """(line, sign): the house is sign * x > sign * line_x. Every object ball in the house moves it
        to the other end, bounded by the back line (003: Начальный удар, б)."""
        return house_zone(self.table, (p for b, p in s.initial.items() if b != s.cue))

    def in_house(self, s: Stroke, p: Point) -> bool:
        line, sign = self.house(s)
        # On the line is outside the house (003: Положение шара; 000 §9).
        return sign * p[0] > sign * self.table.lines[line]

    def cue_left_house(self, s: Stroke, until: float | None = None) -> bool:
        line, _ = self.house(s)
        for e in F.select(s.record.events, F.by_type(EventType.LINE_CROSSED), F.by_ball(s.cue)):
            if e.line == line and (until is None or e.t < until):
                return True
        return False

    # --- facts ----------------------------------------------------------------------------
    def outside_house(self, s: Stroke) -> bool:
        """Played from hand with the cue ball placed outside the house."""
        p0 = s.initial.get(s.cue)
        return self.from_hand(s) and p0 is not None and not self.in_house(s, p0)

    def referee_error(self, s: Stroke) -> bool:
        """The striker played from outside the house and the referee had not warned him (003: Судейская ошибка:
        «судья не предупредил игрока, что он располагает биток не в доме»)."""
        return self.outside_house(s) and not s.state.warned(WarningCode.OUTSIDE_HOUSE, s.striker)

    def spotted_before(self, s: Stroke) -> tuple[BallId, ...]:
        fam = s.state.family
        return fam.spotted if isinstance(fam, AmericanState) else ()

    def from_hand(self, s: Stroke) -> bool:
        return s.state.in_hand == InHand.HOUSE

    # --- what the stroke counts -------------------------------------------------------------
    def rolled_along(self, s: Stroke) -> list[BallId]:
        """Object balls frozen to a cushion and rolled along it into a pocket (003): not counted."""
        out: list[BallId] = []
        t = self.table
        for b in s.pocketed:
            p0 = s.initial.get(b)
            pocket = F.pocket_of(s.record, b)
            if b == s.cue or p0 is None or pocket is None:
                continue
            for cid in F.frozen_to_cushion(t, p0):
                c = t.cushions[cid]
                ends = (c.start, c.end)
                pk = t.pockets[pocket]
                # The pocket must be at an end of that cushion.
                if min(F.dist(pk.centre, e) for e in ends) > max(t.corner_mouth, t.middle_mouth):
                    continue
                length = F.dist(c.start, c.end)
                along = (
                    (p0[0] - c.start[0]) * (c.end[0] - c.start[0])
                    + (p0[1] - c.start[1]) * (c.end[1] - c.start[1])
                ) / length
                if along < 0 or along > length:
                    continue  # its centre is already in the pocket's mouth: rolling it in counts
                hits = F.select(s.record.events, F.by_type(EventType.BALL_BALL), F.by_ball(b))
                if not hits:
                    continue
                driver = F.other(hits[0], b)
                if sum(1 for e in hits if driver in (e.balls or ())) >= 2:
                    out.append(b)
                    break
        return out

    def scoring(self, s: Stroke) -> list[BallId]:
        """Balls the stroke would count were it free of fouls (order of dropping)."""
        rolled = self.rolled_along(s)
        cand = [b for b in s.pocketed if b not in rolled]
        if s.cue in cand and not (self.in_off_scores and s.first is not None):
            cand.remove(s.cue)
        if self.from_hand(s) and self.fast:
            # 003: in the fast games from hand only balls falling after the cue ball left the house (or met a
            # ball outside it) count.
            start = self.entered_play_at(s)
            cand = [b for b in cand if start is not None and self.drop_time(s, b) > start]
        if self.calls and cand:
            sh = s.record.shot
            call_ball = sh.call_ball if sh else None
            call_pocket = sh.call_pocket if sh else None
            if call_ball is None and s.state.is_break:
                return cand
            if call_ball is None or call_ball not in cand or F.pocket_of(s.record, call_ball) != call_pocket:
                return []
        return cand

    def drop_time(self, s: Stroke, b: BallId) -> float:
        e = F.first(s.record.events, F.by_type(EventType.POCKETED), F.by_ball(b))
        return e.t if e is not None else math.inf

    def entered_play_at(self, s: Stroke) -> float | None:
        """When the cue ball from hand came into play: crossed the house line or met a ball outside the house."""
        line, _ = self.house(s)
        times = [
            e.t
            for e in F.select(s.record.events, F.by_type(EventType.LINE_CROSSED), F.by_ball(s.cue))
            if e.line == line
        ]
        if s.first is not None and s.first_t is not None:
            p = s.initial.get(s.first)
            if p is not None and not self.in_house(s, p):
                times.append(s.first_t)
        return min(times) if times else None

    def balls_back(self, s: Stroke, d: Draft) -> list[BallId]:
        """Object balls that go back on the table: pocketed but not counted, and jumped."""
        back = [b for b in s.pocketed if b not in d.counted and (b != s.cue or self.any_ball_cue)]
        back += [b for b in s.jumped if (b != s.cue or self.any_ball_cue) and b not in back]
        return back

    def legal_in_off(self, s: Stroke, d: Draft) -> bool:
        return self.in_off_scores and not self.any_ball_cue and not d.foul and s.cue in d.counted

    def cue_goes_in_hand(self, s: Stroke, d: Draft) -> bool:
        if self.any_ball_cue or not self.hand_after_cue_lost:
            return False
        return s.cue in s.pocketed or s.cue in s.jumped
