"""One clear line for every bad value, at every depth (issue 28 §3, §4).

Before: a named pipe given as a scenario (or inside a case pack) hung the program; ``simulate /dev/zero`` and
``--settings /dev/zero`` read until memory ran out; drills with ``first_contact = ["1"]``, ``pocket = ["x"]``
or ``pot = 5`` and scenarios with ``[shot] ball = ["cue"]`` or ``call = { ball = ["1"], pocket = 5 }`` were
internal errors (an unhashable list, a number iterated); a drill took ``radius = true`` as 1 m and a NaN in
a ``rect``; ``[trainer] data_dir`` with a NUL or ``~nosuchuser/...`` and ``--lang ru`` on an ASCII terminal
were internal errors; ``--video`` naming a folder was refused only by its suffix; an autosave's companion
naming ``player: 9`` in a two-player match resumed. The files that trigger them are in ``repro/issue28/``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from physics.errors import InputError
from scenes.app import SCRIPT_ENV

ROOT = Path(__file__).resolve().parents[2]
REPRO = Path(__file__).resolve().parent / "repro" / "issue28"
SCENARIO = ROOT / "assets" / "cases" / "pyramid-lamp.toml"


def _main(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "main.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
    )


def _one_line(r: subprocess.CompletedProcess[str]) -> str:
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert len(lines) == 1, r.stderr[-2000:]
    assert "internal error" not in lines[0]
    return lines[0]


# --- §3: only regular files of a sane size are read ---------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    p = tmp_path / "stroke.toml"
    os.mkfifo(p)
    return p


def test_a_named_pipe_as_a_scenario_is_one_line_not_a_hang(fifo: Path) -> None:
    line = _one_line(_main("--lang", "en", "simulate", str(fifo), timeout=60))
    assert str(fifo) in line
    assert "regular file" in line


def test_a_named_pipe_inside_a_case_pack_is_one_line_not_a_hang(tmp_path: Path, fifo: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    os.mkfifo(pack / "club-pipe.toml")
    settings = tmp_path / "s.toml"
    settings.write_text(f'[trainer]\ndata_dir = "{tmp_path / "d"}"\n', encoding="utf-8")
    line = _one_line(
        _main("--lang", "en", "--settings", str(settings), "train", "--import", str(pack), timeout=60)
    )
    assert "club-pipe.toml" in line
    assert "regular file" in line


@pytest.mark.parametrize(
    "args", [("simulate", "/dev/zero"), ("--settings", "/dev/zero", "games"), ("drill", "/dev/zero")]
)
def test_a_device_is_refused_before_reading(args: tuple[str, ...]) -> None:
    line = _one_line(_main("--lang", "en", *args, timeout=60))
    assert "/dev/zero" in line
    assert "regular file" in line


def test_the_shared_reader_refuses_pipes_devices_folders_and_oversize(tmp_path: Path, fifo: Path) -> None:
    from physics.files import read_user_bytes

    for p in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(InputError) as exc:
            read_user_bytes(p, "scenario file")
        assert exc.value.file == str(p)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2000)
    with pytest.raises(InputError) as exc:
        read_user_bytes(big, "results file", cap=1000)
    assert "1000" in exc.value.expected or "kB" in exc.value.expected
    with pytest.raises(InputError):
        read_user_bytes(tmp_path / "a\0b", "scenario file")
    ok = tmp_path / "ok.toml"
    ok.write_bytes(b"x = 1\n")
    assert read_user_bytes(ok, "scenario file") == b"x = 1\n"


@pytest.mark.parametrize("name", ["results.json", "script.json"])
def test_a_named_pipe_as_a_results_file_or_a_script_is_one_line(tmp_path: Path, name: str) -> None:
    pipe = tmp_path / name
    os.mkfifo(pipe)
    settings = tmp_path / "s.toml"
    settings.write_text(f'[trainer]\ndata_dir = "{tmp_path / "d"}"\n', encoding="utf-8")
    if name == "results.json":
        r = _main("--lang", "en", "--settings", str(settings), "train", "--import", str(pipe), timeout=60)
    else:
        out = str(tmp_path / "x.png")
        r = _main(
            "--lang", "en", "play", "--offscreen", "--out", out, env={SCRIPT_ENV: str(pipe)}, timeout=60
        )
    line = _one_line(r)
    assert str(pipe) in line
    assert "regular file" in line


# --- §4: drills ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("drill_first_contact_list", "drill.first_contact"),
        ("drill_pocket_list", "drill.pot[0].pocket"),
        ("drill_pot_number", "drill.pot"),
        ("drill_radius_true", "drill.cue_zone.radius"),
        ("drill_rect_nan", "drill.cue_zone.rect"),
    ],
)
def test_a_drill_value_of_the_wrong_kind_is_one_line(name: str, key: str) -> None:
    from scenes.core.drills import load_drill

    path = REPRO / f"{name}.toml"
    with pytest.raises(InputError) as exc:
        load_drill(path)
    assert exc.value.key == key, exc.value.line()
    assert exc.value.file == str(path), exc.value.line()


def test_a_drill_value_of_the_wrong_kind_through_main_is_one_line_and_exit_2() -> None:
    line = _one_line(_main("--lang", "en", "drill", str(REPRO / "drill_first_contact_list.toml")))
    assert "drill.first_contact" in line


def test_a_drill_after_cushion_must_be_a_flag(tmp_path: Path) -> None:
    from scenes.core.drills import load_drill

    text = (ROOT / "assets" / "drills" / "pool-progressive-draw-1.toml").read_text(encoding="utf-8")
    p = tmp_path / "d.toml"
    p.write_text(text.replace('pocket = "foot-left"', 'pocket = "foot-left"\nafter_cushion = "no"'), "utf-8")
    with pytest.raises(InputError) as exc:
        load_drill(p)
    assert exc.value.key == "drill.pot[0].after_cushion"


def test_every_library_drill_still_loads() -> None:
    from scenes.core.drills import drill_library

    assert len(drill_library()) > 5


# --- §4: scenarios ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "key"), [("shot_ball_list", "shot.ball"), ("shot_call_list", "shot.call.ball")]
)
def test_a_shot_value_of_the_wrong_kind_is_one_line(name: str, key: str) -> None:
    from rules.scenarios import load_scenario

    with pytest.raises(InputError) as exc:
        load_scenario(REPRO / f"{name}.toml")
    assert exc.value.key == key, exc.value.line()
    line = _one_line(_main("--lang", "en", "simulate", str(REPRO / f"{name}.toml")))
    assert key in line


def test_a_called_pocket_that_is_a_number_is_one_line(tmp_path: Path) -> None:
    from rules.scenarios import load_scenario

    text = (
        (REPRO / "shot_call_list.toml").read_text(encoding="utf-8").replace('ball = ["1"], ', 'ball = "1", ')
    )
    p = tmp_path / "c.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_scenario(p)
    assert exc.value.key == "shot.call.pocket"


def test_a_video_into_a_folder_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "clip.mp4"
    folder.mkdir()
    line = _one_line(_main("--lang", "en", "render", str(SCENARIO), "--video", str(folder)))
    assert str(folder) in line
    assert "folder" in line
    assert folder.is_dir()
    assert not list(folder.iterdir())


# --- §4: settings and the terminal --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["settings_data_dir_nul", "settings_data_dir_nosuchuser"])
def test_a_data_folder_that_cannot_be_a_path_is_one_line(name: str) -> None:
    settings = REPRO / f"{name}.toml"
    line = _one_line(_main("--lang", "en", "--settings", str(settings), "train", "--history"))
    assert "trainer.data_dir" in line
    assert str(settings) in line


def test_russian_on_an_ascii_terminal_is_printed_not_an_internal_error() -> None:
    r = _main("--lang", "ru", "games", env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 0, r.stderr[-2000:]
    assert "russian-pyramid" in r.stdout
    assert "internal error" not in r.stderr


# --- §4: the autosave's companion ---------------------------------------------------------------------


def test_a_companion_naming_a_player_the_match_has_not_is_refused(tmp_path: Path) -> None:
    from scenes.core.autosave import save_document
    from scenes.core.match import MatchController, play_save_path

    path = tmp_path / "match-autosave.json"
    m = MatchController(game="russian-pyramid", names=("A", "B"), autosave=str(path), lang="en")
    m.save()
    entry = {
        "frame": 1,
        "player": 9,
        "points": 1,
        "break_after": 1,
        "seconds": 2.0,
        "counted": ["1"],
        "fouls": [],
    }
    companion = play_save_path(str(path))
    save_document(companion, "play", {"current_break": 1, "log": [entry]}, m.saved_strokes)
    before = companion.read_bytes()
    with pytest.raises(InputError) as exc:
        MatchController.from_autosave(str(path), "en")
    assert exc.value.file == str(companion)
    assert "player" in exc.value.key
    assert companion.read_bytes() == before
    entry["player"] = 1
    save_document(companion, "play", {"current_break": 1, "log": [entry]}, m.saved_strokes)
    assert MatchController.from_autosave(str(path), "en").log[0].player == 1
    assert json.loads(companion.read_text("utf-8"))["payload"]["log"][0]["player"] == 1


def test_play_resume_with_such_a_companion_is_one_line_before_any_window(tmp_path: Path) -> None:
    from scenes.core.autosave import save_document
    from scenes.core.match import MatchController, play_save_path

    folder = tmp_path / "billiards3d"
    folder.mkdir()
    path = folder / "match-autosave.json"
    m = MatchController(game="russian-pyramid", names=("A", "B"), autosave=str(path), lang="en")
    m.save()
    entry = {
        "frame": 1,
        "player": 9,
        "points": 1,
        "break_after": 1,
        "seconds": 2.0,
        "counted": [],
        "fouls": [],
    }
    save_document(play_save_path(str(path)), "play", {"current_break": 1, "log": [entry]}, m.saved_strokes)
    r = _main("--lang", "en", "play", "--offscreen", "--resume", env={"XDG_DATA_HOME": str(tmp_path)})
    assert "payload.log[0].player" in _one_line(r)
