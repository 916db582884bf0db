"""Exports that are safe to open, loads that keep their table, a window that stops cleanly (issue 28 §5).

Before: the CSV export wrote a trainee named ``=HYPERLINK(...)`` as a formula a spreadsheet runs; F9 loaded a
snooker-12ft position into pyramid practice and simulated ``red1`` and ``black`` on the pyramid table;
SIGTERM ended the window with multiprocessing's resource tracker warning of leaked semaphores.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from scenes.core.trainer.packs import export_results
from scenes.core.trainer.store import Store

ROOT = Path(__file__).resolve().parents[2]
REPRO = Path(__file__).resolve().parent / "repro" / "issue28"


@pytest.mark.parametrize(
    ("name", "answer"),
    [('=HYPERLINK("http://x","a")', "=1+1"), ("+1", "\t=1"), ("-2+3", "\r=1"), ("@SUM(A1)", "-1")],
)
def test_a_csv_cell_a_spreadsheet_would_run_is_written_as_text(
    tmp_path: Path, name: str, answer: str
) -> None:
    with Store(tmp_path / "db.sqlite3") as store:
        pid = store.profile(name)
        row = store.new_session(None, None, 0, [("golf-lamp", "golf", "lamp")], profile_id=pid)
        store.record_answer(row.id, 0, "golf-lamp", "golf", "lamp", "legal", [answer], True, True, True)
        out = export_results(store, tmp_path / "r.csv", None)
    with out.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    trainee = next(r for r in rows if r["case"] == "golf-lamp")
    assert trainee["trainee"] == "'" + name, trainee
    assert trainee["answer"] == "'" + answer
    for r in rows:
        for v in r.values():
            assert not v.startswith(("=", "+", "-", "@", "\t", "\r")), r


def test_a_plain_csv_is_unchanged(tmp_path: Path) -> None:
    with Store(tmp_path / "db.sqlite3") as store:
        pid = store.profile("Anna")
        row = store.new_session(None, None, 0, [("golf-lamp", "golf", "lamp")], profile_id=pid)
        store.record_answer(row.id, 0, "golf-lamp", "golf", "lamp", "legal", ["foul"], True, True, True)
        out = export_results(store, tmp_path / "r.csv", pid)
    (r,) = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    assert (r["trainee"], r["answer"], r["topic"]) == ("Anna", "foul", "lamp")


# --- F9 keeps the table ---------------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    from scenes.app import App
    from scenes.core.settings import Settings
    from scenes.render import make_offscreen_base

    base = make_offscreen_base((320, 240), software=True)
    settings = replace(Settings(), trainer=replace(Settings().trainer, data_dir=str(tmp_path / "data")))
    a = App(base, settings, offscreen=True)
    yield a
    a.close()
    base.destroy()


@pytest.mark.slow
def test_f9_with_a_position_of_another_table_keeps_this_one(app: Any) -> None:
    position = REPRO / "position_snooker_12ft.toml"
    pr = app.manager.switch("practice")
    m = pr.match
    before = (m.spec.id, dict(m.positions))
    assert before[0] != "snooker-12ft"
    pr.load_position(str(position))
    assert (m.spec.id, dict(m.positions)) == before
    assert str(position) in pr.status
    assert "snooker-12ft" in pr.status
    assert "\n" not in pr.status


# --- SIGTERM ------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_sigterm_in_the_window_shuts_the_worker_down_cleanly(tmp_path: Path) -> None:
    from tests.hardening.test_processes import _alive, _children

    script = tmp_path / "script.json"
    script.write_text(
        json.dumps(
            [
                {"do": "start", "game": "russian-pyramid"},
                {"do": "frames", "n": 3},
                {"do": "aim_at_rack"},
                {"do": "power", "speed": 3.0},
                {"do": "shoot"},
                {"do": "wait_rest", "timeout": 600},
                {"do": "dump", "path": str(tmp_path / "ready.json")},
                {"do": "frames", "n": 10**9},
            ]
        ),
        "utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(BILLIARDS_SCRIPT=str(script), XDG_DATA_HOME=str(tmp_path / "data"))
    app = subprocess.Popen(
        [sys.executable, "main.py", "play", "--offscreen"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    kids: set[int] = set()
    try:
        end = time.monotonic() + 600
        while not (tmp_path / "ready.json").exists():
            assert app.poll() is None, app.stderr.read() if app.stderr else ""
            assert time.monotonic() < end, "the stroke never came to rest"
            time.sleep(0.2)
        kids = _children(app.pid)
        assert kids, "the physics worker should be running"
        app.send_signal(signal.SIGTERM)
        _, err = app.communicate(timeout=60)
        assert app.returncode == 128 + signal.SIGTERM, err[-2000:]
        assert "leaked" not in err, err[-2000:]
        assert "resource_tracker" not in err, err[-2000:]
        assert "Traceback" not in err, err[-2000:]
        end = time.monotonic() + 20
        while _alive(kids) and time.monotonic() < end:
            time.sleep(0.1)
        assert not _alive(kids)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(timeout=30)
        for p in _alive(kids):
            os.kill(p, signal.SIGKILL)  # what this test found still running: never leave it behind
