"""Building a table's plan from its spec, with its room and objects, and keeping the plans built.

The engine builds a world per stroke; what depends only on the table, the lamp and the objects is
worked out once here and kept (``scene_plan``), and ``physics.geometry`` shares each solid's Bullet
shape between the worlds it builds.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from physics import geometry_poly as gp
from physics.errors import InputError
from physics.objects import CHALK_SIZE, CUE_LENGTH, CUE_LENGTH_RANGE, CUE_RADIUS, PERSON_SIZE, SceneObject
from physics.plan.parts import (
    GJK_MERGE,
    MARGIN,
    POCKET_BACK_FROM,
    POCKET_BACK_WALL,
    ROOM_HALF,
    ROOM_HEIGHT,
    ROUND_LIMIT,
    V3,
    CushionContact,
    Cylinder,
    GeometryExtras,
    Jaw,
    Plane,
    PocketShape,
    Pt,
    load_extras,
)
from physics.plan.table import TablePlan
from physics.tables import NOSE_EDGE_RISE, TABLES_DIR, TableSpec

JawFrame = dict[str, Any]  # the directions and sizes a jaw was built with (u, nu0, nuf, d, phi, rj)
JawPairs = dict[str, list[tuple[Jaw, JawFrame]]]  # pocket -> its two jaws


# ---------------------------------------------------------------------------------------------
# Cushion cross-section and jaws


def cushion_profile(spec: TableSpec, depth: float, steepen: float = 1.0) -> list[Pt]:
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


def _cushion_contact(spec: TableSpec) -> CushionContact:
    R, h = spec.ball_radius, spec.cushion_nose_height
    theta = math.asin((h - R) / R)
    prof = cushion_profile(spec, spec.cushion_width)
    nose = min(prof, key=lambda q: (q[0], -q[1]))
    back_top = max(prof, key=lambda q: (q[0], q[1]))
    return CushionContact(
        h,
        theta,
        math.sqrt(R * R - (h - R) ** 2),
        math.atan2(back_top[1] - nose[1], back_top[0] - nose[0]),
    )


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
) -> tuple[Jaw, JawFrame]:
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
    # A fillet under ROUND_LIMIT is built as an exact round (``TablePlan._round_piece``); a larger one
    # from flat facets, as many as keep each at least GJK_MERGE wide (Bullet cannot tell nearer hull
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


def _fillet_points(spec: TableSpec, jaw: Jaw, fr: Mapping[str, Any], top: float) -> list[V3]:
    """Hull points of a jaw fillet: the nose and a low point of the under-face at every facet edge,
    and two points behind the fillet centre (top and bottom) that fill the jaw behind it.

    A facet spanning 2*delta of the fillet leans less than its edge sections (its plane holds two
    generators of the swept cone), so the sections are steepened by 1/cos(delta) and every facet
    is tilted by exactly theta, like the cushion. The low point is GJK_MERGE below the nose so
    that no two hull vertices are closer than Bullet's GJK can tell apart.
    """
    n = jaw.facets
    prof = gp.inset(cushion_profile(spec, spec.cushion_width, 1.0 / math.cos(fr["phi"] / n / 2)), MARGIN)
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
    pts: list[V3] = []
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
    p: tuple[float, float], nu: tuple[float, float], profile: Sequence[Pt], n_max: float
) -> list[V3]:
    prof = gp.clip(list(profile), (1.0, 0.0), n_max) if n_max < math.inf else list(profile)
    return [(p[0] + n * nu[0], p[1] + n * nu[1], z) for n, z in prof]


# ---------------------------------------------------------------------------------------------
# The table


def _build_table(g: TablePlan) -> None:
    s = g.spec
    top = max(s.rail_height, s.cushion_nose_height + 0.002)
    profile = gp.inset(cushion_profile(s, s.cushion_width), MARGIN)
    g.cushion_profile = cushion_profile(s, s.cushion_width)
    jaws, cushion_ends = _jaws(s, g.extras)
    _pocket_frames(g, jaws, max(p[0] for p in profile))
    _cushions(g, jaws, cushion_ends, profile)
    _jaw_solids(g, jaws, profile, top)
    wells = _wells(g)
    _slate(g)
    _fill(g, jaws, wells, top)
    _rails(g, wells, top)
    _well_walls(g, top)


def _jaws(s: TableSpec, ex: GeometryExtras) -> tuple[JawPairs, dict[str, tuple[str, str]]]:
    """Jaws at both ends of every cushion, matched to the nearest pocket; the pockets at each cushion's
    ends."""
    jaws: JawPairs = {pid: [] for pid in s.pockets}
    cushion_ends: dict[str, tuple[str, str]] = {}
    for cid, cu in s.cushions.items():
        ends = []
        for end, other in ((cu.start, cu.end), (cu.end, cu.start)):
            pid = min(s.pockets, key=lambda k: math.dist(s.pockets[k].centre, end))
            jaws[pid].append(_jaw_frame(s, ex, pid, cid, end, other))
            ends.append(pid)
        cushion_ends[cid] = (ends[0], ends[1])
    return jaws, cushion_ends


def _pocket_frames(g: TablePlan, jaws: JawPairs, n_back: float) -> None:
    """Pocket frames. The well is wider than the throat by the clearance, but never so wide that
    the deep end of a cushion or corridor (full-depth sections behind the drop line) reaches into it."""
    s, ex = g.spec, g.extras
    R = s.ball_radius
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
            -s.pocket_depth,
            (pair[0][0], pair[1][0]),
        )


def _cushions(
    g: TablePlan, jaws: JawPairs, cushion_ends: dict[str, tuple[str, str]], profile: Sequence[Pt]
) -> None:
    """Cushion prisms between the fillet starts, full depth."""
    jaw_of = {(j.cushion, j.pocket): j for pid in jaws for j, _ in jaws[pid]}
    for cid, cu in g.spec.cushions.items():
        at_start, at_end = cushion_ends[cid]
        nu0 = (-cu.normal[0], -cu.normal[1])
        a, b = jaw_of[(cid, at_start)].fillet_start, jaw_of[(cid, at_end)].fillet_start
        g.cushions[cid] = (a, b)
        g._hull("cushion", cid, _section(a, nu0, profile, math.inf) + _section(b, nu0, profile, math.inf))


def _jaw_solids(g: TablePlan, jaws: JawPairs, profile: Sequence[Pt], top: float) -> None:
    """Jaws: the profile swept round the fillet (sections no deeper than the fillet radius, so the
    sweep stays convex), then the straight corridor as a full-depth prism. Behind the fillet
    centre the cushion prism and the corridor prism overlap, so nothing is left open."""
    for pid, pair in jaws.items():
        for jaw, fr in pair:
            if jaw.true_round:
                g._round_piece("jaw", pid, jaw)
            elif jaw.facets:
                g._hull("jaw", pid, _fillet_points(g.spec, jaw, fr, top))
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


def _wells(g: TablePlan) -> dict[str, gp.Poly]:
    """The wells' free insides (nothing of the table reaches into them) and, round them, the walls
    that line them: the rails and the fill are cut back to the walls, so whatever a ball meets
    in the hole is the pocket."""
    wells: dict[str, gp.Poly] = {}
    wt = g.extras.well_wall
    wb = max(wt, POCKET_BACK_WALL)
    for pid, p in g.pockets.items():
        wells[pid] = p.rect(
            p.a_drop, p.a_drop + p.well_length + wb, -p.well_half_width - wt, p.well_half_width + wt
        )
        g.openings.append(p.rect(p.a_drop, p.a_drop + p.well_length, -p.well_half_width, p.well_half_width))
        j0, j1 = p.jaws
        g.passages.append(gp.ccw([j0.nose_end, j0.facing_end, j1.facing_end, j1.nose_end]))
    g.wells = dict(wells)
    return wells


def _slate(g: TablePlan) -> None:
    """Slate: the nose rectangle grown by the cushion width, cut at the corner drop lines and
    round the middle wells. Where the balls roll it is ONE convex piece (the nose rectangle and
    every mouth up to its drop line): a seam between two coplanar pieces is an internal edge
    that Bullet's speculative contacts turn into a hop (a 5 m/s ball crossing one left it
    with vz = 0.7 m/s). The rest, under the cushions, is cut into convex pieces."""
    s, ex = g.spec, g.extras
    hl, hw, cw = s.half_length, s.half_width, s.cushion_width
    slate_t = ex.slate_thickness
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
    g.slate.append(main)
    for piece in gp.subtract_all(gp.subtract_all([slate], middle_wells), [main]):
        g._prism("bed", None, piece, -slate_t, 0.0)
        g.slate.append(piece)


def _fill(g: TablePlan, jaws: JawPairs, wells: Mapping[str, gp.Poly], top: float) -> None:
    """Fill beside each well inside the cushion zone, behind the jaws' ends, up to the rail top."""
    s = g.spec
    hl, hw, cw = s.half_length, s.half_width, s.cushion_width
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
            g._prism("rail_top", pid, piece, -g.extras.slate_thickness, top)


def _rails(g: TablePlan, wells: Mapping[str, gp.Poly], top: float) -> None:
    """Rail tops and the frame below them: the ring outside the cushions, minus the wells."""
    s = g.spec
    hl, hw, cw = s.half_length, s.half_width, s.cushion_width
    xo, yo = hl + cw + s.rail_width, hw + cw + s.rail_width
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
    slab = min(g.extras.rail_slab, top - s.floor_z - 0.01)
    for piece, _axis in pieces:
        g._prism("rail_top", None, piece, top - slab, top)
        g._prism("frame", None, piece, s.floor_z, top - slab)
        g.rails.append(piece)


def _well_walls(g: TablePlan, top: float) -> None:
    """Wells: side and back walls up to the rail top, a front wall under the slate edge, a floor."""
    wt = g.extras.well_wall
    wb = max(wt, POCKET_BACK_WALL)
    slate_t = g.extras.slate_thickness
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


# ---------------------------------------------------------------------------------------------
# The room and the scenario's objects


def _build_room(g: TablePlan, lamp: tuple[float, float, float] | None) -> None:
    s = g.spec
    g._add("floor", None, Plane((0.0, 0.0, 1.0), s.floor_z))
    # Walls and ceiling as planes facing into the room (n . p = d).
    hx, hy = ROOM_HALF
    for normal, d in (
        ((-1.0, 0.0, 0.0), -hx),
        ((1.0, 0.0, 0.0), -hx),
        ((0.0, -1.0, 0.0), -hy),
        ((0.0, 1.0, 0.0), -hy),
        ((0.0, 0.0, -1.0), -(s.floor_z + ROOM_HEIGHT)),
    ):
        g._add("wall", None, Plane(normal, d))
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


def _build_object(g: TablePlan, i: int, obj: SceneObject) -> None:
    key = f"objects[{i}]"
    x, y = float(obj.at[0]), float(obj.at[1])
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > 20 or abs(y) > 20:
        raise InputError("scenario", f"{key}.at", "a position within 20 m of the table centre")
    if obj.kind == "chalk":
        zb = g.support_z(x, y)
        half = CHALK_SIZE / 2
        g._box("chalk", f"chalk{i}", (x - half, y - half, zb), (x + half, y + half, zb + CHALK_SIZE))
        g.object_boxes.append(("chalk", (x - half, y - half, zb), (x + half, y + half, zb + CHALK_SIZE)))
    elif obj.kind == "person":
        _build_person(g, i, x, y)
    elif obj.kind == "cue-on-rail":
        _build_cue(g, i, x, y, obj)
    else:
        raise InputError("scenario", f"{key}.kind", "one of chalk, person, cue-on-rail")


def _build_person(g: TablePlan, i: int, x: float, y: float) -> None:
    s = g.spec
    xo = s.half_length + s.cushion_width + s.rail_width
    yo = s.half_width + s.cushion_width + s.rail_width
    w, d, hgt = PERSON_SIZE
    # Face the table: the shoulders run along the side the person stands at.
    along_x = abs(y) - yo >= abs(x) - xo
    hx, hy = (w / 2, d / 2) if along_x else (d / 2, w / 2)
    if abs(x) - hx < xo and abs(y) - hy < yo:
        raise InputError(
            "scenario",
            f"objects[{i}].at",
            f"a floor position beside the table: |x| >= {xo + hx:.3f} or |y| >= {yo + hy:.3f}",
        )
    lo = (x - hx, y - hy, s.floor_z)
    hi = (x + hx, y + hy, s.floor_z + hgt)
    g._box("person", f"person{i}", lo, hi)
    g.object_boxes.append(("person", lo, hi))


def _build_cue(g: TablePlan, i: int, x: float, y: float, obj: SceneObject) -> None:
    s = g.spec
    length = float(obj.params.get("length", CUE_LENGTH)) if obj.params else CUE_LENGTH
    lo, hi = CUE_LENGTH_RANGE
    if not math.isfinite(length) or not lo <= length <= hi:
        raise InputError("scenario", f"objects[{i}].length", f"a cue length in [{lo}, {hi}] m")
    r = CUE_RADIUS
    along_x = (abs(y) > s.half_width + s.cushion_width) or not (abs(x) > s.half_length + s.cushion_width)
    zb = g.support_z(x, y)
    g._add("cue", f"cue{i}", Cylinder(r, length, along_x), (x, y, zb + r))
    hx, hy = (length / 2, r) if along_x else (r, length / 2)
    g.object_boxes.append(("cue", (x - hx, y - hy, zb), (x + hx, y + hy, zb + 2 * r)))


# ---------------------------------------------------------------------------------------------
# Kept plans: keyed by the table's content (its repr: every number of the spec) plus the extras, and
# for a whole scene by that key, the lamp and the objects. The spec's repr costs ~0.4 ms, so a spec
# object seen before is found by identity first (the entry holds the spec, so its id stays unique).

_CACHE_SIZE = 16
TableKey = tuple[str, GeometryExtras]
_TABLES: OrderedDict[TableKey, TablePlan] = OrderedDict()
_SCENES: OrderedDict[tuple[TableKey, str, str], TablePlan] = OrderedDict()
_SPEC_KEYS: OrderedDict[int, tuple[TableSpec, TableKey]] = OrderedDict()


def _remember(cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    cache[key] = value
    if len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)


def clear_plan_cache() -> None:
    """Forget every plan (the next one of each table is built from scratch)."""
    _TABLES.clear()
    _SCENES.clear()
    _SPEC_KEYS.clear()


def scene_plan(
    spec: TableSpec,
    objects: Sequence[SceneObject] = (),
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
) -> TablePlan:
    """The plan of a table with its room, its lamp (the shade's bottom centre: x, y, height above the
    cloth; None for no lamp) and the scenario's objects. Kept: the same arguments give the same plan
    object, which the caller must not change."""
    objects = tuple(objects)
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
        table = TablePlan(spec, table_key[1], _cushion_contact(spec))
        _build_table(table)
        _remember(_TABLES, table_key, table)
    scene = table.copy()
    _build_room(scene, lamp)
    for i, obj in enumerate(objects):
        _build_object(scene, i, obj)
    _remember(_SCENES, scene_key, scene)
    return scene


def table_plan(spec: TableSpec) -> TablePlan:
    """The plan of the table alone with its room (no lamp, no objects)."""
    return scene_plan(spec, (), None)


def pocket_shapes(spec: TableSpec) -> dict[str, PocketShape]:
    """The pockets as the physics builds them (drop lines, wells): for readers of a record who must tell a
    ball over a pocket's hole from one in its mouth."""
    return dict(table_plan(spec).pockets)
