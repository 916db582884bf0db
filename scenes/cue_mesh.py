"""The cue as a player holds it: a turned shape, and the lowest elevation at which it clears rails and balls.

The stick is a surface of revolution along -Y from the tip at the origin (``CueView`` points +Y at the ball):
leather tip, white ferrule, maple shaft tapering to the joint, a brass joint ring, a dark forearm, the linen
wrap, the butt sleeve and a rubber bumper. Normals follow the taper, so the shaft shades round.

``clearing_elevation`` is the geometry a player's body solves without thinking: with the cue ball near a
cushion (or a ball behind it) the butt must rise until the stick passes over the rail top and the balls.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from panda3d.core import GeomNode

from physics.tables import NOSE_EDGE_RISE, TableSpec
from scenes.geom_mesh import ColourT, MeshBuilder

CUE_LENGTH = 1.45  # m, a standard cue
TIP_RADIUS = 0.0064  # 12.8 mm tip
BUTT_RADIUS = 0.0150  # 30 mm butt

TIP: ColourT = (0.22, 0.30, 0.55, 1.0)  # chalked leather
FERRULE: ColourT = (0.93, 0.92, 0.88, 1.0)
MAPLE: ColourT = (0.80, 0.64, 0.42, 1.0)
BRASS: ColourT = (0.80, 0.62, 0.30, 1.0)
EBONY: ColourT = (0.10, 0.06, 0.04, 1.0)
WRAP: ColourT = (0.05, 0.05, 0.06, 1.0)
BUMPER: ColourT = (0.03, 0.03, 0.03, 1.0)

# (distance from the tip, radius, colour of the band that starts here)
PROFILE: tuple[tuple[float, float, ColourT], ...] = (
    (0.000, TIP_RADIUS * 0.80, TIP),
    (0.003, TIP_RADIUS * 0.97, TIP),
    (0.011, TIP_RADIUS, FERRULE),
    (0.036, TIP_RADIUS * 1.01, MAPLE),
    (0.30, 0.0066, MAPLE),  # the pro taper: nearly straight for the first 30 cm
    (0.74, 0.0105, BRASS),
    (0.75, 0.0108, EBONY),  # the joint, then the forearm
    (1.02, 0.0128, WRAP),
    (1.30, 0.0143, EBONY),
    (1.43, 0.0150, BUMPER),
    (CUE_LENGTH, 0.0140, BUMPER),
)
SIDES = 20


def cue_mesh() -> GeomNode:
    """The stick, tip at the origin, butt at -Y (one node, vertex colours)."""
    mb = MeshBuilder("cue-stick")
    for k, (s, r, col) in enumerate(PROFILE):
        # Each band is its own ring pair so colours change sharply at the joints.
        nxt = PROFILE[k + 1] if k + 1 < len(PROFILE) else None
        if nxt is None:
            break
        s1, r1 = nxt[0], nxt[1]
        slope = (r1 - r) / max(s1 - s, 1e-9)
        ring0, ring1 = [], []
        for j in range(SIDES + 1):
            a = 2 * math.pi * j / SIDES
            c, sn = math.cos(a), math.sin(a)
            # The surface leans in towards the tip: its normal tips forward by the taper.
            n = (c, slope, sn)
            ln = math.sqrt(c * c + slope * slope + sn * sn)
            n = (n[0] / ln, n[1] / ln, n[2] / ln)
            ring0.append(mb.vertex((r * c, -s, r * sn), n, col, (j / SIDES, s)))
            ring1.append(mb.vertex((r1 * c, -s1, r1 * sn), n, col, (j / SIDES, s1)))
        for j in range(SIDES):
            mb.triangle(ring0[j], ring0[j + 1], ring1[j])
            mb.triangle(ring0[j + 1], ring1[j + 1], ring1[j])
    # The tip's domed face (towards +Y, the ball) and the butt's end.
    for y_end, r_end, dome, col in (
        (0.0, PROFILE[0][1], 0.0025, TIP),
        (-CUE_LENGTH, PROFILE[-1][1], -0.002, BUMPER),
    ):
        sign = 1.0 if dome > 0 else -1.0
        mid = mb.vertex((0.0, y_end + dome, 0.0), (0.0, sign, 0.0), col)
        ring = [
            mb.vertex(
                (r_end * math.cos(a), y_end, r_end * math.sin(a)),
                (0.5 * math.cos(a), sign, 0.5 * math.sin(a)),
                col,
            )
            for a in (2 * math.pi * j / SIDES for j in range(SIDES + 1))
        ]
        for j in range(SIDES):
            if sign > 0:
                mb.triangle(mid, ring[j + 1], ring[j])
            else:
                mb.triangle(mid, ring[j], ring[j + 1])
    return mb.node()


def radius_at(s: float) -> float:
    """The stick's radius at ``s`` metres behind the tip."""
    for (s0, r0, _), (s1, r1, _) in zip(PROFILE, PROFILE[1:], strict=False):
        if s <= s1:
            f = (s - s0) / max(s1 - s0, 1e-9)
            return r0 + (r1 - r0) * max(0.0, f)
    return PROFILE[-1][1]


def clearing_elevation(
    spec: TableSpec,
    positions: Mapping[str, tuple[float, float]],
    ball: str,
    direction: float,
    gap: float = 0.0,
    margin: float = 0.004,
    tip: tuple[float, float] = (0.0, 0.0),
) -> float:
    """The lowest elevation (degrees) at which a cue aimed along ``direction`` at ``ball`` passes over the
    cushions and rail and over every other ball, ``margin`` metres clear. 0 when nothing is in the way.

    The stick's axis is the line the view draws it on (``scenes.cue_control.stick_pose``): through the ball's
    centre at the elevation, moved across the cue by the tip offset (``tip``: right, up in ball radii; a low tip
    for draw lowers the whole stick by ``up R / cos(e)``), the tip ``gap`` behind the ball. In the cue's vertical
    plane, with ``D`` the distance behind the ball's centre in plan, the axis is at height
    ``R + D tan(e) + up R / cos(e)``; it clears a point ``H`` above the cloth (a cushion's nose edge, its back, the
    rail's outer edge: the cushion's top rises from its nose edge to the rail top at its back, the profile
    physics.tables builds, the rail top is flat) when ``D sin(e) - (H - R) cos(e) >= -up R``, and a ball (grown by
    the stick's radius) of radius ``rho`` in that plane when ``D sin(e) + up R >= rho``.
    """
    R = spec.ball_radius
    x0, y0 = positions[ball]
    a = math.radians(direction)
    bx, by = -math.cos(a), -math.sin(a)  # from the ball back along the cue
    side, up = tip[0] * R, tip[1] * R
    near, far = R * 0.5, R + gap + CUE_LENGTH  # the stick's extent behind the ball's centre, in plan
    need = 0.0

    def require(d: float, height: float) -> None:
        nonlocal need
        if near < d < far:  # past the butt nothing is in the way
            h = height - R
            reach = math.hypot(d, h)
            need = max(need, math.atan2(h, d) + math.asin(max(-1.0, min(1.0, -up / reach))))

    # The cushions' tops and the rail: from where the backward line leaves the bed to the outside of the rail.
    hl, hw = spec.half_length, spec.half_width
    t_exit = math.inf
    for lim, p, v in ((hl, x0, bx), (hw, y0, by)):
        if abs(v) > 1e-12:
            t_exit = min(t_exit, ((lim if v > 0 else -lim) - p) / v)
    if math.isfinite(t_exit):
        nose_top = spec.cushion_nose_height + NOSE_EDGE_RISE
        for d, top in (
            (t_exit, nose_top),
            (t_exit + spec.cushion_width, spec.rail_height),
            (t_exit + spec.cushion_width + spec.rail_width, spec.rail_height),
        ):
            require(d, top + radius_at(max(d - R - gap, 0.0)) + margin)
    # Other balls under the stick.
    for other, (x, y) in positions.items():
        if other == ball:
            continue
        fx, fy = x - x0, y - y0
        along = fx * bx + fy * by
        if along <= 0:
            continue
        # Across the cue, measured from the stick's axis (moved right by the side offset).
        across = abs(-(fx * by - fy * bx) - side)
        reach = R + radius_at(max(along - R - gap, 0.0)) + margin
        if across >= reach or along - reach > far:
            continue
        # In the vertical plane of the cue the ball (grown by the stick's radius) is a circle of radius rho
        # ``along`` behind the cue ball's centre, at the same height: the axis must pass above it.
        rho = math.sqrt(reach * reach - across * across)
        need = max(need, math.asin(max(-1.0, min(1.0, (rho - up) / along))))
    return max(0.0, math.degrees(need))
