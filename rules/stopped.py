"""Was a ball the opponent stopped on its way to a pocket? Decided from the record when no undisturbed run
is given (003 «Вмешательство соперника»: «Если при этом соперник задержит играемый шар, движущийся в
сторону лузы, то этот шар считается сыгранным и играющий производит следующий удар»).

The ball's heading at the touch is its velocity there (the record's samples), else its path: from the last
place the record has it before the touch (a cushion, a jaw or a line it crossed; else where it stood) to
where it was touched (the touch's place, else where it stopped). It was on its way to a pocket when that straight line passes through the pocket's
mouth (between the jaw noses) with nothing standing in the way. With its speed known, it must also have been
able to get there: a ball rolls to a stop in v² / (2 mu_roll g) (the cloth's rolling law, docs/physics.md §Cloth; a
sliding ball stops sooner, so this is the most it could have rolled). Without a speed the path alone decides,
and the explanation says so. A called stroke counts the stopped ball only if it was the called ball making for
the called pocket.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from physics.record import BallFinal, BallId, BallStatus, Event, EventType, ShotRecord
from physics.tables import Pocket, TableSpec
from rules import filters as F
from rules.contract import Point

G = 9.81  # m/s²
_PLACED = (EventType.CUSHION, EventType.POCKET_JAW, EventType.LINE_CROSSED, EventType.LANDED)


@dataclass(frozen=True)
class Heading:
    """Where a ball was going when it was touched: ``pocket`` (None: no pocket), decided ``by`` "velocity" or
    "path"; ``speed`` m/s when known, ``reach`` m it could still roll, ``to_mouth`` m to the mouth."""

    pocket: str | None
    by: str
    speed: float | None
    reach: float | None
    to_mouth: float | None
    blocker: BallId | None = None


def _velocity(record: ShotRecord, ball: BallId, t: float) -> tuple[float, float] | None:
    rows = (record.samples or {}).get(ball)
    if not rows:
        return None
    last = None
    for row in rows:
        if row[0] > t + 1e-9:
            break
        last = row
    return (last[4], last[5]) if last is not None else None


def _path_from(record: ShotRecord, ball: BallId, t: float) -> Point | None:
    at: Point | None = F.initial_xy(record, ball)
    for e in record.events:
        if e.t >= t:
            break
        if e.ball == ball and e.type in _PLACED and e.pos is not None:
            at = (e.pos[0], e.pos[1])
    return at


def _through_mouth(p: Point, u: Point, pk: Pocket) -> float | None:
    """The distance along ``u`` from ``p`` to where the line crosses ``pk``'s mouth (between the jaw noses), or
    None when it misses it or runs away from the pocket."""
    ax, ay = pk.axis
    if u[0] * ax + u[1] * ay <= 0.0:
        return None
    # The mouth: the segment centre ± mouth/2 across the pocket's axis.
    cx, cy = pk.centre
    wx, wy = -ay, ax
    den = u[0] * wy - u[1] * wx
    if abs(den) < 1e-12:
        return None
    dx, dy = cx - p[0], cy - p[1]
    along = (dx * wy - dy * wx) / den
    across = (dx * u[1] - dy * u[0]) / den
    if along <= 0.0 or abs(across) > pk.mouth / 2:
        return None
    return along


def _in_the_way(p: Point, u: Point, length: float, others: dict[BallId, Point], r: float) -> BallId | None:
    for b, q in sorted(others.items()):
        along = (q[0] - p[0]) * u[0] + (q[1] - p[1]) * u[1]
        if 0.0 < along < length and abs((q[0] - p[0]) * u[1] - (q[1] - p[1]) * u[0]) < 2 * r:
            return b
    return None


def heading(record: ShotRecord, table: TableSpec, touch: Event) -> Heading | None:
    """Where the touched ball was going (None: the record cannot say - no place for the touch)."""
    ball, t = touch.ball, touch.t
    if ball is None:
        return None
    # Where it was touched: the touch's place, else where it stopped (the opponent stopped it there).
    p = (touch.pos[0], touch.pos[1]) if touch.pos is not None else F.final_xy(record, ball)
    if p is None:
        return None
    v = _velocity(record, ball, t)
    by = "velocity"
    if v is None or math.hypot(*v) < 1e-6:
        prev = _path_from(record, ball, t)
        if prev is None or math.dist(prev, p) < 1e-6:
            return None
        v, by = (p[0] - prev[0], p[1] - prev[1]), "path"
    n = math.hypot(*v)
    u = (v[0] / n, v[1] / n)
    speed = n if by == "velocity" else None
    mu = record.params.get("mu_roll", 0.01)
    reach = speed * speed / (2 * float(mu) * G) if speed is not None and float(mu) > 0 else None
    others = {
        b: q
        for b in record.final
        if b != ball
        and (q := F.final_xy(record, b)) is not None
        and record.final[b].status == BallStatus.ON_TABLE
    }
    for pk in sorted(table.pockets.values(), key=lambda k: k.id):
        d = _through_mouth(p, u, pk)
        if d is None:
            continue
        blocker = _in_the_way(p, u, d, others, table.ball_radius)
        if blocker is not None:
            return Heading(None, by, speed, reach, d, blocker)
        if reach is not None and reach < d:
            return Heading(None, by, speed, reach, d)
        return Heading(pk.id, by, speed, reach, d)
    return Heading(None, by, speed, reach, None)


def into_pocket(record: ShotRecord, ball: BallId, pocket: str, t: float, h: Heading) -> ShotRecord:
    """The stroke as the referee counts it: ``ball`` goes on from the touch at ``t`` into ``pocket`` (its later
    events dropped, a ``pocketed`` event when it would have got there)."""
    arrive = t + (h.to_mouth / h.speed if h.speed and h.to_mouth else 0.001)
    events = [e for e in record.events if e.t < t or not e.involves(ball)]
    events.append(Event(round(arrive, 6), EventType.POCKETED, ball=ball, pocket=pocket))
    events.sort(key=lambda e: e.t)
    final = {**record.final, ball: BallFinal(BallStatus.POCKETED, pocket=pocket)}
    return replace(record, events=tuple(events), final=final, samples=None)
