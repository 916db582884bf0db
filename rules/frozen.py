"""A read-only mapping for frozen values (rulings, match states): hashable, picklable, compares like a dict."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """An immutable copy of a mapping. ``FrozenMap(d) == d`` for a dict with the same items."""

    __slots__ = ("_d", "_h")

    def __init__(self, items: Mapping[K, V] | None = None) -> None:
        self._d: dict[K, V] = dict(items) if items is not None else {}
        self._h: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._d[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __repr__(self) -> str:
        return f"FrozenMap({self._d!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._d == other._d
        if isinstance(other, Mapping):
            return self._d == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(frozenset((k, _hashable(v)) for k, v in self._d.items()))
        return self._h

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (self._d,))


def _hashable(v: object) -> object:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return frozenset((k, _hashable(x)) for k, x in v.items())
    return v


def freeze(items: Mapping[K, V] | None = None) -> FrozenMap[K, V]:
    """``items`` as a :class:`FrozenMap` (itself when it already is one)."""
    if isinstance(items, FrozenMap):
        return items
    return FrozenMap(items)
