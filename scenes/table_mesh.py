"""The table's furniture as meshes: cloth, cushions and jaws, pockets, rails with sights, frame and legs.

Built from the table spec and the physics' plan (``physics.plan``), in the table frame (z = 0 on the cloth, +x to
the foot, +y to the left), so what a player sees is what the ball hits:

- cloth: the bed inside the cushion noses plus each pocket's throat, cut on the physics' drop line;
- cushions: the rubber profile (nose at ``cushion_nose_height``, undercut to the bed, top tilted up to the rail)
  swept along each nose segment between the jaws' fillets; the jaws from the physics' outline (fillet, facing);
- pockets (:mod:`scenes.pockets`): the rail's round cut, a liner down into the physics' well, a net or cup;
- rails: the wooden top with sights, outer faces, the apron, the carcass and legs to the floor at ``-bed_height``.

The builder decides nothing about materials: it fills :class:`scenes.geom_mesh.MeshBuilder` s the view finishes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from physics.tables import NOSE_EDGE_RISE, TableSpec
from scenes.geom_mesh import ColourT, MeshBuilder, Vec2T, Vec3T
from scenes.pockets import PocketShape, _signed_area, jaw_outline

WOOD: ColourT = (0.36, 0.17, 0.07, 1.0)
WOOD_DARK: ColourT = (0.20, 0.09, 0.04, 1.0)
LEATHER: ColourT = (0.06, 0.04, 0.03, 1.0)
LINER: ColourT = (0.075, 0.052, 0.038, 1.0)  # a pocket's black leather (pool: rubber) lining
HOLE: ColourT = (0.015, 0.015, 0.015, 1.0)
NET: ColourT = (0.045, 0.032, 0.024, 1.0)
MARK: ColourT = (0.92, 0.94, 0.90, 1.0)
PEARL: ColourT = (0.95, 0.93, 0.86, 1.0)
RIM: ColourT = (0.26, 0.15, 0.08, 1.0)  # the leather over a pocket's cut (snooker, pool)
IRON: ColourT = (0.80, 0.79, 0.76, 1.0)  # the nickel-plated pocket irons of a Russian table

UNDERLAY_Z = -0.025  # black board under the slate top, seen through the holes and throats; far enough
# below the cloth for a 16-bit depth buffer (the software renderer's) at 5 m
APRON_DEPTH = 0.20  # rail outer face + apron below the cloth
FRAME_DEPTH = 0.32  # bottom of the carcass below the cloth

# The cushions walked anticlockwise seen from above, with the pocket that follows each one.
CUSHION_WALK: tuple[tuple[str, str], ...] = (
    ("right-head", "middle-right"),
    ("right-foot", "foot-right"),
    ("foot", "foot-left"),
    ("left-foot", "middle-left"),
    ("left-head", "head-left"),
    ("head", "head-right"),
)


class TableMesh:
    """The meshes of one table: ``spec`` and its ``pockets`` (from :func:`scenes.pockets.pocket_shapes`)."""

    def __init__(self, spec: TableSpec, pockets: Mapping[str, PocketShape], snooker: bool) -> None:
        self.spec = spec
        self.pockets = pockets
        self.snooker = snooker

    # -- outlines -------------------------------------------------------------------------------------
    def outer_rect(self) -> list[Vec2T]:
        s = self.spec
        X = s.half_length + s.cushion_width + s.rail_width
        Y = s.half_width + s.cushion_width + s.rail_width
        return [(-X, -Y), (X, -Y), (X, Y), (-X, Y)]

    def back_rect(self) -> tuple[float, float]:
        """Half extents of the rectangle the cushions' backs make (the rail's inner edge between pockets)."""
        s = self.spec
        return s.half_length + s.cushion_width, s.half_width + s.cushion_width

    def cloth_outline(self) -> list[Vec2T]:
        """The slate's top inside the noses plus each throat up to its drop edge, anticlockwise."""
        out: list[Vec2T] = []
        for k, (cid, pid) in enumerate(CUSHION_WALK):
            p = self.pockets[pid]
            start_jaw = self.pockets[CUSHION_WALK[k - 1][1]].jaw(cid)
            # Nose to fillet to facing, across the drop line, and back up the other jaw.
            out.append(start_jaw[0])
            out.extend(p.jaw(cid))
            out.extend(reversed(p.jaw(next_cushion(cid))[1:]))
        out = [pt for k, pt in enumerate(out) if _far(pt, out[k - 1])]
        if _signed_area(out) < 0:
            out.reverse()
        return out

    def rubber_top(self, x: float, y: float) -> float:
        """Height of the cushion's top at (x, y) in the cushions' zone (the rail's height beyond it): from the
        nose height at the nose line up to the rail top at the cushion's back, as the physics builds it."""
        s = self.spec
        h, cw = s.cushion_nose_height, s.cushion_width
        depth = max(abs(x) - s.half_length, abs(y) - s.half_width)
        return h + (s.rail_height - h) / cw * min(max(depth, 0.0), cw)

    # -- cushions and jaws ----------------------------------------------------------------------------
    def cushions(self, mb: MeshBuilder, colour: ColourT) -> None:
        s = self.spec
        h, cw = s.cushion_nose_height, s.cushion_width
        # The same profile the physics builds: the rubber's edge NOSE_EDGE_RISE above the nose, the top
        # rising at the spec's tilt to the rail top at the back (physics.tables.rail_height_for).
        undercut = min(0.35 * h, 0.6 * cw)
        section: list[Vec2T] = [
            (0.0, h),
            (0.0, h + NOSE_EDGE_RISE),
            (cw, s.rail_height),
            (cw, 0.0),
            (undercut, 0.0),
        ]
        for k, (cid, pid_after) in enumerate(CUSHION_WALK):
            pid_before = CUSHION_WALK[k - 1][1]
            n = s.cushions[cid].normal
            o = (-n[0], -n[1])
            jaw_a, jaw_b = self.pockets[pid_before].jaw(cid), self.pockets[pid_after].jaw(cid)
            # Straight rubber between the fillets; the jaws are built from the physics' outline below.
            a, b = jaw_a[0], jaw_b[0]
            pa, pb = _straight_end(a, o), _straight_end(b, o)
            mb.extrude(section, pa, pb, colour, closed=True, max_length=0.2)
            ua = (b[0] - a[0], b[1] - a[1])
            for path, sign in ((pa, -1.0), (pb, 1.0)):
                pts = [(path(d)[0], path(d)[1], z) for d, z in section]
                mb.cap(pts, colour, (sign * ua[0], sign * ua[1], 0.0))
            for pid, jaw in ((pid_before, jaw_a), (pid_after, jaw_b)):
                self._jaw_block(mb, colour, self.pockets[pid], jaw, o)

    def _jaw_block(
        self, mb: MeshBuilder, colour: ColourT, p: PocketShape, jaw: Sequence[Vec2T], o: Vec2T
    ) -> None:
        """The rubber at a jaw: its outline on the cloth (fillet, facing) to the drop line, along it to the
        pocket's rim and round the rim to the cushions' back (:func:`scenes.pockets.jaw_outline`); walls where a
        ball can see them, the top tilted like the straight rubber's."""
        plan = jaw_outline(p, jaw, self.back_rect(), o, self.spec.cushion_width)
        if _signed_area(plan) < 0:
            plan = list(reversed(plan))
        mb.polygon(plan, 0.0, colour, z_of=self.rubber_top)
        # Walls: the jaw's face towards the throat, and the face over the drop line down to the well's mouth.
        side = p.plan.local(*jaw[-1])[1]
        corner = p.front_corner(side)
        ring = [*jaw, corner]
        mid_throat = p.plan.world(p.plan.a_mouth, 0.0)
        for q0, q1 in zip(ring, ring[1:], strict=False):
            dx, dy = q1[0] - q0[0], q1[1] - q0[1]
            seg = math.hypot(dx, dy)
            if seg < 1e-9:
                continue
            if q0 is jaw[-1]:
                nrm: Vec3T = (p.axis[0], p.axis[1], 0.0)  # along the drop line: faces the well
            else:
                nrm = (-dy / seg, dx / seg, 0.0)
                mid = ((q0[0] + q1[0]) / 2, (q0[1] + q1[1]) / 2)
                if nrm[0] * (mid_throat[0] - mid[0]) + nrm[1] * (mid_throat[1] - mid[1]) < 0:
                    nrm = (-nrm[0], -nrm[1], 0.0)
            mb.quad(
                [(*q0, 0.0), (*q1, 0.0), (*q1, self.rubber_top(*q1)), (*q0, self.rubber_top(*q0))],
                colour,
                nrm,
            )

    # -- rails ----------------------------------------------------------------------------------------
    def bite_arcs(self) -> dict[str, list[Vec2T]]:
        """Each pocket's round cut in the rail top: the arc of it that lies on the rail, in walk order."""
        X, Y = self.back_rect()
        order = [
            ("head-right", (-X, -Y)),
            ("middle-right", (0.0, -Y)),
            ("foot-right", (X, -Y)),
            ("foot-left", (X, Y)),
            ("middle-left", (0.0, Y)),
            ("head-left", (-X, Y)),
        ]
        out: dict[str, list[Vec2T]] = {}
        for k, (pid, q) in enumerate(order):
            p = self.pockets[pid]
            prev_q, next_q = order[k - 1][1], order[(k + 1) % 6][1]
            r = p.bite_radius
            p_in = _circle_exit(q, prev_q, p.bite_centre, r)
            p_out = _circle_exit(q, next_q, p.bite_centre, r)
            out[pid] = _arc_through(p.bite_centre, r, p_in, p_out, p.axis, 0.006)
        return out

    def pocket_rims(self, mb: MeshBuilder, colour: ColourT, width: float, rise: float) -> None:
        """A rounded rim round every pocket's cut in the rail top: ``width`` across, standing ``rise`` above the
        rail and rolling over its edge down into the pocket (a Russian table's nickel iron, the leather of a
        snooker or pool pocket). Smooth normals: the lamp runs along it as a highlight, as on a real rim."""
        rh = self.spec.rail_height
        half = width / 2
        # The profile (radial offset from the cut's edge, height above the rail, its normal), from the rail top
        # outside over the crown and down the lip inside the cut.
        prof: list[tuple[float, float, float, float]] = []
        for k in range(9):
            th = math.pi * k / 8
            nr, nz = math.cos(th) / half, math.sin(th) / rise
            n = math.hypot(nr, nz)
            prof.append((half + half * math.cos(th), rise * math.sin(th), nr / n, nz / n))
        prof.append((-0.002, -0.025, -1.0, 0.0))
        X, Y = self.back_rect()
        for p in self.pockets.values():
            c = p.bite_centre
            rows = []
            # The whole edge of the hole from one corner of the drop line to the other: over the rail, and over
            # the jaws' rubber where it reaches the hole (the pocket's leather or iron covers the cushion's end:
            # no step of bare rubber inside the rim).
            for q in (p.rim_point(phi) for phi in p.rim_angles()):
                d = math.dist(q, c) or 1.0
                u = ((q[0] - c[0]) / d, (q[1] - c[1]) / d)
                base = self.rubber_top(*q) if abs(q[0]) < X - 1e-9 and abs(q[1]) < Y - 1e-9 else rh
                rows.append(
                    [
                        mb.vertex(
                            (q[0] + u[0] * r, q[1] + u[1] * r, base + z), (u[0] * nr, u[1] * nr, nz), colour
                        )
                        for r, z, nr, nz in prof
                    ]
                )
            for r0, r1 in zip(rows, rows[1:], strict=False):
                for j in range(len(prof) - 1):
                    mb.smooth_quad((r0[j], r1[j], r1[j + 1], r0[j + 1]))

    def rails(self, mb: MeshBuilder) -> None:
        """The rail top round the cushions' backs and the pockets' cuts, its faces, the apron, frame and legs."""
        s = self.spec
        rh = s.rail_height
        hole = [pt for pts in self.bite_arcs().values() for pt in pts]
        if _signed_area(hole) < 0:
            hole.reverse()
        outer = self.outer_rect()
        mb.polygon(outer, rh, WOOD, holes=[hole], max_edge=0.3, uv_of=lambda x, y: (x / 1.5, y / 0.35))
        # Outer faces down to the apron, with a darker band along the bottom. (Inside, the cushions' backs and
        # the pockets' liners meet the rail top's edge: no face of its own is seen.)
        for k in range(4):
            (x0, y0), (x1, y1) = outer[k], outer[(k + 1) % 4]
            dx, dy = x1 - x0, y1 - y0
            length = math.hypot(dx, dy)
            nrm = (dy / length, -dx / length, 0.0)
            mb.quad(
                [(x0, y0, -APRON_DEPTH + 0.03), (x1, y1, -APRON_DEPTH + 0.03), (x1, y1, rh), (x0, y0, rh)],
                WOOD,
                nrm,
                ((0, 0), (length / 1.5, 0), (length / 1.5, 0.2), (0, 0.2)),
            )
            mb.quad(
                [
                    (x0, y0, -APRON_DEPTH),
                    (x1, y1, -APRON_DEPTH),
                    (x1, y1, -APRON_DEPTH + 0.03),
                    (x0, y0, -APRON_DEPTH + 0.03),
                ],
                WOOD_DARK,
                nrm,
            )
        X, Y = outer[2]
        mb.polygon(outer, -APRON_DEPTH, WOOD_DARK, up=False)
        inset = 0.08
        mb.box((-X + inset, -Y + inset, -FRAME_DEPTH), (X - inset, Y - inset, -APRON_DEPTH), WOOD_DARK)
        # Legs: six on the long 12 ft tables (and the 10 ft snooker), four on the 9 ft pool table.
        leg = 0.09 if s.length > 3.0 else 0.075
        xs = (-X + 0.25, 0.0, X - 0.25) if s.length > 3.0 else (-X + 0.22, X - 0.22)
        for lx in xs:
            for ly in (-Y + 0.2, Y - 0.2):
                mb.box((lx - leg, ly - leg, s.floor_z + 0.06), (lx + leg, ly + leg, -FRAME_DEPTH), WOOD)
                mb.box(
                    (lx - leg * 1.2, ly - leg * 1.2, s.floor_z),
                    (lx + leg * 1.2, ly + leg * 1.2, s.floor_z + 0.06),
                    WOOD_DARK,
                )

    def sights(self, mb: MeshBuilder) -> None:
        """Diamonds every L/8 along the long rails and W/4 along the short ones (WPA layout; none on snooker)."""
        s = self.spec
        if self.snooker:
            return
        hl, hw = s.half_length, s.half_width
        # WPA puts sight centres 93.7 mm behind the nose; wider rails keep the same share of the rail top.
        back = s.cushion_width + min(0.0937 - s.cushion_width, 0.5 * s.rail_width)
        if back <= s.cushion_width:
            back = s.cushion_width + 0.5 * s.rail_width
        z = s.rail_height + 0.001
        a, b = 0.013, 0.0065
        for k in (1, 2, 3, 5, 6, 7):
            x = -hl + k * s.length / 8
            for y in (hw + back, -hw - back):
                mb.quad([(x - a, y, z), (x, y - b, z), (x + a, y, z), (x, y + b, z)], PEARL, (0, 0, 1))
        for k in (1, 2, 3):
            y = -hw + k * s.width / 4
            for x in (hl + back, -hl - back):
                mb.quad([(x - b, y, z), (x, y - a, z), (x + b, y, z), (x, y + a, z)], PEARL, (0, 0, 1))

    def markings(self, mb: MeshBuilder, head_string: bool, pool: bool) -> None:
        """The head string (Russian and snooker tables), the D (snooker) and the spots."""
        s = self.spec
        z = 0.001
        w = 0.0015
        hw = s.half_width
        if head_string:
            x = s.lines["head-string"]
            mb.quad([(x - w, -hw, z), (x + w, -hw, z), (x + w, hw, z), (x - w, hw, z)], MARK, (0, 0, 1))
        if self.snooker and s.d_radius:
            x0 = s.lines["head-string"]
            r = s.d_radius
            pts = [(x0 - r * math.sin(t), r * math.cos(t)) for t in (math.pi * k / 64 for k in range(65))]
            for (x1, y1), (x2, y2) in zip(pts, pts[1:], strict=False):
                ox1, oy1 = (x1 - x0) / r * w, y1 / r * w
                ox2, oy2 = (x2 - x0) / r * w, y2 / r * w
                mb.quad(
                    [
                        (x1 - ox1, y1 - oy1, z),
                        (x1 + ox1, y1 + oy1, z),
                        (x2 + ox2, y2 + oy2, z),
                        (x2 - ox2, y2 - oy2, z),
                    ],
                    MARK,
                    (0, 0, 1),
                )
        spot_r = 0.0045 if self.snooker else 0.006
        for name, (x, y) in s.spots.items():
            if pool and name == "centre-spot":
                continue
            mb.disc((x, y, z), spot_r, MARK, 12)


def next_cushion(cid: str) -> str:
    ids = [c for c, _ in CUSHION_WALK]
    return ids[(ids.index(cid) + 1) % len(ids)]


def _straight_end(p: Vec2T, outward: Vec2T) -> Callable[[float], Vec3T]:
    """A straight cushion's end: the point ``depth`` behind the nose, square to the nose line."""
    return lambda depth: (p[0] + outward[0] * depth, p[1] + outward[1] * depth, 0.0)


def _far(a: Vec2T, b: Vec2T) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) > 1e-9


def _arc_through(
    centre: Vec2T, r: float, p_in: Vec2T, p_out: Vec2T, through: Vec2T, step: float
) -> list[Vec2T]:
    """Arc from p_in to p_out (both on the circle) passing the point of the circle in direction ``through``."""
    from scenes.geom_mesh import arc

    a0 = math.atan2(p_in[1] - centre[1], p_in[0] - centre[0])
    a1 = math.atan2(p_out[1] - centre[1], p_out[0] - centre[0])
    am = math.atan2(through[1], through[0])
    tau = 2 * math.pi
    sweep = (a1 - a0) % tau
    if (am - a0) % tau > sweep:
        sweep -= tau
    n = max(4, int(abs(sweep) * r / step) + 1)
    return arc(centre, r, a0, a0 + sweep, n)


def _circle_exit(q: Vec2T, toward: Vec2T, centre: Vec2T, r: float) -> Vec2T:
    """Where the ray from q (inside the circle) towards ``toward`` leaves the circle."""
    ux, uy = toward[0] - q[0], toward[1] - q[1]
    length = math.hypot(ux, uy)
    ux, uy = ux / length, uy / length
    dx, dy = q[0] - centre[0], q[1] - centre[1]
    b = ux * dx + uy * dy
    c = dx * dx + dy * dy - r * r
    s = -b + math.sqrt(max(b * b - c, 0.0))
    return (q[0] + ux * s, q[1] + uy * s)
