"""The step size: as long as nothing can happen that needs a shorter step.

On the cloth a ball's path deviates from the straight line v0 t by at most a t^2 / 2 with
a = mu_s g while sliding, mu_r g while rolling. So a pair can only touch within T if the
straight-line paths come within 2R + (a_i + a_j) T^2 / 2: solving that quadratic gives a
safe step that is long when balls are far apart and exact as they close in. A Bullet ball
can be turned by the geometry at any substep, so its bound is speed-based.
"""

from __future__ import annotations

import math

import numpy as np

from physics.engine.freeflight import FLIGHT_STEP, FreeFlight
from physics.engine.freeroll import FreeRoll
from physics.engine.resolve import Resolver
from physics.engine.state import BULLET, CLOTH, GONE, ON_BED_Z, Balls
from physics.engine.zones import TableZones
from physics.params import G, PhysicsParams

MAX_CLOTH_STEP = 0.2  # s: longest analytic step (also bounds line-crossing interpolation)
# m/s: a Bullet ball touching nothing and moving vertically faster than this is in the air (a fall off the
# table's edge, a bounce on the floor: campaign seed 600825 fell and bounced for 1.5 s in 5 ms steps)
AIR_VZ = 0.05
MAX_BULLET_STEP = 0.05  # s: Python work happens once per this many substeps at most
CLOTH_BOUND_SCALAR_MAX = (
    10  # cloth balls up to which the cushion/pocket bound is cheaper in plain floats (measured)
)

LivePairs = tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]


class StepSize:
    def __init__(
        self,
        balls: Balls,
        zones: TableZones,
        resolver: Resolver,
        free: FreeFlight,
        roll: FreeRoll,
        params: PhysicsParams,
    ) -> None:
        self.balls = balls
        self.flight = free
        self.roll = roll
        # Flying balls that may be flown on their parabola through the step chosen (FreeFlight).
        self.free: list[int] = []
        # Balls rolling on the floor that may be rolled in closed form through the step chosen (FreeRoll).
        self.rolls: list[int] = []
        self.zones = zones
        self.resolver = resolver
        self.p = params
        self.h = 1.0 / params.substep_hz
        n = balls.n
        # Each ball's largest horizontal deceleration at the last step's start (the contact tests read it).
        self.acc = np.full(n, params.mu_roll * G)
        self._acc_roll = np.full(n, params.mu_roll * G)
        self._pairs_key = b""
        pi, pj = balls.pair_i, balls.pair_j
        self._pairs: LivePairs = (pi, pj, pi > 0, 0, pi, pj)

    def choose(self, moving: np.ndarray) -> float:
        """The longest step in which nothing can happen that needs a shorter one (the module's docstring)."""
        h = self.h
        b = self.balls
        mode = b.mode
        bl = mode == BULLET
        bullet = np.count_nonzero(bl) > 0
        T = MAX_BULLET_STEP if bullet else MAX_CLOTH_STEP
        self.free = []
        self.rolls = []
        if bullet and np.count_nonzero((b.flying | (np.abs(b.vel[:, 2]) > AIR_VZ)) & bl):
            T = self._flight_bound(T, bl)
        if bullet and T > 0.0:
            T = self._roll_bound(T, bl)
        if T <= 0.0:
            return h
        if self.resolver.sustained and self.resolver.sustained_moving():
            # A pair in sustained contact is followed substep by substep (its push is applied per substep).
            T = h
        cl = mode == CLOTH
        # Largest acceleration of each ball's horizontal motion: sliding or rolling (never 0, so the
        # reach-time formula below needs no special case); Bullet balls use a speed bound instead.
        any_cl = np.count_nonzero(cl) > 0
        if any_cl:
            R, vel, omg = b.R, b.vel, b.omg
            sliding = (np.abs(vel[:, 0] - R * omg[:, 1]) + np.abs(vel[:, 1] + R * omg[:, 0]) > 1e-9) & cl
            acc = np.where(sliding, self.p.mu_slide * G, self.p.mu_roll * G)
        else:
            acc = self._acc_roll
        self.acc = acc
        pi, pj, bb, nbb, ci, cj = self._live_pairs(moving)
        if len(pi) and bullet and nbb:
            T = self._bullet_pairs_bound(T, bl, pi[bb], pj[bb])
            pi, pj = ci, cj
        # Cloth balls: the cushion contact lines and the pocket zones. Taken before the cloth pairs'
        # bound (which reads T): both only lower the step by a minimum, and once it is down to the
        # substep the step is the substep whatever the pairs say, so their bound is skipped then.
        Tc = self._cloth_bound(T, cl, acc) if any_cl and T > h else T
        if len(pi) and Tc > h:
            Tc = self._cloth_pairs_bound(T, Tc, pi, pj, acc)
        T = Tc
        if bullet:
            if T > h and self._low_flier_at_cushion(bl, T):
                return h
            return max(h, math.floor(T / h + 1e-9) * h)
        return max(T, h)

    def _flight_bound(self, T: float, bl: np.ndarray) -> float:
        """``T`` for the balls in the air: a ball flying, or falling or rising with nothing touching it
        (off the table's edge, bouncing on the floor), far from everything is flown on its parabola as
        long as FreeFlight allows (and marked free); near something a flying or falling one is stepped
        FLIGHT_STEP in Bullet (left_table, returned and jumped_over are checked once per step)."""
        b = self.balls
        contacts = b.contacts
        for i in bl.nonzero()[0].tolist():
            vz = float(b.vel[i, 2])
            flying = bool(b.flying[i])
            if not flying and (abs(vz) <= AIR_VZ or contacts[i]):
                if vz < -AIR_VZ:
                    T = min(T, FLIGHT_STEP)
                continue
            tf = self.flight.free_time(i, T)
            if tf > 0.0:
                self.free.append(i)
                T = min(T, tf)
            elif flying or vz < -AIR_VZ:
                T = min(T, FLIGHT_STEP)
        return T

    def _roll_bound(self, T: float, bl: np.ndarray) -> float:
        """``T`` for the balls rolling on the floor: one far from everything is rolled in closed form as
        long as FreeRoll allows (and marked); near something it stays in Bullet and bounds nothing here.

        When every Bullet ball is so rolled, no Bullet step is taken and the step may be as long as a cloth
        step (MAX_BULLET_STEP bounds Bullet's work): up to the first of the rolls' bounds and of their
        stops (a stopped ball is back in Bullet's hands for its rest). The pool break's ball rolling on
        the floor for 1.7 s took 34 steps of 50 ms."""
        roll = self.roll
        idx = bl.nonzero()[0].tolist()
        T0 = T
        for i in idx:
            if i in self.free or not roll.rolling(i):
                continue
            tr = roll.roll_time(i, T)
            if tr > 0.0:
                self.rolls.append(i)
                T = min(T, tr)
        if T < T0 - 1e-12 or len(self.rolls) != len(idx) or T0 < MAX_BULLET_STEP:
            return T
        h = self.h
        a = self.p.mu_roll_floor * G
        T = MAX_CLOTH_STEP
        for i in self.rolls:
            stop = math.hypot(float(self.balls.vel[i, 0]), float(self.balls.vel[i, 1])) / a if a > 0.0 else T
            T = min(T, max(h, math.ceil(stop / h - 1e-9) * h), roll.roll_time(i, T))
        return max(T, T0)

    def _bullet_pairs_bound(self, T: float, bl: np.ndarray, pi: np.ndarray, pj: np.ndarray) -> float:
        """``T`` shortened to the time the pairs (with a Bullet ball) need to close their gaps at their
        greatest possible speeds."""
        b = self.balls
        vel = b.vel
        g = G
        # A Bullet ball's speed within t is at most |v| + g t: the energy guard lets it gain no more than
        # the height it falls, sqrt(v^2 + 2 g (|v| t + g t^2 / 2)) = |v| + g t; 0.05 m/s more covers
        # Bullet's push out of a penetration. Its reach is thus (|v| + 0.05) t + g t^2 / 2, taken twice
        # over in the t^2 term; a cloth partner's friction adds mu_s g t^2. (Taking g t at the longest
        # step instead held two slow balls by a pocket, a few mm apart, to one substep per step.)
        speed = np.zeros(len(b.mode))
        speed[bl] = np.sqrt((vel[bl] ** 2).sum(axis=1)) + 0.05
        acc = np.where(bl, g, 0.0)
        r = b.pos[pi] - b.pos[pj]
        gap = np.maximum(np.sqrt((r * r).sum(axis=1)) - 2.0 * b.R, 0.0)
        V = speed[pi] + speed[pj]
        A = acc[pi] + acc[pj] + self.p.mu_slide * g
        # The root of A t^2 + V t = gap, in the form that keeps its precision when A gap << V^2.
        tb = 2.0 * gap / (V + np.sqrt(V * V + 4.0 * A * gap))
        return min(T, float(tb.min()))

    def _cloth_pairs_bound(
        self, T: float, Tc: float, pi: np.ndarray, pj: np.ndarray, acc: np.ndarray
    ) -> float:
        """``Tc`` shortened to the first time the pairs off Bullet may touch (radial and widened straight-path
        bounds; the deviation is that of a step ``T``)."""
        R = self.balls.R
        P2 = self.balls.pos[:, :2]
        V2 = self.balls.vel[:, :2]
        d = P2.take(pi, axis=0) - P2.take(pj, axis=0)
        u = V2.take(pi, axis=0) - V2.take(pj, axis=0)
        aij = acc.take(pi) + acc.take(pj)
        dd = d * d
        rr = dd[:, 0] + dd[:, 1]
        du = d * u
        rw = du[:, 0] + du[:, 1]
        dist = np.sqrt(rr)
        # Radial bound: |r(t)| >= |r0| - c t - a t^2/2 (c the closing speed).
        c = -rw / dist
        gap = np.maximum(dist - 2.0 * R, 0.0)
        t_rad = (np.sqrt(c * c + 2.0 * aij * gap) - c) / aij
        # Straight paths widened by the deviation a T^2/2.
        uu = u * u
        A = uu[:, 0] + uu[:, 1]
        D = 2.0 * R + 0.5 * aij * T * T
        disc = rw * rw - A * (rr - D * D)
        t_lin = np.maximum((-rw - np.sqrt(np.maximum(disc, 0.0))) / np.where(A > 0.0, A, 1.0), 0.0)
        # A pair whose straight paths separate is not bounded here: if it is within the
        # paths' curvature of contact, the contact tests follow it on its exact paths.
        t_lin[(rw >= 0.0) | ~(disc >= 0.0)] = np.inf
        return min(Tc, float(np.minimum.reduce(np.maximum(t_rad, t_lin))))

    def _low_flier_at_cushion(self, bl: np.ndarray, T: float) -> bool:
        """Could a Bullet ball whose centre is below the cushion's nose reach a cushion within ``T``?

        A cushion meets such a ball above its centre and drives it down into the slate. Bullet meets the
        slate only at the next substep, once the ball is already in it (campaign seed 300840: a jumped
        cue ball 1 mm above the cloth met a cushion at 13 m/s, was driven down at 9 m/s and was 8 mm in
        the slate a substep later: Bullet keeps a contact point only within ~0.02 R of a surface), so such
        a ball is stepped one substep at a time and put back on the slate with the slate's bounce
        (Transitions.onto_slate) at every one.

        In the air nothing but a ball (which the pair bounds keep out of the step) or the table can turn a
        ball, so one moving away from a cushion line and touching no cushion cannot reach that line within
        the step: only the lines it moves towards count then (the pyramid break's low hop stepped ~50
        substeps one at a time as it flew away from the foot cushion)."""
        b = self.balls
        R = b.R
        z_nose = self.zones.nose_height
        limx, limy = self.zones.lim_xy
        for i in bl.nonzero()[0].tolist():
            x, y, z = b.pos[i].tolist()
            if not R + ON_BED_Z < z < z_nose:
                continue  # a ball on the slate has its contact with it in Bullet's solve already
            vx, vy, _vz = b.vel[i].tolist()
            if any(kind in ("cushion", "jaw") for kind, _ in b.contacts[i]):
                if abs(x) + abs(vx) * T + R > limx or abs(y) + abs(vy) * T + R > limy:
                    return True
                continue
            for q, vq, lq in ((x, vx, limx), (y, vy, limy)):
                if vq * q >= 0.0 and abs(q) + abs(vq) * T + R > lq:
                    return True  # moving towards the nearer line (or across neither)
                if vq * q < 0.0 and abs(vq) * T + R - abs(q) > lq:
                    return True  # crossing the table to the far line
        return False

    def _cloth_bound(self, T: float, cl: np.ndarray, acc: np.ndarray) -> float:
        """``T`` shortened to the time any cloth ball may need to reach a cushion's contact line or
        a pocket zone (per ball in plain floats: numpy's per-call cost dominates for a handful of
        balls; the same operations as the vectorised bounds, in the same order)."""
        b = self.balls
        idx = cl.nonzero()[0].tolist()
        if len(idx) > CLOTH_BOUND_SCALAR_MAX:
            return self._cloth_bound_vec(T, cl, acc)
        X, Y = b.pos[:, 0].tolist(), b.pos[:, 1].tolist()
        VX, VY = b.vel[:, 0].tolist(), b.vel[:, 1].tolist()
        AC = acc.tolist()
        limx, limy = self.zones.lim_xy
        zones = self.zones.zones
        for i in idx:
            x, y, vx, vy, a = X[i], Y[i], VX[i], VY[i], AC[i]
            a2 = 2.0 * a
            # Both contact lines of each axis: the one ahead (a ball crossing the table reaches the far
            # cushion) and the one behind (a ball drawn back by its spin may return to it).
            still = vx == 0.0 and vy == 0.0
            for q, vq, lq in ((x, vx, limx), (y, vy, limy)):
                dl = lq - q
                if dl <= 0.0 and still:
                    continue  # spinning in place at the line (transitions.pivoting): going nowhere
                dl = dl if dl >= 0.0 else 0.0
                t = (math.sqrt(vq * vq + a2 * dl) - vq) / a
                if t < T:
                    T = t
                dl = lq + q
                if dl <= 0.0 and still:
                    continue
                dl = dl if dl >= 0.0 else 0.0
                t = (math.sqrt(vq * vq + a2 * dl) + vq) / a
                if t < T:
                    T = t
            for zx, zy, zr in zones:
                rx = x - zx
                ry = y - zy
                dist = math.sqrt(rx * rx + ry * ry)
                if dist == 0.0:
                    continue  # a ball on the cloth is never at a pocket's centre
                c = -(rx * vx + ry * vy) / dist
                dz = dist - zr
                if dz <= 0.0:
                    if vx == 0.0 and vy == 0.0:
                        continue  # spinning in place in the zone (transitions.pivoting): going nowhere
                    dz = 0.0
                t = (math.sqrt(c * c + a2 * dz) - c) / a
                if t < T:
                    T = t
        return T

    def _cloth_bound_vec(self, T: float, cl: np.ndarray, acc: np.ndarray) -> float:
        """:meth:`_cloth_bound` over arrays (cheaper for many cloth balls)."""
        z = self.zones
        xy = self.balls.pos[cl, :2]
        vxy = self.balls.vel[cl, :2]
        ac = acc[cl]
        a2 = ac[:, None]
        x, y = xy[:, 0], xy[:, 1]
        vx, vy = vxy[:, 0], vxy[:, 1]
        # A ball spinning in place (transitions.pivoting) at a line or inside a zone is going nowhere.
        still = (vx == 0.0) & (vy == 0.0)
        anystill = np.count_nonzero(still) > 0
        for sgn in (1.0, -1.0):  # the + and - contact lines of each axis
            d0 = z.lim - sgn * xy
            dl = np.maximum(d0, 0.0)
            vo = sgn * vxy
            tl = (np.sqrt(vo * vo + 2.0 * a2 * dl) - vo) / a2
            if anystill:
                tl[(d0 <= 0.0) & still[:, None]] = np.inf
            T = min(T, float(tl.min()))
        rx = x[:, None] - z.zone_c[None, :, 0]
        ry = y[:, None] - z.zone_c[None, :, 1]
        dist = np.sqrt(rx * rx + ry * ry)
        c = -(rx * vx[:, None] + ry * vy[:, None]) / dist
        d = np.maximum(dist - z.zone_r[None, :], 0.0)
        tz = (np.sqrt(c * c + 2.0 * a2 * d) - c) / a2
        if anystill:
            tz[(d == 0.0) & still[:, None]] = np.inf
        return min(T, float(tz.min()))

    def _live_pairs(self, moving: np.ndarray) -> LivePairs:
        """Pairs with a moving ball and no pocketed one, which of them hold a Bullet ball (and how
        many), and the pairs without one; kept while the modes do not change (most steps). ``moving``
        follows from the modes, so the modes are the key."""
        mode = self.balls.mode
        key = mode.tobytes()
        if key != self._pairs_key:
            pi, pj = self.balls.pair_i, self.balls.pair_j
            live = (mode[pi] != GONE) & (mode[pj] != GONE) & (moving[pi] | moving[pj])
            pi, pj = pi[live], pj[live]
            bl = mode == BULLET
            bb = bl[pi] | bl[pj]
            self._pairs = (pi, pj, bb, int(np.count_nonzero(bb)), pi[~bb], pj[~bb])
            self._pairs_key = key
        return self._pairs
