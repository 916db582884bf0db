"""The lamp over each table and the lights it gives.

Every lamp is drawn inside the shade box the physics lets a flying ball hit (``TableGeometry.lamp_box``), so
what a referee sees a ball touch is what the ball touched:

- Russian pyramid: a row of three conical metal shades on a bar, the club lamp of Russian billiard halls;
- pool: three dome shades on a bar;
- snooker: one rectangular canopy over the middle of the table, open below, with a diffuser.

High quality lights the table with one shadow-casting spotlight per shade (several bulbs, so the shadows have
soft, overlapping edges as under a real lamp) and, through the room's irradiance (``scenes.look.RoomLight.fill``),
the even light a shade's white inside and diffuser send down over the whole bed: with the bulbs' points of light
alone the cloth at the corner pockets had a seventh of the light at the middle. Low quality lights it with point
lights and no shadows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from panda3d.core import AmbientLight, NodePath, PointLight, Spotlight

from scenes.geom_mesh import ColourT, MeshBuilder, Vec3T

Box = tuple[Vec3T, Vec3T]

GREEN_METAL: ColourT = (0.05, 0.20, 0.11, 1.0)
DOME: ColourT = (0.32, 0.05, 0.04, 1.0)
CANOPY_WOOD: ColourT = (0.22, 0.10, 0.05, 1.0)
BRASS: ColourT = (0.80, 0.62, 0.30, 1.0)
INSIDE: ColourT = (0.92, 0.90, 0.86, 1.0)
GLOW: ColourT = (1.0, 0.97, 0.90, 1.0)
SHADOW_MAP = 2048
# The lamp's light on the cloth under it, bulbs and fill together (linear units of the shader), and the share the
# fill gives (an irradiance from above, the same over the whole table; the bulbs give the rest and the shadows).
LAMP_POWER = 4.2
FILL_SHARE = 0.4
FILL_IRRADIANCE = FILL_SHARE * LAMP_POWER


@dataclass(frozen=True)
class Shade:
    """One shade: its bottom opening centred at ``centre`` (x, y, z of the rim), and how it is drawn."""

    centre: Vec3T
    kind: str  # "cone" | "dome" | "canopy"
    radius: float = 0.0  # cone/dome: rim radius
    half: tuple[float, float] = (0.0, 0.0)  # canopy: half length (x), half width (y)
    height: float = 0.15


def lamp_kind(table_id: str) -> str:
    if table_id.startswith("snooker"):
        return "canopy"
    if table_id.startswith("pool"):
        return "dome"
    return "cone"


def lamp_shades(table_id: str, box: Box) -> list[Shade]:
    """The shades of the table's lamp, inside ``box``."""
    (x0, y0, z0), (x1, y1, z1) = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    kind = lamp_kind(table_id)
    tall = z1 - z0
    if kind == "canopy":
        return [Shade((cx, cy, z0), "canopy", half=((x1 - x0) / 2, (y1 - y0) / 2), height=tall)]
    r = min((y1 - y0) / 2, (x1 - x0) / 6) * 0.98
    step = (x1 - x0) / 3
    return [Shade((x0 + step * (k + 0.5), cy, z0), kind, radius=r, height=tall) for k in range(3)]


def bulbs(table_id: str, box: Box) -> list[Vec3T]:
    """Where the light comes from: inside each shade, or two tubes along a canopy."""
    out: list[Vec3T] = []
    for s in lamp_shades(table_id, box):
        x, y, z = s.centre
        if s.kind == "canopy":
            out += [(x - 0.45 * s.half[0], y, z + 0.04), (x + 0.45 * s.half[0], y, z + 0.04)]
        else:
            out.append((x, y, z + 0.05))
    return out


def build_lamp(table_id: str, box: Box, ceiling: float) -> tuple[NodePath, NodePath]:
    """The lamp's body (shades, bar, rods to the ceiling) and its glowing parts, as two nodes."""
    body, glow = MeshBuilder("lamp"), MeshBuilder("lamp-glow")
    shades = lamp_shades(table_id, box)
    (x0, y0, _), (x1, y1, z1) = box
    cy = (y0 + y1) / 2
    for s in shades:
        if s.kind == "canopy":
            _canopy(body, glow, s)
        else:
            _round_shade(body, glow, s)
    if shades[0].kind != "canopy":
        # The bar the shades hang from, along the top of the box.
        bar_z = z1 - 0.012
        body.box((x0, cy - 0.012, bar_z - 0.012), (x1, cy + 0.012, bar_z + 0.012), BRASS)
    for rx in (x0 + 0.15 * (x1 - x0), x1 - 0.15 * (x1 - x0)):
        body.cylinder((rx, cy, 0), 0.005, z1, ceiling, BRASS, 8)
    return NodePath(body.node()), NodePath(glow.node())


def _round_shade(body: MeshBuilder, glow: MeshBuilder, s: Shade) -> None:
    """A cone or dome shade: metal outside, white inside, a bulb's glow in the opening."""
    x, y, z = s.centre
    n = 28
    rings: list[tuple[float, float]] = []  # (height above the rim, radius)
    for k in range(9):
        f = k / 8
        if s.kind == "dome":
            a = f * math.pi / 2
            rings.append((s.height * math.sin(a) * 0.9, s.radius * (1.0 - 0.82 * (1 - math.cos(a)) ** 0.8)))
        else:
            rings.append((s.height * 0.8 * f, s.radius * (1.0 - 0.72 * f)))
    colour = DOME if s.kind == "dome" else GREEN_METAL
    for (h0, r0), (h1, r1) in zip(rings, rings[1:], strict=False):
        body.cylinder((x, y, 0), r0, z + h0, z + h1, colour, n, radius_top=r1)
        body.cylinder((x, y, 0), r0 * 0.985, z + h0, z + h1, INSIDE, n, inside=True, radius_top=r1 * 0.985)
    top_h, top_r = rings[-1]
    body.disc((x, y, z + top_h), top_r, colour, n)
    # A rolled brass rim and the neck to the bar.
    body.cylinder((x, y, 0), s.radius * 1.02, z - 0.004, z + 0.006, BRASS, n)
    body.cylinder((x, y, 0), 0.012, z + top_h, z + s.height, BRASS, 10)
    glow.disc((x, y, z + 0.4 * s.height), s.radius * 0.55, GLOW, n, up=False)


def _canopy(body: MeshBuilder, glow: MeshBuilder, s: Shade) -> None:
    """A snooker canopy: a wooden box open below, white inside, the diffuser set a little up in it."""
    x, y, z = s.centre
    hx, hy = s.half
    t = 0.02
    top = z + s.height
    for sx, sy, ex, ey in (
        (x - hx, y - hy, x + hx, y - hy + t),
        (x - hx, y + hy - t, x + hx, y + hy),
        (x - hx, y - hy, x - hx + t, y + hy),
        (x + hx - t, y - hy, x + hx, y + hy),
    ):
        body.box((sx, sy, z), (ex, ey, top), CANOPY_WOOD)
    body.box((x - hx, y - hy, top - 0.01), (x + hx, y + hy, top), CANOPY_WOOD)
    body.box((x - hx - 0.006, y - hy - 0.006, z), (x + hx + 0.006, y + hy + 0.006, z + 0.012), BRASS)
    glow.polygon(
        [
            (x - hx + t, y - hy + t),
            (x + hx - t, y - hy + t),
            (x + hx - t, y + hy - t),
            (x - hx + t, y + hy - t),
        ],
        z + 0.05,
        GLOW,
        up=False,
    )


def make_lights(root: NodePath, table_id: str, box: Box, high: bool) -> list[NodePath]:
    """The lamp's lights under ``root`` (and set on it). High: shadow-casting spotlights pointing down, little
    ambient light (the room is dim; the image-based light adds the rest). Low: point lights and more ambient."""
    lights: list[NodePath] = []
    amb = AmbientLight("ambient")
    amb.setColor((0.012, 0.011, 0.010, 1) if high else (0.36, 0.35, 0.33, 1))
    lights.append(root.attachNewNode(amb))
    spots = bulbs(table_id, box)
    for i, (x, y, z) in enumerate(spots):
        if high:
            sl = Spotlight(f"lamp-{i}")
            power = (1.0 - FILL_SHARE) * LAMP_POWER / len(spots)
            sl.setColor((power, power * 0.97, power * 0.9, 1))
            sl.setAttenuation((0.25, 0.0, 0.75))
            lens = sl.getLens()
            lens.setFov(150)  # wide: the cone's hard edge falls beyond the table and its rails
            lens.setNearFar(
                0.4, z + 2.5
            )  # a far near plane keeps the depth fine enough for a ball touching the cloth
            sl.setShadowCaster(True, SHADOW_MAP, SHADOW_MAP)
            np_ = root.attachNewNode(sl)
            np_.setPos(x, y, z)
            np_.lookAt(x, y, z - 1.0)
        else:
            pl = PointLight(f"lamp-{i}")
            c = 1.32 / len(spots)
            pl.setColor((c, c * 0.955, c * 0.886, 1))
            pl.setAttenuation((0.55, 0.0, 0.35))
            np_ = root.attachNewNode(pl)
            np_.setPos(x, y, z - 0.02)
        lights.append(np_)
    for light in lights:
        root.setLight(light)
    return lights
