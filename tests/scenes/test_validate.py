"""``python main.py validate``: every fact of docs/physics.md §Validation re-measured with the real engine, one plot
per fact, an HTML page, report.json and the table of errors; bad arguments are one line and exit 2."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from physics.validation import fact_ids
from physics.validation_data import Check, Fact, Series, text
from scenes.core.validate import format_table, write_report

ROOT = Path(__file__).resolve().parents[2]


def _main(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp / "data"))
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
        check=False,
    )


def _fact() -> Fact:
    return Fact(
        id="demo",
        title=text("A demo", "Пример"),
        source=text("a source", "источник"),
        table="pool-9ft",
        x_label=text("x", "x"),
        y_label=text("y", "y"),
        series=(
            Series(text("guide", "линия"), (0.0, 1.0), (0.0, 1.0), "guide"),
            Series(text("model", "модель"), (0.0, 1.0), (0.0, 2.0), "published"),
            Series(text("measured", "измерения"), (0.5,), (1.1,), "published", points=True),
            Series(text("simulated", "симуляция"), (0.25, 0.75), (0.5, 1.4), points=True),
        ),
        checks=(
            Check(text("at 0.25", "при 0,25"), 0.5, 0.5, 0.1, "m"),
            Check(text("at 0.75", "при 0,75"), 1.5, 1.4, 0.05, "m"),
            Check(text("never shown", "не получено"), 1.0, None, 0.1, "m"),
        ),
    )


def test_the_report_of_a_fact(tmp_path: Path) -> None:
    f = _fact()
    assert [c.ok for c in f.checks] == [True, False, False]
    assert f.passed == 1
    assert f.worst is f.checks[2]  # a quantity the stroke did not show is the worst of all
    index = write_report([f], tmp_path, "en", quick=True)
    page = index.read_text(encoding="utf-8")
    assert (tmp_path / "demo.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert 'src="demo.png"' in page
    assert "not shown" in page
    assert "OFF" in page
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["facts"][0]["checks"][2] == {
        "what": {"en": "never shown", "ru": "не получено"},
        "unit": "m",
        "published": 1.0,
        "simulated": None,
        "error": None,
        "tolerance": 0.1,
        "ok": False,
    }
    ru = format_table([f], "ru")
    assert "в допуске" in ru
    assert "1/3" in ru
    assert "не получено" in ru


def test_the_russian_table_writes_russian_units_and_decimal_commas() -> None:
    """One language at a time: the Russian table has no Latin unit and no decimal point."""
    f = replace(_fact(), checks=(Check(text("at 0.75 m/s", "при 0.75 м/с"), 1.5, 1.4, 0.05, "m"),))
    ru = format_table([f], "ru")
    assert "1,500 м" in ru
    assert "1,400 м" in ru
    assert "-0,100 м" in ru
    assert "при 0,75 м/с" in ru
    assert not re.search(r"\d\.\d", ru)
    assert not re.search(r"\d m\b", ru)
    en = format_table([f], "en")
    assert "1.500 m" in en
    assert "at 0.75 m/s" in en


@pytest.mark.parametrize(
    "args",
    [("validate", "--quick", "--fast"), ("validate", "extra"), ("validate", "--out")],
)
def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path, args: tuple[str, ...]) -> None:
    r = _main(*args, tmp=tmp_path)
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("error: command line")


def test_an_out_that_is_a_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "taken"
    f.write_text("x", encoding="utf-8")
    r = _main("validate", "--quick", "--out", str(f), tmp=tmp_path)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "--out" in r.stderr
    assert "folder" in r.stderr
    assert "Traceback" not in r.stderr


def test_the_default_folder_is_validation_in_the_data_folder(tmp_path: Path) -> None:
    from dataclasses import replace

    from scenes.core.settings import Settings
    from scenes.core.validate import out_folder

    s = Settings()
    s = replace(s, trainer=replace(s.trainer, data_dir=str(tmp_path / "data")))
    assert out_folder(None, s) == tmp_path / "data" / "validation"
    assert (tmp_path / "data" / "validation").is_dir()
    assert out_folder(str(tmp_path / "x" / "y"), s) == tmp_path / "x" / "y"


@pytest.mark.slow
def test_quick_validation_measures_every_fact_with_the_engine(tmp_path: Path) -> None:
    """What CI runs: the quick mode, every fact, well under a minute of CPU."""
    out = tmp_path / "report"
    r = _main("--lang", "en", "validate", "--quick", "--out", str(out), tmp=tmp_path)
    assert r.returncode == 0, r.stderr
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [f["id"] for f in data["facts"]] == list(fact_ids())
    assert data["quick"] is True
    page = (out / "index.html").read_text(encoding="utf-8")
    for f in data["facts"]:
        assert (out / f"{f['id']}.png").stat().st_size > 10_000
        assert f'src="{f["id"]}.png"' in page
        assert f["checks"]
        assert all(c["published"] is not None for c in f["checks"])
        # The terminal table has a line for the fact with its count of checks within tolerance.
        assert any(
            line.startswith(f["id"]) and f"{f['passed']}/{len(f['checks'])}" in line
            for line in r.stdout.splitlines()
        )
    # Facts today's physics already meets (docs/physics.md §Validation): the report must say so.
    ok = {f["id"]: f["passed"] == len(f["checks"]) for f in data["facts"]}
    assert ok["squirt"]
    assert ok["rollout"]
    assert ok["throw"]
    assert f"Report: {out / 'index.html'}" in r.stdout
