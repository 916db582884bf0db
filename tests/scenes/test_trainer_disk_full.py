"""The trainer window on a disk that refuses its answers (issue 17 §3, second pass).

Before: the window's trainer kept the refused answers in memory without a word (only the terminal trainer
warned), so a trainee closing it lost them unknowingly. Now the case's header says they are not saved and
clears when the disk takes them.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from scenes.core.settings import Settings


class _Full:
    """The store's connection with every write refused as SQLite refuses it on a full disk."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def execute(self, sql: str, *args: object) -> object:
        if sql.startswith(("INSERT", "UPDATE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)


@pytest.fixture()
def app(offscreen_base: Any, tmp_path: Path) -> Any:
    from scenes.app import App

    s = Settings()
    settings = replace(
        s, trainer=replace(s.trainer, data_dir=str(tmp_path / "data")), language=replace(s.language, ui="en")
    )
    a = App(offscreen_base, settings, offscreen=True)
    yield a
    a.close()


def test_refused_answers_are_said_in_the_window_until_the_disk_takes_them(app: Any) -> None:
    scr = app.manager.switch("trainer")
    scr.script_action({"do": "trainer_start", "topic": "lamp", "cases": 2, "seed": 0})
    for _ in range(3):
        app.base.taskMgr.step()
    real = scr.store.conn
    scr.store.conn = _Full(real)
    scr.script_action({"do": "trainer_answer", "correct": True})
    d = scr.dump()
    assert d["phase"] == "verdict"
    assert "not saved (database or disk is full)" in d["disk"], d["disk"]
    assert "kept" in d["disk"]
    scr.store.conn = real
    scr.script_action({"do": "trainer_next"})
    scr.script_action({"do": "trainer_answer", "correct": True})
    d2 = scr.dump()
    # saved now, with the new ones, and the session went on
    assert d2["disk"] == ""
    assert d2["index"] == 1
    with sqlite3.connect(scr.store.path) as db:
        (n,) = db.execute("SELECT COUNT(*) FROM answers WHERE session_id = ?", (d2["session"],)).fetchone()
    assert n == len(d["answers"]) + len(d2["answers"])
    app.manager.switch("menu")
