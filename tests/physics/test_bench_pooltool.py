"""bench --pooltool: pooltool's break is timed in another interpreter as a subprocess, and an interpreter
that cannot give it is one clear error naming it (the bench then exits 2)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from physics.bench import PooltoolError, add_pooltool, format_pooltool, pooltool_break


def _fake(tmp_path: Path, body: str) -> str:
    """An "interpreter" that ignores the script it is given and runs ``body`` (a shell script)."""
    exe = tmp_path / "python"
    exe.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return str(exe)


def _result() -> dict[str, Any]:
    return {
        "physics": {
            "pyramid-break": {"cpu_s": 0.05, "simulated_s": 9.0},
            "pyramid-soft-break": {"cpu_s": 0.07, "against": "pyramid-break"},
        }
    }


def test_pooltools_figure_and_our_lead_over_it(tmp_path: Path) -> None:
    line = '{"pooltool": "0.6.0", "balls": 16, "cue_speed": 8.0, "simulated_s": 6.6, "events": 138, '
    line += '"cpu_s": 0.125, "wall_s": 0.2, "runs": 3}'
    python = _fake(tmp_path, f"echo 'numba warming up'\necho '{line}'")
    result = _result()
    add_pooltool(result, python)
    assert result["pooltool"]["cpu_s"] == 0.125
    assert result["physics"]["pyramid-break"]["pooltool_cpu_ratio"] == 2.5
    assert "pooltool_cpu_ratio" not in result["physics"]["pyramid-soft-break"]
    en = format_pooltool(result, "en").splitlines()
    assert en[0].startswith("pooltool 0.6.0 8-ball break (16 balls, 8 m/s): 6.60 s simulated, CPU 0.125 s")
    assert en[1] == "pyramid-break: pooltool's break CPU / this break's = 2.50"
    assert format_pooltool(result, "ru").splitlines()[1].startswith("разбой пирамиды: ЦП разбоя pooltool")


def test_no_interpreter_no_pooltool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("POOLTOOL_PYTHON", raising=False)
    result = _result()
    add_pooltool(result, None)
    assert "pooltool" not in result


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("echo 'ModuleNotFoundError: No module named pooltool' >&2\nexit 1", "exit 1: ModuleNotFoundError"),
        ("echo 'not json'", "expected one JSON line with cpu_s"),
        ('echo \'{"cpu_s": "fast"}\'', "expected one JSON line with cpu_s"),
    ],
)
def test_an_interpreter_that_cannot_time_it_is_named(tmp_path: Path, body: str, says: str) -> None:
    python = _fake(tmp_path, body)
    with pytest.raises(PooltoolError) as err:
        pooltool_break(python)
    assert python in str(err.value)
    assert says in str(err.value)


def test_a_missing_interpreter_is_named(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-python")
    assert not os.path.exists(missing)
    with pytest.raises(PooltoolError, match="no-such-python"):
        pooltool_break(missing)
