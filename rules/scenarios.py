"""Scenario files read with the referee's games: ``physics.scenario``'s loader handed the registry's catalog,
so a file's ``game = "..."`` means the same whatever was imported before (physics knows no game)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from physics import scenario
from physics.scenario import Scenario
from rules.registry import CATALOG


def parse_scenario(data: Mapping[str, Any], file: str = "<scenario>") -> Scenario:
    return scenario.parse_scenario(data, file, CATALOG)


def load_scenario(path: str | Path) -> Scenario:
    return scenario.load_scenario(path, CATALOG)
