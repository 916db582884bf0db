"""Nothing stored is ever lost or half-written, and imports check meaning before they are accepted (issue 28
§1, §2).

Before: a results import wrote answer by answer, so a full disk part way stored 8 of 800 and the re-import
skipped the broken session (798 of 800), a SIGKILL left 5,998 of 6,000, and a refused file (a blank second
trainee, ``exam.score = "abc"``, ``seconds_per_case = 10**400``) had already stored its first answers; unknown
game, topic and case ids were imported (after which ``train --history`` failed for good), ``"passed": "no"``
with a score of 10 against a pass mark of 80 was stored as a pass, ``seed = 10**20`` and ``[`` nested 200,000
deep were internal errors; a zip with an encrypted member or an unsupported compression method was an
internal error. A video was written straight into its target (a kill or a stop left a broken file in place of
the old one, and the window's export left a stray ``.toml``), and an exam whose report could not be written
lost its score.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import sqlite3
import struct
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from physics.errors import InputError
from scenes.core.trainer.packs import import_results
from scenes.core.trainer.store import Store
from tests.hardening.test_environment import _fill

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "assets" / "cases" / "pyramid-lamp.toml"
QUESTIONS = ("legal", "next", "counted", "respot", "off_table")


def _library() -> list[tuple[str, str, str]]:
    from scenes.core.trainer.cases import load_library

    return [(c.id, c.games[0], str(c.topic)) for c in load_library()]


def results_file(path: Path, answers: int, trainees: tuple[str, ...] = ("Anna",)) -> Path:
    """An export of ``answers`` answers per trainee: sessions of 10 cases, 5 answers a case."""
    lib = _library()
    out = []
    for name in trainees:
        sessions = []
        n, k = 0, 0
        while n < answers:
            items = [list(lib[(k * 10 + i) % len(lib)]) for i in range(10)]
            got = []
            for item, (case, game, topic) in enumerate(items):
                for q in QUESTIONS:
                    if n == answers:
                        break
                    got.append(
                        {
                            "item": item,
                            "case": case,
                            "game": game,
                            "topic": topic,
                            "question": q,
                            "answer": ["foul"],
                            "expected": ["foul"],
                            "correct": True,
                            "weight": 3.0,
                            "seconds": 4.0,
                            "at": "2026-11-01T10:00:00Z",
                        }
                    )
                    n += 1
            sessions.append(
                {
                    "id": k + 1,
                    "created": f"2026-11-01T{k // 3600 % 24:02d}:{k // 60 % 60:02d}:{k % 60:02d}Z",
                    "kind": "practice",
                    "game": None,
                    "topic": None,
                    "seed": k,
                    "items": items,
                    "position": 10,
                    "finished": True,
                    "exam": None,
                    "answers": got,
                }
            )
            k += 1
        out.append({"name": name, "sessions": sessions})
    path.write_text(
        json.dumps({"format": "billiards3d-trainer-results", "version": 1, "trainees": out}), encoding="utf-8"
    )
    return path


def _count(db: Path) -> int:
    with Store(db) as s:
        return len(s.answer_rows())


def _settings(tmp_path: Path) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(f'[trainer]\ndata_dir = "{tmp_path / "data"}"\n[language]\nui = "en"\n', encoding="utf-8")
    return p


def _main(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "main.py", "--lang", "en", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def _one_line(r: subprocess.CompletedProcess[str]) -> str:
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert len(lines) == 1, r.stderr[-2000:]
    assert "internal error" not in lines[0], r.stderr[-2000:]
    return lines[0]


# --- §1 a results import is all or nothing ------------------------------------------------------------


class _DiskFailsAfter:
    """A connection whose disk gives out after ``n`` answers were written (SQLite's own error)."""

    def __init__(self, conn: sqlite3.Connection, n: int) -> None:
        self._conn, self._left = conn, n

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.startswith("INSERT INTO answers"):
            if self._left == 0:
                raise sqlite3.OperationalError("disk I/O error")
            self._left -= 1
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def test_a_disk_failing_part_way_stores_nothing_and_the_reimport_completes_it(tmp_path: Path) -> None:
    path = results_file(tmp_path / "r.json", 800)
    db = tmp_path / "db.sqlite3"
    with Store(db) as store:
        real = store.conn
        store.conn = _DiskFailsAfter(real, 8)  # type: ignore[assignment]
        with pytest.raises(InputError) as exc:
            import_results(store, path)
        store.conn = real
        assert exc.value.key == "database"
        assert "nothing was imported" in exc.value.expected
        assert store.answer_rows() == []
        assert store.sessions() == []
        assert import_results(store, path) == 800
        assert import_results(store, path) == 0
    assert _count(db) == 800


@pytest.mark.slow
def test_a_sigkill_part_way_through_an_import_is_completed_exactly_by_the_next(tmp_path: Path) -> None:
    """Kills spread over the start-up and the import (here about 0.25 s and 0.15 s), each into a database
    of its own: after the kill it holds none of the file or all of it, and the next import completes it."""
    path = results_file(tmp_path / "r.json", 6000)
    for i in range(10):
        folder = tmp_path / f"run{i}"
        folder.mkdir()
        settings = _settings(folder)
        db = folder / "data" / "trainer.sqlite3"
        cmd = [sys.executable, "main.py", "--settings", str(settings), "train", "--import", str(path)]
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.15 + 0.05 * i)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if db.exists():
            assert _count(db) in (0, 6000)
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        assert _count(db) == 6000


def _edit(path: Path, change: Any) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    out = path.with_name("edited.json")
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def _exam(data: dict[str, Any]) -> dict[str, Any]:
    s = data["trainees"][0]["sessions"][0]
    s["kind"] = "exam"
    s["exam"] = {
        "seconds_per_case": 120,
        "replays": 2,
        "pass_mark": 80,
        "score": 100.0,
        "passed": True,
        "finished": "2026-11-01T11:00:00Z",
    }
    return dict(s["exam"])


def _set_exam(**fields: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        _exam(data)
        data["trainees"][0]["sessions"][0]["exam"].update(fields)

    return change


def _set(where: str, value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        s = data["trainees"][0]["sessions"][0]
        if where == "seed":
            s["seed"] = value
        elif where == "game":
            s["game"] = value
        elif where == "topic":
            s["topic"] = value
        elif where == "case":
            s["items"][0][0] = value
            for a in s["answers"]:
                if a["item"] == 0:
                    a["case"] = value
        elif where == "answer.game":
            s["answers"][0]["game"] = "snooker-nine"
        elif where == "blank trainee":
            data["trainees"].append(copy.deepcopy(data["trainees"][0]) | {"name": "   "})

    return change


REFUSED = [
    ("a blank third trainee", _set("blank trainee", None), "trainees[2].name"),
    ('exam.score = "abc"', _set_exam(score="abc"), "trainees[0].sessions[0].exam.score"),
    (
        "seconds_per_case = 10**400",
        _set_exam(seconds_per_case=10**400),
        "trainees[0].sessions[0].exam.seconds_per_case",
    ),
    ("a pass mark of 0", _set_exam(pass_mark=0), "trainees[0].sessions[0].exam.pass_mark"),
    ('"passed": "no"', _set_exam(score=10.0, passed="no"), "trainees[0].sessions[0].exam.passed"),
    (
        "a pass with 10 of a mark of 80",
        _set_exam(score=10.0, passed=True),
        "trainees[0].sessions[0].exam.passed",
    ),
    (
        "a fail with 90 of a mark of 80",
        _set_exam(score=90.0, passed=False),
        "trainees[0].sessions[0].exam.passed",
    ),
    ("seed = 10**20", _set("seed", 10**20), "trainees[0].sessions[0].seed"),
    ("an unknown game", _set("game", "tiddlywinks"), "trainees[0].sessions[0].game"),
    ("an unknown topic", _set("topic", "juggling"), "trainees[0].sessions[0].topic"),
    ("an unknown case", _set("case", "club-no-such-case"), "trainees[0].sessions[0].items[0]"),
    ("an answer under another rulebook", _set("answer.game", None), "trainees[0].sessions[0].answers[0]"),
]


@pytest.mark.parametrize(("what", "change", "key"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_results_file_wrong_in_meaning_is_refused_and_writes_nothing(
    tmp_path: Path, what: str, change: Any, key: str
) -> None:
    path = _edit(results_file(tmp_path / "r.json", 60, ("Anna", "Boris")), change)
    with Store(tmp_path / "db.sqlite3") as store:
        store.profile("Vera")
        with pytest.raises(InputError) as exc:
            import_results(store, path)
        assert exc.value.file == str(path), exc.value.line()
        assert exc.value.key == key, exc.value.line()
        assert store.answer_rows() == []
        assert store.sessions() == []
        assert store.profiles() == ["default", "Vera"]


def test_a_consistent_exam_is_imported_with_its_verdict(tmp_path: Path) -> None:
    path = _edit(results_file(tmp_path / "r.json", 60), _set_exam(score=85.0, passed=True))
    with Store(tmp_path / "db.sqlite3") as store:
        assert import_results(store, path) == 60
        (e,) = store.exams()
        assert (e.score, e.passed, e.pass_mark, e.finished) == (85.0, True, 80.0, "2026-11-01T11:00:00Z")


@pytest.mark.parametrize("what", ["seed", "deep"])
def test_a_huge_seed_or_deep_nesting_through_main_is_one_line(tmp_path: Path, what: str) -> None:
    if what == "seed":
        path = _edit(results_file(tmp_path / "r.json", 5), _set("seed", 10**20))
    else:
        path = tmp_path / "deep.json"
        path.write_text("[" * 200_000, encoding="utf-8")
    line = _one_line(_main("--settings", str(_settings(tmp_path)), "train", "--import", str(path)))
    assert str(path) in line


# --- §2 case packs: members zipfile cannot read -----------------------------------------------------------


def _zip_with(tmp_path: Path, flag: int = 0, method: int | None = None) -> Path:
    """A pack of one case whose headers say encrypted (``flag`` bit 0) or name an unsupported ``method``."""
    case = (ROOT / "assets" / "cases" / "golf-lamp.toml").read_bytes()
    z = tmp_path / "pack.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("club-golf-lamp.toml", case)
    raw = bytearray(z.read_bytes())
    for sig, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # local header, central directory
        i = raw.index(sig)
        f, m = struct.unpack_from("<HH", raw, i + at)
        struct.pack_into("<HH", raw, i + at, f | flag, m if method is None else method)
    z.write_bytes(bytes(raw))
    return z


@pytest.mark.parametrize(
    ("flag", "method"), [(1, None), (0, 6), (0, 99)], ids=["encrypted", "implode", "aes"]
)
def test_a_pack_member_zipfile_cannot_read_is_one_line(tmp_path: Path, flag: int, method: int | None) -> None:
    from dataclasses import replace

    from scenes.core.settings import Settings
    from scenes.core.trainer.packs import import_pack

    z = _zip_with(tmp_path, flag, method)
    settings = replace(Settings(), trainer=replace(Settings().trainer, data_dir=str(tmp_path / "data")))
    with pytest.raises(InputError) as exc:
        import_pack(z, settings)
    assert "club-golf-lamp.toml" in exc.value.file, exc.value.line()
    assert not (tmp_path / "data" / "cases").exists() or not list((tmp_path / "data" / "cases").iterdir())


# --- §1 a video is whole or absent --------------------------------------------------------------------


def _stop_render(tmp_path: Path, sig: int) -> Path:
    """Start a video over an older clip.mp4 and send ``sig`` once frames are being written."""
    out = tmp_path / "clip.mp4"
    out.write_bytes(b"the older clip")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    cmd = [sys.executable, "main.py", "render", str(SCENARIO), "--video", str(out)]
    cmd += ["--size", "96x64", "--fps", "30", "--speed", "0.1", "--quality", "low"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        if "render:" in line and "/" in line:
            break
    time.sleep(0.5)
    proc.send_signal(sig)
    proc.wait(60)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_a_stopped_video_leaves_the_old_file_and_no_temporary(tmp_path: Path, sig: int) -> None:
    out = _stop_render(tmp_path, sig)
    assert out.read_bytes() == b"the older clip"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clip.mp4"]


@pytest.mark.slow
def test_a_killed_video_leaves_the_old_file(tmp_path: Path) -> None:
    out = _stop_render(tmp_path, signal.SIGKILL)
    assert out.read_bytes() == b"the older clip"


def test_the_next_write_removes_what_a_killed_writer_left_and_nothing_else(tmp_path: Path) -> None:
    from physics.files import atomic_path

    target = tmp_path / "clip.mp4"
    dead = tmp_path / ".clip.99999999.tmp.mp4"  # above any pid Linux hands out
    alive = tmp_path / f".clip.{os.getppid()}.tmp.mp4"  # a writer still at work
    other = tmp_path / ".other.99999999.tmp.mp4"
    for p in (dead, alive, other):
        p.write_bytes(b"partial")
    with atomic_path(target, "--video") as tmp:
        tmp.write_bytes(b"the new clip")
    assert target.read_bytes() == b"the new clip"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, other.name, "clip.mp4"])


@pytest.fixture
def record() -> Iterator[Any]:
    from rules.scenarios import load_scenario
    from scenes.core.settings import Settings
    from scenes.render import stroke_record

    yield stroke_record(load_scenario(SCENARIO), Settings())


@pytest.mark.slow
def test_leaving_the_replay_during_an_export_leaves_the_old_file_and_no_toml(
    tmp_path: Path, record: Any
) -> None:
    from scenes.core.settings import Settings
    from scenes.video import ExportJob

    out = tmp_path / "videos" / "stroke-1.mp4"
    out.parent.mkdir()
    out.write_bytes(b"the older clip")
    job = ExportJob(record, Settings(), out, size="96x64", quality="low")
    deadline = time.monotonic() + 120
    while job.progress == 0.0 and time.monotonic() < deadline and not job.poll():
        time.sleep(0.1)
    job.cancel()
    assert out.read_bytes() == b"the older clip"
    assert sorted(p.name for p in out.parent.iterdir()) == ["stroke-1.mp4"]
    assert not job.scenario.exists()


# --- §1 an exam's result is kept when its report cannot be written ----------------------------------------


def test_an_exam_whose_report_cannot_be_written_keeps_its_score(tmp_path: Path) -> None:
    from physics.files import WriteError
    from scenes.core.settings import Settings
    from scenes.core.trainer import exam
    from scenes.core.trainer.cases import load_library
    from scenes.core.trainer.session import Session

    data = tmp_path / "data"
    data.mkdir()
    (data / "reports").write_text("a file where the reports folder goes", encoding="utf-8")
    settings = Settings()
    with Store(data / "trainer.sqlite3") as store:
        session = Session.start(store, load_library(), settings, None, None, 1, 0, kind="exam")
        rules = exam.ExamRules.from_settings(settings.trainer, 1)
        eid = store.new_exam(session.id, None, rules.seconds_per_case, rules.replays, rules.pass_mark)
        with pytest.raises(WriteError):
            exam.finish(session, eid, rules, "Anna", data, "en", "2026-12-04T10:00:00Z")
        row = store.exam_for(session.id)
        assert row is not None
        assert row.score is not None
        assert row.finished is not None
        assert row.report is None


def test_a_text_exam_whose_report_is_refused_shows_the_score_keeps_it_and_says_so_in_one_line(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "reports").write_text("a file where the reports folder goes", encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "main.py", "--settings", str(_settings(tmp_path)), "train", "--text", "--exam"]
        + ["--cases", "1"],
        cwd=ROOT,
        input="1\n" * 20,
        capture_output=True,
        text=True,
        timeout=600,
    )
    line = _one_line(r)
    assert "reports" in line, r.stdout[-2000:]
    assert "score" in r.stdout, r.stdout[-2000:]
    with Store(data / "trainer.sqlite3") as store:
        (e,) = store.exams()
        assert e.score is not None
        assert e.passed is not None
        assert e.finished is not None
        assert e.report is None


def test_two_imports_at_once_add_the_file_once(tmp_path: Path) -> None:
    path = results_file(tmp_path / "r.json", 3000)
    settings = _settings(tmp_path)
    cmd = [sys.executable, "main.py", "--settings", str(settings), "train", "--import", str(path)]
    procs = [
        subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)
    ]
    for p in procs:
        p.wait(300)
        assert p.returncode == 0, p.stderr.read() if p.stderr else b""
    assert _count(tmp_path / "data" / "trainer.sqlite3") == 3000


# --- on a real full disk (a small tmpfs; skipped where it cannot be mounted) --------------------------------


def test_an_import_onto_a_full_disk_is_one_line_keeps_what_was_stored_and_completes_later(
    full_disk: Path, tmp_path: Path
) -> None:
    settings = tmp_path / "s.toml"
    settings.write_text(f'[trainer]\ndata_dir = "{full_disk}"\n', encoding="utf-8")
    db = full_disk / "trainer.sqlite3"
    with Store(db) as store:
        row = store.new_session(None, None, 0, [("golf-lamp", "golf", "lamp")])
        store.record_answer(row.id, 0, "golf-lamp", "golf", "lamp", "legal", ["foul"], True, True, True)
    path = results_file(tmp_path / "r.json", 800)
    _fill(full_disk)
    r = _main("--settings", str(settings), "train", "--import", str(path))
    assert str(db) in _one_line(r)  # refused when the database is opened, or by the import's transaction
    (full_disk / "filler").unlink()
    assert _count(db) == 1
    r = _main("--settings", str(settings), "train", "--import", str(path))
    assert r.returncode == 0, r.stderr
    assert _count(db) == 801


@pytest.mark.slow
def test_a_video_onto_a_full_disk_is_one_line_and_keeps_the_old_file(full_disk: Path) -> None:
    out = full_disk / "clip.mp4"
    out.write_bytes(b"the older clip")
    _fill(full_disk)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    cmd = [sys.executable, "main.py", "render", str(SCENARIO), "--video", str(out)]
    cmd += ["--size", "96x64", "--fps", "10", "--quality", "low"]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    lines = [ln for ln in r.stderr.strip().splitlines() if not ln.startswith("render:")]
    assert r.returncode == 2, r.stderr[-2000:]
    assert len(lines) == 1, r.stderr[-2000:]
    assert str(out) in lines[0], r.stderr[-2000:]
    assert out.read_bytes() == b"the older clip"
    assert sorted(p.name for p in full_disk.iterdir()) == ["clip.mp4", "filler"]
