"""BILLIARDS_SCRIPT: the scripted input of the window (tests, the offscreen demo), checked before it runs.

A script is a JSON list of actions ``{"do": "<name>", ...}``. Each action's keys and their values are
checked when the file is read, so a NaN direction or a 250-letter name is one line naming the file and the
action (``actions[3].direction``) before any window opens, never a Panda3D assertion half-way through.

``ACTIONS`` lists every action a screen performs (scenes/app.py ScriptRunner and the screens'
``script_action``): a new action is added here with its keys.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from physics.errors import InputError
from physics.files import read_user_bytes
from physics.limits import MAX_FILE_BYTES, MAX_PLAYERS, check_name
from physics.scenario import PRACTICE
from physics.tables import TABLE_IDS
from rules.registry import game_ids, get_referee

Check = Callable[[str, str, Any], Any]


class ScriptRefused(RuntimeError):
    """An action the app cannot carry out where the script stands: a ball that is not on the table, a place
    the ball in hand may not go, an action the screen in front does not have. The script runner turns it
    into the script file's InputError naming the action (``actions[3].ball``): one line and exit 2."""

    def __init__(self, expected: str, key: str = "") -> None:
        super().__init__(expected)
        self.expected = expected
        self.key = key


def _number(lo: float = -math.inf, hi: float = math.inf) -> Check:
    def check(file: str, key: str, v: Any) -> Any:
        if (
            isinstance(v, bool)
            or not isinstance(v, (int, float))
            or not math.isfinite(v)
            or not lo <= v <= hi
        ):
            span = "" if (lo, hi) == (-math.inf, math.inf) else f" from {lo:g} to {hi:g}"
            raise InputError(file, key, f"a finite number{span}")
        return v

    return check


def _whole(lo: int, hi: int) -> Check:
    def check(file: str, key: str, v: Any) -> Any:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise InputError(file, key, f"a whole number from {lo} to {hi}")
        return v

    return check


def _text(file: str, key: str, v: Any) -> Any:
    if not isinstance(v, str) or not 0 < len(v) <= 4096 or not v.isprintable():
        raise InputError(file, key, "a string of printable characters")
    return v


def _flag(file: str, key: str, v: Any) -> Any:
    if not isinstance(v, bool):
        raise InputError(file, key, "true or false")
    return v


def _xy(file: str, key: str, v: Any) -> Any:
    if not isinstance(v, list) or len(v) != 2:
        raise InputError(file, key, "[x, y]: two finite numbers (metres)")
    for i, c in enumerate(v):
        _number()(file, f"{key}[{i}]", c)
    return v


def _game(file: str, key: str, v: Any) -> Any:
    ids = (PRACTICE, *game_ids())
    if v not in ids:
        raise InputError(file, key, f"a game id: {', '.join(ids)}")
    return v


def _table(file: str, key: str, v: Any) -> Any:
    if v not in TABLE_IDS:
        raise InputError(file, key, f"a table id: {', '.join(TABLE_IDS)}")
    return v


def _players(file: str, key: str, v: Any) -> Any:
    if not isinstance(v, list) or not 1 <= len(v) <= MAX_PLAYERS:
        raise InputError(file, key, f"a list of 1 to {MAX_PLAYERS} names")
    for i, name in enumerate(v):
        check_name(file, f"{key}[{i}]", name)
    return v


def _option(file: str, key: str, v: Any) -> Any:
    return v if v is None else _text(file, key, v)


NUM = _number()
# action -> ({key: check} required, {key: check} optional)
ACTIONS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    # the app (scenes/app.py ScriptRunner)
    "menu": ({}, {}),
    "start": ({}, {"game": _game, "table": _table, "players": _players, "frames_to_win": _whole(1, 25)}),
    "practice": ({}, {"scenario": _text, "drill": _text}),
    "replay": ({}, {}),
    "key": ({"key": _text}, {}),
    "frames": ({}, {"n": _whole(0, 10**9)}),
    "wait_rest": ({}, {"timeout": _number(0.0, 86400.0)}),
    "wait": ({}, {"timeout": _number(0.0, 86400.0)}),
    "screenshot": ({}, {"path": _text}),
    "dump": ({"path": _text}, {}),
    "quit": ({}, {"code": _whole(0, 255)}),
    # the play screen (scenes/screens/play.py)
    "aim": ({"direction": NUM}, {}),
    "aim_at": ({}, {"ball": _text, "at": _xy}),
    "aim_at_rack": ({}, {}),
    "power": ({"speed": _number(0.0, 100.0)}, {}),
    "tip": ({"x": _number(-1.0, 1.0), "y": _number(-1.0, 1.0)}, {}),
    "elevation": ({"degrees": _number(0.0, 90.0)}, {}),
    "call": ({}, {"ball": _option, "pocket": _option}),
    "place_cue": ({"at": _xy}, {}),
    "confirm_place": ({}, {}),
    "shoot": ({}, {}),
    "speed": ({"x": _number(0.01, 100.0)}, {}),
    "decide": ({}, {"option": _option}),
    "camera": ({"mode": _text}, {"snap": _flag}),
    "undo": ({}, {}),
    "save": ({}, {"path": _text}),
    "load": ({}, {"path": _text}),
    "preview": ({}, {}),
    # the replay screen and the trainer (seek: seconds into the stroke)
    "pause": ({}, {}),
    "slower": ({}, {}),
    "faster": ({}, {}),
    "step": ({}, {}),
    "seek": ({"t": _number(0.0, 3600.0)}, {}),
    "back": ({}, {}),
    "scrub": ({"frac": _number(0.0, 1.0)}, {}),  # a click on the replay's timeline at this fraction
    "export": (
        {},
        {"path": _text, "speed": _number(0.01, 4.0), "fps": _whole(5, 120), "size": _text, "quality": _text},
    ),
    # the archive and drills screens: the row's button
    "choose": ({"index": _whole(0, 10**6)}, {}),
    "trainer_start": (
        {},
        {
            "game": _game,
            "topic": _text,
            "cases": _whole(1, 200),
            "seed": _whole(0, 2**63 - 1),
            "exam": _flag,
            "profile": _text,
        },
    ),
    "trainer_answer": ({}, {"correct": _flag}),
    "trainer_next": ({}, {}),
    "trainer_moment": ({}, {}),  # the replay stands at the deciding moment
    "trainer_panel": ({}, {}),  # collapse or open the answer panel
    "trainer_history": ({}, {}),
    "trainer_pick": ({}, {}),
    "trainer_variations": ({}, {}),
}


def check_action(file: str, i: int, a: Any) -> dict[str, Any]:
    key = f"actions[{i}]"
    if not isinstance(a, dict):
        raise InputError(file, key, 'an object {"do": "...", ...}')
    do = a.get("do")
    if do not in ACTIONS:
        raise InputError(file, f"{key}.do", f"an action: {', '.join(sorted(ACTIONS))}")
    required, optional = ACTIONS[do]
    for k in a:
        if k != "do" and k not in required and k not in optional:
            allowed = sorted(required) + sorted(optional)
            raise InputError(file, f"{key}.{k}", f"a key of {do}: {', '.join(allowed) or 'none'}")
    for k, check in required.items():
        if k not in a:
            raise InputError(file, f"{key}.{k}", f"present in {do}")
        check(file, f"{key}.{k}", a[k])
    for k, check in optional.items():
        if k in a:
            check(file, f"{key}.{k}", a[k])
    if do == "start" and "table" in a:
        # The table goes with the game it is named for (golf: the pool table or a snooker table).
        game = a.get("game")
        tables = get_referee(game).tables() if isinstance(game, str) and game != PRACTICE else ()
        if a["table"] not in tables:
            want = f"a table {game} is played on: {', '.join(tables)}" if tables else "a game named beside it"
            raise InputError(file, f"{key}.table", want)
    return a


def load_script(path: str) -> list[dict[str, Any]]:
    """The actions of a script file, every one checked; InputError naming the file and the action otherwise."""
    try:
        text = read_user_bytes(path, "script file", MAX_FILE_BYTES).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise InputError(path, "file", "UTF-8 text") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise InputError(path, "json", "a list of actions, not nested arrays") from None
    except json.JSONDecodeError as exc:
        raise InputError(path, "json", f"valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, list):
        raise InputError(path, "actions", 'a JSON list of {"do": "...", ...} objects')
    return [check_action(path, i, a) for i, a in enumerate(data)]
