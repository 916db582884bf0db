"""Samples observe a stroke and never change it: steps are never cut for them.

Cloth balls are sampled on their closed form inside a step, Bullet balls at the substep next to each
instant (Bullet calls leave no time over, so splitting a step's substeps into several calls integrates bit
for bit alike), and a ball an impulse or a landing changed inside a step from the knots recorded as it
happened.
"""

from __future__ import annotations

import math

import numpy as np

from physics import cloth
from physics.engine.bullet import BodyState
from physics.engine.freeroll import rolled
from physics.engine.state import CLOTH, GONE, Balls, Segment
from physics.params import G, PhysicsParams
from physics.record import ROW, SampleRows

Knot = tuple[float, np.ndarray, np.ndarray, np.ndarray, str]  # time, state, how it moves on from there


class Sampler:
    def __init__(self, balls: Balls, params: PhysicsParams, sample_hz: float | None) -> None:
        self.balls = balls
        self.p = params
        self.h = 1.0 / params.substep_hz
        self.dt = 1.0 / sample_hz if sample_hz else None
        self.samples: dict[str, SampleRows] | None = (
            {b: SampleRows() for b in balls.ids} if sample_hz else None
        )
        self.next = 0.0
        # Balls whose path inside the step is not the cloth's closed form from the step's start get knots
        # (time, state, how it moves on) as it happens; Bullet balls' states at substeps are captured.
        self.knots: dict[int, list[Knot]] = {}
        self.captured: dict[int, dict[int, BodyState]] = {}

    def start_step(self) -> None:
        self.knots = {}
        self.captured = {}

    def knot(self, i: int, t: float, kind: str) -> None:
        if self.dt is not None and i >= 0:
            b = self.balls
            self.knots.setdefault(i, []).append((t, b.pos[i].copy(), b.vel[i].copy(), b.omg[i].copy(), kind))

    def capture_at(self, t0: float, k: int) -> list[int]:
        """The substeps of a Bullet step of ``k`` substeps from ``t0`` that end next to a sample instant."""
        js: list[int] = []
        if self.dt is not None:
            h = self.h
            ts = self.next
            while ts < t0 + k * h - 1e-12:
                j = max(1, math.ceil((ts - t0) / h - 1e-9))
                if j < k and (not js or js[-1] != j):
                    js.append(j)
                ts += self.dt
        return js

    def first(self, t: float) -> None:
        """The rows at the stroke's start."""
        if self.samples is None or self.dt is None:
            return
        b = self.balls
        self._rows(t, b.pos, b.vel, b.omg, b.mode)
        while self.next <= t + 1e-12:
            self.next += self.dt

    def _rows(self, t: float, pos: np.ndarray, vel: np.ndarray, omg: np.ndarray, mode: np.ndarray) -> None:
        self._rows_at(np.array((t,)), pos[None], vel[None], omg[None], mode)

    def _rows_at(
        self, ts: np.ndarray, pos: np.ndarray, vel: np.ndarray, omg: np.ndarray, mode: np.ndarray
    ) -> None:
        """Rows at the instants ``ts`` (k) from the states ``pos``, ``vel``, ``omg`` (k x balls x 3)."""
        assert self.samples is not None
        pocket = self.balls.pocket
        block = np.empty((len(ts), self.balls.n, ROW))
        block[:, :, 0] = ts[:, None]
        block[:, :, 1:4] = pos
        block[:, :, 4:7] = vel
        block[:, :, 7:10] = omg
        # Every number of every row rounded at once (x 1e6, to the nearest integer, / 1e6: the double
        # nearest the rounded decimal, as round(x, 6) gives but for exact ties); one round() per number
        # and one append per row were most of a long stroke's cost at 100 Hz (22 balls for 24 s: half a
        # million calls, 0.7 s).
        r = np.round(block, 6)
        samples = self.samples
        for i, b in enumerate(self.balls.ids):
            rows = samples[b]
            if mode[i] == GONE and i in pocket:
                if not rows:
                    rows.extend_flat(r[0, i].tolist())  # a pocketed ball keeps only its first row
                continue
            rows.extend_doubles(r[:, i, :])

    def within(self, t: float, seg: Segment) -> None:
        """Rows for every sample instant passed in the step from ``seg`` to ``t``.

        In a step without Bullet balls the cloth balls' states at those instants are exact (the
        closed-form motion from the step's start). In a step with Bullet balls the rows are taken at
        the substep that ends next to each instant (Bullet balls as Bullet had them there, the others
        from their closed form or their knots), one row per substep at most.
        """
        assert self.dt is not None
        t0, p0, v0, w0, cl, mode0, pure = seg
        b = self.balls
        inside: list[float] = []
        h = self.h
        last = None
        # The rows of a step with Bullet balls, in order, written together (each row written alone cost
        # numpy's per-call overhead: a fifth of the campaign's CPU was in the samples).
        rows: list[tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        while self.next <= t + 1e-12:
            ts = self.next
            self.next += self.dt
            if ts < t - 1e-12 and pure:
                inside.append(ts)
                continue
            self._flush_inside(inside, seg)
            inside = []
            j = max(1, math.ceil((ts - t0) / h - 1e-9))
            if ts >= t - 1e-12 or j not in self.captured:
                if last != -1:
                    rows.append((t, b.pos, b.vel, b.omg, b.mode))
                last = -1
            elif j != last:
                last = j
                rows.append(self._mixed_row(t0 + j * h, j, seg))
        self._flush_rows(rows)
        self._flush_inside(inside, seg)

    def _flush_rows(self, rows: list[tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]) -> None:
        """Write ``rows`` (time, state, modes) in order, each run of rows with the same modes at once."""
        k = 0
        while k < len(rows):
            mode = rows[k][4]
            e = k + 1
            while e < len(rows) and rows[e][4] is mode:
                e += 1
            run = rows[k:e]
            self._rows_at(
                np.array([r[0] for r in run]),
                np.stack([r[1] for r in run]),
                np.stack([r[2] for r in run]),
                np.stack([r[3] for r in run]),
                mode,
            )
            k = e

    def _mixed_row(
        self, t: float, j: int, seg: Segment
    ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One row at substep ``j`` of a step with Bullet balls."""
        p0, v0, w0, mode0 = seg.p0, seg.v0, seg.w0, seg.mode0
        pos, vel, omg = p0.copy(), v0.copy(), w0.copy()
        cap = self.captured[j]
        on_cloth: list[int] = []  # balls on their closed form from the step's start, advanced together
        for i, m in enumerate(mode0.tolist()):
            knot = None
            for k in self.knots.get(i, ()):
                if k[0] <= t + 1e-12:
                    knot = k
            if knot is not None:
                tk, pk, vk, wk, kind = knot
                tau = t - tk
                if kind == "linear":
                    pos[i], vel[i], omg[i] = pk + vk * tau, vk, wk
                elif kind == "roll":
                    pos[i], vel[i], omg[i] = rolled(pk, vk, wk, tau, self.p)
                elif kind == "ballistic":
                    g = np.array([0.0, 0.0, -G])
                    pos[i], vel[i], omg[i] = pk + vk * tau + 0.5 * g * tau * tau, vk + g * tau, wk
                else:
                    ((pos[i], vel[i], omg[i]),) = cloth.advance_rows(
                        [pk.tolist()], [vk.tolist()], [wk.tolist()], tau, self.p
                    )
            elif i in cap:
                pos[i], vel[i], omg[i] = cap[i]
            elif m == CLOTH:
                on_cloth.append(i)
        if on_cloth:
            rows = cloth.advance_rows(
                p0[on_cloth].tolist(), v0[on_cloth].tolist(), w0[on_cloth].tolist(), t - seg.t0, self.p
            )
            pos[on_cloth] = [r[0] for r in rows]
            vel[on_cloth] = [r[1] for r in rows]
            omg[on_cloth] = [r[2] for r in rows]
        return t, pos, vel, omg, mode0

    def _flush_inside(self, times: list[float], seg: Segment) -> None:
        if not times:
            return
        t0, p0, v0, w0, cl, mode0, _pure = seg
        k, n = len(times), len(cl)
        pos = np.repeat(p0[None], k, axis=0)
        vel = np.repeat(v0[None], k, axis=0)
        omg = np.repeat(w0[None], k, axis=0)
        if n:
            # All instants at once: the closed form takes a step length per row.
            dts = np.repeat(np.array(times) - t0, n)
            P, V, W, _ = cloth.advance(
                np.tile(p0[cl], (k, 1)), np.tile(v0[cl], (k, 1)), np.tile(w0[cl], (k, 1)), dts, self.p
            )
            pos[:, cl] = P.reshape(k, n, 3)
            vel[:, cl] = V.reshape(k, n, 3)
            omg[:, cl] = W.reshape(k, n, 3)
        self._rows_at(np.array(times), pos, vel, omg, mode0)
