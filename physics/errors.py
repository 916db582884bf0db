"""The one error type for bad user input anywhere in the product.

Every loader (settings, scenario files, saved matches, trainer history) raises
:class:`InputError`; ``main.py`` turns it into one line on stderr and exit code 2.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


class InputError(ValueError):
    """Bad input: which file, which key, what was expected."""

    def __init__(self, file: str, key: str, expected: str) -> None:
        self.file = str(file)
        self.key = key
        self.expected = expected
        super().__init__(f"{self.file}: {key}: {expected}")

    def line(self) -> str:
        return f"error: {self.file}: {self.key}: {self.expected}"


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """Read a TOML file; an unreadable file, bad encoding or bad TOML is one InputError naming the file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(str(p), "file", f"a readable {what} ({exc.strerror})") from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError(str(p), "file", "UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(p), "toml", f"valid TOML ({exc})") from None
