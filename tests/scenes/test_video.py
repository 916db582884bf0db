"""A stroke rendered offscreen to a video: frame count, size and format checked by decoding the file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from physics.record import Event, EventType
from scenes.replay import timeline_ticks
from scenes.video import plan, progress_bar

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = """title = { en = "A short pot", ru = "Короткий удар" }
game = "practice"
table = "pool-9ft"
[balls]
cue = [-0.6, 0.0]
"1" = [0.3, 0.05]
[shot]
cue_speed = 2.0
direction = 0.0
elevation = 5.0
tip = [0.0, 0.0]
"""


def _render(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "render", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=tmp,
    )


def _decode(path: Path) -> tuple[int, int, int]:
    import av

    with av.open(str(path)) as c:
        s = c.streams.video[0]
        n = sum(1 for _ in c.decode(s))
        return n, s.width, s.height


def test_plan_covers_the_stroke_at_the_chosen_speed() -> None:
    p = plan(2.0, 0.25, 30)
    assert p.step == pytest.approx(0.25 / 30)
    assert p.frames == 240 + 1 + 15  # 8 s of slow motion, the last moment, half a second to see the end
    assert p.t(0) == 0.0
    assert p.t(p.frames - 1) == 2.0
    assert progress_bar(5, 10, width=10) == "[#####-----]  50% 5/10"


@pytest.mark.slow
def test_render_video_writes_every_frame_at_the_asked_size(tmp_path: Path) -> None:
    sc = tmp_path / "short.toml"
    sc.write_text(SCENARIO, encoding="utf-8")
    out = tmp_path / "short.mp4"
    res = _render(
        tmp_path,
        str(sc),
        "--video",
        str(out),
        "--size",
        "160x90",
        "--fps",
        "10",
        "--camera",
        "top",
        "--quality",
        "low",
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert "100%" in res.stderr  # the progress bar reached its end
    from rules.scenarios import load_scenario
    from scenes.core.settings import Settings
    from scenes.render import stroke_record
    from scenes.replay import ReplayPlayer

    duration = ReplayPlayer(stroke_record(load_scenario(str(sc)), Settings())).duration
    frames, w, h = _decode(out)
    assert (w, h) == (160, 90)
    assert frames == plan(duration, 1.0, 10).frames
    # The same stroke as an animated GIF for sharing, in slow motion: twice the frames of the stroke's time.
    gif = tmp_path / "short.gif"
    res = _render(
        tmp_path,
        str(sc),
        "--video",
        str(gif),
        "--size",
        "96x64",
        "--fps",
        "5",
        "--speed",
        "0.5",
        "--quality",
        "low",
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert _decode(gif) == (plan(duration, 0.5, 5).frames, 96, 64)


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (("--video", "out.avi"), "--video"),
        (("--video", "out.mp4", "--size", "161x90"), "--size"),
        (("--video", "out.mp4", "--speed", "0"), "--speed"),
        (("--video", "out.mp4", "--fps", "500"), "--fps"),
        (("--out", "x.png", "--camera", "follow"), "--camera"),
    ],
)
def test_bad_video_arguments_are_one_line_and_exit_2(
    tmp_path: Path, args: tuple[str, ...], key: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    sys.path.insert(0, str(ROOT))
    from main import run

    sc = tmp_path / "short.toml"
    sc.write_text(SCENARIO, encoding="utf-8")
    fixed = [str(tmp_path / a) if a.startswith(("out.", "x.")) else a for a in args]
    assert run(["render", str(sc), *fixed]) == 2  # checked before any window or buffer is made
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert key in err


def test_timeline_ticks_every_event_but_the_rests_in_time_order() -> None:
    events = [
        Event(0.0, EventType.CUE_STRIKE, ball="cue"),
        Event(0.4, EventType.BALL_BALL, balls=("cue", "1")),
        Event(0.9, EventType.CUSHION, ball="1", cushion="foot"),
        Event(1.2, EventType.AIRBORNE, ball="cue"),
        Event(1.5, EventType.POCKETED, ball="1", pocket="foot-left"),
        Event(1.8, EventType.LEFT_TABLE, ball="cue"),
        Event(2.0, EventType.REST, ball="1"),
    ]
    ticks = timeline_ticks(events, 2.0)
    assert [t.kind for t in ticks] == ["strike", "contact", "cushion", "jump", "pot", "off"]
    assert [t.frac for t in ticks] == [0.0, 0.2, 0.45, 0.6, 0.75, 0.9]


@pytest.mark.slow
def test_a_video_looks_like_the_picture_of_the_same_moment(tmp_path: Path) -> None:
    """At the settings' quality (high: physically based shading) a video's first frame is the picture ``render
    --out`` draws of that moment: the table was built for the low path before the shading was on (its colours not
    turned to linear light), and the high video came out washed out, its dark room pale grey."""
    import av
    import numpy as np
    from PIL import Image

    sc = tmp_path / "short.toml"
    sc.write_text(SCENARIO, encoding="utf-8")
    common = ("--size", "160x90", "--camera", "top", "--quality", "high")
    res = _render(
        tmp_path, str(sc), "--video", str(tmp_path / "v.mp4"), "--fps", "5", "--speed", "4", *common
    )
    assert res.returncode == 0, res.stderr[-2000:]
    res = _render(tmp_path, str(sc), "--out", str(tmp_path / "p.png"), "--at", "0", *common)
    assert res.returncode == 0, res.stderr[-2000:]
    with av.open(str(tmp_path / "v.mp4")) as c:
        first = next(c.decode(video=0)).to_ndarray(format="rgb24").astype(float) / 255
    still = np.asarray(Image.open(tmp_path / "p.png").convert("RGB")).astype(float) / 255
    # H.264 (yuv420p) blurs colour edges a little: the mean difference stays small where the look is the same.
    assert float(np.abs(first - still).mean()) < 0.03
