"""Shared fixtures of the scene tests: one offscreen ShowBase per session (software renderer, no display).

ShowBase cannot be built twice in one process, so every scene test shares ``offscreen_base``; tests make their
own scene roots and buffers on it and clean them up.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def offscreen_base() -> Iterator[Any]:
    from scenes.render import make_offscreen_base

    base = make_offscreen_base((320, 240), software=True)
    yield base
    base.destroy()


@pytest.fixture()
def app(offscreen_base: Any, tmp_path: Path) -> Iterator[Any]:
    """The whole application on the shared base, its trainer data in the test's own folder (a test module
    that needs more of it, as the scene-count check, defines its own)."""
    from scenes.app import App
    from scenes.core.settings import Settings

    settings = replace(Settings(), trainer=replace(Settings().trainer, data_dir=str(tmp_path / "data")))
    a = App(offscreen_base, settings, offscreen=True)
    yield a
    a.close()
