"""The room round the table: lit, so what leaves the table is seen; the lamp over the table from the views that
look up it; a person that stands where the physics has it.

Measured on the pool case of a cue ball flown onto the floor (assets/cases/pool-cue-ball-to-floor.toml, the ball
at rest by 4.2 s): before the room was built the side view of the resting ball was 100 % near-black at high
quality (luminance under 20 of 255) and the ball a few dark pixels in the top view.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from panda3d.core import Filename, NodePath, PNMImage

from physics.tables import load_table
from rules.scenarios import load_scenario
from scenes.camera import CameraMode, CameraRig
from scenes.core.settings import Settings
from scenes.render import OffscreenShot, draw_scenario, stroke_record
from scenes.room import corner_view_factor, floor_light, rectangle_view_factor
from scenes.table_view import TableView

ROOT = Path(__file__).resolve().parents[2]
FLOOR_CASE = ROOT / "assets" / "cases" / "pool-cue-ball-to-floor.toml"
AT_REST = 5.0  # s: the cue ball lies on the floor (it stops at 4.13 s)


def _luminance(img: PNMImage) -> np.ndarray:
    w, h = img.getXSize(), img.getYSize()
    rgb = np.array([[img.getXel(x, y) for x in range(w)] for y in range(h)], dtype=np.float64) * 255
    return 0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]


def test_view_factors_are_those_of_the_published_case() -> None:
    """Howell B-3: a patch under the corner of an endless rectangle sees a quarter of the sky hidden; under the
    middle of an endless one all of it; a 1 x 1 m square 1 m up, from under its corner, 0.1385 (the catalogue's
    value for X = Y = 1)."""
    assert corner_view_factor(1e6, 1e6, 1.0) == pytest.approx(0.25, abs=1e-4)
    assert rectangle_view_factor(0.0, 0.0, (-1e6, -1e6, 1e6, 1e6), 1.0) == pytest.approx(1.0, abs=1e-4)
    assert corner_view_factor(1.0, 1.0, 1.0) == pytest.approx(0.1385, abs=5e-4)


def test_the_floor_darkens_under_the_table_only() -> None:
    spec = load_table("pool-9ft")
    assert floor_light(spec, 0.0, 0.0) < 0.5  # under the middle of the table top
    assert floor_light(spec, 4.0, 3.0) > 0.95  # out in the room
    assert floor_light(spec, 0.0, 0.0) < floor_light(spec, 1.2, 0.0) < floor_light(spec, 2.5, 0.0)


def test_the_side_view_of_a_ball_on_the_floor_shows_it_lit(offscreen_base: Any) -> None:
    """Low quality (the software renderer): the ball at rest on the floor is in the picture, lit, and the
    picture is not mostly near-black."""
    scenario = load_scenario(FLOOR_CASE)
    record = stroke_record(scenario, Settings())
    drawn = draw_scenario(offscreen_base, scenario, record, AT_REST, "side", (320, 180))
    assert drawn.states["cue"].pos[2] < -0.5  # on the floor
    px = drawn.balls["cue"]
    assert px is not None
    assert 0 <= px[0] < 320
    assert 0 <= px[1] < 180
    lum = _luminance(drawn.image)
    assert (lum < 20).mean() < 0.3
    # The ball's middle: a lit white ball, well above the floor round it (measured 86 against a median of 38).
    ball = lum[int(px[1]), int(px[0])]
    assert ball > 60, (ball, float(np.median(lum)))
    assert ball > 1.5 * float(np.median(lum)), (ball, float(np.median(lum)))


def test_the_side_camera_looks_at_a_ball_off_the_table_from_inside_the_room(offscreen_base: Any) -> None:
    spec = load_table("pool-9ft")
    scene = NodePath("scene")
    shot = OffscreenShot(offscreen_base, scene, (160, 90))
    try:
        rig = CameraRig(shot.camera, spec, smooth_time=0.0)
        ball = (2.81, 2.56, spec.floor_z + spec.ball_radius)
        rig.set_mode(CameraMode.SIDE, target=ball, snap=True)
        assert spec.floor_z < rig.eye.z < 0.0  # low, by the ball on the floor
        assert abs(rig.eye.x) < 5.5
        assert abs(rig.eye.y) < 4.0
        px = shot.project(ball)
        assert px is not None
        assert 20 < px[0] < 140
        assert 10 < px[1] < 85
    finally:
        shot.close()


def test_the_lamp_shows_from_the_broadcast_view_and_never_over_the_bed(offscreen_base: Any) -> None:
    spec = load_table("pyramid-12ft")
    scene = NodePath("scene")
    shot = OffscreenShot(offscreen_base, scene, (160, 90))
    view = TableView(scene, spec, [], "pyramid", software=True)
    try:
        rig = CameraRig(shot.camera, spec, smooth_time=0.0)
        rig.set_mode(CameraMode.BROADCAST, snap=True)
        assert not view.lamp_np.isHidden()  # high behind the head cushion: over the far cushion
        rig.set_mode(CameraMode.TOP, snap=True)
        assert view.lamp_np.isHidden()
        rig.set_view((0.0, 0.0, 1.8), (0.3, 0.0, 0.0), snap=True)  # above the shade, looking down past it
        assert view.lamp_np.isHidden()
    finally:
        view.destroy()
        shot.close()


@pytest.mark.slow
def test_high_quality_side_view_of_the_floor_ball(tmp_path: Path) -> None:
    """High quality through headless OpenGL in a fresh process (`main.py render`): measured 16 % near-black, a
    mean luminance of 41 and the ball's brightest pixel 204 (before the room: 100 %, 2 and 11)."""
    out = tmp_path / "floor.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    cmd = [sys.executable, "main.py", "render", str(FLOOR_CASE), "--at", str(AT_REST), "--camera", "side"]
    cmd += ["--size", "320x180", "--quality", "high", "--out", str(out)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    img = PNMImage()
    assert img.read(Filename.fromOsSpecific(str(out)))
    lum = _luminance(img)
    assert (lum < 20).mean() < 0.4
    assert lum.mean() > 25
    # The ball is the brightest thing low in the middle of the picture.
    assert lum[90:, 100:220].max() > 150


class _Still:
    """A replay standing still: every ball where the view has it."""

    def __init__(self, view: TableView) -> None:
        self.view = view

    def state_at(self, ball: str) -> Any:
        return self.view.ball_state(ball)


def test_the_window_cameras_keep_a_ball_that_left_the_table(offscreen_base: Any) -> None:
    """The play screen's, the replay's and the trainer's side and top views during playback
    (scenes.screens.views.CameraAdapter.track): a ball on the floor is in the picture."""
    from scenes.screens.views import CameraAdapter

    spec = load_table("pool-9ft")
    scene = NodePath("scene")
    shot = OffscreenShot(offscreen_base, scene, (160, 90))
    view = TableView(scene, spec, ["cue", "1"], "pool", software=True)
    try:
        R = spec.ball_radius
        floor_ball = (2.81, 2.56, spec.floor_z + R)
        view.set_ball_state("cue", floor_ball)
        view.set_ball_state("1", (0.3, 0.2, R))
        camera = CameraAdapter(CameraRig(shot.camera, spec, smooth_time=0.0), view, spec)
        camera.follow_stroke("1")  # the struck ball is on the table; the cue ball left it
        for mode in ("side", "top"):
            camera.set_mode(mode)
            camera.track(_Still(view))
            camera.rig.snap()
            px = shot.project(floor_ball)
            assert px is not None, mode
            assert 0 <= px[0] < 160, mode
            assert 0 <= px[1] < 90, mode
        assert camera.rig.eye.z > 1.0  # the top view, widened round the table and the ball
        camera.focus((0.3, 0.2), 0.0)
        assert camera.rig.frame_points == ()  # the next stroke's top view is the table's again
    finally:
        view.destroy()
        shot.close()
