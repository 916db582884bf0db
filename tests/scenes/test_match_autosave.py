"""A match in progress autosaves atomically after every stroke and resumes with nothing lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from physics.record import ShotParams
from scenes.core.match import MatchController

ROOT = Path(__file__).resolve().parents[2]


def test_match_saves_after_each_stroke_and_resumes(tmp_path: Path) -> None:
    path = str(tmp_path / "match.json")
    m = MatchController(game="russian-pyramid", names=("A", "B"), autosave=path)
    for speed in (6.0, 2.0):
        m.stroke(ShotParams(ball=m.cue_ball, cue_speed=speed, direction=0.0, elevation=5.0))
        m.apply()
    back = MatchController.from_autosave(path)
    assert back.saved_strokes == 2
    assert back.state.snapshot() == m.state.snapshot()
    assert back.positions == m.positions


def test_cli_resume_without_a_save_is_one_line_exit_2(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    env.pop("DISPLAY", None)
    r = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "play", "--offscreen", "--resume"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "match-autosave.json" in r.stderr


@pytest.mark.slow
def test_cli_resumes_the_match_the_demo_left(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    env.pop("DISPLAY", None)
    # The cheap shading: this is about the saved match, and the software renderer draws it quickest.
    settings = tmp_path / "settings.toml"
    settings.write_text('[display]\nquality = "low"\n', encoding="utf-8")
    cli = [sys.executable, str(ROOT / "main.py"), "--settings", str(settings)]
    first = subprocess.run(
        [*cli, "play", "--offscreen", "--out", str(tmp_path / "a.png")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )
    assert first.returncode == 0, first.stderr
    saved = tmp_path / "billiards3d" / "match-autosave.json"
    assert saved.exists()
    before = saved.read_bytes()
    again = subprocess.run(
        [
            *cli,
            "play",
            "--offscreen",
            "--resume",
            "--out",
            str(tmp_path / "b.png"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "b.png").stat().st_size > 10_000
    assert saved.read_bytes() == before  # resuming and looking changes nothing


def test_golf_on_the_snooker_table_saves_and_resumes_on_that_table(tmp_path: Path) -> None:
    """000 «Гольф»: played on a snooker table too; the saved match keeps the table it is played on."""
    path = str(tmp_path / "golf.json")
    m = MatchController(game="golf", table="snooker-12ft", names=("A", "B", "C"), autosave=path)
    assert m.spec.id == "snooker-12ft"
    assert m.positions["1"] == m.spec.spot("black")
    m.stroke(ShotParams(ball=m.cue_ball, cue_speed=2.0, direction=0.0))
    assert m.pending is not None
    assert m.pending.record.table == "snooker-12ft"
    assert not m.pending.ruling_json["foul"]
    m.apply()
    back = MatchController.from_autosave(path)
    assert back.spec.id == "snooker-12ft"
    assert back.state.snapshot() == m.state.snapshot()
    assert back.state.snapshot()["table"] == "snooker-12ft"
