"""The one set of limits every file the product writes and reads keeps to.

A writer that could produce something its reader refuses loses the user's work (a 250-letter player name
saved after a stroke and then refused on resume), so the bounds live here and both sides import them:
settings, scenario ``[state]``, the match autosave, the trainer's store and the scripted input.
"""

from __future__ import annotations

from physics.errors import InputError

MAX_FILE_BYTES = 4 * 1024 * 1024  # any file we read: a recorded 16-ball break is ~100 kB
MAX_DEPTH = 16  # nesting of tables and arrays: our deepest is 5 (expected.<game>.respot[i].at)
MAX_NAME = 32  # characters in a player's name
MAX_PLAYERS = 8  # golf takes up to 8
MAX_ITEMS = 10_000  # items in one list or table
MAX_STRING = 200  # ids, titles' keys and other short strings in saved documents
MAX_SCORE = 10**6  # scores and counters: far above any real match


def check_name(file: str, key: str, name: object) -> str:
    """A player's name: 1..MAX_NAME printable characters."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable():
        raise InputError(file, key, f"a name of 1 to {MAX_NAME} printable characters")
    return name


def nesting_depth(text: str) -> int:
    """How deep arrays and inline tables nest in TOML ``text`` (strings and comments skipped).

    Run before ``tomllib`` so a 900-deep array is one clear error, not a RecursionError in the parser.
    Headers such as ``[[a.b]]`` count too; they close at once, so they add at most 2.
    """
    depth = deepest = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            i = _string_end(text, i)
            continue
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return deepest


def _string_end(text: str, i: int) -> int:
    """Index just past the TOML string that starts at ``i`` (basic or literal, one line or multi-line)."""
    q = text[i]
    triple = text.startswith(q * 3, i)
    close = q * 3 if triple else q
    j = i + len(close)
    while j < len(text):
        if q == '"' and text[j] == "\\":
            j += 2
            continue
        if text.startswith(close, j):
            j += len(close)
            # A multi-line string may end with up to two extra quotes before its closing three.
            while triple and j < len(text) and text[j] == q:
                j += 1
            return j
        if not triple and text[j] == "\n":
            return j  # an unterminated one-line string: the parser reports it
        j += 1
    return j
