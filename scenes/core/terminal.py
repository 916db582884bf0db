"""Text for a terminal: whatever a file says reaches it with its control characters escaped.

A case title is user data (``train --generate`` writes cases, a user may copy one in): an escape sequence in it
could clear the screen, retitle the window or hide the lines above it. Everything the text trainer prints
goes through :class:`SafeText`; error lines go through ``InputError.line``.
"""

from __future__ import annotations

from typing import Any, TextIO

from physics.errors import printable


class SafeText:
    """A text stream that writes through to ``out`` with control characters escaped (new lines kept)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, text: str) -> int:
        return self.out.write(printable(text, keep="\n"))

    def flush(self) -> None:
        self.out.flush()


class OutputRefused(OSError):
    """stdout refused what was written to it: `> out.json` on a full disk."""


class Output:
    """``sys.stdout`` with its write failures told apart from those of the files we open ourselves (those
    name their file: physics.files.WriteError); a closed pipe stays BrokenPipeError."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputRefused(exc.errno, exc.strerror) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputRefused(exc.errno, exc.strerror) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
