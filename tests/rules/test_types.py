"""The referee's typed contract holds: ``mypy --strict rules`` passes (issue 12 §4)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is a dev dependency")
def test_mypy_strict_rules() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "rules"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stdout[-3000:]
