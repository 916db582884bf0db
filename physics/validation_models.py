"""The published models and measurements the physics is validated against (docs/physics.md §Validation).

Each is written out here from its source, independently of the engine, so ``python main.py validate`` compares
the engine with the literature and not with itself. Units SI; angles in radians unless a name says ``_deg``.

- [MAT09] Mathavan, Jackson, Parkin (2009): measured snooker cushion rebound, rolling ball, square-on.
- [MAT10] Mathavan, Jackson, Parkin (2010): the cushion model (cushion and slate acting together, friction at both
  contacts), solved here by integrating over the normal impulse with the paper's values.
- [TP A.14] Alciatore: throw of the object ball, with the measured friction mu(v) = a + b exp(-c v).
- [TP A.30] Alciatore: the cue strike, v = (1 + e) V / (1 + m/M + 5/2 rho^2), spin 5 v rho / (2 R).
- [TP A.31] Alciatore: squirt against tip offset and the cue's end mass.
- [TP 4.1] and docs/physics.md §Cloth: sliding and rolling on the cloth.
- [TP A.19] Alciatore / Coriolis: the massé path, a parabola from the cue line to the line from the ball's
  resting point to where the cue's axis meets the cloth.
- [TP B.10] and docs/physics.md §Flight: the slate bounce, v_z out = e_t v_z in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

G = 9.81


# --- cushions ---------------------------------------------------------------------------------------------------


def mat09_rebound_speed(v_in: float) -> float:
    """[MAT09] measured rebound speed of a rolling snooker ball hitting a cushion square-on (fit over 0.28-3.5
    m/s): v_out = -0.0877 v^2 + 1.131 v - 0.0953."""
    return -0.0877 * v_in * v_in + 1.131 * v_in - 0.0953


@dataclass(frozen=True)
class CushionBall:
    """The values of [MAT10]: a snooker ball and cushion (nose at 7R/5, so sin(theta) = 2/5)."""

    M: float = 0.1406
    R: float = 0.02625
    sin_theta: float = 0.4
    e: float = 0.98
    mu_s: float = 0.212  # ball-slate sliding friction
    mu_w: float = 0.14  # ball-cushion friction


MAT10_PAPER = CushionBall()


def _cushion_rates(b: CushionBall, s: list[float]) -> list[float]:
    """d(state)/dP for state (vx, vy, wx, wy, wz): x along the cushion, y into it, P the cushion's normal impulse.

    The slips at the cushion contact I and at the slate C set the friction directions; the slate's normal impulse
    is what keeps the ball on the slate against the cushion's downward push (sin theta) and the cushion friction's
    vertical part, as in [MAT10]."""
    vx, vy, wx, wy, wz = s
    st = b.sin_theta
    ct = math.sqrt(1.0 - st * st)
    R = b.R
    ix, iy = vx + wy * R * st - wz * R * ct, -vy * st + wx * R
    cx, cy = vx - wy * R, vy + wx * R
    si = math.hypot(ix, iy)
    sc = math.hypot(cx, cy)
    ci, sn = (ix / si, iy / si) if si > 1e-12 else (0.0, 0.0)
    cc, sc_ = (cx / sc, cy / sc) if sc > 1e-12 else (0.0, 0.0)
    slate = st + b.mu_w * sn * ct  # slate normal impulse per unit cushion normal impulse
    k = 5.0 / (2.0 * b.M * R)
    return [
        -(b.mu_w * ci + b.mu_s * cc * slate) / b.M,
        -(ct - b.mu_w * st * sn + b.mu_s * sc_ * slate) / b.M,
        -k * (b.mu_w * sn + b.mu_s * sc_ * slate),
        -k * (b.mu_w * ci * st - b.mu_s * cc * slate),
        k * b.mu_w * ci * ct,
    ]


def _cushion_step(b: CushionBall, s: list[float], dp: float) -> list[float]:
    """One midpoint step over an impulse increment dp."""
    k1 = _cushion_rates(b, s)
    mid = [x + 0.5 * dp * r for x, r in zip(s, k1, strict=True)]
    k2 = _cushion_rates(b, mid)
    return [x + dp * r for x, r in zip(s, k2, strict=True)]


def mathavan_cushion(
    v: float, alpha: float, top: float, side: float, b: CushionBall = MAT10_PAPER, steps: int = 3000
) -> tuple[float, float, float, float, float]:
    """[MAT10] the ball's (vx, vy, wx, wy, wz) after a cushion impact; ``alpha`` the angle of approach to the
    cushion line (pi/2 square-on), ``top`` the topspin (v / R for a rolling ball), ``side`` the spin about the
    vertical. Compression until the normal speed at the contact is gone; restitution until the work done by the
    normal force on the way out is e^2 of the work on the way in."""
    ct = math.sqrt(1.0 - b.sin_theta**2)
    s = [v * math.cos(alpha), v * math.sin(alpha), -top * math.sin(alpha), top * math.cos(alpha), side]
    dp = b.M * s[1] / steps
    work = 0.0
    while s[1] > 0.0:
        nxt = _cushion_step(b, s, dp)
        if nxt[1] <= 0.0:
            # The last part-step ends the compression where the normal speed crosses zero.
            frac = s[1] / (s[1] - nxt[1])
            nxt = _cushion_step(b, s, dp * frac)
            work += 0.5 * s[1] * ct * dp * frac
            s = nxt
            break
        work += 0.5 * (s[1] + nxt[1]) * ct * dp
        s = nxt
    target = b.e * b.e * work
    done = 0.0
    while done < target:
        vy = abs(s[1])
        step = dp
        if done + vy * ct * step > target:
            step = (target - done) / max(vy * ct, 1e-12)
        nxt = _cushion_step(b, s, step)
        done += 0.5 * (abs(s[1]) + abs(nxt[1])) * ct * step
        s = nxt
    return (s[0], s[1], s[2], s[3], s[4])


def mathavan_rebound_angle_deg(v: float, incidence_deg: float, b: CushionBall = MAT10_PAPER) -> float:
    """[MAT10] rebound angle (from the cushion's normal, degrees) of a ball rolling in at ``incidence_deg`` from
    the normal."""
    alpha = math.radians(90.0 - incidence_deg)
    vx, vy, *_ = mathavan_cushion(v, alpha, v / b.R, 0.0, b)
    return math.degrees(math.atan2(abs(vx), abs(vy)))


# --- ball-ball: throw ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BallFriction:
    """[TP A.14] ball-ball friction fitted to Marlow's measurements, mu(v) = a + b exp(-c v)."""

    a: float = 9.951e-3
    b: float = 0.108
    c: float = 1.088

    def mu(self, slip: float) -> float:
        return self.a + self.b * math.exp(-self.c * slip)


TP_A14 = BallFriction()


def throw_deg(
    v: float, cut_deg: float, R: float, w_roll: float = 0.0, w_side: float = 0.0, f: BallFriction = TP_A14
) -> float:
    """[TP A.14] throw (degrees) of the object ball for a cue ball at speed ``v`` meeting it at cut angle
    ``cut_deg`` with topspin ``w_roll`` (about the horizontal axis across its path; v / R rolling) and side spin
    ``w_side`` (about the vertical). The friction impulse is capped where the contact points stop slipping."""
    phi = math.radians(cut_deg)
    tangential = v * math.sin(phi) - R * w_side
    v_rel = math.hypot(tangential, R * w_roll * math.cos(phi))
    if v_rel < 1e-12:
        return 0.0
    k = min(f.mu(v_rel) * v * math.cos(phi) / v_rel, 1.0 / 7.0)
    return math.degrees(math.atan2(k * tangential, v * math.cos(phi)))


# --- cue strike and squirt -----------------------------------------------------------------------------------


def strike_speed(cue_speed: float, rho: float, m: float, cue_mass: float, tip_e: float) -> float:
    """[TP A.30] ball speed off a tip meeting it ``rho`` radii off centre (within the miscue limit)."""
    return (1.0 + tip_e) * cue_speed / (1.0 + m / cue_mass + 2.5 * rho * rho)


def squirt_deg(side: float, mass_ratio: float) -> float:
    """[TP A.31] squirt (degrees) for a tip ``side`` radii off centre; ``mass_ratio`` = ball / cue end mass."""
    c = max(0.0, 1.0 - side * side)
    return math.degrees(math.atan(2.5 * side * math.sqrt(c) / (1.0 + mass_ratio + 2.5 * c)))


# --- cloth: draw, follow, roll-out --------------------------------------------------------------------------


@dataclass(frozen=True)
class Cloth:
    mu_s: float  # sliding friction
    mu_r: float  # rolling resistance

    def slide(self, v: float, w: float, R: float, dist: float) -> tuple[float, float, float, bool]:
        """A ball on a line with speed ``v`` and topspin ``w`` ([TP 4.1]): its (v, w, distance travelled, rolling)
        once it has gone ``dist`` or has stopped. The slip u = v - R w falls at 7/2 mu_s g; then it rolls."""
        u = v - R * w
        if abs(u) > 1e-12:
            a = -math.copysign(self.mu_s * G, u)
            t_slide = abs(u) / (3.5 * self.mu_s * G)
            d_slide = v * t_slide + 0.5 * a * t_slide * t_slide
            if abs(d_slide) >= dist and math.copysign(1.0, d_slide) == math.copysign(1.0, v):
                # Reaches ``dist`` while still sliding: v^2 = v0^2 + 2 a d (v keeps its sign there).
                v_at = math.copysign(math.sqrt(max(0.0, v * v + 2.0 * a * math.copysign(dist, v))), v)
                t = (v_at - v) / a
                return v_at, w + 2.5 * self.mu_s * G * t * math.copysign(1.0, u) / R, dist, False
            v = v + a * t_slide
            w = v / R
            dist -= abs(d_slide)
        # Rolling: decelerates at mu_r g.
        stop = v * v / (2.0 * self.mu_r * G)
        if stop <= dist:
            return 0.0, 0.0, stop, True
        v_at = math.copysign(math.sqrt(v * v - 2.0 * self.mu_r * G * dist), v)
        return v_at, v_at / R, dist, True

    def to_roll(self, v: float, w: float, R: float) -> tuple[float, float, float]:
        """(time, signed distance, speed) until a sliding ball rolls: its final rolling speed is
        (5/7) v + (2/7) R w for any mu_s (docs/physics.md §Cloth)."""
        vf = 5.0 / 7.0 * v + 2.0 / 7.0 * R * w
        u = v - R * w
        if abs(u) <= 1e-12:
            return 0.0, 0.0, vf
        a = -math.copysign(self.mu_s * G, u)
        return (vf - v) / a, (vf * vf - v * v) / (2.0 * a), vf

    def travel(self, v: float, w: float, R: float) -> float:
        """Signed distance a ball with speed ``v`` and topspin ``w`` covers before it stops: the slide, then the
        roll-out v^2 / (2 mu_r g)."""
        _, d_slide, vf = self.to_roll(v, w, R)
        return d_slide + math.copysign(vf * vf / (2.0 * self.mu_r * G), vf)

    def rollout(self, v: float) -> tuple[float, float]:
        """A rolling ball's distance and time to rest (docs/physics.md §Cloth)."""
        return v * v / (2.0 * self.mu_r * G), v / (self.mu_r * G)


def draw_follow_distance(
    v_strike: float,
    w_strike: float,
    gap: float,
    R: float,
    e_ball: float,
    cloth: Cloth,
    f: BallFriction = TP_A14,
) -> float:
    """Signed distance the cue ball travels after a full (head-on) hit on a resting ball ``gap`` ahead of it
    (centre distance minus 2R): the strike's speed and topspin, the slide to the object ball ([TP 4.1]), the
    head-on collision leaving (1 - e)/2 of its speed (docs/physics.md §Ball-ball), then slide and roll-out. Negative: drawn
    back. At the collision the spin turns the cue ball's front point against the object ball: [TP A.14]'s
    friction (slip R w at a full hit, impulse per unit mass min(mu v, R w / 7)) takes (5/2) of it off R w."""
    v, w, _, _ = cloth.slide(v_strike, w_strike, R, gap)
    if v <= 0.0:
        return 0.0
    slip = abs(R * w)
    j = min(f.mu(slip) * v, slip / 7.0)
    w -= math.copysign(2.5 * j / R, w)
    return cloth.travel(0.5 * (1.0 - e_ball) * v, w, R)


# --- massé ---------------------------------------------------------------------------------------------------


def masse_path(
    start: tuple[float, float],
    v0: tuple[float, float],
    vf: tuple[float, float],
    mu_s: float,
    duration: float,
    n: int = 200,
) -> list[tuple[float, float]]:
    """[TP A.19] the path of a sliding ball from velocity ``v0`` to its final rolling velocity ``vf``: the
    friction force keeps the direction of the initial slip, so the velocity changes along (vf - v0) at mu_s g
    (a parabola) until it equals vf, then the ball rolls straight (deceleration mu_r g neglected over ``duration``)."""
    dx, dy = vf[0] - v0[0], vf[1] - v0[1]
    dv = math.hypot(dx, dy)
    t_roll = dv / (mu_s * G)
    ux, uy = (dx / dv, dy / dv) if dv > 1e-12 else (0.0, 0.0)
    out = []
    for k in range(n + 1):
        t = duration * k / n
        ts = min(t, t_roll)
        x = start[0] + v0[0] * ts + 0.5 * mu_s * G * ux * ts * ts
        y = start[1] + v0[1] * ts + 0.5 * mu_s * G * uy * ts * ts
        if t > t_roll:
            x += vf[0] * (t - t_roll)
            y += vf[1] * (t - t_roll)
        out.append((x, y))
    return out


def coriolis_final_direction(
    centre: tuple[float, float, float],
    contact: tuple[float, float, float],
    cue_dir: tuple[float, float, float],
) -> tuple[float, float]:
    """[TP A.19] (Coriolis) the direction a massé'd ball finally rolls in: from its resting point (under the
    centre) to the point A where the cue's axis, through the tip's contact point, meets the cloth. Angular
    momentum about the slate contact is kept while the ball slides; the cue's impulse gives it."""
    s = -contact[2] / cue_dir[2]
    ax, ay = contact[0] + s * cue_dir[0], contact[1] + s * cue_dir[1]
    dx, dy = ax - centre[0], ay - centre[1]
    d = math.hypot(dx, dy)
    return (dx / d, dy / d)


# --- jumps and the slate -------------------------------------------------------------------------------------


def jump_apex(
    cue_speed: float, elevation_deg: float, m: float, cue_mass: float, tip_e: float, e_t: float
) -> float:
    """docs/physics.md §Flight, sequential model: a centre hit at ``elevation_deg`` drives the ball into the slate at
    v_b sin(theta) ([TP A.30]); it rebounds at e_t times that ([TP B.10]); the centre rises (e_t v_b sin)^2 / 2g."""
    vb = strike_speed(cue_speed, 0.0, m, cue_mass, tip_e)
    vz = e_t * vb * math.sin(math.radians(elevation_deg))
    return vz * vz / (2.0 * G)


def bounce_series(v_in: float, e_t: float, min_rise: float, n: int = 8) -> list[tuple[float, float]]:
    """[TP B.10] a ball meeting the slate at ``v_in`` (downwards) at t = 0: (time of each following impact, apex
    of the hop before it), each rebound e_t times the last, until a hop would rise less than ``min_rise``."""
    out: list[tuple[float, float]] = []
    t, v = 0.0, v_in
    for _ in range(n):
        v *= e_t
        apex = v * v / (2.0 * G)
        if apex < min_rise:
            break
        t += 2.0 * v / G
        out.append((t, apex))
    return out


def cue_contact(
    direction_deg: float, elevation_deg: float, tip: tuple[float, float], R: float
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Where the tip meets the ball (relative to its centre) and the cue's unit direction, for a scenario's [shot] (docs/formats.md):
    ``direction`` anticlockwise from +x, ``elevation`` above the bed, ``tip`` the contact offset [right, up] in
    radii, measured across the cue."""
    phi, th = math.radians(direction_deg), math.radians(elevation_deg)
    d = (math.cos(phi) * math.cos(th), math.sin(phi) * math.cos(th), -math.sin(th))
    right = (math.sin(phi), -math.cos(phi), 0.0)
    up = (
        right[1] * d[2] - right[2] * d[1],
        right[2] * d[0] - right[0] * d[2],
        right[0] * d[1] - right[1] * d[0],
    )
    a, b = tip
    depth = R * math.sqrt(max(0.0, 1.0 - a * a - b * b))
    c = tuple(R * (a * right[i] + b * up[i]) - depth * d[i] for i in range(3))
    return (c[0], c[1], c[2]), d
