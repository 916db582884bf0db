"""Progress store: SQLite (stdlib) in the user's data folder.

Every answer is written in its own transaction the moment it is given (WAL journal), and a session keeps
its case list and position, so a session killed at any point resumes with nothing lost.

Schema versions (``PRAGMA user_version``); an older database is brought up to date when it is opened for
writing, in one transaction, keeping every row; opened read-only (``train --history``) it is read as it is,
through temporary views that give it the new columns:

1. sessions and answers.
2. trainee profiles (every old session belongs to the profile ``default``), the session's kind (practice or
   exam), each answer's weight, right answer and time taken (old answers get the weight of their question
   kind, a third of it for a right "none"; their right answer is unknown), and exam results.

A file that is not our database (not SQLite, or SQLite of another program, or a newer schema) is refused
with one InputError line and left untouched: it is inspected read-only before anything is written.

Connections. ``Store(path, readonly=True)`` (``train --history``) never writes: it works in a read-only data
folder, where SQLite cannot create the WAL's shared-memory file, by opening the file immutable. A trainer that
answers holds its session (:meth:`Store.claim`, a lock on one byte of ``trainer.sqlite3.lock`` at the session's
id, which the system drops when the process dies however it dies), so a second trainer on the same session says
so in one line instead of losing the answer just typed to the UNIQUE constraint.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from physics.errors import InputError

if sys.platform != "win32":
    import fcntl

DB_NAME = "trainer.sqlite3"
APPLICATION_ID = 0x42494C54  # "BILT": marks the file as ours (PRAGMA application_id)
SCHEMA_VERSION = 2
DEFAULT_PROFILE = "default"
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    game TEXT,                 -- the rulebook chosen, NULL = mixed
    topic TEXT,                -- NULL = mixed
    seed INTEGER NOT NULL,
    items TEXT NOT NULL,       -- JSON list of [case_id, game, topic]
    position INTEGER NOT NULL DEFAULT 0,   -- cases fully answered
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    item INTEGER NOT NULL,     -- index of the case in the session
    case_id TEXT NOT NULL,
    game TEXT NOT NULL,
    topic TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,      -- JSON sorted list of option keys
    correct INTEGER NOT NULL,
    at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (session_id, item, question)
);
"""

# Version 1 -> 2 (see the module doc). The weights are questions.WEIGHTS / NONE_FACTOR.
_MIGRATE_2 = """
CREATE TABLE IF NOT EXISTS profiles (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT OR IGNORE INTO profiles (id, name) VALUES (1, 'default');
ALTER TABLE sessions ADD COLUMN profile_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'practice';
ALTER TABLE answers ADD COLUMN weight REAL;
ALTER TABLE answers ADD COLUMN expected TEXT;
ALTER TABLE answers ADD COLUMN seconds REAL;
UPDATE answers SET weight = (CASE question WHEN 'legal' THEN 3.0 WHEN 'next' THEN 3.0 WHEN 'counted' THEN 2.0
    WHEN 'respot' THEN 2.0 WHEN 'off_table' THEN 1.0 ELSE 1.0 END)
    * (CASE WHEN correct = 1 AND answer = '["none"]' THEN 1.0 / 3.0 ELSE 1.0 END) WHERE weight IS NULL;
CREATE TABLE IF NOT EXISTS exams (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL UNIQUE REFERENCES sessions(id),
    game TEXT,
    seconds_per_case REAL NOT NULL,
    replays INTEGER NOT NULL,
    pass_mark REAL NOT NULL,       -- percent of the weighted points
    score REAL,                    -- percent, when finished
    passed INTEGER,
    report TEXT,                   -- the report file written for the trainee
    finished TEXT
)
"""
# Scored and remembered per answer since version 2.
_ANSWER_COLUMNS = (
    "session_id, item, case_id, game, topic, question, answer, correct, weight, expected, seconds"
)
# A version-1 database read without writing: the same columns, computed (temporary views shadow the tables).
_COMPAT_1 = """
CREATE TEMP TABLE profiles (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created TEXT NOT NULL DEFAULT '');
INSERT INTO temp.profiles (id, name) VALUES (1, 'default');
CREATE TEMP VIEW sessions AS SELECT *, 1 AS profile_id, 'practice' AS kind FROM main.sessions;
CREATE TEMP VIEW answers AS SELECT *, (CASE question WHEN 'legal' THEN 3.0 WHEN 'next' THEN 3.0
    WHEN 'counted' THEN 2.0 WHEN 'respot' THEN 2.0 WHEN 'off_table' THEN 1.0 ELSE 1.0 END)
    * (CASE WHEN correct = 1 AND answer = '["none"]' THEN 1.0 / 3.0 ELSE 1.0 END) AS weight,
    NULL AS expected, NULL AS seconds FROM main.answers;
CREATE TEMP TABLE exams (id INTEGER PRIMARY KEY, session_id INTEGER, game TEXT, seconds_per_case REAL,
    replays INTEGER, pass_mark REAL, score REAL, passed INTEGER, report TEXT, finished TEXT)
"""


@dataclass(frozen=True)
class SessionRow:
    id: int
    game: str | None
    topic: str | None
    seed: int
    items: tuple[tuple[str, str, str], ...]  # (case_id, game, topic)
    position: int
    finished: bool
    created: str
    profile_id: int = 1
    kind: str = "practice"  # practice | exam


@dataclass(frozen=True)
class Progress:
    key: str
    answered: int
    correct: int
    points: float = 0.0  # weighted points earned (questions.WEIGHTS)
    possible: float = 0.0

    @property
    def ratio(self) -> float:
        return self.correct / self.answered if self.answered else 0.0

    @property
    def score(self) -> float:
        """The weighted score, 0..1 (what the trainer reports)."""
        return self.points / self.possible if self.possible else 0.0


@dataclass(frozen=True)
class AnswerRow:
    """One stored answer with what it was scored on (export, history, spaced repetition)."""

    session_id: int
    item: int
    case_id: str
    game: str
    topic: str
    question: str
    answer: tuple[str, ...]
    correct: bool
    weight: float
    expected: tuple[str, ...] | None
    seconds: float | None
    at: str


@dataclass(frozen=True)
class ExamRow:
    id: int
    session_id: int
    game: str | None
    seconds_per_case: float
    replays: int
    pass_mark: float
    score: float | None
    passed: bool | None
    report: str | None
    finished: str | None


READ_ONLY_HINT = "the data folder is read-only, so answers cannot be saved (`train --history` still works)"


class Store:
    """The trainer's database; use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._lock: IO[bytes] | None = None
        self._waiting: list[_Answer] = []  # answers the disk refused, oldest first (record_answer)
        self.warn: Callable[[int, str], None] | None = None
        self._refused = False  # the disk refused the answers now waiting
        if self.path.parent.exists() and not self.path.parent.is_dir():
            raise InputError(
                str(self.path.parent), "data folder", "a folder (a file of that name is in the way)"
            )
        _check_foreign(self.path)
        if readonly:
            self.conn = _open_read_only(self.path)
            if self._user_version() < 2:
                self.conn.executescript(_COMPAT_1)
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(
                str(self.path.parent), "data folder", f"a folder the trainer can create ({exc.strerror})"
            ) from None
        if not os.access(self.path.parent, os.W_OK) or (
            self.path.exists() and not os.access(self.path, os.W_OK)
        ):
            raise InputError(str(self.path), "database", f"a writable trainer database: {READ_ONLY_HINT}")
        try:
            # Another trainer process (an import, a second window) may hold the write lock for a while on a
            # busy machine: wait for it rather than refuse the database.
            self.conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=60.0)
            _wal(self.conn)
            self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            with self._tx():
                version = self._user_version()
                if version == 0:
                    self._script(_SCHEMA)
                    self.conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    version = 1
                if version < 2:
                    self._script(_MIGRATE_2)
                if version < SCHEMA_VERSION or self._user_version() != SCHEMA_VERSION:
                    self.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            if "readonly" in str(exc):
                raise InputError(
                    str(self.path), "database", f"a writable trainer database: {READ_ONLY_HINT}"
                ) from None
            raise InputError(
                str(self.path), "database", f"a trainer database SQLite can open ({exc})"
            ) from None

    def claim(self, sid: int) -> None:
        """Hold session ``sid`` for this process: a second trainer on it is refused in one line."""
        if sys.platform == "win32" or self.readonly or str(self.path) == ":memory:":
            return  # no POSIX record locks on Windows: a second trainer there is not refused
        try:
            if self._lock is None:
                self._lock = open(self.path.with_name(self.path.name + ".lock"), "ab")  # noqa: SIM115 - held open
            fcntl.lockf(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, sid)
        except BlockingIOError:
            raise InputError(
                str(self.path),
                f"sessions[{sid}]",
                f"a session not in use: session {sid} is open in another trainer; go on there, or close it first",
            ) from None
        except OSError as exc:
            raise InputError(str(self.path), "database", f"a lock file beside it ({exc.strerror})") from None

    # --- plumbing ---------------------------------------------------------------------------------
    def _script(self, script: str) -> None:
        for stmt in script.split(";\n"):
            if stmt.strip():
                self.conn.execute(stmt)

    def _user_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def _tx(self) -> _Tx:
        return _Tx(self.conn)

    def close(self) -> None:
        self.flush()  # a last try for answers the disk refused (warn says if some could not be saved)
        self.conn.close()
        if self._lock is not None:
            self._lock.close()  # drops every session this process held
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- sessions ---------------------------------------------------------------------------------
    def new_session(
        self,
        game: str | None,
        topic: str | None,
        seed: int,
        items: Sequence[tuple[str, str, str]],
        profile_id: int = 1,
        kind: str = "practice",
        created: str | None = None,
    ) -> SessionRow:
        """A new session; ``created`` (UTC, ISO 8601) keeps an imported session's own date (default: now)."""
        with self._tx():
            cur = self.conn.execute(
                "INSERT INTO sessions (game, topic, seed, items, profile_id, kind, created) "
                "VALUES (?, ?, ?, ?, ?, ?, COALESCE(?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))",
                (game, topic, seed, json.dumps([list(i) for i in items]), profile_id, kind, created),
            )
            sid = int(cur.lastrowid or 0)
        return self.session(sid)

    def session(self, sid: int) -> SessionRow:
        row = self.conn.execute(
            "SELECT id, game, topic, seed, items, position, finished, created, profile_id, kind FROM sessions WHERE id = ?",
            (sid,),
        ).fetchone()
        if row is None:
            raise KeyError(sid)
        s = _session_row(row, self.path)
        # Answers the disk refused move the session on as the written ones do (the window asked for the
        # next case and got the same one again while the disk was full).
        for w in self._waiting:
            if w.sid == sid and w.last_of_case and w.item + 1 > s.position:
                s = replace(s, position=w.item + 1)
            if w.sid == sid and w.last_of_session:
                s = replace(s, finished=True)
        return s

    def unfinished(self, profile_id: int = 1, kind: str = "practice") -> SessionRow | None:
        """The profile's most recent session of this kind not yet finished (the one to resume)."""
        row = self.conn.execute(
            "SELECT id, game, topic, seed, items, position, finished, created, profile_id, kind FROM sessions "
            "WHERE finished = 0 AND profile_id = ? AND kind = ? ORDER BY id DESC LIMIT 1",
            (profile_id, kind),
        ).fetchone()
        return _session_row(row, self.path) if row is not None else None

    def sessions(self, profile_id: int | None = None) -> list[SessionRow]:
        q = "SELECT id, game, topic, seed, items, position, finished, created, profile_id, kind FROM sessions"
        args: tuple[int, ...] = ()
        if profile_id is not None:
            q, args = q + " WHERE profile_id = ?", (profile_id,)
        rows = self.conn.execute(q + " ORDER BY id", args).fetchall()
        return [_session_row(r, self.path) for r in rows]

    def record_answer(
        self,
        sid: int,
        item: int,
        case_id: str,
        game: str,
        topic: str,
        question: str,
        answer: Sequence[str],
        correct: bool,
        last_of_case: bool,
        last_of_session: bool,
        weight: float = 1.0,
        expected: Sequence[str] | None = None,
        seconds: float | None = None,
        at: str | None = None,
    ) -> None:
        """Store one answer (with its weight, the right answer and the seconds it took), and move the session
        on when it completes a case, in one transaction.

        When the disk refuses (full, an I/O error, locked past the timeout) the answer is kept in memory, the
        session goes on with it (:meth:`answers`, :meth:`session_score` count it), ``warn(waiting, reason)``
        is called, and it is written, in order, with the next answer that can be; ``warn(0, "")`` then."""
        self._waiting.append(
            _Answer(
                sid,
                item,
                case_id,
                game,
                topic,
                question,
                tuple(sorted(answer)),
                correct,
                last_of_case,
                last_of_session,
                float(weight),
                tuple(sorted(expected)) if expected is not None else None,
                float(seconds) if seconds is not None else None,
                at,
            )
        )
        self.flush()

    def waiting(self) -> int:
        """How many answers the disk has refused so far and are kept in memory."""
        return len(self._waiting)

    def flush(self) -> bool:
        """Write the answers the disk refused before; True when none is left waiting."""
        # Only answers the disk refused before were waiting; the one just given is not news when it is saved.
        had = self._refused
        while self._waiting:
            try:
                self._write(self._waiting[0])
            except sqlite3.OperationalError as exc:
                self._refused = True
                if self.warn is not None:
                    self.warn(len(self._waiting), str(exc))
                return False
            self._waiting.pop(0)
        self._refused = False
        if had and self.warn is not None:
            self.warn(0, "")
        return True

    def _write(self, a: _Answer) -> None:
        sid, item = a.sid, a.item
        with self._tx():
            try:
                self.conn.execute(
                    f"INSERT INTO answers ({_ANSWER_COLUMNS}, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                    "COALESCE(?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))",
                    (
                        sid,
                        item,
                        a.case_id,
                        a.game,
                        a.topic,
                        a.question,
                        json.dumps(list(a.answer)),
                        int(a.correct),
                        a.weight,
                        json.dumps(list(a.expected)) if a.expected is not None else None,
                        a.seconds,
                        a.at,
                    ),
                )
            except sqlite3.IntegrityError:
                self._waiting.pop(0)
                # Only a trainer that did not claim the session can get here (a platform without locks).
                raise InputError(
                    str(self.path),
                    f"sessions[{sid}]",
                    "a question answered once: another trainer answered it meanwhile; run the trainer again "
                    "to go on from there",
                ) from None
            if a.last_of_case:
                self.conn.execute(
                    "UPDATE sessions SET position = ? WHERE id = ? AND position = ?", (item + 1, sid, item)
                )
            if a.last_of_session:
                self.conn.execute("UPDATE sessions SET finished = 1 WHERE id = ?", (sid,))

    def answers(self, sid: int, item: int | None = None) -> list[tuple[int, str, list[str], bool]]:
        """(item, question, answer keys, correct) in the order given."""
        q = "SELECT item, question, answer, correct FROM answers WHERE session_id = ?"
        args: tuple[int, ...] = (sid,)
        if item is not None:
            q += " AND item = ?"
            args = (sid, item)
        rows = self.conn.execute(q + " ORDER BY id", args).fetchall()
        out: list[tuple[int, str, list[str], bool]] = []
        for i, qn, a, c in rows:
            try:
                keys = json.loads(a)
                if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
                    raise ValueError
                out.append((int(i), str(qn), keys, bool(c)))
            except (TypeError, ValueError):
                raise InputError(
                    str(self.path),
                    "answers.answer",
                    "a JSON list of answer keys; the database is damaged: move it away to start a new one",
                ) from None
        out += [
            (w.item, w.question, list(w.answer), w.correct)
            for w in self._waiting
            if w.sid == sid and (item is None or w.item == item)
        ]
        return out

    def session_score(self, sid: int) -> tuple[int, int]:
        row = self.conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(correct), 0) FROM answers WHERE session_id = ?", (sid,)
        ).fetchone()
        waiting = [w for w in self._waiting if w.sid == sid]
        return int(row[1]) + sum(w.correct for w in waiting), int(row[0]) + len(waiting)

    def session_points(self, sid: int) -> tuple[float, float]:
        """(weighted points earned, weighted points possible) of a session."""
        row = self.conn.execute(
            "SELECT COALESCE(SUM(weight * correct), 0), COALESCE(SUM(weight), 0) FROM answers WHERE session_id = ?",
            (sid,),
        ).fetchone()
        waiting = [w for w in self._waiting if w.sid == sid]
        return (
            float(row[0]) + sum(w.weight for w in waiting if w.correct),
            float(row[1]) + sum(w.weight for w in waiting),
        )

    def answer_rows(self, sid: int | None = None, profile_id: int | None = None) -> list[AnswerRow]:
        """Every stored answer (of a session, or a profile), in the order given."""
        q = (
            "SELECT a.session_id, a.item, a.case_id, a.game, a.topic, a.question, a.answer, a.correct, "
            "a.weight, a.expected, a.seconds, a.at FROM answers a JOIN sessions s ON s.id = a.session_id"
        )
        where, args = [], []
        if sid is not None:
            where.append("a.session_id = ?")
            args.append(sid)
        if profile_id is not None:
            where.append("s.profile_id = ?")
            args.append(profile_id)
        if where:
            q += " WHERE " + " AND ".join(where)
        out: list[AnswerRow] = []
        for r in self.conn.execute(q + " ORDER BY a.id", args).fetchall():
            out.append(
                AnswerRow(
                    int(r[0]),
                    int(r[1]),
                    str(r[2]),
                    str(r[3]),
                    str(r[4]),
                    str(r[5]),
                    tuple(self._keys(r[6], "answers.answer")),
                    bool(r[7]),
                    float(r[8]) if r[8] is not None else 1.0,
                    tuple(self._keys(r[9], "answers.expected")) if r[9] is not None else None,
                    float(r[10]) if r[10] is not None else None,
                    str(r[11]),
                )
            )
        return out

    def _keys(self, text: object, key: str) -> list[str]:
        try:
            keys = json.loads(str(text))
            if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
                raise ValueError
            return keys
        except (TypeError, ValueError):
            raise InputError(
                str(self.path), key, "a JSON list of answer keys; the database is damaged: move it away"
            ) from None

    # --- profiles -----------------------------------------------------------------------------------
    def profile(self, name: str, create: bool = True) -> int:
        """The id of the trainee profile ``name`` (made when missing and ``create``)."""
        name = name.strip()
        if not name or len(name) > 40:
            raise InputError("command line", "--profile", "a trainee name of 1 to 40 characters")
        row = self.conn.execute("SELECT id FROM profiles WHERE name = ?", (name,)).fetchone()
        if row is not None:
            return int(row[0])
        if not create:
            raise InputError("command line", "--profile", f"a known trainee ({', '.join(self.profiles())})")
        with self._tx():
            cur = self.conn.execute("INSERT INTO profiles (name) VALUES (?)", (name,))
            return int(cur.lastrowid or 0)

    def profile_id(self, name: str) -> int:
        """The id of the trainee profile ``name`` without making it (-1: no such trainee, no answers)."""
        row = self.conn.execute("SELECT id FROM profiles WHERE name = ?", (name.strip(),)).fetchone()
        return int(row[0]) if row is not None else -1

    def profiles(self) -> list[str]:
        return [str(r[0]) for r in self.conn.execute("SELECT name FROM profiles ORDER BY id").fetchall()]

    def profile_name(self, pid: int) -> str:
        row = self.conn.execute("SELECT name FROM profiles WHERE id = ?", (pid,)).fetchone()
        return str(row[0]) if row is not None else DEFAULT_PROFILE

    # --- imports ------------------------------------------------------------------------------------
    def import_results(self, plan: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> int:
        """Add checked sessions (``(trainee, sessions)`` as packs.import_results reads them) in one
        transaction; returns the answers added. A session already here (the same trainee, date, kind and
        cases) is skipped, decided inside the transaction, so two imports at once add it once, and an import
        the disk or a kill stopped left nothing: the next one adds exactly what is missing."""
        added = 0
        try:
            with self._tx():
                for name, sessions in plan:
                    added += self._import_trainee(name, sessions)
        except sqlite3.Error as exc:
            raise InputError(
                str(self.path),
                "database",
                f"a database that takes the whole import ({exc}); nothing was imported",
            ) from None
        return added

    def _import_trainee(self, name: str, sessions: Sequence[Mapping[str, Any]]) -> int:
        row = self.conn.execute("SELECT id FROM profiles WHERE name = ?", (name,)).fetchone()
        pid = (
            int(row[0])
            if row is not None
            else int(self.conn.execute("INSERT INTO profiles (name) VALUES (?)", (name,)).lastrowid or 0)
        )
        have = {(r.created, r.kind, r.items) for r in self.sessions(pid)}
        added = 0
        for s in sessions:
            items = tuple((str(i[0]), str(i[1]), str(i[2])) for i in s["items"])
            if (s.get("created"), s["kind"], items) in have:
                continue
            cur = self.conn.execute(
                "INSERT INTO sessions (game, topic, seed, items, profile_id, kind, created, position, finished) "
                "VALUES (?, ?, ?, ?, ?, ?, COALESCE(?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), ?, ?)",
                (
                    s["game"],
                    s["topic"],
                    s["seed"],
                    json.dumps([list(i) for i in items]),
                    pid,
                    s["kind"],
                    s.get("created"),
                    s["position"],
                    int(s["finished"]),
                ),
            )
            sid = int(cur.lastrowid or 0)
            have.add((self.session(sid).created, s["kind"], items))
            for a in s["answers"]:
                self.conn.execute(
                    f"INSERT INTO answers ({_ANSWER_COLUMNS}, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        sid,
                        a["item"],
                        a["case"],
                        a["game"],
                        a["topic"],
                        a["question"],
                        json.dumps(sorted(a["answer"])),
                        int(a["correct"]),
                        float(a["weight"]),
                        json.dumps(sorted(a["expected"])) if a["expected"] is not None else None,
                        float(a["seconds"]) if a["seconds"] is not None else None,
                        a["at"],
                    ),
                )
                added += 1
            e = s.get("exam")
            if e is not None:
                self.conn.execute(
                    "INSERT INTO exams (session_id, game, seconds_per_case, replays, pass_mark, score, passed, "
                    "finished) VALUES (?, ?, ?, ?, ?, ?, ?, CASE WHEN ? IS NULL THEN NULL "
                    "ELSE COALESCE(?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) END)",
                    (
                        sid,
                        s["game"],
                        float(e["seconds_per_case"]),
                        int(e["replays"]),
                        float(e["pass_mark"]),
                        None if e.get("score") is None else float(e["score"]),
                        None if e.get("passed") is None else int(e["passed"]),
                        e.get("score"),
                        e.get("finished"),
                    ),
                )
        return added

    # --- exams --------------------------------------------------------------------------------------
    def new_exam(
        self, sid: int, game: str | None, seconds_per_case: float, replays: int, pass_mark: float
    ) -> int:
        with self._tx():
            cur = self.conn.execute(
                "INSERT INTO exams (session_id, game, seconds_per_case, replays, pass_mark) VALUES (?, ?, ?, ?, ?)",
                (sid, game, float(seconds_per_case), int(replays), float(pass_mark)),
            )
            return int(cur.lastrowid or 0)

    def exam_for(self, sid: int) -> ExamRow | None:
        row = self.conn.execute(
            "SELECT id, session_id, game, seconds_per_case, replays, pass_mark, score, passed, report, finished "
            "FROM exams WHERE session_id = ?",
            (sid,),
        ).fetchone()
        return _exam_row(row) if row is not None else None

    def exams(self, profile_id: int | None = None) -> list[ExamRow]:
        q = (
            "SELECT e.id, e.session_id, e.game, e.seconds_per_case, e.replays, e.pass_mark, e.score, e.passed, "
            "e.report, e.finished FROM exams e JOIN sessions s ON s.id = e.session_id"
        )
        args: tuple[int, ...] = ()
        if profile_id is not None:
            q, args = q + " WHERE s.profile_id = ?", (profile_id,)
        return [_exam_row(r) for r in self.conn.execute(q + " ORDER BY e.id", args).fetchall()]

    def finish_exam(self, exam_id: int, score: float, passed: bool, report: str | None) -> None:
        with self._tx():
            self.conn.execute(
                "UPDATE exams SET score = ?, passed = ?, report = ?, "
                "finished = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
                (float(score), int(passed), report, exam_id),
            )

    def set_report(self, exam_id: int, report: str) -> None:
        """Where a finished exam's report was written (after its result was stored)."""
        with self._tx():
            self.conn.execute("UPDATE exams SET report = ? WHERE id = ?", (report, exam_id))

    # --- progress -----------------------------------------------------------------------------------
    def progress(self, by: str, sid: int | None = None, profile_id: int | None = None) -> list[Progress]:
        """Answers, correct answers and weighted points grouped by ``topic``, ``game``, ``question`` or
        ``topic,game`` (keys ``topic/game``)."""
        cols = {
            "topic": "a.topic",
            "game": "a.game",
            "question": "a.question",
            "topic,game": "a.topic || '/' || a.game",
        }
        if by not in cols:
            raise ValueError(by)
        where, args = [], []
        if sid is not None:
            where.append("a.session_id = ?")
            args.append(sid)
        if profile_id is not None:
            where.append("s.profile_id = ?")
            args.append(profile_id)
        w = (" WHERE " + " AND ".join(where)) if where else ""
        rows = self.conn.execute(
            f"SELECT {cols[by]} AS k, COUNT(*), SUM(a.correct), SUM(a.weight * a.correct), SUM(a.weight) "
            f"FROM answers a JOIN sessions s ON s.id = a.session_id{w} GROUP BY k ORDER BY k",
            args,
        ).fetchall()
        return [Progress(str(k), int(n), int(c), float(p or 0.0), float(q or 0.0)) for k, n, c, p, q in rows]

    def weak_topics(
        self,
        sid: int | None = None,
        threshold: float = 0.75,
        min_answers: int = 1,
        profile_id: int | None = None,
    ) -> list[Progress]:
        """Topics whose weighted score is below ``threshold``, weakest first."""
        weak = [
            p
            for p in self.progress("topic", sid, profile_id)
            if p.answered >= min_answers and p.score < threshold
        ]
        return sorted(weak, key=lambda p: (p.score, p.key))


def _wal(conn: sqlite3.Connection, wait: float = 60.0) -> None:
    """Put the database in WAL mode. Two processes opening a new database at once race for the switch, and SQLite
    answers the loser "locked" at once, without its busy wait: so wait here, as ``connect``'s timeout would."""
    deadline = time.monotonic() + wait
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class _Tx:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error): one answer is one durable transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, et: object, ev: object, tb: object) -> None:
        if et is None:
            try:
                self.conn.execute("COMMIT")
                return
            except sqlite3.Error:
                self._rollback()
                raise
        self._rollback()

    def _rollback(self) -> None:
        if self.conn.in_transaction:  # SQLite ends some failed transactions itself (a full disk)
            self.conn.execute("ROLLBACK")


@dataclass(frozen=True)
class _Answer:
    sid: int
    item: int
    case_id: str
    game: str
    topic: str
    question: str
    answer: tuple[str, ...]
    correct: bool
    last_of_case: bool
    last_of_session: bool
    weight: float = 1.0
    expected: tuple[str, ...] | None = None
    seconds: float | None = None
    at: str | None = None  # when it was given (an imported answer's own date; default: now)


def _exam_row(r: tuple) -> ExamRow:  # type: ignore[type-arg]
    return ExamRow(
        int(r[0]),
        int(r[1]),
        r[2],
        float(r[3]),
        int(r[4]),
        float(r[5]),
        float(r[6]) if r[6] is not None else None,
        bool(r[7]) if r[7] is not None else None,
        r[8],
        r[9],
    )


def _session_row(row: tuple, path: Path) -> SessionRow:  # type: ignore[type-arg]
    """A sessions row, checked column by column: a damaged database is one InputError, never a crash."""
    sid, game, topic, seed, items, position, finished, created, profile_id, kind = row
    damaged = "; the database is damaged: move it away to start a new one"
    try:
        parsed = json.loads(items)
    except (TypeError, ValueError):
        raise InputError(
            str(path), "sessions.items", "a JSON list of [case, game, topic]" + damaged
        ) from None
    if not isinstance(parsed, list) or not all(
        isinstance(i, list) and len(i) == 3 and all(isinstance(x, str) for x in i) for i in parsed
    ):
        raise InputError(str(path), "sessions.items", "a JSON list of [case, game, topic]" + damaged)
    for key, value in (("id", sid), ("seed", seed), ("position", position), ("finished", finished)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(str(path), f"sessions.{key}", "a whole number" + damaged)
    if not 0 <= position <= len(parsed):
        raise InputError(str(path), "sessions.position", f"a number from 0 to {len(parsed)}" + damaged)
    if not (game is None or isinstance(game, str)) or not (topic is None or isinstance(topic, str)):
        raise InputError(str(path), "sessions.game", "a game id" + damaged)
    return SessionRow(
        int(sid),
        game,
        topic,
        int(seed),
        tuple(tuple(i) for i in parsed),
        int(position),
        bool(finished),
        str(created),
        int(profile_id) if isinstance(profile_id, int) and not isinstance(profile_id, bool) else 1,
        str(kind) if kind in ("practice", "exam") else "practice",
    )


def _check_foreign(path: Path) -> None:
    """Refuse, without writing a byte, a file that is not a trainer database we can use."""
    if not path.exists():
        return
    file = str(path)
    expected = "a billiards3d trainer database (SQLite); move the file away to start a new one"
    if path.is_dir():
        raise InputError(file, "database", expected)
    if not path.is_file():  # a pipe or a device: opening it could wait for ever
        raise InputError(file, "database", "a regular file (not a pipe or a device)")
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        raise InputError(file, "database", f"a readable file ({exc.strerror})") from None
    if len(head) == 0:
        return  # an empty file (e.g. touched): SQLite treats it as a new database
    if not head.startswith(_SQLITE_MAGIC) or len(head) < 100:
        raise InputError(file, "database", expected)
    # Read the marks through SQLite (read-only), not from the header bytes: after a crash the newest
    # pages, page 1 included, may still sit in the -wal file.
    try:
        conn = _open_read_only(path)
        try:
            app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
            user_version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError):  # locked, unreadable: nothing says the file is not ours
            raise InputError(file, "database", f"a trainer database SQLite can read ({exc})") from None
        raise InputError(file, "database", f"{expected} ({exc})") from None
    if app_id == 0 and not names:
        return  # an empty SQLite database (say, a first run killed before its first commit): ours to fill
    if app_id != APPLICATION_ID or not {"sessions", "answers"} <= names:
        raise InputError(file, "database", expected)
    if user_version > SCHEMA_VERSION:
        raise InputError(file, "database", f"schema version <= {SCHEMA_VERSION} (written by a newer trainer)")
    if check != "ok":
        raise InputError(file, "database", f"an intact database (integrity check: {check})")


def _open_read_only(path: Path) -> sqlite3.Connection:
    """A connection that never writes. In a read-only folder SQLite cannot make the WAL's -shm file, so the
    database is opened immutable there (nobody can be writing to it: the folder is read-only)."""
    if not path.exists():
        conn = sqlite3.connect(":memory:")  # nothing saved yet: an empty history
        conn.executescript(_SCHEMA)
        return conn
    uri = path.resolve().as_uri()
    try:
        conn = sqlite3.connect(uri + "?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        if os.access(path.parent, os.W_OK):
            raise
    conn = sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True)
    conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    return conn


def default_path(data_dir: Path) -> Path:
    return data_dir / DB_NAME
