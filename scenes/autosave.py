"""Atomic autosave of a match in progress (and any other small JSON document the app keeps).

Why this shape: a save after every stroke must never leave the user with a broken or half-written file,
whatever moment the process dies at. The new text goes to a temporary file beside the target, is
flushed and fsync'ed, then ``os.replace`` swaps it in (atomic on POSIX and Windows) and the folder is
fsync'ed so the rename itself survives a power cut. The old file is either fully there or fully
replaced; a crash leaves at most a stray ``.*.tmp`` that the next save overwrites.

Loading refuses anything that is not exactly what we wrote (too big, not UTF-8, not JSON, truncated,
wrong version or kind, wrong types, unknown ids, out-of-range numbers) with one
:class:`physics.errors.InputError` naming the file, the key and what was expected, and never writes
to the file it reads.

Document shape::

    {"format": "billiards3d", "kind": "match", "version": 1, "saved_strokes": N, "payload": {...}}

A match payload is the referee's own state (``MatchState.snapshot()``) and is restored through
``MatchState.from_scenario``, the same validation a scenario's ``[state]`` gets, so a saved match
cannot name a ball, a game or a player index the rules do not know.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from physics.errors import InputError

FORMAT = "billiards3d"
VERSION = 1
MAX_BYTES = 4 * 1024 * 1024  # a match with its full state is a few kB; anything this big is not ours
MAX_DEPTH = 16
MAX_ITEMS = 10_000  # per list or object
MAX_STRING = 200  # player names, ids
MAX_INT = 10**6  # scores, counters: far above any real match
MAX_FLOAT = 1e3  # positions in metres
MATCH_FILE = "match.json"

_STATE_FROM_SNAPSHOT = (
    "players",
    "to_play",
    "scores",
    "frames_won",
    "frames_to_win",
    "breaker",
    "break",
    "in_hand",
    "cue",
    "shelves",
    "owed",
    "fouls_in_row",
    "phase",
    "ball_on",
    "last_counted",
    "extra",
)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not supported here (Windows): the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_document(path: str | Path, kind: str, payload: Mapping[str, Any], saved_strokes: int = 0) -> None:
    """Write ``payload`` atomically to ``path`` (temp file + fsync + os.replace + folder fsync).

    Raises ValueError for a payload that is not plain finite JSON (a programming error, not user input).
    """
    target = Path(path)
    doc = {
        "format": FORMAT,
        "kind": kind,
        "version": VERSION,
        "saved_strokes": int(saved_strokes),
        "payload": payload,
    }
    data = (json.dumps(doc, ensure_ascii=False, allow_nan=False, sort_keys=True, indent=1) + "\n").encode(
        "utf-8"
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)
    _fsync_dir(target.parent)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-finite number {name}")


def _walk(file: str, key: str, v: Any, depth: int = 0) -> None:
    """Bounds on every value, so a hand-edited or corrupted file cannot make us allocate or loop without end."""
    if depth > MAX_DEPTH:
        raise InputError(file, key or "<document>", f"nesting at most {MAX_DEPTH} deep")
    if isinstance(v, bool) or v is None:
        return
    if isinstance(v, int):
        if abs(v) > MAX_INT:
            raise InputError(file, key, f"an integer within ±{MAX_INT}")
    elif isinstance(v, float):
        if not math.isfinite(v) or abs(v) > MAX_FLOAT:
            raise InputError(file, key, f"a finite number within ±{MAX_FLOAT:g}")
    elif isinstance(v, str):
        if len(v) > MAX_STRING:
            raise InputError(file, key, f"a string of at most {MAX_STRING} characters")
    elif isinstance(v, list):
        if len(v) > MAX_ITEMS:
            raise InputError(file, key, f"a list of at most {MAX_ITEMS} items")
        for i, x in enumerate(v):
            _walk(file, f"{key}[{i}]", x, depth + 1)
    elif isinstance(v, dict):
        if len(v) > MAX_ITEMS:
            raise InputError(file, key, f"at most {MAX_ITEMS} keys")
        for k, x in v.items():
            if len(k) > MAX_STRING:
                raise InputError(file, key or "<document>", f"keys of at most {MAX_STRING} characters")
            _walk(file, f"{key}.{k}" if key else k, x, depth + 1)


def load_document(path: str | Path, kind: str) -> tuple[dict[str, Any], int]:
    """Read a document :func:`save_document` wrote: ``(payload, saved_strokes)``; InputError otherwise."""
    p = Path(path)
    file = str(p)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise InputError(
                file, "<file>", f"a saved {kind} under {MAX_BYTES // 1024} kB (got {size} bytes)"
            )
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(file, "<file>", f"a readable file ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(file, "<encoding>", f"UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise InputError(file, "<document>", f"nesting at most {MAX_DEPTH} deep") from None
    except ValueError as exc:
        raise InputError(file, "<json>", f"a complete JSON document (truncated or damaged: {exc})") from None
    if not isinstance(doc, dict):
        raise InputError(file, "<document>", "a JSON object")
    _walk(file, "", doc)
    if doc.get("format") != FORMAT:
        raise InputError(file, "format", f'"{FORMAT}"')
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        raise InputError(file, "version", f"1..{VERSION} (a newer program wrote this file?)")
    if doc.get("kind") != kind:
        raise InputError(file, "kind", f'"{kind}"')
    strokes = doc.get("saved_strokes", 0)
    if not isinstance(strokes, int) or isinstance(strokes, bool) or strokes < 0:
        raise InputError(file, "saved_strokes", "an integer >= 0")
    payload = doc.get("payload")
    if not isinstance(payload, dict):
        raise InputError(file, "payload", "a JSON object")
    return payload, strokes


# --- matches ------------------------------------------------------------------------------------


def match_payload(state: Any) -> dict[str, Any]:
    """What a match autosave holds: the referee's state snapshot (the cue ball in hand is not on the bed)."""
    return dict(state.snapshot())


def save_match(path: str | Path, state: Any, saved_strokes: int) -> None:
    """Autosave a match after a stroke has been applied (``state``: a rules.state.MatchState)."""
    save_document(path, "match", match_payload(state), saved_strokes)


def _flag(file: str, snap: Mapping[str, Any], key: str) -> bool:
    v = snap.get(key, False)
    if not isinstance(v, bool):
        raise InputError(file, f"payload.{key}", "true or false")
    return v


def load_match(path: str | Path) -> tuple[Any, int]:
    """A saved match as ``(MatchState, saved_strokes)``; InputError for anything we would not have written."""
    from rules.registry import get_referee
    from rules.state import MatchState

    file = str(path)
    snap, strokes = load_document(path, "match")
    game = snap.get("game")
    if not isinstance(game, str):
        raise InputError(file, "payload.game", "a game id")
    try:
        ref = get_referee(game)
    except InputError as exc:
        raise InputError(file, "payload.game", exc.expected) from None
    balls_raw = snap.get("balls")
    if not isinstance(balls_raw, dict):
        raise InputError(file, "payload.balls", "an object of ball ids to [x, y]")
    spec = ref.table
    R = spec.ball_radius
    balls: dict[str, tuple[float, float]] = {}
    for b, pos in balls_raw.items():
        key = f"payload.balls.{b}"
        if (
            not isinstance(pos, list)
            or len(pos) != 2
            or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in pos)
        ):
            raise InputError(file, key, "[x, y] in metres")
        x, y = float(pos[0]), float(pos[1])
        if abs(x) > spec.half_length - R + 1e-6 or abs(y) > spec.half_width - R + 1e-6:
            raise InputError(
                file,
                key,
                f"a position on the bed: |x| <= {spec.half_length - R:.4f}, |y| <= {spec.half_width - R:.4f}",
            )
        balls[b] = (x, y)
    state_raw = {k: snap[k] for k in _STATE_FROM_SNAPSHOT if k in snap and snap[k] is not None}
    if "in_hand" in snap and snap["in_hand"] is None:
        state_raw["in_hand"] = "none"  # the snapshot's null: the cue ball is on the bed
    try:
        st = MatchState.from_scenario(game, state_raw, balls, file)
    except InputError as exc:
        raise InputError(
            file,
            exc.key.replace("state.", "payload.", 1).replace("balls.", "payload.balls.", 1),
            exc.expected,
        ) from None
    frame_no = snap.get("frame_no", 1)
    if not isinstance(frame_no, int) or isinstance(frame_no, bool) or frame_no < 1:
        raise InputError(file, "payload.frame_no", "an integer >= 1")
    winner = snap.get("winner")
    if winner is not None and (
        not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < st.n_players
    ):
        raise InputError(file, "payload.winner", f"null or a player index 0..{st.n_players - 1}")
    st = replace(
        st,
        frame_no=frame_no,
        winner=winner,
        frame_over=_flag(file, snap, "frame_over"),
        match_over=_flag(file, snap, "match_over"),
        needs_lag=_flag(file, snap, "needs_lag"),
    )
    return st, strokes


def main(argv: list[str] | None = None) -> int:
    """``python -m scenes.autosave FILE``: check a saved match; one line either way (exit 0 or 2)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m scenes.autosave FILE", file=sys.stderr)
        return 2
    try:
        st, strokes = load_match(args[0])
    except InputError as exc:
        print(exc.line(), file=sys.stderr)
        return 2
    print(f"{args[0]}: {st.game}, {strokes} strokes, scores {list(st.scores)}, to play {st.to_play}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
