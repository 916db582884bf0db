"""The one word the referee's own command prints (``python main.py games``), in Russian or English.

Everything ``referee`` prints for a person is ``scenes/core/referee_text.py``'s, from the gettext catalogs."""

from __future__ import annotations

_L: dict[str, dict[str, str]] = {
    "games": {"en": "Games", "ru": "Игры"},
}


def t(key: str, lang: str) -> str:
    return _L[key][lang if lang in ("en", "ru") else "en"]
