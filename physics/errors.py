"""The one error type for bad user input anywhere in the product.

Every loader (settings, scenario files, saved matches, trainer history) raises
:class:`InputError`; ``main.py`` turns it into one line on stderr and exit code 2.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: which file, which key, what was expected."""

    def __init__(self, file: str, key: str, expected: str) -> None:
        self.file = str(file)
        self.key = key
        self.expected = expected
        super().__init__(f"{self.file}: {key}: {expected}")

    def line(self) -> str:
        return f"error: {self.file}: {self.key}: {self.expected}"
