"""Resources (issue 17 §3): memory under any accepted --sample-hz, and the JSON written as it is made.

Before: ``simulate`` of a 16-ball break (10 s) at ``--sample-hz 10000`` peaked at 1.58 GB and wrote 107 MB
(the issue's longer stroke: 3.7 GB and 247 MB); any rate up to 10 kHz was accepted whatever the stroke.
Now sample rows are stored as packed doubles (80 bytes a row instead of ~380), the JSON is streamed, and
rate x duration x balls is capped at MAX_SAMPLE_ROWS: a request above it is one line naming the highest
rate that stroke allows.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from physics import simulate as sim
from physics.errors import InputError
from physics.record import SampleRows, ShotParams
from physics.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
PYRAMID = {
    "cue": (-0.9, 0.05),
    "1": (0.6, 0.0),
    "2": (0.67, 0.035),
    "3": (0.67, -0.035),
}


def _record(hz: float = 240.0):  # type: ignore[no-untyped-def]
    return simulate(
        "pyramid-12ft", PYRAMID, ShotParams(cue_speed=5.0, direction=0.5, tip=(0.1, 0.2)), sample_hz=hz
    )


def test_sample_rows_are_packed_and_read_back_as_tuples() -> None:
    rows = SampleRows()
    assert not rows
    assert len(rows) == 0
    rows.append((0.0, 1.0, 2.0, 0.034, 0.5, 0.0, 0.0, 1.0, 2.0, 3.0))
    rows.append((0.1, 1.1, 2.0, 0.034, 0.5, 0.0, 0.0, 1.0, 2.0, 3.0))
    assert rows
    assert len(rows) == 2
    assert rows[1] == (0.1, 1.1, 2.0, 0.034, 0.5, 0.0, 0.0, 1.0, 2.0, 3.0)
    assert rows[-1] == rows[1]
    assert list(rows)[0][0] == 0.0
    assert rows[0:1] == [rows[0]]
    with pytest.raises(IndexError):
        rows[2]


@pytest.mark.parametrize("indent", [None, 2])
def test_the_streamed_json_is_the_same_text(indent: int | None) -> None:
    rec = _record()
    assert rec.samples is not None
    assert any(rec.samples.values())
    out = io.StringIO()
    rec.write_json(out, indent=indent, extra={"ruling": {"foul": False, "points": [0, 0]}})
    want = json.dumps(
        {**rec.to_dict(), "ruling": {"foul": False, "points": [0, 0]}}, ensure_ascii=False, indent=indent
    )
    assert out.getvalue() == want


def test_the_streamed_json_without_samples_is_the_same_text() -> None:
    rec = simulate("pyramid-12ft", PYRAMID, ShotParams(cue_speed=2.0))
    out = io.StringIO()
    rec.write_json(out)
    assert out.getvalue() == rec.to_json()


def test_too_many_sample_rows_are_refused_with_the_highest_rate_this_stroke_allows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sim, "MAX_SAMPLE_ROWS", 2000)
    with pytest.raises(InputError) as exc:
        _record(hz=1000.0)
    assert exc.value.key == "sample_hz"
    top = float(re.search(r"at most ([0-9.]+) Hz", exc.value.expected).group(1))  # type: ignore[union-attr]
    rec = _record(hz=top)  # the printed bound is accepted
    assert rec.samples is not None
    assert sum(len(r) for r in rec.samples.values()) <= 2000


def test_the_app_rate_never_needs_the_estimate() -> None:
    """120 Hz (the app's replay) over the longest stroke the settings allow with 22 balls fits the cap
    outright, so no stroke of the app is simulated twice."""
    assert 120 * 120.0 * 22 < sim.MAX_SAMPLE_ROWS
    assert 1000 * 120.0 * 22 < sim.MAX_SAMPLE_ROWS


def _peak_mb(*args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    code = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "sys.stdout.write(r.stdout[-2000:]); sys.stderr.write(r.stderr[-2000:])\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0)\n"
        "sys.exit(r.returncode)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, sys.executable, "main.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    return float(r.stdout.strip().splitlines()[-1]), r


@pytest.mark.slow
def test_the_heaviest_accepted_request_stays_under_500_mb(tmp_path: Path) -> None:
    """A full snooker rack broken with side (22 balls, 9.5 s: 2.1 million rows at 10 kHz, the most rows of
    any stroke found) through the heaviest writer: ``referee --all-games`` with indented JSON."""
    from rules.registry import get_referee

    rack = get_referee("snooker").rack(2)
    lines = ['game = "snooker"', "[balls]", "cue = [-1.2, 0.1]"]
    lines += [f"{b} = [{x!r}, {y!r}]" for b, (x, y) in rack.items() if b != "cue"]
    lines += ["[shot]", "cue_speed = 8.0", "elevation = 2.0", "tip = [0.5, 0.5]"]
    p = tmp_path / "snooker-break.toml"
    p.write_text("\n".join(lines) + "\n", "utf-8")
    out = tmp_path / "r.json"
    mb, r = _peak_mb("referee", str(p), "--all-games", "--sample-hz", "10000", "--json", str(out))
    assert r.returncode == 0, r.stderr
    assert mb < 500, f"peak {mb:.0f} MB"
    with out.open(encoding="utf-8") as f:
        rows = sum(len(v) for v in json.load(f)["samples"].values())
    assert rows > 1_500_000  # the samples are all there
