"""Changes of a ball's mode: cloth to Bullet and back, take-off and landing, pocketed, leaving and returning
to the bed, coming to rest."""

from __future__ import annotations

import math

import numpy as np

from physics import cloth, collide
from physics.engine.bullet import BulletBalls
from physics.engine.events import EventLog
from physics.engine.sampling import Sampler
from physics.engine.state import BULLET, CLOTH, GONE, ON_BED_Z, REST, Balls, place_name
from physics.engine.zones import TableZones
from physics.params import G, PhysicsParams
from physics.record import BallFinal, BallStatus

REST_V = 0.002  # m/s: below this (and REST_W) a Bullet ball counts as stopped
REST_W = 0.06  # rad/s
BULLET_SLOP = 5e-4  # m: how far a Bullet ball resting on a cushion may be pressed into it
REST_TIME = 0.03  # s a Bullet ball must stay below the thresholds (a hanging ball can still tip)
OUT_OF_PLAY_LEVEL = (
    "floor",
    "wall",
    "rail_top",
    "frame",
)  # level surfaces off the bed (and the room's walls)


def pivoting(b: Balls, i: int) -> bool:
    """Is cloth ball ``i`` spinning in place (or still)? Such a ball goes nowhere until it is hit, so it may
    stay on the cloth path inside a pocket zone (Transitions._bullet_rest hands it there)."""
    v, w = b.vel[i], b.omg[i]
    return bool(v[0] == 0.0 and v[1] == 0.0 and w[0] == 0.0 and w[1] == 0.0)


class Transitions:
    def __init__(
        self,
        balls: Balls,
        zones: TableZones,
        bullet: BulletBalls,
        log: EventLog,
        sampler: Sampler,
        params: PhysicsParams,
    ) -> None:
        self.balls = balls
        self.zones = zones
        self.bullet = bullet
        self.log = log
        self.sampler = sampler
        self.p = params

    # ---------------------------------------------------------------- cloth and Bullet
    def to_bullet(self, i: int) -> None:
        b = self.balls
        b.mode[i] = BULLET
        b.rest_time[i] = 0.0
        self.bullet.attach(i)

    def cloth_ok(self, i: int) -> bool:
        """May ball ``i`` move on the analytic cloth path? (A ball already there may touch a cushion,
        which the analytic cushion impulse handles; a Bullet ball must be clear of the cushions.)"""
        b = self.balls
        x, y, z = b.pos[i]
        # A Bullet ball rolling along a cushion may press into it by Bullet's contact slop.
        margin = -1e-6 if b.mode[i] == CLOTH else -BULLET_SLOP
        return (
            abs(z - b.R) < ON_BED_Z
            and abs(b.vel[i, 2]) < 0.05
            and self.zones.over_open_bed(x, y, margin)
            and not b.flying[i]
        )

    # ---------------------------------------------------------------- flight
    def take_off(self, i: int, t: float = 0.0) -> None:
        b = self.balls
        if not b.flying[i]:
            b.flying[i] = True
            b.takeoff_t[i] = t
            self.log.airborne(t, i, float(b.vel[i, 2]))

    def end_flight(self, i: int) -> None:
        b = self.balls
        for key in [k for k in b.over if k[0] == i]:
            del b.over[key]
        for key in [k for k in b.hit_in_flight if k[0] == i]:
            b.hit_in_flight.discard(key)

    def landing_time(self, i: int, dt: float) -> float | None:
        """Time within the next ``dt`` at which Bullet ball ``i`` lands on the open slate, if it does."""
        b = self.balls
        z, vz = float(b.pos[i, 2]), float(b.vel[i, 2])
        R = b.R
        if z < R - 1e-3 or (vz >= 0.0 and z - R > 1e-9) or z > R + 1.0:
            return None
        if vz >= 0.0 and z - R <= 1e-9:
            return None  # sitting on the slate: Bullet's resting contact handles it
        # z + vz t - g t^2/2 = R
        a, bq, c = -0.5 * G, vz, z - R
        disc = bq * bq - 4 * a * c
        if disc < 0:
            return None
        tl = (-bq - math.sqrt(disc)) / (2 * a)
        if tl < 0.0 or tl > dt + 1e-12:
            return None
        x = b.pos[i, 0] + b.vel[i, 0] * tl
        y = b.pos[i, 1] + b.vel[i, 1] * tl
        if not self.zones.over_open_bed(x, y):
            return None
        return tl

    def fly_and_land(self, i: int, t: float, tl: float, dt: float) -> None:
        """Ball ``i``, out of Bullet, flown from ``t`` to its landing on the open slate ``tl`` later, bounced
        analytically and moved on for the rest of the step ``dt``."""
        b = self.balls
        g = np.array([0.0, 0.0, -G])
        self.sampler.knot(i, t, "ballistic")
        b.pos[i] += b.vel[i] * tl + 0.5 * g * tl * tl
        b.pos[i, 2] = b.R
        b.vel[i] += g * tl
        speed = float(-b.vel[i, 2])
        v, w, airborne = collide.slate_bounce(b.vel[i], b.omg[i], self.p)
        b.vel[i], b.omg[i] = v, w
        t_land = t + tl
        if b.flying[i]:
            b.flying[i] = False
            self.log.landed(t_land, i, "bed", speed)
            self.end_flight(i)
        rest = dt - tl
        self.sampler.knot(i, t_land, "ballistic" if airborne else "cloth")
        if airborne:
            self.take_off(i, t_land)
            b.pos[i] += b.vel[i] * rest + 0.5 * g * rest * rest
            b.vel[i] += g * rest
            self.to_bullet(i)
        else:
            b.vel[i, 2] = 0.0
            b.pos[i : i + 1], b.vel[i : i + 1], b.omg[i : i + 1], _ = cloth.advance(
                b.pos[i : i + 1], b.vel[i : i + 1], b.omg[i : i + 1], rest, self.p
            )
            if self.cloth_ok(i):
                b.mode[i] = CLOTH
            else:
                self.to_bullet(i)

    def onto_slate(self, i: int) -> None:
        """A Bullet ball found sunk into the open slate is put back on it.

        Bullet meets a contact only after a substep has carried the ball into it (a ball pushed
        down by a cushion nose at 2 m/s is 2 mm in); the slate is rigid and flat here, so the ball is lifted to z = R, paying the
        potential energy out of its motion, and a ball still moving into it gets the analytic slate
        bounce (as a landing does). In a pocket zone only a centre over the slate itself counts, not one
        over the pocket's opening.
        """
        b = self.balls
        R = b.R
        x, y, z = (float(c) for c in b.pos[i])
        if not (R - 0.01 < z < R) or not self.zones.over_slate(x, y):
            return
        p = self.p
        lift = p.m * G * (R - z)
        kin = 0.5 * p.m * float(b.vel[i] @ b.vel[i]) + 0.5 * p.inertia * float(b.omg[i] @ b.omg[i])
        f = math.sqrt(max(kin - lift, 0.0) / kin) if kin > 0.0 else 0.0
        b.vel[i] *= f
        b.omg[i] *= f
        b.pos[i, 2] = R
        if b.vel[i, 2] < 0.0:
            v, w, airborne = collide.slate_bounce(b.vel[i], b.omg[i], p)
            b.vel[i], b.omg[i] = v, w
            if not airborne:
                b.vel[i, 2] = 0.0
        self.bullet.write(i)

    # ---------------------------------------------------------------- rest and after a step
    def cloth_stops(self, cl: np.ndarray, stops: np.ndarray | None, t0: float) -> None:
        """Rest for the cloth balls that stopped inside the step (``stops``: when, from ``t0``; inf if not)."""
        if stops is None:
            return
        b = self.balls
        for k, s in enumerate(stops.tolist()):
            if not math.isfinite(s):
                continue
            i = int(cl[k])
            if b.mode[i] == CLOTH:
                b.mode[i] = REST
                b.vel[i] = 0.0
                b.omg[i] = 0.0
                self.log.rest(float(t0 + s), i)

    def after_step(self, t: float, dt: float) -> None:
        """The modes at the step's end ``t``: cloth balls entering a pocket zone go to Bullet; Bullet balls are
        pocketed, leave or return to the bed, go back to the cloth, or rest."""
        b = self.balls
        pos = b.pos
        clm = b.mode == CLOTH
        if np.count_nonzero(clm):
            cl = clm.nonzero()[0]
            z = self.zones
            # The zone test over all balls at once (cheaper than gathering the cloth balls first).
            dx = pos[:, 0:1] - z.zone_cx
            dy = pos[:, 1:2] - z.zone_cy
            into = (dx * dx + dy * dy) < z.zone_r2
            if np.count_nonzero(into):
                for i in cl.tolist():
                    if into[i].any() and not pivoting(b, i):
                        self.to_bullet(i)
            for i in cl.tolist():
                if b.contacts[i] and min(z.lim[0] - abs(pos[i, 0]), z.lim[1] - abs(pos[i, 1])) > 1e-4:
                    b.contacts[i] = {c for c in b.contacts[i] if c[0] != "cushion"}
        bl = np.nonzero(b.mode == BULLET)[0]
        for i in bl.tolist():
            self._bullet_ball_after_step(i, t, dt)

    def _bullet_ball_after_step(self, i: int, t: float, dt: float) -> None:
        b = self.balls
        pos = b.pos
        geo = self.bullet.geo
        x, y, z = (float(c) for c in pos[i])
        pk = geo.pocket_of((x, y, z))
        if pk is not None:
            b.mode[i] = GONE
            b.pocket[i] = pk
            self.bullet.detach(i)
            b.flying[i] = False
            self.log.pocketed(t, i, pk)
            return
        inside = self.zones.in_bed_outline(x, y)
        # Over a pocket's opening a ball is on its way in, not off the table.
        near_pocket = self.zones.in_zone((x, y)) and z > -0.5
        if not inside and not b.outside[i] and not near_pocket:
            b.outside[i] = True
            self.log.left_table(t, i)
        elif inside and b.outside[i]:
            b.outside[i] = False
            self.log.returned(t, i)
        if self.cloth_ok(i) and all(k in ("bed", "cushion") for k, _ in b.contacts[i]):
            self._back_to_cloth(i)
            return
        self._bullet_rest(i, t, dt)

    def _bullet_rest(self, i: int, t: float, dt: float) -> None:
        """Rest for a Bullet ball that has stayed still at two step ends at least REST_TIME apart (a single
        slow instant may be an apex)."""
        b = self.balls
        v, w = b.vel[i], b.omg[i]
        # A ball on the floor, the wooden rail top or the frame (all level) is out of play: once only a
        # spin about the vertical is left it moves nowhere (on a level surface that spin drives no
        # translation; a room wall it merely touches presses on it with no force, so its friction drives
        # none either), so the stroke does not wait the minute or more the wood's or floor's pivot
        # friction needs to stop 300 rad/s of side spin (campaign seed 606149: a massé onto the rail
        # top ran to the 120 s cap).
        level = bool(b.contacts[i]) and all(k in OUT_OF_PLAY_LEVEL for k, _ in b.contacts[i])
        if (
            v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < REST_V * REST_V
            and w[0] * w[0] + w[1] * w[1] < REST_W * REST_W
            and b.contacts[i]
        ):
            still = level or w[2] * w[2] < REST_W * REST_W
            if not still and not self._pivots(i):
                b.rest_time[i] = 0.0
                return
            b.rest_time[i] = b.rest_time[i] + dt if b.rest_time[i] > 0.0 else 1e-12
            if b.rest_time[i] < REST_TIME - 1e-12:
                return
            if still:
                b.mode[i] = REST
                b.vel[i] = 0.0
                b.omg[i] = 0.0
                self.bullet.detach(i)
                self.log.rest(t, i)
            else:
                # Spinning in place on the slate: only the spin about the vertical is left, which on a
                # level slate moves the ball nowhere and decays at the cloth's rate, as the cloth path
                # has it. Stepped on in Bullet near a pocket it cost a substep at a time for as long as
                # the spin lasted (campaign seed 600246: 20 rad/s, 2 s, a ball 0.6 mm away).
                b.vel[i] = 0.0
                b.omg[i, 0] = 0.0
                b.omg[i, 1] = 0.0
                self._back_to_cloth(i)
        else:
            b.rest_time[i] = 0.0

    def _back_to_cloth(self, i: int) -> None:
        """Bullet ball ``i``, lying on the slate, onto the cloth path: on the slate, within the cushions'
        contact lines (Bullet may have pressed it into a cushion by its slop), out of Bullet."""
        b = self.balls
        lim = self.zones.lim
        b.pos[i, 0] = min(max(float(b.pos[i, 0]), -lim[0]), lim[0])
        b.pos[i, 1] = min(max(float(b.pos[i, 1]), -lim[1]), lim[1])
        b.pos[i, 2] = b.R
        b.vel[i, 2] = 0.0
        b.mode[i] = CLOTH
        self.bullet.detach(i)

    def _pivots(self, i: int) -> bool:
        """Is Bullet ball ``i``, nearly still, lying on the slate with nothing but the slate and perhaps a
        cushion touching it? (A still ball presses on a cushion it touches with no force, so the cushion's
        friction cannot turn its spin into motion; campaign seed 600288: a ball against the head cushion
        spun down from 92 rad/s for 9 s in Bullet.)"""
        b = self.balls
        x, y, z = (float(c) for c in b.pos[i])
        lim = self.zones.lim
        # Bullet lets a ball resting on a cushion press into it by its contact slop (as in cloth_ok).
        if abs(x) > lim[0] + BULLET_SLOP or abs(y) > lim[1] + BULLET_SLOP:
            return False
        x = min(max(x, -lim[0]), lim[0])
        y = min(max(y, -lim[1]), lim[1])
        return (
            abs(z - b.R) < ON_BED_Z
            and not b.flying[i]
            and all(k in ("bed", "cushion") for k, _ in b.contacts[i])
            and self.zones.over_slate(x, y)
        )

    # ---------------------------------------------------------------- the stroke's end
    def finals(self, t: float) -> dict[str, BallFinal]:
        """Where every ball ended (and the events of the end: rest for what the cap stopped, hanging,
        off_table)."""
        b = self.balls
        geo = self.bullet.geo
        for k in np.nonzero((b.mode == CLOTH) | (b.mode == BULLET))[0].tolist():
            self.log.rest(t, k)
        finals: dict[str, BallFinal] = {}
        for i, bid in enumerate(b.ids):
            if i in b.pocket:
                finals[bid] = BallFinal(BallStatus.POCKETED, pocket=b.pocket[i])
                continue
            x, y, z = (float(c) for c in b.pos[i])
            place = geo.rest_place((x, y, z))
            on_bed = place == "bed" and self.zones.in_bed_outline(x, y)
            if on_bed:
                finals[bid] = BallFinal(BallStatus.ON_TABLE, pos=b.at(i))
                hang = self._hanging(i)
                if hang is not None:
                    self.log.hanging(t, i, hang)
            else:
                rest = place_name(place)
                finals[bid] = BallFinal(BallStatus.OFF_TABLE, pos=b.at(i), rest=rest)
                self.log.off_table(t, i, rest)
        return finals

    def _hanging(self, i: int) -> str | None:
        """A ball at rest on the slate whose footprint reaches past a pocket's drop edge (its centre,
        over which it is supported, within R of the edge) overhangs the drop."""
        b = self.balls
        x, y = float(b.pos[i, 0]), float(b.pos[i, 1])
        for pid, ps in self.bullet.geo.pockets.items():
            a, t = ps.local(x, y)
            if ps.a_drop - b.R < a <= ps.a_drop and abs(t) < ps.throat / 2 + b.R:
                return str(pid)
        return None
