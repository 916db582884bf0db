"""Filters over a shot record's event log (pooltool style): small pure functions a referee composes.

``select(events, by_type(...), by_ball(...), after(t))`` keeps the events every predicate accepts.
Geometry helpers (``frozen_to_cushion``, ``in_region``...) work on :class:`physics.tables.TableSpec`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from physics.record import BallId, BallStatus, Event, EventType, ShotRecord
from physics.tables import TableSpec

Predicate = Callable[[Event], bool]
Point = tuple[float, float]

# Two balls or a ball and a cushion closer than this (beyond exact contact) are "frozen": scenario files
# store positions to 0.1 mm, so 1 mm is well above rounding and well below any real gap a referee sees.
FROZEN_TOL = 0.001


def by_type(*types: EventType) -> Predicate:
    return lambda e: e.type in types


def by_ball(ball: BallId) -> Predicate:
    return lambda e: e.involves(ball)


def after(t: float) -> Predicate:
    return lambda e: e.t > t


def before(t: float) -> Predicate:
    return lambda e: e.t < t


def select(events: Iterable[Event], *preds: Predicate) -> list[Event]:
    return [e for e in events if all(p(e) for p in preds)]


def first(events: Iterable[Event], *preds: Predicate) -> Event | None:
    for e in events:
        if all(p(e) for p in preds):
            return e
    return None


def struck_ball(record: ShotRecord, default: BallId = "cue") -> BallId:
    """The ball the cue tip met (the first ``cue_strike``), else the declared ``shot.ball``."""
    e = first(record.events, by_type(EventType.CUE_STRIKE))
    if e is not None and e.ball is not None:
        return e.ball
    return record.shot.ball if record.shot is not None else default


def first_contact(record: ShotRecord, cue: BallId) -> Event | None:
    """The first ball-ball contact of the cue ball."""
    return first(record.events, by_type(EventType.BALL_BALL), by_ball(cue))


def other(e: Event, ball: BallId) -> BallId:
    assert e.balls is not None
    return e.balls[1] if e.balls[0] == ball else e.balls[0]


def pocketed_order(record: ShotRecord) -> list[BallId]:
    """Balls in the order they dropped (``pocketed`` events), then any the final state adds."""
    out: list[BallId] = []
    for e in select(record.events, by_type(EventType.POCKETED)):
        if (
            e.ball is not None
            and e.ball not in out
            and record.final.get(e.ball) is not None
            and record.final[e.ball].status == BallStatus.POCKETED
        ):
            out.append(e.ball)
    out += [b for b in record.pocketed() if b not in out]
    return out


def pocket_of(record: ShotRecord, ball: BallId) -> str | None:
    f = record.final.get(ball)
    if f is not None and f.pocket is not None:
        return f.pocket
    e = first(reversed(record.events), by_type(EventType.POCKETED), by_ball(ball))
    return e.pocket if e is not None else None


def late_drops(record: ShotRecord, seconds: float) -> dict[BallId, float]:
    """Hanging balls that dropped ``seconds`` or more after the stroke ended: ``{ball: after}``."""
    out: dict[BallId, float] = {}
    for e in select(record.events, by_type(EventType.DROPPED)):
        if e.ball is not None and e.after is not None and e.after >= seconds:
            out[e.ball] = e.after
    return out


def fell_after_stroke(record: ShotRecord, drop: Event) -> bool:
    """Did the hanging ball of a ``dropped`` event fall after the stroke had ended (every ball at rest)?

    The ball must have come to rest itself first (a ``hanging`` or ``rest`` event of its own before the fall):
    one that paused for an instant and dropped still spinning never stopped - a ball spinning in place is
    moving (003: Начало и завершение удара) - so it fell during the stroke. Then the record says when the stroke
    ended: ``after`` (seconds from the end to the fall) when it has one, else the balls' own rest events."""
    b = drop.ball
    settled = (EventType.HANGING, EventType.REST)
    if b is None or first(record.events, by_type(*settled), by_ball(b), before(drop.t + 1e-12)) is None:
        return False
    if drop.after is not None:
        return drop.after > 0.0
    end = [
        e.t
        for e in record.events
        if e.type in (*settled, EventType.OFF_TABLE, EventType.POCKETED) and e.t <= drop.t and e.ball != b
    ]
    return not end or drop.t > max(end)


def hanging_position(record: ShotRecord, ball: BallId) -> Point | None:
    """Where a ball hung over a pocket (the ``hanging`` event's position)."""
    for e in reversed(record.events):
        if e.type in (EventType.HANGING, EventType.DROPPED) and e.ball == ball and e.pos is not None:
            return (e.pos[0], e.pos[1])
    return None


def final_xy(record: ShotRecord, ball: BallId) -> Point | None:
    f = record.final.get(ball)
    if f is None or f.status != BallStatus.ON_TABLE:
        return None
    if f.pos is not None:
        return (f.pos[0], f.pos[1])
    p = record.initial.get(ball)
    return (p[0], p[1]) if p is not None else None


def initial_xy(record: ShotRecord, ball: BallId) -> Point | None:
    p = record.initial.get(ball)
    return (p[0], p[1]) if p is not None else None


def touched(record: ShotRecord, ball: BallId) -> list[Event]:
    return select(record.events, by_type(EventType.TOUCHED), by_ball(ball))


def returned(record: ShotRecord, ball: BallId) -> bool:
    return first(record.events, by_type(EventType.RETURNED), by_ball(ball)) is not None


def crossed(record: ShotRecord, line: str, since: float = -1.0) -> list[BallId]:
    """Balls whose centre crossed ``line`` after ``since`` (each once, in order)."""
    out: list[BallId] = []
    for e in select(record.events, by_type(EventType.LINE_CROSSED), after(since)):
        if e.line == line and e.ball is not None and e.ball not in out:
            out.append(e.ball)
    return out


def contacted(record: ShotRecord, ball: BallId, until: float | None = None) -> bool:
    """Whether anything (ball, cushion, jaw) touched ``ball`` before ``until``."""
    for e in record.events:
        if until is not None and e.t >= until:
            break
        if e.type in (EventType.BALL_BALL, EventType.CUSHION, EventType.POCKET_JAW) and e.involves(ball):
            return True
    return False


# --- geometry ---------------------------------------------------------------------------------
def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def cushion_distance(table: TableSpec, cushion: str, p: Point) -> float:
    """Distance from a ball centre to a cushion's nose line (perpendicular, as an infinite line)."""
    c = table.cushions[cushion]
    return (p[0] - c.start[0]) * c.normal[0] + (p[1] - c.start[1]) * c.normal[1]


def _along(table: TableSpec, cushion: str, p: Point) -> float:
    """Position of p's foot along the cushion segment, 0 at start, length at end."""
    c = table.cushions[cushion]
    dx, dy = c.end[0] - c.start[0], c.end[1] - c.start[1]
    n = math.hypot(dx, dy)
    return ((p[0] - c.start[0]) * dx + (p[1] - c.start[1]) * dy) / n


def frozen_to_cushion(table: TableSpec, p: Point) -> list[str]:
    """Cushions a ball at ``p`` touches: its centre ``table.cushion_reach`` from the nose line (the nose meets
    the ball above its centre; the physics and the scenario loader place a touching ball there), within the
    segment."""
    out = []
    reach = table.cushion_reach
    for cid, c in table.cushions.items():
        d = cushion_distance(table, cid, p)
        length = dist(c.start, c.end)
        s = _along(table, cid, p)
        if abs(d - reach) <= FROZEN_TOL and -table.ball_radius <= s <= length + table.ball_radius:
            out.append(cid)
    return out


def distance_to_jaw(table: TableSpec, cushion: str, p: Point) -> float:
    """Distance along a cushion from a contact point to the nearer jaw (segment end)."""
    c = table.cushions[cushion]
    s = _along(table, cushion, p)
    return max(0.0, min(s, dist(c.start, c.end) - s))


def angle_between(direction_deg: float, v: Point) -> float:
    """Angle in degrees (0..180) between a shot direction and a vector."""
    a = math.radians(direction_deg)
    ux, uy = math.cos(a), math.sin(a)
    n = math.hypot(*v)
    if n == 0:
        return 0.0
    c = max(-1.0, min(1.0, (ux * v[0] + uy * v[1]) / n))
    return math.degrees(math.acos(c))
