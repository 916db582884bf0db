"""Who plays next in snooker and when the frame ends: the ball on after the stroke, the incoming player's
options after a foul (play on, make the offender play again, a free ball when snookered - 000 «Свободный шар»,
«Снукер (маска)»), the miss and its third-miss warning (000 «Промах по шару», WPBSA S3 R14), and the end of the
frame on the last black or on level scores (000 «Ведение счета»)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from physics.record import BallId
from rules.base import Draft, Stroke, text
from rules.contract import NoteCode, Phase, WarningCode
from rules.games.snooker_base import R_FREE, R_MISS, R_SNOOKER, THREE_MISSES, SnookerRules
from rules.games.snooker_geometry import (
    COLOURS,
    blocking_balls,
    full_view,
    is_red,
    snooker,
    snooker_from_d,
    value,
)
from rules.names import ball_en, ball_ru, balls_list
from rules.ruling import FoulCode, InHand, Note, Option, Point, Respot


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


class SnookerTurn(SnookerRules):
    """``hand_over`` (with the foul's options, the free ball and the miss) and ``end_frame``."""

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
