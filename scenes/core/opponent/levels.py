"""The computer opponent's levels: data in ``assets/opponent/levels.toml``, checked as any user file is.

A bad value is one :class:`physics.errors.InputError` naming the file, the key (``level.3.aim_deg``) and what
was expected; ``main.py`` prints it as one line and exits 2.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from physics.errors import InputError
from physics.files import read_toml

LEVELS_FILE = Path(__file__).resolve().parents[3] / "assets" / "opponent" / "levels.toml"
LEVEL_RANGE = (1, 5)

# key: (lower bound, upper bound, meaning) of the numbers; the flags are true/false.
_NUMBERS: dict[str, tuple[float, float, str]] = {
    "speed_sd": (0.0, 1.0, "a relative error from 0 to 1"),
    "aim_deg": (0.0, 20.0, "degrees from 0 to 20"),
    "tip_sd": (0.0, 0.5, "ball radii from 0 to 0.5"),
    "elevation_deg": (0.0, 20.0, "degrees from 0 to 20"),
}
_COUNTS: dict[str, tuple[int, int]] = {
    "budget": (4, 200),
    "pots": (1, 40),
    "variants": (1, 6),
    "refine": (0, 5),
    "safeties": (0, 40),
    "breaks": (1, 20),
}


@dataclass(frozen=True)
class Level:
    """One level: its execution noise and its search (levels.toml explains every key)."""

    number: int
    speed_sd: float
    aim_deg: float
    tip_sd: float
    elevation_deg: float
    budget: int
    pots: int
    variants: int
    refine: int
    safeties: int
    position: bool
    reply: bool
    breaks: int


def _read_level(file: str, n: int, raw: Any) -> Level:
    where = f"level.{n}"
    if not isinstance(raw, dict):
        raise InputError(file, where, "a table of the level's keys")
    known = [f.name for f in fields(Level) if f.name != "number"]
    for k in raw:
        if k not in known:
            raise InputError(file, f"{where}.{k}", f"one of {', '.join(known)}")
    values: dict[str, Any] = {}
    for k in known:
        if k not in raw:
            raise InputError(file, f"{where}.{k}", "present (every level gives every key)")
        v = raw[k]
        if k in _NUMBERS:
            lo, hi, what = _NUMBERS[k]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= float(v) <= hi:
                raise InputError(file, f"{where}.{k}", what)
            values[k] = float(v)
        elif k in _COUNTS:
            lo_i, hi_i = _COUNTS[k]
            if isinstance(v, bool) or not isinstance(v, int) or not lo_i <= v <= hi_i:
                raise InputError(file, f"{where}.{k}", f"a whole number from {lo_i} to {hi_i}")
            values[k] = v
        else:
            if not isinstance(v, bool):
                raise InputError(file, f"{where}.{k}", "true or false")
            values[k] = v
    return Level(number=n, **values)


def load_levels(path: str | Path = LEVELS_FILE) -> dict[int, Level]:
    """Every level of the file, by number (all of 1..5 must be there)."""
    file = str(path)
    data = read_toml(path, "levels file")
    table = data.get("level")
    if not isinstance(table, dict) or set(data) != {"level"}:
        raise InputError(file, "level", "only [level.N] tables")
    lo, hi = LEVEL_RANGE
    out: dict[int, Level] = {}
    for key, raw in table.items():
        if not key.isdigit() or not lo <= int(key) <= hi:
            raise InputError(file, f"level.{key}", f"a level number from {lo} to {hi}")
        out[int(key)] = _read_level(file, int(key), raw)
    missing = [n for n in range(lo, hi + 1) if n not in out]
    if missing:
        raise InputError(file, f"level.{missing[0]}", f"every level from {lo} to {hi}")
    return out


def level(n: int, path: str | Path = LEVELS_FILE) -> Level:
    """Level ``n`` of the levels file (an InputError for a number outside 1..5)."""
    lo, hi = LEVEL_RANGE
    if not lo <= n <= hi:
        raise InputError("level", str(n), f"a level from {lo} to {hi}")
    return load_levels(path)[n]
