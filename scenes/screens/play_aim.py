"""Where the play screen aims on its own: at a ball the player may hit first, with the line reaching it.

A sensible start for the player, never a decision about the stroke: the opening aim, the aim after a change of
turn, and the view of the player who decides a ruling.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from scenes.cue_control import aim_hit, direction_to


class PlayAimMixin:
    """Mixed into :class:`scenes.screens.play.PlayScreen` (it provides every attribute used here)."""

    match: Any
    aim: Any
    struck_ball: str
    _cue_centre: Any
    _table_positions: Any

    def _first_targets(self, table: dict[str, tuple[float, float]]) -> list[str]:
        """The balls the player may hit first. The state's ball on decides (snooker's red or colour, a named
        ball); with none given (a frame's opening) reds come first where there are reds, and the lowest number
        where the referee says the lowest ball must be met first even on the break (9-ball)."""
        st = self.match.state
        on = str(st.ball_on) if st is not None and st.ball_on else ""
        balls = [b for b in table if b != self.struck_ball]
        if not on and st is not None:
            if any(b.startswith("red") for b in balls):
                on = "red"
            elif getattr(self.match.referee, "break_first_rule", False) and any(b.isdigit() for b in balls):
                on = min((b for b in balls if b.isdigit()), key=int)
        targets = [
            b
            for b in balls
            if not on
            or (on == "colour" and not b.startswith("red"))
            or b == on
            or (on == "red" and b.startswith("red"))
        ]
        return targets or balls

    def _clear_aim(self, c: tuple[float, float], table: dict[str, tuple[float, float]]) -> float | None:
        """A direction whose line meets a ball the player may hit first before any other ball: full at the
        nearest such ball where nothing is in the way, else as little off its centre as lets the line reach it
        (a thin hit on a red beside the pack, as a snooker break is played). None when no ball can be reached."""
        spec = self.match.spec
        positions = {**table, self.struck_ball: c}
        for b in sorted(self._first_targets(table), key=lambda b: math.dist(table[b], c)):
            centre = direction_to(c, table[b])
            dist = math.dist(table[b], c)
            if dist <= 2 * spec.ball_radius:
                return centre
            half = math.degrees(math.asin(2 * spec.ball_radius / dist))
            for f in (0.0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 0.9, -0.9):
                d = (centre + f * half) % 360.0
                if aim_hit(spec, positions, self.struck_ball, d).ball == b:
                    return d
        return None

    def _default_direction(self) -> float:
        """Aim at the nearest ball the player may hit first, straight (nothing in the way where that can be):
        a sensible start, not a decision about the stroke."""
        c = self._cue_centre()
        table = self._table_positions()
        targets = self._first_targets(table)
        if c is None or not targets:
            return 0.0
        clear = self._clear_aim(c, table)
        if clear is not None:
            return clear
        return direction_to(c, min((table[b] for b in targets), key=lambda p: math.dist(p, c)))

    def _place_for_a_clear_aim(self) -> None:
        """A ball in hand starts where the referee puts it; where every ball the player may hit first is behind
        another from there (snooker: behind the brown in the D), it starts at the nearest place of its zone with
        a straight line to one (the player moves it anyway)."""
        m = self.match
        c = m.positions.get(self.struck_ball)
        if c is None or self._clear_aim(c, m.positions) is not None:
            return
        step = m.spec.ball_radius / 2
        grid = [(i * step, j * step) for i in range(-24, 25) for j in range(-24, 25) if i or j]
        for dx, dy in sorted(grid, key=lambda d: math.hypot(*d)):
            p = (c[0] + dx, c[1] + dy)
            if m.may_place(*p) and self._clear_aim(p, m.positions) is not None:
                m.place_cue(*p)
                self.aim = replace(self.aim, direction=self._default_direction())
                return
