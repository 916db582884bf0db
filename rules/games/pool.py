"""Pool referees: 8-ball, 9-ball and 14.1 continuous (straight pool).

The rulebook is 000's general pool rules («Настоящие правила являются общими для всех описанных ниже
разновидностей пула»); what they leave to each game (groups, the 8, the 9, the break, 14.1 scoring)
follows the WPA World Standardized Rules, cited by game and section name.

What every pool game here shares (:class:`PoolReferee`):

- a legal stroke: the cue ball meets a legal ball first, then a ball is pocketed or some ball reaches a
  cushion (000: Правильный удар; Промах по легальному шару);
- the cue ball pocketed is a foul (000: Падение битка в лузу);
- off the table (000: Выскочившие шары; WPA 8.5): at rest anywhere but the bed, or sent back by anything
  that is not part of the table - the lamp, chalk, a person. The rail top, cushions, jaws and pockets are
  the table: a ball that bounces on the rail top and rolls back is in play;
- jumps (000: Правильный перескок): a jump made with an elevated cue on the upper half of the ball is
  legal; scooping under the ball is a foul, and so is a miscue during a jump. A miscue on a stroke
  that does not leave the cloth is no foul (WPA);
- hanging balls: one that stays still 5 s or more after the stroke and then falls is put back (000:
  Самопроизвольное перемещение шаров); earlier, it was pocketed by the stroke;
- spotting on the long string from the foot spot toward the foot cushion (000: Выставление шаров).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from physics.errors import InputError
from physics.racks import Rack
from physics.record import BallId, BallStatus
from rules.base import Draft, Referee, Stroke, text
from rules.contract import Family, FamilyState, NoteCode, Phase, flag, player_index
from rules.games import pool_events as PE
from rules.games.pool_geometry import (
    DIAMOND_ROWS,
    ball_number,
    in_rack_area,
    rack_positions,
    spot_on_long_string,
)
from rules.names import ball_en, ball_ru, balls_list, capital, object_en, object_ru, pocket_name
from rules.registration import register
from rules.ruling import Foul, FoulCode, InHand, Note, Option, Point, Respot
from rules.state import MatchState
from rules.strike import push_unless_frozen

NUMBERED: tuple[BallId, ...] = tuple(str(i) for i in range(1, 16))
SOLIDS = frozenset(str(i) for i in range(1, 8))
STRIPES = frozenset(str(i) for i in range(9, 16))

R_SCRATCH = "000: Падение битка в лузу"
R_OFF = "000: Выскочившие шары"
R_MISS = "000: Промах по легальному шару"
R_LEGAL = "000: Правильный удар"
R_JUMP = "000: Правильный перескок"
R_DOUBLE = "000: Запрет двойных ударов"
R_TOUCH = "000: Запрет касания шаров"
R_HAND = "000: Удар с руки из дома"
R_OUTSIDE = "000: Вмешательство постороннего"
R_UNAIDED = "000: Самопроизвольное перемещение шаров"

ILLEGAL_BREAK = FoulCode.ILLEGAL_BREAK
BREAKING_VIOLATION = FoulCode.BREAKING_VIOLATION
THREE_FOULS = FoulCode.THREE_FOULS
CUE_BALL_MISPLACED = FoulCode.CUE_BALL_MISPLACED
BEHIND_STRING_FIRST = FoulCode.BEHIND_STRING_FIRST
EIGHT_EARLY = FoulCode.EIGHT_EARLY
EIGHT_WRONG_POCKET = FoulCode.EIGHT_WRONG_POCKET
EIGHT_ON_FOUL = FoulCode.EIGHT_ON_FOUL
EIGHT_OFF_TABLE = FoulCode.EIGHT_OFF_TABLE
GROUPS = ("", "solids", "stripes")


@dataclass(frozen=True)
class PoolState(FamilyState):
    """Pool: ``opening_by`` - the player owed an opening break (a re-break), -1 for none."""

    opening_by: int = -1

    @classmethod
    def read(cls, key: str, value: Any, n_players: int, file: str) -> Any:
        return player_index(file, key, value)


@dataclass(frozen=True)
class EightBallState(PoolState):
    """8-ball: each player's group, ``""`` while the table is open."""

    groups: tuple[str, ...] = ("", "")

    @classmethod
    def read(cls, key: str, value: Any, n_players: int, file: str) -> Any:
        if key != "groups":
            return super().read(key, value, n_players, file)
        v = value
        if (
            not isinstance(v, list)
            or len(v) != 2
            or not all(g in GROUPS for g in v)
            or (v[0] and v[0] == v[1])
            or (bool(v[0]) != bool(v[1]))
        ):
            raise InputError(
                file,
                "state.extra.groups",
                'two entries: ["", ""] (open table) or "solids"/"stripes", one each',
            )
        return tuple(v)


@dataclass(frozen=True)
class NineBallState(PoolState):
    """9-ball: a push out declared for this stroke, and whether one may be (the shot after the break)."""

    push_out: bool = False
    push_out_available: bool = False

    @classmethod
    def read(cls, key: str, value: Any, n_players: int, file: str) -> Any:
        if key in ("push_out", "push_out_available"):
            return flag(file, key, value)
        return super().read(key, value, n_players, file)


@dataclass(frozen=True)
class StraightPoolState(PoolState):
    """14.1: the points that win."""

    target: int = 100

    @classmethod
    def read(cls, key: str, value: Any, n_players: int, file: str) -> Any:
        if key == "target":
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InputError(file, "state.extra.target", "a positive integer (points to win)")
            return value
        return super().read(key, value, n_players, file)


def _objects(balls: Mapping[BallId, Point] | set[BallId] | list[BallId] | tuple[BallId, ...]) -> list[BallId]:
    return sorted((b for b in balls if b != "cue"), key=ball_number)


class PoolReferee(Referee):
    """What 000's general pool rules give every pool game; the games override the hooks below."""

    table_id = "pool-9ft"
    family = Family.POOL
    state_type: ClassVar[type[FamilyState]] = PoolState
    balls: ClassVar[tuple[BallId, ...]] = ("cue", *NUMBERED)
    break_in_hand: ClassVar[InHand | None] = InHand.BEHIND_HEAD_STRING
    # Parts of the table itself (000: «стационарная принадлежность стола»; WPA 8.1). The lamp is not one.
    fixtures = frozenset({"bed", "rail_top", "rail", "frame", "bracket", "pocket", "cushion", "jaw", "liner"})
    foul_in_hand: ClassVar[InHand] = InHand.ANYWHERE

    # --- declarations -----------------------------------------------------------------------

    def open_break_foul(self, s: Stroke, d: Draft, rule: str) -> None:
        """The open break (8-ball, 9-ball): a ball pocketed, or at least four object balls at a cushion."""
        objs = self.pocketed_objects(s)
        rails = PE.rails_reached(s.record, self.table, s.first_t) - {self.cue_ball}
        if not objs and len(rails) < 4:
            d.fouls.append(
                self.foul(
                    ILLEGAL_BREAK,
                    rule,
                    f"Break: no ball was pocketed and only {len(rails)} object balls reached a cushion; at "
                    "least four are required.",
                    f"Разбой: ни один шар не забит, до бортов дошли лишь {len(rails)} прицельных шара; нужно "
                    "не меньше четырёх.",
                )
            )

    def touch_jumps(self, obj: str, inside: bool) -> bool:
        """Anything that is not part of the table makes the ball off the table, even if it comes back:
        000 names the lamp and chalk on the rail; WPA 8.5 the light fixture, chalk and a player."""
        return obj not in self.fixtures

    def pool_state(self, st: MatchState | Draft) -> PoolState:
        fam = st.family
        assert isinstance(fam, PoolState), fam
        return fam

    def set_state(self, d: Draft, **values: Any) -> None:
        """Replace fields of the draft's family state."""
        d.family = replace(d.family, **values)

    # --- facts ------------------------------------------------------------------------------
    def breaking(self, s: Stroke) -> bool:
        """The stroke is an opening break: a fresh frame, or a re-break the opponent asked for (the
        offender replays from the restored rack, so he is to play from hand in the break phase)."""
        st = s.state
        return st.is_break or (
            st.phase == Phase.BREAK
            and st.in_hand is not None
            and self.pool_state(st).opening_by == st.to_play
        )

    def pocketed_objects(self, s: Stroke) -> list[BallId]:
        return [b for b in s.pocketed if b != self.cue_ball and b not in s.jumped]

    def legal_first(self, s: Stroke) -> set[BallId]:
        """Balls the cue ball may meet first (default: any object ball)."""
        return set(_objects(s.initial))

    # --- fouls every pool game shares -------------------------------------------------------
    def common_fouls(self, s: Stroke, d: Draft, breaking: bool, push_out: bool = False) -> None:
        """The fouls of 000's general pool rules. A push out (9-ball) waives the legal-first-ball and
        rail requirements and nothing else."""
        self.strike_fouls(s, d, breaking)
        self.where_fouls(s, d)
        if not push_out:
            self.contact_fouls(s, d, breaking)

    def strike_fouls(self, s: Stroke, d: Draft, breaking: bool) -> None:
        """How the stroke was played: the ball struck, a double hit, a scoop or a miscue on a jump, the
        cue ball's place from hand."""
        cue = self.cue_ball
        if s.struck and s.struck != cue:
            d.fouls.append(
                self.foul(
                    FoulCode.WRONG_BALL_STRUCK,
                    R_TOUCH,
                    f"The cue met {ball_en(s.struck)}, not the cue ball: only the cue ball may be struck, with the tip.",
                    f"Кий ударил {ball_ru(s.struck, 'acc')}, а не биток: ударять можно только биток и только наклейкой.",
                )
            )
        if s.strikes >= 2:
            d.fouls.append(
                self.foul(
                    FoulCode.DOUBLE_HIT,
                    R_DOUBLE,
                    "The tip met the cue ball more than once in one stroke.",
                    "Наклейка коснулась битка за удар больше одного раза.",
                )
            )
        pushed = push_unless_frozen(s.record, self.cue_ball, s.first, s.first_t, self.table.ball_radius)
        if pushed is not None:
            d.fouls.append(
                self.foul(
                    FoulCode.PUSH_SHOT,
                    R_DOUBLE,
                    f"A push: the tip was still on the cue ball when it met {ball_en(pushed.ball)} "
                    f"({pushed.ms:.1f} ms into the tip's contact).",
                    f"Толчок: наклейка ещё касалась битка, когда он коснулся {ball_ru(pushed.ball, 'gen')} "
                    f"(через {pushed.ms:.1f} мс после начала контакта).",
                )
            )
        if PE.scooped(s.record, self.cue_ball, s.scoop):
            d.fouls.append(
                self.foul(
                    FoulCode.SCOOP,
                    R_JUMP,
                    "Scoop: the tip went under the cue ball with an elevated cue. A jump is legal only when the "
                    "cue strikes down on the upper half of the ball.",
                    "Подцепка: наклейка поддела биток снизу приподнятым кием. Перескок правилен, только если "
                    "удар нанесён приподнятым кием в верхнюю половину шара.",
                )
            )
        elif s.miscue and PE.airborne(s.record, cue):
            d.fouls.append(
                self.foul(
                    FoulCode.MISCUE,
                    R_JUMP,
                    "Miscue on a jump: the tip slid on the cue ball while jumping it; the rules punish any "
                    "miscue in a jump.",
                    "Кикс при перескоке: наклейка проскользнула по битку, а любой кикс при перескоке штрафуется.",
                )
            )
        if s.state.in_hand == InHand.BEHIND_HEAD_STRING and not self._cue_placed_behind(s):
            d.fouls.append(
                self.foul(
                    CUE_BALL_MISPLACED,
                    R_HAND,
                    "From hand behind the head string, the cue ball was placed on or beyond the string.",
                    "При игре с руки из дома биток установлен на переднюю линию или за её пределами.",
                )
            )
        if s.state.in_hand == InHand.BEHIND_HEAD_STRING and not breaking and s.first is not None:
            hs = self.table.lines["head-string"]
            fp = s.initial.get(s.first)
            # 000 «Дом и передняя линия»: a ball exactly on the string is outside the kitchen.
            if (
                fp is not None
                and fp[0] < hs
                and not PE.crossed_before(s.record, cue, "head-string", s.first_t)
            ):
                d.fouls.append(
                    self.foul(
                        BEHIND_STRING_FIRST,
                        R_HAND,
                        f"From hand behind the head string the cue ball met {ball_en(s.first)}, which lay behind the "
                        "string, without first leaving the kitchen.",
                        f"С руки из дома биток первым коснулся {ball_ru(s.first, 'gen')}, стоявшего в доме, не выйдя "
                        "предварительно из дома.",
                    )
                )

    def where_fouls(self, s: Stroke, d: Draft) -> None:
        """The cue ball or an object ball off the table, the cue ball in a pocket."""
        cue = self.cue_ball
        if cue in s.jumped:
            d.fouls.append(self._off_foul(s, cue, FoulCode.CUE_BALL_OFF_TABLE))
        elif cue in s.pocketed:
            d.fouls.append(
                self.foul(
                    FoulCode.CUE_BALL_POCKETED,
                    R_SCRATCH,
                    "Scratch: the cue ball fell into a pocket.",
                    "Биток упал в лузу.",
                )
            )
        for b in s.jumped:
            if b != cue:
                d.fouls.append(self._off_foul(s, b, FoulCode.BALL_OFF_TABLE))

    def contact_fouls(self, s: Stroke, d: Draft, breaking: bool) -> None:
        """A legal ball first, then a ball pocketed or a ball to a cushion (000 «Правильный удар»)."""
        cue = self.cue_ball
        if s.first is None:
            d.fouls.append(
                self.foul(
                    FoulCode.MISS,
                    R_MISS,
                    "The cue ball touched no object ball.",
                    "Биток не коснулся ни одного прицельного шара.",
                )
            )
        elif not breaking or self.break_first_rule:
            legal = self.legal_first(s)
            firsts = PE.simultaneous_first(s.record, cue)
            bad = [b for b in firsts if b not in legal]
            if bad:
                d.fouls.append(
                    self.foul(
                        FoulCode.WRONG_BALL_FIRST,
                        R_MISS,
                        f"The cue ball met {ball_en(bad[0])} first; a legal first ball here is one of "
                        f"{balls_list(_objects(legal), 'en') or 'none'}.",
                        f"Биток первым коснулся {ball_ru(bad[0], 'gen')}; правильным первым шаром здесь был бы один "
                        f"из: {balls_list(_objects(legal), 'ru') or 'нет'}.",
                    )
                )
        if (
            s.first is not None
            and not breaking
            and not self.pocketed_objects(s)
            and not PE.rails_reached(s.record, self.table, s.first_t)
        ):
            d.fouls.append(
                self.foul(
                    FoulCode.NO_RAIL,
                    R_LEGAL,
                    "After the cue ball met the object ball nothing was pocketed and no ball reached a cushion.",
                    "После касания прицельного шара ни один шар не упал в лузу и ни один не дошёл до борта.",
                )
            )

    break_first_rule: ClassVar[bool] = False  # 9-ball: the 1 must be met first on the break too

    def _cue_placed_behind(self, s: Stroke) -> bool:
        p = s.initial.get(self.cue_ball)
        # 000 «Дом и передняя линия»: the head string is not part of the kitchen.
        return p is None or p[0] < self.table.lines["head-string"]

    def _off_foul(self, s: Stroke, ball: BallId, code: FoulCode) -> Foul:
        touched = [
            e.object
            for e in s.record.events
            if e.type == "touched"
            and e.ball == ball
            and e.object is not None
            and e.object not in self.fixtures
            and e.object != "floor"  # where it ends up, not what sent it off
        ]
        what_en, what_ru = capital(ball_en(ball)), capital(ball_ru(ball))
        final = s.record.final.get(ball)
        back = final is not None and final.status == BallStatus.ON_TABLE
        rest = final.rest if final is not None and final.rest else "off the bed"
        if touched and back:
            obj = touched[0]
            return self.foul(
                code,
                R_OFF,
                f"{what_en} touched {object_en(obj)}, which is not part of the table, so it is off the table "
                "even though it came back onto the bed (WPA 8.5 says the same).",
                f"{what_ru} задел {object_ru(obj, 'acc')} - это не принадлежность стола, поэтому шар считается "
                "выскочившим, даже вернувшись на поле.",
            )
        if touched:
            obj = touched[0]
            return self.foul(
                code,
                R_OFF,
                f"{what_en} touched {object_en(obj)} and came to rest off the playing surface "
                f"({_REST_EN.get(rest, rest)}): it jumped the table.",
                f"{what_ru} задел {object_ru(obj, 'acc')} и остановился вне игровой поверхности "
                f"({_REST_RU.get(rest, rest)}): выскочил за борт.",
            )
        return self.foul(
            code,
            R_OFF,
            f"{what_en} came to rest off the playing surface ({_REST_EN.get(rest, rest)}): it jumped the table.",
            f"{what_ru} остановился вне игровой поверхности ({_REST_RU.get(rest, rest)}): выскочил за борт.",
        )

    def three_foul_check(self, s: Stroke, d: Draft, rule: str) -> bool:
        """The third foul in a row in consecutive innings; announce the warning after the second."""
        if not d.foul:
            return False
        prior = s.state.fouls_in_row[s.striker] % 3
        if prior == 2:
            d.fouls.append(
                self.foul(
                    THREE_FOULS,
                    rule,
                    "Third foul in a row by the same player.",
                    "Третий фол подряд у одного игрока.",
                )
            )
            return True
        if prior == 1:
            d.warnings.append(
                Note(
                    NoteCode.SECOND_FOUL_WARNING,
                    rule,
                    text(
                        "Two fouls in a row: a third consecutive foul is punished.",
                        "Два фола подряд: за третий фол подряд последует наказание.",
                    ),
                )
            )
        return False

    def replay_reason(self, s: Stroke) -> Note | None:
        if s.outside_agent is not None:
            return Note(
                NoteCode.OUTSIDE_INTERFERENCE,
                R_OUTSIDE,
                text(
                    f"An outsider ({object_en(str(s.outside_agent))}) moved a ball: the position is restored and the "
                    "stroke replayed.",
                    f"Посторонний ({object_ru(str(s.outside_agent))}) сдвинул шар: позиция восстанавливается, удар "
                    "повторяется.",
                ),
            )
        # 000 (pool, «Самопроизвольное перемещение шаров»); WPA 1.7 and BCA 3.31 agree.
        return self.fell_unaided_note(s, R_UNAIDED)

    # --- the opponent's interference ---------------------------------------------------------
    interference_rule: ClassVar[str] = "000: Вмешательство в игру соперника"

    def opponent_interfered(self, s: Stroke, d: Draft) -> None:
        """000 (general pool rules) «Вмешательство в игру соперника»: moving any ball while the other plays is a
        foul of the one who moved it; the striker is the player the foul serves (``interference_penalty``)."""
        touches = [(b, o) for b, o, inside in s.opponent_touches if inside]
        if not touches:
            return
        b, obj = touches[0]
        opp = s.opponent
        d.others.append(
            Foul(
                FoulCode.OPPONENT_INTERFERENCE,
                self.interference_rule,
                text(
                    f"the opponent touched {ball_en(b)} ({object_en(obj)}) while the striker played: the opponent's foul",
                    f"соперник коснулся {ball_ru(b, 'gen')} ({object_ru(obj)}) во время удара играющего: это "
                    "нарушение соперника",
                ),
                by=opp,
            )
        )
        self.interference_penalty(s, d, opp)

    def interference_penalty(self, s: Stroke, d: Draft, opp: int) -> None:
        """8-ball, 9-ball: the foul gives the striker the cue ball in hand anywhere (``after_interference``)."""
        d.notes.append(
            text(
                f"The opponent fouled ({self.interference_rule}): the striker plays on with the cue ball in hand.",
                f"Нарушение соперника ({self.interference_rule}): играющий продолжает с битком с руки.",
            )
        )

    def after_interference(self, s: Stroke, d: Draft) -> None:
        if d.foul or d.frame_over or not any(f.code == FoulCode.OPPONENT_INTERFERENCE for f in d.others):
            return
        d.next_player = s.striker
        d.options = []
        d.in_hand = self.foul_in_hand
        d.positions.pop(self.cue_ball, None)

    # --- placing helpers --------------------------------------------------------------------
    def spot(self, d: Draft, balls: list[BallId]) -> None:
        for b, at in spot_on_long_string(self.table, balls, d.positions):
            d.positions[b] = at
            d.respot.append(Respot(b, at))

    def frame_hand(self, d: Draft) -> None:
        """At the end of a frame nobody plays on: the cue ball is in hand only if it is off the bed."""
        d.in_hand = None if self.cue_ball in d.positions else self.break_in_hand

    def cue_in_hand(self, s: Stroke, d: Draft) -> bool:
        """The cue ball is off the bed after this stroke (pocketed or off the table)."""
        return self.cue_ball in s.pocketed or self.cue_ball in s.jumped


POCKET_RU = {
    "head-left": "левая угловая у дома",
    "head-right": "правая угловая у дома",
    "middle-left": "левая средняя",
    "middle-right": "правая средняя",
    "foot-left": "левая угловая у заднего борта",
    "foot-right": "правая угловая у заднего борта",
}
_REST_RU = {"floor": "на полу", "rail": "на поручне борта", "off the bed": "вне поля"}
_REST_EN = {"floor": "on the floor", "rail": "on the rail", "off the bed": "off the bed"}


# =============================================================================================
@register
class EightBall(PoolReferee):
    """WPA 8-ball on 000's general pool rules.

    ``extra``: ``groups`` - ``["", ""]`` while the table is open, else ``"solids"``/``"stripes"`` per
    player; ``opening_by`` - the player owed a re-break (see :meth:`PoolReferee.breaking`).
    """

    id = "pool-8-ball"
    aliases = ("8-ball", "eight-ball")
    names = {"en": "8-ball", "ru": "Пул «восьмёрка»"}

    state_type = EightBallState

    def rack_spec(self, n_players: int) -> Rack:
        # WPA 8-ball racking: the 8 in the middle of the third row, a solid and a stripe in the back corners.
        return Rack(
            rows=(("1",), ("9", "2"), ("10", "8", "3"), ("11", "4", "12", "5"), ("6", "13", "14", "7", "15"))
        )

    def ball_on(self, state: MatchState) -> tuple[str, ...]:
        fam = state.family
        g = fam.groups[state.to_play] if isinstance(fam, EightBallState) else ""
        if not g:
            return ("any",)
        own = [b for b in state.balls if b in self.own_balls(g)]
        return (g,) if own else ("8",)

    def groups(self, s: Stroke) -> list[str]:
        fam = s.state.family
        return list(fam.groups) if isinstance(fam, EightBallState) else ["", ""]

    def own_balls(self, group: str) -> frozenset[BallId]:
        return SOLIDS if group == "solids" else STRIPES if group == "stripes" else frozenset()

    def legal_first(self, s: Stroke) -> set[BallId]:
        g = self.groups(s)[s.striker]
        on_table = set(_objects(s.initial))
        if not g:
            # WPA 8-ball, open table: any object ball but the 8 may be met first.
            return on_table - {"8"}
        own = on_table & self.own_balls(g)
        return own if own else {"8"}

    def check_fouls(self, s: Stroke, d: Draft) -> None:
        breaking = self.breaking(s)
        self.common_fouls(s, d, breaking)
        if breaking:
            self.open_break_foul(s, d, "WPA 8-ball: Legal Break Shot")

    def count(self, s: Stroke, d: Draft) -> None:
        if d.foul:
            return
        objs = [b for b in self.pocketed_objects(s) if b != "8"]
        d.counted = objs

    def _succeeded(self, s: Stroke, d: Draft) -> bool:
        """The inning goes on: a legal stroke that pocketed a called (or, uncalled, an own) ball."""
        if d.foul or not d.counted:
            return False
        if self.breaking(s):
            return True
        shot = s.record.shot
        g = self.groups(s)[s.striker]
        if shot is not None and shot.call_ball is not None:
            ok_ball = shot.call_ball in d.counted and (
                shot.call_pocket is None
                or s.record.final.get(shot.call_ball) is None
                or s.record.final[shot.call_ball].pocket == shot.call_pocket
            )
            if not ok_ball:
                return False
            return not g or shot.call_ball in self.own_balls(g)
        if not g:
            return True
        return any(b in self.own_balls(g) for b in d.counted)

    def place(self, s: Stroke, d: Draft) -> None:
        d.positions = s.final_positions()
        d.off_table = list(s.jumped)
        breaking = self.breaking(s)
        gone = [b for b in self.pocketed_objects(s)] + [b for b in s.jumped if b != self.cue_ball]
        respot = []
        if breaking and "8" in gone:
            respot.append("8")  # WPA 8-ball: the 8 pocketed or jumped on the break is spotted
        d.out_of_play = [b for b in _objects(gone) if b not in respot]
        if self.cue_in_hand(s, d):
            d.positions.pop(self.cue_ball, None)
        self.spot(d, respot)

    def hand_over(self, s: Stroke, d: Draft) -> None:
        breaking = self.breaking(s)
        groups = self.groups(s)
        if self._succeeded(s, d):
            d.next_player = s.striker
            if not groups[s.striker] and not breaking:
                shot = s.record.shot
                pick = shot.call_ball if shot is not None and shot.call_ball in d.counted else d.counted[0]
                mine = "solids" if pick in SOLIDS else "stripes"
                other = "stripes" if mine == "solids" else "solids"
                groups = [mine, other] if s.striker == 0 else [other, mine]
                d.notes.append(
                    text(
                        f"The table is no longer open: {s.state.players[s.striker]} has {mine}.",
                        f"Группы определены: у игрока {s.state.players[s.striker]} "
                        f"{'сплошные' if mine == 'solids' else 'полосатые'}.",
                    )
                )
        else:
            d.next_player = s.opponent
        self.set_state(d, groups=tuple(groups), opening_by=-1)
        d.phase = Phase.PLAY
        if d.foul:
            if d.has(ILLEGAL_BREAK) and len(d.fouls) == 1:
                # WPA 8-ball: the incoming player accepts the table or has it re-racked for a re-break.
                d.options = [Option.MAKE_OFFENDER_REPLAY]
                self.set_state(d, opening_by=s.striker)
                d.phase = Phase.BREAK
                d.in_hand = None
            elif breaking:
                # WPA 8-ball: a foul on the break (scratch, jumped ball) - in hand behind the head string.
                d.in_hand = InHand.BEHIND_HEAD_STRING
            else:
                d.in_hand = self.foul_in_hand
            if d.in_hand is not None:
                d.positions.pop(self.cue_ball, None)
            elif self.cue_ball not in d.positions:
                d.in_hand = InHand.BEHIND_HEAD_STRING
        elif self.cue_in_hand(s, d):
            d.in_hand = self.foul_in_hand
        if breaking and "8" in self.pocketed_objects(s) and not d.foul:
            # WPA 8-ball: the 8 is spotted and the breaker shoots on, or he has the balls re-racked and
            # breaks again.
            d.next_player = s.striker
            d.options = [Option.MAKE_OFFENDER_REPLAY]
            self.set_state(d, opening_by=s.striker)
            d.phase = Phase.BREAK

    def end_frame(self, s: Stroke, d: Draft) -> None:
        if self.breaking(s):
            return
        eight_down = "8" in self.pocketed_objects(s)
        eight_off = "8" in s.jumped
        if not eight_down and not eight_off:
            return
        rule = "WPA 8-ball: Loss of Game"
        g = self.groups(s)[s.striker]
        own_left = [b for b in _objects(s.initial) if b in self.own_balls(g)] if g else ["open"]
        shot = s.record.shot
        pocket = s.record.final["8"].pocket if eight_down and "8" in s.record.final else None
        lose: Foul | None = None
        if eight_off:
            lose = self.foul(
                EIGHT_OFF_TABLE,
                rule,
                "The 8 was driven off the table: the game is lost.",
                "Восьмёрка выскочила за борт: партия проиграна.",
            )
        elif d.foul:
            lose = self.foul(
                EIGHT_ON_FOUL,
                rule,
                "The 8 was pocketed on a foul: the game is lost.",
                "Восьмёрка забита с нарушением: партия проиграна.",
            )
        elif own_left:
            lose = self.foul(
                EIGHT_EARLY,
                rule,
                "The 8 was pocketed before the player's group was cleared: the game is lost.",
                "Восьмёрка забита раньше, чем сыграна своя группа: партия проиграна.",
            )
        elif (
            shot is not None
            and shot.call_pocket is not None
            and shot.call_ball in (None, "8")
            and pocket != shot.call_pocket
        ):
            lose = self.foul(
                EIGHT_WRONG_POCKET,
                rule,
                f"The 8 fell in {pocket_name(pocket, 'en')}, not the called {pocket_name(shot.call_pocket, 'en')}: "
                "the game is lost.",
                f"Восьмёрка упала в лузу «{POCKET_RU.get(pocket or '', pocket)}», а заказана была "
                f"«{POCKET_RU.get(shot.call_pocket, shot.call_pocket)}»: партия проиграна.",
            )
        d.frame_over = True
        d.options = []
        if lose is not None:
            if lose not in d.fouls:
                d.fouls.append(lose)
            d.winner = s.opponent
        else:
            d.winner = s.striker
            d.counted.append("8")
        d.next_player = s.opponent if d.winner == s.striker else s.striker
        self.frame_hand(d)


# =============================================================================================
@register
class NineBall(PoolReferee):
    """WPA 9-ball on 000's general pool rules.

    The lowest-numbered ball must be met first; the 9 pocketed on a legal stroke (the break included)
    wins; the 9 pocketed on a foul or driven off the table is spotted, any other ball that leaves the
    table stays off; three fouls in a row lose the rack.

    Push out (WPA 9-ball: Push Out): the player who takes the first shot after a legal break may declare
    one - ``state.extra.push_out = true`` before that stroke. It need not meet the lowest ball first or
    reach a rail; balls it pockets stay down uncounted (the 9 is spotted); the opponent then plays or
    hands the shot back (``play_on``). ``extra``: ``push_out``, ``push_out_available``, ``opening_by``.
    """

    id = "pool-9-ball"
    aliases = ("9-ball", "nine-ball")
    names = {"en": "9-ball", "ru": "Пул «девятка»"}
    balls: ClassVar[tuple[BallId, ...]] = ("cue", *(str(i) for i in range(1, 10)))
    break_first_rule = True

    state_type = NineBallState

    def rack_spec(self, n_players: int) -> Rack:
        # 000: the front ball on the foot spot; WPA 9-ball: a diamond, the 1 in front, the 9 in the middle.
        order = iter(("1", "2", "3", "4", "9", "5", "6", "7", "8"))
        return Rack(rows=tuple(tuple(next(order) for _ in range(n)) for n in DIAMOND_ROWS))

    def ball_on(self, state: MatchState) -> tuple[str, ...]:
        objs = sorted((b for b in state.balls if b != self.cue_ball), key=ball_number)
        return (objs[0],) if objs else ()

    def pushing(self, s: Stroke) -> bool:
        fam = s.state.family
        assert isinstance(fam, NineBallState)
        return fam.push_out and fam.push_out_available and not self.breaking(s)

    def legal_first(self, s: Stroke) -> set[BallId]:
        objs = _objects(s.initial)
        return {objs[0]} if objs else set()

    def check_fouls(self, s: Stroke, d: Draft) -> None:
        breaking = self.breaking(s)
        self.common_fouls(s, d, breaking, push_out=self.pushing(s))
        if breaking:
            self.open_break_foul(s, d, "WPA 9-ball: Legal Break Shot")
        self.three_foul_check(s, d, "WPA 9-ball: Three Consecutive Fouls")

    def count(self, s: Stroke, d: Draft) -> None:
        if not d.foul and not self.pushing(s):
            d.counted = self.pocketed_objects(s)

    def place(self, s: Stroke, d: Draft) -> None:
        d.positions = s.final_positions()
        d.off_table = list(s.jumped)
        gone = self.pocketed_objects(s) + [b for b in s.jumped if b != self.cue_ball]
        respot = ["9"] if "9" in gone and (d.foul or "9" in s.jumped or self.pushing(s)) else []
        d.out_of_play = [b for b in _objects(gone) if b not in respot]
        if self.cue_in_hand(s, d):
            d.positions.pop(self.cue_ball, None)
        self.spot(d, respot)

    def hand_over(self, s: Stroke, d: Draft) -> None:
        d.next_player = s.striker if (d.counted and not d.foul) else s.opponent
        d.phase = Phase.PLAY
        self.set_state(d, opening_by=-1, push_out=False, push_out_available=self.breaking(s) and not d.foul)
        if d.foul:
            d.in_hand = self.foul_in_hand
            d.positions.pop(self.cue_ball, None)
        elif self.pushing(s):
            # WPA 9-ball: after a push out the opponent shoots, or passes the shot back to the pusher.
            d.options = [Option.PLAY_ON]
            d.notes.append(
                text(
                    "Push out: the opponent plays from here or hands the shot back.",
                    "Пуш-аут: соперник играет из этой позиции или возвращает удар.",
                )
            )

    def end_frame(self, s: Stroke, d: Draft) -> None:
        if d.has(THREE_FOULS):
            d.frame_over, d.winner = True, s.opponent
        elif "9" in d.counted:
            d.frame_over, d.winner = True, s.striker
        if d.frame_over:
            d.options = []
            self.frame_hand(d)
            d.next_player = s.opponent if d.winner == s.striker else s.striker


# =============================================================================================
@register
class StraightPool(PoolReferee):
    """WPA 14.1 continuous on 000's general pool rules.

    One point per ball, the called ball in the called pocket (then every ball pocketed with it counts);
    -1 per foul, -2 for a breaking violation on the opening break, and the third foul in a row costs a
    further 15 points and a new opening break. When 14 balls are down the rack is refilled around the
    15th. Every ball pocketed illegally or off the table is spotted; the scored balls sit on the
    scorer's shelf until the rerack puts them back.

    ``extra``: ``target`` (points to win, default 100), ``opening_by`` (player owed an opening break).
    """

    id = "straight-pool"
    aliases = ("14.1", "straight")
    names = {"en": "14.1 continuous (straight pool)", "ru": "Пул 14.1 с продолжением"}
    negative_scores = True  # -1 a foul, -2 a breaking violation, -15 the third foul in a row
    foul_in_hand: ClassVar[InHand] = InHand.BEHIND_HEAD_STRING
    calls = True
    state_type = StraightPoolState

    def rack_spec(self, n_players: int) -> Rack:
        return Rack(rows=tuple(tuple(NUMBERED[k * (k + 1) // 2 + j] for j in range(k + 1)) for k in range(5)))

    def breaking(self, s: Stroke) -> bool:
        st = s.state
        return st.is_break or (st.phase == Phase.BREAK and self.pool_state(st).opening_by == st.to_play)

    def _called_ok(self, s: Stroke) -> bool:
        shot = s.record.shot
        if shot is None or shot.call_ball is None:
            return False
        if shot.call_ball not in self.pocketed_objects(s):
            return False
        f = s.record.final.get(shot.call_ball)
        return shot.call_pocket is None or f is None or f.pocket == shot.call_pocket

    def check_fouls(self, s: Stroke, d: Draft) -> None:
        breaking = self.breaking(s)
        self.common_fouls(s, d, breaking)
        if breaking and not self._called_ok(s):
            rails = PE.rails_reached(s.record, self.table, s.first_t)
            objs = rails - {self.cue_ball}
            if self.cue_ball not in rails or len(objs) < 2:
                d.fouls.append(
                    self.foul(
                        BREAKING_VIOLATION,
                        "WPA 14.1: Opening Break",
                        f"Opening break: no called ball was pocketed, and the cue ball {'did' if self.cue_ball in rails else 'did not'}"
                        f" reach a cushion with {len(objs)} object balls; the cue ball and two object balls must.",
                        f"Начальный удар: заказанный шар не забит, а биток {'дошёл' if self.cue_ball in rails else 'не дошёл'} "
                        f"до борта, прицельных шаров у бортов - {len(objs)}; нужны биток и два прицельных шара.",
                    )
                )
        self.three_foul_check(s, d, "WPA 14.1: Three Consecutive Fouls")

    def count(self, s: Stroke, d: Draft) -> None:
        if d.foul or not self._called_ok(s):
            return
        d.counted = self.pocketed_objects(s)

    def score(self, s: Stroke, d: Draft) -> None:
        p = s.striker
        if d.foul:
            if d.has(BREAKING_VIOLATION):
                d.points[p] = -2
            else:
                d.points[p] = -1
            if d.has(THREE_FOULS):
                d.points[p] -= 15
        else:
            d.points[p] = len(d.counted)
        super().score(s, d)

    def place(self, s: Stroke, d: Draft) -> None:
        d.positions = s.final_positions()
        d.off_table = list(s.jumped)
        if self.cue_in_hand(s, d):
            d.positions.pop(self.cue_ball, None)
        gone = self.pocketed_objects(s) + [b for b in s.jumped if b != self.cue_ball]
        respot = [b for b in gone if b not in d.counted]
        if d.has(THREE_FOULS):
            # WPA 14.1: after the third foul all fifteen balls are racked and the offender breaks.
            # Balls a scenario left out of play stay out; in a real frame there are none.
            racked = [b for b in NUMBERED if b not in s.state.out]
            d.positions = {b: p for b, p in zip(racked, rack_positions(self.table), strict=False)}
            d.respot = [Respot(b, p) for b, p in d.positions.items()]
            d.from_shelf = [b for sh in s.state.shelves for b in sh]
            return
        self.spot(d, respot)
        if d.counted and not d.foul:
            self._maybe_rerack(s, d)
        if d.counted and not any(r.ball in d.counted for r in d.respot):
            d.credit = {s.striker: list(d.counted)}

    def _maybe_rerack(self, s: Stroke, d: Draft) -> None:
        """WPA 14.1: when the 14th ball of a rack is down, the 14 are racked with the apex empty; if the
        15th went down too, all fifteen are racked. A 15th ball or a cue ball lying where the rack
        goes is moved: the 15th to the head spot, the cue ball into the kitchen (in hand)."""
        left = _objects({b: p for b, p in d.positions.items() if b != self.cue_ball})
        if len(left) > 1:
            return
        shelf = [b for sh in s.state.shelves for b in sh]
        to_rack = _objects(shelf + list(d.counted))
        pos = rack_positions(self.table)
        slots = pos[1:] if len(left) == 1 else pos
        if len(left) == 1:
            b15 = left[0]
            if in_rack_area(self.table, d.positions[b15], slots):
                head = self.table.spot("head-spot")
                cue_p = d.positions.get(self.cue_ball)
                at = (
                    head
                    if cue_p is None or not in_rack_area(self.table, cue_p, [head])
                    else self.table.spot("centre-spot")
                )
                d.positions[b15] = at
                d.respot.append(Respot(b15, at))
        cue_p = d.positions.get(self.cue_ball)
        if cue_p is not None and in_rack_area(self.table, cue_p, slots):
            d.positions.pop(self.cue_ball)
        for b, p in zip(to_rack, slots, strict=False):
            d.positions[b] = p
            d.respot.append(Respot(b, p))
        d.from_shelf = list(shelf)
        d.notes.append(
            text(
                f"Rerack: {len(to_rack)} balls are racked and play continues.",
                f"Перерасстановка: {len(to_rack)} шаров ставятся в пирамиду, игра продолжается.",
            )
        )

    def hand_over(self, s: Stroke, d: Draft) -> None:
        d.phase = Phase.PLAY
        self.set_state(d, opening_by=-1)
        d.next_player = s.striker if (d.counted and not d.foul) else s.opponent
        if d.has(THREE_FOULS):
            d.next_player = s.striker
            d.in_hand = InHand.BEHIND_HEAD_STRING
            d.phase = Phase.BREAK
            self.set_state(d, opening_by=s.striker)
            d.positions.pop(self.cue_ball, None)
            return
        if d.has(BREAKING_VIOLATION):
            # WPA 14.1: the opponent accepts the table or makes the offender break again.
            d.options = [Option.MAKE_OFFENDER_REPLAY]
            d.phase = Phase.BREAK
            self.set_state(d, opening_by=s.striker)
        if self.cue_ball not in d.positions:
            # Scratch or off the table: in hand behind the head string (WPA 14.1); any other foul leaves
            # the cue ball where it lies.
            d.in_hand = InHand.BEHIND_HEAD_STRING

    def interference_penalty(self, s: Stroke, d: Draft, opp: int) -> None:
        """WPA 14.1: a foul costs its player one point; the striker plays on from where the cue ball lies."""
        d.points[opp] -= 1
        d.scores[opp] -= 1
        d.notes.append(
            text(
                f"The opponent fouled ({self.interference_rule}): one point off him (WPA 14.1); the striker plays on.",
                f"Нарушение соперника ({self.interference_rule}): с него снимается очко (WPA 14.1); играющий "
                "продолжает.",
            )
        )

    def after_interference(self, s: Stroke, d: Draft) -> None:
        if (
            not d.foul
            and not d.frame_over
            and any(f.code == FoulCode.OPPONENT_INTERFERENCE for f in d.others)
        ):
            d.next_player = s.striker
            d.options = []

    def end_frame(self, s: Stroke, d: Draft) -> None:
        fam = s.state.family
        target = fam.target if isinstance(fam, StraightPoolState) else 100
        if not d.foul and d.scores[s.striker] >= target:
            d.frame_over, d.winner = True, s.striker
            d.options = []
