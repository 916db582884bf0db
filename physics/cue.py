"""The cue strike: from the player's stroke to the ball's linear and angular velocity.

Model (Dr. Dave TP A.30, generalised to 3D): the tip meets the ball at a point offset from the
cue axis through the ball centre by ``tip`` (right, up) radii. Within the friction cone the tip
does not slip, so the impulse is along the cue; its size follows from the cue mass, the tip's
restitution and the ball's effective mass at the contact point:

    J = (1 + e_tip) V / (1/M + 1/m + (5/2) rho^2 / m)   ->   v = J/m = (1+e)V / (1 + m/M + 5/2 rho^2)

An elevated cue gives the ball a velocity *into* the slate; the engine resolves that with the
slate bounce, which is what makes jump shots (nothing here lifts the ball).

Squirt (TP A.31): the cue's end mass is pushed sideways by an off-centre hit, so the ball leaves
at an angle away from the side of the offset.

Miscue: beyond the friction limit mu/sqrt(1+mu^2) (~0.51 R for mu 0.6) the tip slides off; the
impulse then lies on the edge of the friction cone around the contact normal, with the normal
impact's restitution: the ball gets a weak push, mostly through its centre, and little spin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from physics.params import PhysicsParams

# Below this elevation the cue counts as level for the scoop call: every real cue is raised a few
# degrees over the rail (physics.md §3.5, [SIMPSON]).
SCOOP_MIN_ELEVATION_DEG = 5.0


@dataclass(frozen=True)
class Strike:
    v: tuple[float, float, float]
    w: tuple[float, float, float]
    miscue: bool
    scoop: bool
    speed: float  # ball speed right after the tip leaves it, before the slate reacts


def cue_frame(direction_deg: float, elevation_deg: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit vectors: d along the cue (towards and into the ball), right, up (perpendicular to d)."""
    phi, th = math.radians(direction_deg), math.radians(elevation_deg)
    d = np.array([math.cos(phi) * math.cos(th), math.sin(phi) * math.cos(th), -math.sin(th)])
    right = np.array([math.sin(phi), -math.cos(phi), 0.0])  # +y is left looking along +x
    up = np.cross(right, d)
    return d, right, up


def ball_speed(cue_speed: float, rho: float, p: PhysicsParams) -> float:
    """Ball speed for a non-miscue strike at offset rho (radii)."""
    return (1.0 + p.tip_e) * cue_speed / (1.0 + p.m / p.cue_mass + 2.5 * rho * rho)


def cue_speed_for(ball_v: float, rho: float, p: PhysicsParams) -> float:
    """Inverse of :func:`ball_speed`: the cue speed that gives the ball ``ball_v``."""
    return ball_v * (1.0 + p.m / p.cue_mass + 2.5 * rho * rho) / (1.0 + p.tip_e)


def squirt_angle(side: float, p: PhysicsParams) -> float:
    """Squirt angle in radians for a side offset in radii (positive: right English, ball goes left)."""
    b = side
    c = max(0.0, 1.0 - b * b)
    return math.atan(2.5 * b * math.sqrt(c) / (1.0 + p.squirt_mass_ratio + 2.5 * c))


def strike(
    cue_speed: float, direction_deg: float, elevation_deg: float, tip: tuple[float, float], p: PhysicsParams
) -> Strike:
    R, m, inertia = p.R, p.m, p.inertia
    d, right, up = cue_frame(direction_deg, elevation_deg)
    a, b = float(tip[0]), float(tip[1])
    rho = math.hypot(a, b)
    q = R * (a * right + b * up)  # offset perpendicular to the cue
    contact = q - d * R * math.sqrt(max(0.0, 1.0 - rho * rho))  # contact point relative to the centre
    scoop = b < 0.0 and elevation_deg >= SCOOP_MIN_ELEVATION_DEG
    miscue = rho > p.miscue_limit
    if cue_speed <= 0.0:
        return Strike((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), miscue, scoop, 0.0)
    if not miscue:
        vb = ball_speed(cue_speed, rho, p)
        J = m * vb
        v = vb * d
        w = np.cross(contact, J * d) / inertia
        if a != 0.0:
            # Rotate the velocity about the cue's "up" axis, away from the offset side (right English: left).
            alpha = squirt_angle(a, p)
            k = up
            v = (
                v * math.cos(alpha)
                + np.cross(k, v) * math.sin(alpha)
                + k * float(np.dot(k, v)) * (1.0 - math.cos(alpha))
            )
        return Strike(_t(v), _t(w), False, scoop, vb)
    # Miscue: impulse on the friction cone's edge around the inward contact normal.
    n = -contact / R  # into the ball
    dn = float(np.dot(d, n))
    tang = d - dn * n
    tl = float(np.linalg.norm(tang))
    t_hat = tang / tl if tl > 1e-12 else np.zeros(3)
    k = n + p.tip_mu * t_hat
    k = k / float(np.linalg.norm(k))
    # Contact-point velocity along n per unit impulse along k.
    resp = float(np.dot(n, k / m + np.cross(np.cross(contact, k) / inertia, contact)))
    J = (1.0 + p.tip_e) * cue_speed * dn / (1.0 / p.cue_mass + resp)
    v = J * k / m
    w = np.cross(contact, J * k) / inertia
    return Strike(_t(v), _t(w), True, scoop, float(np.linalg.norm(v)))


def _t(x: np.ndarray) -> tuple[float, float, float]:
    return (float(x[0]), float(x[1]), float(x[2]))
