"""The one error type for bad user input anywhere in the product.

Every loader (settings, scenario files, saved matches, trainer history) raises
:class:`InputError`; ``main.py`` turns it into one line on stderr and exit code 2.
"""

from __future__ import annotations

import unicodedata
from typing import Any


class InputError(ValueError):
    """Bad input: which file, which key, what was expected."""

    def __init__(self, file: str, key: str, expected: str) -> None:
        self.file = str(file)
        self.key = key
        self.expected = expected
        super().__init__(f"{self.file}: {key}: {expected}")

    def __reduce__(self) -> tuple[Any, ...]:
        # An error raised in the physics worker crosses back to the app by pickle, which rebuilds it from
        # ``args`` (the message alone) unless told how: it broke the worker pool instead.
        return (_rebuild, (type(self), self.__dict__))

    def line(self) -> str:
        return printable(f"error: {self.file}: {self.key}: {self.expected}")


def _rebuild(cls: type[InputError], state: dict[str, Any]) -> InputError:
    exc = cls.__new__(cls)
    InputError.__init__(exc, state["file"], state["key"], state["expected"])
    exc.__dict__.update(state)
    return exc


def printable(text: str, keep: str = "") -> str:
    """``text`` safe for a terminal: control characters (an escape sequence in a case title, a carriage
    return, a bell) and bidirectional overrides written as ``\\xNN``/``\\uNNNN``; ``keep`` lists those
    that may stay (``"\\n"`` for multi-line output)."""
    out = []
    for c in text:
        if c in keep or not (
            unicodedata.category(c) == "Cc" or "\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069"
        ):
            out.append(c)
        else:
            n = ord(c)
            out.append(f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}")
    return "".join(out)
