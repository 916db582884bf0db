"""Placing in Russian billiards: the ball in hand in the house (003: Начальный удар, б-в), the balls that go
back on the table after the stroke (003: Выставление шаров; each game's own spot), and who plays next."""

from __future__ import annotations

import math
from collections.abc import Mapping

from physics.record import BallId
from rules import filters as F
from rules.base import Draft, Placement, Stroke, text
from rules.contract import WarningCode
from rules.games.russian_base import FROZEN_GAP, R_PLAY_ON, AmericanState, PyramidRules
from rules.names import ball_en, ball_ru
from rules.placement import ball_order, house_zone, spot_at_back_cushion, spot_on_line
from rules.ruling import InHand, Option, Point, Respot
from rules.state import MatchState


class PyramidPlacing(PyramidRules):
    """The ball in hand (``place_in_zone``, ``hand_spot``), ``place`` and ``hand_over``."""

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

    # --- placing ------------------------------------------------------------------------------
    def spot(self, balls: list[BallId], occupied: dict[BallId, Point]) -> list[Respot]:
        if self.spotting == "cushion":
            return spot_at_back_cushion(balls, occupied, self.table)
        return spot_on_line(balls, occupied, self.table)

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
