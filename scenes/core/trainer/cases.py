"""The case library: training cases are scenario files (docs/formats.md §Training cases) in ``assets/cases/*.toml``.

A case adds two tables to an ordinary scenario file:

```toml
[meta]
topic = "lamp"                                   # a Topic below
games = ["russian-pyramid", "american"]          # the rulebooks it is meant for (all on the case's table)
row = 4                                          # optional: the row of rules-notes §2 it illustrates
subject = "cue"                                  # optional: the ball the row is about (cue | object)

[expected.russian-pyramid]                       # the ruling summary the referee must give, per game
foul = false
codes = []                                       # foul codes
counted = ["7"]
off_table = []
respot = []                                      # [{ ball = "3", at = [x, y] }, ...]
points = [7, 0]
next_player = 0
in_hand = "none"                                 # house | d | behind-head-string | anywhere | none
```

A row-17 case judged by WPBSA S3 R15 also carries ``[undisturbed]``: the same stroke simulated without the
outsider (``[[undisturbed.events]]``, ``[undisturbed.final.<ball>]``), from which the referee judges where a
disturbed ball would have come to rest (``Scenario.undisturbed_record``).

The expected summary is written by running the referee (``tools/trainer_make_cases.py``) and checked by
hand; a test re-simulates every case and compares, so a change in physics or rules that alters a ruling
fails loudly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from physics.errors import InputError
from physics.record import BallStatus, ShotRecord
from physics.scenario import Scenario
from rules.registry import game_ids, get_referee
from rules.ruling import FoulCode, InHand, Ruling
from rules.scenarios import load_scenario
from scenes.core.i18n import tr

CASES_DIR = Path(__file__).resolve().parents[3] / "assets" / "cases"
IN_HAND = (*(h.value for h in InHand), "none")  # the [expected] in_hand values: an area, or none
# A respot is a rule-made place (a spot, a cushion middle) so it is compared to the millimetre;
# 5 mm only absorbs the frozen-ball spacing rules of some games.
RESPOT_TOLERANCE = 0.005


# Rules-notes §2 has rows 1-17; the trainer's own exercises go on from it (18: the double hit, 19: the push).
LAST_ROW = 19


class Topic(StrEnum):
    """What a case teaches; the rows of rules-notes §2 they illustrate are in the comments."""

    JUMP = "jump"  # 7: legal elevated-cue jump over a blocker
    SCOOP = "scoop"  # 6: the tip meets the cloth with the ball and lofts it
    MISCUE = "miscue"  # 11: the tip slides off
    JUMP_AFTER_CONTACT = "jump-after-contact"  # 8: the cue ball jumps after hitting the ball on
    CLIPPED_BALL_ON = "clipped-ball-on"  # 9: the cue ball clips the ball on and lands beyond
    JUMP_DROP_BACK = "jump-drop-back"  # 10: jumps, hits the ball, drops on the near side
    OFF_FLOOR = "off-floor"  # 3: a ball flies onto the floor
    RAIL_TOP_STAYS = "rail-top-stays"  # 2: comes to rest on the rail top
    RAIL_TOP_RETURNS = "rail-top-returns"  # 1: runs along the rail top and drops back
    LAMP = "lamp"  # 4: bounces back off the lamp
    CHALK = "chalk"  # 5: touches chalk on the rail
    PERSON = "person"  # 5: touches a person by the table
    POCKET_BOUNCE_OUT = "pocket-bounce-out"  # 15: bounces out of a pocket onto the bed
    POCKET_BOUNCE_FLOOR = "pocket-bounce-floor"  # 16: bounces out of a pocket onto the floor
    HANGING_BEFORE_5S = "hanging-before-5s"  # 13: a hanging ball drops within 5 s
    HANGING_AFTER_5S = "hanging-after-5s"  # 12: a hanging ball drops after 5 s
    HANGING_ON_ARRIVAL = "hanging-drops-on-arrival"  # 14: a hanging ball drops as the cue ball arrives
    OUTSIDE_INTERFERENCE = "outside-interference"  # 17: an outsider (a spectator) touches a moving ball
    DOUBLE_HIT = "double-hit"  # 18: the tip meets the cue ball twice (a close ball played with follow)
    PUSH = "push"  # 19: the tip is still on the cue ball when it meets a close ball

    def label(self, lang: str) -> str:
        """What the topic is called («прыжок через шар (перескок)»: ``trainer.topic.<value>``)."""
        return tr(f"trainer.topic.{self.value}", lang)


@dataclass(frozen=True)
class Respot:
    ball: str
    at: tuple[float, float]


@dataclass(frozen=True)
class Expected:
    """The parts of a ruling a trainee is asked about (and a test compares)."""

    foul: bool
    codes: tuple[FoulCode, ...]
    counted: tuple[str, ...]
    off_table: tuple[str, ...]
    respot: tuple[Respot, ...]
    points: tuple[int, ...]
    next_player: int
    in_hand: InHand | None  # None: the cue ball is played from where it lies ("none" in the file)

    @classmethod
    def from_ruling(cls, ruling: Ruling, record: ShotRecord | None = None) -> Expected:
        """Summarise a ruling as a case file's ``[expected]`` table writes it (codes and in-hand areas as their
        published strings); with the record, balls the referee puts back on the bed (a hanging ball that fell
        too late) count as respotted too."""
        return cls(
            foul=ruling.foul,
            codes=tuple(sorted(f.code for f in ruling.fouls)),
            counted=tuple(sorted(ruling.counted)),
            off_table=tuple(sorted(ruling.off_table)),
            respot=tuple(sorted((Respot(b, at) for b, at in respots(ruling, record)), key=lambda r: r.ball)),
            points=tuple(ruling.points),
            next_player=ruling.next_player,
            in_hand=ruling.in_hand,
        )

    def to_toml_lines(self, game: str) -> list[str]:
        def strs(xs: Sequence[str]) -> str:
            return "[" + ", ".join(f'"{x}"' for x in xs) + "]"

        respot = ", ".join(
            f'{{ ball = "{r.ball}", at = [{r.at[0]:.4f}, {r.at[1]:.4f}] }}' for r in self.respot
        )
        return [
            f'[expected."{game}"]',
            f"foul = {'true' if self.foul else 'false'}",
            f"codes = {strs([str(c) for c in self.codes])}",
            f"counted = {strs(self.counted)}",
            f"off_table = {strs(self.off_table)}",
            f"respot = [{respot}]",
            f"points = [{', '.join(str(p) for p in self.points)}]",
            f"next_player = {self.next_player}",
            f'in_hand = "{self.in_hand if self.in_hand is not None else "none"}"',
        ]

    def differences(self, other: Expected) -> list[str]:
        """Human-readable list of what differs (empty when the rulings agree)."""
        out: list[str] = []
        for name in ("foul", "codes", "counted", "off_table", "points", "next_player", "in_hand"):
            a, b = getattr(self, name), getattr(other, name)
            if a != b:
                out.append(f"{name}: expected {_plain(a)!r}, got {_plain(b)!r}")
        mine = {r.ball: r.at for r in self.respot}
        theirs = {r.ball: r.at for r in other.respot}
        if set(mine) != set(theirs):
            out.append(f"respot balls: expected {sorted(mine)}, got {sorted(theirs)}")
        else:
            for b, at in mine.items():
                if math.dist(at, theirs[b]) > RESPOT_TOLERANCE:
                    out.append(f"respot {b}: expected at {at}, got {theirs[b]}")
        return out


def _plain(v: Any) -> Any:
    """A summary's value as the case file writes it (codes and areas as their strings), for messages."""
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    if v is None:
        return "none"
    return str(v) if isinstance(v, StrEnum) else v


def respots(ruling: Ruling, record: ShotRecord | None) -> list[tuple[str, tuple[float, float]]]:
    """Balls put (back) on the bed by the ruling: its ``respot`` list, plus balls that the stroke took off the
    bed (pocketed, off the table) yet the ruling's ``positions`` has on it - the referee restores them."""
    out = [(r.ball, (r.at[0], r.at[1])) for r in ruling.respot]
    if record is not None:
        listed = {b for b, _ in out}
        for b, at in ruling.positions.items():
            f = record.final.get(b)
            if b not in listed and f is not None and f.status != BallStatus.ON_TABLE:
                out.append((b, (at[0], at[1])))
    return out


@dataclass(frozen=True)
class Case:
    id: str
    scenario: Scenario
    topic: Topic
    games: tuple[str, ...]
    expected: Mapping[str, Expected]
    row: int | None = None
    subject: str | None = None  # the ball the row is about: "cue" | "object" (None: any ball)

    @property
    def path(self) -> str:
        return self.scenario.path

    @property
    def title(self) -> Mapping[str, str]:
        return self.scenario.title


def _strs(file: str, key: str, v: Any) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise InputError(file, key, "a list of strings")
    return tuple(v)


def _int(file: str, key: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(file, key, "a whole number")
    return v


def parse_expected(file: str, game: str, raw: Any) -> Expected:
    key = f"expected.{game}"
    if not isinstance(raw, dict):
        raise InputError(
            file, key, "a table with foul, codes, counted, off_table, respot, points, next_player, in_hand"
        )
    known = {"foul", "codes", "counted", "off_table", "respot", "points", "next_player", "in_hand"}
    for k in raw:
        if k not in known:
            raise InputError(file, f"{key}.{k}", f"a known key ({', '.join(sorted(known))})")
    for k in known:
        if k not in raw:
            raise InputError(file, f"{key}.{k}", "present (the expected ruling names every part)")
    if not isinstance(raw["foul"], bool):
        raise InputError(file, f"{key}.foul", "true or false")
    respot: list[Respot] = []
    if not isinstance(raw["respot"], list):
        raise InputError(file, f"{key}.respot", '[{ ball = "...", at = [x, y] }, ...]')
    for i, r in enumerate(raw["respot"]):
        rk = f"{key}.respot[{i}]"
        if (
            not isinstance(r, dict)
            or not isinstance(r.get("ball"), str)
            or not isinstance(r.get("at"), list)
            or len(r["at"]) != 2
            or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in r["at"]
            )
        ):
            raise InputError(file, rk, '{ ball = "...", at = [x, y] } with finite numbers')
        respot.append(Respot(r["ball"], (float(r["at"][0]), float(r["at"][1]))))
    points = raw["points"]
    if not isinstance(points, list):
        raise InputError(file, f"{key}.points", "a list of whole numbers")
    in_hand = raw["in_hand"]
    if not isinstance(in_hand, str) or in_hand not in IN_HAND:
        raise InputError(file, f"{key}.in_hand", f"one of {', '.join(IN_HAND)}")
    codes = _strs(file, f"{key}.codes", raw["codes"])
    known_codes = {c.value for c in FoulCode}
    for c in codes:
        if c not in known_codes:
            raise InputError(file, f"{key}.codes", f"foul codes the referee gives, got {c!r}")
    return Expected(
        foul=raw["foul"],
        codes=tuple(sorted(FoulCode(c) for c in codes)),
        counted=tuple(sorted(_strs(file, f"{key}.counted", raw["counted"]))),
        off_table=tuple(sorted(_strs(file, f"{key}.off_table", raw["off_table"]))),
        respot=tuple(sorted(respot, key=lambda r: r.ball)),
        points=tuple(_int(file, f"{key}.points[{i}]", p) for i, p in enumerate(points)),
        next_player=_int(file, f"{key}.next_player", raw["next_player"]),
        in_hand=None if in_hand == "none" else InHand(in_hand),
    )


def case_from_scenario(sc: Scenario) -> Case:
    """Validate the ``[meta]`` and ``[expected]`` tables of a loaded scenario."""
    file = sc.path
    meta = sc.meta
    if not meta:
        raise InputError(file, "meta", "a [meta] table with topic and games (a training case)")
    for k in meta:
        if k not in ("topic", "games", "row", "note", "subject"):
            raise InputError(file, f"meta.{k}", "a known key (games, note, row, subject, topic)")
    topic_value = meta.get("topic")
    if not isinstance(topic_value, str) or topic_value not in {t.value for t in Topic}:
        raise InputError(file, "meta.topic", f"one of {', '.join(t.value for t in Topic)}")
    topic = Topic(topic_value)
    games = _strs(file, "meta.games", meta.get("games"))
    if not games:
        raise InputError(file, "meta.games", "at least one game id")
    for g in games:
        if g not in game_ids():
            raise InputError(file, "meta.games", f"game ids with a referee, got {g!r}")
        if sc.table.id not in get_referee(g).tables():
            raise InputError(file, "meta.games", f"games played on the case's table {sc.table.id}, got {g!r}")
    row = meta.get("row")
    if row is not None and (isinstance(row, bool) or not isinstance(row, int) or not 1 <= row <= LAST_ROW):
        raise InputError(file, "meta.row", f"a row number of rules-notes §2 (1..{LAST_ROW})")
    subject = meta.get("subject")
    if subject is not None and subject not in ("cue", "object"):
        raise InputError(file, "meta.subject", 'the ball the row is about: "cue" or "object"')
    if sc.shot is None and sc.recorded_events is None:
        raise InputError(file, "shot", "a [shot] to simulate or a recorded stroke ([[events]])")
    expected: dict[str, Expected] = {}
    for g in games:
        if g not in sc.expected:
            raise InputError(file, f"expected.{g}", "the expected ruling for every game in meta.games")
        expected[g] = parse_expected(file, g, sc.expected[g])
    for g in sc.expected:
        if g not in games:
            raise InputError(file, f"expected.{g}", "a game listed in meta.games")
    return Case(
        id=Path(file).stem, scenario=sc, topic=topic, games=games, expected=expected, row=row, subject=subject
    )


def load_case(path: str | Path) -> Case:
    return case_from_scenario(load_scenario(path))


def load_library(folder: str | Path | None = None, extra: Sequence[str | Path] = ()) -> list[Case]:
    """Every ``*.toml`` in the folder (and in the ``extra`` folders that exist: the user's generated cases),
    sorted by id; one bad file stops with its InputError."""
    d = Path(folder) if folder is not None else CASES_DIR
    if not d.is_dir():
        raise InputError(str(d), "folder", "a folder of case files (*.toml)")
    paths = sorted(d.glob("*.toml"))
    for e in extra:
        if Path(e).is_dir():
            paths += sorted(Path(e).glob("*.toml"))
    cases: dict[str, Case] = {}
    for p in paths:
        c = load_case(p)
        if c.id in cases:
            raise InputError(str(p), "file", f"a case id not already used by {cases[c.id].path}")
        cases[c.id] = c
    return [cases[k] for k in sorted(cases)]


def user_cases_dir(settings: Any) -> Path:
    """Where ``train --generate`` writes by default; those cases join the sessions."""
    return Path(settings.data_dir()) / "cases"


# --- running a case -------------------------------------------------------------------------------------


def physics_params(table: Any, settings: Any) -> Any:
    """The physical parameters a stroke on ``table`` uses under these settings (overrides, substeps)."""
    from physics.params import PhysicsParams

    ph = settings.physics
    return PhysicsParams.for_table(
        table, dict(ph.overrides) or None, substep_hz=ph.substep_hz, max_stroke_seconds=ph.max_stroke_seconds
    )


def recorded_record(sc: Scenario) -> ShotRecord:
    """A recorded stroke (``[[events]]`` + ``[final]``) as a shot record; balls not in ``[final]`` stayed put."""
    from physics.record import BallFinal, BallStatus

    R = sc.table.ball_radius
    initial = {b: (x, y, R) for b, (x, y) in sc.balls.items()}
    final = dict(sc.recorded_final or {})
    for b, p in initial.items():
        final.setdefault(b, BallFinal(BallStatus.ON_TABLE, p))
    events = sc.recorded_events or ()
    return ShotRecord(
        table=sc.table.id,
        params={},
        events=tuple(events),
        final=final,
        initial=initial,
        shot=sc.shot,
        duration=max((e.t for e in events), default=0.0),
    )


def record_for(case: Case, settings: Any, sample_hz: float | None = None) -> ShotRecord:
    """Simulate the case's stroke with the user's physics settings (or read its recorded stroke)."""
    sc = case.scenario
    if sc.is_recorded:
        return recorded_record(sc)
    from physics.simulate import simulate

    return simulate(
        sc.table,
        sc.balls,
        sc.shot,
        physics_params(sc.table, settings),
        sc.objects,
        settings.lamp_position,
        sample_hz,
    )


def rule(case: Case, record: ShotRecord, game: str) -> Ruling:
    """The referee's ruling on the case's stroke under one game."""
    from rules.state import MatchState

    sc = case.scenario
    ref = get_referee(game, sc.table.id)
    state = MatchState.from_scenario(ref, sc.state, sc.balls, sc.path)
    # The undisturbed run belongs to the case's own recorded stroke, not to a variation of it (generate.py).
    same = sc.is_recorded and record.events == tuple(sc.recorded_events or ())
    return ref.judge(state, record, sc.undisturbed_record() if same else None, sc.objects)


def rule_all(case: Case, record: ShotRecord) -> dict[str, Ruling]:
    """Rulings under every game of the case (the trainer shows how the other rulebooks decide)."""
    return {g: rule(case, record, g) for g in case.games}


# --- writing case files ---------------------------------------------------------------------------------


def toml_value(v: Any) -> str:
    """A TOML literal for plain data (strings, numbers, booleans, lists, inline tables)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError("non-finite number in a case file")
        return repr(round(v, 6))
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _key(k: str) -> str:
    return k if k.replace("-", "").replace("_", "").isalnum() and k.isascii() else toml_value(k)


def case_toml(
    *,
    title: Mapping[str, str],
    game: str,
    table: str | None,
    balls: Mapping[str, Sequence[float]],
    shot: Any | None,
    topic: str,
    games: Sequence[str],
    expected: Mapping[str, Expected],
    state: Mapping[str, Any] | None = None,
    objects: Sequence[Mapping[str, Any]] = (),
    events: Sequence[Mapping[str, Any]] | None = None,
    final: Mapping[str, Mapping[str, Any]] | None = None,
    row: int | None = None,
    note: str | None = None,
    subject: str | None = None,
    header: str = "",
    undisturbed: Mapping[str, Any] | None = None,
) -> str:
    """The text of a case file (docs/formats.md: the scenario format plus ``[meta]`` and ``[expected]``)."""
    out: list[str] = [f"# {line}" for line in header.splitlines()]
    out.append(f"title = {toml_value(dict(title))}")
    out.append(f"game = {toml_value(game)}")
    if table is not None:
        out.append(f"table = {toml_value(table)}")
    out += ["", "[meta]", f"topic = {toml_value(topic)}", f"games = {toml_value(list(games))}"]
    if row is not None:
        out.append(f"row = {row}")
    if subject is not None:
        out.append(f"subject = {toml_value(subject)}")
    if note:
        out.append(f"note = {toml_value(note)}")
    out += ["", "[balls]"] + [
        f"{_key(b)} = {toml_value([round(float(p[0]), 5), round(float(p[1]), 5)])}" for b, p in balls.items()
    ]
    if shot is not None:
        out += [
            "",
            "[shot]",
            f"ball = {toml_value(shot.ball)}",
            f"cue_speed = {toml_value(float(shot.cue_speed))}",
            f"direction = {toml_value(float(shot.direction))}",
            f"elevation = {toml_value(float(shot.elevation))}",
            f"tip = {toml_value([float(shot.tip[0]), float(shot.tip[1])])}",
        ]
        if shot.cue != "playing":
            out.append(f"cue = {toml_value(shot.cue)}")
        if shot.call_ball is not None or shot.call_pocket is not None:
            call = {
                k: v for k, v in (("ball", shot.call_ball), ("pocket", shot.call_pocket)) if v is not None
            }
            out.append(f"call = {toml_value(call)}")
    if state:
        out += ["", "[state]"] + [f"{_key(k)} = {toml_value(v)}" for k, v in state.items()]
    for o in objects:
        out += ["", "[[objects]]"] + [f"{_key(k)} = {toml_value(v)}" for k, v in o.items()]
    if events is not None:
        for e in events:
            out += ["", "[[events]]"] + [f"{_key(k)} = {toml_value(v)}" for k, v in e.items()]
        for b, f in (final or {}).items():
            out += ["", f"[final.{_key(b)}]"] + [f"{_key(k)} = {toml_value(v)}" for k, v in f.items()]
    if undisturbed is not None:
        # The same stroke without the outsider (``{"events": [...], "final": {...}}``): Scenario.undisturbed_record.
        for e in undisturbed["events"]:
            out += ["", "[[undisturbed.events]]"] + [f"{_key(k)} = {toml_value(v)}" for k, v in e.items()]
        for b, f in undisturbed.get("final", {}).items():
            out += ["", f"[undisturbed.final.{_key(b)}]"] + [
                f"{_key(k)} = {toml_value(v)}" for k, v in f.items()
            ]
    for g in games:
        out += ["", *expected[g].to_toml_lines(g)]
    return "\n".join(out) + "\n"
