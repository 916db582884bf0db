"""Analytic impulses: ball-ball and ball-slate (the cushion's impact is ``physics.cushion``).

Bullet's own contact solver is wrong for these (docs/physics.md §Bullet: product-combined restitution,
restitution zeroed below 0.2 m/s, and penetration recovery that *adds* energy — measured here:
a ball dropped on a Bullet box with e 0.5 at 1 kHz leaves with 0.55-0.69). These impulses are
exact for rigid spheres with Coulomb friction and never add energy.
"""

from __future__ import annotations

import math

import numpy as np

from physics.params import G, PhysicsParams

Vec = np.ndarray


def _cross(a: Vec, b: Vec) -> Vec:
    """a x b for 3-vectors (np.cross's own arithmetic, without its ~10 us of generic overhead)."""
    a0, a1, a2 = float(a[0]), float(a[1]), float(a[2])
    b0, b1, b2 = float(b[0]), float(b[1]), float(b[2])
    return np.array((a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0))


def norm(a: Vec) -> float:
    """|a| of a 3-vector exactly as np.linalg.norm computes it (sqrt of a.dot(a)), without its ~5 us
    of generic dispatch."""
    return math.sqrt(float(a.dot(a)))


_norm = norm


def _friction_impulse(slip: Vec, jn: float, mu: float, k_t: float) -> Vec:
    """Coulomb friction impulse opposing ``slip`` (tangential contact velocity).

    ``k_t`` is the contact point's velocity change per unit tangential impulse; the impulse stops
    the slip if the cone allows it (stick), otherwise it is mu * jn (slide).
    """
    s = _norm(slip)
    if s < 1e-12 or jn <= 0.0:
        return np.zeros(3)
    j = min(mu * jn, s / k_t)
    return -j * slip / s


def surface_impulse(v: Vec, w: Vec, n: Vec, jn: float, mu: float, p: PhysicsParams) -> tuple[Vec, Vec]:
    """A normal impulse ``jn`` (N s) from a fixed surface whose unit normal ``n`` points to the ball, with
    Coulomb friction up to ``mu * jn`` against the contact point's slip (limited to stopping it), as the
    slate bounce has: the rebound the engine adds to Bullet's plastic contacts (engine.hooks.BulletHooks.tick)."""
    m, R, inertia = p.m, p.R, p.inertia
    r = -R * n
    u = v + _cross(w, r)
    slip = u - float(u @ n) * n
    J = jn * n + _friction_impulse(slip, jn, mu, 1.0 / m + R * R / inertia)
    return v + J / m, w + _cross(r, J) / inertia


def ball_ball(
    pa: Vec, va: Vec, wa: Vec, pb: Vec, vb: Vec, wb: Vec, p: PhysicsParams, e: float | None = None
) -> tuple[Vec, Vec, Vec, Vec] | None:
    """Collision of two equal balls touching at ``pa``/``pb``; None if they are not approaching.

    Normal: restitution ``e`` (default e_ball; 0 for a sustained push, see engine.resolve.Resolver).
    Tangential: friction at the contact point against the slip, which falls along a fixed direction through
    the impact (for two equal solid spheres the tangential effective mass is m/7) and may stop
    (:func:`ball_friction`).
    """
    d = pb - pa
    dist = _norm(d)
    if dist < 1e-12:
        return None
    n = d / dist  # from a to b
    vrel_n = float(np.dot(va - vb, n))  # > 0: approaching
    if vrel_n <= 0.0:
        return None
    m, R, inertia = p.m, p.R, p.inertia
    jn = (1.0 + (p.e_ball if e is None else e)) * vrel_n * m / 2.0
    # Contact-point velocities (a's surface at +R n, b's at -R n).
    ua = va + _cross(wa, R * n)
    ub = vb + _cross(wb, -R * n)
    rel = ua - ub
    slip = rel - float(np.dot(rel, n)) * n
    k_t = 2.0 / m + 2.0 * R * R / inertia  # = 7/m
    s = _norm(slip)
    jt = -ball_friction(s, jn, k_t, p) / s * slip if s >= 1e-12 else np.zeros(3)  # acts on a; -jt on b
    Ja = -jn * n + jt
    va2 = va + Ja / m
    vb2 = vb - Ja / m
    wa2 = wa + _cross(R * n, Ja) / inertia
    wb2 = wb + _cross(-R * n, -Ja) / inertia
    return va2, wa2, vb2, wb2


def ball_friction(s0: float, jn: float, k_t: float, p: PhysicsParams) -> float:
    """Size of the friction impulse between two balls whose contact slips at ``s0`` m/s, over a normal impulse
    ``jn``; ``k_t``: the slip's change per unit tangential impulse.

    Ball-ball friction falls steeply with the slip speed (TP A.14, Marlow's measurements). Through the impact
    the slip falls, dJ_t = mu(s) dJ_n with ds = -k_t dJ_t, so the friction grows as it goes; with
    mu(s) = a + b exp(-c s) that integrates in closed form (F(s) = ln(a e^(c s) + b) / (a c)):

        k_t jn = F(s0) - F(s_end),   J_t = (s0 - s_end) / k_t,   the slip stopping (s_end = 0) if jn allows.

    TP A.14 takes mu at the initial slip for the whole impact instead, and fits its a, b, c that way to
    Marlow's throw at a 45 degree cut; params' a, b, c fit the same three points with the friction integrated
    (PhysicsParams.mu_ball_a). A constant ``mu_ball`` (a settings override) is Coulomb's min(mu jn, s0/k_t).
    """
    if s0 <= 0.0 or jn <= 0.0:
        return 0.0
    if p.mu_ball >= 0.0:
        return min(p.mu_ball * jn, s0 / k_t)
    a, b, c = p.mu_ball_a, p.mu_ball_b, p.mu_ball_c
    # e^(c s) / (e^(c s) + b/a) of the slip left: written with log1p/expm1 so a light touch keeps its digits
    # (it tends to mu(s0) jn). A slip beyond ~400 m/s (none a cue can give) is taken at that speed.
    x0 = a * math.exp(min(c * s0, 600.0)) + b
    fall = x0 * -math.expm1(-a * c * k_t * jn) / (x0 - b)
    if fall >= 1.0:
        return s0 / k_t  # the slip stops within the impact
    return min(s0, -math.log1p(-fall) / c) / k_t


def _slate_push(v: Vec, w: Vec, js: float, p: PhysicsParams) -> tuple[Vec, Vec]:
    """Apply an upward slate impulse ``js`` at the bottom contact with cloth friction."""
    m, R, inertia = p.m, p.R, p.inertia
    r = np.array([0.0, 0.0, -R])
    u = v + _cross(w, r)
    slip = np.array([u[0], u[1], 0.0])
    k_t = 1.0 / m + R * R / inertia
    J = np.array([0.0, 0.0, js]) + _friction_impulse(slip, js, p.mu_slide, k_t)
    return v + J / m, w + _cross(r, J) / inertia


def slate_reaction(v: Vec, w: Vec, down_normal: float, p: PhysicsParams) -> tuple[Vec, Vec]:
    """The slate's answer to a ball on the cloth driven into it (v_z < 0) by a ball-ball impulse (or by the
    push of a hard cushion impact beyond the cushion's rigid range, physics.cushion).

    The part of the push that came from the normal impulse, ``down_normal`` (m/s, >= 0), is a
    short impact on the slate like any landing: it rebounds with e_table (TP B.10), i.e.
    v_z -> e_table * min(|v_z|, down_normal). The rest (the throw friction of a level hit, which
    acts through the whole, much longer, contact with the cloth pressed; likewise a cushion's friction)
    is taken plastically, so a level hit never lifts a ball. A rebound lower than ``min_bounce`` ends on the cloth.
    Cloth friction acts on the whole slate impulse; vertical energy falls by at least 1 - e^2.
    """
    vz = float(v[2])
    if vz >= 0.0:
        return v, w
    out = p.e_table * min(-vz, max(down_normal, 0.0))
    if out * out / (2.0 * G) < p.min_bounce:
        out = 0.0
    v2, w2 = _slate_push(v, w, p.m * (out - vz), p)
    v2[2] = out
    return v2, w2


def slate_bounce(
    v: Vec, w: Vec, p: PhysicsParams, e: float | None = None, mu: float | None = None
) -> tuple[Vec, Vec, bool]:
    """A ball meeting the slate with v_z < 0 (TP B.10 / pooltool frictional inelastic table).

    v_z -> e_table |v_z|; friction mu_slide * (1 + e) |v_z| against the slip, limited to rolling.
    Returns (v, w, airborne): a bounce lower than ``min_bounce`` ends on the cloth (Zeno guard).
    """
    vz = float(v[2])
    if vz >= 0.0:
        return v, w, vz > 0.0
    e = p.e_table if e is None else e
    mu = p.mu_slide if mu is None else mu
    m, R, inertia = p.m, p.R, p.inertia
    out = e * -vz
    airborne = out * out / (2.0 * G) >= p.min_bounce
    if not airborne:
        out = 0.0
    js = m * (out - vz)
    r = np.array([0.0, 0.0, -R])
    u = v + _cross(w, r)
    slip = np.array([u[0], u[1], 0.0])
    k_t = 1.0 / m + R * R / inertia
    J = np.array([0.0, 0.0, js]) + _friction_impulse(slip, js, mu, k_t)
    v2 = v + J / m
    w2 = w + _cross(r, J) / inertia
    v2[2] = out
    return v2, w2, airborne
