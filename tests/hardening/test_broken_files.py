"""Trainer history (scenes/core/trainer/store.py, SQLite) broken in every way a disk or a user can break it:
the trainer says one line and exits 2, and the file keeps every byte. A process killed with SIGKILL
while answering loses at most the answer in flight.

Saved matches are covered in tests/scenes/test_autosave.py; settings and scenario files in
tests/test_fuzz_files.py and tests/test_settings.py.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from scenes.core.trainer.store import Store, default_path

ROOT = Path(__file__).resolve().parents[2]


def _history(data_home: Path, *extra: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "main.py", "--lang", "en", "train", "--text", *extra],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        input=stdin,
    )


def _db(tmp_path: Path) -> Path:
    path = default_path(tmp_path / "billiards3d")
    with Store(path) as s:
        sid = s.new_session(
            "russian-pyramid",
            None,
            1,
            [("case-a", "russian-pyramid", "jump"), ("case-b", "russian-pyramid", "jump")],
        )
        s.record_answer(sid.id, 0, "case-a", "russian-pyramid", "jump", "foul", ["yes"], True, True, False)
    # Fold the WAL into the main file so the file alone is the whole history.
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path


def _sql(path: Path, stmt: str) -> None:
    con = sqlite3.connect(path)
    con.execute(stmt)
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def _digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


BREAKERS: dict[str, Callable[[Path], None]] = {
    "truncated to 100 bytes": lambda p: p.write_bytes(p.read_bytes()[:100]),
    "truncated mid-page": lambda p: p.write_bytes(p.read_bytes()[: 4096 + 1000]),
    "text in UTF-16": lambda p: p.write_bytes("история тренировок".encode("utf-16")),
    "zeros (a huge preallocated file)": lambda p: p.write_bytes(b"\0" * (8 * 1024 * 1024)),
    "another program's SQLite": lambda p: (p.unlink(), _sql(p, "CREATE TABLE notes (x TEXT)")),
    "a newer schema": lambda p: _sql(p, "PRAGMA user_version = 99"),
}


@pytest.mark.parametrize("case", sorted(BREAKERS))
def test_broken_history_says_one_line_exits_2_and_keeps_the_file(tmp_path: Path, case: str) -> None:
    path = _db(tmp_path)
    BREAKERS[case](path)
    before = _digest(path)
    r = _history(tmp_path, "--history")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"error: {path}"), r.stderr
    assert _digest(path) == before


# Rows a hand edit or a bug could leave: wrong types and unknown ids inside a well-formed database.
ROW_BREAKERS = {
    "items not JSON": "UPDATE sessions SET items = 'case-a, case-b'",
    "items of the wrong shape": "UPDATE sessions SET items = '[1, 2, 3]'",
    "unknown case ids": 'UPDATE sessions SET items = \'[["no-such-case", "chess", "jump"]]\'',
    "position a string": "UPDATE sessions SET position = 'two'",
    "huge position": "UPDATE sessions SET position = 9223372036854775807",
    "answer not JSON": "UPDATE answers SET answer = '{'",
}


# Regression (repro in tests/hardening/repro/trainer_damaged_rows.py): store.py once turned these rows into
# json/int errors that main.py reported as "internal error" with exit 1; rows are now checked column by column.


@pytest.mark.parametrize("case", sorted(ROW_BREAKERS))
def test_damaged_rows_never_crash_the_trainer(tmp_path: Path, case: str) -> None:
    """Resuming a session over damaged rows: either the trainer copes (exit 0) or it refuses in one
    line with exit 2; never an internal error (exit 1) or a traceback, and the rows stay as they were."""
    path = _db(tmp_path)
    _sql(path, ROW_BREAKERS[case])
    con = sqlite3.connect(path)
    rows_before = (
        con.execute("SELECT * FROM sessions").fetchall(),
        con.execute("SELECT * FROM answers").fetchall(),
    )
    con.close()
    for args in (("--history",), ("--cases", "2")):
        r = _history(tmp_path, *args, stdin="")
        assert r.returncode in (0, 2), (case, args, r.returncode, r.stderr[-1500:])
        assert "Traceback" not in r.stderr
        if r.returncode == 2:
            assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    con = sqlite3.connect(path)
    rows_after = (
        con.execute("SELECT * FROM sessions").fetchall(),
        con.execute("SELECT * FROM answers").fetchall(),
    )
    con.close()
    assert rows_after[0][0][4:6] == rows_before[0][0][4:6]
    assert rows_after[1][:1] == rows_before[1][:1]


WRITER = textwrap.dedent("""
    import sys
    from scenes.core.trainer.store import Store
    with Store(sys.argv[1]) as s:
        n = 100000
        sid = s.new_session(None, None, 1, [(f"c{i}", "snooker", "jump") for i in range(n)]).id
        print("ready", flush=True)
        for i in range(n):
            s.record_answer(sid, i, f"c{i}", "snooker", "jump", "foul", ["yes"], i % 3 == 0, True, False)
            print(i + 1, flush=True)
""")


@pytest.mark.parametrize("seed", range(3))
def test_sigkill_while_answering_loses_at_most_the_answer_in_flight(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "trainer.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(random.Random(seed).uniform(0.05, 0.8))
    proc.send_signal(signal.SIGKILL)
    acks = [int(x) for x in proc.stdout.read().split()]
    proc.wait(timeout=30)
    acked = acks[-1] if acks else 0
    with Store(path) as s:
        row = s.unfinished()
        assert row is not None
        n = len(s.answers(row.id))
        assert acked <= n <= acked + 1
        assert row.position == n
