"""The shot record: the contract between physics, the referee and the scenes.

Plain frozen dataclasses, no Panda3D: ``rules/`` and ``scenes/`` import these.
The JSON shape is a contract, docs/formats.md §Shot record (extend, never rename or drop a field).
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import IO, Any, overload

import numpy as np

BallId = str
PocketId = str
CushionId = str

POCKET_IDS: tuple[PocketId, ...] = (
    "head-left",
    "head-right",
    "middle-left",
    "middle-right",
    "foot-left",
    "foot-right",
)
CUSHION_IDS: tuple[CushionId, ...] = (
    "head",
    "foot",
    "left-head",
    "left-foot",
    "right-head",
    "right-foot",
)


class EventType(StrEnum):
    CUE_STRIKE = "cue_strike"
    BALL_BALL = "ball_ball"
    CUSHION = "cushion"
    POCKET_JAW = "pocket_jaw"
    POCKETED = "pocketed"
    AIRBORNE = "airborne"
    LANDED = "landed"
    TOUCHED = "touched"
    JUMPED_OVER = "jumped_over"
    LINE_CROSSED = "line_crossed"
    LEFT_TABLE = "left_table"
    RETURNED = "returned"
    OFF_TABLE = "off_table"
    REST = "rest"
    # Extensions (the contract allows adding types: docs/formats.md §Events).
    HANGING = "hanging"  # a ball stopped on a pocket edge, overhanging the drop
    DROPPED = "dropped"  # a hanging ball fell later: "after" seconds past the stroke's end


class BallStatus(StrEnum):
    ON_TABLE = "on_table"
    POCKETED = "pocketed"
    OFF_TABLE = "off_table"


# Optional event fields in the order they are written to JSON.
_EVENT_FIELDS = (
    "ball",
    "balls",
    "cushion",
    "pocket",
    "on",
    "object",
    "over",
    "line",
    "rest",
    "miscue",
    "scoop",
    "contacts",
    "contact_times",
    "speed",
    "after",
    "pos",
)


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened during a stroke, at time ``t`` seconds after the strike."""

    t: float
    type: EventType
    ball: BallId | None = None
    balls: tuple[BallId, BallId] | None = None
    cushion: CushionId | None = None
    pocket: PocketId | None = None
    on: str | None = None  # landed: bed | rail | floor | ...
    object: str | None = None  # touched: rail_top | frame | lamp | chalk | person | floor | cue | ...
    over: BallId | None = None  # jumped_over
    line: str | None = None  # line_crossed
    rest: str | None = None  # off_table: rail | floor | ...
    miscue: bool | None = None  # cue_strike
    scoop: bool | None = None  # cue_strike
    # cue_strike (docs/formats.md §Events): how many times the tip met the ball (> 1: a double hit) and when, in s after the
    # first; absent (None) they read as contacts=1, contact_times=[] (one contact).
    contacts: int | None = None
    contact_times: tuple[float, ...] | None = None
    speed: float | None = None  # impact speed (m/s) where meaningful
    after: float | None = None  # dropped: seconds after the stroke ended
    pos: tuple[float, float, float] | None = None  # where it happened (centre of the ball)

    def involves(self, ball: BallId) -> bool:
        return self.ball == ball or (self.balls is not None and ball in self.balls)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"t": _r(self.t), "type": str(self.type)}
        for name in _EVENT_FIELDS:
            v = getattr(self, name)
            if v is None:
                continue
            if name in ("balls", "pos", "contact_times"):
                v = [(_r(x) if isinstance(x, float) else x) for x in v]
            elif isinstance(v, float):
                v = _r(v)
            d[name] = v
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        kw: dict[str, Any] = {"t": float(d["t"]), "type": EventType(d["type"])}
        for name in _EVENT_FIELDS:
            if name in d and d[name] is not None:
                v = d[name]
                if name in ("balls", "pos", "contact_times"):
                    v = tuple(v)
                kw[name] = v
        return cls(**kw)


@dataclass(frozen=True, slots=True)
class BallFinal:
    """Where a ball is when the stroke has ended."""

    status: BallStatus
    pos: tuple[float, float, float] | None = None
    pocket: PocketId | None = None
    rest: str | None = None  # for off_table: rail | floor | lamp | ...

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"status": str(self.status)}
        if self.pocket is not None:
            d["pocket"] = self.pocket
        if self.rest is not None:
            d["rest"] = self.rest
        if self.pos is not None:
            d["pos"] = [_r(x) for x in self.pos]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BallFinal:
        pos = d.get("pos")
        return cls(
            status=BallStatus(d["status"]),
            pos=tuple(float(x) for x in pos) if pos is not None else None,  # type: ignore[arg-type]
            pocket=d.get("pocket"),
            rest=d.get("rest"),
        )


@dataclass(frozen=True, slots=True)
class ShotParams:
    """What the player did: the stroke as declared (degrees at this edge, as in scenario files)."""

    ball: BallId = "cue"
    cue_speed: float = 0.0  # m/s of the cue at impact
    direction: float = 0.0  # degrees anticlockwise from +x
    elevation: float = 0.0  # degrees above the bed
    tip: tuple[float, float] = (0.0, 0.0)  # [right+, up+] in ball radii
    call_ball: BallId | None = None
    call_pocket: PocketId | None = None
    cue: str = "playing"  # the cue taken (physics.cues.CUE_KINDS)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "ball": self.ball,
            "cue_speed": self.cue_speed,
            "direction": self.direction,
            "elevation": self.elevation,
            "tip": list(self.tip),
        }
        if self.call_ball is not None or self.call_pocket is not None:
            d["call"] = {"ball": self.call_ball, "pocket": self.call_pocket}
        if self.cue != "playing":
            d["cue"] = self.cue  # the playing cue goes without saying (records made before cues had kinds)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ShotParams:
        call = d.get("call") or {}
        return cls(
            ball=d.get("ball", "cue"),
            cue_speed=float(d.get("cue_speed", 0.0)),
            direction=float(d.get("direction", 0.0)),
            elevation=float(d.get("elevation", 0.0)),
            tip=tuple(d.get("tip", (0.0, 0.0))),
            call_ball=call.get("ball"),
            call_pocket=call.get("pocket"),
            cue=str(d.get("cue", "playing")),
        )


SampleRow = tuple[float, float, float, float, float, float, float, float, float, float]
ROW = 10  # numbers in a sample row


class SampleRows(Sequence[SampleRow]):
    """One ball's sample rows packed as doubles: 80 bytes a row, where a tuple of ten floats takes ~380.

    At 10 kHz a 16-ball break has 1.6 million rows; as tuples they alone were 0.6 GB. Reads give tuples.
    """

    __slots__ = ("_data",)

    def __init__(self, rows: Iterable[Sequence[float]] = ()) -> None:
        self._data = array("d")
        for r in rows:
            self.append(r)

    def append(self, row: Sequence[float]) -> None:
        if len(row) != ROW:
            raise ValueError(f"a sample row has {ROW} numbers, got {len(row)}")
        self._data.extend(row)

    def extend_flat(self, values: Sequence[float]) -> None:
        """Append whole rows given one after another as a flat run of numbers."""
        if len(values) % ROW:
            raise ValueError(f"sample rows have {ROW} numbers each, got a run of {len(values)}")
        self._data.extend(values)

    def extend_doubles(self, values: np.ndarray) -> None:
        """Append whole rows from an array of float64s (rows one after another): its bytes copied at once,
        the same numbers as ``extend_flat(values.ravel().tolist())`` without a Python float for each."""
        if values.dtype != np.float64 or values.size % ROW:
            raise ValueError(
                f"sample rows are float64, {ROW} numbers each, got {values.dtype} x {values.size}"
            )
        self._data.frombytes(np.ascontiguousarray(values).tobytes())

    def __len__(self) -> int:
        return len(self._data) // ROW

    @overload
    def __getitem__(self, i: int) -> SampleRow: ...
    @overload
    def __getitem__(self, i: slice) -> list[SampleRow]: ...
    def __getitem__(self, i: int | slice) -> SampleRow | list[SampleRow]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("sample row index out of range")
        return tuple(self._data[i * ROW : (i + 1) * ROW])  # type: ignore[return-value]

    def __iter__(self) -> Iterator[SampleRow]:
        d = self._data
        for k in range(0, len(d), ROW):
            yield tuple(d[k : k + ROW])  # type: ignore[misc]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SampleRows):
            return self._data == other._data
        return isinstance(other, Sequence) and list(self) == [tuple(r) for r in other]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SampleRows({len(self)} rows)"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_sample_rows_from_bytes, (self._data.tobytes(),))


def _sample_rows_from_bytes(data: bytes) -> SampleRows:
    rows = SampleRows()
    rows._data.frombytes(data)
    return rows


@dataclass(frozen=True)
class ShotRecord:
    """One stroke, simulated (or recorded) to rest.

    ``initial`` and ``shot`` extend the contract's JSON (docs/formats.md §Shot record) so a ruling can be made from the
    record alone (where the balls were, what the player declared).
    """

    table: str
    params: Mapping[str, float | str]  # numbers, and the cue kind (params.PhysicsParams.as_dict)
    events: tuple[Event, ...]
    final: Mapping[BallId, BallFinal]
    samples: Mapping[BallId, Sequence[SampleRow]] | None = None
    initial: Mapping[BallId, tuple[float, float, float]] = field(default_factory=dict)
    shot: ShotParams | None = None
    duration: float = 0.0  # simulated seconds until every ball rested

    # --- queries the referee and scenes use -------------------------------------------------
    def of_type(self, *types: EventType) -> list[Event]:
        return [e for e in self.events if e.type in types]

    def for_ball(self, ball: BallId, *types: EventType) -> list[Event]:
        return [e for e in self.events if e.involves(ball) and (not types or e.type in types)]

    def first_contact(self, ball: BallId = "cue") -> Event | None:
        for e in self.events:
            if e.type == EventType.BALL_BALL and e.balls is not None and ball in e.balls:
                return e
        return None

    def pocketed(self) -> list[BallId]:
        return [b for b, f in self.final.items() if f.status == BallStatus.POCKETED]

    def off_table(self) -> list[BallId]:
        return [b for b, f in self.final.items() if f.status == BallStatus.OFF_TABLE]

    # --- JSON ------------------------------------------------------------------------------
    def to_dict(self, samples: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {
            "table": self.table,
            "params": {k: _r(v) if isinstance(v, float) else v for k, v in self.params.items()},
            "events": [e.to_dict() for e in self.events],
            "final": {b: f.to_dict() for b, f in self.final.items()},
        }
        if samples and self.samples is not None:
            d["samples"] = {b: _rows_out(rows) for b, rows in self.samples.items()}
        d["initial"] = {b: [_r(x) for x in p] for b, p in self.initial.items()}
        if self.shot is not None:
            d["shot"] = self.shot.to_dict()
        d["duration"] = _r(self.duration)
        return d

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent, allow_nan=False)

    def write_json(
        self, fp: IO[str], indent: int | None = None, extra: Mapping[str, Any] | None = None
    ) -> None:
        """Write ``to_dict()`` (plus ``extra`` keys after it) as ``json.dumps`` would, but the samples row by
        row: the text and a list of every row never sit in memory at once."""
        d = self.to_dict(samples=False)
        d.update(extra or {})
        if self.samples is None:
            fp.write(json.dumps(d, ensure_ascii=False, indent=indent, allow_nan=False))
            return
        mark = "\u0000samples\u0000"
        keys = list(d)
        at = keys.index("final") + 1
        d = {**{k: d[k] for k in keys[:at]}, "samples": mark, **{k: d[k] for k in keys[at:]}}
        text = json.dumps(d, ensure_ascii=False, indent=indent, allow_nan=False)
        head, tail = text.split(json.dumps(mark), 1)
        fp.write(head)
        _write_samples(fp, self.samples, indent)
        fp.write(tail)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ShotRecord:
        samples = d.get("samples")
        return cls(
            table=d["table"],
            params=dict(d.get("params", {})),
            events=tuple(Event.from_dict(e) for e in d.get("events", [])),
            final={b: BallFinal.from_dict(f) for b, f in d.get("final", {}).items()},
            samples={b: tuple(tuple(r) for r in rows) for b, rows in samples.items()} if samples else None,
            initial={b: tuple(p) for b, p in d.get("initial", {}).items()},
            shot=ShotParams.from_dict(d["shot"]) if d.get("shot") else None,
            duration=float(d.get("duration", 0.0)),
        )


def _write_samples(fp: IO[str], samples: Mapping[BallId, Sequence[SampleRow]], indent: int | None) -> None:
    """``samples`` as ``json.dumps`` writes them one level inside the record's object, a row at a time."""

    def nl(level: int) -> str:
        return "" if indent is None else "\n" + " " * (indent * level)

    def row_text(row: SampleRow) -> str:
        text = json.dumps([_r(x) for x in row], allow_nan=False, indent=indent)
        return text if indent is None else text.replace("\n", nl(3))

    if not samples:
        fp.write("{}")
        return
    fp.write("{")
    for n, (b, rows) in enumerate(samples.items()):
        fp.write(("," if n else "") + (nl(2) if indent is not None else (" " if n else "")))
        fp.write(json.dumps(b, ensure_ascii=False) + ": ")
        if not rows:
            fp.write("[]")
            continue
        fp.write("[")
        for k, row in enumerate(rows):
            fp.write(
                ("," if k else "") + (nl(3) if indent is not None else (" " if k else "")) + row_text(row)
            )
        fp.write(nl(2) + "]")
    fp.write(nl(1) + "}")


def _rows_out(rows: Sequence[SampleRow]) -> list[list[float]]:
    """One ball's sample rows as lists for JSON, each number through :func:`_r`.

    The engine's rows are rounded to 1e-6 as they are made (np.round), and a number np.round leaves as it is
    is the double nearest a six-decimal value, which round(x, 6) leaves as it is too: such packed rows are
    given as they are in one pass (the numbers one by one were most of the campaign's record checks)."""
    if isinstance(rows, SampleRows) and len(rows):
        a = np.frombuffer(rows._data, dtype=np.float64)
        if np.all(np.abs(a) < 1e9) and np.array_equal(np.round(a, 6), a):
            out: list[list[float]] = a.reshape(-1, ROW).tolist()
            return out
    return [[_r(x) for x in row] for row in rows]


def _r(x: float) -> float:
    """Round for JSON: stable text, and refuse NaN/inf so none ever reaches a record."""
    if isinstance(x, bool) or not isinstance(x, float):
        return x
    if not math.isfinite(x):
        raise ValueError("non-finite number in a shot record")
    return round(x, 6)


def event_fields() -> Iterable[str]:
    return (f.name for f in fields(Event))
