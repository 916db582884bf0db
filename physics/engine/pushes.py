"""Runs of substeps in which nothing happens but sustained pushes, in plain floats.

While a pair is in sustained contact (``Resolver.sustain``: a ball driven into a touching ball by the
cloth's friction) every substep is a step of its own, and in a frozen rack pushed slowly the general
step (contact tests over every pair, the step bound, samples, the mode changes) cost ~0.7 ms a substep:
a 1 m/s break spent 15x the CPU of a full-power break on a few hundred substeps of pushing.

:class:`PushRun` takes those substeps itself, with the same model: each cloth ball's closed-form motion
over a substep, then the sustained pairs' plastic impulses with friction swept as ``Resolver.sustain``
does, and the contacts that end as ``Resolver.release`` ends them. A pair of balls that comes into
contact closing slower than ``v_plastic`` is what the general step would make a sustained push: it is
taken here too, at the substep's end (it overlaps by at most v_plastic h = 2 um then, and is put
back at contact distance). Anything else ends the run *before* the substep in which it happens, which
the general step then takes from the same state: a contact that is an impact, a cushion, a pocket's zone,
a line crossed, a ball coming to rest, a ball the slate would throw up or hand to Bullet.

The state is held in lists of floats during the run (numpy's per-call cost dominates at this size) and
written back to the arrays when it ends and at each sample instant.
"""

from __future__ import annotations

import math

import numpy as np

from physics.engine.contacts import APPROACH_MIN
from physics.engine.events import EventLog
from physics.engine.resolve import SUSTAIN_OVERLAP, SUSTAIN_SWEEPS, Resolver
from physics.engine.sampling import Sampler
from physics.engine.state import CLOTH, GONE, ON_BED_Z, REST, Balls, Segment
from physics.engine.zones import TableZones
from physics.params import G, PhysicsParams

MAX_RUN = 1000  # substeps one run takes at most (the loop's own checks run between runs)
EPS_V = 1e-9  # physics.cloth.EPS_V


class _Bail(Exception):
    """The substep under way holds something the general step must take."""


class PushRun:
    def __init__(
        self,
        balls: Balls,
        zones: TableZones,
        resolver: Resolver,
        log: EventLog,
        sampler: Sampler,
        params: PhysicsParams,
    ) -> None:
        self.balls = balls
        self.zones = zones
        self.resolver = resolver
        self.log = log
        self.sampler = sampler
        self.p = params
        self.h = 1.0 / params.substep_hz
        R = balls.R
        self.R = R
        self.mus = params.mu_slide * G
        self.mur = params.mu_roll * G
        self.m = params.m
        self.inertia = params.inertia
        self.k_t = 2.0 / params.m + 2.0 * R * R / params.inertia  # ball-ball tangential (= 7/m)
        self.k_s = 1.0 / params.m + R * R / params.inertia  # ball-slate tangential
        # The contact tests' closing speeds (relative velocity . centre offset), as ContactFinder has them.
        self.approach_min = APPROACH_MIN * 2.0 * R
        self.plastic_closing = resolver.v_plastic * 2.0 * R
        self.stop_push = 2.0 * params.mu_roll * G * self.h  # Resolver._plastic: a push a ball at rest resists
        # The state during a run: positions, velocities and spins by component, and the modes.
        self.X: list[float] = []
        self.Y: list[float] = []
        self.Z: list[float] = []
        self.VX: list[float] = []
        self.VY: list[float] = []
        self.VZ: list[float] = []
        self.WX: list[float] = []
        self.WY: list[float] = []
        self.WZ: list[float] = []
        self.M: list[int] = []
        self.alive: list[int] = []

    # ---------------------------------------------------------------- the run
    def run(self, t: float, t_cap: float) -> float:
        """Substeps from ``t`` while nothing but pushes happens (at most MAX_RUN, none from ``t_cap`` on);
        the time reached (``t`` itself: the first substep holds an event for the general step)."""
        b = self.balls
        n = b.n
        self.X, self.Y, self.Z = b.pos[:, 0].tolist(), b.pos[:, 1].tolist(), b.pos[:, 2].tolist()
        self.VX, self.VY, self.VZ = b.vel[:, 0].tolist(), b.vel[:, 1].tolist(), b.vel[:, 2].tolist()
        self.WX, self.WY, self.WZ = b.omg[:, 0].tolist(), b.omg[:, 1].tolist(), b.omg[:, 2].tolist()
        self.M = [int(m) for m in b.mode.tolist()]
        self.alive = [i for i in range(n) if self.M[i] != GONE]
        h = self.h
        k = 0
        sampling = self.sampler.dt is not None
        while k < MAX_RUN and t < t_cap and self._moving_push():
            saved = self._save()
            t0 = t
            try:
                self._substep(t0, t0 + h)
            except _Bail:
                self._restore(saved)
                break
            k += 1
            t = t0 + h
            self._clear_cushions()
            if sampling and self.sampler.next <= t + 1e-12:
                self._write_back()
                self.sampler.within(t, self._segment(t0, saved))
        if k:
            self._write_back()
        return t

    def _moving_push(self) -> bool:
        M = self.M
        return any(M[a] == CLOTH or M[b] == CLOTH for a, b in self.resolver.sustained)

    def _save(self) -> tuple[list[list[float]], list[int], set[tuple[int, int]], set[tuple[int, int]], int]:
        lists = [self.X[:], self.Y[:], self.Z[:], self.VX[:], self.VY[:], self.VZ[:], self.WX[:], self.WY[:]]
        lists.append(self.WZ[:])
        res = self.resolver
        return lists, self.M[:], set(res.sustained), set(res.touching), len(self.log.events)

    def _restore(
        self, saved: tuple[list[list[float]], list[int], set[tuple[int, int]], set[tuple[int, int]], int]
    ) -> None:
        lists, M, sustained, touching, n_events = saved
        self.X, self.Y, self.Z, self.VX, self.VY, self.VZ, self.WX, self.WY, self.WZ = lists
        self.M = M
        res = self.resolver
        # In place: the contact finder holds the same set.
        res.sustained.clear()
        res.sustained.update(sustained)
        res.touching.clear()
        res.touching.update(touching)
        del self.log.events[n_events:]

    def _write_back(self) -> None:
        b = self.balls
        b.pos[:, 0], b.pos[:, 1], b.pos[:, 2] = self.X, self.Y, self.Z
        b.vel[:, 0], b.vel[:, 1], b.vel[:, 2] = self.VX, self.VY, self.VZ
        b.omg[:, 0], b.omg[:, 1], b.omg[:, 2] = self.WX, self.WY, self.WZ
        b.mode[:] = self.M

    def _segment(
        self,
        t0: float,
        saved: tuple[list[list[float]], list[int], set[tuple[int, int]], set[tuple[int, int]], int],
    ) -> Segment:
        """The substep's start as the sampler reads a step's (every moving ball on its closed form)."""
        lists, M, _s, _t, _n = saved
        p0 = np.array(lists[0:3]).T.copy()
        v0 = np.array(lists[3:6]).T.copy()
        w0 = np.array(lists[6:9]).T.copy()
        mode0 = np.array(M, dtype=np.int8)
        return Segment(t0, p0, v0, w0, np.flatnonzero(mode0 == CLOTH), mode0, True)

    def _clear_cushions(self) -> None:
        """Transitions.after_step: a cloth ball clear of the cushion lines no longer touches a cushion."""
        contacts = self.balls.contacts
        limx, limy = self.zones.lim_xy
        for i in self.alive:
            if (
                contacts[i]
                and self.M[i] == CLOTH
                and min(limx - abs(self.X[i]), limy - abs(self.Y[i])) > 1e-4
            ):
                contacts[i] = {c for c in contacts[i] if c[0] != "cushion"}

    # ---------------------------------------------------------------- one substep
    def _substep(self, t0: float, t: float) -> None:
        """The substep from ``t0`` to ``t``; raises _Bail (leaving the lists to be restored) if it holds an
        event for the general step."""
        moving = [i for i in self.alive if self.M[i] == CLOTH]
        x0 = [self.X[i] for i in moving]
        for i in moving:
            self._advance(i, t0)
        self._places(moving, x0)
        moving = [i for i in moving if self.M[i] == CLOTH]
        for a, c in self._new_contacts(moving):
            self._impulse(a, c, t, True)
        self._sweep(t)
        self._release()
        self._places([i for i in self.alive if self.M[i] == CLOTH], None)

    def _advance(self, i: int, t0: float) -> None:
        """Ball ``i`` over the substep from ``t0`` on the cloth (physics.cloth's closed form); a ball that
        stops in it rests (Transitions.cloth_stops)."""
        h, R, mus, mur = self.h, self.R, self.mus, self.mur
        vx, vy, wx, wy = self.VX[i], self.VY[i], self.WX[i], self.WY[i]
        ux = vx - R * wy
        uy = vy + R * wx
        us = math.sqrt(ux * ux + uy * uy)
        inv = 1.0 / us if us > EPS_V else 0.0
        uhx, uhy = ux * inv, uy * inv
        t_slide = us * (2.0 / (7.0 * mus))
        t1 = t_slide if t_slide <= h else h
        half = 0.5 * mus * t1 * t1
        px = self.X[i] + vx * t1 - uhx * half
        py = self.Y[i] + vy * t1 - uhy * half
        nvx = vx - mus * uhx * t1
        nvy = vy - mus * uhy * t1
        k = (2.5 * mus / R) * t1
        nwx = wx - uhy * k
        nwy = wy + uhx * k
        t2 = h - t1
        t_roll = math.inf
        if t2 > 0.0:
            s = math.sqrt(nvx * nvx + nvy * nvy)
            t_roll = s / mur
            t2c = t2 if t2 <= t_roll else t_roll
            sinv = 1.0 / s if s > EPS_V else 0.0
            dist = (s * t2c - 0.5 * mur * t2c * t2c) * sinv
            px = px + nvx * dist
            py = py + nvy * dist
            if t2c >= t_roll:
                f = 0.0
            else:
                f = s - mur * t2c
                f = (f if f >= 0.0 else 0.0) * sinv
            nvx = nvx * f
            nvy = nvy * f
            nwx = -nvy / R
            nwy = nvx / R
        wz = self.WZ[i]
        t_spin = abs(wz) / self.p.spin_decel
        spun = t_spin <= h
        if spun and t2 > 0.0 and t2 >= t_roll:
            self.X[i], self.Y[i] = px, py
            self.VX[i] = self.VY[i] = self.VZ[i] = self.WX[i] = self.WY[i] = self.WZ[i] = 0.0
            self.M[i] = REST
            stop = t_slide + t_roll
            self.log.rest(t0 + (stop if stop >= t_spin else t_spin), i, at=(px, py, self.Z[i]))
            return
        nwz = 0.0 if spun else wz - (1.0 if wz > 0.0 else -1.0) * (self.p.spin_decel * h)
        self.X[i], self.Y[i] = px, py
        self.VX[i], self.VY[i], self.VZ[i] = nvx, nvy, 0.0
        self.WX[i], self.WY[i], self.WZ[i] = nwx, nwy, nwz

    def _places(self, moving: list[int], x0: list[float] | None) -> None:
        """The cushion lines, the pocket zones and the lines across the table: a cloth ball reaching one
        ends the run (``x0``: the balls' x at the substep's start, for the line crossings)."""
        limx, limy = self.zones.lim_xy
        zones = self.zones.zones
        lines = self.zones.line_xs if self.zones.lines else []
        for k, i in enumerate(moving):
            x, y = self.X[i], self.Y[i]
            if abs(x) > limx or abs(y) > limy:
                raise _Bail
            for zx, zy, zr in zones:
                if (x - zx) * (x - zx) + (y - zy) * (y - zy) < zr * zr:
                    raise _Bail
            if x0 is not None:
                a0 = x0[k]
                for lx in lines:
                    a = a0 - lx
                    c = x - lx
                    if a * c < 0.0 or (a != 0.0 and c == 0.0):
                        raise _Bail

    def _new_contacts(self, moving: list[int]) -> list[tuple[int, int]]:
        """Pairs with a moving ball touching at the substep's end and closing (as ContactFinder judges it):
        a sustained pair closing slower than v_plastic is the sweep's. Any other is a contact taken at the
        substep's end while it overlaps by less than SUSTAIN_OVERLAP (closing at up to 10 mm/s: its
        instant is off by under a substep, its place by under 0.01 mm, and it is put back at contact
        distance); a deeper one is an impact whose instant the general step finds."""
        X, Y, Z, VX, VY, VZ, M = self.X, self.Y, self.Z, self.VX, self.VY, self.VZ, self.M
        four_r2 = 4.0 * self.R * self.R
        two_r = 2.0 * self.R
        sustained = self.resolver.sustained
        out: list[tuple[int, int]] = []
        for i in moving:
            xi, yi, zi = X[i], Y[i], Z[i]
            for j in self.alive:
                if j == i or (j < i and M[j] == CLOTH):
                    continue
                dx = xi - X[j]
                if dx > two_r or dx < -two_r:
                    continue
                dy = yi - Y[j]
                if dy > two_r or dy < -two_r:
                    continue
                dz = zi - Z[j]
                dd = dx * dx + dy * dy + dz * dz
                if dd >= four_r2:
                    continue
                closing = (VX[i] - VX[j]) * dx + (VY[i] - VY[j]) * dy + (VZ[i] - VZ[j]) * dz
                key = (i, j) if i < j else (j, i)
                if closing >= -self.approach_min or (key in sustained and closing > -self.plastic_closing):
                    continue
                if two_r - math.sqrt(dd) >= SUSTAIN_OVERLAP:
                    raise _Bail
                out.append(key)
        return sorted(set(out))

    def _sweep(self, t: float) -> None:
        """Resolver.sustain over the lists."""
        sustained = self.resolver.sustained
        if not sustained:
            return
        R2 = 4.0 * self.R * self.R
        X, Y, Z, VX, VY, VZ, M = self.X, self.Y, self.Z, self.VX, self.VY, self.VZ, self.M
        for _ in range(SUSTAIN_SWEEPS):
            busy = False
            for a, b in sorted(sustained):
                if M[a] not in (CLOTH, REST) or M[b] not in (CLOTH, REST):
                    continue
                dx, dy, dz = X[b] - X[a], Y[b] - Y[a], Z[b] - Z[a]
                dd = dx * dx + dy * dy + dz * dz
                if dd < R2 * (1.0 - 1e-12) or (
                    (VX[a] - VX[b]) * dx + (VY[a] - VY[b]) * dy + (VZ[a] - VZ[b]) * dz
                ) > 1e-9 * math.sqrt(dd):
                    busy = True
                    self._impulse(a, b, t)
            if not busy:
                break

    def _release(self) -> None:
        """Resolver.release over the lists."""
        res = self.resolver
        R = self.R
        X, Y, Z, M = self.X, self.Y, self.Z, self.M
        if res.sustained:
            lim_s = (2.0 * R + res.sustain_gap) ** 2
            for key in sorted(res.sustained):
                a, b = key
                ma, mb = M[a], M[b]
                dx, dy, dz = X[a] - X[b], Y[a] - Y[b], Z[a] - Z[b]
                if (
                    ma not in (CLOTH, REST)
                    or mb not in (CLOTH, REST)
                    or (ma == REST and mb == REST)
                    or dx * dx + dy * dy + dz * dz > lim_s
                    or not self._pressed(a, b)
                ):
                    res.sustained.discard(key)
        if res.touching:
            lim2 = (2.0 * R + 1e-4) ** 2
            for key in list(res.touching):
                a, b = key
                dx, dy, dz = X[a] - X[b], Y[a] - Y[b], Z[a] - Z[b]
                if dx * dx + dy * dy + dz * dz > lim2:
                    res.touching.discard(key)

    def _pressed(self, a: int, b: int) -> bool:
        dx, dy = self.X[b] - self.X[a], self.Y[b] - self.Y[a]
        if dx * (self.VX[a] - self.VX[b]) + dy * (self.VY[a] - self.VY[b]) > 0.0:
            return True
        axa, aya = self._cloth_acc(a)
        axb, ayb = self._cloth_acc(b)
        return dx * (axa - axb) + dy * (aya - ayb) > 0.0

    def _cloth_acc(self, i: int) -> tuple[float, float]:
        if self.M[i] != CLOTH:
            return 0.0, 0.0
        R = self.R
        vx, vy = self.VX[i], self.VY[i]
        ux, uy = vx - R * self.WY[i], vy + R * self.WX[i]
        us = math.hypot(ux, uy)
        if us > EPS_V:
            a = self.mus / us
            return -a * ux, -a * uy
        s = math.hypot(vx, vy)
        if s > EPS_V:
            a = self.mur / s
            return -a * vx, -a * vy
        return 0.0, 0.0

    # ---------------------------------------------------------------- the impulse
    def _impulse(self, a: int, b: int, t: float, apart: bool = False) -> None:
        """Resolver._ball for a pair off Bullet (its _plastic, collide.ball_ball and after_impulse); with
        ``apart`` an overlapping pair is put back at contact distance first, sustained or not."""
        X, Y, Z, VX, VY, VZ, M = self.X, self.Y, self.Z, self.VX, self.VY, self.VZ, self.M
        res = self.resolver
        key = (a, b) if a < b else (b, a)
        dx, dy, dz = X[b] - X[a], Y[b] - Y[a], Z[b] - Z[a]
        dist = math.sqrt(dx * dx + dy * dy + dz * dz)
        nx, ny, nz = dx / dist, dy / dist, dz / dist
        over = 2.0 * self.R - dist
        vn = (VX[a] - VX[b]) * nx + (VY[a] - VY[b]) * ny + (VZ[a] - VZ[b]) * nz
        e = self.p.e_ball
        if 0.0 < vn < res.v_plastic and over < SUSTAIN_OVERLAP:
            e = 0.0
            res.sustained.add(key)
            rest = b if M[b] == REST else a if M[a] == REST else -1
            if rest >= 0 and vn < self.stop_push:
                self._stopped_against(rest, a, b, key, (nx, ny, nz), vn, over, t)
                return
        if (apart or key in res.sustained) and 0.0 < over < SUSTAIN_OVERLAP:
            X[a] -= 0.5 * over * nx
            Y[a] -= 0.5 * over * ny
            Z[a] -= 0.5 * over * nz
            X[b] += 0.5 * over * nx
            Y[b] += 0.5 * over * ny
            Z[b] += 0.5 * over * nz
            dx, dy, dz = X[b] - X[a], Y[b] - Y[a], Z[b] - Z[a]
            dist = math.sqrt(dx * dx + dy * dy + dz * dz)
            nx, ny, nz = dx / dist, dy / dist, dz / dist
        rvx, rvy, rvz = VX[a] - VX[b], VY[a] - VY[b], VZ[a] - VZ[b]
        vrel_n = rvx * nx + rvy * ny + rvz * nz
        if vrel_n <= 0.0:
            return
        dvz_b = 0.5 * (1.0 + e) * vrel_n * nz
        speed = math.sqrt(rvx * rvx + rvy * rvy + rvz * rvz)
        self._pair_impulse(a, b, (nx, ny, nz), (1.0 + e) * vrel_n * self.p.m / 2.0)
        if key not in res.touching:
            res.touching.add(key)
            self.log.ball_ball(t, a, b, speed, at=(X[a], Y[a], Z[a]))
        self._after_impulse(a, -dvz_b)
        self._after_impulse(b, dvz_b)

    def _pair_impulse(self, a: int, b: int, n: tuple[float, float, float], jn: float) -> None:
        """collide.ball_ball's normal impulse ``jn`` along ``n`` (a to b) with friction at the contact."""
        VX, VY, VZ, WX, WY, WZ = self.VX, self.VY, self.VZ, self.WX, self.WY, self.WZ
        m, R, inertia = self.m, self.R, self.inertia
        nx, ny, nz = n
        rx, ry, rz = R * nx, R * ny, R * nz  # a's contact point; b's is at -r
        # Contact-point velocities: u = v + w x r.
        uax = VX[a] + (WY[a] * rz - WZ[a] * ry)
        uay = VY[a] + (WZ[a] * rx - WX[a] * rz)
        uaz = VZ[a] + (WX[a] * ry - WY[a] * rx)
        ubx = VX[b] - (WY[b] * rz - WZ[b] * ry)
        uby = VY[b] - (WZ[b] * rx - WX[b] * rz)
        ubz = VZ[b] - (WX[b] * ry - WY[b] * rx)
        ex, ey, ez = uax - ubx, uay - uby, uaz - ubz
        en = ex * nx + ey * ny + ez * nz
        sx, sy, sz = ex - en * nx, ey - en * ny, ez - en * nz
        s = math.sqrt(sx * sx + sy * sy + sz * sz)
        jx, jy, jz = -jn * nx, -jn * ny, -jn * nz
        if s >= 1e-12 and jn > 0.0:
            jt = min(self.p.mu_ball_at(s) * jn, s / self.k_t) / s
            jx, jy, jz = jx - jt * sx, jy - jt * sy, jz - jt * sz
        VX[a] += jx / m
        VY[a] += jy / m
        VZ[a] += jz / m
        VX[b] -= jx / m
        VY[b] -= jy / m
        VZ[b] -= jz / m
        # r x J on a, (-r) x (-J) = r x J on b.
        tx, ty, tz = (
            (ry * jz - rz * jy) / inertia,
            (rz * jx - rx * jz) / inertia,
            (rx * jy - ry * jx) / inertia,
        )
        WX[a] += tx
        WY[a] += ty
        WZ[a] += tz
        WX[b] += tx
        WY[b] += ty
        WZ[b] += tz

    def _stopped_against(
        self,
        rest: int,
        a: int,
        b: int,
        key: tuple[int, int],
        n: tuple[float, float, float],
        vn: float,
        over: float,
        t: float,
    ) -> None:
        """Resolver._stopped_against: the pusher is stopped against a ball its push cannot start."""
        mover = a + b - rest
        sgn = 1.0 if mover == a else -1.0
        self.VX[mover] -= sgn * vn * n[0]
        self.VY[mover] -= sgn * vn * n[1]
        self.VZ[mover] -= sgn * vn * n[2]
        if 0.0 < over < SUSTAIN_OVERLAP:
            self.X[mover] -= sgn * over * n[0]
            self.Y[mover] -= sgn * over * n[1]
            self.Z[mover] -= sgn * over * n[2]
        if key not in self.resolver.touching:
            self.resolver.touching.add(key)
            self.log.ball_ball(t, a, b, vn, at=(self.X[a], self.Y[a], self.Z[a]))

    def _after_impulse(self, i: int, dvz_normal: float) -> None:
        """Resolver.after_impulse for a ball off Bullet: the slate's reaction to a push into it; a ball
        the slate would throw up, or that is no longer on the open bed, ends the run."""
        vz = self.VZ[i]
        p = self.p
        if vz < 0.0:
            out = p.e_table * min(-vz, max(-dvz_normal, 0.0))
            if out * out / (2.0 * G) < p.min_bounce:
                out = 0.0
            if out > 0.0:
                raise _Bail
            self._slate_push(i, p.m * (out - vz))
            self.VZ[i] = 0.0
        elif vz > 0.0:
            if vz * vz / (2 * G) >= p.min_bounce:
                raise _Bail
            self.VZ[i] = 0.0
        self.M[i] = CLOTH
        # Transitions.cloth_ok for a cloth ball (TableZones.over_open_bed with its margin, in plain floats).
        x, y = self.X[i], self.Y[i]
        limx, limy = self.zones.lim_xy
        if abs(self.Z[i] - self.R) >= ON_BED_Z or abs(x) > limx + 1e-6 or abs(y) > limy + 1e-6:
            raise _Bail
        for zx, zy, zr in self.zones.zones:
            if math.hypot(zx - x, zy - y) < zr:
                raise _Bail

    def _slate_push(self, i: int, js: float) -> None:
        """collide._slate_push: an upward slate impulse ``js`` at the bottom contact with cloth friction."""
        p = self.p
        m, R, inertia = self.m, self.R, self.inertia
        # Contact point r = (0, 0, -R): u = v + w x r = (vx - R wy, vy + R wx, vz).
        ux = self.VX[i] - R * self.WY[i]
        uy = self.VY[i] + R * self.WX[i]
        jx = jy = 0.0
        s = math.sqrt(ux * ux + uy * uy)
        if s >= 1e-12 and js > 0.0:
            j = min(p.mu_slide * js, s / self.k_s) / s
            jx, jy = -j * ux, -j * uy
        self.VX[i] += jx / m
        self.VY[i] += jy / m
        self.VZ[i] += js / m
        # r x J = (0, 0, -R) x (jx, jy, js) = (R jy, -R jx, 0).
        self.WX[i] += R * jy / inertia
        self.WY[i] += -R * jx / inertia
