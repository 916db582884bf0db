"""The static table in Bullet (physics/geometry.py), checked on all four tables.

Heights and angles come from the table specs and docs/physics.md §Tables (contact normal tilted down by
asin((h - R) / R), section 4 "Cushion contact height"); positions are measured with Bullet's own
contact generation (sphere probes, as the balls will see the table) and with short rays.

Rays are kept short (a few cm): Bullet's ray cast against convex shapes (subsimplex convex
cast) stops iterating once the squared distance is below 1e-4, so on a metre-long ray it can be
off by millimetres; over a few centimetres it is exact to micrometres.
"""

from __future__ import annotations

import math
from functools import cache

import pytest
from panda3d.bullet import BulletMultiSphereShape, BulletRigidBodyNode, BulletSphereShape, BulletWorld
from panda3d.core import Point3, TransformState, Vec3

from physics.errors import InputError
from physics.geometry import DEFAULT_MATERIALS, POCKET_BACK_BY_TABLE, TableGeometry, build_table_geometry
from physics.objects import SceneObject
from physics.plan import ROUND_LIMIT, SURFACE_KINDS
from physics.tables import TABLE_IDS, TableSpec, load_table

G = 9.81
LAMP = (0.2, -0.1, 1.0)


def _objects(spec: TableSpec) -> tuple[SceneObject, ...]:
    rail_y = spec.half_width + spec.cushion_width + spec.rail_width / 2
    return (
        SceneObject("chalk", (1.0, rail_y, 0.0)),
        SceneObject("person", (0.5, -(rail_y + spec.rail_width / 2 + 0.5), 0.0)),
        SceneObject("cue-on-rail", (-0.4, rail_y, 0.0)),
    )


@cache
def built(table_id: str) -> tuple[BulletWorld, TableGeometry]:
    """A world holding only the static table (tests that step add and remove their own ball)."""
    world = BulletWorld()
    world.set_gravity(Vec3(0, 0, -G))
    spec = load_table(table_id)
    return world, build_table_geometry(world, spec, _objects(spec), lamp=LAMP)


def ray(
    world: BulletWorld, geo: TableGeometry, a: tuple[float, float, float], b: tuple[float, float, float]
) -> tuple[float, float, float, str] | None:
    res = world.ray_test_closest(Point3(*a), Point3(*b))
    if not res.has_hit():
        return None
    surf = geo.surface(res.get_node())
    assert surf is not None, "every static body carries a Surface"
    p = res.get_hit_pos()
    return (p.x, p.y, p.z, surf.kind)


def add_ball(
    world: BulletWorld,
    geo: TableGeometry,
    pos: tuple[float, float, float],
    vel: tuple[float, float, float] = (0.0, 0.0, 0.0),
    omega: tuple[float, float, float] = (0.0, 0.0, 0.0),
) -> BulletRigidBodyNode:
    """A plain Bullet ball: the spec's mass and radius, CCD, never sleeping.

    Restitution and friction 1 on the ball, so Bullet's product combine yields the surface's own.
    """
    s = geo.spec
    node = BulletRigidBodyNode("ball")
    node.add_shape(BulletSphereShape(s.ball_radius))
    node.set_mass(s.ball_mass)
    node.set_restitution(1.0)
    node.set_friction(1.0)
    node.set_deactivation_enabled(False)
    node.set_ccd_motion_threshold(1e-7)
    node.set_ccd_swept_sphere_radius(0.9 * s.ball_radius)
    node.set_into_collide_mask(geo.collide_mask)
    node.set_transform(TransformState.make_pos(Point3(*pos)))
    node.set_linear_velocity(Vec3(*vel))
    node.set_angular_velocity(Vec3(*omega))
    world.attach(node)
    return node


def step(world: BulletWorld, seconds: float, hz: int = 1000) -> None:
    for _ in range(round(seconds * hz)):
        world.do_physics(1.0 / hz, 1, 1.0 / hz)


def pos_of(node: BulletRigidBodyNode) -> tuple[float, float, float]:
    p = node.get_transform().get_pos()
    return (p.x, p.y, p.z)


def touching(geo: TableGeometry, pos: tuple[float, float, float], r: float) -> list:
    """Contacts where the probe actually touches (Bullet also reports near misses within its threshold)."""
    return [c for c in geo.contacts(pos, r) if c[3] < 1e-5]


tables = pytest.mark.parametrize("table_id", TABLE_IDS)


# --- the bed and the pocket drops ---------------------------------------------------------------


@tables
def test_bed_centre_is_the_cloth_at_z0(table_id: str) -> None:
    world, geo = built(table_id)
    hit = ray(world, geo, (0.0, 0.0, 0.05), (0.0, 0.0, -0.05))
    assert hit is not None
    assert hit[3] == "bed"
    assert hit[2] == pytest.approx(0.0, abs=0.0005)
    assert top_at(geo, 0.0, 0.0, 0.0) == (pytest.approx(0.0, abs=1e-5), "bed")


@tables
def test_ray_at_every_drop_point_passes_below_the_slate(table_id: str) -> None:
    world, geo = built(table_id)
    for pid, p in geo.pockets.items():
        # 15 mm past the drop line: Bullet's ray cast may report a hull within about 1 cm of the ray.
        x, y = p.world(p.a_drop + 0.015, 0.0)
        hit = ray(world, geo, (x, y, 0.05), (x, y, p.floor_z - 0.03))
        assert hit is not None, pid
        assert hit[2] < -0.001, (pid, hit)
        assert hit[3] == "pocket", (pid, hit)
        # The well's floor is the spec's pocket depth below the cloth.
        floor = ray(world, geo, (x, y, p.floor_z + 0.03), (x, y, p.floor_z - 0.03))
        assert floor is not None
        assert floor[3] == "pocket"
        assert floor[2] == pytest.approx(-geo.spec.pocket_depth, abs=0.0005), pid


@tables
def test_slate_edge_is_at_the_drop_line(table_id: str) -> None:
    """A small probe just inside the drop line lies on the slate; just beyond it there is nothing."""
    _, geo = built(table_id)
    r = 0.002
    for pid, p in geo.pockets.items():
        for t in (-0.5 * p.throat + 0.004, 0.0, 0.5 * p.throat - 0.004):
            on = touching(geo, (*p.world(p.a_drop - 0.001 - r, t), r - 0.0002), r)
            assert on, (pid, t, on)
            assert {c[0].kind for c in on} == {"bed"}, (pid, t, on)
            off = touching(geo, (*p.world(p.a_drop + 0.001 + r, t), r - 0.0002), r)
            assert off == [], (pid, t, off)


# --- cushions and jaws --------------------------------------------------------------------------


@tables
def test_cushion_contact_height_and_normal_tilt(table_id: str) -> None:
    """A ball on the cloth touching any cushion meets it at the nose height h, normal tilted down by asin((h-R)/R)."""
    _, geo = built(table_id)
    s = geo.spec
    R, h = s.ball_radius, s.cushion_nose_height
    theta = math.degrees(math.asin((h - R) / R))
    d0 = math.sqrt(R * R - (h - R) ** 2)  # centre to nose line, horizontally, when touching
    for cid, cu in s.cushions.items():
        for f in (0.1, 0.5, 0.9):
            x = cu.start[0] + f * (cu.end[0] - cu.start[0]) + cu.normal[0] * (d0 - 0.0002)
            y = cu.start[1] + f * (cu.end[1] - cu.start[1]) + cu.normal[1] * (d0 - 0.0002)
            hits = [c for c in geo.contacts((x, y, R + 1e-5), R) if c[0].kind != "bed"]
            assert len(hits) == 1, (cid, f, hits)
            assert hits[0][0].kind == "cushion", (cid, f, hits)
            assert hits[0][0].id == cid, (cid, f, hits)
            _, point, normal, _dist = hits[0]
            assert point[2] == pytest.approx(h, abs=0.001), (cid, f)
            below = math.degrees(math.asin(-normal[2] / math.hypot(*normal)))
            assert below == pytest.approx(theta, abs=1.0), (cid, f)
            # The normal points from the nose into the bed, across the cushion line.
            horiz = math.hypot(normal[0], normal[1])
            assert (normal[0] * cu.normal[0] + normal[1] * cu.normal[1]) / horiz == pytest.approx(
                1.0, abs=1e-3
            )


@tables
def test_jaw_facets_press_the_ball_down_at_nose_height(table_id: str) -> None:
    """Jaws with a large fillet (snooker) carry the cushion's profile round it on flat facets:
    contact near h, normal tilted down by about theta.

    Tolerances are wider than for the long cushions because of Bullet, not of the geometry: its GJK
    merges support points closer than 1 cm, and a fillet facet is only about that wide, so the
    contact it reports can sit on a facet edge: up to about a millimetre off in depth and height
    and 3 degrees in tilt for a ball-sized sphere (measured on the four tables). Small fillets are
    exact rounds (test_jaw_rounds_are_exact).
    """
    _, geo = built(table_id)
    s = geo.spec
    R, h = s.ball_radius, s.cushion_nose_height
    theta = math.degrees(math.asin((h - R) / R))
    d0 = math.sqrt(R * R - (h - R) ** 2)
    for pid, p in geo.pockets.items():
        rj = s.pockets[pid].jaw_radius  # type: ignore[index]
        for jaw in p.jaws:
            if jaw.true_round:
                continue
            cx, cy = jaw.fillet_centre
            a0 = math.atan2(jaw.fillet_start[1] - cy, jaw.fillet_start[0] - cx)
            a1 = math.atan2(jaw.fillet_end[1] - cy, jaw.fillet_end[0] - cx)
            span = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
            for k in range(jaw.facets):
                az = a0 + (k + 0.5) * span / jaw.facets
                dist = rj * math.cos(span / jaw.facets / 2) + d0 - 0.001  # facet's nose line, then the ball
                near = [
                    c
                    for c in touching(geo, (cx + dist * math.cos(az), cy + dist * math.sin(az), R + 1e-5), R)
                    if c[0].kind != "bed"
                ]
                # Next to the cushion's end the ball may touch that too (a crease); nothing else.
                assert {c[0].kind for c in near} <= {"jaw", "cushion"}, (pid, k, near)
                hits = [c for c in near if c[0].kind == "jaw" and c[0].id == pid]
                assert hits, (pid, k, near)
                _, point, n, depth = min(hits, key=lambda c: c[3])
                assert -0.002 < depth < 0.0, (pid, k)
                assert point[2] == pytest.approx(h, abs=0.0015), (pid, k)
                tilt = math.degrees(math.asin(-n[2] / math.hypot(*n)))
                assert theta - 3.0 < tilt < theta + 1.0, (pid, k)


@tables
def test_jaw_rounds_are_exact(table_id: str) -> None:
    """A fillet under ROUND_LIMIT (pyramid R1 5 mm and R2 11 mm, pool 8 mm [MKP][WPA]) is an exact
    round: a ball on the cloth pressed 0.1 mm into it anywhere along the arc meets it at the nose
    height h, with the normal tilted down by theta = asin((h - R)/R) like the cushion's, and in plan
    along the line from the fillet centre through the ball's centre."""
    _, geo = built(table_id)
    s = geo.spec
    R, h = s.ball_radius, s.cushion_nose_height
    theta = math.degrees(math.asin((h - R) / R))
    d0 = math.sqrt(R * R - (h - R) ** 2)
    rounds = 0
    for pid, p in geo.pockets.items():
        rj = s.pockets[pid].jaw_radius  # type: ignore[index]
        for jaw in p.jaws:
            assert jaw.true_round == (rj < ROUND_LIMIT), (pid, jaw.cushion)
            if not jaw.true_round:
                continue
            rounds += 1
            cx, cy = jaw.fillet_centre
            assert math.dist(jaw.fillet_start, jaw.fillet_centre) == pytest.approx(rj, abs=1e-12)
            assert math.dist(jaw.fillet_end, jaw.fillet_centre) == pytest.approx(rj, abs=1e-12)
            a0 = math.atan2(jaw.fillet_start[1] - cy, jaw.fillet_start[0] - cx)
            a1 = math.atan2(jaw.fillet_end[1] - cy, jaw.fillet_end[0] - cx)
            span = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
            for f in (0.0, 0.2, 0.5, 0.8, 1.0):
                az = a0 + f * span
                dist = rj + d0 - 0.0001
                hits = [
                    c
                    for c in geo.contacts((cx + dist * math.cos(az), cy + dist * math.sin(az), R), R)
                    if c[0].kind == "jaw" and c[0].id == pid and c[3] < 0.0
                ]
                assert hits, (pid, jaw.cushion, f)
                _, point, n, depth = min(hits, key=lambda c: c[3])
                assert depth == pytest.approx(-0.0001 * math.cos(math.radians(theta)), abs=2e-5), (pid, f)
                assert point[2] == pytest.approx(h, abs=1e-4), (pid, f)
                tilt = math.degrees(math.asin(-n[2] / math.hypot(*n)))
                assert tilt == pytest.approx(theta, abs=0.1), (pid, f)
                plan = math.degrees(math.atan2(n[1], n[0]) - az)
                assert (plan + 180.0) % 360.0 - 180.0 == pytest.approx(0.0, abs=0.05), (pid, f)
    assert rounds == (12 if table_id in ("pyramid-12ft", "pool-9ft") else 0)


@tables
def test_mouth_gap_between_jaws_matches_spec(table_id: str) -> None:
    """The free gap between the jaws at nose height, read off where a ball touches each facing.

    The facings run along the pocket axis, or narrow towards the pocket by the cut angle (pool:
    142 and 104 degrees [WPA]), so the gap at depth a past the mouth line is
    mouth - 2 a tan(cut - 135 or 90 degrees).
    """
    _, geo = built(table_id)
    s = geo.spec
    R, h = s.ball_radius, s.cushion_nose_height
    d0 = math.sqrt(R * R - (h - R) ** 2)
    for pid, p in geo.pockets.items():
        pk = s.pockets[pid]  # type: ignore[index]
        cut = geo.extras.corner_cut_angle if pk.corner else geo.extras.middle_cut_angle
        narrowing = math.tan(math.radians(cut - (135.0 if pk.corner else 90.0)))
        # Where the facings are straight (the corridor), or at the end of the fillet.
        a_meas = p.a_drop - (pk.corridor / 2 if pk.corridor > 0.002 else 0.0003)
        half_expected = pk.mouth / 2 - (a_meas - p.a_mouth) * narrowing
        gap = 0.0
        for sign in (1.0, -1.0):
            # Pressed 1 mm in: a corridor no longer than Bullet's 1 cm GJK merge distance (pyramid
            # 5.5 mm, snooker 10 mm) is a face where a contact comes out up to ~0.6 mm too far.
            t = sign * (half_expected - d0 + 0.001)
            hits = [c for c in touching(geo, (*p.world(a_meas, t), R + 1e-5), R) if c[0].kind == "jaw"]
            assert hits, (pid, sign)
            _, point, _n, _d = min(hits, key=lambda c: c[3])
            assert point[2] == pytest.approx(h, abs=0.0015), (pid, sign)
            a_hit, t_hit = p.local(point[0], point[1])
            # Each side against the facing line at the depth where the ball touched it.
            gap += abs(t_hit) + (a_hit - p.a_mouth) * narrowing
        # What Bullet reports, within its GJK error on such short faces (both sides together).
        assert gap == pytest.approx(pk.mouth, abs=0.0015), pid
        # The built facings themselves: their ends on the drop line, a gap narrowed only by the cut angle.
        j0, j1 = p.jaws
        t0, t1 = p.local(*j0.facing_end)[1], p.local(*j1.facing_end)[1]
        assert abs(t0 - t1) == pytest.approx(pk.mouth - 2 * (p.a_drop - p.a_mouth) * narrowing, abs=1e-9)


# --- rails, frame, floor, lamp, objects ---------------------------------------------------------


def top_at(geo: TableGeometry, x: float, y: float, z: float, r: float = 0.002) -> tuple[float, str]:
    """Height and kind of the upward-facing surface near height z under (x, y), read by a probe."""
    hits = [c for c in touching(geo, (x, y, z + r - 0.0003), r) if c[2][2] > 0.9]
    assert hits, (x, y, z)
    _, point, _n, _d = max(hits, key=lambda c: c[1][2])
    kinds = {c[0].kind for c in hits if abs(c[1][2] - point[2]) < 1e-4}
    assert len(kinds) == 1, kinds
    return point[2], kinds.pop()


@tables
def test_rail_tops_floor_and_frame(table_id: str) -> None:
    world, geo = built(table_id)
    s = geo.spec
    mid_rail = s.cushion_width + s.rail_width / 2
    for x, y in (
        (0.3, s.half_width + mid_rail),
        (-0.3, -s.half_width - mid_rail),
        (s.half_length + mid_rail, 0.1),
        (-s.half_length - mid_rail, -0.1),
    ):
        hit = ray(world, geo, (x, y, s.rail_height + 0.03), (x, y, s.rail_height - 0.03))
        assert hit is not None, (x, y, hit)
        assert hit[3] == "rail_top", (x, y, hit)
        z, kind = top_at(geo, x, y, s.rail_height)
        assert kind == "rail_top"
        assert z == pytest.approx(s.rail_height, abs=0.0005)
    x_out = s.half_length + s.cushion_width + s.rail_width + 0.3
    hit = ray(world, geo, (x_out, 0.0, s.floor_z + 0.05), (x_out, 0.0, s.floor_z - 0.05))
    assert hit is not None
    assert hit[3] == "floor"
    assert hit[2] == pytest.approx(-s.bed_height, abs=0.0005)
    assert top_at(geo, x_out, 0.0, s.floor_z) == (pytest.approx(-s.bed_height, abs=0.0005), "floor")
    # The frame: the table's outer side (a long side, between the pockets), from under the rail
    # top down to the floor.
    yo = s.half_width + s.cushion_width + s.rail_width
    for z in (-0.1, s.floor_z + 0.05):
        hits = [
            c
            for c in touching(geo, (s.half_length / 2, yo + 0.002 - 0.0003, z), 0.002)
            if c[0].kind == "frame"
        ]
        assert hits
        assert hits[0][1][1] == pytest.approx(yo, abs=0.0005)
        assert hits[0][2][1] > 0.99


@tables
def test_lamp_and_objects_where_placed(table_id: str) -> None:
    world, geo = built(table_id)
    s = geo.spec
    hit = ray(world, geo, (LAMP[0], LAMP[1], LAMP[2] - 0.05), (LAMP[0], LAMP[1], LAMP[2] + 0.05))
    assert hit is not None
    assert hit[3] == "lamp"
    under = [
        c for c in touching(geo, (LAMP[0], LAMP[1], LAMP[2] - 0.002 + 0.0003), 0.002) if c[0].kind == "lamp"
    ]
    assert under
    assert under[0][1][2] == pytest.approx(LAMP[2], abs=0.0005)
    assert under[0][2][2] < -0.99
    length = geo.extras.lamp_shade[0]
    assert 1.2 <= length <= 1.6  # large enough for a lofted ball to reach it
    chalk, person, cue = _objects(s)
    assert top_at(geo, chalk.at[0], chalk.at[1], s.rail_height + 0.022) == (
        pytest.approx(s.rail_height + 0.022, abs=0.0005),
        "chalk",
    )
    assert top_at(geo, person.at[0], person.at[1], s.floor_z + 1.75) == (
        pytest.approx(s.floor_z + 1.75, abs=0.0005),
        "person",
    )
    z, kind = top_at(geo, cue.at[0], cue.at[1], s.rail_height + 0.022)
    # lying on the rail
    assert kind == "cue"
    assert z == pytest.approx(s.rail_height + 0.022, abs=0.0005)


def test_lamp_none_builds_no_lamp() -> None:
    world = BulletWorld()
    geo = build_table_geometry(world, load_table("pool-9ft"), lamp=None)
    assert all(geo.surface(n).kind != "lamp" for n in geo.nodes)  # type: ignore[union-attr]


def test_every_node_is_tagged_and_materials_override() -> None:
    world = BulletWorld()
    geo = build_table_geometry(world, load_table("pyramid-12ft"), materials={"cushion": (0.8, 0.14)})
    kinds = set()
    for node in geo.nodes:
        surf = geo.surface(node)
        assert surf is not None
        assert surf.kind in SURFACE_KINDS
        kinds.add(surf.kind)
        # The pocket's live back is a part of the well ("pocket") with the table's own facing.
        assert surf.material in ("", "pocket_back")
        assert surf.material == "" or surf.kind == "pocket"
        want = (
            (0.8, 0.14)
            if surf.kind == "cushion"
            else POCKET_BACK_BY_TABLE["pyramid-12ft"]
            if surf.material == "pocket_back"
            else DEFAULT_MATERIALS[surf.kind]
        )
        assert (surf.restitution, surf.friction) == want
        assert node.get_restitution() == pytest.approx(want[0])
        assert node.get_friction() == pytest.approx(want[1])
        # Every static body but the slate is also in the off-slate group (sweeps that ignore the slate).
        assert node.get_into_collide_mask() == (
            geo.collide_mask if surf.kind == "bed" else geo.collide_mask | geo.off_slate_mask
        )
        # Every margin is under a millimetre, except the exact jaw rounds: a sphere that is all margin.
        shape = node.get_shape(0)
        assert shape.get_margin() <= 0.001 or (
            surf.kind == "jaw" and isinstance(shape, BulletMultiSphereShape)
        )
    assert {"bed", "cushion", "jaw", "pocket", "rail_top", "frame", "floor", "lamp"} <= kinds
    assert sum(geo.surface(n).material == "pocket_back" for n in geo.nodes) == 6  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "materials",
    [
        {"velvet": (0.5, 0.2)},
        {"bed": (1.5, 0.2)},
        {"bed": (0.5, -1.0)},
        {"bed": (float("nan"), 0.2)},
        {"bed": (0.5,)},
    ],
)
def test_bad_materials_are_input_errors(materials: dict) -> None:
    with pytest.raises(InputError):
        build_table_geometry(BulletWorld(), load_table("pool-9ft"), materials=materials)


def test_person_inside_the_table_is_an_input_error() -> None:
    with pytest.raises(InputError, match="objects"):
        build_table_geometry(BulletWorld(), load_table("pool-9ft"), [SceneObject("person", (0.5, 0.2, 0.0))])


def test_build_is_deterministic() -> None:
    def snapshot() -> list[tuple]:
        geo = build_table_geometry(
            BulletWorld(), load_table("snooker-12ft"), _objects(load_table("snooker-12ft"))
        )
        return [
            (n.get_name(), tuple(n.get_transform().get_pos()), n.get_shape_bounds().get_radius())
            for n in geo.nodes
        ]

    assert snapshot() == snapshot()


# --- queries ------------------------------------------------------------------------------------


@tables
def test_rest_place_and_bed_outline(table_id: str) -> None:
    _, geo = built(table_id)
    s = geo.spec
    R = s.ball_radius
    rail_y = s.half_width + s.cushion_width + s.rail_width / 2
    x_out = s.half_length + s.cushion_width + s.rail_width + 0.4
    assert geo.rest_place((0.0, 0.0, R)) == "bed"
    assert geo.rest_place((0.2, rail_y, s.rail_height + R)) == "rail"
    assert geo.rest_place((-0.2, -rail_y, s.rail_height + R)) == "rail"
    assert geo.rest_place((x_out, 0.3, s.floor_z + R)) == "floor"
    chalk = _objects(s)[0]
    assert geo.rest_place((chalk.at[0], chalk.at[1], s.rail_height + 0.022 + R)) == "chalk"
    assert geo.in_bed_outline(0.0, 0.0)
    assert not geo.in_bed_outline(0.2, rail_y)
    assert not geo.in_bed_outline(x_out, 0.3)
    for pid, p in geo.pockets.items():
        mouth = p.world((p.a_mouth + p.a_drop) / 2, 0.0)
        assert geo.in_bed_outline(*mouth), pid
        well = p.world(p.a_drop + p.well_length / 2, 0.0)
        assert geo.in_bed_outline(*well), pid
        assert geo.pocket_of((*well, p.floor_z + R)) == pid
        assert geo.rest_place((*well, p.floor_z + R)) == "pocket"
        assert geo.pocket_of((*well, R)) is None  # above the hole, not yet dropped
        assert geo.pocket_of((*mouth, R)) is None


@tables
def test_safe_box_touches_nothing_but_the_bed(table_id: str) -> None:
    _, geo = built(table_id)
    R = geo.spec.ball_radius
    x0, x1, y0, y1 = geo.safe_box(R)
    assert x1 > geo.spec.half_length - 2 * R
    assert y1 > geo.spec.half_width - 2 * R
    for x in (x0, 0.0, x1):
        for y in (y0, 0.0, y1):
            kinds = {c[0].kind for c in touching(geo, (x, y, R - 0.0001), R)}
            assert kinds == {"bed"}, (x, y, kinds)


# --- stepping: balls against the geometry -------------------------------------------------------


@tables
def test_ball_at_rest_on_the_cloth_neither_sinks_nor_jitters(table_id: str) -> None:
    world, geo = built(table_id)
    R = geo.spec.ball_radius
    ball = add_ball(world, geo, (0.31, -0.17, R))
    try:
        zs, speeds = [], []
        for _ in range(2000):
            world.do_physics(0.001, 1, 0.001)
            zs.append(pos_of(ball)[2])
            speeds.append(ball.get_linear_velocity().length())
        x, y, _ = pos_of(ball)
        assert max(abs(z - R) for z in zs) < 1e-4  # within 0.1 mm of resting on the cloth
        assert max(speeds) < 1e-3
        assert math.hypot(x - 0.31, y + 0.17) < 1e-4  # no creep beyond 0.1 mm
    finally:
        world.remove(ball)


@tables
def test_slow_ball_rolled_along_a_pocket_axis_drops_into_its_well(table_id: str) -> None:
    world, geo = built(table_id)
    R = geo.spec.ball_radius
    v = 0.6
    for pid, p in geo.pockets.items():
        x, y = p.world(p.a_mouth - 3 * R, 0.0)
        ax, ay = p.axis
        # Rolling without slip: omega = z x v / R.
        ball = add_ball(world, geo, (x, y, R), (v * ax, v * ay, 0.0), (-v * ay / R, v * ax / R, 0.0))
        try:
            step(world, 1.2)
            pos = pos_of(ball)
            assert geo.pocket_of(pos) == pid, (pid, pos)
            assert geo.rest_place(pos) == "pocket"
            assert pos[2] == pytest.approx(p.floor_z + R, abs=0.002)
        finally:
            world.remove(ball)


@tables
def test_ball_on_the_slate_edge_hangs_and_one_past_it_drops(table_id: str) -> None:
    world, geo = built(table_id)
    R = geo.spec.ball_radius
    for pid, p in geo.pockets.items():
        hanging = add_ball(world, geo, (*p.world(p.a_drop - 0.002, 0.0), R))
        try:
            step(world, 0.5)
            pos = pos_of(hanging)
            assert pos[2] == pytest.approx(R, abs=2e-4), (pid, pos)
            assert geo.pocket_of(pos) is None, (pid, pos)
            assert geo.rest_place(pos) == "bed"
        finally:
            world.remove(hanging)
        over = add_ball(world, geo, (*p.world(p.a_drop + 0.002, 0.0), R))
        try:
            step(world, 1.0)
            assert geo.pocket_of(pos_of(over)) == pid, pid
        finally:
            world.remove(over)


@tables
def test_ball_dropped_on_a_rail_top_stays_there(table_id: str) -> None:
    world, geo = built(table_id)
    s = geo.spec
    R = s.ball_radius
    y = s.half_width + s.cushion_width + s.rail_width / 2
    ball = add_ball(world, geo, (0.6, y, s.rail_height + R + 0.05))
    try:
        step(world, 1.5)
        pos = pos_of(ball)
        assert pos[2] == pytest.approx(s.rail_height + R, abs=2e-4)
        assert geo.rest_place(pos) == "rail"
        assert not geo.in_bed_outline(pos[0], pos[1])
    finally:
        world.remove(ball)


@tables
def test_fast_rolling_ball_crosses_the_bed_without_a_hop(table_id: str) -> None:
    """The cloth is one flat piece wherever balls roll: no internal edge for Bullet to trip over.

    A 5 m/s rolling ball (a power shot, docs/physics.md §Cues) along and across the bed, and on a
    diagonal that passes close to the corner pockets, stays on the cloth within 0.1 mm.
    """
    world, geo = built(table_id)
    s = geo.spec
    R, v = s.ball_radius, 5.0
    x0, x1, y0, y1 = geo.safe_box(R)
    paths = [
        ((x0, 0.3 * y1), (x1, 0.3 * y1)),
        ((0.4 * x1, y0), (0.4 * x1, y1)),
        ((0.8 * x0, 0.8 * y0), (x1, y1)),
    ]
    for (ax, ay), (bx, by) in paths:
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        ball = add_ball(world, geo, (ax, ay, R), (v * ux, v * uy, 0.0), (-v * uy / R, v * ux / R, 0.0))
        try:
            worst = 0.0
            for _ in range(int(length / v * 1000)):
                world.do_physics(0.001, 1, 0.001)
                worst = max(worst, abs(pos_of(ball)[2] - R))
            assert worst < 1e-4, ((ax, ay), (bx, by), worst)
            assert abs(ball.get_linear_velocity().z) < 0.01
        finally:
            world.remove(ball)


@tables
def test_ball_landing_on_the_cushion_top_rolls_back_onto_the_bed(table_id: str) -> None:
    """The rubber's top leans down to the nose (6-8 degrees, docs/physics.md §Tables): a ball set down on it
    just behind the nose rolls off onto the cloth instead of staying on the rail."""
    world, geo = built(table_id)
    s = geo.spec
    R = s.ball_radius
    y = s.half_width + 0.3 * s.cushion_width * 0.5  # over the rubber's sloping top, near the nose
    z = geo.support_z(0.4, y) + R + 0.002
    ball = add_ball(world, geo, (0.4, y, z))
    try:
        step(world, 1.5)
        pos = pos_of(ball)
        assert pos[2] == pytest.approx(R, abs=2e-4), pos
        assert geo.in_bed_outline(pos[0], pos[1]), pos
        assert geo.rest_place(pos) == "bed"
    finally:
        world.remove(ball)


@tables
def test_no_hole_in_the_table_outside_the_wells(table_id: str) -> None:
    """Swept down anywhere over the cushions, jaws, mouths and rails, a sphere smaller than any
    ball stops on the table (the slate or higher) unless it is over a pocket well: the convex
    pieces leave no gap a ball could fall through."""
    world, geo = built(table_id)
    s = geo.spec
    r = 0.008
    shape = BulletSphereShape(r)
    xo = s.half_length + s.cushion_width + s.rail_width
    yo = s.half_width + s.cushion_width + s.rail_width
    step_m = 0.02
    nx, ny = int(2 * xo / step_m), int(2 * yo / step_m)
    for i in range(nx + 1):
        for j in range(ny + 1):
            x, y = -xo + 0.003 + i * (2 * xo - 0.006) / nx, -yo + 0.003 + j * (2 * yo - 0.006) / ny
            if abs(x) < s.half_length - 0.1 and abs(y) < s.half_width - 0.1:
                continue  # the open bed, tested above
            if any(p.in_well(x, y, tol=r + 0.001) for p in geo.pockets.values()):
                continue
            res = world.sweep_test_closest(
                shape,
                TransformState.make_pos(Point3(x, y, 0.3)),
                TransformState.make_pos(Point3(x, y, -0.5)),
                geo.collide_mask,
                0.0,
            )
            assert res.has_hit(), (x, y)
            z = 0.3 - 0.8 * res.get_hit_fraction()
            assert z > r - 0.002, (x, y, z)


@tables
def test_hard_rolling_ball_is_pressed_into_the_slate_by_the_cushion(table_id: str) -> None:
    """The nose above the centre turns part of a hard cushion impact downwards (docs/physics.md §Cushions
    'Over the cushion'): even in plain Bullet a rolling ball driven straight into a cushion at
    2 and 4 m/s comes back without leaving the cloth by more than 0.5 mm."""
    world, geo = built(table_id)
    s = geo.spec
    R = s.ball_radius
    for v in (2.0, 4.0):
        ball = add_ball(world, geo, (0.3, s.half_width - 0.3, R), (0.0, v, 0.0), (-v / R, 0.0, 0.0))
        try:
            rise = 0.0
            for _ in range(int(0.6 / v * 1000) + 150):
                world.do_physics(0.001, 1, 0.001)
                rise = max(rise, pos_of(ball)[2] - R)
            assert rise < 5e-4, (v, rise)
            assert ball.get_linear_velocity().y < 0.0  # it came back off the cushion
        finally:
            world.remove(ball)


@tables
def test_rubber_top_is_built_at_the_spec_tilt(table_id: str) -> None:
    """The rubber's top slopes down to the bed at the spec's cushion_top_tilt (6-8 degrees [MKP],
    docs/physics.md §Tables), read off the built cushions with small probes 10 and 40 mm behind the nose;
    the rail top behind it is at the derived rail height."""
    _, geo = built(table_id)
    s = geo.spec
    assert math.degrees(geo.cushion_contact.top_tilt) == pytest.approx(s.cushion_top_tilt, abs=1e-9)
    for cid, cu in s.cushions.items():
        mx, my = (cu.start[0] + cu.end[0]) / 2, (cu.start[1] + cu.end[1]) / 2
        back = (-cu.normal[0], -cu.normal[1])
        points = []
        for n in (0.010, 0.040):
            x, y = mx + n * back[0], my + n * back[1]
            # A small probe lowered from above the rail height (so above the whole top) in 1 mm
            # steps until Bullet reports the nearest point of the top below it, and the normal there.
            hits: list = []
            z = s.rail_height + 0.0025
            while not hits and z > s.cushion_nose_height:
                hits = [c for c in geo.contacts((x, y, z), 0.002) if c[0].kind == "cushion"]
                z -= 0.001
            assert len(hits) == 1, (cid, n, hits)
            assert 0.0 < hits[0][3] < 0.005, (cid, n, hits)
            _, point, normal, _d = hits[0]
            assert math.degrees(math.acos(normal[2])) == pytest.approx(s.cushion_top_tilt, abs=0.5), (cid, n)
            points.append(point)
        rise = points[1][2] - points[0][2]
        run = math.hypot(points[1][0] - points[0][0], points[1][1] - points[0][1])
        assert math.degrees(math.atan2(rise, run)) == pytest.approx(s.cushion_top_tilt, abs=0.5), cid
        x, y = mx + (s.cushion_width + 0.01) * back[0], my + (s.cushion_width + 0.01) * back[1]
        assert top_at(geo, x, y, s.rail_height) == (pytest.approx(s.rail_height, abs=0.0005), "rail_top")


def test_rail_height_is_derived_from_the_top_tilt(tmp_path, monkeypatch) -> None:
    """The rail height is not a table-file number: it follows from the nose height, the cushion
    width and the top's tilt (a file that still gives one is refused with one clear line)."""
    import physics.tables as tables

    for table_id in TABLE_IDS:
        s = load_table(table_id)
        theta = math.asin((s.cushion_nose_height - s.ball_radius) / s.ball_radius)
        edge = s.cushion_nose_height + tables.NOSE_EDGE_RISE
        run = s.cushion_width + tables.NOSE_EDGE_RISE * math.tan(theta)
        assert math.degrees(math.atan2(s.rail_height - edge, run)) == pytest.approx(
            s.cushion_top_tilt, abs=1e-9
        )
        assert s.cushion_nose_height < s.rail_height < 2 * s.ball_radius
    # Snooker: floor to rail top 851-876 mm [WPBSA] (docs/physics.md §Tables).
    s = load_table("snooker-12ft")
    assert 0.851 <= s.bed_height + s.rail_height <= 0.876
    text = (tables.TABLES_DIR / "pool-9ft.toml").read_text(encoding="utf-8")
    (tmp_path / "pool-9ft.toml").write_text(
        text.replace("rail_width =", "rail_height = 0.04\nrail_width ="), encoding="utf-8"
    )
    monkeypatch.setattr(tables, "TABLES_DIR", tmp_path)
    with pytest.raises(InputError, match="rail_height"):
        tables.load_table.__wrapped__("pool-9ft")


@tables
def test_a_sweep_with_the_off_slate_mask_ignores_the_slate_only(table_id: str) -> None:
    from physics.engine.bullet import _new_world

    world = _new_world()
    s = load_table(table_id)
    geo = build_table_geometry(world, s)
    shape = BulletSphereShape(0.04)

    def sweep(a: tuple[float, float, float], b: tuple[float, float, float], mask: object) -> float | None:
        res = world.sweep_test_closest(
            shape, TransformState.make_pos(Point3(*a)), TransformState.make_pos(Point3(*b)), mask, 0.0
        )
        return float(res.get_hit_fraction()) if res.has_hit() else None

    down = ((0.3, 0.1, 0.3), (0.3, 0.1, -0.3))
    assert sweep(*down, geo.collide_mask) == pytest.approx(0.26 / 0.6, abs=1e-3)
    assert sweep(*down, geo.off_slate_mask) is None
    across = ((0.0, 0.1, 0.05), (s.half_length + 0.5, 0.1, 0.05))
    f = sweep(*across, geo.collide_mask)
    assert f is not None
    assert 0.5 < f < 1.0
    assert sweep(*across, geo.off_slate_mask) == f
    # The off-slate group pairs no static body with another (no broadphase pairs, no manifolds).
    world.do_physics(0.01, 10, 0.001)
    assert world.get_num_manifolds() == 0
