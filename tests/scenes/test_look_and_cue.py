"""The cue's clearance over rails and balls, the camera's framing call, and the room the PBR shading reflects."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from panda3d.core import NodePath

from physics.tables import NOSE_EDGE_RISE, load_table
from scenes.camera import VIEWS, CameraMode, CameraRig
from scenes.cue_mesh import PROFILE, clearing_elevation, cue_mesh, radius_at
from scenes.look import RoomLight, linear_colour, room_radiance, srgb_to_linear
from scenes.render import OffscreenShot
from scenes.table_view import TableView


def test_a_cue_ball_in_the_open_needs_no_raised_butt() -> None:
    # On a 12 ft table the head rail is beyond the cue's length from the centre spot.
    spec = load_table("pyramid-12ft")
    assert clearing_elevation(spec, {"cue": (0.0, 0.0)}, "cue", 0.0) == 0.0
    # On the 9 ft table the butt of a level cue would lie on the head rail: a degree and a half lifts it.
    pool = load_table("pool-9ft")
    assert 0.5 < clearing_elevation(pool, {"cue": (0.0, 0.0)}, "cue", 0.0) < 3.0


@pytest.mark.parametrize("table_id", ["pyramid-12ft", "pool-9ft", "snooker-12ft"])
def test_near_the_cushion_the_butt_rises_over_the_rubber_and_the_rail(table_id: str) -> None:
    spec = load_table(table_id)
    R = spec.ball_radius
    gap = 0.02  # from the ball's back to the nose
    x0 = -spec.half_length + R + gap
    e = clearing_elevation(spec, {"cue": (x0, 0.0)}, "cue", 0.0, margin=0.0, gap=0.0)
    assert 10.0 < e < 60.0
    # At that elevation the stick's underside passes over the cushion's nose edge and the rail top: the axis
    # runs through the ball's centre, D behind it in plan at R + D tan(e).
    edges = (
        (R + gap, spec.cushion_nose_height + NOSE_EDGE_RISE),
        (R + gap + spec.cushion_width, spec.rail_height),
    )
    t = math.tan(math.radians(e))
    for d, top in edges:
        assert R + d * t - radius_at(d - R) >= top - 1e-9, (d, top)
    # A degree lower and it would not.
    t_low = math.tan(math.radians(e - 1.0))
    assert min(R + d * t_low - radius_at(d - R) - top for d, top in edges) < 0


def test_a_ball_behind_the_cue_ball_raises_the_butt_over_it() -> None:
    spec = load_table("pyramid-12ft")
    R = spec.ball_radius
    pos = {"cue": (0.0, 0.0), "8": (-0.12, 0.0)}
    e = clearing_elevation(spec, pos, "cue", 0.0)
    # Over a ball 12 cm behind: the axis from the ball's centre over the ball grown by the stick's radius.
    rho = R + radius_at(0.12 - R) + 0.004
    assert e == pytest.approx(math.degrees(math.asin(rho / 0.12)), abs=1e-9)
    # Beside the line the other ball is no obstacle.
    pos_side = {"cue": (0.0, 0.0), "8": (-0.12, 2.5 * R)}
    assert clearing_elevation(spec, pos_side, "cue", 0.0) == 0.0


def test_the_cue_is_turned_tip_to_butt() -> None:
    node = cue_mesh()
    lo, hi = NodePath(node).getTightBounds()
    assert hi.y == pytest.approx(0.0025, abs=1e-6)  # the tip's dome, towards the ball at +Y
    assert lo.y == pytest.approx(-PROFILE[-1][0] - 0.002, abs=1e-6)
    assert max(hi.x, -lo.x) == pytest.approx(max(r for _, r, _ in PROFILE), abs=1e-4)
    radii = [r for _, r, _ in PROFILE[1:-1]]
    assert radii == sorted(radii)  # the shaft only thickens towards the butt (the bumper apart)


def test_frame_fits_every_point_in_the_picture(offscreen_base: Any) -> None:
    spec = load_table("snooker-12ft")
    scene = NodePath("scene")
    shot = OffscreenShot(offscreen_base, scene, (160, 90))
    try:
        rig = CameraRig(shot.camera, spec, smooth_time=0.0)
        cue, far = (-1.2, 0.3), (1.3, -0.5)
        R = spec.ball_radius
        rig.set_mode(CameraMode.PLAYER, target=(*cue, R), aim=math.degrees(math.atan2(-0.8, 2.5)))
        rig.frame([(*cue, 0.0), (*cue, 2 * R), (*far, R)], margin=0.1)
        rig.snap()
        for p in ((*cue, 0.0), (*cue, 2 * R), (*far, R)):
            px = shot.project(p)
            assert px is not None, p
            assert 0 <= px[0] <= 160, p
            assert 0 <= px[1] <= 90, p
        assert rig.eye.z < spec.rail_height + 0.76  # below the lamp
        # Another view ignores the framing; back in the player's view it holds again; frame(()) lets go.
        rig.set_mode(CameraMode.SIDE, target=(*cue, R), snap=True)
        assert abs(rig.eye.y - cue[1]) == pytest.approx(0.8, abs=1e-6)
        rig.frame(())
        assert rig.frame_points == ()
        assert "broadcast" in VIEWS
        assert "player" in VIEWS
    finally:
        shot.close()


def test_the_lamp_is_hidden_when_the_eye_comes_close_to_it(offscreen_base: Any) -> None:
    """Hidden close to it or under it; the broadcast view, high over the head end, sees it over the far
    cushion (tests/scenes/test_room.py), not over the bed."""
    spec = load_table("pyramid-12ft")
    scene = NodePath("scene")
    shot = OffscreenShot(offscreen_base, scene, (160, 90))
    view = TableView(scene, spec, [], "pyramid", software=True)
    try:
        rig = CameraRig(shot.camera, spec, smooth_time=0.0)
        rig.set_mode(CameraMode.ORBIT, target=(0.0, 0.0, 0.03), pitch=20.0, distance=1.5, snap=True)
        assert not view.lamp_np.isHidden()
        rig.set_mode(CameraMode.BROADCAST, snap=True)  # high over the head end, above the shade's bottom
        assert not view.lamp_np.isHidden()
        rig.set_mode(CameraMode.ORBIT, target=(0.0, 0.0, 0.03), pitch=60.0, distance=0.9, snap=True)
        assert view.lamp_np.isHidden()  # an eye 0.8 m up, right under the shade
    finally:
        view.destroy()
        shot.close()


def test_the_room_is_dim_round_a_bright_lamp_and_lit_cloth() -> None:
    room = RoomLight(
        half_length=1.27,
        half_width=0.635,
        rail_out=0.2,
        floor_z=-0.78,
        room_half=(5.5, 4.0),
        room_height=2.9,
        lamps=(((-0.2, -0.2, 1.0), (0.2, 0.2, 1.15)),),
        cloth=linear_colour((0.04, 0.36, 0.22, 1.0))[:3],
    )
    d = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.3, 0.0, 0.95]])
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    up, wall, down, beside = room_radiance(room, d)
    assert up.max() > 20 * wall.max()  # straight up: the lamp's glowing underside
    # down: the green cloth, brighter than the walls
    assert down[1] > down[0]
    assert down[1] > wall[1]
    assert beside.max() < 0.1  # past the shade: the dark ceiling
    assert (
        room_radiance(room, d[:1], lamps=False).max() < 0.05
    )  # the irradiance leaves the lamp to its lights
    assert srgb_to_linear(1.0) == pytest.approx(1.0)
    assert srgb_to_linear(0.5) == pytest.approx(0.214, abs=1e-3)


def _stick_clearance(spec: Any, positions: dict[str, tuple[float, float]], cue: Any, gap: float) -> float:
    """The least clearance (m) of the stick drawn for ``cue`` (as the play screen places it, ``gap`` back from
    the ball) over the cloth, the cushions' tops, the rail and every other ball; negative where it passes
    through one."""
    from scenes.cue_control import stick_pose

    R = spec.ball_radius
    hl, hw, cw = spec.half_length, spec.half_width, spec.cushion_width
    nose_top = spec.cushion_nose_height + NOSE_EDGE_RISE
    tip, u = stick_pose((*positions["cue"], R), R, cue, gap)
    e = math.radians(cue.elevation)
    worst = math.inf
    for k in range(200):  # every 7 mm along the stick
        s = PROFILE[-1][0] * k / 199
        r = radius_at(s)
        p = (tip[0] - u[0] * s, tip[1] - u[1] * s, tip[2] - u[2] * s)
        depth = max(abs(p[0]) - hl, abs(p[1]) - hw)
        if depth <= 0:
            surface = 0.0
        elif depth <= cw:
            surface = nose_top + (spec.rail_height - nose_top) * depth / cw
        elif depth <= cw + spec.rail_width:
            surface = spec.rail_height
        else:
            surface = spec.floor_z
        worst = min(worst, p[2] - r / math.cos(e) - surface)
        for ball, (x, y) in positions.items():
            if ball != "cue":
                worst = min(worst, math.dist(p, (x, y, R)) - R - r)
    return worst


@pytest.mark.parametrize("table_id", ["pyramid-12ft", "pool-9ft", "snooker-12ft"])
def test_the_stick_as_drawn_never_passes_through_a_cushion_a_rail_or_a_ball(table_id: str) -> None:
    """The cue ball near each cushion, the cue aimed away from it, with draw, side and follow, pulled back as
    far as a power drag takes it, and a ball behind the cue ball: the stick clears everything at the elevation
    the view raises it to."""
    from scenes.cue_control import CueState

    spec = load_table(table_id)
    R = spec.ball_radius
    hl, hw = spec.half_length, spec.half_width
    cases = 0
    for normal, along in (((1.0, 0.0), hw), ((-1.0, 0.0), hw), ((0.0, 1.0), hl), ((0.0, -1.0), hl)):
        # The cushion behind the cue ball is the one whose nose faces ``normal``.
        for g in (0.004, 0.03, 0.12):
            for slide in (0.0, 0.6 * along):
                x = -normal[0] * (hl - R - g) + normal[1] * slide
                y = -normal[1] * (hw - R - g) + normal[0] * slide
                for turn in (-35.0, 0.0, 35.0):
                    direction = math.degrees(math.atan2(normal[1], normal[0])) + turn
                    for behind in (None, 0.09):
                        positions = {"cue": (x, y)}
                        if behind is not None:
                            a = math.radians(direction + 180.0)
                            positions["8"] = (x + behind * math.cos(a), y + behind * math.sin(a))
                            if max(abs(positions["8"][0]) - hl, abs(positions["8"][1]) - hw) > -R:
                                continue
                        for tip in ((0.0, 0.0), (0.0, -0.5), (0.45, -0.35), (0.0, 0.5)):
                            for gap in (0.05, 0.30):
                                e = clearing_elevation(spec, positions, "cue", direction, tip=tip, gap=gap)
                                cue = CueState(direction, 2.0, max(e, 0.0), tip)
                                clearance = _stick_clearance(spec, positions, cue, gap)
                                assert clearance >= -2e-4, (positions, direction, tip, gap, e, clearance)
                                cases += 1
    assert cases > 500
