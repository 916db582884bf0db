"""The table in plan, built from a table spec (issue 2, section 2), with no Bullet: what the scenes draw
and the physics builds its static bodies from (``physics.geometry``).

What is in it (frame of docs/formats.md §Names: z = 0 on the cloth, +x to the foot, +y to the left):

* the **slate**: one convex piece wherever balls roll (the nose-line rectangle and every
  pocket mouth up to its *drop line*, the end of the jaws) plus convex pieces under the
  cushions; the slate edge at a drop line is a real edge a ball can hang over;
* the **cushions**: convex prisms whose cross-section has an inclined under-face tangent to a
  ball lying on the cloth exactly at the nose height h, so the contact normal points down by
  theta = asin((h - R) / R) and a hard-hit ball is pressed into the slate (docs/physics.md §Tables, §Cushions);
  the rubber's top leans down from the rail top to the nose;
* the **jaws**: the cushion's profile carried round a fillet of the spec's jaw radius and along
  the straight corridor (a prism), with the facings narrowing by the table's cut angle; the free
  gap between the facings at nose height is the spec's mouth. A fillet under ROUND_LIMIT
  (pyramid, pool) is an exact round: one sphere that a ball on the cloth touches exactly where
  and how it would touch the swept profile (``TablePlan._round_piece``); a larger one
  (snooker) is flat facets, each tilted by theta like the cushion;
* the **pocket wells**: an open box below every opening (side and back walls up to the rail
  top, a front wall under the slate edge, a floor ``pocket_depth`` below the cloth), and
  filler pieces between the wells, the jaws and the rails. The liner is dead, except the back
  of the opening above the cloth: a live facing (material ``pocket_back``) that can throw a
  very fast ball back out across the opening. A ball is pocketed once it is wholly below the
  cloth over a well (``TablePlan.pocket_of``), where only the dead liner can reach it;
* the **rail tops** (wood) and the **frame** (the table's outer sides down to the floor);
* the **floor** at z = -bed_height, the room's walls, the **lamp shade**, and scenario objects (chalk, a
  person, a cue lying on a rail).

Bullet's limits shape the solids, so the plan is built for them. Its default collision margin (4 cm) is
larger than a ball: every shape gets an explicit :data:`MARGIN`; boxes keep their extents by construction
and hulls are built from polygons inset by the margin, so the margin grows them back to the intended
faces. Its GJK merges support points closer than 1 cm (:data:`GJK_MERGE`): ball-facing hull vertices are
kept about that far apart, and a small round is not a hull, a cone or a cylinder (all come out up to 2 mm
off) but a sphere whose radius is all margin. A seam between two coplanar pieces is an internal edge that
Bullet's speculative contacts turn into a hop, so the rolling surface has none.

Spots and lines are the spec's (``TableSpec.spots``, ``TableSpec.lines``).
"""

from physics.objects import CHALK_SIZE, CUE_LENGTH, CUE_RADIUS, PERSON_SIZE
from physics.plan.build import clear_plan_cache, cushion_profile, pocket_shapes, scene_plan, table_plan
from physics.plan.parts import (
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
    Cylinder,
    GeometryExtras,
    Hull,
    Jaw,
    Plane,
    PocketShape,
    Round,
    Shape,
    Solid,
    load_extras,
)
from physics.plan.table import TablePlan

__all__ = [
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
    "Box",
    "CushionContact",
    "Cylinder",
    "GeometryExtras",
    "Hull",
    "Jaw",
    "Plane",
    "PocketShape",
    "Round",
    "Shape",
    "Solid",
    "TablePlan",
    "clear_plan_cache",
    "cushion_profile",
    "load_extras",
    "pocket_shapes",
    "scene_plan",
    "table_plan",
]
