"""Scenario files (docs/formats.md §Scenario files): positions, shots, training cases and tests in one TOML format.

Parsing validates everything a user can get wrong and raises :class:`InputError` naming the
file, the key and what was expected. The ``[state]`` table is handed to the referee as it is
(the referee validates it); everything physical is checked here.

Games. Physics knows no game: what a ``game = "..."`` id means (its table, its balls) comes from a
:class:`GameCatalog`. The referee's registry (``rules/registry.py``) is one, and every caller passes it
(``rules/scenarios.py`` reads a file with it), so what a file may say never depends on what was imported
before. Without one, only ``practice`` (no referee: any table, any ball the table is equipped with) is known.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from physics.cues import CUE_KINDS, DEFAULT_CUE
from physics.errors import InputError
from physics.file_checks import (
    BALL_ID_RE,
    DIRECTION_RANGE,
    ELEVATION_RANGE,
    MAX_CUE_SPEED,
    OVERLAP_TOLERANCE,
    bed_message,
    check_nested_keys,
    check_object,
    floor_to,
    recorded_stroke,
    rests_on_bed,
)
from physics.files import read_toml
from physics.objects import SceneObject
from physics.record import POCKET_IDS, BallFinal, BallStatus, Event, ShotParams, ShotRecord
from physics.tables import TABLE_IDS, TableSpec, load_table

PRACTICE = "practice"  # physics only, no referee (docs/formats.md §Names)


class GameCatalog(Protocol):
    """What the loader needs to know about the games (the referee's registry provides it)."""

    def game_ids(self) -> Sequence[str]:
        """Every game id with a referee (``practice`` is not one)."""
        ...

    def tables_of(self, game: str) -> Sequence[str]:
        """The tables ``game`` is played on; the first is its own (the default of ``table``)."""
        ...

    def balls_of(self, game: str, state: Mapping[str, Any]) -> Sequence[str]:
        """The balls ``game`` plays with for a scenario's ``[state]`` (golf: one ball per player)."""
        ...


def game_balls(
    catalog: GameCatalog | None, game: str, table: TableSpec, state: Mapping[str, Any]
) -> tuple[str, ...]:
    """The ball ids a scenario of ``game`` on ``table`` may place: the one rule ``simulate`` and
    ``referee`` share. Practice: any ball the table is equipped with."""
    if game == PRACTICE or catalog is None:
        return table.equipment
    return tuple(catalog.balls_of(game, state))


@dataclass(frozen=True)
class Scenario:
    path: str
    title: dict[str, str]
    game: str
    table: TableSpec
    balls: dict[str, tuple[float, float]]
    shot: ShotParams | None
    state: Mapping[str, Any]
    objects: tuple[SceneObject, ...]
    recorded_events: tuple[Event, ...] | None = None
    recorded_final: Mapping[str, BallFinal] | None = None
    expected: Mapping[str, Any] = field(default_factory=dict)  # training cases: the expected ruling
    meta: Mapping[str, Any] = field(default_factory=dict)  # training cases: topic etc.
    # Optional, with a recorded stroke only: the same stroke without an outsider's interference
    # ([[undisturbed.events]], [undisturbed.final.<ball>]): where a disturbed ball would have come to rest,
    # which WPBSA S3 R15 asks the referee to judge (rules/base.py, Referee.judge(..., undisturbed=...)).
    undisturbed_events: tuple[Event, ...] | None = None
    undisturbed_final: Mapping[str, BallFinal] | None = None

    @property
    def is_recorded(self) -> bool:
        return self.recorded_events is not None

    def undisturbed_record(self) -> ShotRecord | None:
        """``[undisturbed]`` as a shot record (balls its ``final`` leaves out stayed put), or None.
        Pass it to ``Referee.judge(state, record, undisturbed)`` with the file's recorded stroke."""
        if self.undisturbed_events is None:
            return None
        R = self.table.ball_radius
        initial = {b: (x, y, R) for b, (x, y) in self.balls.items()}
        final = {b: BallFinal(BallStatus.ON_TABLE, p) for b, p in initial.items()}
        final.update(self.undisturbed_final or {})
        events = tuple(sorted(self.undisturbed_events, key=lambda e: e.t))
        return ShotRecord(
            table=self.table.id,
            params={},
            events=events,
            final=final,
            initial=initial,
            shot=self.shot,
            duration=max((e.t for e in events), default=0.0),
        )


def _num(file: str, key: str, v: Any, lo: float | None = None, hi: float | None = None) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(float(v)):
        raise InputError(
            file, key, "a finite number" + (f" in [{lo}, {hi}]" if lo is not None and hi is not None else "")
        )
    x = float(v)
    if lo is not None and x < lo:
        raise InputError(
            file, key, f"a number >= {lo}" + (f" and <= {hi}" if hi is not None else "") + f", got {x}"
        )
    if hi is not None and x > hi:
        raise InputError(
            file, key, f"a number <= {hi}" + (f" and >= {lo}" if lo is not None else "") + f", got {x}"
        )
    return x


def _vec(file: str, key: str, v: Any, n: int) -> tuple[float, ...]:
    if not isinstance(v, list) or len(v) != n:
        raise InputError(file, key, f"a list of {n} numbers")
    return tuple(_num(file, f"{key}[{i}]", x) for i, x in enumerate(v))


def _title(file: str, v: Any) -> dict[str, str]:
    if v is None:
        name = Path(file).stem
        return {"en": name, "ru": name}
    if isinstance(v, str):
        return {"en": v, "ru": v}
    if isinstance(v, dict) and all(isinstance(v.get(k), str) for k in ("en", "ru")):
        return {"en": v["en"], "ru": v["ru"]}
    raise InputError(file, "title", 'a string or { en = "...", ru = "..." }')


def _game_and_table(data: Mapping[str, Any], file: str, catalog: GameCatalog | None) -> tuple[str, TableSpec]:
    game = data.get("game", PRACTICE)
    ids = [PRACTICE, *(catalog.game_ids() if catalog is not None else ())]
    if not isinstance(game, str) or game not in ids:
        raise InputError(file, "game", f"a game id: {', '.join(ids)}")
    tables = TABLE_IDS if game == PRACTICE or catalog is None else tuple(catalog.tables_of(game))
    table_id = data.get("table", tables[0])
    if table_id not in tables:
        what = "a table id" if game == PRACTICE else f"a table {game} is played on"
        raise InputError(file, "table", f"{what}: {', '.join(tables)}")
    return game, load_table(table_id)


def _balls(
    file: str, balls_raw: Any, game: str, table: TableSpec, allowed_balls: tuple[str, ...]
) -> dict[str, tuple[float, float]]:
    """``[balls]``: ids of the game, on the bed (a ball frozen to a cushion included), no two overlapping."""
    if not isinstance(balls_raw, dict) or not balls_raw:
        raise InputError(file, "balls", "a table of ball ids to [x, y] positions on the bed")
    R = table.ball_radius
    balls: dict[str, tuple[float, float]] = {}
    for bid, pos in balls_raw.items():
        key = f"balls.{bid}"
        if not BALL_ID_RE.match(bid):
            raise InputError(
                file, key, "a ball id: cue, 1..15, red1..red15, yellow, green, brown, blue, pink, black"
            )
        if bid not in allowed_balls:
            raise InputError(file, key, f"a ball of {game} on {table.id}: {', '.join(allowed_balls)}")
        x, y = _vec(file, key, pos, 2)
        if not rests_on_bed(table, x, y):
            raise InputError(file, key, bed_message(table))
        for other, (ox, oy) in balls.items():
            if math.hypot(x - ox, y - oy) < 2 * R - OVERLAP_TOLERANCE:
                raise InputError(
                    file,
                    key,
                    f"no overlap with ball {other!r} (centres at least "
                    f"{floor_to(2 * R - OVERLAP_TOLERANCE, 4)} m apart)",
                )
        balls[bid] = (x, y)
    return balls


def _shot(file: str, shot_raw: Any, balls: Mapping[str, tuple[float, float]]) -> ShotParams | None:
    """``[shot]``: what the player did, in the ranges physics.simulate() takes too (physics/file_checks.py)."""
    if shot_raw is None:
        return None
    if not isinstance(shot_raw, dict):
        raise InputError(file, "shot", "a table")
    allowed = {"ball", "cue_speed", "direction", "elevation", "tip", "call", "cue"}
    for k in shot_raw:
        if k not in allowed:
            raise InputError(file, f"shot.{k}", f"a known key ({', '.join(sorted(allowed))})")
    ball = shot_raw.get("ball", "cue")
    if not isinstance(ball, str) or ball not in balls:
        raise InputError(file, "shot.ball", f"a ball placed in [balls] ({', '.join(balls)})")
    speed = _num(file, "shot.cue_speed", shot_raw.get("cue_speed", 0.0), 0.0, MAX_CUE_SPEED)
    direction = _num(file, "shot.direction", shot_raw.get("direction", 0.0), *DIRECTION_RANGE)
    elevation = _num(file, "shot.elevation", shot_raw.get("elevation", 0.0), *ELEVATION_RANGE)
    tip = _vec(file, "shot.tip", shot_raw.get("tip", [0.0, 0.0]), 2)
    if math.hypot(*tip) > 1.0:
        raise InputError(file, "shot.tip", "an offset inside the ball: sqrt(right^2 + up^2) <= 1 (in radii)")
    cue = shot_raw.get("cue", DEFAULT_CUE)
    if not isinstance(cue, str) or cue not in CUE_KINDS:
        raise InputError(file, "shot.cue", f"one of {', '.join(CUE_KINDS)}")
    call_ball = call_pocket = None
    call = shot_raw.get("call")
    if call is not None:
        if not isinstance(call, dict):
            raise InputError(file, "shot.call", '{ ball = "...", pocket = "..." }')
        call_ball = call.get("ball")
        call_pocket = call.get("pocket")
        if call_ball is not None and (not isinstance(call_ball, str) or call_ball not in balls):
            raise InputError(file, "shot.call.ball", "a ball placed in [balls]")
        if call_pocket is not None and (not isinstance(call_pocket, str) or call_pocket not in POCKET_IDS):
            raise InputError(file, "shot.call.pocket", f"a pocket id: {', '.join(POCKET_IDS)}")
    return ShotParams(
        ball=ball,
        cue_speed=speed,
        direction=direction,
        elevation=elevation,
        tip=(tip[0], tip[1]),
        call_ball=call_ball,
        call_pocket=call_pocket,
        cue=cue,
    )


def _objects(
    file: str, objs_raw: Any, balls: Mapping[str, tuple[float, float]], table: TableSpec
) -> tuple[SceneObject, ...]:
    """``[[objects]]``, each checked (physics/file_checks.py check_object) before it becomes a SceneObject."""
    objects: list[SceneObject] = []
    if not isinstance(objs_raw, list):
        raise InputError(file, "objects", "an array of tables ([[objects]])")
    for i, o in enumerate(objs_raw):
        key = f"objects[{i}]"
        check_object(file, key, o, balls, table)
        at = _vec(file, f"{key}.at", o.get("at"), 3)
        params = {k: v for k, v in o.items() if k not in ("kind", "at", "owner")}
        objects.append(SceneObject(o["kind"], (at[0], at[1], at[2]), params, str(o.get("owner", "striker"))))

    return tuple(objects)


def _recorded(
    file: str, data: Mapping[str, Any], balls: Mapping[str, tuple[float, float]], table: TableSpec
) -> tuple[
    tuple[Event, ...] | None,
    dict[str, BallFinal] | None,
    tuple[Event, ...] | None,
    dict[str, BallFinal] | None,
]:
    """A recorded stroke (``[[events]]``, ``[final.<ball>]``) and its optional ``[undisturbed]`` twin."""
    events = final = None
    if "events" in data:
        events, final = recorded_stroke(file, "", data, balls, table)
    elif "final" in data:
        raise InputError(file, "final", "only with a recorded stroke ([[events]])")
    u_events = u_final = None
    if "undisturbed" in data:
        u = data["undisturbed"]
        if events is None:
            raise InputError(file, "undisturbed", "only with a recorded stroke ([[events]])")
        if not isinstance(u, dict):
            raise InputError(
                file, "undisturbed", "[[undisturbed.events]] and [undisturbed.final.<ball>] tables"
            )
        u_events, u_final = recorded_stroke(file, "undisturbed.", u, balls, table)
    return events, final, u_events, u_final


def parse_scenario(
    data: Mapping[str, Any], file: str = "<scenario>", catalog: GameCatalog | None = None
) -> Scenario:
    """Validate a scenario file's tables. ``catalog``: what the game ids mean (None: only ``practice``)."""
    known = {
        "title",
        "game",
        "table",
        "balls",
        "shot",
        "state",
        "objects",
        "events",
        "final",
        "expected",
        "meta",
        "undisturbed",
    }
    for k in data:
        if k not in known:
            raise InputError(file, k, f"a known key ({', '.join(sorted(known))})")
    check_nested_keys(file, data, tuple(catalog.game_ids()) if catalog is not None else ())
    game, table = _game_and_table(data, file, catalog)
    state = data.get("state", {})
    if not isinstance(state, dict):
        raise InputError(file, "state", "a table")

    balls = _balls(file, data.get("balls"), game, table, game_balls(catalog, game, table, state))
    shot = _shot(file, data.get("shot"), balls)
    objects = _objects(file, data.get("objects", []), balls, table)
    events, final, u_events, u_final = _recorded(file, data, balls, table)

    expected = data.get("expected", {})
    meta = data.get("meta", {})
    if not isinstance(expected, dict):
        raise InputError(file, "expected", "a table")
    if not isinstance(meta, dict):
        raise InputError(file, "meta", "a table")
    return Scenario(
        path=file,
        title=_title(file, data.get("title")),
        game=game,
        table=table,
        balls=balls,
        shot=shot,
        state=state,
        objects=objects,
        recorded_events=events,
        recorded_final=final,
        expected=expected,
        meta=meta,
        undisturbed_events=u_events,
        undisturbed_final=u_final,
    )


def load_scenario(path: str | Path, catalog: GameCatalog | None = None) -> Scenario:
    return parse_scenario(read_toml(path, "scenario file"), str(Path(path)), catalog)
