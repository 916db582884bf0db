"""A bare stand-in for ``physics.geometry`` (used only when that module is absent).

Same interface as the agreed ``build_table_geometry``: a slate box, straight cushions with the
nose at the spec's height, rail tops, the floor and the lamp. Pockets are regions, not holes:
a ball whose centre crosses a mouth beyond the nose line drops (captured) at once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from panda3d.bullet import BulletBoxShape, BulletPlaneShape, BulletRigidBodyNode, BulletWorld
from panda3d.core import BitMask32, Point3, TransformState, Vec3

from physics.scenario import SceneObject
from physics.tables import TableSpec


@dataclass(frozen=True)
class Surface:
    kind: str
    id: str | None
    restitution: float
    friction: float


_DEFAULTS = {
    "bed": (0.5, 0.2),
    "cushion": (0.85, 0.2),
    "jaw": (0.85, 0.2),
    "pocket": (0.3, 0.5),
    "rail_top": (0.6, 0.3),
    "frame": (0.6, 0.3),
    "floor": (0.6, 0.4),
    "lamp": (0.5, 0.3),
    "chalk": (0.4, 0.5),
    "person": (0.2, 0.6),
    "cue": (0.6, 0.3),
}


class TableGeometry:
    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.nodes: list[BulletRigidBodyNode] = []
        self.collide_mask = BitMask32.bit(0)

    def surface(self, node: object) -> Surface | None:
        s = node.get_python_tag("surface") if hasattr(node, "get_python_tag") else None  # type: ignore[attr-defined]
        return s if isinstance(s, Surface) else None

    def pocket_of(self, pos: Sequence[float]) -> str | None:
        x, y = pos[0], pos[1]
        if self.in_bed_outline(x, y):
            return None
        for pid, pk in self.spec.pockets.items():
            near = math.hypot(x - pk.centre[0], y - pk.centre[1]) < pk.mouth
            if near and pos[2] < self.spec.ball_radius + 0.01:
                return pid
        return None

    def in_bed_outline(self, x: float, y: float) -> bool:
        return abs(x) <= self.spec.half_length and abs(y) <= self.spec.half_width

    def rest_place(self, pos: Sequence[float]) -> str:
        s = self.spec
        if pos[2] < s.floor_z + s.ball_radius + 0.01:
            return "floor"
        if self.in_bed_outline(pos[0], pos[1]) and abs(pos[2] - s.ball_radius) < 0.005:
            return "bed"
        if pos[2] > s.rail_height:
            return "rail"
        return "frame"


def build_table_geometry(
    world: BulletWorld,
    spec: TableSpec,
    objects: Sequence[SceneObject] = (),
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
    materials: Mapping[str, tuple[float, float]] | None = None,
) -> TableGeometry:
    geo = TableGeometry(spec)
    mats = dict(_DEFAULTS)
    mats.update(materials or {})
    hl, hw = spec.half_length, spec.half_width

    def add(kind: str, sid: str | None, shape: object, at: tuple[float, float, float]) -> None:
        e, mu = mats[kind]
        node = BulletRigidBodyNode(f"{kind}:{sid}")
        node.add_shape(shape, TransformState.make_pos(Point3(*at)))
        node.set_restitution(e)
        node.set_friction(mu)
        node.set_python_tag("surface", Surface(kind, sid, e, mu))
        node.set_into_collide_mask(geo.collide_mask)
        node.notify_collisions(True)
        world.attach_rigid_body(node)
        geo.nodes.append(node)

    add("bed", None, BulletBoxShape(Vec3(hl, hw, 0.025)), (0.0, 0.0, -0.025))
    h = spec.cushion_nose_height
    cw = spec.cushion_width
    for cid, c in spec.cushions.items():
        (x0, y0), (x1, y1) = c.start, c.end
        nx, ny = c.normal
        cx, cy = (x0 + x1) / 2 - nx * cw / 2, (y0 + y1) / 2 - ny * cw / 2
        half = (abs(x1 - x0) / 2 + abs(nx) * cw / 2, abs(y1 - y0) / 2 + abs(ny) * cw / 2, h / 2)
        add("cushion", cid, BulletBoxShape(Vec3(*half)), (cx, cy, h / 2))
    rw, rh = spec.rail_width, spec.rail_height
    for sign in (-1, 1):
        add(
            "rail_top",
            None,
            BulletBoxShape(Vec3(hl + cw + rw, rw / 2, rh / 2)),
            (0.0, sign * (hw + cw + rw / 2), rh / 2),
        )
        add(
            "rail_top",
            None,
            BulletBoxShape(Vec3(rw / 2, hw + cw, rh / 2)),
            (sign * (hl + cw + rw / 2), 0.0, rh / 2),
        )
    add("floor", None, BulletPlaneShape(Vec3(0, 0, 1), 0), (0.0, 0.0, spec.floor_z))
    if lamp is not None:
        add("lamp", None, BulletBoxShape(Vec3(0.6, 0.25, 0.05)), (lamp[0], lamp[1], lamp[2] + 0.05))
    for o in objects:
        add(
            o.kind if o.kind in mats else "cue",
            o.kind,
            BulletBoxShape(Vec3(0.02, 0.02, 0.02)),
            (o.at[0], o.at[1], o.at[2] + 0.02),
        )
    return geo
