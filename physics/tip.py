"""Where the cue's tip is when it meets the ball: the scoop and the miscue as geometry and friction.

The shot's ``tip`` is the contact point's offset from the ball's centre across the cue, in radii
(docs/strike.md). The tip is a dome of radius ``tip_radius`` on a shaft (ferrule) of half-width
``tip_width / 2``; at the instant of contact the dome touches the ball at that point, so the dome's centre
lies on the ball's outward normal there, ``R + tip_radius`` from the ball's centre, and the cue's axis
runs through it along the stroke.

**Scoop** (подцепка, WPA's scoop jump): the tip meets the cloth together with the ball, or gets under
it. Geometrically: the lowest point of the tip and ferrule, at the instant the tip meets the ball, is at or
below the cloth. That point is the bottom of the dome when the cue is steep enough for it to lie on the
cap (sin(elevation) >= sqrt(1 - (w/r_t)^2)), otherwise the lower edge of the cap where the leather meets
the ferrule; the ferrule and shaft behind it only rise. A draw stroke with a raised cue whose tip stays
clear of the cloth is an ordinary draw, whatever its elevation: the impulse still passes in front of the
ball's lowest point and the cloth plays no part.

**Miscue** (кикс): the tip grips the ball only while the impulse it transmits lies inside the friction
cone around the contact normal. The transmitted impulse is not along the cue: the shaft's end mass gives
way across the axis, and the ball takes the lateral impulse of squirt (TP A.31), which turns the impulse
from the cue's axis towards the normal by the squirt angle. The tip slides off where
asin(rho) - squirt_angle(rho) > atan(mu_tip). With a chalked tip (mu 0.6 [DD-CONST]) that is 0.55 R for a
playing shaft and 0.57 R for a stiff one: Dr. Dave's "generally accepted" 0.5 R miscue limit [DD-MISCUE],
a little wider because the shaft gives way. (Ignoring the squirt, the plain cone gives mu/sqrt(1+mu^2),
0.514 R.)
"""

from __future__ import annotations

import math
from functools import cache


def squirt_tan(rho: float, squirt_mass_ratio: float) -> float:
    """tan of the squirt angle for a contact ``rho`` radii off centre (TP A.31): lateral over axial impulse."""
    c = max(0.0, 1.0 - rho * rho)
    return 2.5 * abs(rho) * math.sqrt(c) / (1.0 + squirt_mass_ratio + 2.5 * c)


def friction_demand(rho: float, squirt_mass_ratio: float) -> float:
    """Tangential over normal impulse the tip must hold at a contact ``rho`` radii off centre."""
    rho = min(abs(rho), 1.0)
    return math.tan(math.asin(rho) - math.atan(squirt_tan(rho, squirt_mass_ratio)))


@cache  # a pure function of the cue's two numbers, asked at every strike: the bisection runs once per cue
def miscue_limit(tip_mu: float, squirt_mass_ratio: float) -> float:
    """The largest contact offset (radii) the tip holds without sliding off (module docstring)."""
    lo, hi = 0.0, 1.0
    if friction_demand(hi, squirt_mass_ratio) <= tip_mu:
        return hi
    for _ in range(60):  # the demand rises monotonically with rho on [0, 1): bisection to double precision
        mid = 0.5 * (lo + hi)
        if friction_demand(mid, squirt_mass_ratio) <= tip_mu:
            lo = mid
        else:
            hi = mid
    return lo


def tip_clearance(
    tip: tuple[float, float], elevation_deg: float, R: float, tip_radius: float, tip_width: float
) -> float:
    """Height (m) of the lowest point of the tip and ferrule above the cloth as the tip meets the ball.

    Only the vertical plane matters: the cue's direction on the table turns nothing here. ``tip`` is
    (right, up) in radii; a contact beyond the ball's edge (rho >= 1) is taken at the edge.
    """
    a, b = float(tip[0]), float(tip[1])
    rho = math.hypot(a, b)
    if rho > 1.0:
        a, b, rho = a / rho, b / rho, 1.0
    th = math.radians(elevation_deg)
    sin_t, cos_t = math.sin(th), math.cos(th)
    # Heights along the cue frame (physics.cue.cue_frame): d (into the ball) has z -sin, up has z cos,
    # right has none. The outward normal at the contact is a*right + b*up - sqrt(1 - rho^2) d.
    normal_z = b * cos_t + math.sqrt(max(0.0, 1.0 - rho * rho)) * sin_t
    dome_z = R + (R + tip_radius) * normal_z
    half = 0.5 * tip_width
    cap = math.sqrt(max(0.0, tip_radius * tip_radius - half * half))  # dome centre to the cap's edge, along d
    if sin_t * tip_radius >= cap:
        return dome_z - tip_radius  # the dome's own bottom lies on the cap
    return dome_z - cap * sin_t - half * cos_t  # the lower edge of the cap, where leather meets ferrule
