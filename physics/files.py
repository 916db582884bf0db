"""Writing a file so that it is either the old one or the new one, whatever happens on the way; and reading
a file the user named only when it is a regular file of a sane size.

Every document the product writes for the user (the match autosave, an F5 position, a JSON record, a
generated case) goes through :func:`atomic_text`: the text goes to a temporary file beside the target, is
flushed and fsync'ed, then ``os.replace`` swaps it in (atomic on POSIX and Windows) and the folder is
fsync'ed so the rename itself survives a power cut. A full disk, a read-only folder or a target that is a
folder is one :class:`WriteError` (an :class:`InputError`: one line and exit 2 on the command line, a warning
in the window), the temporary file is removed and the old file is left as it was. A file written by another
program (a video encoder) gets the same through :func:`atomic_path`.

Every path that comes from the user (a scenario, settings, a drill, a results file, a case pack's member, a
saved document, a script) is read through :func:`read_user_bytes`: a named pipe would block the program until
someone writes to it and ``/dev/zero`` never ends, so only a regular file is read, opened without waiting
(O_NONBLOCK), and at most its cap: the size is checked before reading and again by what was read.
:func:`read_toml` reads a TOML document that way and checks its nesting before the parser sees it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tomllib
from collections.abc import Callable, Iterator
from glob import escape as glob_escape
from pathlib import Path
from typing import IO, Any

from physics.errors import InputError
from physics.limits import MAX_DEPTH, MAX_FILE_BYTES, nesting_depth


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


@contextlib.contextmanager
def atomic_path(target: Path, key: str) -> Iterator[Path]:
    """A temporary path beside ``target`` (same suffix, so a writer that picks its format by it still can) for
    another program to write; renamed onto ``target`` when the block ends normally, removed when it raises
    (an error, Ctrl-C, SIGTERM turned into SystemExit): the old ``target`` stays as it was until then."""
    if target.is_dir():
        raise WriteError(str(target), key, "a folder of that name is in the way")
    _remove_orphans(target)
    tmp = target.with_name(f".{target.stem}.{os.getpid()}.tmp{target.suffix}")
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        _remove(tmp)
        raise WriteError(str(target), key, exc.strerror or str(exc)) from None
    except BaseException:
        _remove(tmp)
        raise
    fsync_dir(target.parent)


def _remove_orphans(target: Path) -> None:
    """Temporary files an earlier writer of ``target`` left when it was killed (SIGKILL runs no cleanup):
    those whose process is gone. POSIX only: there signal 0 asks whether a process lives, on Windows
    os.kill would end it."""
    if sys.platform == "win32":
        return
    prefix, suffix = f".{target.stem}.", f".tmp{target.suffix}"
    for p in target.parent.glob(f"{glob_escape(prefix)}*{glob_escape(suffix)}"):
        pid = p.name[len(prefix) : -len(suffix)]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            _remove(p)
        except OSError:
            continue  # alive under another user (EPERM): not ours to touch


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n} bytes"


def read_user_bytes(path: str | Path, what: str, cap: int = MAX_FILE_BYTES, key: str = "file") -> bytes:
    """The bytes of the ``what`` at ``path``, a path the user gave; InputError naming it when it is not a
    regular file (a folder, a pipe, a device), cannot be opened, or is over ``cap`` bytes."""
    file = str(path)
    flags = (
        os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    )
    try:
        fd = os.open(path, flags)
    except ValueError:  # a NUL in the path
        raise InputError(file, key, f"a path to a {what} (it holds a NUL character)") from None
    except IsADirectoryError:
        raise InputError(file, key, f"a {what}, not a folder") from None
    except OSError as exc:
        raise InputError(file, key, f"a readable {what} ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputError(file, key, f"a {what}, not a folder")
        if not stat.S_ISREG(st.st_mode):
            raise InputError(file, key, f"a {what} that is a regular file (not a pipe or a device)")
        if st.st_size > cap:
            raise InputError(file, key, f"a {what} of at most {_size(cap)} (got {st.st_size} bytes)")
        chunks, left = [], cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise InputError(file, key, f"a readable {what} ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > cap:  # it grew while we read it
        raise InputError(file, key, f"a {what} of at most {_size(cap)}")
    return data


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """Read a TOML file; an unreadable file, bad encoding or bad TOML is one InputError naming the file.

    The size and the nesting depth are checked before the parser sees the text (physics.limits), and a
    UTF-8 byte-order mark, which Windows editors write, is accepted.
    """
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
