"""Counting, scoring and the respots in snooker: what a stroke free of fouls scores (a free ball as the ball on,
000 «Свободный шар»), the penalty a foul gives the opponent, and where the balls go - reds stay down, colours
are respotted until their turn in sequence, a ball an outsider disturbed is placed (WPBSA S3 R15)."""

from __future__ import annotations

from physics.record import BallId, BallStatus
from rules import filters as F
from rules.base import Draft, Stroke, text
from rules.games.snooker_base import R_FREE, SnookerRules
from rules.games.snooker_geometry import COLOURS, is_red, spot_colours
from rules.names import ball_en, ball_ru, capital
from rules.ruling import Respot


class SnookerCounting(SnookerRules):
    """``count``, ``score`` and ``place``."""

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
