"""The registry of referees: ``@register`` on a :class:`rules.base.Referee` subclass, found by id or alias.

Game modules live in ``rules/games/`` (``russian.py``, ``pool.py``, ``snooker.py``, ``golf.py``); each
registers its classes when imported. ``rules/games/__init__.py`` imports whichever exist, so the
registry is complete as soon as anything asks it for a game.
"""

from __future__ import annotations

from typing import TypeVar

from physics.errors import InputError
from physics.tables import GAME_TABLES
from rules.base import Referee

_BY_ID: dict[str, type[Referee]] = {}
_ALIASES: dict[str, str] = {}
_INSTANCES: dict[str, Referee] = {}

R = TypeVar("R", bound=type[Referee])


def register(cls: R) -> R:
    """Class decorator: make a referee findable by its id and aliases (checked against design.md)."""
    gid = cls.id
    if gid not in GAME_TABLES or gid == "practice":
        raise ValueError(f"{cls.__name__}: unknown game id {gid!r}")
    if cls.table_id != GAME_TABLES[gid]:
        raise ValueError(
            f"{cls.__name__}: table {cls.table_id!r} but design.md plays {gid} on {GAME_TABLES[gid]}"
        )
    if gid in _BY_ID and _BY_ID[gid] is not cls:
        raise ValueError(f"game {gid!r} registered twice")
    _BY_ID[gid] = cls
    for a in cls.aliases:
        _ALIASES[a.lower()] = gid
    return cls


def _load() -> None:
    import rules.games  # noqa: F401  (registers every game module that exists)


def get_referee(game: str) -> Referee:
    """The referee for a game id or alias; unknown → InputError naming the known ids."""
    _load()
    gid = game if game in _BY_ID else _ALIASES.get(game.lower(), game)
    if gid not in _BY_ID:
        raise InputError("game", game, f"a game with a referee: {', '.join(sorted(_BY_ID))}")
    if gid not in _INSTANCES:
        _INSTANCES[gid] = _BY_ID[gid]()
    return _INSTANCES[gid]


def games() -> list[tuple[str, dict[str, str], str]]:
    """(id, names {en, ru}, table id) of every registered game, in design.md's order."""
    _load()
    order = list(GAME_TABLES)
    return [
        (gid, dict(_BY_ID[gid].names), _BY_ID[gid].table_id)
        for gid in sorted(_BY_ID, key=lambda g: order.index(g))
    ]


def games_for_table(table_id: str) -> list[str]:
    return [gid for gid, _, t in games() if t == table_id]
