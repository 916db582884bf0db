"""Snooker referees: international snooker and American snooker (000).

International snooker follows 000's «Международный снукер» section; where it is silent (the three
exceptions of the jump-shot definition, the points of a foul and a miss, the edge of a pocket) the
WPBSA Official Rules fill in, cited as ``WPBSA S3 R<n>`` or ``WPBSA Definitions``.

American snooker (000 «Американский снукер») plays the same balls and order with American rules:
a break that must send a red and the cue ball to cushions, a cushion-or-pocket requirement on every
stroke, 7 points to the opponent for every foul, jumped object balls without penalty and no free ball.

``state.ball_on``: ``"red"``, ``"colour"`` (a red was just potted: a colour must be nominated through
the shot's ``call.ball``), or the colour in sequence once the reds are gone (``"yellow"`` ... ``"black"``).
``state.extra``: ``free_ball_for`` (the player who may nominate a free ball, -1 for none),
``misses`` (consecutive misses with a full view of the ball on, of ``miss_by``), ``opening_by``.

Outside interference (rules-notes §2 row 17). WPBSA S3 R15: a ball disturbed by anyone or anything but the
striker is put back by the referee where he judges it was, or would have come to rest; no penalty, and the
stroke is not replayed - what the striker did stands. The referee's judgement is the physics' undisturbed
run (``Referee.judge(..., undisturbed=...)``, the same stroke without the outsider): :func:`referee_view`
takes, from the moment of the first touch, the motion of every disturbed ball from that run and everything
else from the stroke as it happened, and the stroke is then judged as usual. A ball that would have come to
rest in a pocket is potted (WPBSA S2 R7: it entered the pocket and stayed); one that would have come to rest
off the bed was forced off the table (S2 R14) - the outsider does not save it. Without the undisturbed run
the referee cannot judge where the ball would have stopped, so the position is restored and the stroke
replayed. American snooker plays by 000's general rules here (000 «Вмешательство постороннего»): the
balls go back to where they were and the stroke is replayed, whatever the undisturbed run says.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from physics.racks import Rack
from physics.record import BallId, BallStatus, EventType, ShotRecord
from rules import filters as F
from rules.base import Draft, Referee, Stroke, text
from rules.contract import (
    CallKind,
    Family,
    FamilyState,
    NoteCode,
    Phase,
    RefereeWarning,
    WarningCode,
    player_index,
)
from rules.games import pool_events as PE
from rules.games.snooker_geometry import (
    COLOURS,
    blocking_balls,
    full_view,
    is_red,
    snooker,
    snooker_from_d,
    spot_colours,
    value,
)
from rules.names import ball_en, ball_ru, balls_list, capital, object_en, object_ru, pocket_name
from rules.registration import register
from rules.ruling import Foul, FoulCode, InHand, Note, Option, Point, Respot
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


def _blockers(by: Sequence[BallId], lang: str) -> str:
    """The balls that snooker the cue ball, the nearest first (000 «Снукер (маска)»: the effective snooker)."""
    if lang == "en":
        if len(by) == 1:
            return f"{ball_en(by[0])} blocks the way (the effective snooker)"
        return f"{balls_list(by, 'en')} block the way, {ball_en(by[0])} nearest (the effective snooker)"
    if len(by) == 1:
        return f"мешает {ball_ru(by[0])} (эффективный маскирующий шар)"
    return (
        f"мешают: {balls_list(by, 'ru')}, ближайший к битку - {ball_ru(by[0])} (эффективный маскирующий шар)"
    )


AGENT_RU = {"outsider": "посторонний", "spectator": "зритель", "referee": "судья", "wind": "ветер"}
_REST = {"floor": ("on the floor", "на полу"), "rail": ("on the rail", "на борту")}

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


def lands_far_side(record: ShotRecord, cue: BallId, over: BallId, after_t: float) -> bool:
    """Did the cue ball come down beyond ``over`` (seen along its path from where it started)?

    The landing point is the first ``landed`` event with a position after ``after_t``, else the cue
    ball's final position. With neither, the ``jumped_over`` event itself says it passed over.
    """
    start = F.initial_xy(record, cue)
    target = F.initial_xy(record, over)
    land: Point | None = None
    for e in record.events:
        if e.t >= after_t and e.type == EventType.LANDED and e.ball == cue and e.pos is not None:
            land = (e.pos[0], e.pos[1])
            break
    if land is None:
        land = F.final_xy(record, cue)
    if start is None or target is None or land is None:
        return True
    ux, uy = target[0] - start[0], target[1] - start[1]
    n = math.hypot(ux, uy)
    if n == 0:
        return True
    return ((land[0] - target[0]) * ux + (land[1] - target[1]) * uy) / n > 0.0


def jump_shot(
    record: ShotRecord, cue: BallId, first: BallId | None, first_t: float | None, first_on: bool
) -> tuple[BallId, str] | None:
    """The WPBSA jump shot: the cue ball passes over any part of an object ball, touching it or not,
    except (a) after first striking one object ball it jumps another; (b) it jumps, strikes an object
    ball and does not land on the far side of it; (c) after lawfully striking the ball on, it jumps
    over an object ball after meeting a cushion or another ball. Returns (ball jumped, which case)."""
    for j in F.select(record.events, F.by_type(EventType.JUMPED_OVER), F.by_ball(cue)):
        x = j.over
        if x is None:
            continue
        before_contact = first_t is None or j.t < first_t - PE.SAME_INSTANT
        if before_contact:
            if x == first and not lands_far_side(record, cue, x, j.t):
                continue  # (b)
            return (x, "before")
        if x != first:
            continue  # (a)
        if first_on and first_t is not None:
            between = [
                e
                for e in record.events
                if first_t + PE.SAME_INSTANT < e.t < j.t
                and e.involves(cue)
                and e.type in (EventType.CUSHION, EventType.BALL_BALL)
            ]
            if between:
                continue  # (c)
        if not lands_far_side(record, cue, x, j.t):
            continue  # (b)
        return (x, "clipped")
    return None


class SnookerBase(Referee):
    """What both snooker games share; the penalty table and options differ."""

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

    # --- the hooks --------------------------------------------------------------------------
    # WPBSA S3 R15 puts a disturbed ball where it would have come to rest (American snooker does not).
    repositions: ClassVar[bool] = True

    def undisturb(self, s: Stroke, undisturbed: ShotRecord) -> Stroke:
        if not self.repositions:
            return s
        return self.as_undisturbed(s, undisturbed, self.outside_events(s))

    def replay_reason(self, s: Stroke) -> Note | None:
        if s.outside_agent is not None and s.interference is None:
            return self.outside_replay(s)
        if self.cue_ball in s.pocketed or self.cue_ball in s.jumped:
            # WPBSA S3 R9(b): a foul of the stroke itself is still penalised even if a ball fell by itself.
            return None
        return self.fell_unaided_note(s, "WPBSA S3 R9(b)")

    def outside_replay(self, s: Stroke) -> Note:
        who = AGENT_RU.get(str(s.outside_agent), str(s.outside_agent))
        return Note(
            NoteCode.OUTSIDE_INTERFERENCE,
            R_OUTSIDE,
            text(
                f"An outsider ({object_en(str(s.outside_agent))}) disturbed a ball. The referee must put it where it would have come "
                "to rest, but with no undisturbed run of the stroke to judge that from, the position is restored and "
                "the stroke replayed, with no penalty.",
                f"Посторонний ({who}) потревожил шар. Судья должен поставить его туда, где он остановился "
                "бы, но без расчёта того же удара без вмешательства судить об этом не по чему: позиция "
                "восстанавливается, удар повторяется без штрафа.",
            ),
        )

    def announce_interference(self, s: Stroke, d: Draft) -> None:
        """WPBSA S3 R15: say where each disturbed ball goes and that nobody is penalised for the disturbance."""
        it = s.interference
        if it is None:
            return
        en: list[str] = []
        ru: list[str] = []
        for b in it.balls:
            f = s.record.final.get(b)
            p = F.final_xy(s.record, b)
            if f is None:
                continue
            b_en, b_ru = ball_en(b), ball_ru(b)
            if f.status == BallStatus.POCKETED:
                en.append(
                    f"{b_en} would have dropped into {pocket_name(f.pocket, 'en')}, so it is potted (WPBSA S2 R7)"
                )
                ru.append(
                    f"{b_ru} упал бы в лузу ({pocket_name(f.pocket, 'ru')}), поэтому он забит (WPBSA S2 R7)"
                )
            elif f.status == BallStatus.OFF_TABLE or b in s.jumped:
                where_en, where_ru = _REST.get(f.rest or "", ("off the bed", "вне игрового поля"))
                en.append(
                    f"{b_en} would have come to rest {where_en}, so it was forced off the table (WPBSA S2 R14)"
                )
                ru.append(f"{b_ru} остановился бы {where_ru}, поэтому он выскочил за борт (WPBSA S2 R14)")
            elif p is not None:
                en.append(f"{b_en} is placed where it would have stopped, at ({p[0]:.3f}, {p[1]:.3f})")
                ru.append(f"{b_ru} ставится туда, где он остановился бы, в точку ({p[0]:.3f}, {p[1]:.3f})")
        who = AGENT_RU.get(it.agent, it.agent)
        msg = text(
            f"Outside interference ({object_en(it.agent)}): the stroke is not replayed; a disturbed ball is judged where it "
            f"would have come to rest{' - ' + '; '.join(en) if en else ''}. No penalty for the disturbance; the "
            "rest of the stroke stands.",
            f"Постороннее вмешательство ({who}): удар не переигрывается, потревоженный шар судится там, где он "
            f"остановился бы{' - ' + '; '.join(ru) if ru else ''}. За само вмешательство штрафа нет; остальное "
            "в ударе остаётся в силе.",
        )
        d.warnings.append(Note(NoteCode.OUTSIDE_INTERFERENCE, R_OUTSIDE, msg))
        d.notes.append(text(f"{R_OUTSIDE}: {msg['en']}", f"{R_OUTSIDE}: {msg['ru']}"))

    def _disturbed_why(self, s: Stroke, b: BallId) -> tuple[str, str]:
        """For a foul made by a disturbed ball: why the outsider's touch does not change it (en, ru suffixes)."""
        it = s.interference
        if it is None or b not in it.balls:
            return "", ""
        who = AGENT_RU.get(it.agent, it.agent)
        return (
            f" - without {object_en(it.agent)} it would have ended so, and a ball an outsider disturbs is judged "
            f"where it would have come to rest ({R_OUTSIDE})",
            f" - если бы не посторонний ({who}), так бы и вышло, а шар, потревоженный посторонним, судится "
            f"там, где он остановился бы ({R_OUTSIDE})",
        )

    def check_fouls(self, s: Stroke, d: Draft) -> None:
        self.announce_interference(s, d)
        on, v_on, nom = self.on_set(s)
        kind = self.on_kind(s)
        self.strike_fouls(s, d, kind, v_on)
        self.contact_fouls(s, d, on, kind, nom, v_on)
        self.pot_fouls(s, d, on, v_on)
        fb = self.free_ball(s)
        if fb is not None and self.free_ball_allowed:
            self._free_ball_snooker(s, d, fb, v_on)
        self.extra_fouls(s, d, on, v_on)
        if d.fouls and kind == "colour" and nom is None:
            d.worth = 7
            d.fouls.append(
                self.foul(
                    NO_NOMINATION,
                    R_PENALTY,
                    "A foul after potting a red and before nominating a colour costs 7 points.",
                    "Нарушение после забитого красного до объявления цветного - 7 очков.",
                )
            )

    def strike_fouls(self, s: Stroke, d: Draft, kind: str, v_on: int) -> None:
        """How the stroke was played: the ball struck, reds in succession, the D, a double hit, a scoop."""
        shot = s.record.shot
        cue = self.cue_ball
        if s.struck and s.struck != cue:
            self.add(
                d,
                NON_WHITE_CUE_BALL,
                R_PENALTY,
                7,
                f"The cue struck {ball_en(s.struck)}, not the white.",
                f"Удар нанесён по шару «{ball_ru(s.struck)}», а не по битку.",
            )
        if kind == "colour" and shot is not None and shot.call_ball is not None and is_red(shot.call_ball):
            self.add(
                d,
                REDS_IN_SUCCESSION,
                "WPBSA S3 R10",
                7,
                "After a red the player played at a red again.",
                "После красного игрок снова играл по красному.",
            )
        if s.state.in_hand == InHand.D and not self.in_d(s.initial.get(cue)):
            self.add(
                d,
                CUE_BALL_OUTSIDE_D,
                R_PENALTY,
                v_on,
                "From hand the cue ball must be placed on or inside the D; it was not.",
                "При игре с руки биток должен стоять на линии или внутри сектора «D», а он стоял вне его.",
            )
        if s.strikes >= 2:
            self.add(
                d,
                FoulCode.DOUBLE_HIT,
                R_PENALTY,
                v_on,
                "The tip met the cue ball more than once.",
                "Наклейка коснулась битка более одного раза.",
            )
        if PE.scooped(s.record, self.cue_ball, s.scoop):
            self.add(
                d,
                FoulCode.SCOOP,
                R_PENALTY,
                v_on,
                "Scoop: the cue dug under the cue ball - it was not struck with the tip alone.",
                "Подцепка: кий поддел биток снизу, удар нанесён не одной наклейкой.",
            )

    def contact_fouls(
        self, s: Stroke, d: Draft, on: set[BallId], kind: str, nom: BallId | None, v_on: int
    ) -> None:
        """What the cue ball met first: nothing, a ball not on, or a ball on over another (a jump shot)."""
        cue = self.cue_ball
        if s.first is None:
            self.add(
                d,
                FoulCode.MISS,
                R_PENALTY,
                v_on,
                "The cue ball touched no ball.",
                "Биток не коснулся ни одного шара.",
            )
        else:
            firsts = PE.simultaneous_first(s.record, cue)
            fb_first = self.free_ball(s)
            # 000 «Свободный шар»: once a free ball is nominated the cue ball must meet it first.
            first_ok = {fb_first} if fb_first is not None else on
            bad = [b for b in firsts if b not in first_ok]
            if bad:
                worth = max([v_on] + [value(b) for b in firsts])
                self.add(
                    d,
                    FoulCode.WRONG_BALL_FIRST,
                    R_PENALTY,
                    worth,
                    f"The cue ball struck {balls_list(firsts, 'en')} first; the ball on was "
                    f"{self._on_name(kind, nom, 'en')}.",
                    f"Биток первым коснулся: {balls_list(firsts, 'ru')}; очередным был "
                    f"{self._on_name(kind, nom, 'ru')}.",
                )
        jump = jump_shot(s.record, cue, s.first, s.first_t, s.first in on)
        if jump is not None:
            ball, how = jump
            self.add(
                d,
                FoulCode.JUMP_SHOT,
                self.jump_rule,
                v_on,
                f"Jump shot: the cue ball passed over {ball_en(ball)} "
                + (
                    "before striking a ball"
                    if how == "before"
                    else "after striking it and came down beyond it"
                )
                + f"; none of the three exceptions of the jump-shot definition ({R_JUMP_DEF}) applies.",
                f"Перескок: биток прошёл над {ball_ru(ball, 'ins')} "
                + ("до касания шаров" if how == "before" else "после касания и опустился за ним")
                + f"; ни одно из трёх исключений определения перескока ({R_JUMP_DEF}) не подходит.",
            )

    def pot_fouls(self, s: Stroke, d: Draft, on: set[BallId], v_on: int) -> None:
        """Where the balls went: an in-off, a ball not on potted, balls forced off, balls touched."""
        cue = self.cue_ball
        potted = [b for b in s.pocketed if b not in s.jumped]
        if cue in potted:
            en, ru = self._disturbed_why(s, cue)
            self.add(
                d,
                FoulCode.CUE_BALL_POCKETED,
                self.cue_pocket_rule,
                v_on,
                "In-off: the cue ball fell into a pocket" + en,
                "Биток упал в лузу" + ru,
            )
        for b in potted:
            if b != cue and b not in on:
                en, ru = self._disturbed_why(s, b)
                self.add(
                    d,
                    BALL_NOT_ON_POTTED,
                    R_PENALTY,
                    max(v_on, value(b)),
                    f"{capital(ball_en(b))} was potted but was not on" + en,
                    f"Забит не очередной шар: {ball_ru(b)}" + ru,
                )
        if cue in s.jumped:
            en, ru = self._disturbed_why(s, cue)
            self.add(
                d,
                FoulCode.CUE_BALL_OFF_TABLE,
                self.cue_off_rule,
                v_on,
                "The cue ball was forced off the table" + en,
                "Биток выскочил за борт" + ru,
            )
        for b in s.jumped:
            if b != cue and self.off_is_foul:
                en, ru = self._disturbed_why(s, b)
                self.add(
                    d,
                    FoulCode.BALL_OFF_TABLE,
                    R_PENALTY,
                    max(v_on, value(b)),
                    f"{capital(ball_en(b))} was forced off the table" + en,
                    f"{capital(ball_ru(b))} выскочил за борт" + ru,
                )
        seen: set[BallId] = set()
        for b, obj in self.player_touches(s):
            if b in seen:
                continue
            seen.add(b)
            self.add(
                d,
                FoulCode.BALL_TOUCHED,
                self.touch_rule,
                max(v_on, value(b)),
                f"{capital(ball_en(b))} touched {object_en(obj)}: a ball may be touched only by the tip, on the "
                "cue ball.",
                f"{capital(ball_ru(b))} задел {object_ru(obj, 'acc')}; касаться шаров можно лишь "
                "наклейкой и только битка.",
            )

    jump_rule: ClassVar[str] = R_PLAY
    cue_off_rule: ClassVar[str] = R_CUE_OFF
    cue_pocket_rule: ClassVar[str] = R_PENALTY  # the in-off
    touch_rule: ClassVar[str] = R_TOUCH
    off_is_foul: ClassVar[bool] = True

    def extra_fouls(self, s: Stroke, d: Draft, on: set[BallId], v_on: int) -> None:
        pass

    def _free_ball_snooker(self, s: Stroke, d: Draft, fb: BallId, v_on: int) -> None:
        pos = s.final_positions()
        if self.cue_ball not in pos or fb not in pos:
            return
        left = [b for b in pos if b != self.cue_ball]
        if set(left) <= {"pink", "black"}:
            return
        reds = [b for b in left if is_red(b)]
        nxt_on = reds if reds else [c for c in COLOURS if c in pos][:1]
        # 000 «Свободный шар»: a foul if the cue ball is left snookered by the free ball itself - the free ball,
        # and no other ball, leaves it no straight stroke at a ball on.
        only_fb = {b: p for b, p in pos.items() if b in nxt_on or b in (fb, self.cue_ball)}
        if snooker(pos[self.cue_ball], nxt_on, only_fb, self.table.ball_radius)[0]:
            self.add(
                d,
                FREE_BALL_SNOOKER,
                R_FREE,
                v_on,
                f"The opponent is left snookered behind the free ball, {ball_en(fb)}.",
                f"Соперник замаскирован свободным шаром ({ball_ru(fb)}).",
            )

    def _on_name(self, kind: str, nom: BallId | None, lang: str) -> str:
        if kind == "red":
            return "a red" if lang == "en" else "красный"
        if kind == "colour":
            if nom is not None:
                return ball_en(nom) if lang == "en" else ball_ru(nom)
            return "a nominated colour" if lang == "en" else "объявленный цветной"
        return ball_en(kind) if lang == "en" else ball_ru(kind)

    def count(self, s: Stroke, d: Draft) -> None:
        if d.foul:
            return
        on, v_on, nom = self.on_set(s)
        kind = self.on_kind(s)
        potted = [b for b in s.pocketed if b not in s.jumped and b != self.cue_ball]
        fb = self.free_ball(s)
        if kind == "red":
            d.counted = [b for b in potted if is_red(b) or b == fb]
            reds = [b for b in d.counted if is_red(b)]
            # 000 «Свободный шар»: the free ball scores the value of the ball on; potted with the ball on, only
            # the ball on counts.
            d.points[s.striker] = len(reds) if reds else len(d.counted)
        elif potted:
            d.counted = [b for b in potted if b in on]
            d.points[s.striker] = v_on if d.counted else 0
        if fb is not None and fb in d.counted and len(d.counted) > 1:
            n = d.points[s.striker]
            d.notes.append(
                text(
                    f"The free ball ({ball_en(fb)}) and the ball on were both potted: only the ball on scores, {n} "
                    f"({R_FREE}). The WPBSA rules (S3 R12) score both when the ball on is a red: the free ball is "
                    f"then a red too.",
                    f"Забиты и свободный шар ({ball_ru(fb)}), и очередной: засчитывается только очередной, {n} "
                    f"({R_FREE}). По правилам WPBSA (S3 R12), когда очередной - красный, засчитываются оба: "
                    "свободный шар тогда считается красным.",
                )
            )
        for b in s.restored:
            d.notes.append(
                text(
                    f"{capital(ball_en(b))} stopped on the edge of the pocket and fell after the stroke had ended: "
                    f"not part of the stroke, it is put back (WPBSA S3 R9).",
                    f"{capital(ball_ru(b))} остановился на краю лузы и упал после завершения удара: это не часть "
                    "удара, шар возвращается на место (WPBSA S3 R9).",
                )
            )

    def score(self, s: Stroke, d: Draft) -> None:
        if d.foul:
            d.points[s.opponent] = d.worth or 4
        super().score(s, d)

    def place(self, s: Stroke, d: Draft) -> None:
        d.positions = s.final_positions()
        d.off_table = list(s.jumped)
        cue = self.cue_ball
        kind = self.on_kind(s)
        gone = [b for b in s.pocketed if b not in s.jumped] + list(s.jumped)
        respot: list[BallId] = []
        out: list[BallId] = []
        fb = self.free_ball(s)
        for b in gone:
            if b == cue:
                continue
            if is_red(b):
                out.append(b)  # reds never come back
            elif b == fb:
                respot.append(b)  # a potted free ball is respotted
            elif not d.foul and b in d.counted and kind in COLOURS:
                out.append(b)  # colours in sequence stay down
            elif kind == "black" and not d.foul and b == "black":
                out.append(b)
            else:
                respot.append(b)
        if cue in gone:
            d.positions.pop(cue, None)
        d.out_of_play = out
        for b, at in spot_colours(self.table, respot, d.positions):
            d.positions[b] = at
            d.respot.append(Respot(b, at))
        it = s.interference
        if it is not None:
            # WPBSA S3 R15: the referee places a disturbed ball; listed with the respots when that is not
            # where the stroke left it.
            for b in it.balls:
                put = d.positions.get(b)
                was = it.actual.final.get(b)
                now = (
                    F.final_xy(it.actual, b)
                    if was is not None and was.status == BallStatus.ON_TABLE
                    else None
                )
                if (
                    put is not None
                    and all(x.ball != b for x in d.respot)
                    and (now is None or F.dist(now, put) > 1e-3)
                ):
                    d.respot.append(Respot(b, put))

    def hand_over(self, s: Stroke, d: Draft) -> None:
        cue = self.cue_ball
        kind = self.on_kind(s)
        reds_left = [b for b in d.positions if is_red(b)]
        self.set_state(d, free_ball_for=-1, opening_by=-1)
        if self.sstate(s.state).miss_by == s.striker:
            # A stroke that is not a miss ends the run of misses (_miss counts it again if it is one).
            self.set_state(d, misses=0, miss_by=-1)
            d.lift(WarningCode.THIRD_MISS, s.striker)
        d.phase = Phase.RESPOTTED_BLACK if s.state.phase == Phase.RESPOTTED_BLACK else Phase.PLAY
        if d.counted and not d.foul:
            d.next_player = s.striker
            if kind == "red":
                d.ball_on = "colour"
            else:
                d.ball_on = "red" if reds_left else self._lowest(d)
        else:
            d.next_player = s.opponent
            d.ball_on = "red" if reds_left else self._lowest(d)
        if cue not in d.positions:
            d.in_hand = InHand.D
        if d.foul:
            self.foul_options(s, d)

    def _lowest(self, d: Draft) -> str:
        left = [c for c in COLOURS if c in d.positions]
        return left[0] if left else "black"

    def foul_options(self, s: Stroke, d: Draft) -> None:
        """International snooker: the next player plays, or asks the offender to play again from the
        position left (000: Нарушения); a free ball if snookered; replace-and-replay after a miss."""
        d.options = [Option.PLAY_ON]
        if self.breaking(s):
            # 000 «Начальный удар»: after a foul on the break the incoming player may also have the offender
            # break again (the balls re-racked).
            d.options.append(Option.MAKE_OFFENDER_REPLAY)
            d.phase = Phase.BREAK
            self.set_state(d, opening_by=s.striker)
        pos = d.positions
        reds = [b for b in pos if is_red(b)]
        nxt_on = reds if reds else [c for c in COLOURS if c in pos][:1]
        cue = self.cue_ball
        others = {b: p for b, p in pos.items() if b != cue}
        snook, by = (
            snooker(pos[cue], nxt_on, pos, self.table.ball_radius)
            if cue in pos
            else snooker_from_d(self.table, nxt_on, others)
        )
        if snook and self.free_ball_allowed:
            self.set_state(d, free_ball_for=s.opponent)
            d.notes.append(
                text(
                    f"Free ball ({R_SNOOKER}, {R_FREE}): the incoming player cannot hit any ball on "
                    f"({balls_list(nxt_on, 'en')}) in a straight line - {_blockers(by, 'en')}; he may nominate "
                    "any ball as on.",
                    f"Свободный шар ({R_SNOOKER}, {R_FREE}): вступающий в игру не может прямым ударом попасть ни "
                    f"в один очередной шар ({balls_list(nxt_on, 'ru')}) - {_blockers(by, 'ru')}; он может "
                    "объявить очередным любой шар.",
                )
                if by
                else text(
                    f"Free ball ({R_SNOOKER}, {R_FREE}): the incoming player cannot hit a ball on in a straight "
                    "line; he may nominate any ball as on.",
                    f"Свободный шар ({R_SNOOKER}, {R_FREE}): вступающий в игру не может прямым ударом попасть в "
                    "очередной шар; он может объявить очередным любой шар.",
                )
            )
        elif self.free_ball_allowed and cue in pos and nxt_on:
            self.no_snooker_note(d, pos, nxt_on)
        if self.miss_rule and (d.has(FoulCode.MISS) or d.has(FoulCode.WRONG_BALL_FIRST)):
            self._miss(s, d)

    def no_snooker_note(self, d: Draft, pos: Mapping[BallId, Point], on: list[BallId]) -> None:
        """After a foul that leaves no snooker, say so, and say what only partly blocks the ball on (WPBSA's
        definition, both edges of a ball on, would call that a snooker; 000's needs every straight stroke
        blocked)."""
        r = self.table.ball_radius
        cue = pos[self.cue_ball]
        not_on = {b: p for b, p in pos.items() if b != self.cue_ball and b not in on}
        for b in sorted(on, key=lambda b: math.dist(cue, pos[b])):
            hit, across = blocking_balls(cue, pos[b], not_on, r)
            if hit:
                many = len(across) > 1
                part_en = (
                    f" ({balls_list(sorted(across), 'en')} {'hide' if many else 'hides'} part of it)"
                    if across
                    else ""
                )
                part_ru = (
                    f" ({balls_list(sorted(across), 'ru')} {'закрывают' if many else 'закрывает'} его часть)"
                    if across
                    else ""
                )
                d.notes.append(
                    text(
                        f"No snooker: the cue ball can hit {ball_en(b)} in a straight line{part_en}, so there is "
                        f"no free ball ({R_SNOOKER}).",
                        f"Снукера нет: биток может прямым ударом попасть в {ball_ru(b, 'acc')}{part_ru}, поэтому "
                        f"свободного шара нет ({R_SNOOKER}).",
                    )
                )
                return

    def _miss(self, s: Stroke, d: Draft) -> None:
        on, _, _ = self.on_set(s)
        init = s.initial
        cue = self.cue_ball
        if cue not in init or not on:
            return
        blocked = not full_view(init[cue], [b for b in on if b in init], init, self.table.ball_radius)
        # WPBSA S3 R14: no miss is called when, before the stroke, the striker needed snookers.
        st = s.state
        deficit = st.scores[st.opponent(s.striker)] - st.scores[s.striker]
        if deficit > self.points_left(s):
            return
        if Option.MAKE_OFFENDER_REPLAY not in d.options:
            d.options.append(Option.MAKE_OFFENDER_REPLAY)
        d.warnings.append(
            Note(
                NoteCode.FOUL_AND_MISS,
                R_MISS,
                text(
                    "Foul and a miss: the incoming player may also have the balls replaced and the offender play again.",
                    "Фол и промах: вступающий может также вернуть шары и предложить нарушителю повторить удар.",
                ),
            )
        )
        if blocked:
            self.set_state(d, misses=0, miss_by=-1)
            d.lift(WarningCode.THIRD_MISS, s.striker)
            return
        fam = self.sstate(st)
        n = (fam.misses if fam.miss_by == s.striker else 0) + 1
        self.set_state(d, misses=n, miss_by=s.striker)
        warned = st.warned(WarningCode.THIRD_MISS, s.striker)
        if n >= 2 and not warned:
            # WPBSA S3 R14: the referee warns after the second miss; the warning stays in the match state, and
            # only a warned player loses the frame by the next one.
            d.warn(WarningCode.THIRD_MISS, s.striker)
            d.warnings.append(
                Note(
                    NoteCode.THIRD_MISS_WARNING,
                    "WPBSA S3 R14",
                    text(
                        "Second miss in a row with the ball on in full view: the referee warns that a third one "
                        "loses the frame.",
                        "Второй промах подряд при полностью видимом очередном шаре: судья предупреждает, что "
                        "третий будет стоить партии.",
                    ),
                )
            )
        elif n >= 3 and warned:
            d.fouls.append(
                self.foul(
                    THREE_MISSES,
                    "WPBSA S3 R14",
                    "Third miss in a row with a full view of the ball on: the frame is awarded "
                    "to the opponent.",
                    "Третий промах подряд при полностью видимом очередном шаре: партия "
                    "присуждается сопернику.",
                )
            )
            d.frame_over, d.winner = True, s.opponent

    def points_left(self, s: Stroke) -> int:
        reds = len(self.reds_at_start(s))
        colours = sum(value(c) for c in COLOURS if c in s.initial)
        return reds * 8 + colours + (7 if self.on_kind(s) == "colour" else 0)

    def end_frame(self, s: Stroke, d: Draft) -> None:
        if d.frame_over:
            self._close(s, d)
            return
        objects_at_start = [b for b in s.initial if b != self.cue_ball]
        last_black = self.on_kind(s) == "black" and objects_at_start == ["black"]
        if not (last_black and (d.foul or "black" in d.counted)):
            return
        if d.scores[0] == d.scores[1] and len(d.scores) == 2:
            # 000 «Ведение счета»: scores level after the black - it is respotted and played from the D by
            # the player the lot picks; the first score or foul then ends the frame.
            d.positions = {b: p for b, p in d.positions.items() if b != self.cue_ball}
            d.out_of_play = [b for b in d.out_of_play if b != "black"]
            d.respot = [x for x in d.respot if x.ball != "black"]
            at = self.table.spot("black")
            d.positions["black"] = at
            d.respot.append(Respot("black", at))
            d.in_hand = InHand.D
            d.phase = Phase.RESPOTTED_BLACK
            d.ball_on = "black"
            d.options = [Option.LAG]
            self.set_state(d, free_ball_for=-1)
            d.notes.append(
                text(
                    "Scores level: the black is respotted and the frame goes on.",
                    "Счёт равный: чёрный выставляется, партия продолжается.",
                )
            )
            return
        d.frame_over = True
        d.winner = max(range(len(d.scores)), key=lambda p: d.scores[p])
        self._close(s, d)

    def _close(self, s: Stroke, d: Draft) -> None:
        d.options = []
        self.set_state(d, free_ball_for=-1)
        d.in_hand = None if self.cue_ball in d.positions else InHand.D


@register
class Snooker(SnookerBase):
    """International snooker (000 «Международный снукер»; WPBSA for what it leaves out)."""

    # WPBSA S3 R9: a ball that falls by itself after the stroke has ended is not part of it (replaced); one
    # that balances for a moment during the stroke and falls is potted. No five seconds.
    hanging_until_end = True

    id = "snooker"
    table_id = "snooker-12ft"
    opponent_is_outsider = True  # WPBSA S3 R15: disturbed "other than by the striker"
    aliases = ("international-snooker",)
    names = {"en": "Snooker", "ru": "Снукер"}


@register
class AmericanSnooker(SnookerBase):
    """American snooker (000 «Американский снукер»): 7 points for every foul, the cushion-or-pocket rule,
    the break that sends a red and the cue ball to cushions, jumped object balls without penalty."""

    id = "american-snooker"
    table_id = "snooker-10ft"
    aliases = ()
    names = {"en": "American snooker", "ru": "Американский снукер"}
    free_ball_allowed = False
    miss_rule = False
    off_is_foul = False
    jump_rule = "000: Американский снукер, Правила игры"
    cue_off_rule = "000: Американский снукер, Выскакивание за борт или падение в лузу битка"
    cue_pocket_rule = cue_off_rule  # its own section names the cue ball in a pocket
    touch_rule = "000: Запрет касания шаров"

    def penalty(self, worth: int) -> int:
        """000 «Штрафы за нарушения»: every foul gives the opponent 7 points."""
        return 7

    repositions = False

    def outside_replay(self, s: Stroke) -> Note:
        """000 «Вмешательство постороннего» (the general rules American snooker is played by): balls an
        outsider set moving go back where they were, no penalty - the stroke is replayed."""
        who = AGENT_RU.get(str(s.outside_agent), str(s.outside_agent))
        return Note(
            NoteCode.OUTSIDE_INTERFERENCE,
            R_OUTSIDE_US,
            text(
                f"An outsider ({object_en(str(s.outside_agent))}) moved a ball: the balls go back where they were and the stroke is "
                "replayed, with no penalty.",
                f"Посторонний ({who}) сдвинул шар: шары возвращаются на исходные позиции, удар "
                "повторяется без штрафа.",
            ),
        )

    def opponent_interfered(self, s: Stroke, d: Draft) -> None:
        """000 (general pool rules, which American snooker follows) «Вмешательство в игру соперника»: the
        opponent's foul; 7 points to the striker (000: Американский снукер, «Штрафы за нарушения»)."""
        touches = [(b, o) for b, o, inside in s.opponent_touches if inside]
        if not touches:
            return
        b, obj = touches[0]
        opp = s.opponent
        d.others.append(
            Foul(
                FoulCode.OPPONENT_INTERFERENCE,
                R_INTERFERE_US,
                text(
                    f"the opponent touched {ball_en(b)} ({object_en(obj)}) while the striker played: his foul",
                    f"соперник коснулся {ball_ru(b, 'gen')} ({object_ru(obj)}) во время удара: это его нарушение",
                ),
                by=opp,
            )
        )
        d.points[s.striker] += 7
        d.scores[s.striker] += 7
        d.notes.append(
            text(
                f"The opponent fouled ({R_INTERFERE_US}): 7 points to the striker, who plays on "
                "(000: Американский снукер, Штрафы за нарушения).",
                f"Нарушение соперника ({R_INTERFERE_US}): играющему 7 очков, он продолжает "
                "(000: Американский снукер, Штрафы за нарушения).",
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

    def extra_fouls(self, s: Stroke, d: Draft, on: set[BallId], v_on: int) -> None:
        cue = self.cue_ball
        potted_obj = [b for b in s.pocketed if b != cue and b not in s.jumped]
        rails = PE.rails_reached(s.record, self.table, s.first_t)
        if self.breaking(s):
            red_first = s.first is not None and is_red(s.first)
            red_rail = any(is_red(b) for b in rails | set(potted_obj))
            if not (red_first and red_rail and cue in rails):
                self.add(
                    d,
                    ILLEGAL_BREAK,
                    "000: Американский снукер, Начальный удар (разбитие)",
                    7,
                    "Break: the cue ball must meet a red first, a red must then reach a cushion or a pocket, "
                    "and the cue ball must reach a cushion.",
                    "Разбитие: биток должен первым коснуться красного, красный - дойти до борта или упасть "
                    "в лузу, а биток - дойти до борта.",
                )
            return
        if s.first is not None and not potted_obj and not rails:
            self.add(
                d,
                FoulCode.NO_RAIL,
                "000: Американский снукер, Правила игры",
                7,
                "After the cue ball met the ball on, nothing was pocketed and no ball reached a cushion.",
                "После касания очередного шара ни один шар не упал в лузу и ни один не дошёл до борта.",
            )

    def foul_options(self, s: Stroke, d: Draft) -> None:
        if d.has(ILLEGAL_BREAK):
            # 000: accept the position, or have the offender break again.
            d.options = [Option.MAKE_OFFENDER_REPLAY]
            d.phase = Phase.BREAK
            self.set_state(d, opening_by=s.striker)
            return
        # 000 «Штрафы за нарушения»: accept the position, or make the offender play again (from the D
        # too, when the cue ball is in hand).
        d.options = [Option.PLAY_ON]
