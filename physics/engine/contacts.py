"""Contact detection inside a step: the ball-ball contacts (a swept-sphere test on each pair's chord, or the
exact cloth paths where the chord cannot be trusted) and cloth balls reaching a cushion's contact line."""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any, NamedTuple

import numpy as np

from physics import cloth
from physics.engine.state import BULLET, CLOTH, GONE, Balls, Segment
from physics.engine.zones import TableZones
from physics.params import G, PhysicsParams

GRID = np.arange(1, 33) / 32.0  # instants (fractions of a step) at which near pairs are checked
FRACTIONS = np.arange(1, 16) / 16.0
OVERLAP_TOL = 1e-8  # m: a pair overlapping less than this on its exact paths is touching, not colliding
# m/s: a pair closing slower than this is touching, not colliding. Bullet keeps its state in single
# precision: positions near the table's end are good to ~1e-7 m and a ball resting in Bullet keeps
# velocities of ~1e-7 m/s, so two frozen Bullet balls (by a pocket) met "overlapping and approaching" at
# 3e-8 m/s every step; each such impulse restarted their rest timers, and the stroke ran to the cap.
APPROACH_MIN = 1e-6
CHORD_TOL = (
    1e-6  # m: the deviation of a cloth path from its chord up to which the chord's contact time is used
)
FEW_PAIRS = 16  # near pairs up to which their tests are cheaper in plain floats


class ContactKind(StrEnum):
    BALL = "ball"
    CUSHION_X = "cushion0"  # a cushion across x (the head or foot cushion)
    CUSHION_Y = "cushion1"  # a side cushion


class Contact(NamedTuple):
    """A contact found in a step: at fraction ``s`` of it, ball ``a`` with ball ``b`` (-1 for a cushion)."""

    s: float
    kind: ContactKind
    a: int
    b: int


class _Step(NamedTuple):
    """What the contact tests of one step read: the state at its start, its length, the pairs tested."""

    p0: np.ndarray
    v0: np.ndarray
    dt: float
    seg: Segment  # the step's start: its modes and, for exact paths, its state
    acc: np.ndarray  # each ball's largest horizontal deceleration at the step's start (StepSize)
    ii: np.ndarray
    jj: np.ndarray


def earliest_first(contacts: list[Contact]) -> list[Contact]:
    """Contacts by time, then by their balls (stable: as found where all three agree)."""
    return sorted(contacts, key=lambda c: (c.s, c.a, c.b))


class ContactFinder:
    def __init__(
        self,
        balls: Balls,
        zones: TableZones,
        sustained: set[tuple[int, int]],
        v_plastic: float,
        params: PhysicsParams,
    ) -> None:
        self.balls = balls
        self.zones = zones
        self.sustained = sustained  # the resolver's sustained pairs (their slow pushes are not contacts)
        self.p = params
        R = balls.R
        # The closing-speed floor in the units of the contact tests (relative velocity . centre offset).
        self.approach_min = APPROACH_MIN * 2.0 * R
        self._plastic_closing = v_plastic * 2.0 * R  # the resolver's v_plastic in the contact tests' units
        self._cpairs_key = b""
        self._cpairs: tuple[Any, Any, list[int]] = (None, None, [])

    def in_step(
        self, p0: np.ndarray, v0: np.ndarray, alive: np.ndarray, dt: float, seg: Segment, acc: np.ndarray
    ) -> list[Contact]:
        """The contacts in a step of ``dt`` from ``p0``, ``v0`` to the balls' present state, earliest first.

        ``seg`` is the step's start (its modes and, for exact paths, its state); ``acc`` each ball's largest
        horizontal deceleration at the step's start (StepSize)."""
        out: list[Contact] = []
        ii, jj, cl = self._pairs(alive)
        if ii is None:
            return out
        if len(ii):
            out += self._ball_contacts(_Step(p0, v0, dt, seg, acc, ii, jj))
        if cl:
            out += self._cushion_contacts(p0, cl)
        return earliest_first(out)

    def _pairs(self, alive: np.ndarray) -> tuple[Any, Any, list[int]]:
        """Pairs (ii, jj) of live balls with a moving one, and the moving cloth balls; (None, None, [])
        when nothing moves. Kept while the modes (before and after the step) hold."""
        mode = self.balls.mode
        key = alive.tobytes() + mode.tobytes()
        if key != self._cpairs_key:
            moved = ((mode == CLOTH) | (mode == BULLET)) & alive
            if not np.count_nonzero(moved):
                self._cpairs = (None, None, [])
            else:
                pi, pj = self.balls.pair_i, self.balls.pair_j
                keep = alive[pi] & alive[pj] & (moved[pi] | moved[pj])
                self._cpairs = (pi[keep], pj[keep], np.flatnonzero(moved & (mode == CLOTH)).tolist())
            self._cpairs_key = key
        return self._cpairs

    def _ball_contacts(self, st: _Step) -> list[Contact]:
        p0, ii, jj, dt = st.p0, st.ii, st.jj, st.dt
        R = self.balls.R
        pos = self.balls.pos
        a0 = p0.take(ii, axis=0) - p0.take(jj, axis=0)
        a1 = pos.take(ii, axis=0) - pos.take(jj, axis=0)
        dd = a1 - a0
        A = (dd * dd).sum(axis=1)
        B = 2.0 * (a0 * dd).sum(axis=1)
        C = (a0 * a0).sum(axis=1) - (2.0 * R) ** 2
        disc = B * B - 4.0 * A * C
        out, found, refine = self._chord_contacts(st, *_chord_candidates(A, B, C, disc))
        # Pairs the chord test cannot judge: close enough at the start for cloth friction to curve
        # their paths into contact within the step, yet not approaching then (a pair touching and
        # separating slowly turns back into itself; the step bound leaves such pairs alone).
        # They are followed on their exact paths.
        near = self._curving(st, a0, C, found)
        if refine:
            near = np.concatenate((near, np.array(refine, dtype=np.intp)))
        if len(near):
            for k, se in zip(near.tolist(), self._recontact(ii[near], jj[near], dt, st.seg), strict=True):
                if se is not None:
                    out.append(Contact(se, ContactKind.BALL, int(ii[k]), int(jj[k])))
        return out

    def _chord_contacts(
        self, st: _Step, cand: list[int], sv: list[float]
    ) -> tuple[list[Contact], set[int], list[int]]:
        """The candidate pairs (indices into ``st.ii``, ``st.jj``, first touch ``sv`` on their chords) that
        touch on their chords approaching, those whose chords are not to be trusted (to refine on their
        exact paths), and both together.

        Only pairs approaching at that instant collide (the same test ball_ball makes); a few pairs, in plain
        floats (a row sum of three is ((x + y) + z) as numpy forms it)."""
        out: list[Contact] = []
        found: set[int] = set()
        refine: list[int] = []
        if not cand:
            return out, found, refine
        dt = st.dt
        pos, vel = self.balls.pos, self.balls.vel
        P0L, PL, V0L, VL = st.p0.tolist(), pos.tolist(), st.v0.tolist(), vel.tolist()
        IIl, JJl = st.ii.tolist(), st.jj.tolist()
        bullet0 = st.seg.mode0 == BULLET
        # A cloth path leaves its chord by up to a dt^2 / 8: where that exceeds CHORD_TOL (a long step,
        # e.g. beside a Bullet ball, or a pair curving back into contact) the chord's time is not
        # trusted and the contact is found on the exact paths (_recontact). Campaign seed 401709: a
        # cue ball driven by its spin into the ball it had just pushed, in a 50 ms step; the chord
        # put the contact 9 ms late, 0.38 mm deep.
        chord_ok = CHORD_TOL / (0.125 * dt * dt)
        acc_l = st.acc.tolist()
        sustained = self.sustained
        for q, k in enumerate(cand):
            s = max(sv[q], 0.0)
            a, b = IIl[k], JJl[k]
            if (
                sv[q] > 0.0
                and not bullet0[a]
                and not bullet0[b]
                and acc_l[a] + acc_l[b] > chord_ok
                and (a, b) not in sustained
            ):
                found.add(k)
                refine.append(k)
                continue
            pa0, pa1, pb0, pb1 = P0L[a], PL[a], P0L[b], PL[b]
            va0, va1, vb0, vb1 = V0L[a], VL[a], V0L[b], VL[b]
            if bullet0[a] or bullet0[b]:
                # A Bullet ball's step is not a path between its start and end velocities (a jaw
                # may have turned it within a substep; its chord is flown at the end velocity):
                # the pair is judged by the velocities the impulse will use (the rewind keeps them).
                va0, vb0 = va1, vb1
            closing = 0.0
            for c in (0, 1, 2):
                nc = (pa0[c] + s * (pa1[c] - pa0[c])) - (pb0[c] + s * (pb1[c] - pb0[c]))
                dvc = (va0[c] + s * (va1[c] - va0[c])) - (vb0[c] + s * (vb1[c] - vb0[c]))
                closing = dvc * nc if c == 0 else closing + dvc * nc
            if closing >= -self.approach_min or (closing > -self._plastic_closing and (a, b) in sustained):
                continue  # a sustained pair's slow push is taken at the step's end (Resolver.sustain)
            found.add(k)
            out.append(Contact(s, ContactKind.BALL, a, b))
        return out, found, refine

    def _curving(self, st: _Step, a0: np.ndarray, C: np.ndarray, found: set[int]) -> np.ndarray:
        """The pairs (indices into ``st.ii``, ``st.jj``) with a cloth ball and no Bullet ball, not approaching
        at the step's start, close enough for the cloth's friction to curve their paths into contact
        (``a0``: their offsets at the start; ``C``: |a0|^2 - (2R)^2; ``found``: pairs already taken)."""
        v0, ii, jj, dt, seg, acc = st.v0, st.ii, st.jj, st.dt, st.seg, st.acc
        R = self.balls.R
        sustained = self.sustained
        reach_max = 2.0 * R + self.p.mu_slide * G * dt * dt
        close = np.nonzero(C < reach_max * reach_max - (2.0 * R) ** 2)[0]
        near = close[:0]
        if 0 < len(close) <= FEW_PAIRS:
            # A few pairs: the same tests in plain floats (a row sum of three is ((x + y) + z) in numpy).
            mode0 = seg.mode0.tolist()
            AC = acc.tolist()
            Cl2 = C.tolist()
            IIl, JJl = ii.tolist(), jj.tolist()
            A0 = a0.tolist()
            V0 = v0.tolist()
            four_r2 = (2.0 * R) ** 2
            sel: list[int] = []
            for k in close.tolist():
                ci_, cj_ = IIl[k], JJl[k]
                m_i, m_j = mode0[ci_], mode0[cj_]
                if m_i == BULLET or m_j == BULLET or (m_i != CLOTH and m_j != CLOTH):
                    continue
                reach_k = 2.0 * R + 0.5 * (AC[ci_] + AC[cj_]) * dt * dt
                if not Cl2[k] < reach_k * reach_k - four_r2:
                    continue
                r0, vi, vj = A0[k], V0[ci_], V0[cj_]
                if (r0[0] * (vi[0] - vj[0]) + r0[1] * (vi[1] - vj[1])) + r0[2] * (vi[2] - vj[2]) >= 0.0:
                    if k not in found and (ci_, cj_) not in sustained:
                        sel.append(k)
            near = np.array(sel, dtype=np.intp)
        elif len(close):
            mode0a = seg.mode0
            ci, cj = ii[close], jj[close]
            reach = 2.0 * R + 0.5 * (acc[ci] + acc[cj]) * dt * dt
            near = close[
                (C[close] < reach * reach - (2.0 * R) ** 2)
                & ((a0[close] * (v0[ci] - v0[cj])).sum(axis=1) >= 0.0)
                & ((mode0a[ci] == CLOTH) | (mode0a[cj] == CLOTH))
                & (mode0a[ci] != BULLET)
                & (mode0a[cj] != BULLET)
            ]
            if found or sustained:
                near = np.array(
                    [
                        k
                        for k in near.tolist()
                        if k not in found and (int(ii[k]), int(jj[k])) not in sustained
                    ],
                    dtype=np.intp,
                )
        return near

    def _recontact(self, ia: np.ndarray, ib: np.ndarray, dt: float, seg: Segment) -> list[float | None]:
        """For each pair (ia[k], ib[k]) of balls on the cloth or at rest at the step's start: the first
        time (as a fraction of ``dt``) at which they come into contact on their exact paths after a
        moment apart, approaching; None if they do not."""
        p0, v0, w0 = seg.p0, seg.v0, seg.w0
        n = len(ia)
        R = self.balls.R
        R2 = (2.0 * R) ** 2
        # The first overlap deeper than OVERLAP_TOL (rounding of a pair rolling in contact is not one)
        # on a grid of 32 instants, then narrowed 16-fold per round; an overlap shorter than a grid
        # interval (dt/32) is at most a (dt/32)^2/8 deep (< 0.02 mm for the longest cloth step).
        tol = -4.0 * R * OVERLAP_TOL

        def gap(a: np.ndarray, b: np.ndarray, ts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            """ts: (pairs, times) -> squared-distance margin, separation and relative velocity."""
            m = ts.size
            idx = np.concatenate((np.repeat(a, ts.shape[1]), np.repeat(b, ts.shape[1])))
            P, V = cloth.motion(p0[idx], v0[idx], w0[idx], np.tile(ts.ravel(), 2), self.p)
            d = P[:m] - P[m:]
            return ((d * d).sum(axis=1) - R2).reshape(ts.shape), d, V[:m] - V[m:]

        grid = dt * GRID
        g, _, _ = gap(ia, ib, np.tile(grid, (n, 1)))
        out: list[float | None] = [None] * n
        for k in np.nonzero((g < tol).any(axis=1))[0].tolist():
            first = int(np.argmax(g[k] < tol))
            lo, hi = (float(grid[first - 1]) if first else 0.0), float(grid[first])
            a, b = ia[k : k + 1], ib[k : k + 1]
            for _ in range(6):
                ts = lo + (hi - lo) * FRACTIONS
                gk = gap(a, b, ts[None, :])[0][0]
                neg = np.nonzero(gk < tol)[0]
                if len(neg):
                    hi = float(ts[neg[0]])
                    if neg[0] > 0:
                        lo = float(ts[neg[0] - 1])
                else:
                    lo = float(ts[-1])
            if lo <= 0.0:
                continue  # overlapping from the start: not a new contact on these paths
            _, d, dv = gap(a, b, np.array([[lo]]))
            if float(d[0] @ dv[0]) < 0.0:
                out[k] = lo / dt
        return out

    def _cushion_contacts(self, p0: np.ndarray, cl: list[int]) -> list[Contact]:
        """Cloth balls reaching a cushion's contact line (per ball in plain floats: a handful of balls)."""
        out: list[Contact] = []
        pos = self.balls.pos
        limx, limy = self.zones.lim_xy
        X0, Y0 = p0[:, 0].tolist(), p0[:, 1].tolist()
        X1, Y1 = pos[:, 0].tolist(), pos[:, 1].tolist()
        # Each line on its own side (a ball may cross the table's middle within the step).
        for i in cl:
            for kind, q0, q1, lq in (
                (ContactKind.CUSHION_X, X0[i], X1[i], limx),
                (ContactKind.CUSHION_Y, Y0[i], Y1[i], limy),
            ):
                if q1 > lq and q1 > q0:
                    out.append(Contact(0.0 if q0 >= lq else (lq - q0) / (q1 - q0), kind, i, -1))
                elif q1 < -lq and q1 < q0:
                    out.append(Contact(0.0 if q0 <= -lq else (-lq - q0) / (q1 - q0), kind, i, -1))
        return out

    def chain(self, fwd: dict[int, float], air: set[int], p0: np.ndarray, dt: float) -> list[Contact]:
        """Ball-ball contacts, within the rest of a Bullet step, of the balls an impulse sent on (``fwd``:
        ball -> the fraction of the step from which it flies at its velocity to its end position, on its
        parabola if it is in ``air``, taken on the parabola's chord) with every other ball (on its chord
        from the step's start, or sent on too)."""
        b = self.balls
        mode, pos, vel = b.mode, b.pos, b.vel
        R2 = (2.0 * b.R) ** 2
        out: list[Contact] = []
        alive = [i for i in range(b.n) if mode[i] != GONE]
        line = {x: chord_velocity(vel[x], (1.0 - sx) * dt, x in air) for x, sx in fwd.items()}
        for x, sx in fwd.items():
            if mode[x] == GONE:
                continue
            vx = line[x] * dt
            cx = pos[x] - vx
            for y in alive:
                if y == x or (y in fwd and y < x):
                    continue
                if y in fwd:
                    vy = line[y] * dt
                    cy = pos[y] - vy
                    lo = max(sx, fwd[y])
                else:
                    vy = pos[y] - p0[y]
                    cy = p0[y]
                    lo = sx
                r0 = cx - cy
                rd = vx - vy
                rl = r0 + lo * rd
                c_lo = float(rl @ rl) - R2
                A = float(rd @ rd)
                if c_lo <= 0.0:
                    s = lo
                elif A > 0.0:
                    B = 2.0 * float(r0 @ rd)
                    disc = B * B - 4.0 * A * (float(r0 @ r0) - R2)
                    if disc < 0.0:
                        continue
                    s = (-B - math.sqrt(disc)) / (2.0 * A)
                    if not lo <= s <= 1.0:
                        continue
                else:
                    continue
                # Approaching there, by the velocities the impulse will use.
                dv = _velocity_at(vel[x], (1.0 - s) * dt, x in air) - (
                    _velocity_at(vel[y], (1.0 - s) * dt, y in air) if y in fwd else vel[y]
                )
                if float((r0 + s * rd) @ dv) >= -self.approach_min:
                    continue
                a, c = (x, y) if x < y else (y, x)
                out.append(Contact(s, ContactKind.BALL, a, c))
        return out


def chord_velocity(v_end: np.ndarray, rest: float, air: bool) -> np.ndarray:
    """The velocity along the chord of a path flown for ``rest`` to its end velocity ``v_end``: the path's
    own for a straight one, the mean g rest / 2 more upwards for a parabola in the air."""
    if not air:
        return v_end
    out = v_end.copy()
    out[2] += 0.5 * G * rest
    return out


def _velocity_at(v_end: np.ndarray, before: float, air: bool) -> np.ndarray:
    """The velocity ``before`` the end of a path flown to ``v_end`` (straight, or on a parabola in the air)."""
    if not air:
        return v_end
    out = v_end.copy()
    out[2] += G * before
    return out


def _chord_candidates(
    A: np.ndarray, B: np.ndarray, C: np.ndarray, disc: np.ndarray
) -> tuple[list[int], list[float]]:
    """The pairs whose chords can touch within the step (overlapping, or approaching with real roots) and
    the first touch s (fraction of the step) of each, in plain floats with the same operations as numpy's."""
    cand: list[int] = []
    sv: list[float] = []
    pre = ((C <= 0.0) | ((disc >= 0.0) & (B < 0.0))).nonzero()[0]
    if len(pre):
        Al, Bl, Cl, Dl = A.tolist(), B.tolist(), C.tolist(), disc.tolist()
        for k in pre.tolist():
            if Cl[k] <= 0.0:
                s_k = 0.0
            elif Al[k] > 0.0:
                d_k = Dl[k]
                s_k = (-Bl[k] - math.sqrt(d_k if d_k > 0.0 else 0.0)) / (2.0 * Al[k])
                if not s_k <= 1.0:
                    continue
            else:
                continue
            cand.append(k)
            sv.append(s_k)
    return cand, sv
