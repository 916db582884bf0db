"""The cue after the strike: its follow-through, and the tip meeting the struck ball again (a double hit).

The strike (physics.cue) ends with the cue still moving along its axis at ``cue_after``. A player's stroke
carries it on past where the ball was (the follow-through, ``FOLLOW_THROUGH``); a ball that is stopped in
that reach, by an object ball close in front of it, is met by the tip again: 000 «Запрет двойных ударов»,
003 «наклейка кия не должна касаться битка дважды». The tip is taken to move on along the cue line at
``cue_after`` until it has gone ``FOLLOW_THROUGH`` (or for ``FOLLOW_THROUGH_S``) or its dome meets the cloth; where it meets the ball, it
strikes it as the first time (TP A.30 at the speed it gains on the ball's contact point, along the cue),
and the record's ``cue_strike`` gains a contact and its time. A tip that has not left the ball (a ball
frozen to another, pushed on with it) makes no new contact; its push is not modelled.
"""

from __future__ import annotations

import math

import numpy as np

from physics.cue import cue_frame
from physics.engine.events import EventLog
from physics.engine.state import GONE, Balls
from physics.params import PhysicsParams

FOLLOW_THROUGH = (
    0.1  # m the cue travels on past the ball's place after the hit (ESTIMATE: a short 4 in stroke)
)
# ...and for no longer than this: a player's forearm swings through and stops within a couple of tenths of a
# second however soft the stroke (ESTIMATE); without it a 0.1 m/s stroke's cue would creep on for a second
# and meet the ball again as it rolled to a stop.
FOLLOW_THROUGH_S = 0.2
MIN_STEP = 1e-4  # s: the finest step the follow-through asks of the engine near the ball
APART = 1e-6  # m of gap that parts the tip from the ball: a contact after it is a new one


class FollowThrough:
    """The tip's dome moving along the cue line after the strike, and its later contacts with the ball."""

    def __init__(
        self,
        balls: Balls,
        log: EventLog,
        p: PhysicsParams,
        i: int,
        shot_dir: float,
        elevation: float,
        tip: tuple[float, float],
        speed: float,
    ) -> None:
        self.balls, self.log, self.p, self.i = balls, log, p, i
        d, right, up = cue_frame(shot_dir, elevation)
        a, b = float(tip[0]), float(tip[1])
        rho = min(1.0, math.hypot(a, b))
        normal = a * right + b * up - math.sqrt(max(0.0, 1.0 - rho * rho)) * d  # outward, at the contact
        self.d = d
        self.reach = p.R + p.tip_radius
        self.start = balls.pos[i] + self.reach * normal  # the dome's centre as it met the ball
        self.speed = speed
        self.t0 = 0.0
        self.origin = self.start.copy()
        self.until = min(FOLLOW_THROUGH / speed, FOLLOW_THROUGH_S) if speed > 0.0 else 0.0
        self.apart = False  # has the tip left the ball since it last met it? (a new contact needs a gap)

    def active(self, t: float) -> bool:
        return self.speed > 0.0 and t < self.until and self.balls.mode[self.i] != GONE

    def _dome(self, t: float) -> np.ndarray:
        q: np.ndarray = self.origin + self.d * (self.speed * (t - self.t0))
        return q

    def bound(self, t: float) -> float:
        """The longest step (s) that keeps the tip from passing through the ball unseen."""
        if not self.apart:
            return math.inf  # still on the ball: a new contact needs a gap first, seen at a step's end
        q = self._dome(t)
        b = self.balls
        gap = float(np.linalg.norm(b.pos[self.i] - q)) - self.reach
        closing = self.speed - float(np.dot(b.vel[self.i], self.d))  # the tip gaining on the ball
        if closing <= 0.0 or gap > closing * (self.until - t):
            return math.inf  # it cannot reach the ball before the follow-through ends
        return max(MIN_STEP, gap / closing)

    def check(self, t: float) -> float | None:
        """After a step ending at ``t``: does the tip meet the ball? Strike it if so, and return the vertical
        velocity the impulse gave it (for the slate's answer); None when it does not."""
        q = self._dome(t)
        p = self.p
        if float(q[2]) - p.tip_radius <= 0.0:
            self.speed = 0.0  # the tip has met the cloth: the stroke is over
            return None
        b, i, d = self.balls, self.i, self.d
        sep = b.pos[i] - q
        dist = float(np.linalg.norm(sep))
        if dist >= self.reach + APART:
            self.apart = True
        if dist >= self.reach or not self.apart:
            return None
        n = sep / dist
        contact = -p.R * n  # from the ball's centre
        gain = self.speed - float(np.dot(b.vel[i] + np.cross(b.omg[i], contact), d))
        if gain <= 0.0:
            return None
        offset = contact - float(np.dot(contact, d)) * d  # across the cue
        rho2 = min(1.0, float(np.dot(offset, offset)) / (p.R * p.R))
        f = (1.0 + p.tip_e) * gain / (1.0 / p.cue_mass + (1.0 + 2.5 * rho2) / p.m)
        met = t - (self.reach - dist) / gain  # back along the closing, within the step
        b.vel[i] = b.vel[i] + d * (f / p.m)
        b.omg[i] = b.omg[i] + np.cross(contact, d * f) / p.inertia
        self.log.tip_again(max(0.0, met))
        self.origin, self.t0, self.apart = q, t, False
        self.speed -= f / p.cue_mass
        return float(d[2]) * f / p.m
