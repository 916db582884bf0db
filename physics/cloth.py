"""Exact motion of balls on the cloth (physics.md §3.1), vectorised over balls.

A ball on the cloth slides while its contact point slips: kinetic friction mu_s m g opposes the
slip u, whose direction stays fixed, so u shrinks linearly and reaches zero after
2|u0| / (7 mu_s g). Then it rolls: the centre decelerates at mu_r g until it stops. Spin about
the vertical decays at spin_decel (rad/s^2), independently. Solving this in closed form instead
of integrating it makes slide distances, roll-outs and stop times exact, and lets balls that are
far from anything advance in one step.
"""

from __future__ import annotations

import numpy as np

from physics.params import G, PhysicsParams

EPS_V = 1e-9


def slip(v: np.ndarray, w: np.ndarray, R: float) -> np.ndarray:
    """Contact-point velocity (x, y) of balls on the cloth: v + w x (-R z)."""
    return np.stack((v[:, 0] - R * w[:, 1], v[:, 1] + R * w[:, 0]), axis=1)


def speed_bound(v: np.ndarray, w: np.ndarray, R: float) -> np.ndarray:
    """Upper bound of each ball's horizontal speed from now on (cloth friction only slows the slip:
    v moves in a straight line from v0 to the rolling velocity v0 - 2/7 u0)."""
    u = slip(v, w, R)
    v2 = v[:, :2]
    return np.maximum(np.hypot(v2[:, 0], v2[:, 1]), np.hypot(*(v2 - (2.0 / 7.0) * u).T))


def advance(pos: np.ndarray, v: np.ndarray, w: np.ndarray, dt: float, p: PhysicsParams
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Advance balls on the cloth by ``dt``. Returns (pos, v, w, stop) where ``stop`` is the time
    within the step at which each ball came fully to rest (inf if it is still moving)."""
    R = p.R
    mus, mur = p.mu_slide * G, p.mu_roll * G
    u = slip(v, w, R)
    us = np.hypot(u[:, 0], u[:, 1])
    safe = np.where(us > EPS_V, us, 1.0)
    uh = u / safe[:, None]
    uh[us <= EPS_V] = 0.0
    t_slide = 2.0 * us / (7.0 * mus)
    t1 = np.minimum(t_slide, dt)
    v2 = v[:, :2]
    # Sliding phase.
    pos_xy = pos[:, :2] + v2 * t1[:, None] - 0.5 * mus * uh * (t1 * t1)[:, None]
    v_xy = v2 - mus * uh * t1[:, None]
    k = 2.5 * mus / R * t1
    wx = w[:, 0] - uh[:, 1] * k      # dw/dt = (5 mu g / 2R) (z x u_hat), z x u = (-u_y, u_x)
    wy = w[:, 1] + uh[:, 0] * k
    # Rolling phase for the rest of the step.
    t2 = dt - t1
    rolling = t2 > 0.0
    s = np.hypot(v_xy[:, 0], v_xy[:, 1])
    sh = np.where(s > EPS_V, s, 1.0)
    vh = v_xy / sh[:, None]
    t_roll = s / mur
    t2c = np.minimum(t2, t_roll)
    dist = s * t2c - 0.5 * mur * t2c * t2c
    s_end = np.maximum(s - mur * t2c, 0.0)
    s_end[t2c >= t_roll] = 0.0
    pos_xy = np.where(rolling[:, None], pos_xy + vh * dist[:, None], pos_xy)
    v_roll = vh * s_end[:, None]
    v_xy = np.where(rolling[:, None], v_roll, v_xy)
    wx = np.where(rolling, -v_xy[:, 1] / R, wx)
    wy = np.where(rolling, v_xy[:, 0] / R, wy)
    # Spin about the vertical.
    wz = w[:, 2]
    t_spin = np.abs(wz) / p.spin_decel
    wz2 = np.where(t_spin <= dt, 0.0, wz - np.sign(wz) * p.spin_decel * dt)
    # When did everything stop?
    t_lin = np.where(rolling & (t2 >= t_roll), t_slide + t_roll, np.inf)
    stop = np.where(np.isfinite(t_lin) & (t_spin <= dt), np.maximum(t_lin, t_spin), np.inf)
    n = len(pos)
    out_pos = np.empty((n, 3))
    out_pos[:, :2] = pos_xy
    out_pos[:, 2] = pos[:, 2]
    out_v = np.zeros((n, 3))
    out_v[:, :2] = v_xy
    out_w = np.stack((wx, wy, wz2), axis=1)
    return out_pos, out_v, out_w, stop
