"""Opening layouts from a rack description (docs/formats.md §Names: ball ids, table frame). No game knowledge here.

A game's rules say *what* is racked (:class:`Rack`: rows of ball ids from the apex, balls on named spots,
the cue ball's start); this module says *where* the balls go on a given table. Racked balls touch (a
frozen rack, centres 2R + 1 µm apart along each row). With ``seed`` the rack is built with 0.1 mm between
neighbours and each racked ball is moved by a seeded amount of at most 0.05 mm (never into a neighbour),
modelling the small gaps of a real rack.

``BENCH_PYRAMID`` and ``BENCH_POOL`` are two fixed layouts the bench and the physics tests break: a
15-ball triangle on the foot spot with the cue ball on the head spot (their ids are labels only).
``bench_snooker`` is the snooker tables' bench break: the 15 reds racked as snooker racks them (apex a
ball and 1 mm behind the pink spot), the yellow, green and black on their spots and the cue ball on the
brown spot, struck straight up the table into the apex (the brown, blue and pink, on that line, are left
off so the cue ball meets the pack full).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

from physics.record import BallId
from physics.tables import TableSpec

Point = tuple[float, float]
JITTER = 1e-4  # m, largest seeded displacement of a racked ball
TOUCH_GAP = 1e-6  # m between touching neighbours, so rounding never makes them overlap


@dataclass(frozen=True)
class Rack:
    """What to lay out: ``rows`` of a triangle (or any rows: a diamond is 1, 2, 3, 2, 1), apex first, each
    row listed from its -y end to its +y end (right to left looking from the head); the apex ball's centre ``apex_offset``
    beyond the spot ``apex`` toward the foot cushion; balls on named spots (``spots``) or at given points
    (``points``). A spotted ball the rows would touch moves toward the foot cushion until it is clear (a
    spot taken by a racked ball)."""

    rows: tuple[tuple[BallId, ...], ...] = ()
    apex: str = "foot-spot"
    apex_offset: float = 0.0
    spots: tuple[tuple[BallId, str], ...] = ()
    points: tuple[tuple[BallId, Point], ...] = ()

    def ball_ids(self) -> tuple[BallId, ...]:
        return (
            tuple(b for b, _ in self.points)
            + tuple(b for b, _ in self.spots)
            + tuple(b for row in self.rows for b in row)
        )


def _rows(rows: tuple[tuple[BallId, ...], ...], apex: Point, R: float, gap: float) -> dict[BallId, Point]:
    """Row k has its centres ``2R cos 30°`` further towards +x; within a row the first ball is at -y."""
    d = 2.0 * R + gap
    out: dict[BallId, Point] = {}
    for k, row in enumerate(rows):
        x = apex[0] + k * d * math.sqrt(3.0) / 2.0
        n = len(row)
        for j, bid in enumerate(row):
            out[bid] = (x, apex[1] + (j - (n - 1) / 2.0) * d)
    return out


def _jitter(layout: dict[BallId, Point], racked: set[BallId], seed: int | None) -> dict[BallId, Point]:
    if seed is None:
        return layout
    rng = random.Random(seed)
    out = dict(layout)
    for bid in sorted(racked, key=lambda b: (len(b), b)):
        x, y = out[bid]
        a = rng.uniform(0.0, 2.0 * math.pi)
        r = rng.uniform(0.0, JITTER / 2.0)
        out[bid] = (x + r * math.cos(a), y + r * math.sin(a))
    return out


def _clear_of(p: Point, rack: Mapping[BallId, Point], d: float) -> Point:
    """``p`` moved toward +x along its line until no racked ball is closer than ``d``."""
    x, y = p
    for q in sorted(rack.values()):
        if abs(y - q[1]) < d and math.hypot(x - q[0], y - q[1]) < d:
            x = max(x, q[0] + math.sqrt(d * d - (y - q[1]) ** 2))
    return (x, y)


def initial_layout(rack: Rack, spec: TableSpec, seed: int | None = None) -> dict[BallId, Point]:
    """The layout ``rack`` describes on ``spec``: points and spotted balls first (in their order), then the rows."""
    R = spec.ball_radius
    # A seeded rack leaves JITTER between neighbours and moves each ball by at most JITTER / 2.
    gap = JITTER if seed is not None else TOUCH_GAP
    ax, ay = spec.spot(rack.apex) if rack.rows else (0.0, 0.0)
    rows = _rows(rack.rows, (ax + rack.apex_offset, ay), R, gap)
    layout: dict[BallId, Point] = {b: (float(p[0]), float(p[1])) for b, p in rack.points}
    for b, spot in rack.spots:
        layout[b] = _clear_of(spec.spot(spot), rows, 2.0 * R + gap)
    layout.update(rows)
    return _jitter(layout, set(rows), seed)


# Rows of the two bench layouts (labels only), apex first.
_BENCH_TRIANGLE = (("1",), ("2", "3"), ("4", "5", "6"), ("7", "8", "9", "10"), ("11", "12", "13", "14", "15"))
_BENCH_POOL_ROWS = (
    ("1",),
    ("9", "2"),
    ("10", "8", "3"),
    ("11", "7", "14", "4"),
    ("5", "13", "15", "6", "12"),
)
BENCH_PYRAMID = Rack(rows=_BENCH_TRIANGLE, spots=(("cue", "head-spot"),))
BENCH_POOL = Rack(rows=_BENCH_POOL_ROWS, spots=(("cue", "head-spot"),))


def bench_snooker(spec: TableSpec) -> Rack:
    """``BENCH_SNOOKER`` on ``spec`` (the apex's offset from the pink spot is in the table's ball radius)."""
    return Rack(
        rows=tuple(tuple(f"red{k * (k + 1) // 2 + j + 1}" for j in range(k + 1)) for k in range(5)),
        apex="pink",
        apex_offset=2.0 * spec.ball_radius + 0.001,
        spots=(("cue", "brown"), ("yellow", "yellow"), ("green", "green"), ("black", "black")),
    )
