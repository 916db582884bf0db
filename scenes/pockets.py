"""The pockets as a player sees them, drawn from the physics' own plan (``physics.plan``, no Bullet).

What the physics has at every pocket (``physics.plan.PocketShape``, in the pocket's frame: ``a`` along its axis
from the bed into the pocket, ``t`` across it): the jaws (nose, fillet, facing down to the drop line), the drop
line where the slate ends, and the well below it, a box ``well_length`` long and ``2 well_half_width`` wide
whose floor is ``pocket_depth`` under the cloth.

What is drawn:

- the **rim**: the rail's round cut, the circle through the well's four corners (so every ball in the well is
  inside it), behind the drop line; from above the pocket reads as a round hole, as a real one does;
- the **liner**: from the rim down to the well's mouth at the cloth (a leather or rubber funnel), then the well's
  walls straight down to its floor: exactly the box a pocketed ball meets;
- the **bottom**: a net (Russian and snooker tables) or the drop pocket's rubber cup (pool).

Where the rim's circle and the well differ (a crescent beside and behind the well, up to 31 mm on the pool table's
middle pockets) the physics has its solid rail top; only a ball in the air meets it, and the funnel stands over
it, sloping down to where the well's wall really is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from physics.plan import PocketShape as PlanPocket
from physics.plan import TablePlan
from physics.tables import TableSpec
from scenes.geom_mesh import ColourT, MeshBuilder, Vec2T, Vec3T, arc

RIM_STEP = 0.006  # m between points of the rim's arc
DEEP = 0.25  # a pocket's colour at its floor, of the colour at its rim (sRGB)


@dataclass(frozen=True)
class PocketShape:
    """Where a pocket's parts are drawn (table frame, metres).

    ``hole_centre``/``hole_radius`` are the rim's circle (centred on the middle of the physics' well, through
    its corners); ``well`` the physics' well (anticlockwise corners), ``floor_z`` its floor, ``jaws`` each jaw's
    outline on the cloth by cushion id (nose end, round the fillet, down the facing to the drop line).
    """

    id: str
    mouth_mid: Vec2T  # midpoint between the jaw noses
    axis: Vec2T  # unit vector from the bed into the pocket
    half_mouth: float
    hole_centre: Vec2T
    hole_radius: float
    well: tuple[Vec2T, ...]
    floor_z: float
    jaws: tuple[tuple[str, tuple[Vec2T, ...]], ...]
    plan: PlanPocket
    # Where each side's straight cushion begins: (its fillet start, the unit vector along its nose towards the
    # pocket, its outward normal), and how deep the cushions are. The hole stops there: beyond it is rubber.
    cushion_ends: tuple[tuple[Vec2T, Vec2T, Vec2T], ...] = ()
    cushion_width: float = 0.0

    @property
    def bite_centre(self) -> Vec2T:
        """Centre of the round cut in the rail top: the rim's."""
        return self.hole_centre

    @property
    def bite_radius(self) -> float:
        return self.hole_radius

    def jaw(self, cushion: str) -> tuple[Vec2T, ...]:
        return dict(self.jaws).get(cushion, ())

    # -- the hole in the pocket's own frame ---------------------------------------------------------
    def _centre_a(self) -> float:
        return self.plan.a_drop + self.plan.well_length / 2

    def front_corner(self, side: float) -> Vec2T:
        """The well's corner on the drop line on the side ``side`` (sign of t): where the rim meets the drop
        line."""
        return self.plan.world(self.plan.a_drop, math.copysign(self.plan.well_half_width, side))

    def _angles(self) -> tuple[float, float, float]:
        """The rim's sweep (angle about the hole centre from the axis): front corner -t, back corner +t, and
        the front corner +t is at minus the first."""
        half_len, hw = self.plan.well_length / 2, self.plan.well_half_width
        return -math.atan2(hw, -half_len), -math.atan2(hw, half_len), math.atan2(hw, -half_len)

    def rim_point(self, phi: float) -> Vec2T:
        """The hole's edge at the rail top at angle ``phi``: the rim's circle, or nearer where a straight cushion
        reaches into it (a ball meets the rubber there, so the hole stops at the cushion's end)."""
        cx, cy = self.hole_centre
        d = self.plan.world(math.cos(phi), math.sin(phi))
        d = (d[0] - self.plan.centre[0], d[1] - self.plan.centre[1])
        reach = self.hole_radius
        for start, u, o in self.cushion_ends:
            reach = min(reach, _ray_into_cushion((cx, cy), d, start, u, o, self.cushion_width))
        return (cx + reach * d[0], cy + reach * d[1])

    def in_cushion(self, q: Vec2T) -> bool:
        """True for a point on or past the end of a straight cushion (not the jaw's, the hole's or the throat's)."""
        return any(
            (q[0] - s[0]) * u[0] + (q[1] - s[1]) * u[1] <= 1e-9
            and -1e-9 <= (q[0] - s[0]) * o[0] + (q[1] - s[1]) * o[1] <= self.cushion_width + 1e-9
            for s, u, o in self.cushion_ends
        )

    def well_point(self, phi: float) -> Vec2T:
        """Where the ray from the hole's centre at angle ``phi`` leaves the well (its sides and back)."""
        half_len, hw = self.plan.well_length / 2, self.plan.well_half_width
        c, s = math.cos(phi), math.sin(phi)
        reach = min(
            half_len / abs(c) if abs(c) > 1e-12 else math.inf, hw / abs(s) if abs(s) > 1e-12 else math.inf
        )
        return self.plan.world(self._centre_a() + reach * c, reach * s)

    def rim_angles(self, step: float = RIM_STEP) -> list[float]:
        """Angles of the rim's points from one front corner round the back to the other, the well's back
        corners and the straight cushions' corners among them (so the funnel follows their edges exactly)."""
        f0, b1, f1 = self._angles()
        marks = {f0, -b1, b1, f1}
        for start, _u, o in self.cushion_ends:
            for depth in (0.0, self.cushion_width):
                a, t = self.plan.local(start[0] + o[0] * depth, start[1] + o[1] * depth)
                phi = math.atan2(t, a - self._centre_a())
                if f0 < phi < f1:
                    marks.add(phi)
        edges = sorted(marks)
        out: list[float] = []
        for lo, hi in zip(edges, edges[1:], strict=False):
            n = max(1, int(abs(hi - lo) * self.hole_radius / step) + 1)
            out += [lo + (hi - lo) * k / n for k in range(n)]
        return [*out, f1]


def pocket_shapes(spec: TableSpec, plan: TablePlan) -> dict[str, PocketShape]:
    """Every pocket of the table as drawn, from the physics' plan."""
    out: dict[str, PocketShape] = {}
    for pid, pk in plan.pockets.items():
        ends = []
        for j in pk.jaws:
            cu = spec.cushions[j.cushion]
            near, far = (
                (cu.start, cu.end)
                if math.dist(cu.start, j.nose_end) < math.dist(cu.end, j.nose_end)
                else (cu.end, cu.start)
            )
            length = math.dist(near, far)
            u = ((near[0] - far[0]) / length, (near[1] - far[1]) / length)
            ends.append((j.fillet_start, u, (-cu.normal[0], -cu.normal[1])))
        a0, a1, hw = pk.a_drop, pk.a_drop + pk.well_length, pk.well_half_width
        well = tuple(pk.world(a, t) for a, t in ((a0, -hw), (a1, -hw), (a1, hw), (a0, hw)))
        if _signed_area(well) < 0:
            well = tuple(reversed(well))
        jaws = []
        for j in pk.jaws:
            pts: list[Vec2T] = [j.fillet_start]
            if j.facets > 0 and math.dist(j.fillet_start, j.fillet_end) > 1e-9:
                r = math.dist(j.fillet_centre, j.fillet_start)
                a_s = math.atan2(
                    j.fillet_start[1] - j.fillet_centre[1], j.fillet_start[0] - j.fillet_centre[0]
                )
                a_e = math.atan2(j.fillet_end[1] - j.fillet_centre[1], j.fillet_end[0] - j.fillet_centre[0])
                sweep = (a_e - a_s + math.pi) % (2 * math.pi) - math.pi  # the short way round
                pts += arc(j.fillet_centre, r, a_s, a_s + sweep, 8)[1:-1]
                pts.append(j.fillet_end)
            pts.append(j.facing_end)
            jaws.append((j.cushion, tuple(pts)))
        n0, n1 = pk.jaws[0].nose_end, pk.jaws[1].nose_end
        out[pid] = PocketShape(
            id=pid,
            mouth_mid=((n0[0] + n1[0]) / 2, (n0[1] + n1[1]) / 2),
            axis=pk.axis,
            half_mouth=math.dist(n0, n1) / 2,
            hole_centre=pk.world((a0 + a1) / 2, 0.0),
            hole_radius=math.hypot(hw, pk.well_length / 2),
            well=well,
            floor_z=pk.floor_z,
            jaws=tuple(jaws),
            plan=pk,
            cushion_ends=tuple(ends),
            cushion_width=spec.cushion_width,
        )
    return out


# ------------------------------------------------------------------------------------------ drawing


def draw_liner(
    mb: MeshBuilder, p: PocketShape, rim_z: Callable[[float, float], float], colour: ColourT
) -> None:
    """The funnel from the rim (at the height of what surrounds it: ``rim_z``) down to the well's mouth at the
    cloth, then the well's sides and back down to its floor, and the slate's edge under the drop line.

    The colour darkens with depth (:func:`depth_shade`): little of the lamp's light reaches down a pocket, and
    the shading has no occlusion of its own."""
    angles = p.rim_angles()
    rim = [p.rim_point(a) for a in angles]
    mouth = [p.well_point(a) for a in angles]
    top = max(rim_z(*q) for q in rim)

    def shade(z: float) -> ColourT:
        return depth_shade(colour, z, p.floor_z, top)

    for k in range(len(angles) - 1):
        r0, r1, m0, m1 = rim[k], rim[k + 1], mouth[k], mouth[k + 1]
        quad: list[Vec3T] = [(m0[0], m0[1], 0.0), (m1[0], m1[1], 0.0), (*r1, rim_z(*r1)), (*r0, rim_z(*r0))]
        if math.dist(r0, m0) + math.dist(r1, m1) > 1e-6:
            _inward_quad(mb, quad, p.hole_centre, shade)
        if math.dist(m0, m1) > 1e-9:
            wall: list[Vec3T] = [(*m0, p.floor_z), (*m1, p.floor_z), (*m1, 0.0), (*m0, 0.0)]
            _inward_quad(mb, wall, p.hole_centre, shade)
    f0, f1 = p.front_corner(-1.0), p.front_corner(1.0)
    front: list[Vec3T] = [(*f0, p.floor_z), (*f1, p.floor_z), (*f1, 0.0), (*f0, 0.0)]
    _inward_quad(mb, front, p.plan.world(p.plan.a_drop + p.plan.well_length, 0.0), shade)


def depth_shade(colour: ColourT, z: float, floor_z: float, top: float) -> ColourT:
    """``colour`` at height ``z`` of a pocket: as it is at the rim, a quarter of it at the floor (written in
    sRGB: about a twentieth of the light)."""
    f = DEEP + (1.0 - DEEP) * min(max((z - floor_z) / max(top - floor_z, 1e-6), 0.0), 1.0)
    return (colour[0] * f, colour[1] * f, colour[2] * f, colour[3])


def draw_bottom(mb: MeshBuilder, p: PocketShape, colour: ColourT, net: bool) -> None:
    """The well's floor: a net bag hanging from it (``net``), or the drop pocket's closed cup. UVs in metres /
    3 cm, for the net's texture."""
    w = list(p.well)

    def uv(x: float, y: float) -> Vec2T:
        return (x / 0.03, y / 0.03)

    colour = depth_shade(colour, p.floor_z, p.floor_z, 0.0)
    mb.polygon(w, p.floor_z, colour, uv_of=uv)
    if not net:
        return
    # The bag sags below the floor the physics gives the well (the ball rests on the floor; the net is drawn
    # round it), narrowing to a rounded bottom.
    cx, cy = p.hole_centre
    sag = 0.06
    bag = [(cx + (q[0] - cx) * 0.7, cy + (q[1] - cy) * 0.7) for q in w]
    for q0, q1, b0, b1 in zip(w, w[1:] + w[:1], bag, bag[1:] + bag[:1], strict=True):
        mb.quad(
            [(*b0, p.floor_z - sag), (*b1, p.floor_z - sag), (*q1, p.floor_z), (*q0, p.floor_z)],
            colour,
            _outward((q0[0] + q1[0]) / 2 - cx, (q0[1] + q1[1]) / 2 - cy),
            (uv(*b0), uv(*b1), uv(*q1), uv(*q0)),
        )
    mb.polygon(bag, p.floor_z - sag, colour, up=False, uv_of=uv)


def jaw_outline(
    p: PocketShape, jaw: Sequence[Vec2T], back_rect: tuple[float, float], depth_dir: Vec2T, cw: float
) -> list[Vec2T]:
    """The rubber at one jaw in plan: its outline on the cloth (fillet start, fillet, facing), along the drop
    line to the well's corner, round the hole's edge while it stays between the straight cushion's end and the
    cushions' back line (``back_rect``: the half extents of the rectangle the cushions' backs make), and back
    along whichever it met to behind the fillet start."""
    side = p.plan.local(*jaw[-1])[1]
    corner = p.front_corner(side)
    X, Y = back_rect
    back = (jaw[0][0] + depth_dir[0] * cw, jaw[0][1] + depth_dir[1] * cw)
    angles = p.rim_angles()
    if side > 0:
        angles = list(reversed(angles))
    out = [*jaw, corner]
    prev = corner
    for phi in angles[1:]:
        q = p.rim_point(phi)
        if abs(q[0]) > X + 1e-9 or abs(q[1]) > Y + 1e-9:
            edge = _to_rect_edge(prev, q, X, Y)
            out += [edge, *_rect_path(edge, back, X, Y), back]
            break
        out.append(q)
        if p.in_cushion(q):
            break  # on the straight cushion's end: the outline closes along it to the fillet start
        prev = q
    return [q for k, q in enumerate(out) if math.dist(q, out[k - 1]) > 1e-9]


# ------------------------------------------------------------------------------------------ helpers


def _inward_quad(
    mb: MeshBuilder, quad: list[Vec3T], centre: Vec2T, shade: Callable[[float], ColourT]
) -> None:
    """A liner quad facing the hole's inside (towards the vertical through ``centre``), coloured by height."""
    n = _normal(quad[0], quad[1], quad[2])
    if n is None:
        n = _normal(quad[0], quad[2], quad[3])
    if n is None:
        return
    mx = sum(q[0] for q in quad) / 4
    my = sum(q[1] for q in quad) / 4
    if n[0] * (centre[0] - mx) + n[1] * (centre[1] - my) < 0:
        n = (-n[0], -n[1], -n[2])
    # Smooth normals round the hole (the face's tilt, turned towards the hole's axis at each vertex): the funnel
    # and the well shade as one round leather or rubber lining, with no seam at the well's corners.
    tilt = math.hypot(n[0], n[1])
    ids = []
    for q in quad:
        rx, ry = centre[0] - q[0], centre[1] - q[1]
        r = math.hypot(rx, ry)
        vn = (rx / r * tilt, ry / r * tilt, n[2]) if r > 1e-9 else n
        ids.append(mb.vertex(q, vn, shade(q[2])))
    face = _normal(quad[0], quad[1], quad[2]) or _normal(quad[0], quad[2], quad[3])
    assert face is not None
    if face[0] * n[0] + face[1] * n[1] + face[2] * n[2] < 0:
        ids.reverse()
    mb.triangle(ids[0], ids[1], ids[2])
    mb.triangle(ids[0], ids[2], ids[3])


def _normal(a: Vec3T, b: Vec3T, c: Vec3T) -> Vec3T | None:
    u = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    v = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    length = math.sqrt(n[0] ** 2 + n[1] ** 2 + n[2] ** 2)
    return None if length < 1e-12 else (n[0] / length, n[1] / length, n[2] / length)


def _ray_into_cushion(c: Vec2T, d: Vec2T, start: Vec2T, u: Vec2T, o: Vec2T, cw: float) -> float:
    """How far the ray from ``c`` along unit ``d`` goes before it enters a straight cushion's zone: behind its
    end (``start``, ``u`` along the nose towards the pocket) and within its depth (``o`` outward, 0..cw)."""
    lo, hi = 0.0, math.inf
    # (value at c, rate along the ray) for each bound: along <= 0, depth >= 0 (less a little), depth <= cw
    along = ((c[0] - start[0]) * u[0] + (c[1] - start[1]) * u[1], d[0] * u[0] + d[1] * u[1])
    depth = ((c[0] - start[0]) * o[0] + (c[1] - start[1]) * o[1], d[0] * o[0] + d[1] * o[1])
    for v0, rate in ((along[0], along[1]), (-depth[0] - 0.001, -depth[1]), (depth[0] - cw, depth[1])):
        if abs(rate) < 1e-12:
            if v0 > 0:
                return math.inf
            continue
        s = -v0 / rate
        if rate > 0:
            hi = min(hi, s)
        else:
            lo = max(lo, s)
    return lo if lo <= hi else math.inf


def _outward(dx: float, dy: float) -> Vec3T:
    length = math.hypot(dx, dy) or 1.0
    return (dx / length, dy / length, 0.0)


def _to_rect_edge(inside: Vec2T, outside: Vec2T, X: float, Y: float) -> Vec2T:
    """Where the segment from ``inside`` to ``outside`` crosses the rectangle |x| <= X, |y| <= Y."""
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        q = (inside[0] + (outside[0] - inside[0]) * mid, inside[1] + (outside[1] - inside[1]) * mid)
        if abs(q[0]) > X or abs(q[1]) > Y:
            hi = mid
        else:
            lo = mid
    return (inside[0] + (outside[0] - inside[0]) * lo, inside[1] + (outside[1] - inside[1]) * lo)


def _rect_path(a: Vec2T, b: Vec2T, X: float, Y: float) -> list[Vec2T]:
    """The rectangle's corners passed going the short way along its edge from ``a`` to ``b`` (both on it)."""

    def pos(q: Vec2T) -> float:
        # Distance along the perimeter, anticlockwise from (X, -Y).
        x, y = q
        if abs(x - X) < 1e-7:
            return y + Y
        if abs(y - Y) < 1e-7:
            return 2 * Y + (X - x)
        if abs(x + X) < 1e-7:
            return 2 * Y + 2 * X + (Y - y)
        return 4 * Y + 2 * X + (x + X)

    corners = [((X, Y), 2 * Y), ((-X, Y), 2 * Y + 2 * X), ((-X, -Y), 4 * Y + 2 * X), ((X, -Y), 0.0)]
    total = 4 * (X + Y)
    s0, s1 = pos(a), pos(b)
    fwd = (s1 - s0) % total
    if fwd <= total / 2:
        return [
            c for c, s in sorted(corners, key=lambda cs: (cs[1] - s0) % total) if 0 < (s - s0) % total < fwd
        ]
    back = total - fwd
    return [c for c, s in sorted(corners, key=lambda cs: (s0 - cs[1]) % total) if 0 < (s0 - s) % total < back]


def _signed_area(pts: Sequence[Vec2T]) -> float:
    return 0.5 * sum(
        pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1]
        for i in range(len(pts))
    )
