"""Sessions: a scripted trainee answering right scores 100 %, answering wrong gets the explanation, and a
session killed (SIGKILL) after k answers resumes with nothing lost."""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from physics.errors import InputError
from scenes.core.settings import Settings, Trainer
from scenes.core.trainer.cases import load_library
from scenes.core.trainer.session import Session, plan
from scenes.core.trainer.store import Store
from scenes.core.trainer.text import run_text_session

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = load_library()
# Recorded strokes (hanging balls) need no simulation: the kill test stays quick.
TOPIC = "hanging-after-5s"


def _answers(
    settings: Settings, game: str | None, topic: str | None, n: int, seed: int, right: bool
) -> list[str]:
    """The lines a scripted trainee types: the referee's answers (or a wrong option for each question)."""
    with Store(":memory:") as scratch:
        session = Session.start(scratch, LIBRARY, settings, game, topic, n, seed)
        lines: list[str] = []
        for i in range(len(session.items)):
            for q in session.run(i).questions:
                if right:
                    lines.append(q.format(q.correct))
                else:
                    wrong = next(frozenset({k}) for k in q.keys() if frozenset({k}) != q.correct)
                    lines.append(q.format(wrong))
    return lines


def _reader(lines: list[str]):  # type: ignore[no-untyped-def]
    it = iter(lines)
    return lambda: next(it, None)


@pytest.mark.parametrize("game", ["russian-pyramid", "snooker", None])
def test_right_answers_score_100_percent(tmp_path: Path, game: str | None) -> None:
    settings = replace(Settings(), trainer=Trainer(data_dir=str(tmp_path)))
    lines = _answers(settings, game, TOPIC, 3, 5, right=True)
    out = io.StringIO()
    with Store(tmp_path / "t.sqlite3") as store:
        session = Session.start(store, LIBRARY, settings, game, TOPIC, 3, 5)
        assert run_text_session(session, "en", _reader(lines), out)
        right, asked = session.score()
        assert asked == len(lines)
        assert right == asked
        assert session.finished()
        assert not session.weak_topics()
    assert "Score: " in out.getvalue()
    assert "(100 %)" in out.getvalue()


def test_wrong_answers_get_the_explanation(tmp_path: Path) -> None:
    settings = replace(Settings(), trainer=Trainer(data_dir=str(tmp_path)))
    lines = _answers(settings, "russian-pyramid", TOPIC, 1, 0, right=False)
    out = io.StringIO()
    with Store(tmp_path / "t.sqlite3") as store:
        session = Session.start(store, LIBRARY, settings, "russian-pyramid", TOPIC, 1, 0)
        run = session.run(0)
        run_text_session(session, "en", _reader(lines), out)
        assert session.score() == (0, len(lines))
        assert [w.key for w in session.weak_topics()] == [TOPIC]
    text = out.getvalue()
    assert text.count("Wrong. The answer: ") == len(lines)
    # The explanation names the rule (a foul's own, or the legal note's reference).
    assert "Referee's ruling" in text
    assert "[" in text.split("Referee's ruling", 1)[1]
    assert run.case.title["en"] in text


def test_plan_is_seeded_and_validates() -> None:
    a = plan(LIBRARY, None, None, 10, 3)
    assert a == plan(LIBRARY, None, None, 10, 3)
    assert len(a) == 10
    assert len({(i.case_id, i.game) for i in a}) == 10
    with pytest.raises(InputError):
        plan(LIBRARY, "chess", None, 5, 0)
    with pytest.raises(InputError):
        plan(LIBRARY, None, "nonsense", 5, 0)


def _count(db: Path) -> int:
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


def test_killed_session_resumes_with_nothing_lost(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text(f'[trainer]\ndata_dir = "{data}"\n[language]\nui = "en"\n', encoding="utf-8")
    settings = replace(Settings(), trainer=Trainer(data_dir=str(data)))
    n_cases, seed = 3, 11
    lines = _answers(settings, None, TOPIC, n_cases, seed, right=True)
    k = len(lines) // 2 + 1  # mid-way through a case: that case is partly answered
    cmd = [
        sys.executable,
        str(ROOT / "main.py"),
        "--settings",
        str(settings_file),
        "train",
        "--text",
        "--topic",
        TOPIC,
        "--cases",
        str(n_cases),
        "--seed",
        str(seed),
    ]
    db = data / "trainer.sqlite3"
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, text=True
    )
    assert proc.stdin is not None
    for i, line in enumerate(lines[:k]):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while _count(db) < i + 1:  # wait for the answer to be committed (a wait, not a timing assert)
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the answer was never stored"
            time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert _count(db) == k

    r = subprocess.run(
        cmd, input="\n".join(lines[k:]) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert r.returncode == 0, r.stderr
    assert "resumed" in r.stdout
    with Store(db) as store:
        sessions = store.sessions()
        assert len(sessions) == 1
        assert sessions[0].finished
        answers = store.answers(sessions[0].id)
        assert len(answers) == len(lines)
        assert len({(i, q) for i, q, _a, _c in answers}) == len(lines)
        assert store.session_score(sessions[0].id) == (len(lines), len(lines))
