"""The stroke loop: the engine that puts the parts together, and one step of it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from physics import cloth
from physics.cue import strike
from physics.engine.bullet import BulletBalls
from physics.engine.contacts import Contact, ContactFinder, chord_velocity, earliest_first
from physics.engine.events import EventLog
from physics.engine.followthrough import FollowThrough
from physics.engine.freeflight import FreeFlight
from physics.engine.freeroll import FreeRoll
from physics.engine.observe import jumps_over, line_crossings
from physics.engine.pushes import PushRun
from physics.engine.resolve import Resolver
from physics.engine.sampling import Sampler
from physics.engine.state import BULLET, CLOTH, GONE, REST, Balls, Segment
from physics.engine.stepsize import StepSize
from physics.engine.surfaces import SurfaceContacts
from physics.engine.transitions import Transitions
from physics.engine.zones import TableZones
from physics.objects import SceneObject
from physics.params import G, PhysicsParams
from physics.record import BallFinal, Event, ShotParams
from physics.tables import TableSpec

ZERO_STEP_LIMIT = 2000  # contacts resolved at one instant before detection is skipped for a step
CHAIN_MAX = 200  # contacts resolved within one Bullet step (a rack's chain at a break is ~30)


class Engine:
    """Simulate one stroke to rest; the result is read with :attr:`events`, :attr:`finals`, :attr:`samples`."""

    def __init__(
        self,
        spec: TableSpec,
        balls: Mapping[str, tuple[float, float]],
        params: PhysicsParams,
        objects: Sequence[SceneObject] = (),
        lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
        sample_hz: float | None = None,
    ) -> None:
        self.spec = spec
        self.p = params
        self.h = 1.0 / params.substep_hz
        self.t = 0.0
        self.balls = Balls(balls, params.R)
        self.log = EventLog(self.balls)
        self.sampler = Sampler(self.balls, params, sample_hz)
        self.bullet = BulletBalls(spec, self.balls, params, objects, lamp)
        self.zones = TableZones(spec, params.R, params.contact_angle, self.bullet.geo)
        self.modes = Transitions(self.balls, self.zones, self.bullet, self.log, self.sampler, params)
        self.resolver = Resolver(self.balls, self.zones, self.modes, self.bullet, self.log, params)
        self.surfaces = SurfaceContacts(self.balls, self.bullet, self.log, self.modes, params)
        self.finder = ContactFinder(
            self.balls, self.zones, self.resolver.sustained, self.resolver.v_plastic, params
        )
        flight = FreeFlight(self.balls, self.zones, self.bullet, self.h, self.modes.landing_time)
        self.stepsize = StepSize(
            self.balls,
            self.zones,
            self.resolver,
            flight,
            FreeRoll(self.balls, self.bullet, flight, params),
            params,
        )
        self.pushes = PushRun(self.balls, self.zones, self.resolver, self.log, self.sampler, params)
        self.finals: dict[str, BallFinal] = {}
        self._force = False  # the next step runs without contact detection (ZERO_STEP_LIMIT)
        self.follow: FollowThrough | None = None  # the cue after the strike (a later tip contact)
        b = self.balls
        self._segment = Segment(0.0, b.pos, b.vel, b.omg, np.zeros(0, dtype=np.intp), b.mode, False)

    # ---------------------------------------------------------------- the state, for readers and set-ups
    @property
    def ids(self) -> list[str]:
        return self.balls.ids

    @property
    def pos(self) -> np.ndarray:
        return self.balls.pos

    @property
    def vel(self) -> np.ndarray:
        return self.balls.vel

    @property
    def omg(self) -> np.ndarray:
        return self.balls.omg

    @property
    def mode(self) -> np.ndarray:
        return self.balls.mode

    @property
    def events(self) -> list[Event]:
        return self.log.events

    @property
    def samples(self) -> dict[str, Any] | None:
        """Each ball's sample rows (a list of tuples, or any container with ``append`` put here before the
        run: physics.record.SampleRows packs them)."""
        return self.sampler.samples

    @samples.setter
    def samples(self, rows: dict[str, Any] | None) -> None:
        self.sampler.samples = rows

    def to_bullet(self, i: int) -> None:
        """Hand ball ``i``, as it is now, to Bullet (a set-up off the bed: on a rail, in the air)."""
        self.modes.to_bullet(i)

    def take_off(self, i: int) -> None:
        """Count ball ``i`` as airborne from the stroke's start."""
        self.modes.take_off(i)

    # ---------------------------------------------------------------- the stroke
    def run(self, shot: ShotParams | None) -> None:
        if shot is not None and shot.ball in self.balls.ids and shot.cue_speed > 0.0:
            self._strike(shot)
        self.sampler.first(self.t)
        # Divisions by zero and infinities are part of the step bounds' arithmetic (no warnings).
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            self._loop()
        self._finish()

    def _loop(self) -> None:
        guard = 0
        mode = self.balls.mode
        while self.t < self.p.max_stroke_seconds:
            moving = (mode == CLOTH) | (mode == BULLET)
            if not np.count_nonzero(moving):
                break
            if self._pushes_only():
                t = self.pushes.run(self.t, self.p.max_stroke_seconds)
                if t > self.t:
                    self.t = t
                    guard = 0
                    continue
            dt = self.stepsize.choose(moving)
            follow = self.follow if self.follow is not None and self.follow.active(self.t) else None
            if follow is not None:
                dt = min(dt, follow.bound(self.t))
            taken = self._step(dt)
            self.t += taken
            if follow is not None and taken > 0.0:
                dvz = follow.check(self.t)
                if dvz is not None:
                    self.resolver.after_impulse(follow.i, self.t, dvz)
            if taken <= 0.0:
                guard += 1
                # Many contacts at one instant are normal in a rack; thousands mean a pair that cannot be
                # resolved by impulses: let the next step run without contact detection.
                self._force = guard > ZERO_STEP_LIMIT
            else:
                guard = 0
                self._force = False
            if self.sampler.dt is not None:
                self.sampler.within(self.t, self._segment)

    def _pushes_only(self) -> bool:
        """May the next substeps be a run of sustained pushes (PushRun)? Only off Bullet."""
        r = self.resolver
        f = self.follow
        return (
            bool(r.sustained)
            and not self._force
            and (f is None or not f.active(self.t) or not f.apart or f.bound(self.t) == math.inf)
            and not np.count_nonzero(self.balls.mode == BULLET)
            and r.sustained_moving()
        )

    def _strike(self, shot: ShotParams) -> None:
        b = self.balls
        i = b.ids.index(shot.ball)
        # The stroke includes the slate's answer under the ball and the cue's later contacts (physics.cue).
        s = strike(shot.cue_speed, shot.direction, shot.elevation, shot.tip, self.p)
        self.log.cue_strike(i, s.miscue, s.scoop, s.speed)
        if not s.miscue and s.cue_after > 0.0:
            self.follow = FollowThrough(
                b, self.log, self.p, i, shot.direction, shot.elevation, shot.tip, s.cue_after
            )
        b.vel[i], b.omg[i] = np.array(s.v), np.array(s.w)
        if s.v[2] > 0.0:
            self.modes.to_bullet(i)
            self.modes.take_off(i)
        else:
            b.mode[i] = CLOTH
            if self.zones.in_zone(b.pos[i]):
                self.modes.to_bullet(i)

    def close(self) -> None:
        """Take the callbacks and the balls out of the world, deterministically (idempotent)."""
        self.bullet.close()

    def _finish(self) -> None:
        self.close()
        self.finals = self.modes.finals(self.t)
        self.log.events = self.log.finished()

    # ---------------------------------------------------------------- one step
    def _step(self, dt: float) -> float:
        """Advance every moving ball by up to ``dt`` (less if a contact comes first off Bullet); the time
        taken."""
        b = self.balls
        t0 = self.t
        alive = b.mode != GONE
        cl = np.nonzero(b.mode == CLOTH)[0]
        bl = np.nonzero(b.mode == BULLET)[0]
        dt, pre = self._cut(dt, cl, bl)
        p0 = b.pos.copy()
        v0 = b.vel.copy()
        w0 = b.omg.copy()
        self._segment = Segment(t0, p0, v0, w0, cl, b.mode.copy(), len(bl) == 0)
        # Samples observe the step, never cut it: balls whose path inside the step is not the cloth's
        # closed form from (p0, v0, w0) get knots (time, state, how it moves on) as it happens.
        self.sampler.start_step()
        # Bullet balls about to land on the open slate are flown and bounced analytically.
        landing: list[tuple[int, float]] = []
        for k in bl.tolist():
            tl = pre[k] if k in pre else self.modes.landing_time(k, dt)
            if tl is not None:
                landing.append((k, tl))
        land_set = {i for i, _ in landing}
        # Flying balls far from everything are flown on their parabola, out of Bullet (FreeFlight).
        free = [i for i in self.stepsize.free if i not in land_set]
        # Balls rolling on the floor far from everything are rolled in closed form, out of Bullet (FreeRoll).
        rolls = self.stepsize.rolls
        bstep = [i for i in bl.tolist() if i not in land_set and i not in free and i not in rolls]
        for i, _ in landing:
            self.bullet.detach(i)
        k = max(1, round(dt / self.h))
        for i in free:
            self.bullet.detach(i)
            self.sampler.knot(i, t0, "ballistic")
            self.stepsize.flight.fly(i, dt)
        for i in rolls:
            self.bullet.detach(i)
            self.sampler.knot(i, t0, "roll")
            self.stepsize.roll.roll(i, dt)
        if bstep:
            for i in bstep:
                if not self.bullet.attached[i]:
                    self.bullet.attach(i)
            self.sampler.captured = self.bullet.step(k, bstep, self.sampler.capture_at(t0, k))
            for i in bstep:
                self.modes.onto_slate(i)
        elif free or rolls:
            self.sampler.captured = {j: {} for j in self.sampler.capture_at(t0, k)}
        for i, tl in landing:
            self.modes.fly_and_land(i, self.t, tl, dt)
        stops = None
        if len(cl):
            b.pos[cl], b.vel[cl], b.omg[cl], stops = cloth.advance(p0[cl], v0[cl], w0[cl], dt, self.p)
        # The earliest ball-ball or cushion contact inside the step.
        hits = [] if self._force else self.finder.in_step(p0, v0, alive, dt, self._segment, self.stepsize.acc)
        # A step with balls flown through it (free or landing) cannot be cut short: its contacts are
        # taken inside it, as in a Bullet step.
        if hits and not bstep and not landing and not free and not rolls:
            return self._to_first_contact(hits[0], self._segment, dt)
        self._impulses_in_bullet_step(hits, p0, t0, dt)
        if bstep:
            self.surfaces.events(bstep, t0)
            self.surfaces.support(bstep, self.t, dt)
        line_crossings(b, self.zones, self.log, p0, np.nonzero(alive)[0], t0, dt)
        self.modes.cloth_stops(cl, stops, t0)
        jumps_over(b, self.log, t0 + dt)
        self.resolver.sustain(t0 + dt)
        self._after(t0 + dt, dt)
        return dt

    def _cut(self, dt: float, cl: np.ndarray, bl: np.ndarray) -> tuple[float, dict[int, float | None]]:
        """The step, cut short at the first landing or cloth contact that its length would get wrong; the
        landing times found on the way (ball -> time, kept while the step is not cut)."""
        b = self.balls
        h = self.h
        # A ball that lands inside the step rolls on for the rest of it with nothing in its way but the
        # balls: end the step at the first landing's substep (campaign seed 300606: a ball landing 9 ms
        # into a 50 ms step rolled on through a cushion and into the rail at bed height).
        # Only a ball whose reach over the step comes near a cushion line or a pocket's zone needs it.
        limx, limy = self.zones.lim_xy
        margin = self.zones.landing_margin
        pre: dict[int, float | None] = {}
        for k in bl.tolist():
            tl = pre[k] = self.modes.landing_time(k, dt)
            if tl is not None and dt - tl > h:
                x, y, _z = b.pos[k].tolist()
                vx, vy, _vz = b.vel[k].tolist()
                if abs(x) + abs(vx) * dt > limx - margin or abs(y) + abs(vy) * dt > limy - margin:
                    dt = max(h, math.ceil(tl / h) * h)
                    pre.clear()
        # Likewise the first contact of a cloth ball (with a ball or a cushion): inside a Bullet step it is
        # taken on straight paths from the contact to the step's end, which a long step would make wrong.
        if len(bl) and len(cl) and dt > h and not self._force:
            tc = self._cloth_first_contact(cl, dt)
            if tc is not None and tc < dt - h:
                dt = max(h, math.ceil(tc / h - 1e-9) * h)
                pre.clear()
        return dt, pre

    def _cloth_first_contact(self, cl: np.ndarray, dt: float) -> float | None:
        """Time within ``dt`` of the first contact among the balls off Bullet (cloth balls with each other,
        with balls at rest and with the cushions), on their exact paths; None if there is none."""
        b = self.balls
        p0, v0, w0 = b.pos.copy(), b.vel.copy(), b.omg.copy()
        seg = Segment(self.t, p0, v0, w0, cl, b.mode.copy(), True)
        try:
            b.pos[cl], b.vel[cl], b.omg[cl], _ = cloth.advance(p0[cl], v0[cl], w0[cl], dt, self.p)
            hits = self.finder.in_step(
                p0, v0, (b.mode != GONE) & (b.mode != BULLET), dt, seg, self.stepsize.acc
            )
        finally:
            b.pos[:], b.vel[:], b.omg[:] = p0, v0, w0
        return hits[0].s * dt if hits else None

    def _to_first_contact(self, hit: Contact, seg: Segment, dt: float) -> float:
        """A step of cloth balls only, taken up to its first contact, which is resolved there."""
        t0, p0, v0, w0, cl = seg.t0, seg.p0, seg.v0, seg.w0, seg.cl
        b = self.balls
        ts = hit.s * dt
        stops = None
        if len(cl):
            b.pos[cl], b.vel[cl], b.omg[cl], stops = cloth.advance(p0[cl], v0[cl], w0[cl], ts, self.p)
        line_crossings(b, self.zones, self.log, p0, cl, t0, ts)
        self.modes.cloth_stops(cl, stops, t0)
        self.resolver.resolve(hit, t0 + ts)
        self.resolver.sustain(t0 + ts)
        self._after(t0 + ts)
        return ts

    def _impulses_in_bullet_step(self, hits: list[Contact], p0: np.ndarray, t0: float, dt: float) -> None:
        """The contacts of a step with Bullet (or landing) balls, earliest first.

        Inside a Bullet step we cannot rewind the world: the pair is moved back to its contact, the
        impulse applied and the rest of the step flown with the new velocity (on its parabola for a ball
        in the air). A ball so sent on may meet another ball within the same step (a break's impulse runs
        through a rack within a substep): the contacts of the balls sent on are found again on their new
        paths, earliest first, instead of being left overlapping (up to v h, 10 mm at a break) until the
        next step.
        """
        pos, vel = self.balls.pos, self.balls.vel
        fwd: dict[int, float] = {}
        air: set[int] = set()
        queue = hits
        for _ in range(CHAIN_MAX):
            if not queue:
                break
            hit = queue[0]
            s, a, c = hit.s, hit.a, hit.b
            for i in (a, c):
                if i < 0:
                    continue
                if i in fwd:
                    # Back along the chord the chain's test took (contacts.chord_velocity), at the
                    # velocity the ball has there.
                    rest = (1.0 - s) * dt
                    pos[i] -= chord_velocity(vel[i], (1.0 - fwd[i]) * dt, i in air) * rest
                    if i in air:
                        vel[i, 2] += G * rest
                else:
                    pos[i] = p0[i] + s * (pos[i] - p0[i])
                    if self._in_air(i):
                        # Bullet left it the step's end velocity: at its contact it has fallen for
                        # g (1 - s) dt less (campaign seed 8300085: a cue ball riding down ball 11 met it
                        # with that much more speed down, then fell the rest again; +1.4 mJ in 20 ms).
                        vel[i, 2] += G * ((1.0 - s) * dt)
            self.resolver.resolve(hit, t0 + s * dt)
            for i in (a, c):
                if i >= 0:
                    air.discard(i)
                    if self._in_air(i):
                        air.add(i)
                    self.sampler.knot(i, t0 + s * dt, "ballistic" if i in air else "linear")
                    self._forward(i, (1.0 - s) * dt, i in air)
                    fwd[i] = s
            queue = earliest_first(
                [q for q in queue[1:] if q.a not in fwd and q.b not in fwd]
                + self.finder.chain(fwd, air, p0, dt)
            )

    def _in_air(self, i: int) -> bool:
        """Is ball ``i``, just given an impulse, in the air (nothing holds it up against gravity)?"""
        b = self.balls
        return bool(b.mode[i] == BULLET and b.flying[i])

    def _forward(self, i: int, rest: float, air: bool) -> None:
        """Ball ``i``, just given an impulse, flown for the step's ``rest``: straight, or on its parabola in
        the air (campaign seed 880001: two balls sent up flew 7 ms straight at their vertical speeds and
        the total energy rose 21 mJ)."""
        b = self.balls
        if b.mode[i] == REST and np.any(b.vel[i] != 0.0):
            b.mode[i] = CLOTH if self.modes.cloth_ok(i) else BULLET
        b.pos[i] += b.vel[i] * rest
        if air:
            b.pos[i, 2] -= 0.5 * G * rest * rest
            b.vel[i, 2] -= G * rest
        if b.mode[i] == CLOTH:
            b.pos[i, 2] = b.R
        if b.mode[i] == BULLET:
            self.modes.to_bullet(i)

    def _after(self, t: float, dt: float = 0.0) -> None:
        """The pairs and the modes at a step's end."""
        self.resolver.release()
        self.modes.after_step(t, dt)
