"""The registry of referees: the one list of games, and the lookups everything else uses.

Game modules live in ``rules/games/`` (``russian.py``, ``pool.py``, ``snooker.py``, ``golf.py``); each
registers its classes (``@register``, ``rules/registration.py``) when imported, in the order the games
are listed (``games``, the menu, the trainer); the registry imports the game modules when first asked.
A game declares everything the rest of the program needs (``rules/base.py``); nothing else lists games.

:data:`CATALOG` is the registry as the scenario loader's catalog of games: physics never imports the rules,
the caller hands it over (``rules/scenarios.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from physics.errors import InputError
from rules.base import Referee
from rules.contract import Family
from rules.registration import _ALIASES, _BY_ID, register, unregister
from rules.state import scenario_balls

__all__ = [
    "CATALOG",
    "GameEntry",
    "family",
    "game_ids",
    "games",
    "games_for_table",
    "get_referee",
    "register",
]

_INSTANCES: dict[tuple[str, str | None], Referee] = {}


class GameEntry(NamedTuple):
    id: str
    names: dict[str, str]
    table: str


def forget(game: str) -> None:
    """Unregister a game and drop its instance (a test's throwaway game)."""
    unregister(game)
    for key in [k for k in _INSTANCES if k[0] == game]:
        del _INSTANCES[key]


def _load() -> None:
    import rules.games  # noqa: F401  (registers every game module)


def get_referee(game: str, table: str | None = None) -> Referee:
    """The referee for a game id or alias, on ``table`` (the game's own table by default; another of its
    ``tables()``: golf on a snooker table). Unknown game or a table it is not played on → InputError."""
    _load()
    gid = game if game in _BY_ID else _ALIASES.get(game.lower(), game)
    if gid not in _BY_ID:
        raise InputError("game", game, f"a game with a referee: {', '.join(_BY_ID)}")
    cls = _BY_ID[gid]
    key = (gid, None if table in (None, cls.table_id) else table)
    if key not in _INSTANCES:
        _INSTANCES[key] = cls(key[1])
    return _INSTANCES[key]


def game_ids() -> tuple[str, ...]:
    """Every game with a referee, in the registry's order."""
    _load()
    return tuple(_BY_ID)


def referees() -> tuple[Referee, ...]:
    return tuple(get_referee(g) for g in game_ids())


def games() -> list[GameEntry]:
    """(id, names {en, ru}, table id) of every registered game, in the registry's order."""
    return [GameEntry(r.id, dict(r.names), r.table_id) for r in referees()]


def games_for_table(table_id: str) -> list[str]:
    """Games played on a table (their own or one they may be played on)."""
    return [r.id for r in referees() if table_id in r.tables()]


def family(game: str) -> Family:
    return get_referee(game).family


class _Catalog:
    """The registry as the scenario loader's :class:`physics.scenario.GameCatalog`."""

    def game_ids(self) -> Sequence[str]:
        return game_ids()

    def tables_of(self, game: str) -> Sequence[str]:
        return get_referee(game).tables()

    def balls_of(self, game: str, state: Mapping[str, Any]) -> Sequence[str]:
        return scenario_balls(get_referee(game), state)


CATALOG = _Catalog()
