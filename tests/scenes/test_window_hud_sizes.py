"""Issue 26 §3 in real windows (Xvfb + Mesa) from 800x600 to 4K: in every camera of the play screen no HUD panel
covers the bed, as the play screen's dump measures it (the bed's projected outline, the panels' drawn boxes),
and the screenshots are kept for a look."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.scenes.test_hud_clear_of_bed import cue_ball_in_view, overlaps
from tests.scenes.test_window_e2e import _run_app

pytestmark = [pytest.mark.window, pytest.mark.slow]
MODES = ("top", "broadcast", "player", "side", "orbit", "follow", "free")
SIZES = [(800, 600), (1280, 720), (1920, 1080), (2560, 1080), (3840, 2160)]


@pytest.fixture(scope="module")
def xvfb4k() -> Iterator[str]:
    """An X server whose screen holds a 4K window (the shared fixture's is 1280x720)."""
    exe = shutil.which("Xvfb")
    if exe is None:
        pytest.skip("Xvfb is not installed")
    read, write = os.pipe()
    proc = subprocess.Popen(
        [exe, "-displayfd", str(write), "-screen", "0", "3840x2160x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write,),
    )
    os.close(write)
    number = b""
    deadline = time.monotonic() + 20
    with os.fdopen(read, "rb") as said:
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            ch = said.read(1)
            if not ch:
                break
            number += ch
    if not number.strip().isdigit():
        proc.kill()
        pytest.skip("Xvfb did not start")
    try:
        yield f":{int(number)}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_panel_covers_the_bed_at_any_window_size(
    xvfb4k: str, tmp_path: Path, width: int, height: int
) -> None:
    script: list[dict[str, object]] = [
        {"do": "frames", "n": 3},
        {"do": "start", "game": "snooker", "players": ["Анастасия-Александра", "Bartholomew Johnson"]},
        {"do": "frames", "n": 3},
        {"do": "tip", "x": 0.4, "y": -0.3},  # the cue's panel at its tallest: the squirt's line shown
    ]
    for mode in MODES:
        script += [
            {"do": "camera", "mode": mode, "snap": True},
            {"do": "frames", "n": 3},
            {"do": "dump", "path": str(tmp_path / f"{mode}.json")},
            {"do": "screenshot", "path": str(tmp_path / f"{mode}.png")},
        ]
    script.append({"do": "quit"})
    settings = tmp_path / "settings.toml"
    settings.write_text(
        f"[display]\nwidth = {width}\nheight = {height}\nmsaa = 0\nquality = 'low'\n", encoding="utf-8"
    )
    res = _run_app(
        xvfb4k, script, tmp_path, "--settings", str(settings), "--lang", "ru", "play", "--game", "snooker"
    )
    assert res.returncode == 0, res.stderr[-3000:]
    keep = os.environ.get("HUD_SHOTS")  # a folder to keep the screenshots in, to look at them
    for mode in MODES:
        d = json.loads((tmp_path / f"{mode}.json").read_text(encoding="utf-8"))
        layout = d["layout"]
        assert abs(layout["aspect"] - width / height) < 1e-3, layout["aspect"]
        assert overlaps(layout) == [], (width, height, mode)
        assert cue_ball_in_view(layout), (width, height, mode, layout["cue_ball"], layout["picture"])
        if keep:
            shutil.copy(tmp_path / f"{mode}.png", Path(keep) / f"{mode}-{width}x{height}.png")
