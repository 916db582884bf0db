"""What the Bullet balls' contacts with the table's surfaces mean after a step: the events of the contacts
begun (cushion, jaw, touched, landed), and the support Panda3D's Bullet does not model (the rolling
resistance and spin decay of cloth, wood and floor)."""

from __future__ import annotations

import math

import numpy as np

from physics.engine.bullet import BulletBalls
from physics.engine.events import EventLog
from physics.engine.hooks import ball_and_other
from physics.engine.state import BULLET, ROLLING_SLIP, Balls, Surfaces, place_name
from physics.engine.transitions import Transitions
from physics.params import G, PhysicsParams

LAUNCH_GRACE = 0.005  # s after take-off in which touching the launching surface is not a landing
SETTLED_VZ = 0.01  # m/s: a flying ball in contact and slower than this vertically lies on the surface
SETTLED_Z = 1e-4  # m: ... and, on the slate, this close to z = R
RAILS = ("cushion", "jaw")  # the surfaces whose contacts come from the hooks' force-carrying episodes


class SurfaceContacts:
    def __init__(
        self, balls: Balls, bullet: BulletBalls, log: EventLog, modes: Transitions, params: PhysicsParams
    ) -> None:
        self.balls = balls
        self.bullet = bullet
        self.log = log
        self.modes = modes
        self.p = params

    def events(self, idx: list[int], t0: float) -> None:
        """Turn the contacts begun in the step into events, each stamped at the end of the substep it began in.

        Cushions and jaws (events the referee reads, nothing else): each contact that begins to carry force,
        as the engine's hooks find them substep by substep (a ball rattling between a pocket's jaws meets them
        several times in one step, and may still be near the first when it meets the second). Other surfaces
        (landings, touches): the contact points Bullet adds, unless the ball touched that surface at the last
        step's end. A cushion or jaw contact the step starts with and Bullet only sees begin in its first
        substep, for a ball handed to Bullet at that step's start, is one the ball already had (a cushion the
        cloth path recorded before the hand-over): no second event."""
        b = self.balls
        hooks = self.bullet.hooks
        added = sorted(hooks.added, key=lambda e: e[0])
        hooks.added.clear()
        begun = hooks.begun[:]
        hooks.begun.clear()
        current: dict[int, Surfaces] = {i: set() for i in idx}
        for mf in self.bullet.world.get_manifolds():
            if mf.get_num_manifold_points() == 0:
                continue
            bi, other = ball_and_other(mf.get_node0(), mf.get_node1())
            if bi is None or int(bi) not in current:
                continue
            if any(mp.get_distance() < 1e-3 for mp in mf.get_manifold_points()):
                s = other.get_python_tag("surface")
                if s is not None:
                    current[int(bi)].add((s.kind, s.id))
        seen: set[tuple[int, str, str | None]] = set()
        fresh = hooks.fresh & set(idx)
        hooks.fresh -= fresh
        todo = [
            (k, i, s)
            for k, i, s in begun
            if s.kind in RAILS and not (k == 0 and i in fresh and (s.kind, s.id) in b.contacts[i])
        ]
        for k, i, s in added:
            key = (s.kind, s.id)
            if key in b.contacts[i] or (i, s.kind, s.id) in seen:
                continue
            seen.add((i, s.kind, s.id))
            if s.kind not in RAILS:
                todo.append((k, i, s))
        for k, i, s in sorted(todo, key=lambda e: e[0]):
            self._begun(i, s.kind, s.id, t0 + (k + 1) * self.bullet.hm)
        for i in idx:
            b.contacts[i] = current[i] | {(k2, s2) for (j, k2, s2) in seen if j == i}

    def _begun(self, i: int, kind: str, sid: str | None, t: float) -> None:
        b = self.balls
        log = self.log
        # The surface a ball is launched from is still touching it for a substep or two.
        lands = bool(b.flying[i]) and t - float(b.takeoff_t[i]) > LAUNCH_GRACE
        if kind == "cushion":
            log.cushion(t, i, sid)
        elif kind == "jaw":
            log.pocket_jaw(t, i, sid)
        elif kind == "pocket":
            if b.pos[i, 2] > 0.0:
                log.pocket_jaw(t, i, sid)
        elif kind == "bed":
            if lands:
                b.flying[i] = False
                log.landed(t, i, "bed")
                self.modes.end_flight(i)
        else:
            if (i, kind, sid) not in b.touched_once:
                b.touched_once.add((i, kind, sid))
                log.touched(t, i, kind)
            if lands and kind in ("rail_top", "frame", "floor"):
                b.flying[i] = False
                log.landed(t, i, place_name(kind))
                self.modes.end_flight(i)

    def _settled(self, i: int, on: str, t: float) -> None:
        """End the flight of a ball whose hop was so low that it never lost its launching surface's contact
        (Bullet reports no new contact, so no landing): once it lies on that surface and has stopped moving
        vertically, it has landed. Left flying it would never return to the cloth (campaign seed 600075: a
        0.3 mm hop off the strike kept the cue ball in Bullet, spinning in place for 16 s)."""
        b = self.balls
        if t - float(b.takeoff_t[i]) <= LAUNCH_GRACE or abs(b.vel[i, 2]) > SETTLED_VZ:
            return
        if on == "bed" and abs(b.pos[i, 2] - b.R) > SETTLED_Z:
            return
        b.flying[i] = False
        self.log.landed(t, i, place_name(on))
        self.modes.end_flight(i)

    def support(self, idx: list[int], t: float, dt: float) -> None:
        """Rolling resistance and spin decay on whatever supports a Bullet ball; take-off from a surface."""
        p = self.p
        b = self.balls
        R = b.R
        for i in idx:
            if b.mode[i] != BULLET:
                continue
            kinds = {k for k, _ in b.contacts[i]}
            on = None
            if "bed" in kinds and abs(b.pos[i, 2] - R) < 2e-3:
                on = "bed"
            elif "rail_top" in kinds:
                on = "rail_top"
            elif "floor" in kinds:
                on = "floor"
            elif "frame" in kinds:
                on = "frame"
            elif "pocket" in kinds:
                on = "pocket"
            if on is None:
                # Bounces on the floor are not flights from the table.
                # Rising off a surface, not falling into a pocket or off an edge.
                if not kinds and b.vel[i, 2] > 0.05 and not b.flying[i] and b.pos[i, 2] > -0.01:
                    self.modes.take_off(i, t)
                continue
            if b.flying[i] and on != "pocket":
                self._settled(i, on, t)
            if on == "bed":
                mur, spin = p.mu_roll, p.spin_decel
            elif on == "floor":
                mur, spin = p.mu_roll_floor, p.spin_decel_floor
            else:
                mur, spin = p.mu_roll_rail, p.spin_decel_rail
            v = b.vel[i]
            w = b.omg[i]
            u = np.array([v[0] - R * w[1], v[1] + R * w[0]])
            s = math.hypot(v[0], v[1])
            if np.hypot(*u) < ROLLING_SLIP and s > 0.0:
                # Rolling: slow the centre and the roll together (scaling both keeps the slip as it is
                # and can only take energy out).
                f = max(s - mur * G * dt, 0.0) / s
                v[0] *= f
                v[1] *= f
                w[0] *= f
                w[1] *= f
            if w[2] != 0.0:
                w[2] = math.copysign(max(abs(w[2]) - spin * dt, 0.0), w[2])
            self.bullet.write(i)
