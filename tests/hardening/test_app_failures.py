"""The window's failures below the file boundary (issue 17, second pass): the physics worker and the script.

Found by doing what a user (or a test script) does: a BILLIARDS_SCRIPT call of pocket "kitchen" made the
worker's InputError unpicklable on its way back (BrokenProcessPool, an internal error with a traceback).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from physics.errors import InputError
from physics.files import WriteError

ROOT = Path(__file__).resolve().parents[2]


def _refuse() -> None:
    raise InputError("simulate()", "shot.call.pocket", "a pocket of pyramid-12ft")


@pytest.mark.parametrize(
    "exc",
    [
        InputError("f.toml", "balls.cue", "two numbers"),
        WriteError("out.json", "--json", "No space left on device"),
    ],
)
def test_input_errors_survive_pickling(exc: InputError) -> None:
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is type(exc)
    assert back.line() == exc.line()
    assert str(back) == str(exc)


def test_an_input_error_in_the_worker_reaches_the_app_as_itself() -> None:
    with ProcessPoolExecutor(max_workers=1) as pool:
        with pytest.raises(InputError) as got:
            pool.submit(_refuse).result(timeout=60)
    assert got.value.key == "shot.call.pocket"


def _sleep_then(value: int) -> int:
    import time

    time.sleep(0.5)
    return value


def _pid() -> int:
    import os

    return os.getpid()


def test_a_killed_worker_is_replaced_and_its_job_run_again() -> None:
    """Before: a physics worker killed under a stroke (kill -9, the out-of-memory killer) stopped the app
    with BrokenProcessPool and a traceback at the next look at the job."""
    import os
    import signal

    from scenes.app import physics_executor

    worker = physics_executor()
    try:
        first = worker.submit(_pid).result(timeout=120)
        job = worker.submit(_sleep_then, 7)
        os.kill(first, signal.SIGKILL)
        assert job.result(timeout=120) == 7  # the job ran again in a new worker
        assert worker.restarts == 1
        second = worker.submit(_pid).result(timeout=120)
        assert second != first
        os.kill(second, signal.SIGKILL)  # killed between two jobs: the next submit starts a new one
        import time

        time.sleep(1.0)
        assert worker.submit(_sleep_then, 8).result(timeout=120) == 8
    finally:
        worker.shutdown(wait=True, cancel_futures=True)


@pytest.mark.slow
def test_a_script_action_the_app_cannot_carry_out_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """Through main.py as a user runs it: no Panda3D traceback, no 'internal error', no leaked semaphores of
    a worker left to the interpreter's exit."""
    script = tmp_path / "s.json"
    actions = [{"do": "start", "game": "russian-pyramid"}, {"do": "frames", "n": 2}]
    script.write_text(json.dumps([*actions, {"do": "call", "ball": "1", "pocket": "kitchen"}]), "utf-8")
    env = {**os.environ, "BILLIARDS_SCRIPT": str(script), "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("DISPLAY", None)
    r = subprocess.run(
        [sys.executable, "main.py", "--lang", "en", "play", "--offscreen", "--out", str(tmp_path / "o.png")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().splitlines() == [
        f"error: {script}: actions[2].pocket: a pocket of pyramid-12ft (head-left, head-right, middle-left, "
        "middle-right, foot-left, foot-right)"
    ], r.stderr
