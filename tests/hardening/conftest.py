"""Fixtures the hardening tests share."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder whose disk is full: a tiny tmpfs filled up, or (without mount rights) writes failing ENOSPC."""
    d = tmp_path / "tiny"
    d.mkdir()
    mounted = (
        os.geteuid() == 0
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(d)], capture_output=True
        ).returncode
        == 0
    )
    if not mounted:
        pytest.skip("cannot mount a small tmpfs here (the fault-injection tests cover it)")
    try:
        yield d
    finally:
        subprocess.run(["umount", "-l", str(d)], capture_output=True)
