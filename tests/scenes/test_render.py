"""Offscreen renders looked at pixel by pixel: cloth in the middle, balls where the layout puts them, the whole
table in the top view, one clear line and exit 2 for bad input, and the same picture twice."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from panda3d.core import PNMImage

import main
from rules.scenarios import parse_scenario
from scenes.core.settings import Settings
from scenes.render import draw_scenario, scene_states, stroke_record

ROOT = Path(__file__).resolve().parents[2]

POOL_LAYOUT = {
    "game": "pool-9-ball",
    "balls": {
        "cue": [-0.70, 0.10],
        "1": [0.635, 0.0],
        "9": [0.30, 0.30],
        "5": [0.0, -0.40],
        "8": [-0.3, -0.45],
    },
}
SNOOKER_LAYOUT = {
    "game": "snooker",
    # (The green ball is left out: on green baize its colour is meant to be close to the cloth's.)
    "balls": {
        "cue": [-1.2, 0.1],
        "yellow": [-1.0475, -0.292],
        "pink": [0.89225, 0.0],
        "black": [1.2605, 0.0],
        "red1": [0.95, 0.3],
    },
}


def _rgb(img: PNMImage, x: float, y: float) -> tuple[float, float, float]:
    c = img.getXel(int(x), int(y))
    return (c[0], c[1], c[2])


def _is_cloth(c: tuple[float, float, float]) -> bool:
    """Green baize under the lamp: green clearly above red and blue."""
    r, g, b = c
    return g > 0.2 and g > r + 0.12 and g > b + 0.08


@pytest.mark.parametrize("layout", [POOL_LAYOUT, SNOOKER_LAYOUT], ids=["pool", "snooker"])
@pytest.mark.parametrize("camera", ["top", "player"])
def test_render_shows_cloth_and_every_ball(offscreen_base: Any, layout: dict, camera: str) -> None:
    scenario = parse_scenario(layout, "layout.toml")
    drawn = draw_scenario(offscreen_base, scenario, None, 0.0, camera, (320, 180))
    img = drawn.image
    assert (img.getXSize(), img.getYSize()) == (320, 180)
    if camera == "top":
        # Nothing stands on the centre spot in these layouts: the middle of the picture is cloth.
        assert _is_cloth(_rgb(img, 160, 90))
    cloth_seen = sum(_is_cloth(_rgb(img, x, y)) for x in range(0, 320, 8) for y in range(0, 180, 6))
    assert cloth_seen > 0.2 * (40 * 30)
    R = scenario.table.ball_radius
    for ball, px in drawn.balls.items():
        assert px is not None, ball
        x, y = px
        if not (1 <= x < 319 and 1 <= y < 179):
            continue  # the player's view may leave a ball behind the camera's edge
        c = _rgb(img, x, y)
        assert not _is_cloth(c), (ball, c)
        # ... and a ball radius and a half to the side, the cloth again (the ball is drawn its real size).
        if camera == "top":
            scale = 320 / (
                scenario.table.length + 2 * (scenario.table.cushion_width + scenario.table.rail_width)
            )
            side = _rgb(img, x, y + 1.6 * R * scale + 2)
            assert _is_cloth(side), (ball, side)


def test_top_view_frames_the_whole_table(offscreen_base: Any) -> None:
    scenario = parse_scenario(POOL_LAYOUT, "layout.toml")
    img = draw_scenario(offscreen_base, scenario, None, 0.0, "top", (320, 180)).image
    # Along the middle row: wood (rail), then cloth, then wood again, with room on either side of the rails.
    row = [_rgb(img, x, 90) for x in range(320)]
    cloth = [x for x, c in enumerate(row) if _is_cloth(c)]
    assert cloth
    assert cloth[0] > 5
    assert cloth[-1] < 314
    left_rail = row[cloth[0] - 8]
    assert left_rail[0] > left_rail[1] > left_rail[2]  # brown wood: red > green > blue
    col = [_rgb(img, 160, y) for y in range(180)]
    cloth_v = [y for y, c in enumerate(col) if _is_cloth(c)]
    assert cloth_v
    assert cloth_v[0] > 3
    assert cloth_v[-1] < 176


def test_same_input_draws_the_same_pixels(offscreen_base: Any) -> None:
    scenario = parse_scenario(POOL_LAYOUT, "layout.toml")
    a = draw_scenario(offscreen_base, scenario, None, 0.0, "player", (160, 90)).image
    b = draw_scenario(offscreen_base, scenario, None, 0.0, "player", (160, 90)).image
    assert all(a.getXel(x, y) == b.getXel(x, y) for x in range(160) for y in range(90))


def test_simulated_stroke_draws_the_ball_where_the_record_has_it(offscreen_base: Any) -> None:
    layout = dict(POOL_LAYOUT, shot={"cue_speed": 2.0, "direction": 0.0})
    scenario = parse_scenario(layout, "shot.toml")
    record = stroke_record(scenario, Settings())
    assert record is not None
    assert record.samples
    t = 0.3
    drawn = draw_scenario(offscreen_base, scenario, record, t, "top", (320, 180))
    states, player = scene_states(scenario, record, t)
    assert player is not None
    cue = states["cue"].pos
    assert cue[0] > -0.70 + 0.1  # the cue ball has moved along +x by then
    px = drawn.balls["cue"]
    assert px is not None
    assert not _is_cloth(_rgb(drawn.image, *px))
    start = draw_scenario(offscreen_base, scenario, record, 0.0, "top", (320, 180)).balls["cue"]
    # and on the picture it is to the right (foot) of its start
    assert start is not None
    assert px[0] > start[0] + 5


@pytest.mark.parametrize(
    "argv, key",
    [
        (["--size", "12x5"], "--size"),
        (["--size", "wide"], "--size"),
        (["--at", "-1"], "--at"),
        (["--out", "picture.jpg"], "--out"),
    ],
)
def test_bad_render_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: Any, argv: list[str], key: str
) -> None:
    f = tmp_path / "s.toml"
    f.write_text('game = "pool-9-ball"\n[balls]\ncue = [0.0, 0.0]\n', encoding="utf-8")
    out = ["--out", str(tmp_path / "x.png")] if "--out" not in argv else []
    code = main.run(["render", str(f), *out, *argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1
    assert key in err[0]


def test_bad_scenario_file_is_exit_2(tmp_path: Path, capsys: Any) -> None:
    f = tmp_path / "bad.toml"
    f.write_text('game = "pool-9-ball"\n[balls]\ncue = [9.0, 0.0]\n', encoding="utf-8")
    assert main.run(["render", str(f), "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "balls.cue" in err[0]
    assert "bad.toml" in err[0]


def test_render_command_end_to_end_without_a_display(tmp_path: Path) -> None:
    """The real CLI in a fresh process (its own ShowBase), with no display in the environment."""
    f = tmp_path / "layout.toml"
    f.write_text(
        'game = "russian-pyramid"\n[balls]\ncue = [-0.9, 0.2]\n"1" = [0.8875, 0.0]\n', encoding="utf-8"
    )
    out = tmp_path / "shot.png"
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "render",
            str(f),
            "--out",
            str(out),
            "--camera",
            "top",
            "--size",
            "320x180",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    img = PNMImage()
    assert img.read(str(out))
    assert (img.getXSize(), img.getYSize()) == (320, 180)
    assert _is_cloth(_rgb(img, 172, 98))  # beside the centre spot's mark


def test_recorded_stroke_draws_start_then_final_positions(offscreen_base: Any) -> None:
    """A scenario that carries its stroke as events and finals (no samples) shows the layout, then the end."""
    layout = dict(
        POOL_LAYOUT,
        events=[
            {"t": 0.0, "type": "cue_strike", "ball": "cue", "miscue": False, "scoop": False},
            {"t": 0.8, "type": "ball_ball", "balls": ["cue", "1"]},
            {"t": 1.5, "type": "pocketed", "ball": "1", "pocket": "foot-left"},
        ],
        final={
            "cue": {"status": "on_table", "pos": [0.40, 0.20, 0.028575]},
            "1": {"status": "pocketed", "pocket": "foot-left"},
        },
    )
    scenario = parse_scenario(layout, "recorded.toml")
    record = stroke_record(scenario, Settings())
    assert record is not None
    assert record.samples is None
    start, _ = scene_states(scenario, record, 0.0)
    assert start["cue"].pos[:2] == pytest.approx((-0.70, 0.10))
    assert start["1"].visible
    end, _ = scene_states(scenario, record, 2.0)
    assert end["cue"].pos == pytest.approx((0.40, 0.20, 0.028575))
    assert not end["1"].visible
    drawn = draw_scenario(offscreen_base, scenario, record, 2.0, "top", (320, 180))
    assert "1" not in drawn.balls
    assert drawn.balls["cue"] is not None


def test_potted_ball_sinks_into_the_well_then_vanishes(offscreen_base: Any) -> None:
    """The README's stroke: the 7 is potted in the foot-left corner; it is drawn sinking, then is gone."""
    from rules.scenarios import load_scenario

    scenario = load_scenario(ROOT / "assets" / "screenshots" / "play.toml")
    record = stroke_record(scenario, Settings())
    assert record is not None
    potted = [e for e in record.events if e.type == "pocketed" and e.ball == "7"]
    if not potted:
        pytest.skip("the physics no longer pots the 7 in this stroke")
    t_pot = potted[0].t
    _, player = scene_states(scenario, record, 0.0)
    assert player is not None
    R = scenario.table.ball_radius
    sinking = player.state_at("7", t_pot - 0.01)
    # already below its resting height
    assert sinking.visible
    assert sinking.pos[2] < R - 0.005
    assert not player.state_at("7", t_pot).visible
    drawn = draw_scenario(offscreen_base, scenario, record, t_pot + 0.1, "top", (320, 180))
    assert "7" not in drawn.balls
    assert drawn.balls["cue"] is not None


def test_the_player_view_before_the_strike_shows_the_cue_held_for_the_shot(offscreen_base: Any) -> None:
    """A scenario with a shot, drawn at t = 0 from the player's view: the cue lies under the cue ball, along the
    aim, down to the picture's bottom edge (maple, not cloth); without a shot there is none."""
    layout = dict(POOL_LAYOUT, shot={"cue_speed": 2.0, "direction": 0.0, "elevation": 5.0})
    with_cue = draw_scenario(
        offscreen_base, parse_scenario(layout, "shot.toml"), None, 0.0, "player", (320, 180)
    )
    without = draw_scenario(
        offscreen_base, parse_scenario(POOL_LAYOUT, "layout.toml"), None, 0.0, "player", (320, 180)
    )
    x, y = with_cue.balls["cue"]  # type: ignore[misc]
    below = [_rgb(with_cue.image, x, yy) for yy in range(int(y) + 12, 178, 4)]
    assert below, below
    assert not any(_is_cloth(c) for c in below), below
    assert all(c[0] > 0.45 and c[0] >= c[2] for c in below)  # pale maple: red above blue
    x, y = without.balls["cue"]  # type: ignore[misc]
    assert any(_is_cloth(_rgb(without.image, x, yy)) for yy in range(int(y) + 12, 178, 4))
