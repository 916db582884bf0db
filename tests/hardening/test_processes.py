"""Worker processes die with the app (issue 17 §3).

Before: the window's physics worker (a spawned ProcessPoolExecutor process) and multiprocessing's resource
tracker outlived a SIGKILL of the app, one pair more for every killed window.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            parents[int(d.name)] = int(fields[1])
    out: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - out
        out |= frontier
    return out


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for p in pids:
        try:
            state = Path(f"/proc/{p}/stat").read_text()
        except OSError:
            continue
        if state[state.rindex(")") + 2] != "Z":
            alive.add(p)
    return alive


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_the_physics_worker_and_the_resource_tracker_die_with_a_killed_app(tmp_path: Path) -> None:
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
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=30)
        end = time.monotonic() + 20
        while _alive(kids) and time.monotonic() < end:
            time.sleep(0.1)
        assert not _alive(kids), [
            Path(f"/proc/{p}/cmdline").read_text().replace("\0", " ") for p in _alive(kids)
        ]
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(timeout=30)
        for p in _alive(kids):
            os.kill(p, signal.SIGKILL)  # what this test found still running: never leave it behind
