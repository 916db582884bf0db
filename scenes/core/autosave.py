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
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from physics.errors import InputError
from physics.files import atomic_text, read_user_bytes
from physics.limits import MAX_DEPTH, MAX_ITEMS, MAX_STRING
from physics.limits import MAX_FILE_BYTES as MAX_BYTES
from physics.limits import MAX_SCORE as MAX_INT

FORMAT = "billiards3d"
VERSION = 1
MAX_FLOAT = 1e3  # positions in metres

# The snapshot keys a scenario's [state] also has (frames are checked here: a saved match may be over).
_STATE_FROM_SNAPSHOT = (
    "players",
    "to_play",
    "scores",
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
    "warnings",
)


def save_document(path: str | Path, kind: str, payload: Mapping[str, Any], saved_strokes: int = 0) -> None:
    """Write ``payload`` atomically to ``path`` (physics.files.atomic_text: temp file + fsync + os.replace +
    folder fsync). WriteError when the system refuses (a full disk): the previous save is left whole.

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
    text = json.dumps(doc, ensure_ascii=False, allow_nan=False, sort_keys=True, indent=1) + "\n"
    atomic_text(target, "autosave", lambda f: f.write(text), make_folder=True)


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
    raw = read_user_bytes(p, f"saved {kind}", MAX_BYTES, key="<file>")
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
    """A saved match as ``(MatchState, saved_strokes)``; InputError for anything we would not have written:
    wrong types, unknown ids, and states no match reaches (a ball nowhere or in two places, two balls in one
    place, a score below 0 where the rules never give one, a finished match without its winner)."""
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
    table = snap.get("table")  # saved since golf is played on the snooker tables too; older saves: its own
    if table is not None:
        if not isinstance(table, str) or table not in ref.tables():
            raise InputError(file, "payload.table", f"a table {game} is played on: {', '.join(ref.tables())}")
        ref = get_referee(game, table)
    balls = _saved_balls(file, snap, ref.table)
    state_raw = {k: snap[k] for k in _STATE_FROM_SNAPSHOT if k in snap and snap[k] is not None}
    if "in_hand" in snap and snap["in_hand"] is None:
        state_raw["in_hand"] = "none"  # the snapshot's null: the cue ball is on the bed
    try:
        st = MatchState.from_scenario(ref, state_raw, balls, file)
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
    st = _frames(file, snap, st)
    st = replace(st, out=_out(file, snap, st, ref.ball_set(st.n_players)))
    if not ref.negative_scores and any(sc < 0 for sc in st.scores):
        raise InputError(file, "payload.scores", f"scores >= 0 (no rule of {game} takes a score below 0)")
    return st, strokes


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _saved_balls(file: str, snap: Mapping[str, Any], spec: Any) -> dict[str, tuple[float, float]]:
    """``payload.balls``: where the physics can leave a ball on the bed (against a cushion, in a pocket's
    mouth: physics.file_checks.rests_on_bed, as scenario files), no two balls in one place."""
    from physics.file_checks import OVERLAP_TOLERANCE, bed_message, floor_to, rests_on_bed

    balls_raw = snap.get("balls")
    if not isinstance(balls_raw, dict):
        raise InputError(file, "payload.balls", "an object of ball ids to [x, y]")
    R = spec.ball_radius
    balls: dict[str, tuple[float, float]] = {}
    for b, pos in balls_raw.items():
        key = f"payload.balls.{b}"
        if (
            not isinstance(pos, list)
            or len(pos) != 2
            or not all(_int(c) or isinstance(c, float) for c in pos)
        ):
            raise InputError(file, key, "[x, y] in metres")
        x, y = float(pos[0]), float(pos[1])
        if not rests_on_bed(spec, x, y):
            raise InputError(file, key, bed_message(spec))
        for other, (ox, oy) in balls.items():
            if math.hypot(x - ox, y - oy) < 2 * R - OVERLAP_TOLERANCE:
                raise InputError(
                    file,
                    key,
                    f"a place clear of ball {other!r} (centres at least {floor_to(2 * R, 4)} m apart)",
                )
        balls[b] = (x, y)
    return balls


def _frames(file: str, snap: Mapping[str, Any], st: Any) -> Any:
    """Frames won and to win: below the target while the match goes on; the winner's exactly at it once over."""
    n = st.n_players
    ftw = snap.get("frames_to_win", 1)
    if not _int(ftw) or not 1 <= ftw <= MAX_INT:
        raise InputError(file, "payload.frames_to_win", "an integer >= 1")
    won = snap.get("frames_won", [0] * n)
    if not isinstance(won, list) or len(won) != n or not all(_int(w) and w >= 0 for w in won):
        raise InputError(file, "payload.frames_won", f"a list of {n} integers >= 0")
    if st.match_over:
        if not st.frame_over:
            raise InputError(file, "payload.frame_over", "true: the match is over, so is its last frame")
        if st.winner is None:
            raise InputError(file, "payload.winner", "the winner's index: the match is over")
        if won[st.winner] != ftw or any(w >= ftw for p, w in enumerate(won) if p != st.winner):
            raise InputError(
                file,
                "payload.frames_won",
                f"{ftw} frames for the winner (player {st.winner}), fewer for the rest",
            )
    elif any(w >= ftw for w in won):
        raise InputError(file, "payload.frames_won", f"fewer than {ftw} frames each while the match goes on")
    return replace(st, frames_to_win=ftw, frames_won=tuple(won))


def _out(file: str, snap: Mapping[str, Any], st: Any, ball_set: tuple[str, ...]) -> tuple[str, ...]:
    """``payload.out`` with the rest of the state: every ball of the game in exactly one place."""
    out = snap.get("out")
    if not isinstance(out, list) or not all(isinstance(b, str) for b in out) or len(set(out)) != len(out):
        raise InputError(file, "payload.out", "a list of ball ids, each once")
    placed = (
        set(st.balls) | {b for s in st.shelves for b in s} | ({st.cue} if st.in_hand is not None else set())
    )
    for b in out:
        if b not in ball_set:
            raise InputError(file, "payload.out", f"balls of {st.game} (got {b!r})")
        if b in placed:
            raise InputError(
                file, "payload.out", f"balls out of play only ({b!r} is also on the bed, a shelf or in hand)"
            )
    for b in ball_set:
        if b not in placed and b not in out:
            raise InputError(
                file,
                "payload.balls",
                f"every ball of {st.game} on the bed, in hand, on a shelf or out ({b!r} is nowhere)",
            )
    return tuple(out)


def main(argv: list[str] | None = None) -> int:
    """``python -m scenes.core.autosave FILE``: check a saved match; one line either way (exit 0 or 2)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m scenes.core.autosave FILE", file=sys.stderr)
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
