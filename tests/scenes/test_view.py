"""Offscreen tests of the table view, ball textures, camera rig and replay player (software renderer)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from panda3d.core import NodePath, Quat, Vec3

from physics.record import BallFinal, BallStatus, Event, EventType, ShotRecord
from physics.tables import TABLE_IDS, load_table
from scenes.camera import CameraMode, CameraRig, smooth_damp
from scenes.pockets import _signed_area
from scenes.render import OffscreenShot
from scenes.replay import SPEEDS, ReplayPlayer
from scenes.table_view import TableView, default_ball_style
from scenes.textures import CUE_WHITE, POOL_COLOURS, SNOOKER_COLOURS, BallStyle, ball_image, ball_look

POOL_BALLS = ["cue", *(str(n) for n in range(1, 16))]
SNOOKER_BALLS = [
    "cue",
    *(f"red{n}" for n in range(1, 16)),
    "yellow",
    "green",
    "brown",
    "blue",
    "pink",
    "black",
]


def _balls(style: str) -> list[str]:
    return SNOOKER_BALLS if style == "snooker" else POOL_BALLS


@pytest.mark.parametrize("table_id", TABLE_IDS)
@pytest.mark.parametrize("style", [s.value for s in BallStyle])
def test_view_builds_every_table_with_every_ball_set(offscreen_base: Any, table_id: str, style: str) -> None:
    spec = load_table(table_id)
    parent = NodePath("scene")
    view = TableView(parent, spec, _balls(style), style, software=True)
    try:
        assert set(view.balls) == set(_balls(style))
        # The table at regulation size: the cloth reaches the cushion noses on every side (and the throats
        # a little beyond, never further than the rail's inner edge).
        xs = [p[0] for p in view.cloth_outline()]
        ys = [p[1] for p in view.cloth_outline()]
        reach = spec.cushion_width + spec.rail_width
        assert -spec.half_length - reach < min(xs) <= -spec.half_length + 1e-9
        assert spec.half_length - 1e-9 <= max(xs) < spec.half_length + reach
        assert -spec.half_width - reach < min(ys) <= -spec.half_width + 1e-9
        assert spec.half_width - 1e-9 <= max(ys) < spec.half_width + reach
        # The lowest thing drawn is the floor, at the real bed height below the cloth.
        lo, hi = view.static.getTightBounds()
        assert lo.z == pytest.approx(-spec.bed_height, abs=1e-6)
    finally:
        view.destroy()
    assert parent.getNumChildren() == 0


@pytest.mark.parametrize("table_id", TABLE_IDS)
def test_pockets_are_drawn_where_the_physics_drops_the_ball(offscreen_base: Any, table_id: str) -> None:
    from panda3d.bullet import BulletWorld

    from physics.geometry import build_table_geometry

    spec = load_table(table_id)
    geo = build_table_geometry(BulletWorld(), spec)
    view = TableView(NodePath("scene"), spec, [], default_ball_style(table_id), software=True)
    try:
        R = spec.ball_radius
        outline = view.cloth_outline()
        for pid, p in view.pockets.items():
            phys = geo.pockets[pid]
            assert p.well, pid
            # The cloth ends on the physics' drop line: both facing ends are outline points, and the well's near
            # side runs through them (its points have the drop line's axial coordinate a_drop).
            for jaw in phys.jaws:
                assert any(math.dist(q, jaw.facing_end) < 1e-9 for q in outline), (pid, jaw.cushion)
            near = [q for q in p.well if abs(phys.local(*q)[0] - phys.a_drop) < 1e-9]
            assert len(near) == 2
            # A ball fits between the facings and into the well; the rail's round cut is the circle through the
            # well's corners, so a ball anywhere in the well is inside it.
            assert phys.throat > 2 * R
            assert p.hole_radius > R
            assert all(math.dist(q, p.bite_centre) == pytest.approx(p.bite_radius, abs=1e-9) for q in p.well)
            assert p.half_mouth == pytest.approx(spec.pockets[pid].mouth / 2, abs=1e-6)
        # Cloth = the bed inside the noses (less the four corner triangles behind the corner mouths, mouth^2/4
        # each), give or take the throats: nothing in front of a mouth is cut away, nothing beyond a well drawn.
        area = _signed_area(outline)
        bed = spec.length * spec.width - spec.corner_mouth**2
        throats = sum(4 * p.half_mouth * (spec.corner_corridor + 2 * R) for p in view.pockets.values())
        assert bed - throats < area < bed + throats
        for q in outline:
            assert abs(q[0]) <= spec.half_length + spec.cushion_width
            assert abs(q[1]) <= spec.half_width + spec.cushion_width
    finally:
        view.destroy()


def test_ball_state_moves_turns_and_hides_the_ball(offscreen_base: Any) -> None:
    spec = load_table("pool-9ft")
    view = TableView(NodePath("scene"), spec, ["cue", "8"], "pool", software=True)
    try:
        q = (math.cos(0.3), 0.0, math.sin(0.3), 0.0)
        view.set_ball_state("8", (0.5, -0.2, spec.ball_radius), q)
        node = view.balls["8"]
        assert tuple(node.getPos()) == pytest.approx((0.5, -0.2, spec.ball_radius), abs=1e-6)
        assert node.getQuat().almostSameDirection(Quat(*q), 1e-5)
        assert not node.isHidden()
        view.set_ball_state("8", (0.5, -0.2, spec.ball_radius), None, visible=False)
        assert node.isHidden()
        key = view.highlight("cue", (1, 0, 0, 1))
        view.set_ball_state("cue", (-0.3, 0.1, spec.ball_radius))
        ring = view._highlights[key][0]
        assert (ring.getX(), ring.getY()) == pytest.approx((-0.3, 0.1), abs=1e-6)
        view.clear_highlight(key)
        assert key not in view._highlights
    finally:
        view.destroy()


def _colour_at(img: np.ndarray, lon: float, lat: float) -> np.ndarray:
    h, w, _ = img.shape
    return img[int((lat + math.pi / 2) / math.pi * h - 0.5), int(lon / (2 * math.pi) * w) % w]


def test_ball_sets_have_their_colours_stripes_and_numbers() -> None:
    solid = ball_image(ball_look("3", "pool"))
    assert np.allclose(_colour_at(solid, 1.5, 0.0), POOL_COLOURS[3], atol=0.01)
    stripe = ball_image(ball_look("11", "pool"))
    assert np.allclose(_colour_at(stripe, 1.5, 0.0), POOL_COLOURS[3], atol=0.01)  # 11 = red stripe
    assert np.allclose(_colour_at(stripe, 1.5, 1.3), CUE_WHITE, atol=0.01)  # white caps
    # The number is drawn (dark ink) on the label discs at longitudes 0 and pi.
    for lon in (0.0, math.pi):
        w = stripe.shape[1]
        col = int(lon / (2 * math.pi) * w)
        patch = (
            stripe[118:138, max(col - 12, 0) : col + 12]
            if lon
            else np.concatenate([stripe[118:138, -12:], stripe[118:138, :12]], axis=1)
        )
        assert patch.min() < 0.2
    red = ball_image(ball_look("red7", "snooker"))
    assert np.allclose(red.reshape(-1, 3).mean(axis=0), SNOOKER_COLOURS["red"], atol=0.01)
    # Pyramid: ivory numbered balls, the cue ball whiter and marked with red dots.
    ivory = ball_look("5", "pyramid")
    cue = ball_look("cue", "pyramid")
    assert ivory.label == "5"
    assert cue.dots
    assert sum(cue.base) > sum(ivory.base)


def _record(
    rows: dict[str, list[list[float]]], events: tuple[Event, ...] = (), final: dict | None = None
) -> ShotRecord:
    return ShotRecord(
        table="pool-9ft",
        params={"R": 0.028575},
        events=events,
        final=final or {b: BallFinal(BallStatus.ON_TABLE, tuple(r[-1][1:4])) for b, r in rows.items()},
        samples={b: tuple(tuple(x) for x in r) for b, r in rows.items()},
        initial={b: tuple(r[0][1:4]) for b, r in rows.items()},
        duration=max(r[-1][0] for r in rows.values()),
    )


def _rolling_rows(v: float, R: float, hz: float, seconds: float) -> list[list[float]]:
    """A ball rolling along +x without slipping: wy = v / R (contact point at rest)."""
    n = int(seconds * hz)
    return [[k / hz, -0.5 + v * k / hz, 0.1, R, v, 0.0, 0.0, 0.0, v / R, 0.0] for k in range(n + 1)]


def test_replay_matches_samples_and_interpolates_between_rows() -> None:
    R = 0.028575
    rows = _rolling_rows(1.0, R, 120.0, 1.0)
    # A second ball whose path bends: linear interpolation between rows must stay on the chord.
    bend = [
        [k / 120, 0.3 * math.cos(k / 12), 0.3 * math.sin(k / 12), R, 0, 0, 0, 0, 0, 0] for k in range(121)
    ]
    player = ReplayPlayer(_record({"cue": rows, "1": bend}))
    for row in rows[::17]:
        s = player.state_at("cue", row[0])
        assert s.pos == pytest.approx(tuple(row[1:4]), abs=1e-12)
    for k in range(0, 120, 13):
        t = (bend[k][0] + bend[k + 1][0]) / 2
        s = player.state_at("1", t)
        mid = [(bend[k][i] + bend[k + 1][i]) / 2 for i in (1, 2, 3)]
        assert s.pos == pytest.approx(tuple(mid), abs=1e-12)
        # ... and within the chord's sag of the true arc: r (1 - cos(dθ/2)), dθ = 1/12 rad per row.
        true = (0.3 * math.cos(t * 10), 0.3 * math.sin(t * 10))
        assert math.dist(s.pos[:2], true) <= 0.3 * (1 - math.cos(1 / 24)) + 1e-9


def test_rolling_ball_turns_by_distance_over_radius() -> None:
    """Rolling without slipping: the ball turns d / R radians about +y while it travels d along +x."""
    R = 0.028575
    player = ReplayPlayer(_record({"cue": _rolling_rows(1.0, R, 120.0, 1.0)}))
    q0 = Quat(*player.state_at("cue", 0.0).quat)
    for t in (0.01, 0.03, 0.0555):  # turns below pi, where a quaternion angle is unambiguous
        q = Quat(*player.state_at("cue", t).quat)
        rel = q0.conjugate() * q  # Panda3D's a * b applies a, then b: the world-frame turn since t = 0
        angle = 2 * math.acos(min(1.0, abs(rel.getR())))
        assert angle == pytest.approx((1.0 * t) / R, rel=1e-6)
        axis = rel.getAxisNormalized()
        assert axis.y == pytest.approx(1.0, abs=1e-5)
    # The point on top of the ball moves forward (+x) as it rolls along +x.
    rel = q0.conjugate() * Quat(*player.state_at("cue", 0.02).quat)
    top = rel.xform(Vec3(0, 0, 1))
    assert top.x == pytest.approx(math.sin(0.02 / R), abs=1e-6)


def test_pocketed_ball_vanishes_at_its_pocketed_time_and_off_table_ball_stays() -> None:
    R = 0.028575
    into = [[k / 120, 1.1 + 0.002 * k, 0.5 + 0.002 * k, R, 0.24, 0.24, 0, 0, 0, 0] for k in range(30)]
    off = [[k / 120, 1.0 + 0.01 * k, -0.2, R + 0.01 * k, 1.2, 0, 1.2, 0, 0, 0] for k in range(60)]
    still = [[0.0, 0.0, 0.0, R, 0, 0, 0, 0, 0, 0]]
    t_pocket = 0.2
    events = (
        Event(0.0, EventType.CUE_STRIKE, ball="cue"),
        Event(t_pocket, EventType.POCKETED, ball="3", pocket="foot-left"),
        Event(0.4, EventType.LEFT_TABLE, ball="cue"),
    )
    final = {
        "3": BallFinal(BallStatus.POCKETED, pocket="foot-left"),
        "cue": BallFinal(BallStatus.OFF_TABLE, tuple(off[-1][1:4]), rest="floor"),
        "5": BallFinal(BallStatus.ON_TABLE, (0.0, 0.0, R)),
    }
    rec = _record({"3": into, "cue": off, "5": still}, events, final)
    rec = ShotRecord(rec.table, rec.params, rec.events, rec.final, rec.samples, rec.initial, duration=2.0)
    player = ReplayPlayer(rec)
    assert player.state_at("3", t_pocket - 1e-6).visible
    assert not player.state_at("3", t_pocket).visible
    assert not player.state_at("3", 1.5).visible
    late = player.state_at("cue", 1.9)
    assert late.visible
    assert late.pos == pytest.approx(tuple(off[-1][1:4]))
    assert player.duration == pytest.approx(2.0)
    assert [e.type for e in player.events_until(0.2)] == [EventType.CUE_STRIKE, EventType.POCKETED]


def test_replay_transport_speeds_pause_and_steps(offscreen_base: Any) -> None:
    R = 0.028575
    view = TableView(NodePath("scene"), load_table("pool-9ft"), ["cue"], "pool", software=True)
    try:
        player = ReplayPlayer(_record({"cue": _rolling_rows(1.0, R, 120.0, 1.0)}), view)
        assert SPEEDS == (1.0, 0.25, 0.125, 0.0625)
        player.set_speed(0.25)
        player.update(0.2)
        assert player.t == pytest.approx(0.05)
        assert view.balls["cue"].getX() == pytest.approx(-0.5 + 0.05, abs=1e-6)
        player.pause()
        player.update(0.5)
        assert player.t == pytest.approx(0.05)
        player.step()
        assert player.t == pytest.approx(0.05 + 1 / 120)
        player.step(-2)
        assert player.t == pytest.approx(0.05 - 1 / 120)
        player.seek(99.0)
        assert player.finished
        assert player.t == pytest.approx(player.duration)
        player.play()
        assert player.t == 0.0
        assert not player.paused
        player.slower()
        player.slower()
        assert player.speed == 0.0625
        player.faster()
        assert player.speed == 0.125
        player.set_speed(0.5)
        player.slower()
        assert player.speed == 0.25
        for bad in (0.0, -1.0, float("nan")):
            with pytest.raises(ValueError):
                player.set_speed(bad)
    finally:
        view.destroy()


def test_critically_damped_glide_never_overshoots() -> None:
    x, v = 0.0, 0.0
    last_gap = 1.0
    for _ in range(200):
        x, v = smooth_damp(x, 1.0, v, 0.35, 1 / 60)
        assert x <= 1.0 + 1e-12
        assert 1.0 - x <= last_gap + 1e-12
        last_gap = 1.0 - x
    assert x == pytest.approx(1.0, abs=1e-3)
    # A stalled frame (dt = 1 s) still lands without overshoot.
    x, v = smooth_damp(0.0, 1.0, 0.0, 0.35, 1.0)
    assert 0.0 < x <= 1.0


@pytest.mark.parametrize("table_id", TABLE_IDS)
def test_top_camera_sees_the_whole_table(offscreen_base: Any, table_id: str) -> None:
    spec = load_table(table_id)
    scene = NodePath("scene")
    shot = OffscreenShot(offscreen_base, scene, (160, 90))
    try:
        rig = CameraRig(shot.camera, spec, smooth_time=0.0)
        rig.set_mode(CameraMode.TOP, snap=True)
        X = spec.half_length + spec.cushion_width + spec.rail_width
        Y = spec.half_width + spec.cushion_width + spec.rail_width
        for sx in (-1, 1):
            for sy in (-1, 1):
                px = shot.project((sx * X, sy * Y, spec.rail_height))
                assert px is not None
                assert 0 <= px[0] <= 160
                assert 0 <= px[1] <= 90
                # Head (x < 0) on the left, +y (left of the player at the head) at the top.
                assert (px[0] < 80) == (sx < 0)
                assert (px[1] < 45) == (sy > 0)
    finally:
        shot.close()


def test_player_view_looks_along_the_aim_and_glides(offscreen_base: Any) -> None:
    spec = load_table("pyramid-12ft")
    scene = NodePath("scene")
    shot = OffscreenShot(offscreen_base, scene, (160, 90))
    try:
        rig = CameraRig(shot.camera, spec, smooth_time=0.3)
        ball = (-0.9, 0.2, spec.ball_radius)
        rig.set_mode(CameraMode.PLAYER, target=ball, aim=30.0, snap=True)
        eye = rig.eye
        aim = (math.cos(math.radians(30)), math.sin(math.radians(30)))
        assert (ball[0] - eye.x) * aim[0] + (ball[1] - eye.y) * aim[1] > 0.5  # behind the ball
        px = shot.project(ball)
        # ball in the middle
        assert px is not None
        assert abs(px[0] - 80) < 2
        view = TableView(scene, spec, [], "pyramid", software=True)
        rig.set_mode(CameraMode.TOP)
        assert view.lamp_np.isHidden()  # from straight above the shade would hide the table's middle
        goal, _ = rig.goal
        gaps = []
        for _ in range(120):
            rig.update(1 / 60)
            gaps.append((rig.eye - goal).length())
        assert all(b <= a + 1e-9 for a, b in zip(gaps, gaps[1:], strict=False))
        assert gaps[-1] < 0.01 * gaps[0]
        rig.set_mode(CameraMode.ORBIT)
        assert view.lamp_np.isHidden()  # the eye is still up above the shade
        rig.snap()
        assert not view.lamp_np.isHidden()  # down in the orbit view the lamp hangs in sight again
        view.destroy()
    finally:
        shot.close()


def test_objects_and_lamp_are_drawn_where_the_physics_has_them(offscreen_base: Any) -> None:
    from physics.objects import SceneObject

    spec = load_table("pyramid-12ft")
    rail_y = spec.half_width + spec.cushion_width + 0.5 * spec.rail_width
    objects = (
        SceneObject("chalk", (1.0, rail_y, 0.0)),
        SceneObject("person", (0.4, -1.5, 0.0)),
        SceneObject("cue-on-rail", (-0.5, rail_y, 0.0)),
    )
    lamp = (0.1, -0.05, 1.0)
    view = TableView(NodePath("scene"), spec, [], "pyramid", lamp=lamp, objects=objects, software=True)
    try:
        assert view.geometry is not None
        for node, (kind, lo, hi) in zip(
            view.objects_np.getChildren(), view.geometry.object_boxes, strict=True
        ):
            b_lo, b_hi = node.getTightBounds()
            assert kind in node.getName()
            # Standing on the surface the simulation has it on, within the box it collides with, and as tall
            # (the chalk's worn cup sits 0.4 mm above its top; a tapered cue's butt stands higher than the mean
            # radius the physics uses, so only its footprint and length are compared).
            assert b_lo.z == pytest.approx(lo[2], abs=1e-3)
            if kind == "cue":
                assert max(b_hi.x - b_lo.x, b_hi.y - b_lo.y) == pytest.approx(
                    max(hi[0] - lo[0], hi[1] - lo[1]), abs=1e-3
                )
                assert (b_lo.x + b_hi.x) / 2 == pytest.approx((lo[0] + hi[0]) / 2, abs=1e-3)
                continue
            assert b_hi.z == pytest.approx(hi[2], abs=1e-3)
            assert b_lo.x >= lo[0] - 1e-3
            assert b_hi.x <= hi[0] + 1e-3
            assert b_lo.y >= lo[1] - 1e-3
            assert b_hi.y <= hi[1] + 1e-3
        # The chalk stands on the rail top, the person on the floor.
        assert view.geometry.object_boxes[0][1][2] == pytest.approx(spec.rail_height, abs=1e-6)
        assert view.geometry.object_boxes[1][1][2] == pytest.approx(-spec.bed_height, abs=1e-6)
        # The lamp shade: its underside at the lamp height above the cloth, centred on the lamp position.
        (x0, y0, z0), (x1, y1, _) = view.geometry.lamp_box
        l_lo, l_hi = view.lamp_np.getTightBounds()
        assert l_lo.z == pytest.approx(z0, abs=0.005)
        assert ((l_lo.x + l_hi.x) / 2, (l_lo.y + l_hi.y) / 2) == pytest.approx(lamp[:2], abs=1e-6)
        assert l_hi.x - l_lo.x == pytest.approx(x1 - x0, abs=0.01)
    finally:
        view.destroy()


def test_side_follow_and_free_modes(offscreen_base: Any) -> None:
    spec = load_table("snooker-12ft")
    scene = NodePath("scene")
    shot = OffscreenShot(offscreen_base, scene, (160, 90))
    try:
        rig = CameraRig(shot.camera, spec, smooth_time=0.0)
        ball = (0.4, 0.2, 0.15)  # a ball in the air, 15 cm above the cloth
        rig.set_mode(CameraMode.SIDE, target=ball, snap=True)
        # Across the table and close (0.8 m, close enough to judge a jump), level with the ball: it is in the
        # middle of the picture across, a little above the middle (the view looks slightly down, at more cloth).
        assert abs(rig.eye.y - ball[1]) == pytest.approx(0.8, abs=1e-6)
        assert rig.eye.x == pytest.approx(ball[0])
        assert rig.eye.z == pytest.approx(ball[2] + 0.02)
        px = shot.project(ball)
        assert px is not None
        assert abs(px[0] - 80) < 1
        assert 0.25 * 90 < px[1] < 0.5 * 90
        rig.set_mode(CameraMode.FOLLOW, target=(0.0, 0.0, spec.ball_radius), aim=90.0, snap=True)
        rig.set_target((0.5, -0.3, spec.ball_radius))
        rig.update(1 / 60)
        assert (rig.look.x, rig.look.y) == pytest.approx((0.5, -0.3), abs=1e-6)
        assert rig.eye.y < -0.3  # trailing behind a ball that runs along +y
        rig.set_mode(CameraMode.FREE)
        eye0 = Vec3(rig.eye)
        rig.move(0.5, 0.0, 0.0)
        rig.update(1 / 60)
        moved = rig.eye - eye0
        assert moved.length() == pytest.approx(0.5, abs=1e-6)
        assert abs(moved.z) < 1e-9
        look0 = rig.look - rig.eye
        rig.turn(90.0, 0.0)
        rig.update(1 / 60)
        look1 = rig.look - rig.eye
        assert look0.length() == pytest.approx(look1.length(), abs=1e-6)
        assert math.degrees(
            math.atan2(look1.y, look1.x) - math.atan2(look0.y, look0.x)
        ) % 360 == pytest.approx(90.0, abs=1e-3)
    finally:
        shot.close()


def test_update_reports_each_event_once_for_sounds() -> None:
    R = 0.028575
    events = (
        Event(0.0, EventType.CUE_STRIKE, ball="cue"),
        Event(0.1, EventType.CUSHION, ball="cue", cushion="foot"),
        Event(0.3, EventType.REST, ball="cue"),
    )
    player = ReplayPlayer(_record({"cue": _rolling_rows(1.0, R, 120.0, 0.5)}, events))
    seen: list[EventType] = []
    for _ in range(40):
        seen += [e.type for e in player.update(1 / 60)]
    assert seen == [EventType.CUE_STRIKE, EventType.CUSHION, EventType.REST]
    assert player.events_until(0.05) == [events[0]]
