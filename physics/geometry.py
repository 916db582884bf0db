"""The static part of the Bullet world, built from a table spec (issue 2, section 2).

What is built (frame of design.md: z = 0 on the cloth, +x to the foot, +y to the left):

* the **slate**: one convex piece wherever balls roll (the nose-line rectangle and every
  pocket mouth up to its *drop line*, the end of the jaws) plus convex pieces under the
  cushions; the slate edge at a drop line is a real edge a ball can hang over;
* the **cushions**: convex prisms whose cross-section has an inclined under-face tangent to a
  ball lying on the cloth exactly at the nose height h, so the contact normal points down by
  theta = asin((h - R) / R) and a hard-hit ball is pressed into the slate (physics.md 3.5, 4);
  the rubber's top leans down from the rail top to the nose;
* the **jaws**: the cushion's profile carried round a fillet of the spec's jaw radius and along
  the straight corridor (a prism), with the facings narrowing by the table's cut angle; the free
  gap between the facings at nose height is the spec's mouth. A fillet under ROUND_LIMIT
  (pyramid, pool) is an exact round: one sphere that a ball on the cloth touches exactly where
  and how it would touch the swept profile (``TableGeometry._round_piece``); a larger one
  (snooker) is flat facets, each tilted by theta like the cushion;
* the **pocket wells**: an open box below every opening (side and back walls up to the rail
  top, a front wall under the slate edge, a floor ``pocket_depth`` below the cloth), and
  filler pieces between the wells, the jaws and the rails. The liner is dead, except the back
  of the opening above the cloth: a live facing (material ``pocket_back``) that can throw a
  very fast ball back out across the opening. A ball is pocketed once it is wholly below the
  cloth over a well (``TableGeometry.pocket_of``), where only the dead liner can reach it;
* the **rail tops** (wood) and the **frame** (the table's outer sides down to the floor);
* the **floor** at z = -bed_height, the **lamp shade**, and scenario objects (chalk, a
  person, a cue lying on a rail).

Bullet's limits shape the pieces. Its default collision margin (4 cm) is larger than a ball:
every shape gets an explicit :data:`MARGIN`; boxes keep their extents by construction and hulls
are built from polygons inset by the margin, so the margin grows them back to the intended
faces. Its GJK merges support points closer than 1 cm (:data:`GJK_MERGE`): ball-facing hull
vertices are kept about that far apart, and a small round is not a hull, a cone or a cylinder
(all come out up to 2 mm off) but a sphere whose radius is all margin. A seam between two
coplanar pieces is an internal edge that Bullet's speculative contacts turn into a hop, so the
rolling surface has none.

The engine builds a world per stroke: what depends only on the table, the lamp and the objects
is worked out once and kept (shapes are shared between worlds, bodies are made per world), so a
table builds in ~2 ms instead of ~17 ms (see ``build_table_geometry``).
"""

from __future__ import annotations

import math
import tomllib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
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

from physics import geometry_poly as gp
from physics.errors import InputError
from physics.scenario import SceneObject
from physics.tables import NOSE_EDGE_RISE, TABLES_DIR, TableSpec

MARGIN = 0.0005  # m; collision margin of every static shape (Bullet's 0.04 m default is a ball)
# Bullet's GJK treats two support points closer than 1 cm as the same (Voronoi simplex solver's
# equal-vertex threshold, 1e-4 m^2) and stops early: near hull vertices closer than that a contact
# comes out up to about a millimetre too far. Hull vertices on ball-facing surfaces are kept about
# this far apart where the spec allows (jaw fillets get fewer, longer facets).
GJK_MERGE = 0.010
# Jaw fillets of a smaller radius are built as exact rounds (``TableGeometry._round_piece``); larger
# ones (snooker's 25-30 mm) from facets at least GJK_MERGE wide, which follow the arc within ~2 mm.
ROUND_LIMIT = 2 * GJK_MERGE
SURFACE_TAG = "surface"  # python tag on every static node
# Height above the cloth where a pocket's live back begins (the facing at the back of the opening):
# a ball meets a vertical wall at its centre's height, so one whose centre is above the cloth meets
# the facing, one that has dropped further meets the dead liner.
POCKET_BACK_FROM = 0.0
# Thickness of a well's back wall. The live band above the cloth is shorter than a ball: a box that
# thin (the 12 mm liner) and that short under a ball gave Bullet's GJK contacts up to 5 mm off and
# tilted (measured); at 30 mm the contact is exact. The rail behind is cut back to make room.
POCKET_BACK_WALL = 0.03

SURFACE_KINDS = (
    "bed",
    "cushion",
    "jaw",
    "pocket",
    "rail_top",
    "frame",
    "floor",
    "lamp",
    "chalk",
    "person",
    "cue",
    "wall",
)

# The room around the table (the scenes draw the same one): walls at these half extents from the table
# centre and a ceiling this high above the floor. A ball that flies off the table stops within it.
ROOM_HALF = (5.5, 4.0)  # m (ESTIMATE: a 12 ft table needs about 1.5 m of cue room each side)
ROOM_HEIGHT = 3.0  # m, ceiling above the floor (ESTIMATE)

# kind -> (restitution, friction). Sources: physics.md 2.2 (cloth e 0.5 mu 0.2, cushion e 0.85
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

CHALK_SIZE = 0.022  # m, a cube of billiard chalk
PERSON_SIZE = (0.45, 0.30, 1.75)  # m: shoulder width, depth, height (ESTIMATE, an adult)
CUE_LENGTH = 1.45  # m [FF cue length]; Russian cues are longer (physics.md 1.3)
CUE_RADIUS = 0.011  # m, a mean of tip 13 mm and butt 30 mm diameters (ESTIMATE)


@dataclass(frozen=True)
class Surface:
    kind: str  # one of SURFACE_KINDS
    id: str | None  # cushion id for cushions, pocket id for jaws and wells, None otherwise
    restitution: float
    friction: float
    material: str = ""  # key of the material (DEFAULT_MATERIALS) when it differs from ``kind``: "pocket_back"


@dataclass(frozen=True)
class _Piece:
    """One static body to make: its surface kind and id, its (shareable) shape and its placement."""

    kind: str
    ident: str | None
    shape: BulletShape
    transform: TransformState
    material: str = ""  # a material other than the kind's own (the pocket's live back band)


@dataclass(frozen=True)
class CushionContact:
    """Facts about the contact of a ball on the cloth with a cushion (same for every cushion).

    Attributes:
        nose_height: h, height of the contact point above the cloth.
        angle: theta = asin((h - R) / R), the contact normal's angle below horizontal.
        centre_distance: horizontal distance from the nose line to the centre of a ball on the
            cloth touching the cushion, sqrt(R^2 - (h - R)^2) (a little less than R).
        top_tilt: slope of the rubber's top, down towards the bed (radians): the spec's
            ``cushion_top_tilt`` (see ``_profile``).
    """

    nose_height: float
    angle: float
    centre_distance: float
    top_tilt: float


@dataclass(frozen=True)
class Jaw:
    """One jaw: the end of a cushion turning into a pocket (plan view, table frame)."""

    pocket: str
    cushion: str
    nose_end: tuple[float, float]  # E: where the cushion's nose line ends at the mouth
    fillet_centre: tuple[float, float]
    fillet_start: tuple[float, float]  # T1: tangent point on the nose line
    fillet_end: tuple[float, float]  # T2: tangent point on the facing
    facing_end: tuple[float, float]  # F: end of the straight corridor, on the drop line
    facets: int  # segments of the fillet as built or drawn (0: a sharp corner)
    true_round: bool = False  # the fillet is an exact round (a sphere, see ``_round_piece``)


@dataclass(frozen=True)
class PocketShape:
    """A pocket's built shape in its own frame: a along the axis (outward), t across it.

    ``a`` is measured from the spec's pocket centre; ``a_mouth`` is the mouth line (between the
    nose ends), ``a_drop`` the slate edge; the well spans a_drop..a_drop + well_length and
    |t| <= well_half_width, its floor at ``floor_z``.
    """

    id: str
    centre: tuple[float, float]
    axis: tuple[float, float]
    across: tuple[float, float]
    a_mouth: float
    a_drop: float
    throat: float  # free gap between the facings at the drop line
    well_half_width: float
    well_length: float
    floor_z: float
    jaws: tuple[Jaw, Jaw]

    def local(self, x: float, y: float) -> tuple[float, float]:
        dx, dy = x - self.centre[0], y - self.centre[1]
        return dx * self.axis[0] + dy * self.axis[1], dx * self.across[0] + dy * self.across[1]

    def world(self, a: float, t: float) -> tuple[float, float]:
        return (
            self.centre[0] + a * self.axis[0] + t * self.across[0],
            self.centre[1] + a * self.axis[1] + t * self.across[1],
        )

    def in_well(self, x: float, y: float, tol: float = 0.0) -> bool:
        a, t = self.local(x, y)
        return (
            self.a_drop - tol <= a <= self.a_drop + self.well_length + tol
            and abs(t) <= self.well_half_width + tol
        )

    def rect(self, a0: float, a1: float, t0: float, t1: float) -> gp.Poly:
        return gp.ccw([self.world(a0, t0), self.world(a1, t0), self.world(a1, t1), self.world(a0, t1)])


@dataclass(frozen=True)
class GeometryExtras:
    """Numbers the collision geometry needs beyond TableSpec (``[geometry]`` in the table TOML)."""

    corner_cut_angle: float = 135.0  # deg between cushion nose and jaw facing (135: facing along the axis)
    middle_cut_angle: float = 90.0
    slate_thickness: float = 0.045
    rail_slab: float = 0.03  # the wooden rail top's thickness; the frame is below it
    well_clearance: float = 0.010  # well wider than the throat by this, each side
    well_wall: float = 0.012  # thicker than GJK_MERGE: a thin box is a poor GJK target
    lamp_shade: tuple[float, float, float] = (1.4, 0.45, 0.15)  # length (x), width (y), height
    jaw_segments: int = 6  # at most this many facets approximating a jaw fillet


@cache
def load_extras(table_id: str) -> GeometryExtras:
    path = TABLES_DIR / f"{table_id}.toml"
    if not path.exists():
        return GeometryExtras()
    with path.open("rb") as f:
        raw = tomllib.load(f).get("geometry", {})
    defaults = GeometryExtras()
    vals: dict[str, Any] = {}
    for key, val in raw.items():
        if not hasattr(defaults, key):
            raise InputError(
                str(path), f"geometry.{key}", f"a known key ({', '.join(defaults.__dataclass_fields__)})"
            )
        ref = getattr(defaults, key)
        if isinstance(ref, tuple):
            if not isinstance(val, list) or len(val) != len(ref) or not all(_finite_pos(v) for v in val):
                raise InputError(str(path), f"geometry.{key}", f"a list of {len(ref)} positive numbers")
            vals[key] = tuple(float(v) for v in val)
        elif isinstance(ref, int):
            if isinstance(val, bool) or not isinstance(val, int) or not 1 <= val <= 32:
                raise InputError(str(path), f"geometry.{key}", "an integer in [1, 32]")
            vals[key] = val
        else:
            if not (_finite_pos(val) or (key == "well_clearance" and val == 0)):
                raise InputError(str(path), f"geometry.{key}", "a positive number")
            vals[key] = float(val)
    return GeometryExtras(**vals)


def _finite_pos(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v) and v > 0


# ---------------------------------------------------------------------------------------------
# Cushion cross-section


def _profile(spec: TableSpec, depth: float, steepen: float = 1.0) -> list[tuple[float, float]]:
    """Cushion cross-section (n, z): n behind the nose line (into the cushion), z above the cloth.

    The under-face is the plane tangent to a ball on the cloth at height h, so the contact is at
    h with its normal tilted theta below horizontal. The sharp edge where it meets the rubber's
    top is put a little above h so the margin's rounding of that edge stays clear of the contact.

    The rubber's top is ONE plane from that edge up to the rail top at the back, tilted by the
    spec's ``cushion_top_tilt`` (the rail height is derived for it: ``tables.rail_height_for``).
    One plane, because Bullet's GJK misreads a shallow crease inside a hull under a ball (it
    reported the plane through the nose and the back edge instead).
    """
    R, h = spec.ball_radius, spec.cushion_nose_height
    theta = math.asin((h - R) / R)
    tan_t = math.tan(theta) * steepen
    e = NOSE_EDGE_RISE
    nose = (-e * tan_t, h + e)
    foot = (h * tan_t, 0.0)
    top = max(spec.rail_height, nose[1] + 0.001)
    back = max(depth, foot[0] + GJK_MERGE)
    return gp._dedup(gp.ccw([foot, (back, 0.0), (back, top), nose]))


# ---------------------------------------------------------------------------------------------
# The geometry object


class TableGeometry:
    """Static bodies of one table in one world, plus the plan-view facts the engine needs."""

    def __init__(
        self,
        world: BulletWorld | None,
        spec: TableSpec,
        extras: GeometryExtras,
        materials: Mapping[str, tuple[float, float]],
    ) -> None:
        # ``world`` is None while a blueprint is recorded (see ``build_table_geometry``): the pieces are
        # then only listed, and bodies are made from them for each world that asks.
        self.world = world  # type: ignore[assignment]
        self.spec = spec
        self.extras = extras
        self.materials = dict(materials)
        self.nodes: list[BulletRigidBodyNode] = []
        self.collide_mask = BitMask32.bit(0)
        R, h = spec.ball_radius, spec.cushion_nose_height
        theta = math.asin((h - R) / R)
        prof = _profile(spec, spec.cushion_width)
        nose = min(prof, key=lambda q: (q[0], -q[1]))
        back_top = max(prof, key=lambda q: (q[0], q[1]))
        self.cushion_contact = CushionContact(
            h,
            theta,
            math.sqrt(R * R - (h - R) ** 2),
            math.atan2(back_top[1] - nose[1], back_top[0] - nose[0]),
        )
        self.pockets: dict[str, PocketShape] = {}
        self.lamp_box: tuple[tuple[float, float, float], tuple[float, float, float]] | None = None
        self.object_boxes: list[tuple[str, tuple[float, float, float], tuple[float, float, float]]] = []
        self._passages: list[gp.Poly] = []
        self._openings: list[gp.Poly] = []
        self._tops: list[tuple[gp.Poly, float, str]] = []  # plan outline, top height, kind of each body
        self._pieces: list[_Piece] = []  # every static body, in build order

    def _copy(self, world: BulletWorld | None, materials: Mapping[str, tuple[float, float]]) -> TableGeometry:
        """A geometry with this one's plan facts and pieces (lists copied, shapes shared), no bodies yet."""
        g = TableGeometry.__new__(TableGeometry)
        g.world = world  # type: ignore[assignment]
        g.spec, g.extras, g.materials = self.spec, self.extras, dict(materials)
        g.nodes = []
        g.collide_mask = self.collide_mask
        g.cushion_contact = self.cushion_contact
        g.pockets = dict(self.pockets)
        g.lamp_box = self.lamp_box
        g.object_boxes = list(self.object_boxes)
        g._passages, g._openings = list(self._passages), list(self._openings)
        g._tops = list(self._tops)
        g._pieces = list(self._pieces)
        return g

    def _realise(self) -> None:
        """Make one static body per recorded piece in ``self.world`` (shapes are shared, bodies are not)."""
        world = self.world
        mask = self.collide_mask
        surfaces: dict[tuple[str, str | None, str], Surface] = {}
        for piece in self._pieces:
            e, mu = self.materials[piece.material or piece.kind]
            surf = surfaces.get((piece.kind, piece.ident, piece.material))
            if surf is None:
                surf = surfaces[(piece.kind, piece.ident, piece.material)] = Surface(
                    piece.kind, piece.ident, e, mu, piece.material
                )
            node = BulletRigidBodyNode(f"{piece.kind}:{piece.ident or ''}:{len(self.nodes)}")
            node.add_shape(piece.shape)
            node.set_transform(piece.transform)
            node.set_restitution(e)
            node.set_friction(mu)
            node.set_into_collide_mask(mask)
            node.set_python_tag(SURFACE_TAG, surf)
            world.attach(node)
            self.nodes.append(node)

    # -- queries -------------------------------------------------------------------------------

    def surface(self, node: Any) -> Surface | None:
        """The surface a static node stands for (None for anything that is not ours)."""
        if node is None or not hasattr(node, "has_python_tag") or not node.has_python_tag(SURFACE_TAG):
            return None
        s = node.get_python_tag(SURFACE_TAG)
        return s if isinstance(s, Surface) else None

    def pocket_of(self, pos: Sequence[float]) -> str | None:
        """The pocket that holds this ball for good: its centre inside a well's plan and the whole ball
        below the cloth (centre more than R under it).

        Only from there can it not come back: a vertical wall meets a ball at its centre's height, so
        every wall it can reach is the dead liner under the live back (``POCKET_BACK_FROM`` = the cloth),
        and the slate's edge would push it down, not up. A ball only partly below the cloth can still be
        thrown back out by the back of the pocket (row 15: not pocketed, in play).
        """
        x, y, z = float(pos[0]), float(pos[1]), float(pos[2])
        if z >= -self.spec.ball_radius:
            return None
        for pid, p in self.pockets.items():
            if p.in_well(x, y, tol=1e-4) and z > p.floor_z - 0.05:
                return pid
        return None

    def in_bed_outline(self, x: float, y: float) -> bool:
        """Centre within the bed outline: the nose-line rectangle, the jaw passages, the openings."""
        s = self.spec
        if abs(x) <= s.half_length and abs(y) <= s.half_width:
            return True
        p = (x, y)
        return any(gp.contains(q, p) for q in self._passages) or any(
            gp.contains(q, p) for q in self._openings
        )

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
        probe = BulletRigidBodyNode("probe")
        shape = BulletSphereShape(radius)
        probe.add_shape(shape)
        probe.set_transform(TransformState.make_pos(Point3(float(pos[0]), float(pos[1]), float(pos[2]))))
        probe.set_into_collide_mask(self.collide_mask)
        names = {
            c.get_node1().get_name() if c.get_node0().get_name() == "probe" else c.get_node0().get_name()
            for c in self.world.contact_test(probe).get_contacts()
        }
        out = []
        for node in self.nodes:
            if node.get_name() not in names:
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

    def kind_below(self, x: float, y: float, z: float) -> str:
        """Kind of the highest static top at or below height z under (x, y) (the floor if none)."""
        best = (self.spec.floor_z, "floor")
        for poly, top, kind in self._tops:
            if best[0] < top <= z + 1e-3 and gp.contains(poly, (x, y), 1e-6):
                best = (top, kind)
        return best[1]

    def support_z(self, x: float, y: float) -> float:
        """Height of the highest static top under (x, y) (the floor if none)."""
        return max(
            [self.spec.floor_z]
            + [top for poly, top, kind in self._tops if kind != "lamp" and gp.contains(poly, (x, y), 1e-6)]
        )

    def safe_box(self, R: float | None = None, clearance: float = 0.001) -> tuple[float, float, float, float]:
        """(x_min, x_max, y_min, y_max) of centres where a ball on the cloth touches no cushion, jaw or pocket.

        Every solid of the table lies outside the nose-line rectangle, and a ball touches a nose
        when its centre is ``centre_distance`` from the nose line; the box is shrunk further (both
        half-sizes alike) until a ball at any of its corners keeps a radius of slate between its
        centre and every drop line.
        """
        s = self.spec
        R = s.ball_radius if R is None else R
        lift = s.cushion_nose_height - R
        d = math.sqrt(R * R - lift * lift) if R > abs(lift) else R
        hx, hy = s.half_length - d - clearance, s.half_width - d - clearance
        for p in self.pockets.values():
            ax, ay = p.axis
            # The box corner nearest this pocket, and how far it must come in along the diagonal.
            a, _t = p.local(
                math.copysign(hx, ax) if abs(ax) > 1e-9 else 0.0,
                math.copysign(hy, ay) if abs(ay) > 1e-9 else 0.0,
            )
            excess = a + R + clearance - p.a_drop
            if excess > 0:
                shrink = excess / (abs(ax) + abs(ay))
                hx -= shrink if abs(ax) > 1e-9 else 0.0
                hy -= shrink if abs(ay) > 1e-9 else 0.0
        return (-hx, hx, -hy, hy)

    def remove(self) -> None:
        """Detach every static node from the world."""
        for n in self.nodes:
            self.world.remove(n)
        self.nodes.clear()

    # -- building ------------------------------------------------------------------------------

    def _add(
        self,
        kind: str,
        ident: str | None,
        shape: BulletShape,
        pos: tuple[float, float, float] = (0.0, 0.0, 0.0),
        heading: float = 0.0,
        material: str = "",
    ) -> None:
        self._pieces.append(
            _Piece(
                kind,
                ident,
                shape,
                TransformState.make_pos_hpr(Point3(*pos), Vec3(heading, 0.0, 0.0)),
                material,
            )
        )

    def _box(
        self,
        kind: str,
        ident: str | None,
        lo: tuple[float, float, float],
        hi: tuple[float, float, float],
        heading: float = 0.0,
        centre: tuple[float, float] | None = None,
        material: str = "",
    ) -> None:
        """An axis-aligned box (in a frame turned by ``heading`` degrees about its centre)."""
        half = Vec3((hi[0] - lo[0]) / 2, (hi[1] - lo[1]) / 2, (hi[2] - lo[2]) / 2)
        shape = BulletBoxShape(half)
        shape.set_margin(MARGIN)
        c = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)
        if centre is not None:
            c = (centre[0], centre[1], c[2])
        self._add(kind, ident, shape, c, heading, material)
        ch, sh = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        corners = [
            (c[0] + ch * hx - sh * hy, c[1] + sh * hx + ch * hy)
            for hx, hy in ((-half.x, -half.y), (half.x, -half.y), (half.x, half.y), (-half.x, half.y))
        ]
        self._tops.append((gp.ccw(corners), hi[2], kind))

    def _prism(self, kind: str, ident: str | None, poly: Sequence[gp.Pt], z0: float, z1: float) -> None:
        """A vertical prism over a convex plan polygon; axis-aligned rectangles become boxes."""
        poly = gp.ccw(poly)
        if abs(gp.area(poly)) <= gp.MIN_AREA or z1 - z0 < 4 * MARGIN:
            return
        if gp.is_axis_rect(poly, 1e-7):
            xs = [p[0] for p in poly]
            ys = [p[1] for p in poly]
            self._box(kind, ident, (min(xs), min(ys), z0), (max(xs), max(ys), z1))
            return
        inner = gp.inset(poly, MARGIN)
        if len(inner) < 3 or gp.area(inner) <= 0:
            return
        pts = [(x, y, z) for (x, y) in inner for z in (z0 + MARGIN, z1 - MARGIN)]
        self._hull(kind, ident, pts)

    def _hull(self, kind: str, ident: str | None, pts: Sequence[tuple[float, float, float]]) -> None:
        # Centre the hull on its points' mean: single-precision Bullet is more exact near the origin.
        n = len(pts)
        cx = sum(p[0] for p in pts) / n
        cy = sum(p[1] for p in pts) / n
        cz = sum(p[2] for p in pts) / n
        shape = BulletConvexHullShape()
        for x, y, z in pts:
            shape.add_point(Point3(x - cx, y - cy, z - cz))
        shape.set_margin(MARGIN)
        self._add(kind, ident, shape, (cx, cy, cz))
        # The hull's plan, grown back by the margin (the points are inset by it).
        self._tops.append(
            (gp.inset(gp.hull([(p[0], p[1]) for p in pts]), -MARGIN), max(p[2] for p in pts) + MARGIN, kind)
        )

    def _round_piece(self, kind: str, ident: str | None, jaw: Jaw) -> None:
        """A jaw's rounding as an exact round: one sphere, touched by a ball on the cloth exactly as
        the cushion's profile swept round the fillet centre would be.

        The swept profile is a cone (the under-face turned about the vertical through the fillet
        centre C). A ball on the cloth touches that cone at height h with the normal tilted theta
        down, its centre rj + R cos(theta) from C's vertical in plan. The sphere of radius
        rho = rj / cos(theta) centred above C at h + rj tan(theta) gives exactly the same contact
        for every azimuth: the same point, the same normal. (Bullet has no exact cone or cylinder:
        its GJK merges support points closer than 1 cm, so a round of a few mm came out up to 2 mm
        off, measured; a hull of such facets likewise.) The sphere is a one-sphere multi-sphere
        whose whole radius is collision margin, so GJK works on its centre, a single point (exact),
        and Bullet still makes the speculative contacts it makes for hulls (a plain sphere pair
        gets none and is resolved only after it has overlapped, adding energy).

        Cost: for a ball above the cloth the sphere stands in for the cone less well, and its top,
        rj (tan(theta) + 1/cos(theta)) above h, rises over the rubber's top within the fillet's
        radius: by 4 mm on a pyramid corner (still under the rail top), 11 mm on a pyramid middle
        pocket and 8 mm on pool. Roundings of ROUND_LIMIT and more, whose dome would be several
        cm, stay faceted.
        """
        s = self.spec
        R, h = s.ball_radius, s.cushion_nose_height
        theta = math.asin((h - R) / R)
        rj = math.dist(jaw.fillet_centre, jaw.fillet_start)
        rho = rj / math.cos(theta)
        qz = h + rj * math.tan(theta)
        centres = PTA_LVecBase3()
        centres.push_back(Vec3(0.0, 0.0, 0.0))
        radii = PTA_stdfloat()
        radii.push_back(rho)
        shape = BulletMultiSphereShape(centres, radii)
        shape.set_margin(rho)
        cx, cy = jaw.fillet_centre
        self._add(kind, ident, shape, (cx, cy, qz))
        ring = [
            (cx + rho * math.cos(2 * math.pi * i / 16), cy + rho * math.sin(2 * math.pi * i / 16))
            for i in range(16)
        ]
        self._tops.append((ring, qz + rho, kind))


# ---------------------------------------------------------------------------------------------
# Builder


def _unit(v: tuple[float, float]) -> tuple[float, float]:
    ln = math.hypot(v[0], v[1])
    return (v[0] / ln, v[1] / ln)


def _jaw_frame(
    spec: TableSpec,
    extras: GeometryExtras,
    pocket_id: str,
    cushion_id: str,
    end: tuple[float, float],
    other: tuple[float, float],
) -> tuple[Jaw, dict[str, Any]]:
    """Plan geometry of the jaw at cushion end ``end`` (the other end of the cushion is ``other``)."""
    pocket = spec.pockets[pocket_id]
    cushion = spec.cushions[cushion_id]
    u = _unit((end[0] - other[0], end[1] - other[1]))  # along the nose, towards the pocket
    nu0 = (-cushion.normal[0], -cushion.normal[1])  # into the cushion body
    cut = extras.corner_cut_angle if pocket.corner else extras.middle_cut_angle
    phi = math.radians(180.0 - cut)  # how far the facing turns from the nose line
    if not 0.0 < phi <= math.pi / 2:
        raise InputError(
            f"{TABLES_DIR / spec.id}.toml",
            "geometry.corner_cut_angle" if pocket.corner else "geometry.middle_cut_angle",
            "an angle in [90, 180) degrees",
        )
    d = (math.cos(phi) * u[0] + math.sin(phi) * nu0[0], math.cos(phi) * u[1] + math.sin(phi) * nu0[1])
    nuf = (math.cos(phi) * nu0[0] - math.sin(phi) * u[0], math.cos(phi) * nu0[1] - math.sin(phi) * u[1])
    rj = pocket.jaw_radius
    k = rj * math.tan(phi / 2)
    da = d[0] * pocket.axis[0] + d[1] * pocket.axis[1]
    straight = pocket.corridor / da if da > 1e-9 else 0.0  # corridor is measured along the pocket axis
    f = (end[0] + (k + straight) * d[0], end[1] + (k + straight) * d[1])
    # A fillet under ROUND_LIMIT is built as an exact round (``_round_piece``); a larger one from
    # flat facets, as many as keep each at least GJK_MERGE wide (Bullet cannot tell nearer hull
    # vertices apart).
    true_round = 0.0 < rj < ROUND_LIMIT
    facets = extras.jaw_segments if true_round else 0
    if rj > 0.0 and not true_round:
        for n in range(extras.jaw_segments, 0, -1):
            if 2 * rj * math.sin(phi / n / 2) >= GJK_MERGE:
                facets = n
                break
    if facets:
        t1 = (end[0] - k * u[0], end[1] - k * u[1])
        c = (t1[0] + rj * nu0[0], t1[1] + rj * nu0[1])
        t2 = (end[0] + k * d[0], end[1] + k * d[1])
    else:
        t1 = t2 = c = end
    jaw = Jaw(pocket_id, cushion_id, end, c, t1, t2, f, facets, true_round)
    return jaw, {"u": u, "nu0": nu0, "nuf": nuf, "d": d, "phi": phi, "rj": rj}


def _fillet_points(
    spec: TableSpec, jaw: Jaw, fr: Mapping[str, Any], top: float
) -> list[tuple[float, float, float]]:
    """Hull points of a jaw fillet: the nose and a low point of the under-face at every facet edge,
    and two points behind the fillet centre (top and bottom) that fill the jaw behind it.

    A facet spanning 2*delta of the fillet leans less than its edge sections (its plane holds two
    generators of the swept cone), so the sections are steepened by 1/cos(delta) and every facet
    is tilted by exactly theta, like the cushion. The low point is GJK_MERGE below the nose so
    that no two hull vertices are closer than Bullet's GJK can tell apart.
    """
    n = jaw.facets
    prof = gp.inset(_profile(spec, spec.cushion_width, 1.0 / math.cos(fr["phi"] / n / 2)), MARGIN)
    nose = min(prof, key=lambda q: (q[0], -q[1]))
    foot = min((q for q in prof if q[1] < nose[1] - 1e-6), key=lambda q: (q[1], q[0]))
    z_low = max(nose[1] - GJK_MERGE, foot[1])
    f = (nose[1] - z_low) / (nose[1] - foot[1])
    low = (nose[0] + f * (foot[0] - nose[0]), z_low)
    if low[0] >= fr["rj"]:
        low = (
            fr["rj"] - MARGIN,
            nose[1] - (fr["rj"] - MARGIN - nose[0]) * (nose[1] - foot[1]) / (foot[0] - nose[0]),
        )
    pts: list[tuple[float, float, float]] = []
    for k in range(n + 1):
        al = fr["phi"] * k / n
        nu = (
            math.cos(al) * fr["nu0"][0] - math.sin(al) * fr["u"][0],
            math.cos(al) * fr["nu0"][1] - math.sin(al) * fr["u"][1],
        )
        p = (jaw.fillet_centre[0] - fr["rj"] * nu[0], jaw.fillet_centre[1] - fr["rj"] * nu[1])
        pts += [(p[0] + q[0] * nu[0], p[1] + q[0] * nu[1], q[1]) for q in (nose, low)]
    half = fr["phi"] / 2
    bis = (
        math.cos(half) * fr["nu0"][0] - math.sin(half) * fr["u"][0],
        math.cos(half) * fr["nu0"][1] - math.sin(half) * fr["u"][1],
    )
    back = (jaw.fillet_centre[0] + GJK_MERGE / 2 * bis[0], jaw.fillet_centre[1] + GJK_MERGE / 2 * bis[1])
    pts += [(back[0], back[1], top - MARGIN), (back[0], back[1], MARGIN)]
    return pts


def _section(
    p: tuple[float, float], nu: tuple[float, float], profile: Sequence[gp.Pt], n_max: float
) -> list[tuple[float, float, float]]:
    prof = gp.clip(list(profile), (1.0, 0.0), n_max) if n_max < math.inf else list(profile)
    return [(p[0] + n * nu[0], p[1] + n * nu[1], z) for n, z in prof]


def build_table_geometry(
    world: BulletWorld,
    spec: TableSpec,
    objects: Sequence[SceneObject] = (),
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
    materials: Mapping[str, tuple[float, float]] | None = None,
) -> TableGeometry:
    """Build the table's static bodies into ``world`` and return what was built.

    The engine builds a fresh world for every stroke, so the work that depends only on the table
    (cutting the plan into convex pieces, the hulls, the Bullet shapes) is done once per table spec
    and kept (:func:`_blueprint`); the room and the scenario objects once per lamp and objects. A
    world then only gets new bodies on the shared shapes (Bullet lets one collision shape serve
    any number of bodies and worlds; a body belongs to one world). The result is the same as a
    build from scratch: same pieces, same order, same numbers.

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
    g = _blueprint(spec, tuple(objects), lamp)._copy(world, mats)
    g._realise()
    return g


# Blueprints: keyed by the table's content (its repr: every number of the spec) plus the extras, and
# for a whole scene by that key, the lamp and the objects. The spec's repr costs ~0.4 ms, so a spec
# object seen before is found by identity first (the entry holds the spec, so its id stays unique).
_CACHE_SIZE = 16
_TABLES: OrderedDict[tuple[str, GeometryExtras], TableGeometry] = OrderedDict()
_SCENES: OrderedDict[tuple[tuple[str, GeometryExtras], str, str], TableGeometry] = OrderedDict()
_SPEC_KEYS: OrderedDict[int, tuple[TableSpec, tuple[str, GeometryExtras]]] = OrderedDict()


def pocket_shapes(spec: TableSpec) -> dict[str, PocketShape]:
    """The pockets as the physics builds them (drop lines, wells), without a Bullet world: for readers of
    a record who must tell a ball over a pocket's hole from one in its mouth."""
    return dict(_blueprint(spec, (), None).pockets)


def clear_geometry_cache() -> None:
    """Forget every blueprint (the next build of each table starts from scratch)."""
    _TABLES.clear()
    _SCENES.clear()
    _SPEC_KEYS.clear()


def _remember(cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    cache[key] = value
    if len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)


def _blueprint(
    spec: TableSpec, objects: tuple[SceneObject, ...], lamp: tuple[float, float, float] | None
) -> TableGeometry:
    """The recorded pieces and plan facts of a table with its room and objects (no world)."""
    known = _SPEC_KEYS.get(id(spec))
    if known is not None and known[0] is spec:
        table_key = known[1]
    else:
        src = f"{TABLES_DIR / spec.id}.toml"
        if not spec.ball_radius < spec.cushion_nose_height < 2 * spec.ball_radius:
            raise InputError(
                src, "cushion_nose_height", "a height between the ball's radius and its diameter"
            )
        table_key = (repr(spec), load_extras(spec.id))
        _remember(_SPEC_KEYS, id(spec), (spec, table_key))
    scene_key = (table_key, repr(lamp), repr(objects))
    scene = _SCENES.get(scene_key)
    if scene is not None:
        return scene
    table = _TABLES.get(table_key)
    if table is None:
        table = TableGeometry(None, spec, table_key[1], DEFAULT_MATERIALS)
        _build_table(table)
        _remember(_TABLES, table_key, table)
    scene = table._copy(None, DEFAULT_MATERIALS)
    _build_room(scene, lamp)
    for i, obj in enumerate(objects):
        _build_object(scene, i, obj)
    _remember(_SCENES, scene_key, scene)
    return scene


def _build_table(g: TableGeometry) -> None:
    s, ex = g.spec, g.extras
    R = s.ball_radius
    hl, hw = s.half_length, s.half_width
    cw, rw = s.cushion_width, s.rail_width
    top = max(s.rail_height, s.cushion_nose_height + 0.002)
    floor = s.floor_z
    depth = s.pocket_depth
    slate_t = ex.slate_thickness
    profile = gp.inset(_profile(s, cw), MARGIN)
    n_back = max(p[0] for p in profile)

    # Jaws at both ends of every cushion, matched to the nearest pocket.
    jaws: dict[str, list[tuple[Jaw, dict[str, Any]]]] = {pid: [] for pid in s.pockets}
    cushion_ends: dict[str, tuple[str, str]] = {}
    for cid, cu in s.cushions.items():
        ends = []
        for end, other in ((cu.start, cu.end), (cu.end, cu.start)):
            pid = min(s.pockets, key=lambda k: math.dist(s.pockets[k].centre, end))
            jaws[pid].append(_jaw_frame(s, ex, pid, cid, end, other))
            ends.append(pid)
        cushion_ends[cid] = (ends[0], ends[1])

    # Pocket frames. The well is wider than the throat by the clearance, but never so wide that
    # the deep end of a cushion or corridor (full-depth sections behind the drop line) reaches into it.
    for pid, pk in s.pockets.items():
        pair = jaws[pid]
        if len(pair) != 2:
            raise InputError(f"{TABLES_DIR / s.id}.toml", "pockets", f"two jaws at pocket {pid}")
        ax = pk.axis
        across = (-ax[1], ax[0])
        tmp = PocketShape(pid, pk.centre, ax, across, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, (pair[0][0], pair[1][0]))
        a_mouth = tmp.local(*pair[0][0].nose_end)[0]
        a_drop = tmp.local(*pair[0][0].facing_end)[0]
        throat = abs(tmp.local(*pair[0][0].facing_end)[1] - tmp.local(*pair[1][0].facing_end)[1])
        half = max(throat / 2 + ex.well_clearance, R + 0.002)
        for jaw, fr in pair:
            for p0, nu in ((jaw.fillet_start, fr["nu0"]), (jaw.facing_end, fr["nuf"])):
                a0, t0 = tmp.local(*p0)
                na = nu[0] * ax[0] + nu[1] * ax[1]
                nt = nu[0] * across[0] + nu[1] * across[1]
                if na <= 1e-9:
                    continue  # runs along or away from the drop line: never behind it
                n_in = max(0.0, (a_drop - a0) / na)
                if n_in <= n_back:
                    half = min(half, abs(t0 + n_in * nt) - 2 * MARGIN)
        half = max(half, throat / 2, R + 0.002)
        g.pockets[pid] = PocketShape(
            pid,
            pk.centre,
            ax,
            across,
            a_mouth,
            a_drop,
            throat,
            half,
            2 * R + 0.03,
            -depth,
            (pair[0][0], pair[1][0]),
        )

    # Cushion prisms between the fillet starts, full depth.
    jaw_of = {(j.cushion, j.pocket): j for pid in jaws for j, _ in jaws[pid]}
    for cid, cu in s.cushions.items():
        at_start, at_end = cushion_ends[cid]
        nu0 = (-cu.normal[0], -cu.normal[1])
        pts = _section(jaw_of[(cid, at_start)].fillet_start, nu0, profile, math.inf) + _section(
            jaw_of[(cid, at_end)].fillet_start, nu0, profile, math.inf
        )
        g._hull("cushion", cid, pts)

    # Jaws: the profile swept round the fillet (sections no deeper than the fillet radius, so the
    # sweep stays convex), then the straight corridor as a full-depth prism. Behind the fillet
    # centre the cushion prism and the corridor prism overlap, so nothing is left open.
    for pid, pair in jaws.items():
        for jaw, fr in pair:
            if jaw.true_round:
                g._round_piece("jaw", pid, jaw)
            elif jaw.facets:
                g._hull("jaw", pid, _fillet_points(s, jaw, fr, top))
            # The straight corridor: a full-depth prism from the fillet's end to the drop line. (A
            # corridor shorter than GJK_MERGE, like the pyramid's 5.5 mm, is a face Bullet resolves
            # only to about 0.7 mm; extending it would put a wall across the well's mouth.)
            if math.dist(jaw.facing_end, jaw.fillet_end) > 1e-4:
                g._hull(
                    "jaw",
                    pid,
                    _section(jaw.fillet_end, fr["nuf"], profile, math.inf)
                    + _section(jaw.facing_end, fr["nuf"], profile, math.inf),
                )

    # The wells' free insides (nothing of the table reaches into them) and, round them, the walls
    # that line them: the rails and the fill are cut back to the walls, so whatever a ball meets
    # in the hole is the pocket.
    wells: dict[str, gp.Poly] = {}
    wt = ex.well_wall
    wb = max(wt, POCKET_BACK_WALL)
    for pid, p in g.pockets.items():
        wells[pid] = p.rect(
            p.a_drop, p.a_drop + p.well_length + wb, -p.well_half_width - wt, p.well_half_width + wt
        )
        g._openings.append(p.rect(p.a_drop, p.a_drop + p.well_length, -p.well_half_width, p.well_half_width))
        j0, j1 = p.jaws
        g._passages.append(gp.ccw([j0.nose_end, j0.facing_end, j1.facing_end, j1.nose_end]))

    # Slate: the nose rectangle grown by the cushion width, cut at the corner drop lines and
    # round the middle wells. Where the balls roll it is ONE convex piece (the nose rectangle and
    # every mouth up to its drop line): a seam between two coplanar pieces is an internal edge
    # that Bullet's speculative contacts turn into a hop (a 5 m/s ball crossing one left it
    # with vz = 0.7 m/s). The rest, under the cushions, is cut into convex pieces.
    slate = gp.rect(-hl - cw, -hw - cw, hl + cw, hw + cw)
    middle_wells = []
    for pid, p in g.pockets.items():
        if s.pockets[pid].corner:
            slate = gp.clip(slate, p.axis, p.a_drop + p.axis[0] * p.centre[0] + p.axis[1] * p.centre[1])
        else:
            middle_wells.append(
                p.rect(
                    p.a_drop,
                    p.a_drop + p.well_length,
                    -p.well_half_width - ex.well_wall,
                    p.well_half_width + ex.well_wall,
                )
            )
    y1 = min([hw + cw] + [hw + p.a_drop for pid, p in g.pockets.items() if not s.pockets[pid].corner])
    main = gp.clip(gp.clip(slate, (0.0, 1.0), y1), (0.0, -1.0), y1)
    g._prism("bed", None, main, -slate_t, 0.0)
    for piece in gp.subtract_all(gp.subtract_all([slate], middle_wells), [main]):
        g._prism("bed", None, piece, -slate_t, 0.0)

    # Fill beside each well inside the cushion zone, behind the jaws' ends, up to the rail top.
    inner = gp.rect(-hl, -hw, hl, hw)
    grown = gp.rect(-hl - cw, -hw - cw, hl + cw, hw + cw)
    for pid, p in g.pockets.items():
        region = list(grown)
        for jaw, fr in jaws[pid]:
            u = fr["u"]
            region = gp.clip(
                region, (-u[0], -u[1]), -(u[0] * jaw.fillet_start[0] + u[1] * jaw.fillet_start[1])
            )
        region = gp.clip(
            region, (-p.axis[0], -p.axis[1]), -(p.a_drop + p.axis[0] * p.centre[0] + p.axis[1] * p.centre[1])
        )
        for piece in gp.subtract_all(gp.subtract(region, inner), [wells[pid]]):
            g._prism("rail_top", pid, piece, -slate_t, top)

    # Rail tops and the frame below them: the ring outside the cushions, minus the wells.
    xo, yo = hl + cw + rw, hw + cw + rw
    # The long rails are first cut across (x = const) at each well's extent, the short ones at
    # y = const, so the cuts a well makes stay next to it instead of running along a whole rail.
    pieces = [
        (gp.rect(-xo, hw + cw, xo, yo), 0),
        (gp.rect(-xo, -yo, xo, -hw - cw), 0),
        (gp.rect(hl + cw, -hw - cw, xo, hw + cw), 1),
        (gp.rect(-xo, -hw - cw, -hl - cw, hw + cw), 1),
    ]
    for hole in wells.values():
        nxt = []
        for piece, axis in pieces:
            if gp.area(gp.intersect(piece, hole)) <= gp.MIN_AREA:
                nxt.append((piece, axis))
                continue
            cuts = sorted({min(q[axis] for q in hole), max(q[axis] for q in hole)})
            for part in gp.split([piece], axis, cuts):
                nxt.extend((q, axis) for q in gp.subtract(part, hole))
        pieces = nxt
    slab = min(ex.rail_slab, top - floor - 0.01)
    for piece, _axis in pieces:
        g._prism("rail_top", None, piece, top - slab, top)
        g._prism("frame", None, piece, floor, top - slab)

    # Wells: side and back walls up to the rail top, a front wall under the slate edge, a floor.
    for pid, p in g.pockets.items():
        heading = math.degrees(math.atan2(p.axis[1], p.axis[0]))
        a0, a1 = p.a_drop, p.a_drop + p.well_length
        hwid = p.well_half_width

        def wall(
            a_lo: float,
            a_hi: float,
            t_lo: float,
            t_hi: float,
            z_lo: float,
            z_hi: float,
            p: PocketShape = p,
            pid: str = pid,
            heading: float = heading,
            material: str = "",
        ) -> None:
            cen = p.world((a_lo + a_hi) / 2, (t_lo + t_hi) / 2)
            half = ((a_hi - a_lo) / 2, (t_hi - t_lo) / 2)
            g._box(
                "pocket", pid, (-half[0], -half[1], z_lo), (half[0], half[1], z_hi), heading, cen, material
            )

        wall(a0, a1 + wb, hwid, hwid + wt, p.floor_z - wt, top)
        wall(a0, a1 + wb, -hwid - wt, -hwid, p.floor_z - wt, top)
        # The back: the dead liner up to the cloth, the live facing (material "pocket_back") above it.
        wall(a1, a1 + wb, -hwid, hwid, p.floor_z - wt, POCKET_BACK_FROM)
        wall(a1, a1 + wb, -hwid, hwid, POCKET_BACK_FROM, top, material="pocket_back")
        wall(a0 - wt, a0, -hwid - wt, hwid + wt, p.floor_z, -slate_t)
        wall(a0 - wt, a1 + wb, -hwid - wt, hwid + wt, p.floor_z - wt, p.floor_z)


def _build_room(g: TableGeometry, lamp: tuple[float, float, float] | None) -> None:
    s = g.spec
    shape = BulletPlaneShape(Vec3(0, 0, 1), s.floor_z)
    g._add("floor", None, shape)
    # Walls and ceiling as planes facing into the room (n . p = d).
    hx, hy = ROOM_HALF
    for normal, d in (
        ((-1, 0, 0), -hx),
        ((1, 0, 0), -hx),
        ((0, -1, 0), -hy),
        ((0, 1, 0), -hy),
        ((0, 0, -1), -(s.floor_z + ROOM_HEIGHT)),
    ):
        g._add("wall", None, BulletPlaneShape(Vec3(*normal), d))
    if lamp is not None:
        lx, ly, lz = (float(v) for v in lamp)
        if not all(math.isfinite(v) for v in (lx, ly, lz)) or lz <= s.rail_height + 0.05:
            raise InputError("settings", "room.lamp_height", "a finite height above the rails, m")
        length, width, height = g.extras.lamp_shade
        g._box(
            "lamp",
            None,
            (lx - length / 2, ly - width / 2, lz),
            (lx + length / 2, ly + width / 2, lz + height),
        )
        g.lamp_box = ((lx - length / 2, ly - width / 2, lz), (lx + length / 2, ly + width / 2, lz + height))


def _build_object(g: TableGeometry, i: int, obj: SceneObject) -> None:
    s = g.spec
    key = f"objects[{i}]"
    x, y = float(obj.at[0]), float(obj.at[1])
    xo = s.half_length + s.cushion_width + s.rail_width
    yo = s.half_width + s.cushion_width + s.rail_width
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > 20 or abs(y) > 20:
        raise InputError("scenario", f"{key}.at", "a position within 20 m of the table centre")
    if obj.kind == "chalk":
        zb = g.support_z(x, y)
        half = CHALK_SIZE / 2
        g._box("chalk", f"chalk{i}", (x - half, y - half, zb), (x + half, y + half, zb + CHALK_SIZE))
        g.object_boxes.append(("chalk", (x - half, y - half, zb), (x + half, y + half, zb + CHALK_SIZE)))
    elif obj.kind == "person":
        w, d, hgt = PERSON_SIZE
        # Face the table: the shoulders run along the side the person stands at.
        along_x = abs(y) - yo >= abs(x) - xo
        hx, hy = (w / 2, d / 2) if along_x else (d / 2, w / 2)
        if abs(x) - hx < xo and abs(y) - hy < yo:
            raise InputError(
                "scenario",
                f"{key}.at",
                f"a floor position beside the table: |x| >= {xo + hx:.3f} or |y| >= {yo + hy:.3f}",
            )
        lo = (x - hx, y - hy, s.floor_z)
        hi = (x + hx, y + hy, s.floor_z + hgt)
        g._box("person", f"person{i}", lo, hi)
        g.object_boxes.append(("person", lo, hi))
    elif obj.kind == "cue-on-rail":
        length = float(obj.params.get("length", CUE_LENGTH)) if obj.params else CUE_LENGTH
        if not math.isfinite(length) or not 0.3 <= length <= 2.0:
            raise InputError("scenario", f"{key}.length", "a cue length in [0.3, 2.0] m")
        r = CUE_RADIUS
        along_x = (abs(y) > s.half_width + s.cushion_width) or not (abs(x) > s.half_length + s.cushion_width)
        zb = g.support_z(x, y)
        shape = BulletCylinderShape(r, length, X_up if along_x else Y_up)
        shape.set_margin(MARGIN)
        g._add("cue", f"cue{i}", shape, (x, y, zb + r))
        hx, hy = (length / 2, r) if along_x else (r, length / 2)
        g.object_boxes.append(("cue", (x - hx, y - hy, zb), (x + hx, y + hy, zb + 2 * r)))
    else:
        raise InputError("scenario", f"{key}.kind", "one of chalk, person, cue-on-rail")
