"""Results out (CSV, JSON) and back in (a round trip onto another machine's database); case packs in, checked
like any scenario file and judged by the referee; an old (version 1) database brought up to date with
nothing lost; progress plots; trainee profiles kept apart."""

from __future__ import annotations

import csv
import json
import sqlite3
import subprocess
import sys
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from physics.errors import InputError
from scenes.core.settings import Settings
from scenes.core.trainer.cases import CASES_DIR, user_cases_dir
from scenes.core.trainer.packs import export_results, import_pack, import_results, results
from scenes.core.trainer.store import SCHEMA_VERSION, Store

ROOT = Path(__file__).resolve().parents[2]


def _fill(store: Store) -> None:
    anna, boris = store.profile("Anna"), store.profile("Boris")
    row = store.new_session(
        "snooker",
        None,
        3,
        [("snooker-jump-over-blocker", "snooker", "jump"), ("snooker-chalk", "snooker", "chalk")],
        profile_id=anna,
    )
    store.record_answer(
        row.id,
        0,
        "snooker-jump-over-blocker",
        "snooker",
        "jump",
        "legal",
        ["foul"],
        True,
        False,
        False,
        weight=3.0,
        expected=["foul"],
        seconds=4.5,
    )
    store.record_answer(
        row.id,
        0,
        "snooker-jump-over-blocker",
        "snooker",
        "jump",
        "next",
        ["opponent:d"],
        False,
        True,
        False,
        weight=3.0,
        expected=["striker:none"],
        seconds=9.0,
    )
    ex = store.new_session("golf", None, 1, [("golf-lamp", "golf", "lamp")], profile_id=boris, kind="exam")
    store.record_answer(
        ex.id,
        0,
        "golf-lamp",
        "golf",
        "lamp",
        "legal",
        ["legal"],
        True,
        True,
        True,
        weight=3.0,
        expected=["legal"],
    )
    eid = store.new_exam(ex.id, "golf", 120, 2, 80)
    store.finish_exam(eid, 100.0, True, None)


def test_export_csv_json_and_round_trip(tmp_path: Path) -> None:
    with Store(tmp_path / "a.sqlite3") as a:
        _fill(a)
        anna = a.profile("Anna")
        csv_path = export_results(a, tmp_path / "anna.csv", anna)
        with csv_path.open(encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert [r["question"] for r in rows] == ["legal", "next"]
        assert {r["trainee"] for r in rows} == {"Anna"}
        assert rows[1]["right_answer"] == "striker:none"
        assert rows[1]["correct"] == "0"
        assert rows[1]["weight"] == "3"
        everyone = export_results(a, tmp_path / "all.json", None)
        before = results(a, None)
    with Store(tmp_path / "b.sqlite3") as b:
        b.profile("Vera")
        assert import_results(b, everyone) == 3
        after = results(b, None)
    strip = lambda d: [  # noqa: E731 - ids and dates are the new machine's own
        (t["name"], [({k: v for k, v in s.items() if k not in ("id", "created")},) for s in t["sessions"]])
        for t in d["trainees"]
        if t["sessions"]
    ]
    for d in (before, after):
        for t in d["trainees"]:
            for s in t["sessions"]:
                if s["exam"] is not None:
                    s["exam"].pop("finished")
                for x in s["answers"]:
                    x.pop("at")
    assert strip(after) == strip(before)
    with pytest.raises(InputError) as err:
        export_results(Store(tmp_path / "c.sqlite3"), tmp_path / "x.txt", None)
    assert err.value.key == str(tmp_path / "x.txt") or "csv" in err.value.expected


def test_results_keep_their_dates_and_import_once(tmp_path: Path) -> None:
    """A trainee moving to another machine keeps when each session and answer was given (the progress over
    time), and importing the same file again adds nothing (it doubled every session)."""
    with Store(tmp_path / "a.sqlite3") as a:
        _fill(a)
        path = export_results(a, tmp_path / "all.json", None)
        before = results(a, None)
    data = json.loads(path.read_text(encoding="utf-8"))
    for t in data["trainees"]:
        for s in t["sessions"]:
            s["created"] = "2025-03-04T05:06:07Z"
            for x in s["answers"]:
                x["at"] = "2025-03-04T05:07:00Z"
    path.write_text(json.dumps(data), encoding="utf-8")
    with Store(tmp_path / "b.sqlite3") as b:
        assert import_results(b, path) == 3
        assert import_results(b, path) == 0
        after = results(b, None)
    sessions = [s for t in after["trainees"] for s in t["sessions"]]
    assert len(sessions) == len([s for t in before["trainees"] for s in t["sessions"]])
    assert {s["created"] for s in sessions} == {"2025-03-04T05:06:07Z"}
    assert {x["at"] for s in sessions for x in s["answers"]} == {"2025-03-04T05:07:00Z"}


def test_bad_results_file_is_one_line_and_imports_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "a.sqlite3") as a:
        _fill(a)
        path = export_results(a, tmp_path / "r.json", None)
    data = json.loads(path.read_text(encoding="utf-8"))
    k = next(i for i, t in enumerate(data["trainees"]) if t["name"] == "Anna")
    data["trainees"][k]["sessions"][0]["answers"][1]["weight"] = "heavy"
    path.write_text(json.dumps(data), encoding="utf-8")
    with Store(tmp_path / "b.sqlite3") as b:
        with pytest.raises(InputError) as err:
            import_results(b, path)
        assert err.value.file == str(path)
        assert err.value.key.endswith("answers[1].weight")
        assert b.answer_rows() == []


def _pack(tmp: Path, ids: list[str]) -> Path:
    d = tmp / "pack"
    d.mkdir()
    for cid in ids:
        text = (CASES_DIR / f"{cid}.toml").read_text(encoding="utf-8")
        (d / f"club-{cid}.toml").write_text(text, encoding="utf-8")
    return d


def test_case_pack_is_checked_and_joins_the_library(tmp_path: Path) -> None:
    settings = replace(Settings(), trainer=replace(Settings().trainer, data_dir=str(tmp_path / "data")))
    pack = _pack(tmp_path, ["pyramid-hanging-after-5s", "pool-hanging-drops-on-arrival"])
    written = import_pack(pack, settings)
    assert sorted(p.name for p in written) == [
        "club-pool-hanging-drops-on-arrival.toml",
        "club-pyramid-hanging-after-5s.toml",
    ]
    assert all(p.parent == user_cases_dir(settings) for p in written)
    # Again: the ids are taken now; nothing more is written.
    with pytest.raises(InputError) as err:
        import_pack(pack, settings)
    assert "club-" in err.value.file
    # A zip whose case teaches a ruling the referee does not give: refused with the file and the key.
    bad = tmp_path / "bad.toml"
    text = (CASES_DIR / "snooker-hanging-after-5s.toml").read_text(encoding="utf-8")
    bad.write_text(text.replace("next_player = 1", "next_player = 0"), encoding="utf-8")
    z = tmp_path / "pack.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.write(bad, "cases/club-bad.toml")
    with pytest.raises(InputError) as err:
        import_pack(z, settings)
    assert err.value.file.endswith("club-bad.toml")
    assert err.value.key == "expected.snooker.next_player"
    assert not (user_cases_dir(settings) / "club-bad.toml").exists()
    # A file that is not a case at all.
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "x.toml").write_text("title = 3\n", encoding="utf-8")
    with pytest.raises(InputError):
        import_pack(tmp_path / "junk", settings)


def test_import_command_line(tmp_path: Path) -> None:
    settings = tmp_path / "s.toml"
    settings.write_text(
        f'[trainer]\ndata_dir = "{tmp_path / "d"}"\n[language]\nui = "en"\n', encoding="utf-8"
    )
    pack = _pack(tmp_path, ["golf-hanging-before-5s"])
    cmd = [sys.executable, str(ROOT / "main.py"), "--settings", str(settings), "train"]
    r = subprocess.run([*cmd, "--import", str(pack)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "1 case imported" in r.stdout, r.stderr
    r = subprocess.run(
        [*cmd, "--import", str(tmp_path / "nope.zip")], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "nope.zip" in r.stderr
    r = subprocess.run(
        [*cmd, "--export", str(tmp_path / "out.xlsx")], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert r.returncode == 2
    assert ".csv or .json" in r.stderr
    r = subprocess.run(
        [*cmd, "--history", "--plot", str(tmp_path / "p.png"), "--profile", "Gleb"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG", r.stderr
    assert "Trainee: Gleb" in r.stdout


V1 = """
CREATE TABLE sessions (id INTEGER PRIMARY KEY, created TEXT NOT NULL DEFAULT 'x', game TEXT, topic TEXT,
 seed INTEGER NOT NULL, items TEXT NOT NULL, position INTEGER NOT NULL DEFAULT 0, finished INTEGER NOT NULL DEFAULT 0);
CREATE TABLE answers (id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id), item INTEGER NOT NULL,
 case_id TEXT NOT NULL, game TEXT NOT NULL, topic TEXT NOT NULL, question TEXT NOT NULL, answer TEXT NOT NULL,
 correct INTEGER NOT NULL, at TEXT NOT NULL DEFAULT 'y', UNIQUE (session_id, item, question));
INSERT INTO sessions (id, game, topic, seed, items, position, finished) VALUES
 (1, 'snooker', NULL, 0, '[["a", "snooker", "jump"]]', 1, 1);
INSERT INTO answers (session_id, item, case_id, game, topic, question, answer, correct) VALUES
 (1, 0, 'a', 'snooker', 'jump', 'legal', '["foul"]', 1),
 (1, 0, 'a', 'snooker', 'jump', 'counted', '["none"]', 1),
 (1, 0, 'a', 'snooker', 'jump', 'next', '["striker:none"]', 0);
PRAGMA application_id = 1112099924;
PRAGMA user_version = 1;
"""


def test_version_1_database_is_brought_up_to_date(tmp_path: Path) -> None:
    db = tmp_path / "trainer.sqlite3"
    conn = sqlite3.connect(db)
    conn.executescript(V1)
    conn.close()
    with Store(db) as s:
        assert int(s.conn.execute("PRAGMA user_version").fetchone()[0]) == SCHEMA_VERSION
        assert s.profiles() == ["default"]
        (row,) = s.sessions()
        assert row.profile_id == 1
        assert row.kind == "practice"
        assert row.finished
        rows = s.answer_rows()
        assert [(r.question, r.weight) for r in rows] == [
            ("legal", 3.0),
            ("counted", pytest.approx(2 / 3)),
            ("next", 3.0),
        ]
        assert all(r.expected is None for r in rows)
        assert s.session_points(1) == (pytest.approx(3 + 2 / 3), pytest.approx(6 + 2 / 3))
        assert s.session_score(1) == (2, 3)


def test_profiles_keep_their_own_progress(tmp_path: Path) -> None:
    with Store(tmp_path / "t.sqlite3") as s:
        _fill(s)
        anna, boris = s.profile("Anna"), s.profile("Boris")
        assert [p.key for p in s.progress("topic", profile_id=anna)] == ["jump"]
        assert [p.key for p in s.progress("topic", profile_id=boris)] == ["lamp"]
        assert s.unfinished(anna) is not None
        assert s.unfinished(boris) is None
        assert s.exams(boris)[0].passed
        assert s.exams(anna) == []
        with pytest.raises(InputError):
            s.profile("x" * 41)


def test_version_1_database_reads_without_writing(tmp_path: Path) -> None:
    """`train --history` opens the database read-only: an old one is read as it is, through views."""
    db = tmp_path / "trainer.sqlite3"
    conn = sqlite3.connect(db)
    conn.executescript(V1)
    conn.close()
    before = db.read_bytes()
    with Store(db, readonly=True) as s:
        assert s.profiles() == ["default"]
        assert s.profile_id("default") == 1
        assert s.profile_id("Nobody") == -1
        assert [r.weight for r in s.answer_rows(profile_id=1)] == [3.0, pytest.approx(2 / 3), 3.0]
        assert s.session_points(1) == (pytest.approx(3 + 2 / 3), pytest.approx(6 + 2 / 3))
        assert [p.key for p in s.progress("topic", profile_id=1)] == ["jump"]
        assert s.exams(1) == []
    assert db.read_bytes() == before
    conn = sqlite3.connect(db)
    assert int(conn.execute("PRAGMA user_version").fetchone()[0]) == 1
    conn.close()
