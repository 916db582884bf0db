"""settings.toml: loaded with tomllib into frozen dataclasses, every key checked.

Pure Python (no Panda3D): ``main.py`` loads settings before any engine is started.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from physics.cues import CUE_KINDS, DEFAULT_CUE
from physics.errors import InputError
from physics.files import read_toml
from physics.limits import MAX_PLAYERS, check_name
from physics.scenario import PRACTICE
from rules.registry import game_ids

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "settings.toml"
PHYSICS_OVERRIDES = (
    "mu_slide",
    "mu_roll",
    "spin_decel",
    "e_ball",
    "mu_ball",
    "e_cushion",
    "mu_cushion",
    "e_table",
    "e_rail",
    "e_floor",
)


@dataclass(frozen=True)
class Display:
    width: int = 1280
    height: int = 720
    fullscreen: bool = False
    fps: int = 60
    aiming_line: bool = True
    trajectory_preview: bool = True
    msaa: int = 4
    quality: str = "high"  # "high": physically based shading and shadows; "low": vertex lighting, no shaders

    aim_aid: str = "preview"  # practice: off | ghost | object | path | preview (scenes/core/aim_aids.py)
    aim_aid_match: str = "object"  # the same levels in a match


@dataclass(frozen=True)
class Language:
    ui: str = "ru"


@dataclass(frozen=True)
class PhysicsSettings:
    substep_hz: int = 1000
    max_stroke_seconds: float = 120.0
    sample_hz: int = 120
    overrides: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Room:
    lamp_height: float = 1.0
    lamp_x: float = 0.0
    lamp_y: float = 0.0


@dataclass(frozen=True)
class Game:
    default: str = "russian-pyramid"
    frames_to_win: int = 2


@dataclass(frozen=True)
class CueChoice:
    """The cue each game starts with (physics.cues: playing, break, jump); a game not named takes its
    playing cue. Keys are game ids (and ``practice``)."""

    games: dict[str, str] = field(default_factory=dict)

    def for_game(self, game: str) -> str:
        return self.games.get(game, DEFAULT_CUE)


@dataclass(frozen=True)
class Players:
    names: tuple[str, ...] = ("Игрок 1", "Игрок 2")


@dataclass(frozen=True)
class Sound:
    enabled: bool = True
    volume: float = 0.8


@dataclass(frozen=True)
class Trainer:
    session_length: int = 10
    data_dir: str = ""
    profile: str = "default"  # the trainee whose progress a session counts to (one machine, many trainees)
    exam_cases: int = 12
    exam_seconds: int = 120  # per case: answers after it score nothing
    exam_replays: int = 2  # per case, beyond the first showing
    exam_pass_mark: int = 80  # percent of the weighted points
    variations: int = 2  # generated variations of a missed case offered for practice


@dataclass(frozen=True)
class Controls:
    aim_left: str = "arrow_left"
    aim_right: str = "arrow_right"
    fine_modifier: str = "shift"
    power_up: str = "arrow_up"
    power_down: str = "arrow_down"
    shoot: str = "space"
    elevation_up: str = "e"
    elevation_down: str = "d"
    tip_up: str = "w"
    tip_down: str = "s"
    tip_left: str = "a"
    tip_right: str = "f"
    camera_next: str = "c"
    camera_top: str = "t"
    replay: str = "r"
    pause: str = "p"
    slower: str = "["
    faster: str = "]"
    step: str = "."
    undo: str = "z"
    menu: str = "escape"
    help: str = "h"
    aim_aid: str = "g"
    export_video: str = "v"
    stats: str = "tab"
    details: str = "i"
    cue_kind: str = "k"  # take the next cue: playing, break, jump


@dataclass(frozen=True)
class Settings:
    display: Display = field(default_factory=Display)
    language: Language = field(default_factory=Language)
    physics: PhysicsSettings = field(default_factory=PhysicsSettings)
    room: Room = field(default_factory=Room)
    game: Game = field(default_factory=Game)
    cue: CueChoice = field(default_factory=CueChoice)
    players: Players = field(default_factory=Players)
    sound: Sound = field(default_factory=Sound)
    trainer: Trainer = field(default_factory=Trainer)
    controls: Controls = field(default_factory=Controls)
    path: str = str(DEFAULT_PATH)

    @property
    def lang(self) -> str:
        return self.language.ui

    @property
    def lamp_position(self) -> tuple[float, float, float]:
        return (self.room.lamp_x, self.room.lamp_y, self.room.lamp_height)

    def data_dir(self) -> Path:
        if self.trainer.data_dir:
            return Path(self.trainer.data_dir).expanduser()
        import os

        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "billiards3d"


# key -> (low, high) for numbers, or a tuple of allowed strings
_RANGES: dict[str, Any] = {
    "display.width": (320, 7680),
    "display.height": (240, 4320),
    "display.fps": (10, 240),
    "display.msaa": (0, 16),
    "display.quality": ("high", "low"),
    "display.aim_aid": ("off", "ghost", "object", "path", "preview"),
    "display.aim_aid_match": ("off", "ghost", "object", "path", "preview"),
    "language.ui": ("ru", "en"),
    "physics.substep_hz": (1000, 4000),
    "physics.max_stroke_seconds": (10.0, 600.0),
    "physics.sample_hz": (30, 1000),
    "room.lamp_height": (0.6, 2.0),
    "room.lamp_x": (-3.0, 3.0),
    "room.lamp_y": (-2.0, 2.0),
    "game.frames_to_win": (1, 25),
    "sound.volume": (0.0, 1.0),
    "trainer.session_length": (1, 200),
    "trainer.exam_cases": (1, 100),
    "trainer.exam_seconds": (10, 3600),
    "trainer.exam_replays": (0, 20),
    "trainer.exam_pass_mark": (1, 100),
    "trainer.variations": (0, 10),
}


def key_range(key: str) -> Any:
    """The (low, high) or the allowed strings of a settings key ("trainer.exam_seconds"): one bound for
    settings.toml and for what is read back elsewhere (an imported exam)."""
    return _RANGES[key]


_OVERRIDE_RANGES: dict[str, tuple[float, float]] = {
    "mu_slide": (0.05, 0.6),
    "mu_roll": (0.001, 0.05),
    "spin_decel": (1.0, 40.0),
    "e_ball": (0.5, 1.0),
    "mu_ball": (0.0, 0.3),
    "e_cushion": (0.3, 1.0),
    "mu_cushion": (0.0, 0.6),
    "e_table": (0.1, 0.9),
    "e_rail": (0.1, 0.9),
    "e_floor": (0.05, 0.9),
}


def _check(file: str, key: str, value: Any, default: Any) -> Any:
    # The registry is asked when a file is read: a game registered after import is a valid default too.
    rng = (PRACTICE, *game_ids()) if key == "game.default" else _RANGES.get(key)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise InputError(file, key, "true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(file, key, "a whole number" + (f" from {rng[0]} to {rng[1]}" if rng else ""))
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputError(file, key, "a number" + (f" from {rng[0]} to {rng[1]}" if rng else ""))
        value = float(value)
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise InputError(file, key, "a string" + (f": one of {', '.join(rng)}" if rng else ""))
        if rng and value not in rng:
            raise InputError(file, key, f"one of {', '.join(rng)}")
        return value
    if rng and not (rng[0] <= value <= rng[1]):
        raise InputError(file, key, f"a value from {rng[0]} to {rng[1]}, got {value}")
    return value


# Panda3D's names of the keys a keyboard sends (letters arrive lower-case).
KEY_NAMES = frozenset(
    [chr(c) for c in range(ord("a"), ord("z") + 1)]
    + [str(d) for d in range(10)]
    + list("`-=[]\\;',./")
    + [f"f{i}" for i in range(1, 13)]
    + [f"arrow_{d}" for d in ("left", "right", "up", "down")]
    + ["space", "escape", "enter", "tab", "backspace", "insert", "delete", "home", "end", "page_up"]
    + ["page_down", "shift", "control", "alt", "lshift", "rshift", "lcontrol", "rcontrol", "lalt", "ralt"]
    + ["caps_lock", "num_lock", "scroll_lock", "print_screen", "pause", "menu"]
)
# Keys the screens bind themselves: the option numbers, the trainer's confirm, practice's F5/F6/F9.
RESERVED_KEYS = frozenset([str(d) for d in range(1, 10)] + ["enter", "f5", "f6", "f9"])


def _check_controls(file: str, raw: dict[str, Any]) -> None:
    """Every key a name Panda3D sends, free of the app's own keys, and one action per key."""
    defaults = Controls()
    bound = {getattr(defaults, f.name): f.name for f in fields(Controls) if f.name not in raw}
    for action, key in raw.items():
        full = f"controls.{action}"
        if not isinstance(key, str) or key not in KEY_NAMES:
            raise InputError(
                file,
                full,
                "a Panda3D key name: a-z, 0-9, punctuation, f1..f12, arrow_left, space, escape, ...",
            )
        if key in RESERVED_KEYS:
            raise InputError(file, full, f"a key other than 1..9, enter, f5, f6, f9 (the app uses {key!r})")
        if key in bound:
            raise InputError(file, full, f"a key no other action uses ({bound[key]} is on {key!r})")
        bound[key] = action


def _cue_section(file: str, raw: dict[str, Any]) -> CueChoice:
    """``[cue]``: game id = one of the cue kinds."""
    games = (PRACTICE, *game_ids())
    for key, value in raw.items():
        if key not in games:
            raise InputError(file, f"cue.{key}", f"a game id: {', '.join(games)}")
        if value not in CUE_KINDS:
            raise InputError(file, f"cue.{key}", f"one of {', '.join(CUE_KINDS)}")
    return CueChoice(dict(raw))


def _section(file: str, name: str, cls: type, raw: Any, extra: dict[str, Any] | None = None) -> Any:
    if not isinstance(raw, dict):
        raise InputError(file, name, "a table")
    if cls is CueChoice:
        return _cue_section(file, raw)
    defaults = cls()
    names = {f.name for f in fields(cls)}
    kw: dict[str, Any] = {}
    for key, value in raw.items():
        full = f"{name}.{key}"
        if name == "physics" and key in PHYSICS_OVERRIDES:
            lo, hi = _OVERRIDE_RANGES[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (lo <= value <= hi):
                raise InputError(file, full, f"a number from {lo} to {hi}")
            kw.setdefault("overrides", {})[key] = float(value)
            continue
        if key not in names or key == "overrides":
            allowed = sorted(n for n in names if n != "overrides")
            if name == "physics":
                allowed += list(PHYSICS_OVERRIDES)
            raise InputError(file, full, f"a known key: {', '.join(allowed)}")
        if name == "players" and key == "names":
            if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLAYERS:
                raise InputError(file, full, f"a list of 1 to {MAX_PLAYERS} names")
            kw[key] = tuple(check_name(file, f"{full}[{i}]", v) for i, v in enumerate(value))
            continue
        kw[key] = _check(file, full, value, getattr(defaults, key))
        if full == "trainer.data_dir":
            _check_folder(file, full, kw[key])
    if name == "controls":
        _check_controls(file, raw)
    return cls(**kw)


def _check_folder(file: str, key: str, value: str) -> None:
    """A folder path the system can take: no NUL, and a ``~user`` that names a user of this machine."""
    if "\0" in value:
        raise InputError(file, key, "a folder path (it holds a NUL character)")
    try:
        Path(value).expanduser()
    except RuntimeError:  # ~name of nobody known here
        raise InputError(
            file, key, f"a folder path; {value.split('/', 1)[0]} is no user of this machine"
        ) from None


_SECTIONS = {
    "display": Display,
    "language": Language,
    "physics": PhysicsSettings,
    "room": Room,
    "game": Game,
    "cue": CueChoice,
    "players": Players,
    "sound": Sound,
    "trainer": Trainer,
    "controls": Controls,
}


def parse_settings(data: dict[str, Any], file: str = "settings.toml") -> Settings:
    kw: dict[str, Any] = {}
    for name, raw in data.items():
        if name not in _SECTIONS:
            raise InputError(file, name, f"a known section: {', '.join(_SECTIONS)}")
        kw[name] = _section(file, name, _SECTIONS[name], raw)
    return Settings(path=file, **kw)


def load_settings(path: str | Path | None = None) -> Settings:
    p = Path(path) if path is not None else DEFAULT_PATH
    if path is None and not p.exists():
        return Settings()
    return parse_settings(read_toml(p, "settings file"), str(p))
