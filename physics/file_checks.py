"""What a parsed scenario file means, checked at every depth (the layer under ``physics.scenario``).

TOML tells us a value is a string or a float; only these checks know that a recorded stroke's ball must
be one the file placed, that a pocket called "kitchen" is on no table, that a ball the events pocket cannot
be "on the table" at the end, that a chalk cube cannot sit inside a ball, or that ``shot.call.balll`` is a
typo. Every refusal is one :class:`InputError` with the file, the full dotted key and what was expected.

Kept apart from the parser so the scenario format can grow (new keys, new owners of objects) without the
two kinds of change meeting in one function.
"""

from __future__ import annotations

import functools
import importlib
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from physics.cues import CUE_KINDS, DEFAULT_CUE
from physics.errors import InputError
from physics.record import BallFinal, BallStatus, Event, EventType, event_fields
from physics.tables import TableSpec

BALL_ID_RE = re.compile(r"^(cue|[1-9]|1[0-5]|red([1-9]|1[0-5])|yellow|green|brown|blue|pink|black)$")

# Free-vocabulary words in events (``on``, ``object``, ``rest``): short lower-case names; which of them a
# rulebook understands is the referee's business (rules/base.py).
WORD_RE = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
OBJECT_KEYS = ("kind", "at", "length", "owner")
OBJECT_OWNERS = ("striker", "opponent", "spectator", "referee")
META_KEYS = ("topic", "games", "row", "note", "subject")
EXPECTED_KEYS = ("foul", "codes", "counted", "off_table", "respot", "points", "next_player", "in_hand")
FINAL_KEYS = ("status", "pos", "pocket", "rest")
EVENT_KEYS = tuple(event_fields())
# Fields an event of each type cannot do without (docs/formats.md §Events).
EVENT_NEEDS: dict[EventType, tuple[str, ...]] = {
    EventType.CUE_STRIKE: ("ball",),
    EventType.BALL_BALL: ("balls",),
    EventType.CUSHION: ("ball", "cushion"),
    EventType.POCKET_JAW: ("ball", "pocket"),
    EventType.POCKETED: ("ball", "pocket"),
    EventType.AIRBORNE: ("ball",),
    EventType.LANDED: ("ball", "on"),
    EventType.TOUCHED: ("ball", "object"),
    EventType.JUMPED_OVER: ("ball", "over"),
    EventType.LINE_CROSSED: ("ball", "line"),
    EventType.LEFT_TABLE: ("ball",),
    EventType.RETURNED: ("ball",),
    EventType.OFF_TABLE: ("ball", "rest"),
    EventType.REST: ("ball",),
    EventType.HANGING: ("ball",),
    EventType.DROPPED: ("ball",),
}
# How far a final "on the table" centre may sit from z = R: a ball hanging on a pocket's edge tilts a little.
ON_BED_DZ = 0.005  # m
MAX_EVENT_TIME = 3600.0  # s: far above the longest stroke the physics allows (600 s)
# Balls closer than this (centre distance below 2R by more) overlap; frozen balls are exactly 2R apart.
OVERLAP_TOLERANCE = 1e-4  # m
# A ball at rest in a pocket's mouth reaches no deeper than this into a jaw or a cushion (the physics leaves
# none deeper than 0 over 300 random strokes; the campaign places balls up to 1e-5 m in).
STATIC_TOLERANCE = 1e-5  # m


def bed_bounds(table: TableSpec) -> tuple[float, float]:
    """(|x|, |y|) limits of a centre the physics may leave on the table: against a cushion (nearer the
    nose line than R) or in a pocket's mouth (beyond it), never past the cushions' back."""
    return table.half_length + table.cushion_width, table.half_width + table.cushion_width


def nose_bounds(table: TableSpec) -> tuple[float, float]:
    """(|x|, |y|) limits of a centre inside the cushion noses: a ball frozen to a cushion touches the nose above
    its centre, so its centre is R cos(theta) from the nose line (a micrometre of rounding allowed)."""
    reach = table.ball_radius * math.cos(table.contact_angle)
    return table.half_length - reach + 1e-6, table.half_width - reach + 1e-6


def rests_on_bed(table: TableSpec, x: float, y: float) -> bool:
    """True where a ball can rest on the slate: inside the cushion noses, or in a pocket's mouth clear of the
    jaws and short of the drop (52 of 300 random strokes left a ball there). The mouths need the table's
    solids, so the physics' own geometry is asked, once per table."""
    mx, my = nose_bounds(table)
    if abs(x) <= mx and abs(y) <= my:
        return True
    xb, yb = bed_bounds(table)
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > xb or abs(y) > yb:
        return False
    geo = _bare_table(table.id)
    R = table.ball_radius
    if any(dist < -STATIC_TOLERANCE for _s, _p, _n, dist in geo.contacts((x, y, R), R)):
        return False
    return bool(geo.in_bed_outline(x, y)) and all(p.local(x, y)[0] < p.a_drop for p in geo.pockets.values())


@functools.cache
def _bare_table(table_id: str) -> Any:
    """The bare table's Bullet geometry. Imported by name, when a ball first sits beyond the noses: scenario
    checks must not pull Bullet (nor the geometry's own typing) into every importer of physics.scenario."""
    from panda3d.bullet import BulletWorld

    from physics.tables import load_table

    geometry = importlib.import_module("physics.geometry")
    return geometry.build_table_geometry(BulletWorld(), load_table(table_id), (), None)


def bed_message(table: TableSpec) -> str:
    mx, my = nose_bounds(table)
    return f"a position on the bed: |x| <= {floor_to(mx)}, |y| <= {floor_to(my)}, or in a pocket's mouth clear of its jaws"


def floor_to(x: float, places: int = 5) -> float:
    """``x`` rounded down: a bound printed this way is one the check accepts."""
    scale = 10.0**places
    return math.floor(x * scale) / scale


# --- keys ------------------------------------------------------------------------------------------


def known_keys(file: str, key: str, table: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for k in table:
        if k not in allowed:
            raise InputError(file, f"{key}.{k}" if key else k, f"a known key ({', '.join(sorted(allowed))})")


def check_nested_keys(file: str, data: Mapping[str, Any], game_ids: Sequence[str] = ()) -> None:
    """Typos below the top level: ``title.de``, ``shot.call.balll``, ``meta.topicc``, ``expected.<game>.foull``
    (``game_ids``: the games with a referee, from the scenario loader's catalog)."""
    title = data.get("title")
    if isinstance(title, dict):
        known_keys(file, "title", title, ("en", "ru"))
    shot = data.get("shot")
    if isinstance(shot, dict) and isinstance(shot.get("call"), dict):
        known_keys(file, "shot.call", shot["call"], ("ball", "pocket"))
    meta = data.get("meta")
    if isinstance(meta, dict):
        known_keys(file, "meta", meta, META_KEYS)
    expected = data.get("expected")
    if isinstance(expected, dict):
        for game, ruling in expected.items():
            if game not in game_ids:
                raise InputError(file, f"expected.{game}", "a game id with a referee (python main.py games)")
            if not isinstance(ruling, dict):
                raise InputError(file, f"expected.{game}", "a table: the ruling expected under that game")
            known_keys(file, f"expected.{game}", ruling, EXPECTED_KEYS)
    undisturbed = data.get("undisturbed")
    if isinstance(undisturbed, dict):
        known_keys(file, "undisturbed", undisturbed, ("events", "final"))


# --- numbers ---------------------------------------------------------------------------------------


def _finite(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)


def _vec3(file: str, key: str, v: Any) -> tuple[float, float, float]:
    if not isinstance(v, list) or len(v) != 3 or not all(_finite(x) for x in v):
        raise InputError(file, key, "[x, y, z]: three finite numbers (metres)")
    return (float(v[0]), float(v[1]), float(v[2]))


# --- recorded strokes ------------------------------------------------------------------------------


def recorded_stroke(
    file: str, prefix: str, src: Mapping[str, Any], balls: Mapping[str, tuple[float, float]], table: TableSpec
) -> tuple[tuple[Event, ...], dict[str, BallFinal]]:
    """A recorded stroke's ``events`` and ``final`` (``prefix`` says where they sit: "" or "undisturbed."),
    checked for types, ids, time order and agreement between the events and the final state."""
    raw_events = src.get("events")
    if not isinstance(raw_events, list):
        raise InputError(file, f"{prefix}events", "an array of event tables ([[events]])")
    events: list[Event] = []
    last_t = 0.0
    for i, raw in enumerate(raw_events):
        e = _event(file, f"{prefix}events[{i}]", raw, balls, table)
        if e.t < last_t:
            raise InputError(file, f"{prefix}events[{i}].t", f"a time >= {last_t:g} s (events in time order)")
        last_t = e.t
        events.append(e)
    raw_final = src.get("final", {})
    if not isinstance(raw_final, dict):
        raise InputError(file, f"{prefix}final", "tables [final.<ball>] of balls placed in [balls]")
    final: dict[str, BallFinal] = {}
    for b, raw in raw_final.items():
        key = f"{prefix}final.{b}"
        if b not in balls:
            raise InputError(file, key, f"a ball placed in [balls] ({', '.join(balls)})")
        final[b] = _final(file, key, raw, table)
    _agree(file, prefix, events, final, balls, table)
    return tuple(events), final


def _ball(file: str, key: str, v: Any, balls: Mapping[str, Any]) -> str:
    if not isinstance(v, str) or v not in balls:
        raise InputError(file, key, f"a ball placed in [balls] ({', '.join(balls)})")
    return v


def _event(
    file: str, key: str, raw: Any, balls: Mapping[str, tuple[float, float]], table: TableSpec
) -> Event:
    if not isinstance(raw, dict):
        raise InputError(file, key, "an event table (docs/formats.md §Events: t, type and the type's fields)")
    known_keys(file, key, raw, EVENT_KEYS)
    t: Any = raw.get("t")
    if not _finite(t) or not 0.0 <= t <= MAX_EVENT_TIME:
        raise InputError(file, f"{key}.t", f"a time in seconds from 0 to {MAX_EVENT_TIME:g}")
    try:
        etype = EventType(str(raw.get("type")))
    except ValueError:
        raise InputError(file, f"{key}.type", f"an event type: {', '.join(map(str, EventType))}") from None
    for need in EVENT_NEEDS[etype]:
        if raw.get(need) is None:
            raise InputError(file, f"{key}.{need}", f"present in a {etype} event")
    kw: dict[str, Any] = {"t": float(t), "type": etype}
    for name, v in raw.items():
        k = f"{key}.{name}"
        if name in ("t", "type"):
            continue
        if name in ("ball", "over"):
            kw[name] = _ball(file, k, v, balls)
        elif name == "balls":
            if not isinstance(v, list) or len(v) != 2 or v[0] == v[1]:
                raise InputError(file, k, "two different balls placed in [balls]")
            kw[name] = (_ball(file, k, v[0], balls), _ball(file, k, v[1], balls))
        elif name == "cushion":
            if not isinstance(v, str) or v not in table.cushions:
                raise InputError(file, k, f"a cushion of {table.id}: {', '.join(table.cushions)}")
            kw[name] = v
        elif name == "pocket":
            if not isinstance(v, str) or v not in table.pockets:
                raise InputError(file, k, f"a pocket of {table.id}: {', '.join(table.pockets)}")
            kw[name] = v
        elif name == "line":
            if not isinstance(v, str) or v not in table.lines:
                raise InputError(file, k, f"a line of {table.id}: {', '.join(table.lines)}")
            kw[name] = v
        elif name in ("on", "object", "rest"):
            if not isinstance(v, str) or not WORD_RE.match(v):
                raise InputError(file, k, "a lower-case name such as bed, rail, floor, lamp, chalk")
            kw[name] = v
        elif name in ("miscue", "scoop"):
            if not isinstance(v, bool):
                raise InputError(file, k, "true or false")
            kw[name] = v
        elif name == "contacts":
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise InputError(file, k, "an integer >= 1 (how many times the tip met the ball)")
            kw[name] = v
        elif name == "contact_times":
            if not isinstance(v, list) or not all(_finite(x) and x >= 0 for x in v):
                raise InputError(file, k, "a list of times in s after the first tip contact, each >= 0")
            kw[name] = tuple(float(x) for x in v)
        elif name in ("speed", "after"):
            if not _finite(v) or v < 0:
                raise InputError(file, k, "a finite number >= 0")
            kw[name] = float(v)
        elif name == "pos":
            kw[name] = _vec3(file, k, v)
    if etype == EventType.JUMPED_OVER and kw.get("over") == kw.get("ball"):
        raise InputError(file, f"{key}.over", "another ball than the one in the air")
    return Event(**kw)


def _final(file: str, key: str, raw: Any, table: TableSpec) -> BallFinal:
    if not isinstance(raw, dict):
        raise InputError(file, key, "a table with status (and pos, pocket or rest)")
    known_keys(file, key, raw, FINAL_KEYS)
    try:
        status = BallStatus(str(raw.get("status")))
    except ValueError:
        raise InputError(file, f"{key}.status", f"one of {', '.join(map(str, BallStatus))}") from None
    pos = _vec3(file, f"{key}.pos", raw["pos"]) if "pos" in raw else None
    pocket = raw.get("pocket")
    if status == BallStatus.POCKETED and pocket is None:
        raise InputError(file, f"{key}.pocket", "the pocket the ball is in")
    if pocket is not None and (not isinstance(pocket, str) or pocket not in table.pockets):
        raise InputError(file, f"{key}.pocket", f"a pocket of {table.id}: {', '.join(table.pockets)}")
    rest = raw.get("rest")
    if rest is not None and (not isinstance(rest, str) or not WORD_RE.match(rest)):
        raise InputError(file, f"{key}.rest", "a lower-case name such as rail or floor")
    if status == BallStatus.ON_TABLE:
        if pos is None:
            raise InputError(file, f"{key}.pos", "[x, y, z] of a ball that ends on the table")
        R = table.ball_radius
        if not rests_on_bed(table, pos[0], pos[1]) or abs(pos[2] - R) > ON_BED_DZ:
            raise InputError(
                file, f"{key}.pos", f"{bed_message(table)}, z = {R:g} +- {ON_BED_DZ:g} (or another status)"
            )
    return BallFinal(status, pos, pocket, rest)


def _agree(
    file: str,
    prefix: str,
    events: list[Event],
    final: dict[str, BallFinal],
    balls: Mapping[str, tuple[float, float]],
    table: TableSpec,
) -> None:
    """The final state says what the events did: a ball the events pocket is pocketed (in that pocket), one
    they leave off the table is off it, and balls on the bed do not sit inside one another."""
    fate: dict[str, Event] = {}
    for e in events:
        if e.ball is not None and e.type in (
            EventType.POCKETED,
            EventType.DROPPED,
            EventType.OFF_TABLE,
            EventType.RETURNED,
        ):
            fate[e.ball] = e
    for b, e in fate.items():
        key = f"{prefix}final.{b}"
        f = final.get(b)
        if e.type == EventType.RETURNED:
            continue
        want = BallStatus.OFF_TABLE if e.type == EventType.OFF_TABLE else BallStatus.POCKETED
        if f is None:
            raise InputError(file, key, f"a final table: the events leave {b} {want} at t={e.t:g} s")
        if f.status != want:
            raise InputError(file, f"{key}.status", f"{want}: the {e.type} event at t={e.t:g} s says so")
        if want == BallStatus.POCKETED and e.pocket is not None and f.pocket != e.pocket:
            raise InputError(file, f"{key}.pocket", f"{e.pocket}: the {e.type} event at t={e.t:g} s says so")
    for b, f in final.items():
        if f.status == BallStatus.POCKETED and (b not in fate or fate[b].type == EventType.RETURNED):
            raise InputError(
                file,
                f"{prefix}final.{b}.status",
                "pocketed only with a pocketed or dropped event for the ball",
            )
    R = table.ball_radius
    resting: dict[str, tuple[float, float]] = {}
    for b, (x, y) in balls.items():
        f = final.get(b)
        if f is None:
            resting[b] = (x, y)  # not in the final: it stayed where [balls] put it
        elif f.status == BallStatus.ON_TABLE and f.pos is not None:
            resting[b] = (f.pos[0], f.pos[1])
    names = list(resting)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if math.dist(resting[a], resting[b]) < 2 * R - OVERLAP_TOLERANCE:
                moved = b if b in final else a
                raise InputError(
                    file,
                    f"{prefix}final.{moved}.pos",
                    f"a resting place clear of ball {a if moved == b else b!r} "
                    f"(centres at least {floor_to(2 * R - OVERLAP_TOLERANCE, 4)} m apart)",
                )


# --- [[objects]] -----------------------------------------------------------------------------------


def check_object(
    file: str, key: str, raw: Any, balls: Mapping[str, tuple[float, float]], table: TableSpec
) -> None:
    """One ``[[objects]]`` table: known keys of the right types, in the room, clear of every ball."""
    from physics.objects import CUE_LENGTH_RANGE, OBJECT_KINDS, footprint, sphere_meets_box

    if not isinstance(raw, dict):
        raise InputError(file, key, "a table with kind and at")
    known_keys(file, key, raw, OBJECT_KEYS)
    kind = raw.get("kind")
    if kind not in OBJECT_KINDS:
        raise InputError(file, f"{key}.kind", f"one of {', '.join(OBJECT_KINDS)}")
    at = _vec3(file, f"{key}.at", raw.get("at"))
    if max(abs(at[0]), abs(at[1])) > 20.0:
        raise InputError(file, f"{key}.at", "a position within 20 m of the table centre")
    owner = raw.get("owner")
    if owner is not None and owner not in OBJECT_OWNERS:
        raise InputError(file, f"{key}.owner", f"one of {', '.join(OBJECT_OWNERS)}")
    length = raw.get("length")
    if length is not None:
        lo, hi = CUE_LENGTH_RANGE
        if kind != "cue-on-rail":
            raise InputError(file, f"{key}.length", "only for a cue-on-rail")
        if not _finite(length) or not lo <= length <= hi:
            raise InputError(file, f"{key}.length", f"a cue length from {lo:g} to {hi:g} m")
    box = footprint(table, kind, at, None if length is None else float(length))
    if box is None:
        raise InputError(file, f"{key}.at", "a floor position beside the table (a person cannot stand on it)")
    R = table.ball_radius
    for b, (x, y) in balls.items():
        if sphere_meets_box((x, y, R), R, box):
            raise InputError(
                file, f"{key}.at", f"a place clear of ball {b!r} (the {kind} would be inside it)"
            )


# --- physics.simulate()'s own arguments ------------------------------------------------------------

API = "simulate()"
MAX_CUE_SPEED = 20.0  # m/s; a "ridiculous" break is 16 m/s (docs/physics.md §Cues)
DIRECTION_RANGE = (-360.0, 360.0)  # degrees anticlockwise from +x
ELEVATION_RANGE = (0.0, 90.0)  # degrees of the cue above the bed
SUBSTEP_RANGE = (1000.0, 4000.0)  # Hz, as settings' physics.substep_hz
MAX_STROKE_RANGE = (0.0, 600.0)  # s, as settings' physics.max_stroke_seconds (above 0)


def check_simulate_args(
    table: TableSpec,
    balls: Mapping[str, tuple[float, float]],
    shot: Any,
    params: Any,
    objects: Any,
    lamp: tuple[float, float, float] | None,
) -> None:
    """What ``physics.simulate()`` is handed, checked as a file would be (file "simulate()"): a caller below
    the file boundary (a script, a tool, a test) gets one InputError, never a NaN in the record or a Panda3D
    assertion. Balls may sit where the physics can leave them (against a cushion, in a pocket's mouth)."""
    if not balls:
        raise InputError(API, "balls", "at least one ball")
    R = table.ball_radius
    seen: dict[str, tuple[float, float]] = {}
    for b, pos in balls.items():
        key = f"balls.{b}"
        if not isinstance(b, str) or not BALL_ID_RE.match(b):
            raise InputError(
                API, key, "a ball id: cue, 1..15, red1..red15, yellow, green, brown, blue, pink, black"
            )
        if len(pos) != 2 or not all(_finite(v) for v in pos):
            raise InputError(API, key, "(x, y): two finite numbers (metres)")
        x, y = float(pos[0]), float(pos[1])
        if not rests_on_bed(table, x, y):
            raise InputError(API, key, bed_message(table))
        for other, (ox, oy) in seen.items():
            if math.hypot(x - ox, y - oy) < 2 * R - OVERLAP_TOLERANCE:
                raise InputError(API, key, f"no overlap with ball {other!r}")
        seen[b] = (x, y)
    if shot is not None:
        _check_shot(shot, balls, table)
    if params is not None:
        _check_params(params)
    for i, o in enumerate(objects):
        raw = {**dict(o.params or {}), "kind": o.kind, "at": list(o.at)}
        check_object(API, f"objects[{i}]", raw, balls, table)
    if lamp is not None and (len(lamp) != 3 or not all(_finite(v) for v in lamp)):
        raise InputError(API, "lamp", "(x, y, height): three finite numbers (metres)")


def _range(key: str, v: Any, lo: float, hi: float, unit: str) -> None:
    if not _finite(v) or not lo <= v <= hi:
        raise InputError(API, key, f"a number from {lo:g} to {hi:g} {unit}")


def _check_shot(shot: Any, balls: Mapping[str, Any], table: TableSpec) -> None:
    if shot.ball not in balls:
        raise InputError(API, "shot.ball", f"a ball placed on the table ({', '.join(balls)})")
    _range("shot.cue_speed", shot.cue_speed, 0.0, MAX_CUE_SPEED, "m/s")
    _range("shot.direction", shot.direction, *DIRECTION_RANGE, "degrees")
    _range("shot.elevation", shot.elevation, *ELEVATION_RANGE, "degrees")
    tip = tuple(shot.tip)
    if len(tip) != 2 or not all(_finite(v) for v in tip) or math.hypot(*tip) > 1.0:
        raise InputError(API, "shot.tip", "(right, up) inside the ball: sqrt(right^2 + up^2) <= 1 (in radii)")
    if shot.call_ball is not None and shot.call_ball not in balls:
        raise InputError(API, "shot.call.ball", "a ball placed on the table")
    if shot.call_pocket is not None and shot.call_pocket not in table.pockets:
        raise InputError(API, "shot.call.pocket", f"a pocket of {table.id}: {', '.join(table.pockets)}")
    if getattr(shot, "cue", DEFAULT_CUE) not in CUE_KINDS:
        raise InputError(API, "shot.cue", f"one of {', '.join(CUE_KINDS)}")


def _check_params(params: Any) -> None:
    from dataclasses import fields

    for f in fields(params):
        v = getattr(params, f.name)
        if isinstance(v, (int, float)) and not _finite(v):
            raise InputError(API, f"params.{f.name}", "a finite number")
    if getattr(params, "cue", DEFAULT_CUE) not in CUE_KINDS:
        raise InputError(API, "params.cue", f"one of {', '.join(CUE_KINDS)}")
    _range("params.substep_hz", params.substep_hz, *SUBSTEP_RANGE, "Hz")
    lo, hi = MAX_STROKE_RANGE
    if not _finite(params.max_stroke_seconds) or not lo < params.max_stroke_seconds <= hi:
        raise InputError(API, "params.max_stroke_seconds", f"a number above {lo:g} and at most {hi:g} s")
