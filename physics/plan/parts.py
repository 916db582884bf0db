"""The parts of a table's plan: its measured facts (cushion contact, jaws, pockets), the numbers the table
files add for the collision geometry, and the solids the physics builds (no Bullet here: each solid is a
plain description that ``physics.geometry`` turns into a Bullet body)."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from physics import geometry_poly as gp
from physics.errors import InputError
from physics.tables import TABLES_DIR

Pt = gp.Pt
V3 = tuple[float, float, float]

MARGIN = 0.0005  # m; collision margin of every static shape (Bullet's 0.04 m default is a ball)
# Bullet's GJK treats two support points closer than 1 cm as the same (Voronoi simplex solver's
# equal-vertex threshold, 1e-4 m^2) and stops early: near hull vertices closer than that a contact
# comes out up to about a millimetre too far. Hull vertices on ball-facing surfaces are kept about
# this far apart where the spec allows (jaw fillets get fewer, longer facets).
GJK_MERGE = 0.010
# Jaw fillets of a smaller radius are built as exact rounds (``TablePlan._round_piece``); larger
# ones (snooker's 25-30 mm) from facets at least GJK_MERGE wide, which follow the arc within ~2 mm.
ROUND_LIMIT = 2 * GJK_MERGE
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


@dataclass(frozen=True)
class CushionContact:
    """Facts about the contact of a ball on the cloth with a cushion (same for every cushion).

    Attributes:
        nose_height: h, height of the contact point above the cloth.
        angle: theta = asin((h - R) / R), the contact normal's angle below horizontal.
        centre_distance: horizontal distance from the nose line to the centre of a ball on the
            cloth touching the cushion, sqrt(R^2 - (h - R)^2) (a little less than R).
        top_tilt: slope of the rubber's top, down towards the bed (radians): the spec's
            ``cushion_top_tilt`` (see ``build.cushion_profile``).
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
    true_round: bool = False  # the fillet is an exact round (a sphere, see ``TablePlan._round_piece``)


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
# Solids: what the physics builds, one body each. Positions are in the table frame; a solid's
# shape is given about its position (turned by ``heading`` degrees about the vertical).


@dataclass(frozen=True, eq=False)
class Box:
    half: V3  # half extents, in single precision as Bullet holds them (the plan's outlines use the same)


@dataclass(frozen=True, eq=False)
class Hull:
    points: tuple[V3, ...]  # the convex hull's points about the solid's position, inset by MARGIN


@dataclass(frozen=True, eq=False)
class Round:
    """A sphere whose whole radius is collision margin (see ``TablePlan._round_piece``)."""

    radius: float


@dataclass(frozen=True, eq=False)
class Plane:
    normal: V3  # into the room
    d: float  # normal . p = d on the plane


@dataclass(frozen=True, eq=False)
class Cylinder:
    radius: float
    length: float
    along_x: bool  # the axis along x, else along y


Shape = Box | Hull | Round | Plane | Cylinder


@dataclass(frozen=True, eq=False)
class Solid:
    """One static body: its surface kind and id, its shape and its placement (compared by identity: the
    Bullet shape made for it is shared by every world built from the same plan)."""

    kind: str  # one of SURFACE_KINDS
    ident: str | None  # cushion id for cushions, pocket id for jaws and wells, None otherwise
    shape: Shape
    pos: V3 = (0.0, 0.0, 0.0)
    heading: float = 0.0
    material: str = ""  # a material other than the kind's own (the pocket's live back band)
