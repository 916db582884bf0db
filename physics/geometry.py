"""The static part of the Bullet world: one body per solid of the table's plan (``physics.plan``), with
the materials of its surfaces, and the contact questions that need Bullet.

The engine builds a world per stroke: the plan of a table with its lamp and objects is built once and
kept, and each solid's Bullet shape is made once and shared by every world (Bullet lets one collision shape
serve any number of bodies and worlds; a body belongs to one world), so a table builds in ~2 ms instead
of ~17 ms (see ``build_table_geometry``).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from panda3d.bullet import (
    BulletBoxShape,
    BulletConvexHullShape,
    BulletCylinderShape,
    BulletMultiSphereShape,
    BulletPlaneShape,
    BulletRigidBodyNode,
    BulletShape,
    BulletSphereShape,
    BulletWorld,
    X_up,
    Y_up,
)
from panda3d.core import BitMask32, Point3, PTA_LVecBase3, PTA_stdfloat, TransformState, Vec3

from physics.errors import InputError
from physics.objects import CHALK_SIZE, CUE_LENGTH, CUE_RADIUS, PERSON_SIZE, SceneObject
from physics.plan import (
    GJK_MERGE,
    MARGIN,
    POCKET_BACK_FROM,
    POCKET_BACK_WALL,
    ROOM_HALF,
    ROOM_HEIGHT,
    ROUND_LIMIT,
    SURFACE_KINDS,
    Box,
    CushionContact,
    GeometryExtras,
    Hull,
    Jaw,
    Plane,
    PocketShape,
    Round,
    Solid,
    TablePlan,
    clear_plan_cache,
    load_extras,
    pocket_shapes,
    scene_plan,
)
from physics.tables import TableSpec

__all__ = [
    # The plan's names, read from here before the plan had a module of its own (physics.plan is their
    # home: it loads no Bullet).
    "CHALK_SIZE",
    "CUE_LENGTH",
    "CUE_RADIUS",
    "GJK_MERGE",
    "MARGIN",
    "PERSON_SIZE",
    "POCKET_BACK_FROM",
    "POCKET_BACK_WALL",
    "ROOM_HALF",
    "ROOM_HEIGHT",
    "ROUND_LIMIT",
    "SURFACE_KINDS",
    "CushionContact",
    "GeometryExtras",
    "Jaw",
    "PocketShape",
    "load_extras",
    "pocket_shapes",
    # The bodies.
    "DEFAULT_MATERIALS",
    "PART_MATERIALS",
    "POCKET_BACK_BY_TABLE",
    "SURFACE_TAG",
    "Surface",
    "TableGeometry",
    "build_table_geometry",
    "clear_geometry_cache",
]

SURFACE_TAG = "surface"  # python tag on every static node

# kind -> (restitution, friction). Sources: docs/physics.md §Parameters (cloth e 0.5 mu 0.2, cushion e 0.85
# mu 0.2); wood 0.5-0.7 and floor 0.5-0.8 are ESTIMATES there; the rest are ESTIMATES here:
# a pocket's liner and net below the cloth are dead and slippery (a ball that has dropped stays
# down; the back of the opening above the cloth is "pocket_back", below), clothes are soft, chalk is
# a light crumbly cube.
DEFAULT_MATERIALS: dict[str, tuple[float, float]] = {
    "bed": (0.5, 0.2),
    "cushion": (0.85, 0.2),
    "jaw": (0.85, 0.2),
    "pocket": (0.1, 0.05),
    "rail_top": (0.6, 0.3),
    "frame": (0.6, 0.3),
    "floor": (0.65, 0.4),
    "lamp": (0.5, 0.3),
    "chalk": (0.3, 0.6),
    "person": (0.2, 0.6),
    "cue": (0.6, 0.3),
    "wall": (0.5, 0.3),
    "pocket_back": (0.4, 0.02),
}

# The back of a pocket's opening, from the cloth up to the rail top, is not the dead liner below it:
# it is what a fast ball crossing the drop almost level meets at its equator, and what throws it back
# out across the opening (row 15 of rules-notes section 2). Its material is "pocket_back"; its surface
# kind stays "pocket" (a contact there above the cloth is a contact with the pocket's rim, recorded as
# ``pocket_jaw`` like any other, never as a cushion). Per table type, because the construction differs:
#   pyramid: a net hung in a metal frame faced with leather at the back of the cut;
#   pool: a drop pocket whose rail cut is lined with a rubber facing;
#   snooker (both sizes): a leather pocket under an iron fascia, leather over the back of the opening.
# ESTIMATES: no source gives a restitution or friction for these. Chosen from the qualitative facts
# (ordinary pots stay in; very fast, straight pots, notably into tight pockets, can come back out; the
# faster and straighter the likelier) and checked by measurement (tests/physics/test_pocket_back.py,
# figures in its docstring). Friction is an effective value, far below leather's or rubber's: a
# rolling ball meets the back with its front sliding down at its own speed, and on this rigid wall a
# grip of 0.1 lifts firm 3 m/s pots up and back out, 0.2 even 2.25 m/s ones (measured with e 0.4),
# which real pockets, whose backs give, do not do. Restitution 0.4 everywhere: 0.3 threw nothing back
# out below 7.75 m/s (none at all from the pool middle pocket up to 10 m/s), 0.5 threw back 4-4.5 m/s
# pots, firm but not power pots; with 0.4 the slowest straight rolling pot thrown back is 5.25-5.75 m/s.
# (The 0.2 used before was chosen while Bullet's contacts had almost no restitution and its warm-started
# friction kicked balls off the back; see engine.hooks.BulletHooks.tick.) The tables still differ, through
# their mouths, corridors and wells (the figures in the tests).
POCKET_BACK_BY_TABLE: dict[str, tuple[float, float]] = {
    "pyramid-12ft": (0.4, 0.02),  # leather over the frame's metal, the net slack behind it
    "pool-9ft": (0.4, 0.02),  # a rubber facing on the rail's cut
    "snooker-12ft": (0.4, 0.02),  # leather over the iron fascia
    "snooker-10ft": (0.4, 0.02),
}
# Material keys that are not surface kinds: a part of a kind's surface with a facing of its own.
PART_MATERIALS = ("pocket_back",)

# Where a resting ball is, by the kind of surface under it (for final / off_table rest).
_PLACE_OF_KIND = {
    "bed": "bed",
    "cushion": "rail",
    "jaw": "rail",
    "rail_top": "rail",
    "frame": "frame",
    "floor": "floor",
    "pocket": "pocket",
    "lamp": "lamp",
    "chalk": "chalk",
    "person": "person",
    "cue": "cue",
    "wall": "floor",
}


@dataclass(frozen=True)
class Surface:
    kind: str  # one of SURFACE_KINDS
    id: str | None  # cushion id for cushions, pocket id for jaws and wells, None otherwise
    restitution: float
    friction: float
    material: str = ""  # key of the material (DEFAULT_MATERIALS) when it differs from ``kind``: "pocket_back"


# Each solid's Bullet shape and placement, made once and shared by every world built from its plan.
_MADE: weakref.WeakKeyDictionary[Solid, tuple[BulletShape, TransformState]] = weakref.WeakKeyDictionary()


def _made(solid: Solid) -> tuple[BulletShape, TransformState]:
    got = _MADE.get(solid)
    if got is None:
        pos = TransformState.make_pos_hpr(Point3(*solid.pos), Vec3(solid.heading, 0.0, 0.0))
        got = _MADE[solid] = (_bullet_shape(solid), pos)
    return got


def _bullet_shape(solid: Solid) -> BulletShape:
    s = solid.shape
    shape: BulletShape
    if isinstance(s, Box):
        shape = BulletBoxShape(Vec3(*s.half))
        shape.set_margin(MARGIN)
    elif isinstance(s, Hull):
        hull = BulletConvexHullShape()
        for p in s.points:
            hull.add_point(Point3(*p))
        hull.set_margin(MARGIN)
        shape = hull
    elif isinstance(s, Round):
        centres = PTA_LVecBase3()
        centres.push_back(Vec3(0.0, 0.0, 0.0))
        radii = PTA_stdfloat()
        radii.push_back(s.radius)
        shape = BulletMultiSphereShape(centres, radii)
        shape.set_margin(s.radius)
    elif isinstance(s, Plane):
        shape = BulletPlaneShape(Vec3(*s.normal), s.d)
    else:
        shape = BulletCylinderShape(s.radius, s.length, X_up if s.along_x else Y_up)
        shape.set_margin(MARGIN)
    return shape


class TableGeometry:
    """The static bodies of one table's plan in one world, with the plan's facts at hand."""

    def __init__(
        self, world: BulletWorld, plan: TablePlan, materials: Mapping[str, tuple[float, float]]
    ) -> None:
        self.world = world
        self.plan = plan
        self.spec = plan.spec
        self.extras = plan.extras
        self.materials = dict(materials)
        self.nodes: list[BulletRigidBodyNode] = []
        self._names: list[str] = []  # the nodes' names, in order (contacts)
        self._probes: dict[float, BulletRigidBodyNode] = {}  # contacts' probe spheres by radius
        self.collide_mask = BitMask32.bit(0)
        # Every static body but the slate also carries this bit: a sweep with it alone ignores the slate
        # (free flight over the open cloth, physics.engine.freeflight). The engine's world keeps the bit's
        # bodies from pairing with each other (physics.engine.bullet).
        self.off_slate_mask = BitMask32.bit(3)
        self.cushion_contact = plan.cushion_contact
        self.pockets: dict[str, PocketShape] = dict(plan.pockets)
        self.lamp_box = plan.lamp_box
        self.object_boxes = list(plan.object_boxes)

    def _realise(self) -> None:
        """Make one static body per solid of the plan in ``self.world`` (shapes are shared, bodies are not)."""
        world = self.world
        mask = self.collide_mask
        surfaces: dict[tuple[str, str | None, str], Surface] = {}
        for solid in self.plan.solids:
            e, mu = self.materials[solid.material or solid.kind]
            surf = surfaces.get((solid.kind, solid.ident, solid.material))
            if surf is None:
                surf = surfaces[(solid.kind, solid.ident, solid.material)] = Surface(
                    solid.kind, solid.ident, e, mu, solid.material
                )
            shape, placed = _made(solid)
            node = BulletRigidBodyNode(f"{solid.kind}:{solid.ident or ''}:{len(self.nodes)}")
            node.add_shape(shape)
            node.set_transform(placed)
            node.set_restitution(e)
            node.set_friction(mu)
            node.set_into_collide_mask(mask if solid.kind == "bed" else mask | self.off_slate_mask)
            node.set_python_tag(SURFACE_TAG, surf)
            world.attach(node)
            self.nodes.append(node)

    # -- the plan's questions ------------------------------------------------------------------

    def pocket_of(self, pos: Sequence[float]) -> str | None:
        return self.plan.pocket_of(pos)

    def in_bed_outline(self, x: float, y: float) -> bool:
        return self.plan.in_bed_outline(x, y)

    def kind_below(self, x: float, y: float, z: float) -> str:
        return self.plan.kind_below(x, y, z)

    def support_z(self, x: float, y: float) -> float:
        return self.plan.support_z(x, y)

    def safe_box(self, R: float | None = None, clearance: float = 0.001) -> tuple[float, float, float, float]:
        return self.plan.safe_box(R, clearance)

    # -- contacts ------------------------------------------------------------------------------

    def surface(self, node: Any) -> Surface | None:
        """The surface a static node stands for (None for anything that is not ours)."""
        if node is None or not hasattr(node, "has_python_tag") or not node.has_python_tag(SURFACE_TAG):
            return None
        s = node.get_python_tag(SURFACE_TAG)
        return s if isinstance(s, Surface) else None

    def rest_place(self, pos: Sequence[float]) -> str:
        """Where a resting ball centre is: 'bed', 'rail', 'floor', 'frame', 'pocket', 'chalk', ...

        Named by what the ball rests on: the static surface whose contact with a ball-sized probe
        at ``pos`` pushes most upwards; without such contact, the highest surface under the centre.
        """
        x, y, z = float(pos[0]), float(pos[1]), float(pos[2])
        if self.pocket_of((x, y, z)) is not None:
            return "pocket"
        best: tuple[float, str] | None = None
        for surf, _point, normal, dist in self.contacts((x, y, z - 0.0005), self.spec.ball_radius):
            if dist < 1e-4 and normal[2] > 0.3 and (best is None or normal[2] > best[0]):
                best = (normal[2], surf.kind)
        kind = best[1] if best is not None else self.kind_below(x, y, z)
        return _PLACE_OF_KIND.get(kind, kind)

    def contacts(
        self,
        pos: Sequence[float],
        radius: float,
    ) -> list[tuple[Surface, tuple[float, float, float], tuple[float, float, float], float]]:
        """Contacts of a sphere at ``pos`` with the static bodies, in node order.

        Each is (surface, point on the surface, unit normal pointing from the surface to the sphere,
        distance; negative = penetration). Pairs are tested one by one: Panda3D's ``contact_test``
        reports several contacts through one shared manifold point.
        """
        probe = self._probes.get(radius)
        if probe is None:
            # One probe per radius, moved for each query (a new body and shape per query cost more than
            # the contact tests).
            probe = self._probes[radius] = BulletRigidBodyNode("probe")
            probe.add_shape(BulletSphereShape(radius))
            probe.set_into_collide_mask(self.collide_mask)
        probe.set_transform(TransformState.make_pos(Point3(float(pos[0]), float(pos[1]), float(pos[2]))))
        names = {
            c.get_node1().get_name() if c.get_node0().get_name() == "probe" else c.get_node0().get_name()
            for c in self.world.contact_test(probe).get_contacts()
        }
        out: list[tuple[Surface, tuple[float, float, float], tuple[float, float, float], float]] = []
        if not names:
            return out
        # The bodies' names, asked once (a query asked every body its name: ~150 calls where a few touch).
        if len(self._names) != len(self.nodes):
            self._names = [n.get_name() for n in self.nodes]
        for name, node in zip(self._names, self.nodes, strict=True):
            if name not in names:
                continue
            surf = self.surface(node)
            assert surf is not None
            for c in self.world.contact_test_pair(probe, node).get_contacts():
                mp = c.get_manifold_point()
                flip = c.get_node0().get_name() != "probe"
                nb = mp.get_normal_world_on_b()
                pt = mp.get_position_world_on_a() if flip else mp.get_position_world_on_b()
                n = (-nb.x, -nb.y, -nb.z) if flip else (nb.x, nb.y, nb.z)
                out.append((surf, (pt.x, pt.y, pt.z), n, mp.get_distance()))
        return out

    def remove(self) -> None:
        """Detach every static node from the world."""
        for n in self.nodes:
            self.world.remove(n)
        self.nodes.clear()
        self._names.clear()


def build_table_geometry(
    world: BulletWorld,
    spec: TableSpec,
    objects: Sequence[SceneObject] = (),
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
    materials: Mapping[str, tuple[float, float]] | None = None,
) -> TableGeometry:
    """Build the table's static bodies into ``world`` and return what was built.

    The plan (``physics.plan.scene_plan``) is kept per table, lamp and objects, and each solid's shape is
    shared by every world; a world only gets new bodies. The result is the same as a build from scratch:
    same bodies, same order, same numbers.

    Args:
        world: the Bullet world (gravity and stepping are the caller's).
        spec: the table.
        objects: scenario objects (chalk, person, cue-on-rail).
        lamp: the lamp shade's bottom centre (x, y, height above the cloth), or None for no lamp.
        materials: kind -> (restitution, friction), overriding :data:`DEFAULT_MATERIALS`.
    """
    mats = dict(DEFAULT_MATERIALS)
    mats["pocket_back"] = POCKET_BACK_BY_TABLE.get(spec.id, DEFAULT_MATERIALS["pocket_back"])
    for kind, val in (materials or {}).items():
        if kind not in DEFAULT_MATERIALS:
            raise InputError(
                "materials",
                str(kind),
                f"a surface kind or part ({', '.join(SURFACE_KINDS + PART_MATERIALS)})",
            )
        if (
            not isinstance(val, (tuple, list))
            or len(val) != 2
            or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in val
            )
            or not 0.0 <= val[0] <= 1.0
            or val[1] < 0.0
        ):
            raise InputError("materials", str(kind), "[restitution in 0..1, friction >= 0]")
        mats[kind] = (float(val[0]), float(val[1]))
    g = TableGeometry(world, scene_plan(spec, tuple(objects), lamp), mats)
    g._realise()
    return g


def clear_geometry_cache() -> None:
    """Forget every plan and shape (the next build of each table starts from scratch)."""
    clear_plan_cache()
    _MADE.clear()
