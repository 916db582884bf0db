"""Writing a file so that it is either the old one or the new one, whatever happens on the way.

Every document the product writes for the user (the match autosave, an F5 position, a JSON record, a
generated case) goes through :func:`atomic_text`: the text goes to a temporary file beside the target, is
flushed and fsync'ed, then ``os.replace`` swaps it in (atomic on POSIX and Windows) and the folder is
fsync'ed so the rename itself survives a power cut. A full disk, a read-only folder or a target that is a
folder is one :class:`WriteError` (an :class:`InputError`: one line and exit 2 on the command line, a warning
in the window), the temporary file is removed and the old file is left as it was.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from physics.errors import InputError


class WriteError(InputError):
    """A file could not be written (full disk, no permission, a folder in the way); nothing was replaced.
    ``reason`` is the system's word for it ("No space left on device")."""

    def __init__(self, file: str, key: str, reason: str) -> None:
        super().__init__(file, key, f"a file that can be written ({reason})")
        self.reason = reason


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not supported here (Windows): the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename has happened either way
    finally:
        os.close(fd)


def atomic_text(target: Path, key: str, write: Callable[[IO[str]], Any], make_folder: bool = False) -> None:
    """Write ``target`` through ``write(stream)`` atomically; WriteError naming ``target`` and ``key`` if the
    system refuses (the temporary file removed, the old file intact)."""
    _atomic(target, key, write, make_folder, binary=False)


def atomic_bytes(target: Path, key: str, data: bytes, make_folder: bool = False) -> None:
    """``data`` to ``target`` atomically, as :func:`atomic_text` (a picture, a plot)."""
    _atomic(target, key, lambda f: f.write(data), make_folder, binary=True)


def _atomic(target: Path, key: str, write: Callable[[Any], Any], make_folder: bool, binary: bool) -> None:
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        if target.is_dir():
            raise IsADirectoryError(21, "Is a directory")
        if make_folder:
            target.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") if binary else open(tmp, "w", encoding="utf-8", newline="\n") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        _remove(tmp)
        raise WriteError(str(target), key, exc.strerror or str(exc)) from None
    except BaseException:
        _remove(tmp)
        raise
    fsync_dir(target.parent)


def _remove(tmp: Path) -> None:
    try:
        tmp.unlink()
    except OSError:
        pass  # never created, or already gone: nothing of ours is left either way


def write_out(path: str, key: str, write: Callable[[IO[str]], Any]) -> None:
    """A document for ``--json PATH``: to stdout for ``-``, else atomically to the file; a new line after it."""
    if path == "-":
        write(sys.stdout)
        sys.stdout.write("\n")
        return

    def body(fp: IO[str]) -> None:
        write(fp)
        fp.write("\n")

    atomic_text(Path(path), key, body)
