"""The touching ball and the push in snooker (000 «Международный снукер», «Соприкасающиеся шары», «Пропих (в
снукере)»; WPBSA S3 R8 and its Definitions: Push Stroke agree).

The touching ball is a state the referee announces before the stroke: ``[state] touching`` (docs/formats.md), else
what the position shows (:meth:`SnookerTouching.touching_ball`: a ball that is or may be on, touching the cue
ball, before one that is not - WPBSA S3 R8 (d)). The striker must play away from it; playing into it is a
push. Playing away is no foul when (1) the ball is not on, (2) it is on and the player declares it (a red
when reds are on needs no words: 000 «Правила игры»), or (3) it is on and the player declares another ball
on and hits it. In (2) the touching ball counts as the ball the cue ball met first, so there is no miss;
in (1) and (3) the cue ball must still meet a ball on first. A touching ball that moved with no stroke into
it moved through no fault of the striker (000: «штраф не налагается»).

Which stroke went into the touching ball: the cue ball's first contact is with it before the cue ball met
anything else (a frozen pair driven along gives one ``ball_ball`` at the strike, physics' event rules).

The push with balls apart: the tip still on the cue ball when it met the object ball (``rules.strike``),
except that with the two balls almost touching a stroke at the finest edge is fair (000: «правильным
считается удар, произведенный на предельной резке»). "Almost touching" is read as 000 §11's close ball
(within half a radius), and "the finest edge" as a path passing the object ball's centre at 1.9 radii or
more (the finest possible is just under 2: a ball hit that thin moves off at near 90°, which is what a
referee sees).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from physics.objects import SceneObject
from physics.record import BallId, EventType, ShotRecord
from rules import filters as F
from rules.base import Draft, Stroke, text
from rules.games.snooker_base import S
from rules.games.snooker_geometry import COLOURS, is_red, value
from rules.games.snooker_interference import SnookerInterference
from rules.names import ball_en, ball_ru
from rules.ruling import FoulCode
from rules.state import MatchState
from rules.strike import push_unless_frozen

R_TOUCHING = f"{S}, Соприкасающиеся шары"
R_PUSH = f"{S}, Пропих (в снукере)"
R_TOUCHING_WPBSA = (
    "WPBSA S3 R8"  # Touching Ball (rules-notes §1.11 numbering: R7 spotting, R9 edge of pocket)
)
FINEST_EDGE = 1.9  # radii: the cue ball's path passes the object ball's centre this far or more


@dataclass(frozen=True)
class TouchPlay:
    """How the stroke played the announced touching ``ball``: into it (a push), or away; ``deemed``: away from
    a ball on the player declared (it counts as the ball hit first); ``moved``: it moved with no stroke into it."""

    ball: BallId
    into: bool
    deemed: bool
    moved: bool


def driven_into(record: ShotRecord, cue: BallId, ball: BallId) -> bool:
    """Did the cue ball's first contact go into ``ball`` before it met anything else?"""
    for e in record.events:
        if e.type == EventType.CUE_STRIKE or not e.involves(cue):
            continue
        if e.type == EventType.BALL_BALL:
            return e.balls is not None and ball in e.balls
        if e.type in (EventType.CUSHION, EventType.POCKET_JAW, EventType.POCKETED, EventType.TOUCHED):
            return False
    return False


class SnookerTouching(SnookerInterference):
    """The announced touching ball (what the HUD shows, how the stroke is judged) and the push."""

    # American snooker has no touching-ball rule of its own: it plays 000's general pool rules («Игра в сторону
    # от расположенного вплотную к битку прицельного шара не считается за удар по этому шару»).
    touching_rule: ClassVar[bool] = True

    def touching_ball(self, state: MatchState) -> BallId | None:
        """The ball the referee announces as touching the cue ball: ``state.touching``, else the position's (a
        ball that is or may be on first, then the nearest other); None with the cue ball in hand."""
        if not self.touching_rule:
            return None
        if state.touching is not None:
            return state.touching
        cue = state.balls.get(self.cue_ball)
        if cue is None or state.in_hand is not None:
            return None
        r = self.table.ball_radius
        near = sorted(
            (math.dist(cue, p), b)
            for b, p in state.balls.items()
            if b != self.cue_ball and math.dist(cue, p) <= 2 * r + F.FROZEN_TOL
        )
        if not near:
            return None
        on = self.ball_on(state)
        may_be_on = [b for _, b in near if self._may_be_on(b, on)]
        return may_be_on[0] if may_be_on else near[0][1]

    def _may_be_on(self, b: BallId, on: tuple[str, ...]) -> bool:
        if "red" in on:
            return is_red(b)
        if "colour" in on:
            return b in COLOURS
        return b in on

    def touch_play(self, s: Stroke) -> TouchPlay | None:
        """How the stroke played the touching ball (None: none announced)."""
        t = self.touching_ball(s.state)
        if t is None:
            return None
        into = driven_into(s.record, self.cue_ball, t)
        p0, p1 = F.initial_xy(s.record, t), F.final_xy(s.record, t)
        moved = not into and p0 is not None and (p1 is None or F.dist(p0, p1) > F.FROZEN_TOL)
        return TouchPlay(t, into, not into and self._declared(s, t), moved)

    def _declared(self, s: Stroke, t: BallId) -> bool:
        """Is the touching ball on and declared (000 (2))? A red when reds are on needs no declaration; with a
        colour on, an undeclared touching colour is the obvious choice; a declared other ball is case (3)."""
        kind = self.on_kind(s)
        shot = s.record.shot
        nominated = shot.call_ball if shot is not None else None
        fb = self.free_ball(s)
        if fb is not None:
            return fb == t
        if kind == "red":
            return is_red(t)
        if kind == "colour":
            return t in COLOURS and nominated in (None, t)
        return t == kind

    def stroke(self, state: MatchState, record: ShotRecord, objects: Sequence[SceneObject] = ()) -> Stroke:
        """The stroke's facts, with a touching ball on that was played away from counted as the first ball hit."""
        s = super().stroke(state, record, objects)
        tp = self.touch_play(s)
        if tp is None or not tp.deemed:
            return s
        strike = F.first(record.events, F.by_type(EventType.CUE_STRIKE))
        return replace(s, first=tp.ball, first_t=strike.t if strike is not None else 0.0)

    def touching_fouls(self, s: Stroke, d: Draft, v_on: int) -> None:
        """The push into a touching ball, and what playing away from it means (a note)."""
        tp = self.touch_play(s)
        if tp is None:
            return
        b = tp.ball
        if tp.into:
            self.add(
                d,
                FoulCode.PUSH_SHOT,
                f"{R_TOUCHING}; {R_PUSH}",
                max(v_on, value(b)),
                f"The referee had announced {ball_en(b)} touching the cue ball: it must be played away from it, and "
                f"it was played into it - a push ({R_TOUCHING_WPBSA} agrees).",
                f"Судья объявил, что биток касается шара «{ball_ru(b)}»: играть нужно в сторону от него, а удар "
                f"нанесён в него - пропих ({R_TOUCHING_WPBSA} говорит то же).",
            )
            return
        if tp.deemed:
            en = (
                f"Touching ball ({R_TOUCHING}): the cue ball was touching {ball_en(b)}, a ball on, and was played away "
                f"from it without moving it: no penalty, and {ball_en(b)} counts as the ball hit, so there is no miss "
                f"({R_TOUCHING_WPBSA} agrees)."
            )
            ru = (
                f"Соприкасающиеся шары ({R_TOUCHING}): биток касался очередного шара «{ball_ru(b)}» и сыгран в "
                f"сторону от него, не сдвинув его: штрафа нет, шар «{ball_ru(b)}» считается сыгранным первым, "
                f"промаха нет ({R_TOUCHING_WPBSA} говорит то же)."
            )
        else:
            en = (
                f"Touching ball ({R_TOUCHING}): the cue ball was played away from {ball_en(b)}, which was not the ball "
                "declared on: no penalty for that, but the cue ball still had to meet a ball on first."
            )
            ru = (
                f"Соприкасающиеся шары ({R_TOUCHING}): биток сыгран в сторону от шара «{ball_ru(b)}», который не был "
                "объявлен очередным: за это штрафа нет, но биток всё равно должен первым коснуться очередного шара."
            )
        if tp.moved:
            en += f" {ball_en(b).capitalize()} moved with no stroke into it: through no fault of the striker, no penalty."
            ru += f" Шар «{ball_ru(b)}» сдвинулся без удара в него - не по вине играющего, штрафа нет."
        d.notes.append(text(en, ru))

    def push_foul(self, s: Stroke, d: Draft, v_on: int) -> None:
        """000 «Пропих (в снукере)» (1): the tip still on the cue ball when it met a ball it did not touch, unless
        the two almost touched and the stroke took the finest edge."""
        pushed = push_unless_frozen(s.record, self.cue_ball, s.first, s.first_t, self.table.ball_radius)
        if pushed is None or self._finest_edge(s, pushed.ball):
            return
        self.add(
            d,
            FoulCode.PUSH_SHOT,
            R_PUSH,
            max(v_on, value(pushed.ball)),
            f"A push: the tip was still on the cue ball when it met {ball_en(pushed.ball)} ({pushed.ms:.1f} ms into "
            "the tip's contact).",
            f"Пропих: наклейка ещё касалась битка, когда он коснулся шара «{ball_ru(pushed.ball)}» (через "
            f"{pushed.ms:.1f} мс после начала контакта).",
        )

    def _finest_edge(self, s: Stroke, ball: BallId) -> bool:
        r = self.table.ball_radius
        p0, p1, sh = s.initial.get(self.cue_ball), s.initial.get(ball), s.record.shot
        if p0 is None or p1 is None or sh is None:
            return False
        d = F.dist(p0, p1)
        if d - 2 * r > r / 2:
            return False  # not almost touching: no finest-edge allowance
        a = math.radians(sh.direction)
        offset = abs(math.cos(a) * (p1[1] - p0[1]) - math.sin(a) * (p1[0] - p0[0]))
        return offset >= FINEST_EDGE * r
