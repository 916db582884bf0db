"""The one error type for bad user input anywhere in the product.

Every loader (settings, scenario files, saved matches, trainer history) raises
:class:`InputError`; ``main.py`` turns it into one line on stderr and exit code 2.
"""

from __future__ import annotations

import tomllib
import unicodedata
from pathlib import Path
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


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """Read a TOML file; an unreadable file, bad encoding or bad TOML is one InputError naming the file.

    The size and the nesting depth are checked before the parser sees the text (physics.limits), and a
    UTF-8 byte-order mark, which Windows editors write, is accepted.
    """
    from physics.files import read_user_bytes  # files imports InputError
    from physics.limits import MAX_DEPTH, nesting_depth

    p = Path(path)
    raw = read_user_bytes(p, what)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(str(p), "file", f"UTF-8 text (bad byte at offset {exc.start})") from None
    text = text.removeprefix("\ufeff")
    if nesting_depth(text) > MAX_DEPTH:
        raise InputError(str(p), "file", f"arrays and tables nested at most {MAX_DEPTH} deep")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(p), "toml", f"valid TOML ({exc})") from None
