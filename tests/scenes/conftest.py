"""Shared fixtures of the scene tests: one offscreen ShowBase per session (software renderer, no display).

ShowBase cannot be built twice in one process, so every scene test shares ``offscreen_base``; tests make their
own scene roots and buffers on it and clean them up.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def offscreen_base() -> Iterator[Any]:
    from scenes.render import make_offscreen_base

    base = make_offscreen_base((320, 240), software=True)
    yield base
    base.destroy()
