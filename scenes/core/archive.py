"""The match archive and the drills' progress: tables of their own in the trainer's SQLite store.

The store (``scenes.core.trainer.store.Store``: the user's data folder, WAL journal, a foreign file refused
untouched) is opened as the trainer opens it; these tables are created beside the trainer's if they are
missing, so one file keeps a player's progress of every kind. Every write is one transaction.

A finished match keeps its players, frames, statistics and every stroke: the shot record without its
samples (events, final positions, the shot and the layout it was played from) and the ruling. A stroke is
replayed by simulating it again from that layout (the physics is deterministic: the events must come out
the same, and :func:`replay_record` says when they do not).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from physics.errors import InputError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    finished TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    game TEXT NOT NULL,
    players TEXT NOT NULL,        -- JSON list of names
    frames_to_win INTEGER NOT NULL,
    frames_won TEXT NOT NULL,     -- JSON list, per player
    winner INTEGER,
    stats TEXT NOT NULL           -- JSON: the stroke log's summary lines (see scenes.core.stats.StrokeLog)
);
CREATE TABLE IF NOT EXISTS match_strokes (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    n INTEGER NOT NULL,           -- 1-based, in the order played
    frame INTEGER NOT NULL,
    player INTEGER NOT NULL,
    record TEXT NOT NULL,         -- the shot record's JSON without samples
    ruling TEXT NOT NULL,         -- the ruling's JSON
    PRIMARY KEY (match_id, n)
);
CREATE TABLE IF NOT EXISTS drill_attempts (
    id INTEGER PRIMARY KEY,
    drill TEXT NOT NULL,          -- the drill file's id (its name without .toml)
    success INTEGER NOT NULL,
    detail TEXT NOT NULL,         -- JSON: what the judge found
    at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
"""


@dataclass(frozen=True)
class MatchRow:
    id: int
    finished: str
    game: str
    players: tuple[str, ...]
    frames_to_win: int
    frames_won: tuple[int, ...]
    winner: int | None
    strokes: int


@dataclass(frozen=True)
class StrokeRow:
    match_id: int
    n: int
    frame: int
    player: int
    record: dict[str, Any]
    ruling: dict[str, Any]


class Archive:
    """The archive's tables in the progress store; a context manager."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        """``readonly``: a reader (``drill --list``) that works in a read-only data folder too and never
        writes; a table not made yet reads as empty."""
        import sqlite3

        from scenes.core.trainer.store import Store

        self.store = Store(path, readonly=readonly)
        self.conn = self.store.conn
        self.path = Path(path)
        if readonly:
            # An empty temporary table stands in for one this database does not have yet (a temporary table
            # would hide a real one of the same name, so only the missing ones).
            have = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            for stmt in _SCHEMA.split(";"):
                name = stmt.split("EXISTS", 1)[-1].split("(", 1)[0].strip()
                if stmt.strip() and name not in have:
                    self.conn.execute(stmt.replace("CREATE TABLE", "CREATE TEMP TABLE", 1))
            return
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    self.conn.execute(stmt)
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise InputError(str(self.path), "database", f"a writable progress database ({exc})") from None

    @classmethod
    def open(cls, settings: Any, readonly: bool = False) -> Archive:
        from scenes.core.trainer.store import DB_NAME

        return cls(Path(settings.data_dir()) / DB_NAME, readonly=readonly)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, fn: Any) -> Any:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            out = fn()
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")
        return out

    # --- matches ------------------------------------------------------------------------------------
    def save_match(self, state: Any, log: Sequence[Any]) -> int:
        """Keep a finished match (its state and stroke log) with every stroke; returns its id."""

        def write() -> int:
            cur = self.conn.execute(
                "INSERT INTO matches (game, players, frames_to_win, frames_won, winner, stats) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    str(state.game),
                    json.dumps(list(state.players), ensure_ascii=False),
                    int(state.frames_to_win),
                    json.dumps([int(f) for f in state.frames_won]),
                    None if state.winner is None else int(state.winner),
                    json.dumps([s.to_dict() for s in log]),
                ),
            )
            mid = int(cur.lastrowid or 0)
            self.conn.executemany(
                "INSERT INTO match_strokes (match_id, n, frame, player, record, ruling) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        mid,
                        i + 1,
                        s.frame,
                        s.player,
                        json.dumps(s.record or {}, ensure_ascii=False),
                        json.dumps(s.ruling or {}, ensure_ascii=False),
                    )
                    for i, s in enumerate(log)
                ],
            )
            return mid

        return int(self._write(write))

    def matches(self, limit: int = 50) -> list[MatchRow]:
        rows = self.conn.execute(
            "SELECT m.id, m.finished, m.game, m.players, m.frames_to_win, m.frames_won, m.winner, "
            "(SELECT COUNT(*) FROM match_strokes s WHERE s.match_id = m.id) "
            "FROM matches m ORDER BY m.id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        out = []
        for mid, fin, game, players, ftw, won, winner, n in rows:
            out.append(
                MatchRow(
                    int(mid),
                    str(fin),
                    str(game),
                    tuple(self._json(players, "matches.players")),
                    int(ftw),
                    tuple(int(x) for x in self._json(won, "matches.frames_won")),
                    None if winner is None else int(winner),
                    int(n),
                )
            )
        return out

    def match_log(self, match_id: int) -> list[dict[str, Any]]:
        row = self.conn.execute("SELECT stats FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise KeyError(match_id)
        return list(self._json(row[0], "matches.stats"))

    def strokes(self, match_id: int) -> list[StrokeRow]:
        rows = self.conn.execute(
            "SELECT n, frame, player, record, ruling FROM match_strokes WHERE match_id = ? ORDER BY n",
            (match_id,),
        ).fetchall()
        return [
            StrokeRow(
                match_id,
                int(n),
                int(f),
                int(p),
                dict(self._json(r, "match_strokes.record")),
                dict(self._json(j, "match_strokes.ruling")),
            )
            for n, f, p, r, j in rows
        ]

    # --- drills -------------------------------------------------------------------------------------
    def record_drill(self, drill: str, success: bool, detail: dict[str, Any]) -> None:
        self._write(
            lambda: self.conn.execute(
                "INSERT INTO drill_attempts (drill, success, detail) VALUES (?, ?, ?)",
                (drill, int(success), json.dumps(detail, ensure_ascii=False)),
            )
        )

    def drill_progress(self) -> dict[str, tuple[int, int]]:
        """drill id -> (attempts, successes)."""
        rows = self.conn.execute(
            "SELECT drill, COUNT(*), COALESCE(SUM(success), 0) FROM drill_attempts GROUP BY drill"
        ).fetchall()
        return {str(d): (int(n), int(s)) for d, n, s in rows}

    def _json(self, text: str, key: str) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError):
            raise InputError(
                str(self.path), key, "JSON; the database is damaged: move it away to start a new one"
            ) from None


def replay_record(stroke: StrokeRow, settings: Any) -> tuple[Any, bool]:
    """The archived stroke simulated again with its samples, and whether its events are the stored ones."""
    from physics.params import PhysicsParams
    from physics.record import ShotParams, ShotRecord
    from physics.simulate import simulate
    from physics.tables import load_table

    stored = ShotRecord.from_dict(stroke.record)
    spec = load_table(stored.table)
    layout = {b: (float(p[0]), float(p[1])) for b, p in stored.initial.items()}
    shot = stored.shot if stored.shot is not None else ShotParams()
    ph = settings.physics
    params = PhysicsParams.for_table(
        spec, ph.overrides, substep_hz=ph.substep_hz, max_stroke_seconds=ph.max_stroke_seconds
    )
    record = simulate(
        spec, layout, shot, params=params, lamp=settings.lamp_position, sample_hz=float(ph.sample_hz)
    )
    same = [e.to_dict() for e in record.events] == [e.to_dict() for e in stored.events]
    return record, same
