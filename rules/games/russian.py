"""Russian billiards: the general rules (000 §1-19, and 003, which prevails) and the pyramid games.

Games (design.md ids): ``russian-pyramid`` (71 points), ``american`` (Американка), ``moscow-pyramid``,
``pyramid-8`` and their fast variants (``*-fast``), and the called (заказная) variants 003 names
(``moscow-pyramid-called``, ``pyramid-8-called`` and their fast ``*-called-fast``). One class,
:class:`Pyramid`, holds the general rules; each game sets a few class attributes and overrides a hook or two.

Readings where the texts leave a gap (each is a choice a referee would make, stated so it can be
taught and changed):

- Hanging balls (003 «Зависшие шары», which prevails over 000 §14's five seconds): a ball that stops in
  the jaws and falls after the stroke has ended (every ball at rest: the ``dropped`` event's ``after`` > 0) is
  not counted and goes back into the jaws, whatever the seconds; one that falls before the end counts, and so
  does one that paused for an instant and dropped still spinning (it never came to rest: no ``hanging`` or
  ``rest`` of its own before the fall). A hanging cue ball that falls so is put back too: no foul.
- A ball that moved without anything touching it (it dropped or rolled by itself before the cue ball
  got there) is 003's hanging ball that fell before contact: the position is restored and replayed.
- Jumped balls follow 003: beyond the table anything makes a ball jumped even if it comes back; within
  the table a fixture (rail top, bracket, lamp) or a player's thing leaves it in play if it comes back by
  itself, but touching a player's thing (chalk, cue, clothes) within the table is a foul. A touch with no
  position is taken to be within the table for chalk, cue, bridge and hand, beyond it for a person.
- 71's opening break with no call declared counts every ball a legal break pockets (the break paragraph
  of 003 counts them without a call); a declared call is judged like any other.
- Rolling a frozen cushion ball along the cushion (003) is recognised when the ball that drives it stays
  on it (touches it twice or more before it drops) and the ball's centre was outside the pocket.
- The stalemate (000: Русская пирамида, «Патовая позиция») leaves the lowest-numbered object ball, on the
  back spot, as the 70:70 rule does for the last ball.
- Penalty balls (Американка, Moscow, 8 balls) come from the offender's shelf, the last ball he was
  credited; one owed is paid from the next ball he pockets (000: «Штрафы за нарушения»).
- A push (пропих): the cue ball meets a ball it was not frozen to within 1 ms of the strike, i.e. while
  the tip is still on it (the tip's contact time, physics.md §1).
- The 45° rule judges a cue ball frozen to an object ball (003; balls merely close are played at any
  angle) from the declared direction and the initial positions; coming back off the ball is allowed.
- Non-fast 71, Moscow and 8 balls have no отыгрыш requirement (003's foul (13) lists only the fast,
  "заказная" and Американка games); a plain miss is still a foul.
- The called variants call a ball and a pocket before every stroke as the 71-point game does (000: Русская
  пирамида, «Заказ»), the break excepted. 003's foul (13) names «быстрая и заказная» among the games with an
  отыгрыш rule, but 003 states its отыгрыш rules "for the fast games" only: we read the plain called games as
  asking no отыгрыш and the fast called ones as asking the fast games' (I)/(II).
- Foul list of 003 not visible in a shot record, so never ruled here: a stroke before the last ended (3),
  no foot on the floor (6), the opponent's interference (15), referee errors, the blocked position.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from physics.errors import InputError
from physics.racks import Rack
from physics.record import BallId, EventType
from rules import filters as F
from rules.base import Draft, Placement, Referee, Stroke, text
from rules.contract import Family, FamilyState, NoteCode, Phase, RefereeWarning, WarningCode, int_list
from rules.names import (
    ball_en,
    ball_name,
    ball_ru,
    balls_list,
    capital,
    object_en,
    object_ru,
    player_thing,
    pocket_name,
)
from rules.placement import ball_order, house_zone, spot_at_back_cushion, spot_on_line
from rules.registration import register
from rules.ruling import Choice, Foul, FoulCode, InHand, Note, Option, Point, Respot
from rules.state import MatchState

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
TIP_CONTACT_S = 0.001  # how long the tip stays on the ball (physics.md §1: ~1 ms, 0.8 ms at break speed)
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


class Pyramid(Referee):
    """General rules of Russian billiards; the games below set what differs."""

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

    def rack_spec(self, n_players: int) -> Rack:
        # 003: the apex ball on the back spot, the base parallel to the back cushion; the cue ball in hand.
        # RACK_71 lists each row left to right looking from the head; a rack row runs from its -y end.
        return Rack(rows=tuple(tuple(reversed(row)) for row in RACK_71))

    def place_in_zone(
        self, state: MatchState, zone: InHand, x: float, y: float, others: Mapping[BallId, Point]
    ) -> Placement:
        """In the house (003: Начальный удар, б-в): centre strictly behind the house line (on the line is
        outside), not frozen to a ball standing in the house; when every object ball is in the house the
        other end, bounded by the back line, is the house. Outside the house the referee warns the player."""
        if zone != InHand.HOUSE:
            return super().place_in_zone(state, zone, x, y, others)
        t = self.table
        line, sign = house_zone(t, others.values())
        lx = t.lines[line]
        for b, (ox, oy) in others.items():
            if sign * ox > sign * lx and math.hypot(x - ox, y - oy) < 2 * t.ball_radius + FROZEN_GAP:
                return Placement(
                    False,
                    text(
                        f"not frozen to {ball_en(b)}, which stands in the house",
                        f"не вплотную к {ball_ru(b, 'dat')} в доме",
                    ),
                )
        if sign * x > sign * lx:
            return Placement(True)
        where = "the temporary house (behind the back line)" if line == "foot-string" else "the house"
        where_ru = "временном доме (за задней линией)" if line == "foot-string" else "доме"
        return Placement(False, text(f"in {where}", f"в {where_ru}"), warning=WarningCode.OUTSIDE_HOUSE)

    def hand_spot(self, state: MatchState, others: Mapping[BallId, Point]) -> Point:
        if state.in_hand != InHand.HOUSE:
            return super().hand_spot(state, others)
        line, sign = house_zone(self.table, others.values())
        return ((self.table.lines[line] + sign * self.table.half_length) / 2, 0.0)

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

    def replay_reason(self, s: Stroke) -> Note | None:
        if s.outside_agent is not None:
            return Note(
                NoteCode.OUTSIDE_INTERFERENCE,
                R_OUTSIDE,
                text(
                    f"An outsider ({object_en(str(s.outside_agent))}) moved a ball: the position is restored and the stroke replayed "
                    "with no penalty.",
                    f"Постороннее вмешательство ({object_ru(str(s.outside_agent))}): позиция восстанавливается, удар повторяется "
                    "без штрафа.",
                ),
            )
        fell = self.fell_unaided_note(s, R_HANGING)
        if fell is not None:
            return fell
        if (
            self.from_hand(s)
            and s.first is None
            and s.cue not in s.pocketed
            and s.cue not in s.jumped
            and not s.miscue
            and not s.scoop
            and s.strikes <= 1
            and not s.touched_within
        ):
            end = F.final_xy(s.record, s.cue)
            if not self.cue_left_house(s) and (end is None or self.in_house(s, end)):
                return Note(
                    NoteCode.NOT_OUT_OF_HOUSE,
                    R_BREAK,
                    text(
                        "From hand the cue ball neither left the house nor touched a ball: the stroke is taken again.",
                        "Биток не выведен из дома и не коснулся ни одного шара: удар с руки повторяется.",
                    ),
                )
        return None

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

    # --- fouls ----------------------------------------------------------------------------
    def check_fouls(self, s: Stroke, d: Draft) -> None:
        if self.referee_error(s):
            return  # 003: Судейская ошибка (I): «штраф на игрока не налагается»
        self.strike_fouls(s, d)
        self.result_fouls(s, d)
        self.touch_fouls(s, d)
        self.safety_foul(s, d)

    def strike_fouls(self, s: Stroke, d: Draft) -> None:
        """How the stroke was played: the ball struck, the tip, the place from hand (003: Штрафы)."""
        add = d.fouls.append
        if s.struck != s.cue:
            add(
                self.foul(
                    FoulCode.WRONG_BALL_STRUCK,
                    R_FOULS + " (11)",
                    f"the cue struck {ball_en(s.struck)}, not the cue ball",
                    f"удар нанесён не битком, а {ball_ru(s.struck, 'ins')}",
                )
            )
        if self.any_ball_cue and not self.fast and s.cue in self.spotted_before(s):
            add(
                self.foul(
                    FoulCode.WRONG_BALL_STRUCK,
                    R_SPOTTED,
                    f"{ball_en(s.cue)} was just respotted: it is an object ball for this stroke",
                    f"{ball_ru(s.cue)} только что выставлен и играется как прицельный",
                )
            )
        if s.miscue:
            add(
                self.foul(
                    FoulCode.MISCUE,
                    R_STRIKE,
                    "a miscue: the cue ball was not struck cleanly with the tip",
                    "кикс: удар нанесён не наклейкой кия по её оси",
                )
            )
        if s.scoop:
            add(
                self.foul(
                    FoulCode.SCOOP,
                    R_STRIKE,
                    "a scoop: the tip dug under the ball to lift it",
                    "подцепка: удар под биток снизу, не по оси кия",
                )
            )
        if s.strikes >= 2:
            add(
                self.foul(
                    FoulCode.DOUBLE_HIT,
                    R_FOULS + " (9)",
                    "the tip met the cue ball twice",
                    "двойной удар: наклейка коснулась битка дважды",
                )
            )
        if self.outside_house(s) and s.state.warned(WarningCode.OUTSIDE_HOUSE, s.striker):
            # 003 «Начальный удар», в: only a stroke from outside the house after the referee's warning is punished.
            add(
                self.foul(
                    FoulCode.CUE_BALL_OUTSIDE_HOUSE,
                    R_HOUSE + "; " + R_FOULS + " (14)",
                    "playing from hand, the cue ball was again placed outside the house after the referee's warning",
                    "при игре с руки биток, несмотря на предупреждение судьи, снова установлен вне дома",
                )
            )

    def result_fouls(self, s: Stroke, d: Draft) -> None:
        """What the cue ball did: a miss, a touch at a bad angle, a push, a house ball first, a pocketed or
        jumped cue ball (003: Штрафы)."""
        add = d.fouls.append
        if s.first is None:
            add(
                self.foul(
                    FoulCode.MISS,
                    R_FOULS + " (1)",
                    "the cue ball touched no object ball",
                    "биток не коснулся ни одного прицельного шара",
                )
            )
        self.check_frozen_angle(s, d)
        self.check_push(s, d)
        if self.from_hand(s) and s.first is not None and s.first_t is not None:
            fp = s.initial.get(s.first)
            if fp is not None and self.in_house(s, fp) and not self.cue_left_house(s, until=s.first_t):
                add(
                    self.foul(
                        FoulCode.HOUSE_BALL_FIRST,
                        R_FOULS + " (10)",
                        f"from hand the cue ball hit {ball_en(s.first)} in the house before leaving it",
                        f"при ударе с руки биток до выхода из дома задел {ball_ru(s.first, 'acc')}, стоящий в доме",
                    )
                )
        if s.cue in s.pocketed and (self.cue_pocket_foul or s.first is None):
            add(
                self.foul(
                    FoulCode.CUE_BALL_POCKETED,
                    R_FOULS + " (12)",
                    "the cue ball fell into a pocket",
                    "биток упал в лузу",
                )
            )
        if s.cue in s.jumped:
            add(
                self.foul(
                    FoulCode.CUE_BALL_OFF_TABLE,
                    R_JUMPED,
                    "the cue ball jumped off the table: nothing pocketed on this stroke counts",
                    "биток выскочил за борт: забитые этим ударом шары не засчитываются",
                )
            )

    def touch_fouls(self, s: Stroke, d: Draft) -> None:
        """A player's things touching a ball (003: Выскочившие шары; Штрафы (4))."""
        add = d.fouls.append
        for b, obj in s.touched_within:
            if self.flying_at(s, b, obj):
                add(
                    self.foul(
                        FoulCode.TOUCHED_PLAYER_OBJECT,
                        R_JUMPED,
                        f"{ball_en(b)} flew off the bed and touched {player_thing(obj, 'en')} within the table",
                        f"вылетевший {ball_ru(b)} задел в пределах стола {_players_ru(obj, 'acc')}",
                    )
                )
            else:
                add(
                    self.foul(
                        FoulCode.BALL_TOUCHED,
                        R_FOULS + " (4)",
                        f"{ball_en(b)} on the bed was touched by {player_thing(obj, 'en')}",
                        f"{ball_ru(b)} на игровом поле коснулся {_players_ru(obj, 'gen')}",
                    )
                )

    def safety_foul(self, s: Stroke, d: Draft) -> None:
        """The отыгрыш rule of the fast games and Американка (003; 000: Американка, Отыгрыш)."""
        add = d.fouls.append
        if self.safety is not None and not d.fouls and not self.scoring(s) and not self.safety_ok(s):
            if self.pocket_zone_ok(s):
                d.notes.append(
                    text(
                        "The safety requirement was not met, but the played ball reached the pocket zone "
                        f"({R_POCKET_ZONE}): no foul.",
                        f"Требования отыгрыша не выполнены, но играемый шар был в зоне лузы ({R_POCKET_ZONE}): "
                        "штрафа нет.",
                    )
                )
            else:
                rule = R_SAFETY_FAST if self.safety == "fast" else R_AM_SAFETY
                en, ru = (
                    (
                        "no ball crossed the centre line and two cushions were not touched after the hit",
                        "ни один шар не пересёк центральную линию и после соударения не было касания двух бортов",
                    )
                    if self.safety == "fast"
                    else (
                        "an illegal safety: no ball reached the far short cushion across the centre line, two balls "
                        "did not cross it, and no ball went from one cushion to a second",
                        "неправильный отыгрыш: шар не довёл до противоположного короткого борта через центральную "
                        "линию, центральную линию не пересекли два шара, и ни один шар не прошёл от борта ко второму",
                    )
                )
                add(self.foul(FoulCode.ILLEGAL_SAFETY, rule, en, ru))

    def flying_at(self, s: Stroke, ball: BallId, obj: str) -> bool:
        """Was ``ball`` in the air (or off the bed) when it touched ``obj``? Then it is 003's jumped-ball case,
        otherwise a ball on the bed touched by a player's thing (003: Штрафы (4))."""
        up = False
        for e in s.record.events:
            if e.ball != ball:
                continue
            if e.type in (EventType.AIRBORNE, EventType.LEFT_TABLE):
                up = True
            elif e.type == EventType.LANDED and e.on == "bed" or e.type == EventType.RETURNED:
                up = False
            elif e.type == EventType.TOUCHED and e.object == obj:
                return up
        return up

    def check_push(self, s: Stroke, d: Draft) -> None:
        """003: пропих - the tip still on the cue ball when it meets an object ball that was not frozen to
        it. The tip stays on the ball about a millisecond (physics.md: tip contact ~1 ms), so a first
        contact sooner than that after the strike was pushed through."""
        strike = F.first(s.record.events, F.by_type(EventType.CUE_STRIKE))
        if strike is None or s.first is None or s.first_t is None:
            return
        p0, p1 = s.initial.get(s.cue), s.initial.get(s.first)
        if p0 is None or p1 is None or F.dist(p0, p1) <= 2 * self.table.ball_radius + F.FROZEN_TOL:
            return  # frozen balls are the 45° rule's business
        if s.first_t - strike.t < TIP_CONTACT_S:
            d.fouls.append(
                self.foul(
                    FoulCode.PUSH_SHOT,
                    R_STRIKE + "; " + R_FOULS + " (8)",
                    f"a push: the cue ball met {ball_en(s.first)} {1000 * (s.first_t - strike.t):.1f} ms after the strike, "
                    "while the tip was still on it",
                    f"пропих: биток коснулся {ball_ru(s.first, 'gen')} через {1000 * (s.first_t - strike.t):.1f} мс после удара, "
                    "когда наклейка ещё не отошла от битка",
                )
            )

    def check_frozen_angle(self, s: Stroke, d: Draft) -> None:
        """003: a cue ball frozen to an object ball is played away at 45° or more, or it must come back."""
        sh = s.record.shot
        p0 = s.initial.get(s.cue)
        if sh is None or p0 is None:
            return
        r = self.table.ball_radius
        for b, p in sorted(s.initial.items()):
            if b == s.cue or F.dist(p0, p) > 2 * r + F.FROZEN_TOL:
                continue
            v = (p[0] - p0[0], p[1] - p0[1])
            ang = F.angle_between(sh.direction, v)
            if ang >= FROZEN_ANGLE:
                continue
            end = F.final_xy(s.record, s.cue)
            if end is not None and (end[0] - p0[0]) * v[0] + (end[1] - p0[1]) * v[1] < 0:
                continue  # it came back off the frozen ball: allowed
            d.fouls.append(
                self.foul(
                    FoulCode.FROZEN_BALL_ANGLE,
                    R_STRIKE + "; " + R_FOULS + " (7)",
                    f"the cue ball frozen to {ball_en(b)} was played {ang:.0f}° off the line of centres (45° needed)",
                    f"биток, стоящий вплотную к {ball_ru(b, 'dat')}, сыгран под углом {ang:.0f}° к линии центров "
                    "(нужно 45° и более)",
                )
            )
            return

    # --- отыгрыш --------------------------------------------------------------------------
    def cushion_touches(self, s: Stroke, since: float) -> list[tuple[BallId, str, float]]:
        """Cushion touches after ``since`` as (ball, cushion, t), with 003's frozen-ball rules: a ball frozen
        to a cushion does not touch it when the cue ball's first hit moves it (or the cue ball bounces off it);
        any later hit of a frozen ball does count as touching its cushion."""
        t = self.table
        frozen = {b: F.frozen_to_cushion(t, p) for b, p in s.initial.items()}
        out: list[tuple[BallId, str, float]] = []
        for e in s.record.events:
            if e.t <= since:
                continue
            if e.type == EventType.CUSHION and e.ball is not None and e.cushion is not None:
                if e.cushion in frozen.get(e.ball, []) and not self._hit_later(s, e.ball, e.t):
                    continue
                out.append((e.ball, e.cushion, e.t))
            elif e.type == EventType.BALL_BALL and e.balls is not None and e.t != s.first_t:
                for b in e.balls:
                    for cid in frozen.get(b, []):
                        out.append((b, cid, e.t))
        return out

    def _hit_later(self, s: Stroke, ball: BallId, t: float) -> bool:
        return any(
            e.t != s.first_t and e.t < t
            for e in F.select(s.record.events, F.by_type(EventType.BALL_BALL), F.by_ball(ball))
        )

    def safety_ok(self, s: Stroke) -> bool:
        if s.first_t is None:
            return False
        if self.safety == "fast":
            # (I) any ball crosses the centre line; (II) two cushions touched in any way after the hit.
            if F.crossed(s.record, "centre-line"):
                return True
            return len({c for _, c, _ in self.cushion_touches(s, s.first_t)}) >= 2
        return self._american_safety_ok(s)

    def _american_safety_ok(self, s: Stroke) -> bool:
        rec = s.record
        crossed = F.crossed(rec, "centre-line")
        # (2) two balls crossed the centre line, the striking ball and an object ball.
        if s.cue in crossed and len(crossed) >= 2:
            return True
        # (1) a ball crosses the centre line and then the far short cushion is reached by it or a ball it drove.
        side = {b: (1 if p[0] >= 0 else -1) for b, p in s.initial.items()}
        touches = self.cushion_touches(s, -1.0)
        for e in F.select(rec.events, F.by_type(EventType.LINE_CROSSED)):
            if e.line != "centre-line" or e.ball is None:
                continue
            side[e.ball] = -side.get(e.ball, 1)
            far = "foot" if side[e.ball] > 0 else "head"
            if any(c == far and t > e.t for _, c, t in touches):
                return True
        # (3) a ball comes off one cushion to a second, or drives another ball to a second cushion.
        hist: dict[BallId, set[str]] = {}
        frozen_touch = {(b, c, t) for b, c, t in touches}
        for e in rec.events:
            if e.type == EventType.CUSHION and e.ball is not None and e.cushion is not None:
                if (e.ball, e.cushion, e.t) not in frozen_touch:
                    continue
                h = hist.setdefault(e.ball, set())
                if h - {e.cushion}:
                    return True
                h.add(e.cushion)
            elif e.type == EventType.BALL_BALL and e.balls is not None:
                a, b = e.balls
                for ball, cid, t in touches:
                    if t == e.t and ball in (a, b) and (hist.get(a, set()) | hist.get(b, set())) - {cid}:
                        return True
                u = hist.get(a, set()) | hist.get(b, set())
                hist[a] = set(u)
                hist[b] = set(u)
        return False

    def pocket_zone_ok(self, s: Stroke) -> bool:
        """003: a failed attempt on a pocket is no foul if the played ball touched a jaw, touched a cushion
        within 68 mm of the jaw, or stopped within 136 mm of the pocket's edge in front of it."""
        sh = s.record.shot
        ball = sh.call_ball if (sh is not None and sh.call_ball) else s.first
        if ball is None or s.first_t is None:
            return False
        if ball in s.pocketed:
            return True  # it went in (uncalled, rolled along the cushion...): the pocket was reached
        t = self.table
        for e in F.select(s.record.events, F.by_ball(ball), F.after(s.first_t - 1e-9)):
            if e.type == EventType.POCKET_JAW:
                return True
            if e.type == EventType.CUSHION and e.cushion is not None and e.pos is not None:
                if F.distance_to_jaw(t, e.cushion, (e.pos[0], e.pos[1])) <= POCKET_ZONE_CUSHION + 1e-9:
                    return True
        end = s.restored.get(ball) or F.final_xy(s.record, ball)
        if end is None:
            return False
        for pk in t.pockets.values():
            # The pocket's edge: the middle of the line across its mouth (a corner mouth lies across the corner).
            back = pk.mouth / 2 if pk.corner else 0.0
            edge = (pk.centre[0] - pk.axis[0] * back, pk.centre[1] - pk.axis[1] * back)
            v = (end[0] - edge[0], end[1] - edge[1])
            n = math.hypot(*v)
            if n <= POCKET_ZONE_STOP + 1e-9:
                # In front of the mouth within 45° of its axis, or already past the mouth line (hanging in it).
                cosang = -(v[0] * pk.axis[0] + v[1] * pk.axis[1]) / n if n > 0 else 1.0
                if cosang >= math.cos(math.radians(45.0)) - 1e-9 or cosang <= 0.0:
                    return True
        return False

    # --- counting and scoring -------------------------------------------------------------
    def count(self, s: Stroke, d: Draft) -> None:
        if self.referee_error(s):
            d.counted = []
            note = Note(
                NoteCode.REFEREE_ERROR,
                R_REF_ERROR,
                text(
                    "The cue ball was played from outside the house and the referee had not warned the player: a "
                    "referee's error. No penalty; nothing pocketed counts; the balls the stroke disturbed go back "
                    "where they were; the turn passes to the opponent, from where the cue ball stopped (from hand "
                    "in the house if it left the bed).",
                    "Биток сыгран не из дома, а судья не предупредил игрока: судейская ошибка. Штрафа нет, "
                    "забитые шары не засчитываются, потревоженные шары восстанавливаются, удар переходит к "
                    "сопернику с места остановки битка (с руки из дома, если биток покинул поле).",
                ),
            )
            d.warnings.append(note)
            d.notes.append(
                text(f"{R_REF_ERROR}: {note.explain['en']}", f"{R_REF_ERROR}: {note.explain['ru']}")
            )
            return
        d.counted = [] if d.foul else self.scoring(s)
        if self.calls:
            self.call_note(s, d)
        rolled = self.rolled_along(s)
        if rolled and not d.foul:
            d.notes.append(
                text(
                    f"{capital(balls_list(rolled, 'en'))} rolled along the cushion into the pocket: not counted, respotted, "
                    f"no penalty, the turn passes ({R_ROLLED}).",
                    f"Скатаны по борту в лузу ({balls_list(rolled, 'ru')}): не засчитываются, выставляются, штрафа "
                    f"нет, удар переходит к сопернику ({R_ROLLED}).",
                )
            )
        uncounted = [b for b in s.pocketed if b not in d.counted and b != s.cue]
        if uncounted and not d.foul and not rolled:
            d.notes.append(
                text(
                    f"Not counted and respotted: {balls_list(uncounted, 'en')}.",
                    f"Не засчитаны и выставляются: {balls_list(uncounted, 'ru')}.",
                )
            )
        for b in s.jumped:
            if b != s.cue:
                d.notes.append(
                    text(
                        f"{capital(ball_en(b))} jumped off the table: respotted after the stroke, no penalty ({R_JUMPED}).",
                        f"{capital(ball_ru(b))} выскочил за борт: выставляется после удара, без штрафа ({R_JUMPED}).",
                    )
                )
        for b in s.restored:
            d.notes.append(
                text(
                    f"{capital(ball_en(b))} stopped in the jaws and fell after the stroke had ended (every ball at "
                    f"rest): it does not count and is put back in the jaws, however long it hung ({R_HANGING}).",
                    f"{capital(ball_ru(b))} остановился в створе лузы и упал после завершения удара (все шары "
                    f"стояли): не засчитывается и восстанавливается в створ лузы, сколько бы он ни висел ({R_HANGING}).",
                )
            )

    def call_note(self, s: Stroke, d: Draft) -> None:
        """Why the balls of a called game's stroke did not count (000: Русская пирамида, «Заказ»: only a
        called ball in the called pocket makes the stroke count)."""
        sh = s.record.shot
        if d.foul or d.counted or not [b for b in s.pocketed if b != s.cue]:
            return
        rule = self.call_rule
        if sh is None or sh.call_ball is None:
            d.notes.append(
                text(f"No ball and pocket were called ({rule}).", f"Шар и луза не заказаны ({rule}).")
            )
            return
        en, ru = ball_name(sh.call_ball, "en"), ball_name(sh.call_ball, "ru")
        where_en, where_ru = pocket_name(sh.call_pocket, "en"), pocket_name(sh.call_pocket, "ru")
        d.notes.append(
            text(
                f"The called ball, {en}, did not go into the called pocket, {where_en} ({rule}).",
                f"Заказанный шар ({ru}) не сыгран в заказанную лузу ({where_ru}) ({rule}).",
            )
        )

    def balls_back(self, s: Stroke, d: Draft) -> list[BallId]:
        """Object balls that go back on the table: pocketed but not counted, and jumped."""
        back = [b for b in s.pocketed if b not in d.counted and (b != s.cue or self.any_ball_cue)]
        back += [b for b in s.jumped if (b != s.cue or self.any_ball_cue) and b not in back]
        return back

    def score(self, s: Stroke, d: Draft) -> None:
        st = s.state
        me, opp = s.striker, s.opponent
        objects_counted = [b for b in d.counted if b != s.cue or self.any_ball_cue]
        if self.points_game:
            pts = sum(11 if b == "1" else int(b) for b in objects_counted)
            remaining = [b for b in s.final_positions() if b != self.cue_ball] + self.balls_back(s, d)
            if objects_counted and not remaining:
                pts += 10
                d.notes.append(
                    text(
                        f"Ball {objects_counted[-1]} was the last on the table: +10 ({R_71_SCORE}).",
                        f"Шар {objects_counted[-1]} — последний на столе: +10 ({R_71_SCORE}).",
                    )
                )
            d.credit[me] = list(objects_counted)
            if d.foul:
                d.points[me] -= PENALTY_POINTS
                d.points[opp] += PENALTY_POINTS
            d.points[me] += pts
        else:
            credit = list(objects_counted)
            gained = len(credit) + (1 if (s.cue in d.counted and not self.any_ball_cue) else 0)
            shelf = list(st.shelves[me])
            if d.foul:
                if shelf:
                    ball = shelf[-1]
                    d.from_shelf.append(ball)
                    d.points[me] -= 1
                    d.notes.append(
                        text(
                            f"Penalty: {ball_en(ball)} comes off the offender's shelf back to the table "
                            f"({self.penalty_rule}).",
                            f"Штраф: {ball_ru(ball)} снимается с полки нарушителя и выставляется "
                            f"({self.penalty_rule}).",
                        )
                    )
                else:
                    d.owed[me] += 1
                    d.notes.append(
                        text(
                            f"Penalty: the offender has no ball, he owes one ({self.penalty_rule}).",
                            f"Штраф: у нарушителя нет забитых шаров — шар в долг ({self.penalty_rule}).",
                        )
                    )
            elif d.owed[me] and credit:
                pay = credit[-d.owed[me] :] if d.owed[me] < len(credit) else list(credit)
                for b in pay:
                    credit.remove(b)
                    d.from_shelf.append(b)
                d.owed[me] -= len(pay)
                d.points[me] -= len(pay)
                d.notes.append(
                    text(
                        f"The owed penalty is paid with {balls_list(pay, 'en')} ({self.penalty_rule}).",
                        f"Штрафной долг погашен: {balls_list(pay, 'ru')} ({self.penalty_rule}).",
                    )
                )
            d.credit[me] = credit
            d.points[me] += gained
        d.scores = [sc + p for sc, p in zip(d.scores, d.points, strict=True)]

    # --- placing ------------------------------------------------------------------------------
    def spot(self, balls: list[BallId], occupied: dict[BallId, Point]) -> list[Respot]:
        if self.spotting == "cushion":
            return spot_at_back_cushion(balls, occupied, self.table)
        return spot_on_line(balls, occupied, self.table)

    def cue_goes_in_hand(self, s: Stroke, d: Draft) -> bool:
        if self.any_ball_cue or not self.hand_after_cue_lost:
            return False
        return s.cue in s.pocketed or s.cue in s.jumped

    def place(self, s: Stroke, d: Draft) -> None:
        if self.referee_error(s):
            # 003: Судейская ошибка (I): «позиция потревоженных шаров восстанавливается с максимальной точностью».
            # The ball played stays where it stopped («с места остановки битка»); the rest go back.
            played = {s.cue, s.state.cue}
            final = s.final_positions()
            d.positions = {b: p for b, p in s.initial.items() if b not in played}
            r2 = 2 * self.table.ball_radius
            for b in sorted(played):
                end = final.get(b)
                if end is not None and all(F.dist(end, q) >= r2 for q in d.positions.values()):
                    d.positions[b] = end
                elif b != s.state.cue and b in s.initial:
                    d.positions[b] = s.initial[
                        b
                    ]  # a struck object ball (Американка) that left the bed goes back
            d.off_table = list(s.jumped)
            return
        pos = s.final_positions()
        d.off_table = list(s.jumped)
        if self.cue_goes_in_hand(s, d):
            pos.pop(self.cue_ball, None)
        back = self.balls_back(s, d) + [b for b in d.from_shelf]
        cue_jumped_am = self.any_ball_cue and s.cue in s.jumped
        if cue_jumped_am and self.fast:
            # 003: in fast Американка the jumped striking ball goes on the back spot.
            back.remove(s.cue)
            rs = spot_on_line([s.cue], pos, self.table)
            pos[s.cue] = rs[0].at
            d.respot += rs
        rs = self.spot(sorted(back, key=ball_order), pos)
        for r in rs:
            pos[r.ball] = r.at
        d.respot += rs
        d.positions = pos
        if self.any_ball_cue:
            d.family = AmericanState(spotted=tuple(r.ball for r in d.respot))

    # --- who plays ----------------------------------------------------------------------------
    def hand_over(self, s: Stroke, d: Draft) -> None:
        d.lift(WarningCode.OUTSIDE_HOUSE, s.striker)  # the warning was about this placement
        if self.referee_error(s):
            d.next_player = s.opponent
            d.cue = self.cue_ball if self.cue_ball in d.positions or not self.any_ball_cue else s.state.cue
            d.in_hand = None if d.cue in d.positions else InHand.HOUSE
            return
        rolled = self.rolled_along(s) and not d.foul
        if d.foul:
            d.next_player = s.opponent
            d.options = [Option.PLAY_ON]
            d.notes.append(
                text(
                    f"The opponent may make the offender play on («играй дальше», {R_PLAY_ON}).",
                    f"Соперник может потребовать «играй дальше» ({R_PLAY_ON}).",
                )
            )
        elif d.counted and not rolled:
            d.next_player = s.striker
        else:
            d.next_player = s.opponent
        d.in_hand = InHand.HOUSE if self.cue_goes_in_hand(s, d) or self.legal_in_off(s, d) else None
        d.cue = self.cue_ball

    def opponent_interfered(self, s: Stroke, d: Draft) -> None:
        """003 «Вмешательство соперника»: the opponent who touches, moves or stops a ball is penalised; the position
        is restored as exactly as can be (the undisturbed run, when the caller has it), and a ball he stopped on its
        way to a pocket counts - the striker then plays on. A ball that has left the table and touches the opponent's
        things beyond it is only a jumped ball (003: Выскочившие шары)."""
        touches = [(b, o) for b, o, inside in s.opponent_touches if inside]
        if not touches:
            return
        opp, me = s.opponent, s.striker
        b, obj = touches[0]
        d.others.append(
            Foul(
                FoulCode.OPPONENT_INTERFERENCE,
                R_OPPONENT + "; " + R_FOULS + " (15)",
                text(
                    f"the opponent touched {ball_en(b)} ({object_en(obj)}): his foul, not the striker's",
                    f"соперник коснулся {ball_ru(b, 'gen')} ({object_ru(obj)}): это его нарушение, а не играющего",
                ),
                by=opp,
            )
        )
        if self.points_game:
            d.points[opp] -= PENALTY_POINTS
            d.points[me] += PENALTY_POINTS
            d.scores[opp] -= PENALTY_POINTS
            d.scores[me] += PENALTY_POINTS
            fine_en, fine_ru = (
                f"{PENALTY_POINTS} points off him, {PENALTY_POINTS} to the striker",
                (f"с него списывается {PENALTY_POINTS} очков, играющему прибавляется {PENALTY_POINTS}"),
            )
        elif s.state.shelves[opp]:
            ball = s.state.shelves[opp][-1]
            d.from_shelf.append(ball)
            d.points[opp] -= 1
            d.scores[opp] -= 1
            fine_en, fine_ru = (
                f"{ball_en(ball)} comes off his shelf back to the table",
                f"{ball_ru(ball)} снимается с его полки и выставляется",
            )
        else:
            d.owed[opp] += 1
            fine_en, fine_ru = "he owes a ball", "у него нет шаров - шар в долг"
        it = s.interference
        if it is None:
            where_en = "The balls stay where they stopped: with no undisturbed run the referee cannot say where they would have gone."
            where_ru = "Шары остаются там, где остановились: без расчёта удара без вмешательства судье не по чему их восстановить."
        else:
            went = [x for x in it.balls if x in d.counted]
            where_en = "The balls he disturbed are put where they would have come to rest" + (
                f"; {balls_list(went, 'en')} was on its way to a pocket and counts, so the striker plays on."
                if went
                else "."
            )
            where_ru = "Потревоженные им шары ставятся туда, где они остановились бы" + (
                f"; {balls_list(went, 'ru')} шёл в лузу и считается сыгранным - играющий продолжает."
                if went
                else "."
            )
        d.notes.append(
            text(
                f"Opponent's interference ({R_OPPONENT}): penalty, {fine_en} ({self.penalty_rule}). {where_en}",
                f"Вмешательство соперника ({R_OPPONENT}): штраф, {fine_ru} ({self.penalty_rule}). {where_ru}",
            )
        )

    def legal_in_off(self, s: Stroke, d: Draft) -> bool:
        return self.in_off_scores and not self.any_ball_cue and not d.foul and s.cue in d.counted

    def end_frame(self, s: Stroke, d: Draft) -> None:
        if not self.points_game:
            for p, sc in enumerate(d.scores):
                if sc >= self.target:
                    d.frame_over, d.winner = True, p
                    return
            objs = [b for b in d.positions if b != self.cue_ball or self.any_ball_cue]
            if not objs and d.choice is None:
                # Every ball is gone and nobody has 8 (penalty balls went back...): cannot happen with 15 balls
                # on the shelves, since 8 of them make the target; kept as a guard.
                d.frame_over = True
                d.winner = max(range(len(d.scores)), key=lambda p: d.scores[p])


def _players_ru(obj: str, case: str) -> str:
    """A player's thing in a Russian sentence: «принадлежность игрока (мел)»; the player himself: «игрока»."""
    if obj in ("person", "player", "opponent"):
        return object_ru(obj, "acc")  # the accusative and the genitive of an animate noun are one
    return ("принадлежность" if case == "acc" else "принадлежности") + f" игрока ({object_ru(obj)})"


# ================================================================================================
@register
class RussianPyramid(Pyramid):
    """Русская пирамида (71 points): called ball and pocket, the 1 is 11, the last ball +10."""

    id = "russian-pyramid"
    aliases: ClassVar[tuple[str, ...]] = ("71", "russian", "russian-71", "русская", "классическая")
    names = {"en": "Russian pyramid (71)", "ru": "Русская пирамида (71 очко)"}
    calls = True
    points_game = True
    negative_scores = True  # a foul takes PENALTY_POINTS off the striker, from 0 too
    phases = frozenset({Phase.BREAK, Phase.PLAY, Phase.SEVENTY})
    state_type = SeventyOneState
    penalty_rule = R_71_PENALTY
    spot_rule = R_71_SPOT

    def end_frame(self, s: Stroke, d: Draft) -> None:
        st = s.state
        fam = st.family
        quiet = list(fam.quiet_fouls) if isinstance(fam, SeventyOneState) else [0, 0]
        objects_still = all(
            F.final_xy(s.record, b) is not None
            and F.dist(F.final_xy(s.record, b) or (0, 0), p) <= F.FROZEN_TOL
            for b, p in s.initial.items()
            if b != self.cue_ball
        )
        if d.foul and objects_still:
            quiet[s.striker] += 1
        else:
            quiet = [0, 0] if not objects_still else quiet
            if not d.foul:
                quiet[s.striker] = 0
        d.family = SeventyOneState(quiet_fouls=tuple(quiet))
        for p, n in enumerate(quiet):
            if n < 2:
                d.lift(WarningCode.STALEMATE, p)
        if d.foul and quiet[s.striker] == 2:
            # 000 «Патовая позиция», ПРИМЕЧАНИЕ: the referee warns after the second foul in a row.
            d.warn(WarningCode.STALEMATE, s.striker)
            d.warnings.append(
                Note(
                    NoteCode.SECOND_FOUL_IN_ROW,
                    R_71_STALE,
                    text(
                        "Second foul in a row without moving the object balls: a third by each player stalls the frame.",
                        "Второе нарушение подряд без изменения позиции прицельных шаров: после третьего у обоих "
                        "игроков партия будет остановлена (патовая позиция).",
                    ),
                )
            )
        for p, sc in enumerate(d.scores):
            if sc >= 71:
                d.frame_over, d.winner = True, p
                return
        warned = all(
            any(w.code == WarningCode.STALEMATE and w.player == p for w in d.standing) for p in (0, 1)
        )
        if min(quiet) >= 3 and warned:
            self._stalemate(s, d)
            return
        if d.scores == [70, 70] and st.phase != Phase.SEVENTY:
            self._seventy(s, d)

    def _to_hand(self, s: Stroke, d: Draft) -> None:
        d.positions.pop(self.cue_ball, None)
        d.in_hand = InHand.HOUSE
        d.options = [Option.LAG]
        d.phase = Phase.SEVENTY

    def _seventy(self, s: Stroke, d: Draft) -> None:
        """000: «Игра при счете 70:70»: the last ball counted goes on the back spot, a lag decides who plays,
        from hand from the house, until a ball is pocketed or a foul."""
        last = ([b for b in d.counted if b != self.cue_ball] or [s.state.last_counted or ""])[-1]
        if last:
            for shelf in d.credit.values():
                if last in shelf:
                    shelf.remove(last)
            if last not in d.credit.get(s.striker, []) and any(last in sh for sh in s.state.shelves):
                d.from_shelf.append(last)
            rs = spot_on_line(
                [last], {b: q for b, q in d.positions.items() if b != self.cue_ball}, self.table
            )
            d.respot += rs
            d.positions[last] = rs[0].at
        self._to_hand(s, d)
        d.warnings.append(
            Note(
                NoteCode.SEVENTY_ALL,
                R_71_7070,
                text(
                    f"70:70: {ball_en(last)} goes back on the back spot; a lag decides who plays it from hand from the house.",
                    f"Счёт 70:70: {ball_ru(last)} выставляется на заднюю отметку; право удара разыгрывается, игра с руки из дома.",
                ),
            )
        )

    def _stalemate(self, s: Stroke, d: Draft) -> None:
        objs = sorted((b for b in d.positions if b != self.cue_ball), key=ball_order)
        keep = objs[0] if objs else None
        for b in objs[1:]:
            d.positions.pop(b)
            d.out_of_play.append(b)
        d.scores = [70, 70]
        d.points = [70 - sc for sc in s.state.scores]
        if keep is not None:
            rest = {b: q for b, q in d.positions.items() if b not in (keep, self.cue_ball)}
            rs = spot_on_line([keep], rest, self.table)
            d.respot = [r for r in d.respot if r.ball != keep] + rs
            d.positions[keep] = rs[0].at
        d.respot = [r for r in d.respot if r.ball in d.positions]
        self._to_hand(s, d)
        d.family = SeventyOneState()
        d.lift(WarningCode.STALEMATE, 0)
        d.lift(WarningCode.STALEMATE, 1)
        d.warnings.append(
            Note(
                NoteCode.STALEMATE,
                R_71_STALE,
                text(
                    "Stalemate: each player fouled three times in a row without changing the position, after the "
                    f"referee's warning. Only {ball_en(keep or '')} stays, on the back spot; the score is set to 70:70 "
                    "and play goes on under the 70:70 rule.",
                    "Патовая позиция: каждый игрок трижды подряд нарушил правила без изменения позиции, несмотря на "
                    f"предупреждение судьи. На столе остаётся {ball_ru(keep or '')} на задней отметке, счёт 70:70, "
                    "игра по правилу «70:70».",
                ),
            )
        )


@register
class RussianPyramidFast(RussianPyramid):
    id = "russian-pyramid-fast"
    aliases = ("71-fast", "russian-fast")
    names = {"en": "Russian pyramid (71), fast", "ru": "Русская пирамида (71 очко), быстрая"}
    fast = True
    safety = "fast"


@register
class American(Pyramid):
    """Американка: any of the 16 balls is the cue ball, first to 8, penalty ball from the shelf."""

    id = "american"
    aliases: ClassVar[tuple[str, ...]] = ("американка", "free-pyramid", "свободная")
    names = {"en": "Americanka (free pyramid)", "ru": "Американка"}
    any_ball_cue = True
    cue_may_be_credited = True
    in_off_scores = True
    cue_pocket_foul = False
    hand_after_cue_lost = False
    safety = "american"
    spotting = "cushion"
    shelf_game = True
    penalty_rule = R_AM_PENALTY
    spot_rule = R_AM_SPOT

    state_type = AmericanState


@register
class AmericanFast(American):
    id = "american-fast"
    aliases = ("американка-быстрая",)
    names = {"en": "Americanka, fast", "ru": "Американка быстрая"}
    fast = True


@register
class MoscowPyramid(Pyramid):
    """Московская пирамида: the cue ball off an object ball scores; the opponent picks a ball to come off."""

    id = "moscow-pyramid"
    aliases: ClassVar[tuple[str, ...]] = ("moscow", "московская", "combined-pyramid")
    names = {"en": "Moscow pyramid", "ru": "Московская пирамида"}
    in_off_scores = True
    cue_pocket_foul = False
    spotting = "cushion"
    shelf_game = True
    negative_scores = True  # an in-off with no object ball left to take off costs a point
    penalty_rule = R_MO_PENALTY
    spot_rule = R_MO_SPOT

    def hand_over(self, s: Stroke, d: Draft) -> None:
        super().hand_over(s, d)
        if self.legal_in_off(s, d):
            among = tuple(sorted((b for b in d.positions if b != self.cue_ball), key=ball_order))
            if among:
                d.choice = Choice(Option.REMOVE_BALL, by=s.opponent, among=among, credit_to=s.striker)
                d.options = [Option.REMOVE_BALL]
                d.notes.append(
                    text(
                        f"The cue ball went in off an object ball: it scores; the opponent picks an object ball to come "
                        f"off to the striker's shelf, and the striker plays on from hand from the house ({R_MO_PLAY}).",
                        f"Биток сыгран от прицельного шара: засчитывается; соперник указывает прицельный шар, который "
                        f"снимается со стола, и игрок продолжает с руки из дома ({R_MO_PLAY}).",
                    )
                )
            else:
                d.scores[s.striker] -= 1
                d.points[s.striker] -= 1

    def balls_back(self, s: Stroke, d: Draft) -> list[BallId]:
        return [b for b in super().balls_back(s, d) if b != self.cue_ball]


@register
class MoscowPyramidFast(MoscowPyramid):
    id = "moscow-pyramid-fast"
    aliases = ("moscow-fast",)
    names = {"en": "Moscow pyramid, fast", "ru": "Московская пирамида, быстрая"}
    fast = True
    safety = "fast"


@register
class MoscowPyramidCalled(MoscowPyramid):
    """Московская пирамида, заказная (003: Штрафы (13) names it): a ball and a pocket are called before every
    stroke, as in the 71-point game (000: Русская пирамида, «Заказ»); the cue ball may be called too (the
    in-off scores in Moscow pyramid)."""

    id = "moscow-pyramid-called"
    aliases = ("moscow-called",)
    names = {"en": "Moscow pyramid, called", "ru": "Московская пирамида, заказная"}
    calls = True
    call_rule = R_CALLED


@register
class MoscowPyramidCalledFast(MoscowPyramidCalled):
    """The fast called Moscow pyramid: calls, the fast break and 003's отыгрыш rule."""

    id = "moscow-pyramid-called-fast"
    aliases = ("moscow-called-fast",)
    names = {"en": "Moscow pyramid, called, fast", "ru": "Московская пирамида, быстрая заказная"}
    fast = True
    safety = "fast"


@register
class PyramidEight(Pyramid):
    """Пирамида 8 шаров: first to eight object balls; the cue ball in a pocket is a foul."""

    id = "pyramid-8"
    aliases: ClassVar[tuple[str, ...]] = ("8-balls", "пирамида-8")
    names = {"en": "Pyramid, 8 balls", "ru": "Пирамида 8 шаров"}
    shelf_game = True


@register
class PyramidEightFast(PyramidEight):
    id = "pyramid-8-fast"
    aliases = ("8-balls-fast",)
    names = {"en": "Pyramid, 8 balls, fast", "ru": "Пирамида 8 шаров, быстрая"}
    fast = True
    safety = "fast"


@register
class PyramidEightCalled(PyramidEight):
    """Пирамида 8 шаров, заказная (003: Штрафы (13) names it): a ball and a pocket called before every stroke."""

    id = "pyramid-8-called"
    aliases = ("8-balls-called",)
    names = {"en": "Pyramid, 8 balls, called", "ru": "Пирамида 8 шаров, заказная"}
    calls = True
    call_rule = R_CALLED


@register
class PyramidEightCalledFast(PyramidEightCalled):
    """The fast called Pyramid 8: calls, the fast break and 003's отыгрыш rule."""

    id = "pyramid-8-called-fast"
    aliases = ("8-balls-called-fast",)
    names = {"en": "Pyramid, 8 balls, called, fast", "ru": "Пирамида 8 шаров, быстрая заказная"}
    fast = True
    safety = "fast"
