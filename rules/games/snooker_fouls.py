"""The fouls of snooker (000 «Международный снукер», «Штрафы за нарушения»; WPBSA where 000 is silent): how the
stroke was played, what the cue ball met first (a jump shot too, by WPBSA's definition), where the balls went,
a free ball that snookers, a foul before a colour was nominated. Each foul is worth the penalty ``add`` sets."""

from __future__ import annotations

import math
from typing import ClassVar

from physics.record import BallId, EventType, ShotRecord
from rules import filters as F
from rules.base import Draft, Stroke
from rules.games import pool_events as PE
from rules.games.snooker_base import (
    BALL_NOT_ON_POTTED,
    CUE_BALL_OUTSIDE_D,
    FREE_BALL_SNOOKER,
    NO_NOMINATION,
    NON_WHITE_CUE_BALL,
    R_CUE_OFF,
    R_FREE,
    R_JUMP_DEF,
    R_PENALTY,
    R_PLAY,
    R_TOUCH,
    REDS_IN_SUCCESSION,
)
from rules.games.snooker_geometry import COLOURS, is_red, snooker, value
from rules.games.snooker_over import passes_over_after_touch
from rules.games.snooker_touching import SnookerTouching
from rules.names import ball_en, ball_ru, balls_list, capital, object_en, object_ru
from rules.ruling import FoulCode, InHand, Point


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
    if first is not None and first_t is not None and passes_over_after_touch(record, cue, first, first_t):
        # The physics names no jumped_over for a ball the cue ball touched: a cue ball in the air that meets
        # the first ball and then passes over it, "touching it or not", has made a jump shot; exception (b)
        # covers only a cue ball that does not come down beyond the ball.
        return (first, "clipped")
    return None


class SnookerFouls(SnookerTouching):
    """``check_fouls`` and its parts; American snooker adds its own (``extra_fouls``)."""

    def check_fouls(self, s: Stroke, d: Draft) -> None:
        self.announce_interference(s, d)
        on, v_on, nom = self.on_set(s)
        kind = self.on_kind(s)
        self.strike_fouls(s, d, kind, v_on)
        self.touching_fouls(s, d, v_on)
        self.push_foul(s, d, v_on)
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
            tp = self.touch_play(s)
            # 000 «Соприкасающиеся шары» (2): a touching ball on, declared and played away from, was met first.
            firsts = [s.first] if tp is not None and tp.deemed else PE.simultaneous_first(s.record, cue)
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
