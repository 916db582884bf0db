"""scenes/core/autosave.py: a saved match round-trips, a broken one is refused in one line with the file
untouched, and a process killed with SIGKILL while saving loses at most the stroke in flight."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from physics.errors import InputError
from physics.files import WriteError
from physics.record import ShotParams
from rules.registry import games, get_referee
from rules.state import MatchState
from scenes.core.autosave import MAX_BYTES, load_document, load_match, save_document, save_match

ROOT = Path(__file__).resolve().parents[2]


def _digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _new(game: str) -> MatchState:
    n = get_referee(game).player_range[0]
    return MatchState.new(get_referee(game), tuple(f"P{i + 1}" for i in range(n)))


@pytest.mark.parametrize("game", [g for g, _, _ in games()])
def test_fresh_match_round_trips_for_every_game(tmp_path: Path, game: str) -> None:
    st = _new(game)
    save_match(tmp_path / "m.json", st, 0)
    back, strokes = load_match(tmp_path / "m.json")
    assert back.snapshot() == st.snapshot()
    assert strokes == 0


def test_match_in_progress_round_trips(tmp_path: Path) -> None:
    """Three real strokes of a 71 match (simulated, judged, applied): every field of the state survives."""
    from physics.simulate import simulate

    st = MatchState.new(
        get_referee("russian-pyramid"),
        ("A", "B"),
        layout={"cue": (-0.9, 0.05), "1": (0.3, 0.0), "2": (0.6, 0.3)},
    )
    ref = get_referee("russian-pyramid")
    for k, (speed, direction) in enumerate([(3.0, 0.0), (2.0, 30.0), (1.5, 200.0)]):
        balls = dict(st.balls)
        if "cue" not in balls:
            balls["cue"] = next(
                p
                for p in [(-0.9, 0.05), (-0.9, -0.4), (-1.2, 0.3)]
                if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > 0.1**2 for q in balls.values())
            )
        rec = simulate(ref.table, balls, ShotParams(cue_speed=speed, direction=direction, elevation=5.0))
        st = st.apply(ref.judge(st, rec), None)
        save_match(tmp_path / "m.json", st, k + 1)
        back, strokes = load_match(tmp_path / "m.json")
        assert back.snapshot() == st.snapshot()
        assert strokes == k + 1


def _valid(tmp_path: Path) -> tuple[Path, dict]:
    st = _new("russian-pyramid")
    st = replace(
        st,
        balls={**st.balls, "cue": (-0.9, 0.05)},
        scores=(12, 30),
        to_play=1,
        is_break=False,
        phase="play",
        in_hand=None,
    )
    p = tmp_path / "match.json"
    save_match(p, st, 7)
    return p, json.loads(p.read_text("utf-8"))


def _write(p: Path, doc: dict) -> None:
    p.write_text(json.dumps(doc), "utf-8")


BROKEN = {
    # wrong types
    "scores a string": (lambda d: d["payload"].__setitem__("scores", "12:30"), "payload.scores"),
    "to_play out of range": (lambda d: d["payload"].__setitem__("to_play", 5), "payload.to_play"),
    "ball position a string": (lambda d: d["payload"]["balls"].__setitem__("7", "centre"), "payload.balls.7"),
    "payload a list": (lambda d: d.__setitem__("payload", [1, 2]), "payload"),
    "break a number": (lambda d: d["payload"].__setitem__("break", 1), "payload.break"),
    "version a string": (lambda d: d.__setitem__("version", "1"), "version"),
    "newer version": (lambda d: d.__setitem__("version", 99), "version"),
    "another kind": (lambda d: d.__setitem__("kind", "trainer"), "kind"),
    "another program": (lambda d: d.__setitem__("format", "pooltool"), "format"),
    # huge values
    "huge score": (lambda d: d["payload"].__setitem__("scores", [10**40, 0]), "payload.scores[0]"),
    "huge position": (lambda d: d["payload"]["balls"].__setitem__("7", [1e300, 0.0]), "payload.balls.7[0]"),
    "ball off the bed": (lambda d: d["payload"]["balls"].__setitem__("7", [9.0, 0.0]), "payload.balls.7"),
    "long name": (lambda d: d["payload"].__setitem__("players", ["x" * 10**5, "y"]), "payload.players[0]"),
    "many strokes": (lambda d: d.__setitem__("saved_strokes", -3), "saved_strokes"),
    # unknown ids
    "unknown game": (lambda d: d["payload"].__setitem__("game", "chess"), "payload.game"),
    "snooker ball in a pyramid game": (
        lambda d: d["payload"]["balls"].__setitem__("red3", [0.1, 0.1]),
        "payload.balls.red3",
    ),
    "unknown ball": (lambda d: d["payload"]["balls"].__setitem__("16", [0.1, 0.1]), "payload.balls.16"),
    "unknown phase": (lambda d: d["payload"].__setitem__("phase", "overtime"), "payload.phase"),
    "unknown in_hand": (lambda d: d["payload"].__setitem__("in_hand", "pocket"), "payload.in_hand"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_match_is_refused_naming_the_key_and_left_untouched(tmp_path: Path, case: str) -> None:
    p, doc = _valid(tmp_path)
    mutate, key = BROKEN[case]
    mutate(doc)
    _write(p, doc)
    before = _digest(p)
    with pytest.raises(InputError) as ei:
        load_match(p)
    assert ei.value.file == str(p), ei.value
    assert ei.value.key == key, ei.value
    assert _digest(p) == before


def test_every_truncation_is_refused(tmp_path: Path) -> None:
    p, _ = _valid(tmp_path)
    full = p.read_bytes()
    for cut in range(0, len(full) - 2, max(1, len(full) // 97)):
        p.write_bytes(full[:cut])
        with pytest.raises(InputError) as ei:
            load_match(p)
        assert ei.value.key in ("<json>", "<document>", "<encoding>"), (cut, ei.value)
        assert p.read_bytes() == full[:cut]


@pytest.mark.parametrize("encoding", ["utf-16", "cp1251", "latin-1-junk"])
def test_wrong_encoding_is_refused(tmp_path: Path, encoding: str) -> None:
    p, doc = _valid(tmp_path)
    doc["payload"]["players"] = ["Игрок", "Ёж"]
    text = json.dumps(doc, ensure_ascii=False)
    raw = (
        text.encode(encoding)
        if encoding != "latin-1-junk"
        else text.encode("utf-8")[:40] + b"\xff\xfe" + b"}"
    )
    p.write_bytes(raw)
    with pytest.raises(InputError) as ei:
        load_match(p)
    assert ei.value.key == "<encoding>"
    assert p.read_bytes() == raw


def test_huge_and_deep_files_are_refused_without_reading_them_whole(tmp_path: Path) -> None:
    p = tmp_path / "big.json"
    p.write_bytes(b"[" * 10 + b" " * (MAX_BYTES + 1))
    with pytest.raises(InputError) as ei:
        load_document(p, "match")
    assert ei.value.key == "<file>"
    p.write_text("[" * 100000 + "]" * 100000, "utf-8")
    with pytest.raises(InputError) as ei:
        load_document(p, "match")
    assert ei.value.key == "<document>"
    p.write_text('{"format": "billiards3d", "kind": "match", "version": 1, "payload": {"x": NaN}}', "utf-8")
    with pytest.raises(InputError) as ei:
        load_document(p, "match")
    assert ei.value.key == "<json>"


def test_cli_says_one_line_and_exits_2(tmp_path: Path) -> None:
    p, doc = _valid(tmp_path)
    doc["payload"]["game"] = "chess"
    _write(p, doc)
    before = _digest(p)
    r = subprocess.run(
        [sys.executable, "-m", "scenes.core.autosave", str(p)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"error: {p}: payload.game:"), r.stderr
    assert _digest(p) == before


def test_failed_save_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p, _ = _valid(tmp_path)
    before = _digest(p)
    with pytest.raises(ValueError):
        save_document(p, "match", {"x": float("nan")}, 8)
    assert _digest(p) == before

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(WriteError) as exc:
        save_match(p, _new("russian-pyramid"), 8)
    assert exc.value.reason == "No space left on device"
    assert _digest(p) == before
    assert not list(tmp_path.glob(".*.tmp"))  # the temporary file is removed
    load_match(p)


WRITER = textwrap.dedent("""
    import sys
    from dataclasses import replace
    from rules.registry import get_referee
    from rules.state import MatchState
    from scenes.core.autosave import save_match
    path = sys.argv[1]
    st = MatchState.new(get_referee("russian-pyramid"), ("A", "B"))
    k = 0
    print("ready", flush=True)
    while True:
        k += 1
        # a stroke: the score goes up by one, then the match is saved and the save acknowledged
        st = replace(st, scores=(k, 0), is_break=False)
        save_match(path, st, k)
        print(k, flush=True)
""")


@pytest.mark.parametrize("seed", range(4))
def test_sigkill_while_saving_loses_at_most_the_stroke_in_flight(tmp_path: Path, seed: int) -> None:
    """A writer saves after every 'stroke' and acknowledges each save; it is killed at a random moment.
    The file then loads, and holds the last acknowledged stroke or the one in flight."""
    p = tmp_path / "match.json"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(p)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(random.Random(seed).uniform(0.05, 0.6))
    proc.send_signal(signal.SIGKILL)
    rest = proc.stdout.read()
    proc.wait(timeout=30)
    acks = [int(x) for x in rest.split()]
    acked = acks[-1] if acks else 0
    if not p.exists():
        assert acked == 0
        return
    st, strokes = load_match(p)
    assert acked <= strokes <= acked + 1
    assert st.scores == (strokes, 0)
    assert not [f for f in os.listdir(tmp_path) if f not in ("match.json",) and not f.endswith(".tmp")]
