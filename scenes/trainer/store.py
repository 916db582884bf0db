"""Progress store: SQLite (stdlib) in the user's data folder.

Every answer is written in its own transaction the moment it is given (WAL journal), and a session keeps
its case list and position, so a session killed at any point resumes with nothing lost.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from physics.errors import InputError

if sys.platform != "win32":
    import fcntl

DB_NAME = "trainer.sqlite3"
APPLICATION_ID = 0x42494C54  # "BILT": marks the file as ours (PRAGMA application_id)
SCHEMA_VERSION = 1
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


@dataclass(frozen=True)
class Progress:
    key: str
    answered: int
    correct: int

    @property
    def ratio(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


READ_ONLY_HINT = "the data folder is read-only, so answers cannot be saved (`train --history` still works)"


class Store:
    """The trainer's database; use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._lock: IO[bytes] | None = None
        self._waiting: list[_Answer] = []  # answers the disk refused, oldest first (record_answer)
        self.warn: Callable[[int, str], None] | None = None
        if self.path.parent.exists() and not self.path.parent.is_dir():
            raise InputError(
                str(self.path.parent), "data folder", "a folder (a file of that name is in the way)"
            )
        _check_foreign(self.path)
        if readonly:
            self.conn = _open_read_only(self.path)
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
            self.conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=10.0)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            with self._tx():
                if self._user_version() == 0:
                    for stmt in _SCHEMA.split(";"):
                        if stmt.strip():
                            self.conn.execute(stmt)
                    self.conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
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
        self, game: str | None, topic: str | None, seed: int, items: Sequence[tuple[str, str, str]]
    ) -> SessionRow:
        with self._tx():
            cur = self.conn.execute(
                "INSERT INTO sessions (game, topic, seed, items) VALUES (?, ?, ?, ?)",
                (game, topic, seed, json.dumps([list(i) for i in items])),
            )
            sid = int(cur.lastrowid or 0)
        return self.session(sid)

    def session(self, sid: int) -> SessionRow:
        row = self.conn.execute(
            "SELECT id, game, topic, seed, items, position, finished, created FROM sessions WHERE id = ?",
            (sid,),
        ).fetchone()
        if row is None:
            raise KeyError(sid)
        return _session_row(row, self.path)

    def unfinished(self) -> SessionRow | None:
        """The most recent session not yet finished (the one to resume)."""
        row = self.conn.execute(
            "SELECT id, game, topic, seed, items, position, finished, created FROM sessions "
            "WHERE finished = 0 ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return _session_row(row, self.path) if row is not None else None

    def sessions(self) -> list[SessionRow]:
        rows = self.conn.execute(
            "SELECT id, game, topic, seed, items, position, finished, created FROM sessions ORDER BY id"
        ).fetchall()
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
    ) -> None:
        """Store one answer, and move the session on when it completes a case, in one transaction.

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
            )
        )
        self.flush()

    def flush(self) -> bool:
        """Write the answers the disk refused before; True when none is left waiting."""
        had = bool(self._waiting)
        while self._waiting:
            try:
                self._write(self._waiting[0])
            except sqlite3.OperationalError as exc:
                if self.warn is not None:
                    self.warn(len(self._waiting), str(exc))
                return False
            self._waiting.pop(0)
        if had and self.warn is not None:
            self.warn(0, "")
        return True

    def _write(self, a: _Answer) -> None:
        sid, item = a.sid, a.item
        with self._tx():
            try:
                self.conn.execute(
                    "INSERT INTO answers (session_id, item, case_id, game, topic, question, answer, correct) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        sid,
                        item,
                        a.case_id,
                        a.game,
                        a.topic,
                        a.question,
                        json.dumps(list(a.answer)),
                        int(a.correct),
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

    # --- progress -----------------------------------------------------------------------------------
    def progress(self, by: str, sid: int | None = None) -> list[Progress]:
        """Answers and correct answers grouped by ``topic``, ``game`` or ``question``."""
        if by not in ("topic", "game", "question"):
            raise ValueError(by)
        where, args = ("WHERE session_id = ?", (sid,)) if sid is not None else ("", ())
        rows = self.conn.execute(
            f"SELECT {by}, COUNT(*), SUM(correct) FROM answers {where} GROUP BY {by} ORDER BY {by}", args
        ).fetchall()
        return [Progress(str(k), int(n), int(c)) for k, n, c in rows]

    def weak_topics(
        self, sid: int | None = None, threshold: float = 0.75, min_answers: int = 1
    ) -> list[Progress]:
        """Topics answered correctly less often than ``threshold``, weakest first."""
        weak = [p for p in self.progress("topic", sid) if p.answered >= min_answers and p.ratio < threshold]
        return sorted(weak, key=lambda p: (p.ratio, p.key))


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


def _session_row(row: tuple, path: Path) -> SessionRow:  # type: ignore[type-arg]
    """A sessions row, checked column by column: a damaged database is one InputError, never a crash."""
    sid, game, topic, seed, items, position, finished, created = row
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
        tuple(tuple(i) for i in parsed),  # type: ignore[misc]
        int(position),
        bool(finished),
        str(created),
    )


def _check_foreign(path: Path) -> None:
    """Refuse, without writing a byte, a file that is not a trainer database we can use."""
    if not path.exists():
        return
    file = str(path)
    expected = "a billiards3d trainer database (SQLite); move the file away to start a new one"
    if path.is_dir():
        raise InputError(file, "database", expected)
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
