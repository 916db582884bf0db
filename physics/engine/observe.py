"""Events a step's motion makes without changing it: lines crossed, and balls jumped over."""

from __future__ import annotations

import math

import numpy as np

from physics.engine.events import EventLog
from physics.engine.state import BULLET, GONE, Balls
from physics.engine.zones import TableZones


def line_crossings(
    balls: Balls, zones: TableZones, log: EventLog, p0: np.ndarray, idx: np.ndarray, t0: float, dt: float
) -> None:
    """Line crossings in the step, per ball in plain floats (the same differences and tests as a
    vectorised form). A ball whose x did not change crosses nothing (a = b: neither test holds),
    so balls at rest cost a comparison."""
    if not len(idx) or not zones.lines:
        return
    pos = balls.pos
    X0, X1 = p0[:, 0].tolist(), pos[:, 0].tolist()
    for i in idx.tolist():
        x0, x1 = X0[i], X1[i]
        if x0 == x1:
            continue
        for li, lx in enumerate(zones.line_xs):
            a = x0 - lx
            b = x1 - lx
            if a * b < 0.0 or (a != 0.0 and b == 0.0):
                f = a / (a - b)
                at = p0[i] + f * (pos[i] - p0[i])
                log.line_crossed(
                    t0 + f * dt,
                    i,
                    zones.lines[li][0],
                    (round(float(at[0]), 6), round(float(at[1]), 6), round(float(at[2]), 6)),
                )


def jumps_over(balls: Balls, log: EventLog, t: float) -> None:
    """jumped_over: a flier's outline passes over another ball's outline (plan view) without touching."""
    b = balls
    if not np.count_nonzero(b.flying):
        return
    R = b.R
    # In plain floats (numpy's per-element indexing was most of the cost; the same differences).
    P = b.pos.tolist()
    fl = np.nonzero(b.flying & (b.mode == BULLET))[0].tolist()
    alive = np.nonzero(b.mode != GONE)[0].tolist()
    for i in fl:
        xi, yi, zi = P[i]
        for j in alive:
            if j == i:
                continue
            key = (i, j)
            xj, yj, zj = P[j]
            dxy = math.hypot(xi - xj, yi - yj)
            if dxy < 2.0 * R and zi > zj:
                if key not in b.over:
                    b.over[key] = True
            elif key in b.over:
                clean = key not in b.hit_in_flight
                del b.over[key]
                if clean:
                    log.jumped_over(t, i, j)
