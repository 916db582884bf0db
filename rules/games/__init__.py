"""Game modules; each registers its referees on import. Modules another engineer has not written yet
are skipped, so the registry works while the games are being built."""

from __future__ import annotations

import importlib
import importlib.util

GAME_MODULES = ("russian", "pool", "snooker", "golf")

for _name in GAME_MODULES:
    if importlib.util.find_spec(f"{__name__}.{_name}") is not None:
        importlib.import_module(f"{__name__}.{_name}")
