"""A person standing at the table (a scenario's ``person`` object), drawn inside the box the physics gives it.

A simple, clean figure in a billiard room's dress: shoes, trousers, a dark waistcoat over a white shirt, white
gloves, a head with hair. It is built of smooth rounded parts (elliptical frustums and spheres with smooth
normals), so the lamp shades it as a body and no flat slab catches the shadow map in stripes. It faces the
table: the box's long horizontal side is the shoulders' line.
"""

from __future__ import annotations

import math

from scenes.geom_mesh import ColourT, MeshBuilder, Vec3T

TROUSERS: ColourT = (0.10, 0.10, 0.12, 1.0)
SHOES: ColourT = (0.05, 0.04, 0.04, 1.0)
WAISTCOAT: ColourT = (0.12, 0.13, 0.20, 1.0)
SHIRT: ColourT = (0.86, 0.86, 0.84, 1.0)
GLOVE: ColourT = (0.95, 0.95, 0.93, 1.0)
SKIN: ColourT = (0.80, 0.62, 0.50, 1.0)
HAIR: ColourT = (0.16, 0.11, 0.08, 1.0)


class _Body:
    """Places parts in the figure's own frame: u across the shoulders, v towards the table, z up from the floor,
    all in shares of the box (so the figure fills the physics' box whatever its size)."""

    def __init__(self, mb: MeshBuilder, box: tuple[Vec3T, Vec3T], facing: float) -> None:
        (x0, y0, f), (x1, y1, top) = box
        self.mb = mb
        self.cx, self.cy, self.floor = (x0 + x1) / 2, (y0 + y1) / 2, f
        self.wide_x = (x1 - x0) >= (y1 - y0)
        self.half_w = max(x1 - x0, y1 - y0) / 2
        self.half_d = min(x1 - x0, y1 - y0) / 2
        self.tall = top - f
        self.facing = facing  # +1 / -1: which way along the short axis the table is

    def at(self, u: float, v: float, z: float) -> Vec3T:
        du, dv = u * self.half_w, v * self.half_d * self.facing
        x, y = (self.cx + du, self.cy + dv) if self.wide_x else (self.cx + dv, self.cy + du)
        return (x, y, self.floor + z * self.tall)

    def frustum(
        self,
        u: float,
        v: float,
        z0: float,
        z1: float,
        r0: tuple[float, float],
        r1: tuple[float, float],
        colour: ColourT,
        cap: bool = True,
    ) -> None:
        """An elliptical frustum round (u, v) from height z0 to z1; radii (across, deep) in metres."""
        mb, n = self.mb, 16
        base = self.at(u, v, z0)
        top = self.at(u, v, z1)
        rows = []
        for z, (ru, rv) in ((base[2], r0), (top[2], r1)):
            row = []
            for k in range(n + 1):
                a = 2 * math.pi * k / n
                du, dv = math.cos(a) * ru, math.sin(a) * rv * self.facing
                px, py = (du, dv) if self.wide_x else (dv, du)
                nx, ny = (math.cos(a) / max(ru, 1e-6), math.sin(a) / max(rv, 1e-6) * self.facing)
                nx, ny = (nx, ny) if self.wide_x else (ny, nx)
                length = math.hypot(nx, ny) or 1.0
                row.append(
                    mb.vertex((base[0] + px, base[1] + py, z), (nx / length, ny / length, 0.0), colour)
                )
            rows.append(row)
        for k in range(n):
            mb.smooth_quad((rows[0][k], rows[0][k + 1], rows[1][k + 1], rows[1][k]))
        if cap:
            ru, rv = r1
            mb.sphere(top, min(ru, rv), colour, 12, 6)

    def ball(self, u: float, v: float, z: float, r: float, colour: ColourT) -> None:
        self.mb.sphere(self.at(u, v, z), r, colour, 16, 8)


def person(mb: MeshBuilder, box: tuple[Vec3T, Vec3T], table_side: float) -> None:
    """The figure in ``box`` (floor to the top of the head), facing the table on the ``table_side`` (+1/-1) of
    the box's short axis."""
    b = _Body(mb, box, table_side)
    t, hw, hd = b.tall, b.half_w, b.half_d  # everything stays inside the box the physics collides with
    # Legs (shares of the height: a standing adult's proportions, the head an eighth of the height).
    for side in (-0.32, 0.32):
        b.frustum(side, 0.0, 0.02, 0.48, (0.07, 0.07), (0.085, 0.09), TROUSERS, cap=False)
        b.frustum(side, 0.2, 0.0, 0.03, (0.055, 0.1), (0.05, 0.095), SHOES)
    b.frustum(0.0, 0.0, 0.46, 0.53, (0.75 * hw, 0.6 * hd), (0.7 * hw, 0.6 * hd), TROUSERS, cap=False)
    # The torso: a waistcoat from the waist, narrowing at the chest, to the shoulders; the shirt's collar.
    b.frustum(0.0, 0.0, 0.52, 0.66, (0.56 * hw, 0.58 * hd), (0.6 * hw, 0.62 * hd), WAISTCOAT, cap=False)
    b.frustum(0.0, 0.0, 0.66, 0.80, (0.6 * hw, 0.62 * hd), (0.66 * hw, 0.55 * hd), SHIRT, cap=False)
    b.frustum(0.0, 0.0, 0.80, 0.815, (0.66 * hw, 0.55 * hd), (0.3 * hw, 0.3 * hd), SHIRT, cap=False)
    # Arms at the sides in white sleeves, the white-gloved hands at the ends.
    arm = 0.18 * hw
    for side in (-0.8, 0.8):
        b.ball(side, 0.0, 0.79, arm, SHIRT)
        b.frustum(side, 0.0, 0.47, 0.79, (0.8 * arm, 0.8 * arm), (arm, arm), SHIRT, cap=False)
        b.ball(side, 0.05, 0.455, 0.9 * arm, GLOVE)
    b.frustum(0.0, 0.0, 0.81, 0.87, (0.055, 0.055), (0.05, 0.05), SKIN, cap=False)
    head = 0.062 * t
    b.ball(0.0, 0.05, 1.0 - head / t, head, SKIN)
    # Hair over the back and top of the head (its crown the top of the box, as the head's).
    b.ball(0.0, -0.12, 1.0 - 0.98 * head / t, 0.98 * head, HAIR)
