"""A table's plan: its outline, cushions, pockets, rails, room and objects, and the solids the physics
builds from them, with the plan-view questions the engine and the scenes ask (no Bullet)."""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from physics import geometry_poly as gp
from physics.plan.parts import (
    MARGIN,
    V3,
    Box,
    CushionContact,
    GeometryExtras,
    Hull,
    Jaw,
    PocketShape,
    Pt,
    Round,
    Shape,
    Solid,
)
from physics.tables import TableSpec

Top = tuple[gp.Poly, float, str]  # a solid's plan outline, its top's height and its kind
Box3 = tuple[V3, V3]  # (low corner, high corner)


def _f32(x: float) -> float:
    """``x`` in single precision (as Bullet, and Panda3D's Vec3, hold it)."""
    y: float = struct.unpack("f", struct.pack("f", x))[0]
    return y


class TablePlan:
    """One table with its room and objects, in plan (table frame of docs/formats.md §Names: z = 0 on the cloth, +x to
    the foot, +y to the left).

    Attributes:
        spec: the table.
        extras: the table file's ``[geometry]`` numbers.
        cushion_contact: how a ball on the cloth meets a cushion.
        cushion_profile: the cushion's cross-section (n behind the nose line, z above the cloth).
        cushions: each cushion's nose line as built, between its jaws' fillet starts.
        pockets: each pocket's shape (mouth, drop line, well, jaws).
        wells: each pocket's well with its walls, in plan.
        slate: the slate's pieces in plan (the first is where the balls roll).
        rails: the rail tops' pieces in plan (the frame is below them).
        lamp_box, object_boxes: the lamp shade and the scenario objects as boxes (kind, low, high).
        passages, openings: the jaw passages and the wells' openings, part of the bed outline.
        tops: every solid's plan outline with its top's height and kind.
        solids: every static body, in build order.
    """

    def __init__(self, spec: TableSpec, extras: GeometryExtras, cushion_contact: CushionContact) -> None:
        self.spec = spec
        self.extras = extras
        self.cushion_contact = cushion_contact
        self.cushion_profile: list[Pt] = []
        self.cushions: dict[str, tuple[Pt, Pt]] = {}
        self.pockets: dict[str, PocketShape] = {}
        self.wells: dict[str, gp.Poly] = {}
        self.slate: list[gp.Poly] = []
        self.rails: list[gp.Poly] = []
        self.lamp_box: Box3 | None = None
        self.object_boxes: list[tuple[str, V3, V3]] = []
        self.passages: list[gp.Poly] = []
        self.openings: list[gp.Poly] = []
        self.tops: list[Top] = []
        self.solids: list[Solid] = []

    def copy(self) -> TablePlan:
        """A plan with this one's facts (lists copied, solids shared)."""
        g = TablePlan(self.spec, self.extras, self.cushion_contact)
        g.cushion_profile = list(self.cushion_profile)
        g.cushions = dict(self.cushions)
        g.pockets = dict(self.pockets)
        g.wells = dict(self.wells)
        g.slate, g.rails = list(self.slate), list(self.rails)
        g.lamp_box = self.lamp_box
        g.object_boxes = list(self.object_boxes)
        g.passages, g.openings = list(self.passages), list(self.openings)
        g.tops = list(self.tops)
        g.solids = list(self.solids)
        return g

    # -- queries -------------------------------------------------------------------------------

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
        return any(gp.contains(q, p) for q in self.passages) or any(gp.contains(q, p) for q in self.openings)

    def kind_below(self, x: float, y: float, z: float) -> str:
        """Kind of the highest static top at or below height z under (x, y) (the floor if none)."""
        best = (self.spec.floor_z, "floor")
        for poly, top, kind in self.tops:
            if best[0] < top <= z + 1e-3 and gp.contains(poly, (x, y), 1e-6):
                best = (top, kind)
        return best[1]

    def support_z(self, x: float, y: float) -> float:
        """Height of the highest static top under (x, y) (the floor if none)."""
        return max(
            [self.spec.floor_z]
            + [top for poly, top, kind in self.tops if kind != "lamp" and gp.contains(poly, (x, y), 1e-6)]
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

    # -- recording solids ----------------------------------------------------------------------

    def _add(
        self,
        kind: str,
        ident: str | None,
        shape: Shape,
        pos: V3 = (0.0, 0.0, 0.0),
        heading: float = 0.0,
        material: str = "",
    ) -> None:
        self.solids.append(Solid(kind, ident, shape, pos, heading, material))

    def _box(
        self,
        kind: str,
        ident: str | None,
        lo: V3,
        hi: V3,
        heading: float = 0.0,
        centre: tuple[float, float] | None = None,
        material: str = "",
    ) -> None:
        """An axis-aligned box (in a frame turned by ``heading`` degrees about its centre)."""
        half = (_f32((hi[0] - lo[0]) / 2), _f32((hi[1] - lo[1]) / 2), _f32((hi[2] - lo[2]) / 2))
        c = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)
        if centre is not None:
            c = (centre[0], centre[1], c[2])
        self._add(kind, ident, Box(half), c, heading, material)
        ch, sh = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        corners = [
            (c[0] + ch * hx - sh * hy, c[1] + sh * hx + ch * hy)
            for hx, hy in ((-half[0], -half[1]), (half[0], -half[1]), (half[0], half[1]), (-half[0], half[1]))
        ]
        self.tops.append((gp.ccw(corners), hi[2], kind))

    def _prism(self, kind: str, ident: str | None, poly: Sequence[Pt], z0: float, z1: float) -> None:
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

    def _hull(self, kind: str, ident: str | None, pts: Sequence[V3]) -> None:
        # Centre the hull on its points' mean: single-precision Bullet is more exact near the origin.
        n = len(pts)
        cx = sum(p[0] for p in pts) / n
        cy = sum(p[1] for p in pts) / n
        cz = sum(p[2] for p in pts) / n
        self._add(kind, ident, Hull(tuple((x - cx, y - cy, z - cz) for x, y, z in pts)), (cx, cy, cz))
        # The hull's plan, grown back by the margin (the points are inset by it).
        self.tops.append(
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
        cx, cy = jaw.fillet_centre
        self._add(kind, ident, Round(rho), (cx, cy, qz))
        ring = [
            (cx + rho * math.cos(2 * math.pi * i / 16), cy + rho * math.sin(2 * math.pi * i / 16))
            for i in range(16)
        ]
        self.tops.append((ring, qz + rho, kind))
