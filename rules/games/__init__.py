"""Game modules; each registers its referees on import (rules/registration.py), in this order."""

from __future__ import annotations

import importlib

GAME_MODULES = ("russian", "pool", "snooker", "golf")

for _name in GAME_MODULES:
    importlib.import_module(f"{__name__}.{_name}")
