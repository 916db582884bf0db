"""Resolution of the contacts found in a step: ball-ball impulses (TP A.14), sustained pushes, the cushion impact
of a ball on the cloth (cushion and slate together, ``physics.cushion``), and the slate's answer to what an
impulse drives into it."""

from __future__ import annotations

import math

import numpy as np

from physics import cloth, collide, cushion
from physics.engine.bullet import BulletBalls
from physics.engine.contacts import Contact, ContactKind
from physics.engine.events import EventLog
from physics.engine.state import BULLET, CLOTH, GONE, ON_BED_Z, REST, Balls
from physics.engine.transitions import Transitions
from physics.engine.zones import TableZones
from physics.params import G, PhysicsParams

SUSTAIN_OVERLAP = 1e-5  # m: deepest overlap a sustained contact corrects (one substep's push is ~1 um)
SUSTAIN_SWEEPS = 8  # passes over the sustained contacts at a step's end (chains of pressed balls)


class Resolver:
    def __init__(
        self,
        balls: Balls,
        zones: TableZones,
        modes: Transitions,
        bullet: BulletBalls,
        log: EventLog,
        params: PhysicsParams,
    ) -> None:
        self.balls = balls
        self.zones = zones
        self.modes = modes
        self.bullet = bullet
        self.log = log
        self.p = params
        self.h = 1.0 / params.substep_hz
        self.touching: set[tuple[int, int]] = set()  # pairs in contact since their ball_ball event
        # Sustained ball-ball contacts (pairs of cloth/resting balls pressed together, e.g. a spinning cue
        # ball driven by the cloth into a frozen ball): see _plastic. A closing speed below v_plastic is
        # what the cloth's friction (the largest force pressing a pair together on the cloth) builds up in
        # one substep: a bounce that slow would separate the pair for less than a substep, so the whole
        # bounce series (a Zeno series of ever shorter steps) is taken as its limit, a plastic push.
        self.sustained: set[tuple[int, int]] = set()
        self.v_plastic = params.mu_slide * G * self.h
        self.sustain_gap = self.v_plastic * self.h

    def resolve(self, c: Contact, t: float) -> None:
        if c.kind is ContactKind.BALL:
            self._ball(c.a, c.b, t)
        else:
            self._cushion(0 if c.kind is ContactKind.CUSHION_X else 1, c.a, t)

    # ---------------------------------------------------------------- ball-ball
    def _ball(self, a: int, b: int, t: float) -> None:
        p = self.p
        balls = self.balls
        pos, vel, omg = balls.pos, balls.vel, balls.omg
        key = (min(a, b), max(a, b))
        e = None
        if balls.mode[a] != BULLET and balls.mode[b] != BULLET:
            e, done = self._plastic(a, b, key, t)
            if done:
                return
        res = collide.ball_ball(pos[a], vel[a], omg[a], pos[b], vel[b], omg[b], p, e)
        if res is None:
            return
        # Vertical velocity each ball takes from the normal impulse alone (the slate answers it
        # with restitution, see after_impulse).
        d = pos[b] - pos[a]
        n = d / collide.norm(d)
        dvz_b = 0.5 * (1.0 + (p.e_ball if e is None else e)) * float(np.dot(vel[a] - vel[b], n)) * float(n[2])
        speed = collide.norm(vel[a] - vel[b])
        vel[a], omg[a], vel[b], omg[b] = res
        if key not in self.touching:
            self.touching.add(key)
            self.log.ball_ball(t, a, b, speed)
        if balls.flying[a]:
            balls.hit_in_flight.add((a, b))
        if balls.flying[b]:
            balls.hit_in_flight.add((b, a))
        self.after_impulse(a, t, -dvz_b)
        self.after_impulse(b, t, dvz_b)

    def _plastic(self, a: int, b: int, key: tuple[int, int], t: float) -> tuple[float | None, bool]:
        """A pair off Bullet closing slower than v_plastic: a push, not a bounce (restitution 0, and the pair is
        followed as a sustained contact), kept at contact distance. Returns the restitution for the impulse
        (None: the balls' own) and whether the contact is dealt with already."""
        balls = self.balls
        pos, vel = balls.pos, balls.vel
        e = None
        d = pos[b] - pos[a]
        dist = collide.norm(d)
        n = d / dist
        over = 2.0 * balls.R - dist
        vn = float(np.dot(vel[a] - vel[b], n))
        if 0.0 < vn < self.v_plastic and over < SUSTAIN_OVERLAP:
            e = 0.0
            self.sustained.add(key)
            # A ball at rest does not start rolling under a push weaker than its rolling resistance
            # (m vn / 2 per substep against mu_r m g h): the pusher is stopped against it instead.
            rest = b if balls.mode[b] == REST else a if balls.mode[a] == REST else -1
            if rest >= 0 and vn < 2.0 * self.p.mu_roll * G * self.h:
                self._stopped_against(rest, a, b, key, n, vn, over, t)
                return e, True
        if key in self.sustained:
            # Kept at contact distance (the overlap is at most the a h^2 / 2 ~ 1 um one substep's
            # push builds up).
            if 0.0 < over < SUSTAIN_OVERLAP:
                pos[a] -= (0.5 * over) * n
                pos[b] += (0.5 * over) * n
        return e, False

    def _stopped_against(
        self, rest: int, a: int, b: int, key: tuple[int, int], n: np.ndarray, vn: float, over: float, t: float
    ) -> None:
        balls = self.balls
        mover = a + b - rest
        sgn = 1.0 if mover == a else -1.0
        balls.vel[mover] -= (sgn * vn) * n
        if 0.0 < over < SUSTAIN_OVERLAP:
            balls.pos[mover] -= (sgn * over) * n
        if key not in self.touching:
            self.touching.add(key)
            self.log.ball_ball(t, a, b, vn)
        balls.rest_time[mover] = 0.0

    # ---------------------------------------------------------------- cushion
    def _cushion(self, ax: int, i: int, t: float) -> None:
        balls = self.balls
        pos, vel, omg = balls.pos, balls.vel, balls.omg
        x, y = pos[i, 0], pos[i, 1]
        sign = 1.0 if pos[i, ax] > 0 else -1.0
        inward = (-sign, 0.0) if ax == 0 else (0.0, -sign)
        res = cushion.impact(vel[i], omg[i], inward, self.p)
        pos[i, ax] = sign * self.zones.lim[ax]
        if res is None:
            # Not moving into the cushion, yet the cloth's friction on its spin drives it in: a lasting
            # contact. The cushion takes the slip across its line (its friction stops that part of the
            # spin), so nothing pushes the ball into it any more.
            if ax == 0:
                omg[i, 1] = vel[i, 0] / balls.R
            else:
                omg[i, 0] = -vel[i, 1] / balls.R
            return
        speed = float(abs(vel[i, ax]))
        vel[i], omg[i] = res
        cid = self.zones.cushion_id(ax, x, y)
        if ("cushion", cid) not in balls.contacts[i]:
            balls.contacts[i].add(("cushion", cid))
            self.log.cushion(t, i, cid, speed)
        self.after_impulse(i, t)

    # ---------------------------------------------------------------- after an impulse
    def after_impulse(self, i: int, t: float, dvz_normal: float = 0.0) -> None:
        """Settle a ball's mode after an impulse changed its velocity.

        A ball on the slate driven into it gets the slate's reaction (``collide.slate_reaction``):
        ``dvz_normal`` is the vertical velocity the ball-ball *normal* impulse gave it, which the
        slate answers with restitution; the rest of the push is absorbed plastically.
        """
        b = self.balls
        b.rest_time[i] = 0.0
        if b.mode[i] == BULLET:
            self._bullet_after_impulse(i, t, dvz_normal)
            return
        vz = float(b.vel[i, 2])
        if vz < 0.0:
            b.vel[i], b.omg[i] = collide.slate_reaction(b.vel[i], b.omg[i], -dvz_normal, self.p)
            vz = float(b.vel[i, 2])
            if vz > 0.0:
                self.modes.to_bullet(i)
                self.modes.take_off(i, t)
                return
            b.vel[i, 2] = 0.0
        elif vz > 0.0:
            if vz * vz / (2 * G) >= self.p.min_bounce:
                self.modes.to_bullet(i)
                self.modes.take_off(i, t)
                return
            b.vel[i, 2] = 0.0
        b.mode[i] = CLOTH
        if not self.modes.cloth_ok(i):
            self.modes.to_bullet(i)

    def _bullet_after_impulse(self, i: int, t: float, dvz_normal: float) -> None:
        # A Bullet ball sitting on the slate (by a pocket) that the impulse drives into it gets the slate's
        # reaction at once too: the rest of a Bullet step is flown straight, and it sank 0.24 mm into the
        # slate before the next step found it (campaign seed 800402).
        b = self.balls
        x, y, z = (float(c) for c in b.pos[i])
        if float(b.vel[i, 2]) < 0.0 and abs(z - b.R) < ON_BED_Z and self.zones.over_slate(x, y):
            b.vel[i], b.omg[i] = collide.slate_reaction(b.vel[i], b.omg[i], -dvz_normal, self.p)
            if float(b.vel[i, 2]) > 0.0:
                self.modes.take_off(i, t)
            else:
                b.vel[i, 2] = 0.0
        self.bullet.write(i)

    # ---------------------------------------------------------------- sustained contacts
    def sustained_moving(self) -> bool:
        mode = self.balls.mode
        return any(mode[a] == CLOTH or mode[b] == CLOTH for a, b in self.sustained)

    def sustain(self, t: float) -> None:
        """Sustained contacts at the step's end (the step is one substep while any pair moves): each
        pair pressed into the other is put back at contact distance and its approach stopped by a
        plastic impulse with friction; chains (a ball pushing a ball pushing a third) are swept a few
        times, as a sequential-impulse contact solver does, and what is left is taken next substep."""
        if not self.sustained:
            return
        balls = self.balls
        R2 = (2.0 * balls.R) ** 2
        mode, pos, vel = balls.mode, balls.pos, balls.vel
        for _ in range(SUSTAIN_SWEEPS):
            busy = False
            for a, b in sorted(self.sustained):
                if mode[a] not in (CLOTH, REST) or mode[b] not in (CLOTH, REST):
                    continue
                d = pos[b] - pos[a]
                dd = float(d @ d)
                if dd < R2 * (1.0 - 1e-12) or float((vel[a] - vel[b]) @ d) > 1e-9 * math.sqrt(dd):
                    busy = True
                    self._ball(a, b, t)
            if not busy:
                break

    def release(self) -> None:
        """At a step's end: the sustained contacts that have come apart by more than one substep's push, or
        left the cloth, end; pairs no longer touching may collide again."""
        balls = self.balls
        R = balls.R
        pos = balls.pos
        if self.sustained:
            lim_s = (2.0 * R + self.sustain_gap) ** 2
            mode = balls.mode
            for key in sorted(self.sustained):
                a, b = key
                ma, mb = mode[a], mode[b]
                d = pos[a] - pos[b]
                if (
                    ma == GONE
                    or mb == GONE
                    or ma == BULLET
                    or mb == BULLET
                    or (ma == REST and mb == REST)
                    or float(d @ d) > lim_s
                    or not self._pressed(a, b)
                ):
                    self.sustained.discard(key)
        if self.touching:
            lim2 = (2.0 * R + 1e-4) ** 2
            PL = pos.tolist()
            for key in list(self.touching):
                pa, pb = PL[key[0]], PL[key[1]]
                dx, dy, dz = pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]
                if dx * dx + dy * dy + dz * dz > lim2:
                    self.touching.discard(key)

    def _pressed(self, a: int, b: int) -> bool:
        """Is the pair (touching) closing or driven together by the cloth? Otherwise its contact is over
        and the ordinary contact tests follow it."""
        pos, vel = self.balls.pos, self.balls.vel
        dx, dy = float(pos[b, 0] - pos[a, 0]), float(pos[b, 1] - pos[a, 1])
        if dx * (float(vel[a, 0] - vel[b, 0])) + dy * float(vel[a, 1] - vel[b, 1]) > 0.0:
            return True
        axa, aya = self._cloth_acc(a)
        axb, ayb = self._cloth_acc(b)
        return dx * (axa - axb) + dy * (aya - ayb) > 0.0

    def _cloth_acc(self, i: int) -> tuple[float, float]:
        """Horizontal acceleration the cloth gives ball ``i`` now (sliding, rolling or at rest)."""
        b = self.balls
        if b.mode[i] != CLOTH:
            return 0.0, 0.0
        R = b.R
        vx, vy = float(b.vel[i, 0]), float(b.vel[i, 1])
        ux, uy = vx - R * float(b.omg[i, 1]), vy + R * float(b.omg[i, 0])
        us = math.hypot(ux, uy)
        if us > cloth.EPS_V:
            a = self.p.mu_slide * G / us
            return -a * ux, -a * uy
        s = math.hypot(vx, vy)
        if s > cloth.EPS_V:
            a = self.p.mu_roll * G / s
            return -a * vx, -a * vy
        return 0.0, 0.0
