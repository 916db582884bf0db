"""Registering a referee class: ``@register`` checks what a game must declare and records it.

Kept apart from ``rules/registry.py`` (the lookups) so that the game modules, which register themselves,
and the registry, which imports them, do not import each other.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TypeVar

from physics.scenario import PRACTICE
from physics.tables import TABLE_IDS, load_table
from rules.base import Referee
from rules.contract import Family

_BY_ID: dict[str, type[Referee]] = {}
_ALIASES: dict[str, str] = {}
_ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

R = TypeVar("R", bound=type[Referee])


def _check(cls: type[Referee]) -> None:
    """A referee class must declare what the rest of the program asks of a game."""
    gid = getattr(cls, "id", None)
    if not isinstance(gid, str) or not _ID_RE.match(gid) or gid == PRACTICE:
        raise ValueError(f"{cls.__name__}: a game id like 'moscow-pyramid', got {gid!r}")
    names = getattr(cls, "names", None)
    if not isinstance(names, Mapping) or not all(
        isinstance(names.get(k), str) and names[k] for k in ("en", "ru")
    ):
        raise ValueError(f"{cls.__name__}: names in English and Russian")
    if not isinstance(getattr(cls, "family", None), Family):
        raise ValueError(f"{cls.__name__}: a rulebook family (rules.contract.Family)")
    for t in cls.tables():
        if t not in TABLE_IDS:
            raise ValueError(f"{cls.__name__}: table {t!r} is not one of {', '.join(TABLE_IDS)}")
        kit = load_table(t).equipment
        extra = [b for b in cls.balls if b not in kit]
        if not cls.balls or extra:
            raise ValueError(f"{cls.__name__}: balls {extra or 'none'} not among the balls of {t}")


def register(cls: R) -> R:
    """Class decorator: make a referee findable by its id and aliases."""
    _check(cls)
    gid = cls.id
    if gid in _BY_ID and _BY_ID[gid] is not cls:
        raise ValueError(f"game {gid!r} registered twice")
    for a in cls.aliases:
        if _ALIASES.get(a.lower(), gid) != gid or a.lower() in _BY_ID:
            raise ValueError(f"{cls.__name__}: alias {a!r} is another game's")
    _BY_ID[gid] = cls
    for a in cls.aliases:
        _ALIASES[a.lower()] = gid
    return cls


def unregister(game: str) -> None:
    """Remove a game (a test's throwaway game); unknown ids are ignored."""
    cls = _BY_ID.pop(game, None)
    if cls is not None:
        for a in cls.aliases:
            if _ALIASES.get(a.lower()) == game:
                del _ALIASES[a.lower()]
