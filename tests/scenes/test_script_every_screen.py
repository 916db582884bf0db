"""Issue 26 §5: every screen answers every script action, or refuses it in one line (the script file's
InputError naming the action): ``dump`` on the menu crashed, and ``trainer_start`` with a ``profile`` from the
trainer's score page crashed on a destroyed label (``DirectLabel ... _optionInfo``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from physics.errors import InputError
from scenes.core.script import ACTIONS

# One valid form of every action a screen (not the app) carries out; the app's own ones switch screens.
APP_LEVEL = {
    "menu",
    "start",
    "practice",
    "replay",
    "quit",
    "frames",
    "wait",
    "wait_rest",
    "screenshot",
    "key",
}
SAMPLES: dict[str, dict[str, Any]] = {
    "dump": {"path": "PATH/dump.json"},
    "aim": {"direction": 10.0},
    "aim_at": {"at": [0.0, 0.0]},
    "aim_at_rack": {},
    "power": {"speed": 1.0},
    "tip": {"x": 0.1, "y": 0.0},
    "elevation": {"degrees": 5.0},
    "call": {},
    "place_cue": {"at": [0.0, 0.0]},
    "confirm_place": {},
    "speed": {"x": 2.0},
    "decide": {},
    "camera": {"mode": "top"},
    "undo": {},
    "save": {"path": "PATH/pos.json"},
    "preview": {},
    "pause": {},
    "slower": {},
    "faster": {},
    "step": {},
    "seek": {"t": 0.5},
    "scrub": {"frac": 0.5},
    "choose": {"index": 999},
    "trainer_answer": {},
    "trainer_moment": {},
    "trainer_panel": {},
    "trainer_pick": {},
}
# Left out on purpose: shoot/load/export/back/trainer_start/next/history/variations are walked in their own
# tests (they simulate, write a video or leave the screen).
SKIP = {
    "shoot",
    "load",
    "export",
    "back",
    "trainer_start",
    "trainer_next",
    "trainer_history",
    "trainer_variations",
}


def _run(app: Any, actions: list[dict[str, Any]], frames: int = 200) -> None:
    from scenes.app import ScriptRunner

    runner = ScriptRunner(app, actions, file="s.json")
    for _ in range(frames):
        if not runner.step(1 / 60):
            return
        app.base.taskMgr.step()


def test_the_samples_cover_every_screen_action() -> None:
    assert set(ACTIONS) - APP_LEVEL - SKIP == set(SAMPLES)


def _walk(app: Any, tmp_path: Path, screen: str) -> list[str]:
    """Every sample action on ``screen`` (opened afresh when an action left it): what each one did."""
    out = []
    for do, args in SAMPLES.items():
        if app.manager.current is None or app.manager.current.name != screen:
            app.manager.switch(screen)
        action = {
            "do": do,
            **{k: (v.replace("PATH", str(tmp_path)) if isinstance(v, str) else v) for k, v in args.items()},
        }
        try:
            _run(app, [action])
            out.append(f"{do}: done")
        except InputError as exc:
            line = exc.line()
            assert "\n" not in line, line
            assert exc.file == "s.json", line
            assert exc.key.startswith("actions[0]"), line
            out.append(f"{do}: refused")
    return out


@pytest.mark.parametrize("screen", ["menu", "trainer", "archive", "drills", "play", "practice"])
def test_every_screen_answers_every_action_or_refuses_it_in_one_line(
    app: Any, tmp_path: Path, screen: str
) -> None:
    done = _walk(app, tmp_path, screen)
    assert "dump: done" in done, done
    dumped = json.loads((tmp_path / "dump.json").read_text(encoding="utf-8"))
    assert dumped["screen"] == screen


def test_a_trainee_named_from_the_score_page_starts_the_next_session(app: Any, tmp_path: Path) -> None:
    app.manager.switch("trainer")
    scr = app.manager.current
    _run(app, [{"do": "trainer_start", "topic": "jump", "cases": 1, "profile": "Anna"}], frames=600)
    _run(app, [{"do": "trainer_answer"}], frames=50)
    _run(app, [{"do": "trainer_next"}], frames=50)
    assert scr.phase == "score", scr.phase
    _run(app, [{"do": "trainer_start", "topic": "jump", "cases": 1, "profile": "Boris"}], frames=50)
    assert scr.profile == "Boris", scr.phase
    assert scr.phase in ("watch", "answer"), scr.phase


def test_the_trainer_in_a_session_answers_every_action_or_refuses_it(app: Any, tmp_path: Path) -> None:
    app.manager.switch("trainer")
    scr = app.manager.current
    _run(app, [{"do": "trainer_start", "topic": "jump", "cases": 2, "profile": "Anna"}], frames=600)
    assert scr.phase in ("watch", "answer"), scr.phase
    done = _walk(app, tmp_path, "trainer")
    assert "seek: done" in done, done
    assert "pause: done" in done, done
