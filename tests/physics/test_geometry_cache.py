"""Caching of the static table (physics/plan ``scene_plan``, physics/geometry.py ``build_table_geometry``).

The engine builds a fresh Bullet world for every stroke. What depends only on the table is cut
into pieces once and the Bullet shapes are shared by every world; each world still gets its own
bodies. These tests hold the cached build to a build from scratch, number for number.
"""

from __future__ import annotations

import dataclasses

import pytest
from panda3d.bullet import BulletWorld

from physics.errors import InputError
from physics.geometry import (
    DEFAULT_MATERIALS,
    POCKET_BACK_BY_TABLE,
    TableGeometry,
    build_table_geometry,
    clear_geometry_cache,
)
from physics.objects import SceneObject
from physics.params import PhysicsParams
from physics.record import ShotParams
from physics.simulate import simulate
from physics.tables import TABLE_IDS, load_table


def _snapshot(g: TableGeometry) -> list[tuple]:
    """Everything a ball can meet, body by body, and the plan facts the engine and the scenes read."""
    out: list[tuple] = []
    for n in g.nodes:
        ts = n.get_transform()
        shape = n.get_shape(0)
        b = n.get_shape_bounds()
        out.append(
            (
                n.get_name(),
                tuple(ts.get_pos()),
                tuple(ts.get_hpr()),
                type(shape).__name__,
                shape.get_margin(),
                tuple(b.get_center()),
                b.get_radius(),
                n.get_restitution(),
                n.get_friction(),
                n.get_python_tag("surface"),
            )
        )
    out.append(
        (
            tuple(sorted(g.pockets.items())),
            g.cushion_contact,
            g.lamp_box,
            tuple(g.object_boxes),
            repr(g.plan.tops),
            repr(g.plan.passages),
            repr(g.plan.openings),
        )
    )
    return out


def _objects(table_id: str) -> tuple[SceneObject, ...]:
    s = load_table(table_id)
    rail_y = s.half_width + s.cushion_width + s.rail_width / 2
    return (SceneObject("chalk", (1.0, rail_y, 0.0)), SceneObject("cue-on-rail", (-0.4, -rail_y, 0.0)))


@pytest.mark.parametrize("table_id", TABLE_IDS)
def test_cached_build_equals_a_build_from_scratch(table_id: str) -> None:
    spec = load_table(table_id)
    clear_geometry_cache()
    cold = build_table_geometry(BulletWorld(), spec, _objects(table_id), (0.1, 0.2, 1.1))
    warm = build_table_geometry(BulletWorld(), spec, _objects(table_id), (0.1, 0.2, 1.1))
    assert _snapshot(warm) == _snapshot(cold)
    # Same spec content in another object: the same blueprint, again equal.
    twin = dataclasses.replace(spec)
    assert twin is not spec
    assert _snapshot(
        build_table_geometry(BulletWorld(), twin, _objects(table_id), (0.1, 0.2, 1.1))
    ) == _snapshot(cold)


def test_worlds_share_shapes_but_never_bodies() -> None:
    spec = load_table("pyramid-12ft")
    w1, w2 = BulletWorld(), BulletWorld()
    g1 = build_table_geometry(w1, spec)
    g2 = build_table_geometry(w2, spec, materials={"cushion": (0.8, 0.14)})
    assert len(g1.nodes) == len(g2.nodes) == w1.get_num_rigid_bodies() == w2.get_num_rigid_bodies()
    assert all(a is not b for a, b in zip(g1.nodes, g2.nodes, strict=True))
    shared = sum(a.get_shape(0) == b.get_shape(0) for a, b in zip(g1.nodes, g2.nodes, strict=True))
    assert shared == len(g1.nodes)
    # Materials belong to the world's bodies, not to the shared blueprint.
    for a, b in zip(g1.nodes, g2.nodes, strict=True):
        kind = a.get_python_tag("surface").kind
        own = (
            POCKET_BACK_BY_TABLE[spec.id]
            if a.get_python_tag("surface").material == "pocket_back"
            else DEFAULT_MATERIALS[kind]
        )
        assert a.get_restitution() == pytest.approx(own[0])
        want = (0.8, 0.14) if kind == "cushion" else own
        assert (b.get_python_tag("surface").restitution, b.get_python_tag("surface").friction) == want
    # Removing one world's table leaves the other's whole.
    g1.remove()
    assert w1.get_num_rigid_bodies() == 0
    assert w2.get_num_rigid_bodies() == len(g2.nodes)


def test_a_different_spec_or_scene_gets_its_own_blueprint() -> None:
    spec = load_table("pool-9ft")
    base = build_table_geometry(BulletWorld(), spec)
    higher = dataclasses.replace(spec, rail_height=spec.rail_height + 0.01)
    g = build_table_geometry(BulletWorld(), higher)
    assert max(t for _p, t, k in g.plan.tops if k == "rail_top") == pytest.approx(
        higher.rail_height, abs=1e-6
    )
    assert max(t for _p, t, k in base.plan.tops if k == "rail_top") == pytest.approx(
        spec.rail_height, abs=1e-6
    )
    lit = build_table_geometry(BulletWorld(), spec, lamp=(0.0, 0.0, 0.8))
    assert lit.lamp_box is not None
    assert lit.lamp_box[0][2] == pytest.approx(0.8)
    assert build_table_geometry(BulletWorld(), spec, lamp=None).lamp_box is None


def test_bad_input_is_refused_every_time_not_only_on_the_first_build() -> None:
    spec = load_table("pyramid-12ft")
    build_table_geometry(BulletWorld(), spec)
    for _ in range(2):
        with pytest.raises(InputError, match="lamp"):
            build_table_geometry(BulletWorld(), spec, lamp=(0.0, 0.0, 0.01))
        with pytest.raises(InputError, match="objects"):
            build_table_geometry(BulletWorld(), spec, [SceneObject("person", (0.5, 0.2, 0.0))])
        with pytest.raises(InputError, match="cushion_nose_height"):
            build_table_geometry(BulletWorld(), dataclasses.replace(spec, cushion_nose_height=0.02))


def test_a_stroke_is_the_same_with_a_cold_and_a_warm_cache() -> None:
    """Sharing shapes between worlds changes nothing Bullet computes: the record is identical to the bit."""
    spec = load_table("pyramid-12ft")
    p = PhysicsParams.for_table(spec)
    # Into the foot-left corner pocket past the jaw, then off the lamp region: jaws, well and cushions.
    balls = {"cue": (1.2, 0.45), "1": (1.5, 0.70)}
    shot = ShotParams(ball="cue", cue_speed=3.0, direction=40.0, elevation=20.0, tip=(0.1, 0.2))
    clear_geometry_cache()
    cold = simulate(spec, balls, shot, p, sample_hz=500.0).to_json()
    warm = simulate(spec, balls, shot, p, sample_hz=500.0).to_json()
    assert warm == cold
