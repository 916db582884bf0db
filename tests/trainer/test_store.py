"""The progress store: answers survive as given, progress queries, foreign files refused untouched."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from physics.errors import InputError
from scenes.core.trainer.store import Store

ROOT = Path(__file__).resolve().parents[2]


def _fill(store: Store) -> int:
    row = store.new_session(
        "russian-pyramid", None, 7, [("a", "russian-pyramid", "lamp"), ("b", "russian-pyramid", "jump")]
    )
    store.record_answer(row.id, 0, "a", "russian-pyramid", "lamp", "legal", ["foul"], False, False, False)
    store.record_answer(
        row.id, 0, "a", "russian-pyramid", "lamp", "next", ["opponent:house"], True, True, False
    )
    store.record_answer(row.id, 1, "b", "russian-pyramid", "jump", "legal", ["legal"], True, True, True)
    return row.id


def test_answers_progress_and_weak_topics(tmp_path: Path) -> None:
    with Store(tmp_path / "t.sqlite3") as s:
        sid = _fill(s)
        assert s.session(sid).position == 2
        assert s.session(sid).finished
        assert s.session_score(sid) == (2, 3)
        by_topic = {p.key: (p.correct, p.answered) for p in s.progress("topic")}
        assert by_topic == {"jump": (1, 1), "lamp": (1, 2)}
        assert [p.key for p in s.weak_topics()] == ["lamp"]
        assert {p.key: p.answered for p in s.progress("game")} == {"russian-pyramid": 3}
    # Reopened: everything is still there (nothing kept only in memory).
    with Store(tmp_path / "t.sqlite3") as s:
        assert s.session_score(sid) == (2, 3)
        assert s.unfinished() is None
        assert [a[1] for a in s.answers(sid, 0)] == ["legal", "next"]


def test_position_moves_only_when_a_case_is_complete(tmp_path: Path) -> None:
    with Store(tmp_path / "t.sqlite3") as s:
        row = s.new_session(None, None, 0, [("a", "snooker", "jump"), ("b", "snooker", "lamp")])
        s.record_answer(row.id, 0, "a", "snooker", "jump", "legal", ["foul"], True, False, False)
        assert s.session(row.id).position == 0
        un = s.unfinished()
        assert un is not None
        assert un.id == row.id
        # The same question twice in one case is refused by the schema (no double counting on resume),
        # in one line naming the session.
        with pytest.raises(InputError, match="another trainer answered it"):
            s.record_answer(row.id, 0, "a", "snooker", "jump", "legal", ["legal"], False, False, False)
        assert s.session_score(row.id) == (1, 1)


@pytest.mark.parametrize("content", [b"not a database at all\n" * 10, b"SQLite format 3\x00" + b"\x00" * 50])
def test_foreign_file_is_refused_untouched(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "trainer.sqlite3"
    p.write_bytes(content)
    with pytest.raises(InputError) as err:
        Store(p)
    assert err.value.key == "database"
    assert str(p) in err.value.line()
    assert p.read_bytes() == content
    assert not (tmp_path / "trainer.sqlite3-wal").exists()


def test_other_programs_sqlite_is_refused_untouched(tmp_path: Path) -> None:
    p = tmp_path / "trainer.sqlite3"
    conn = sqlite3.connect(p)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.commit()
    conn.close()
    before = p.read_bytes()
    with pytest.raises(InputError):
        Store(p)
    assert p.read_bytes() == before


def test_corrupt_database_one_line_exit_2(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "trainer.sqlite3").write_bytes(b"\x00garbage" * 100)
    settings = tmp_path / "settings.toml"
    settings.write_text(f'[trainer]\ndata_dir = "{data}"\n[language]\nui = "en"\n', encoding="utf-8")
    r = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--settings", str(settings), "train", "--history"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "trainer.sqlite3" in lines[0]
    assert "database" in lines[0]
    assert (data / "trainer.sqlite3").read_bytes() == b"\x00garbage" * 100


def test_answers_the_disk_takes_at_once_raise_no_warning(tmp_path: Path) -> None:
    """``warn`` is for answers the disk refused; a plain answer saved at once says nothing (the text trainer
    printed "The waiting answers are saved now." after every answer)."""
    said: list[tuple[int, str]] = []
    with Store(tmp_path / "t.sqlite3") as s:
        s.warn = lambda waiting, why: said.append((waiting, why))
        _fill(s)
    assert said == []
