"""The stroke: from the player's cue to the ball's motion as it leaves the tip and the slate.

The tip's impulse (Dr. Dave TP A.30, generalised to 3D): the tip meets the ball at a point offset from
the cue axis through the ball centre by ``tip`` (right, up) radii. Within the friction cone the tip grips,
so the impulse is along the cue; its size follows from the cue mass, the tip's restitution and the ball's
effective mass at the contact point along the cue:

    F = (1 + e_tip) g / (1/M + (1 + (5/2) rho^2) / m),   g = the speed at which the tip gains on that point

(for a ball at rest v = F/m = (1+e)V / (1 + m/M + 5/2 rho^2)). Its moment sets the spin.

Squirt (TP A.31): the shaft's end mass m_e gives way sideways, and the ball takes the lateral impulse
T = F tan(alpha), tan(alpha) = (5/2) rho sqrt(1-rho^2) / (1 + m/m_e + (5/2)(1-rho^2)), away from the side of
the offset. The end mass is the same in every direction across the shaft, so the push lies in the plane of
the cue and the offset: sideways for side (right English sends the ball left) and, for follow or draw,
across the cue in the vertical plane ("vertical squirt"): a follow stroke drives the ball into the slate
harder than a draw at the same elevation, and its hop is higher; a draw with a level cue lifts the ball by
that much (a rise below ``min_bounce`` stays on the cloth).

The slate and the tip's later impulses (docs/strike.md): an elevated cue drives the ball into the slate,
which sends it back up with e_table (TP B.10, docs/physics.md §Flight) while the tip is still on it: the ~1 ms tip
contact holds the tip, ball and slate impacts together. The cue keeps moving along its axis after the first
impulse (V - F/M); where it still gains on the rebounding ball along the axis, what the tip does depends on
how the ball moves across the axis, seen from the tip:

* inside the tip's friction cone (across <= mu_tip times the gain along the axis: the rebound comes back up
  the cue, a massé struck nearly straight down) the tip holds the ball: another impulse along the cue with
  the cue's mass, as the first, and the slate answers through the centre without friction (the ball is held
  by the chalked tip, Coriolis' massé, TP A.19), and so on while the cue gains on it. The ball is pinned;
* outside it (the rebound runs across the axis, as in every jump from 40 to ~75 degrees) the ball slides
  across the tip's face and pushes it aside. Across the axis only the shaft's end mass m/ratio takes part
  (what sets squirt, TP A.31), and a shaft bent by it carries no axial load beyond its end mass over the
  fraction of a millisecond the rebound takes (a pool shaft buckles statically at ~0.3 kN; the tip's force is
  kilonewtons): one impact along the cue's line through the contact point, with the tip's restitution and the
  end mass behind it; then the tip is off the ball.

A light jump cue is mostly stopped by the first impulse; a heavy cue gains more on the rebound and holds it
from a lower elevation (pool: from ~72 degrees for the playing cue, ~76 for the jump cue). Every tip impulse
lies on the cue line, and the slate's friction and normal push act at the ball's lowest point, so the
direction the ball finally rolls in, (5/7) v0 - (2/7) R (z x w0), is Coriolis' whatever the tip did: from
where the ball rests towards where the cue line meets the cloth (TP A.19). The impulses all fall within the
one tip contact: the stroke's record counts it as one contact (``cue_strike.contacts``); a later meeting of
the tip with the ball, in the follow-through, is another (physics.engine).

Scoop and miscue limit: physics.tip (the scoop is where the tip meets the cloth with the ball, the miscue
limit where the impulse leaves the tip's friction cone, about 0.55 R).

Miscue: beyond the friction limit the tip slides off; the
impulse then lies on the edge of the friction cone around the contact normal, with the normal
impact's restitution: the ball gets a weak push, mostly through its centre, and little spin. The
tip is off the ball: it meets the slate as a free ball.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from physics.collide import slate_bounce
from physics.params import G, PhysicsParams
from physics.tip import squirt_tan as _squirt_tan
from physics.tip import tip_clearance

# Impulses within one tip contact (tip and slate): a pinned massé takes a handful; the cap only bounds a stroke
# whose cue keeps gaining on the ball by ever smaller amounts.
MAX_CONTACTS = 64
GAIN_EPS = 1e-9  # m/s: a tip gaining on the ball more slowly than this does not meet it again


@dataclass(frozen=True)
class Strike:
    v: tuple[float, float, float]  # the ball as it leaves the stroke (tip and slate)
    w: tuple[float, float, float]
    miscue: bool
    scoop: bool
    speed: float  # ball speed right after the tip's first impulse, before the slate reacts
    contacts: int = (
        1  # the tip's impulses within its one contact: more than one where it met the ball's rebound
    )
    cue_after: float = 0.0  # the cue's speed along its axis as it leaves the ball (negative: it recoils)


def cue_frame(direction_deg: float, elevation_deg: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit vectors: d along the cue (towards and into the ball), right, up (perpendicular to d)."""
    phi, th = math.radians(direction_deg), math.radians(elevation_deg)
    d = np.array([math.cos(phi) * math.cos(th), math.sin(phi) * math.cos(th), -math.sin(th)])
    right = np.array([math.sin(phi), -math.cos(phi), 0.0])  # +y is left looking along +x
    up = np.cross(right, d)
    return d, right, up


def ball_speed(cue_speed: float, rho: float, p: PhysicsParams) -> float:
    """Ball speed along the cue off the tip's first impulse, for a non-miscue strike at offset rho (radii)."""
    return (1.0 + p.tip_e) * cue_speed / (1.0 + p.m / p.cue_mass + 2.5 * rho * rho)


def cue_speed_for(ball_v: float, rho: float, p: PhysicsParams) -> float:
    """Inverse of :func:`ball_speed`: the cue speed that gives the ball ``ball_v``."""
    return ball_v * (1.0 + p.m / p.cue_mass + 2.5 * rho * rho) / (1.0 + p.tip_e)


def squirt_tan(rho: float, p: PhysicsParams) -> float:
    """tan of the squirt angle for an offset of ``rho`` radii (TP A.31): lateral over axial impulse."""
    return _squirt_tan(rho, p.squirt_mass_ratio)


def is_scoop(tip: tuple[float, float], elevation_deg: float, p: PhysicsParams) -> bool:
    """The tip meets the cloth with the ball or gets under it: its lowest point is at or below the cloth
    as it meets the ball (physics.tip)."""
    return tip_clearance(tip, elevation_deg, p.R, p.tip_radius, p.tip_width) <= 0.0


def squirt_angle(side: float, p: PhysicsParams) -> float:
    """Squirt angle in radians for a side offset in radii (positive: right English, ball goes left)."""
    return math.copysign(math.atan(squirt_tan(side, p)), side)


def strike(
    cue_speed: float, direction_deg: float, elevation_deg: float, tip: tuple[float, float], p: PhysicsParams
) -> Strike:
    """The ball's velocity and spin as the stroke leaves it (module docstring): the tip, the slate under the
    ball and the tip's later impulses. A ball that leaves it rising at least ``min_bounce`` high flies."""
    R = p.R
    d, right, up = cue_frame(direction_deg, elevation_deg)
    a, b = float(tip[0]), float(tip[1])
    rho = math.hypot(a, b)
    offset = a * right + b * up  # the contact's offset across the cue, in radii
    contact = R * offset - d * R * math.sqrt(max(0.0, 1.0 - rho * rho))  # relative to the centre
    scoop = is_scoop((a, b), elevation_deg, p)
    miscue = rho > p.miscue_limit
    zero = (0.0, 0.0, 0.0)
    if cue_speed <= 0.0:
        return Strike(zero, zero, miscue, scoop, 0.0, 0, 0.0)
    if miscue:
        v, w = _miscue(cue_speed, d, contact, p)
        speed = float(np.linalg.norm(v))
        v, w, _ = slate_bounce(v, w, p)
        return Strike(_t(_settled(v, p)), _t(w), True, scoop, speed, 1, 0.0)
    # Per unit of axial impulse: the ball's velocity (along the cue, and the squirt away from the offset).
    push = d - (squirt_tan(rho, p) / rho) * offset if rho > 0.0 else d
    return _pinch(cue_speed, d, push, contact, rho, scoop, p)


def _pinch(
    cue_speed: float,
    d: np.ndarray,
    push: np.ndarray,
    contact: np.ndarray,
    rho: float,
    scoop: bool,
    p: PhysicsParams,
) -> Strike:
    """The tip's impulses and the slate's answers in turn, while the tip is on the ball (module docstring)."""
    m, inertia, M = p.m, p.inertia, p.cue_mass
    end_mass = m / p.squirt_mass_ratio
    k = 1.0 / M + (1.0 + 2.5 * rho * rho) / m  # contact point's speed along d per unit impulse along d
    v = np.zeros(3)
    w = np.zeros(3)
    tip = cue_speed * d  # the tip's velocity: the cue's along its axis, the end mass's across it
    impulses = 0
    gripped = False
    speed = 0.0
    cue = cue_speed
    for _ in range(MAX_CONTACTS):
        rel = v + np.cross(w, contact) - tip  # the ball's contact point, seen from the tip
        gain = -float(np.dot(rel, d))
        across = rel + gain * d
        if gain > GAIN_EPS and (impulses == 0 or float(np.linalg.norm(across)) <= p.tip_mu * gain):
            # The tip grips: the impulse along the cue (TP A.30), the squirt across it (TP A.31).
            f = (1.0 + p.tip_e) * gain / k
            v = v + push * (f / m)
            w = w + np.cross(contact, d * f) / inertia
            tip = tip - d * (f / M) - (push - d) * (f / end_mass)
            gripped = impulses > 0 or gripped
            impulses += 1
            if impulses == 1:
                speed = float(np.linalg.norm(v))
        elif gain > GAIN_EPS:
            cue = float(np.dot(tip, d))  # the cue behind the end mass keeps its speed
            v, w, tip = _slide_off(v, w, tip, rel, d, contact, end_mass, p)
            impulses += 1
            if v[2] < 0.0:
                v, w = _slate(v, w, p, pinched=False)
            break
        elif v[2] >= 0.0:
            break
        if v[2] < 0.0:
            v, w = _slate(v, w, p, pinched=gripped or _grips(v, w, tip, contact, d, p))
        cue = float(np.dot(tip, d))
    return Strike(_t(_settled(v, p)), _t(w), False, scoop, speed, impulses, cue)


def _grips(
    v: np.ndarray, w: np.ndarray, tip: np.ndarray, contact: np.ndarray, d: np.ndarray, p: PhysicsParams
) -> bool:
    """Would the tip grip the ball once the slate had sent it back up (it gains on it along the cue, and the
    ball's motion across the cue stays inside the tip's friction cone)?"""
    rebound = v.copy()
    rebound[2] = -p.e_table * float(v[2])
    rel = rebound + np.cross(w, contact) - tip
    gain = -float(np.dot(rel, d))
    return gain > GAIN_EPS and float(np.linalg.norm(rel + gain * d)) <= p.tip_mu * gain


def _slate(v: np.ndarray, w: np.ndarray, p: PhysicsParams, pinched: bool) -> tuple[np.ndarray, np.ndarray]:
    """The slate's answer: held by the tip, through the centre without friction (TP A.19); free, TP B.10."""
    if pinched:
        v = v.copy()
        v[2] = -p.e_table * float(v[2])
        return v, w
    v, w, _ = slate_bounce(v, w, p)
    return v, w


def _slide_off(
    v: np.ndarray,
    w: np.ndarray,
    tip: np.ndarray,
    rel: np.ndarray,
    d: np.ndarray,
    contact: np.ndarray,
    end_mass: float,
    p: PhysicsParams,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ball moving across the cue's axis faster than the tip's friction holds it: it slides across the
    tip's face and pushes the tip aside (module docstring). Only the end mass takes part: the impact along the
    cue's line through the contact point with the tip's restitution; then the tip is off the ball."""
    m, inertia = p.m, p.inertia
    gain = -float(np.dot(rel, d))
    rn = np.cross(contact, d)
    jn = (1.0 + p.tip_e) * gain / (1.0 / m + float(np.dot(rn, rn)) / inertia + 1.0 / end_mass)
    v = v + d * (jn / m)
    w = w + rn * (jn / inertia)
    tip = tip - d * (jn / end_mass)
    return v, w, tip


def _miscue(
    cue_speed: float, d: np.ndarray, contact: np.ndarray, p: PhysicsParams
) -> tuple[np.ndarray, np.ndarray]:
    """The tip sliding off: the impulse on the friction cone's edge around the inward contact normal."""
    R, m, inertia = p.R, p.m, p.inertia
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
    return J * k / m, np.cross(contact, J * k) / inertia


def _settled(v: np.ndarray, p: PhysicsParams) -> np.ndarray:
    """A ball leaving the stroke rising lower than ``min_bounce`` stays on the cloth (the Zeno guard of
    collide.slate_bounce)."""
    if 0.0 < v[2] and float(v[2]) ** 2 / (2.0 * G) < p.min_bounce:
        v = v.copy()
        v[2] = 0.0
    return v


def _t(x: np.ndarray) -> tuple[float, float, float]:
    return (float(x[0]), float(x[1]), float(x[2]))
