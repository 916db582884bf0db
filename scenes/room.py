"""The room round the table: a parquet floor, panelled walls, a ceiling, and what hangs on the walls.

The room is the box the physics' walls bound (``physics.plan.ROOM_HALF``, ``ROOM_HEIGHT``): a ball that flies
off the table lands on this floor and stops at these walls. It is drawn so it reads as a club room lit by the
table's lamp and the light that lamp sends round the room:

- the floor's vertex colours carry how much of the room's light reaches each point: under the table the table
  top hides most of the sky above, by the view factor of a parallel rectangle seen from a point on the floor
  (Howell's catalogue, case B-3), so the floor darkens towards the legs as a real floor does;
- the walls have a dark wooden wainscot to dado height, a plaster field above, a cornice under the ceiling, a
  door, framed pictures and a cue rack: shapes that read as walls even in the dim light away from the lamp.

The room's lights (the lamp's spill and the bounce off the room) are :mod:`scenes.lamps` and :mod:`scenes.look`;
this module builds meshes only.
"""

from __future__ import annotations

import math

from physics.plan import ROOM_HALF, ROOM_HEIGHT
from physics.tables import TableSpec
from scenes.geom_mesh import ColourT, MeshBuilder, Vec3T

FLOOR: ColourT = (0.47, 0.31, 0.185, 1.0)
PLASTER: ColourT = (0.45, 0.35, 0.27, 1.0)
PANEL: ColourT = (0.52, 0.31, 0.16, 1.0)
PANEL_FRAME: ColourT = (0.42, 0.23, 0.115, 1.0)
CEILING: ColourT = (0.70, 0.66, 0.58, 1.0)
GILT: ColourT = (0.62, 0.48, 0.22, 1.0)
DOOR: ColourT = (0.30, 0.16, 0.08, 1.0)
CANVASES: tuple[ColourT, ...] = (
    (0.20, 0.28, 0.22, 1.0),
    (0.36, 0.24, 0.16, 1.0),
    (0.22, 0.24, 0.32, 1.0),
)
CUE_WOOD: ColourT = (0.78, 0.62, 0.40, 1.0)
CUE_BUTT: ColourT = (0.16, 0.08, 0.04, 1.0)

DADO = 1.0  # m above the floor: the top of the wainscot
SKIRTING = 0.1
CORNICE = 0.12
PROUD = 0.015  # how far the panels' frames, the rail and the skirting stand off the wall
# The least share of the room's light a point on the floor gets: under the table the floor still sees the
# light bounced off the walls between the legs.
FLOOR_SHADE_MIN = 0.22


def corner_view_factor(a: float, b: float, c: float) -> float:
    """The view factor from a small upward-facing patch to a parallel a x b rectangle at height c, with the
    patch under one of its corners (Howell, B-3); signed a, b give the signed share used to add rectangles."""
    if c <= 0.0:
        return 0.0
    x, y = abs(a) / c, abs(b) / c
    sx, sy = math.sqrt(1 + x * x), math.sqrt(1 + y * y)
    f = (x / sx * math.atan(y / sx) + y / sy * math.atan(x / sy)) / (2 * math.pi)
    return math.copysign(1.0, a) * math.copysign(1.0, b) * f


def rectangle_view_factor(px: float, py: float, rect: tuple[float, float, float, float], c: float) -> float:
    """The share of the sky above the floor point (px, py) that the rectangle (x0, y0, x1, y1) at height c
    hides (cosine-weighted: the share of a uniform sky's light it takes away)."""
    x0, y0, x1, y1 = rect
    return (
        corner_view_factor(x1 - px, y1 - py, c)
        - corner_view_factor(x0 - px, y1 - py, c)
        - corner_view_factor(x1 - px, y0 - py, c)
        + corner_view_factor(x0 - px, y0 - py, c)
    )


def floor_light(spec: TableSpec, x: float, y: float) -> float:
    """The share of the room's light that reaches the floor at (x, y): 1 in the open, less under the table."""
    X = spec.half_length + spec.cushion_width + spec.rail_width
    Y = spec.half_width + spec.cushion_width + spec.rail_width
    hidden = rectangle_view_factor(x, y, (-X, -Y, X, Y), -spec.floor_z)
    return FLOOR_SHADE_MIN + (1.0 - FLOOR_SHADE_MIN) * (1.0 - hidden)


def _shaded(colour: ColourT, k: float) -> ColourT:
    return (colour[0] * k, colour[1] * k, colour[2] * k, colour[3])


def build_floor(spec: TableSpec) -> MeshBuilder:
    """The parquet floor, its vertex colours shaded by :func:`floor_light` (a finer grid near the table)."""
    mb = MeshBuilder("floor")
    hx, hy = ROOM_HALF
    fz = spec.floor_z
    xs = _grid_steps(hx, spec.half_length + 0.9)
    ys = _grid_steps(hy, spec.half_width + 0.9)
    for x0, x1 in zip(xs, xs[1:], strict=False):
        for y0, y1 in zip(ys, ys[1:], strict=False):
            ids = [
                mb.vertex((x, y, fz), (0, 0, 1), _shaded(FLOOR, floor_light(spec, x, y)), (x / 1.2, y / 1.2))
                for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
            ]
            mb.triangle(ids[0], ids[1], ids[2])
            mb.triangle(ids[0], ids[2], ids[3])
    return mb


def _grid_steps(half: float, near: float) -> list[float]:
    """Coordinates from -half to half: 0.15 m apart where the table's shadow changes, 0.6 m beyond."""
    out = [-half]
    while out[-1] < half - 1e-9:
        step = 0.15 if abs(out[-1]) < near else 0.6
        out.append(min(half, out[-1] + step))
    return out


def _wall_frame(k: int) -> tuple[Vec3T, Vec3T, Vec3T, float]:
    """Wall ``k`` (0: y = -hy, 1: x = +hx, 2: y = +hy, 3: x = -hx): its left end on the floor seen from inside,
    the unit vector along it, its inward normal, and its length."""
    hx, hy = ROOM_HALF
    corners = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
    (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 4]
    length = math.hypot(x1 - x0, y1 - y0)
    u = ((x1 - x0) / length, (y1 - y0) / length, 0.0)
    n = (-u[1], u[0], 0.0)
    return (x0, y0, 0.0), u, n, length


def _on_wall(origin: Vec3T, u: Vec3T, n: Vec3T, s: float, z: float, off: float = 0.0) -> Vec3T:
    return (origin[0] + u[0] * s + n[0] * off, origin[1] + u[1] * s + n[1] * off, origin[2] + z)


def _panel(
    mb: MeshBuilder,
    wall: tuple[Vec3T, Vec3T, Vec3T, float],
    s0: float,
    s1: float,
    z0: float,
    z1: float,
    colour: ColourT,
    off: float,
) -> None:
    o, u, n, _ = wall
    mb.quad(
        [
            _on_wall(o, u, n, s0, z0, off),
            _on_wall(o, u, n, s1, z0, off),
            _on_wall(o, u, n, s1, z1, off),
            _on_wall(o, u, n, s0, z1, off),
        ],
        colour,
        n,
    )


def _strip(
    mb: MeshBuilder,
    wall: tuple[Vec3T, Vec3T, Vec3T, float],
    s0: float,
    s1: float,
    z0: float,
    z1: float,
    colour: ColourT,
    off: float,
) -> None:
    """A moulding ``off`` proud of the wall: its face and its top (the light from above catches it)."""
    o, u, n, _ = wall
    _panel(mb, wall, s0, s1, z0, z1, colour, off)
    mb.quad(
        [
            _on_wall(o, u, n, s0, z1, off),
            _on_wall(o, u, n, s1, z1, off),
            _on_wall(o, u, n, s1, z1, 0.0),
            _on_wall(o, u, n, s0, z1, 0.0),
        ],
        colour,
        (0, 0, 1),
    )


def build_walls(spec: TableSpec) -> MeshBuilder:
    """Four walls: skirting, a panelled wainscot to :data:`DADO`, a plaster field, a cornice; a door on the head
    wall, pictures on the long walls and a cue rack on one of them."""
    mb = MeshBuilder("walls")
    fz = spec.floor_z
    for k in range(4):
        wall = _wall_frame(k)
        o, u, n, length = wall
        wall = ((o[0], o[1], fz), u, n, length)
        # The plaster in bands, so vertex lighting (low quality) has points to light along the wall.
        bands = max(1, int(length / 0.8))
        for j in range(bands):
            s0, s1 = length * j / bands, length * (j + 1) / bands
            _panel(mb, wall, s0, s1, SKIRTING, DADO, PANEL_FRAME, 0.0)
            _panel(mb, wall, s0, s1, DADO, ROOM_HEIGHT - CORNICE, PLASTER, 0.0)
            _panel(mb, wall, s0, s1, ROOM_HEIGHT - CORNICE, ROOM_HEIGHT, CEILING, 0.0)
        _strip(mb, wall, 0.0, length, 0.0, SKIRTING, PANEL_FRAME, PROUD)
        _strip(mb, wall, 0.0, length, DADO - 0.04, DADO, PANEL_FRAME, PROUD)
        # The wainscot's raised panels, about 0.9 m wide.
        count = max(1, int(length / 0.9))
        width = length / count
        for j in range(count):
            s0 = j * width + 0.09
            _panel(mb, wall, s0, s0 + width - 0.18, SKIRTING + 0.1, DADO - 0.14, PANEL, PROUD / 2)
        if k == 3:
            _door(mb, wall)
        elif k in (0, 2):
            _pictures(mb, wall, k)
        if k == 2:
            _cue_rack(mb, wall)
    hx, hy = ROOM_HALF
    mb.polygon(
        [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)], fz + ROOM_HEIGHT, CEILING, up=False, max_edge=1.0
    )
    return mb


def _door(mb: MeshBuilder, wall: tuple[Vec3T, Vec3T, Vec3T, float]) -> None:
    """A panelled door near one corner of the head wall, with its frame and a brass handle."""
    length = wall[3]
    s0 = 0.18 * length
    _panel(mb, wall, s0 - 0.08, s0 + 0.98, 0.0, 2.18, PANEL_FRAME, PROUD)
    _panel(mb, wall, s0, s0 + 0.9, 0.0, 2.1, DOOR, 2 * PROUD)
    for z0, z1 in ((0.15, 0.95), (1.1, 1.95)):
        _panel(mb, wall, s0 + 0.12, s0 + 0.78, z0, z1, PANEL_FRAME, 2.5 * PROUD)
    _panel(mb, wall, s0 + 0.78, s0 + 0.84, 1.0, 1.05, GILT, 3 * PROUD)


def _pictures(mb: MeshBuilder, wall: tuple[Vec3T, Vec3T, Vec3T, float], k: int) -> None:
    """Framed pictures in the plaster field, hung at eye height."""
    length = wall[3]
    for j, s in enumerate((0.2, 0.8) if k == 0 else (0.22,)):
        mid = s * length
        _panel(mb, wall, mid - 0.42, mid + 0.42, 1.35, 2.0, GILT, PROUD)
        _panel(mb, wall, mid - 0.36, mid + 0.36, 1.41, 1.94, CANVASES[(j + k) % len(CANVASES)], 1.5 * PROUD)


def _cue_rack(mb: MeshBuilder, wall: tuple[Vec3T, Vec3T, Vec3T, float]) -> None:
    """A wall rack of cues: a board at the dado with the butts in it, a board above holding the shafts."""
    o, u, n, length = wall
    mid = 0.62 * length
    _panel(mb, wall, mid - 0.5, mid + 0.5, DADO + 0.02, DADO + 0.14, PANEL_FRAME, 0.04)
    _panel(mb, wall, mid - 0.5, mid + 0.5, DADO + 1.12, DADO + 1.2, PANEL_FRAME, 0.04)
    for j in range(8):
        s = mid - 0.42 + j * 0.12
        base = _on_wall(o, u, n, s, DADO + 0.05, 0.03)
        _upright(mb, base, 0.014, 0.55, CUE_BUTT)
        _upright(mb, (base[0], base[1], base[2] + 0.55), 0.010, 0.9, CUE_WOOD, 0.006)


def _upright(
    mb: MeshBuilder, base: Vec3T, r0: float, tall: float, colour: ColourT, r1: float | None = None
) -> None:
    mb.cylinder((base[0], base[1], 0.0), r0, base[2], base[2] + tall, colour, 8, radius_top=r1)
