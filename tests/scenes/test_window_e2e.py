"""End to end in a real window: Xvfb + Mesa GL, the app driven by scripted input.

A match of Russian pyramid is opened, the ball in hand confirmed, a stroke aimed and struck with the
keys, the balls run to rest; the HUD's scores, call and options are checked against the referee's
ruling (recomputed here from the stroke the app recorded), the option is chosen with its key, and the
screenshot's pixels are looked at: cloth green in the middle of the table, text in the scoreboard's corner.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scenes.core.i18n import rule_name

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.window, pytest.mark.slow]


@pytest.fixture(scope="module")
def xvfb() -> Iterator[str]:
    """An X server of the test's own. Xvfb picks a free display number itself (-displayfd) and says it when
    it is ready: two test processes (pytest -n) choosing numbers by looking at /tmp raced for the same one,
    and the loser skipped its window tests."""
    exe = shutil.which("Xvfb")
    if exe is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb libgl1-mesa-dri)")
    read, write = os.pipe()
    proc = subprocess.Popen(
        [exe, "-displayfd", str(write), "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write,),
    )
    os.close(write)
    number = b""
    deadline = time.monotonic() + 20
    with os.fdopen(read, "rb") as said:
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            ch = said.read(1)  # the server writes the number and a new line once it accepts connections
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
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _run_app(
    display: str, script: list[dict[str, object]], tmp: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    path = tmp / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    env = {
        **os.environ,
        "DISPLAY": display,
        "BILLIARDS_SCRIPT": str(path),
        "BILLIARDS_DEBUG": "1",
        "XDG_DATA_HOME": str(tmp / "data"),
    }
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def _pixels(path: Path) -> tuple[int, int, object]:
    from panda3d.core import Filename, PNMImage

    img = PNMImage()
    assert img.read(Filename.fromOsSpecific(str(path))), path
    return img.getXSize(), img.getYSize(), img


def test_match_in_a_real_window(xvfb: str, tmp_path: Path) -> None:
    names = ["Anna", "Boris"]
    shot = tmp_path / "window.png"
    dump = tmp_path / "hud.json"
    after = tmp_path / "after.json"
    script = [
        {"do": "frames", "n": 3},
        {"do": "start", "game": "russian-pyramid", "players": names, "frames_to_win": 2},
        {"do": "frames", "n": 3},
        # From the house, out towards the left cushion and softly: a stroke that touches no ball.
        {"do": "key", "key": "space"},  # confirm the ball in hand where it stands
        {"do": "aim", "direction": 40.0},
        {"do": "power", "speed": 0.9},
        {"do": "key", "key": "space"},  # strike
        {"do": "speed", "x": 8.0},
        {"do": "wait_rest", "timeout": 600},
        {"do": "dump", "path": str(dump)},
        {"do": "camera", "mode": "top", "snap": True},
        {"do": "frames", "n": 3},
        {"do": "screenshot", "path": str(shot)},
        {"do": "key", "key": "1"},  # the first option offered
        {"do": "frames", "n": 2},
        {"do": "dump", "path": str(after)},
        {"do": "quit"},
    ]
    # A small window keeps Mesa's software renderer quick; everything else is the user's default settings.
    settings = tmp_path / "settings.toml"
    settings.write_text("[display]\nwidth = 800\nheight = 450\nmsaa = 0\n", encoding="utf-8")
    res = _run_app(
        xvfb,
        script,
        tmp_path,
        "--settings",
        str(settings),
        "--lang",
        "en",
        "play",
        "--game",
        "russian-pyramid",
    )
    assert res.returncode == 0, res.stderr[-3000:]
    d = json.loads(dump.read_text(encoding="utf-8"))
    assert d["screen"] == "play"
    assert d["game"] == "russian-pyramid"

    # The ruling the app shows is the referee's ruling on the stroke the app recorded.
    from physics.record import ShotRecord
    from rules.registry import get_referee
    from rules.state import MatchState

    record = ShotRecord.from_dict(d["record"])
    assert record.events
    assert record.events[0].type == "cue_strike"
    assert not record.of_type("ball_ball")
    fresh = MatchState.new(get_referee("russian-pyramid"), tuple(names), 2)
    judged = get_referee("russian-pyramid").judge(fresh, record)
    ruling = judged.to_dict()
    shown = d["ruling"]
    for key in ("foul", "counted", "scores", "next_player", "in_hand", "options", "frame_over", "striker"):
        assert shown[key] == ruling[key], key
    assert [f["code"] for f in shown["fouls"]] == [f["code"] for f in ruling["fouls"]]

    # The HUD shows those scores, who struck, the call with its explanation and rule, and the options.
    hud = d["hud"]
    for i, name in enumerate(names):
        assert f"{name}: {ruling['scores'][i]}" in hud["score"]
    assert d["phase"] == ("decide" if ruling["options"] else "aim")
    if ruling["foul"]:
        assert "FOUL" in hud["call"]
        for f, foul in zip(ruling["fouls"], judged.fouls, strict=True):
            # The details name the text by its own title (the foul's rulebook family: rules.sources).
            cited = rule_name(foul.rule, "en", family=foul.family, world=foul.world)
            assert f["explain"]["en"] in hud["details"], (cited, hud["details"])
            assert cited in hud["details"], (cited, hud["details"])
    else:
        assert "Last stroke: legal" in hud["call"]
    if "play_on" in ruling["options"]:
        # Worded for who plays and from where (issue 26 §4): the offender plays again.
        assert f"1) {names[ruling['striker']]} plays again" in hud["call"]
        # Key 1 chose «play on»: the offender is at the table again, as MatchState.apply says.
        a = json.loads(after.read_text(encoding="utf-8"))
        expected = fresh.apply(get_referee("russian-pyramid").judge(fresh, record), ruling["options"][0])
        assert a["state"]["to_play"] == expected.to_play == ruling["striker"]
        assert f"▶ {names[expected.to_play]}:" in a["hud"]["score"]

    # Pixels: the top view puts the table's middle at the picture's middle; the scoreboard has text.
    w, h, img = _pixels(shot)
    greens = 0
    samples = 0
    for dx in range(-40, 41, 8):
        for dy in range(-20, 21, 8):
            r, g, b = (img.getXel(w // 2 + dx, h // 2 + dy)[k] for k in range(3))  # type: ignore[attr-defined]
            samples += 1
            greens += g > r + 0.08 and g > b + 0.04
    assert greens >= 0.6 * samples, f"cloth green in {greens} of {samples} samples"
    bright = 0
    for x in range(0, int(w * 0.3), 2):
        for y in range(0, int(h * 0.15), 2):
            if img.getBright(x, y) > 0.8:  # type: ignore[attr-defined]
                bright += 1
    assert bright > 50, "no text in the scoreboard corner"
