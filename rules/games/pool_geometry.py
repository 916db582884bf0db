"""Where the referee puts balls back on a pool table: the long string, the rack.

Pure geometry on :class:`physics.tables.TableSpec`; the referee only *says* where a ball goes
(docs/architecture.md §A stroke's path), so these functions return positions and never move anything.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from physics.racks import Rack, initial_layout
from physics.record import BallId
from physics.tables import TableSpec

Point = tuple[float, float]

# A spotted ball is frozen to an interfering object ball but must not be frozen to the cue ball
# (000: Выставление шаров: «как можно ближе к нему, но не вплотную»). 1 mm reads as "not touching"
# to the eye and to the physics' contact tolerance.
CUE_BALL_GAP = 0.001
_EPS = 1e-9


def ball_number(ball: BallId) -> int:
    """Numbered pool balls sort by number; anything else sorts after them, by name."""
    return int(ball) if ball.isdigit() else 1000


def _sort_key(ball: BallId) -> tuple[int, str]:
    return (ball_number(ball), ball)


def _clear(x: float, y: float, occupied: Mapping[BallId, Point], r: float) -> bool:
    for other, (ox, oy) in occupied.items():
        need = 2 * r + (CUE_BALL_GAP if other == "cue" else 0.0)
        if math.hypot(x - ox, y - oy) < need - 1e-7:
            return False
    return True


def _string_candidates(occupied: Mapping[BallId, Point], r: float, y: float) -> list[float]:
    """x positions on the line y = const where a ball just touches (or clears) an occupied ball."""
    out: list[float] = []
    for other, (ox, oy) in occupied.items():
        need = 2 * r + (CUE_BALL_GAP if other == "cue" else 0.0)
        dy = oy - y
        if abs(dy) < need:
            dx = math.sqrt(need * need - dy * dy)
            out += [ox + dx, ox - dx]
    return out


def spot_on_long_string(
    table: TableSpec, balls: Iterable[BallId], occupied: Mapping[BallId, Point]
) -> list[tuple[BallId, Point]]:
    """Spot balls on the long string as 000 («Выставление шаров», general pool rules) orders it.

    The lowest number goes on the foot spot and the rest follow in rising order toward the foot
    cushion, each frozen to the one before. A ball in the way is not moved: the spotted ball goes
    as near the foot spot as it can, frozen to an object ball but never frozen to the cue ball.
    What does not fit between the foot spot and the foot cushion goes in front of the foot spot
    (toward the centre), the lowest of those frontmost.
    """
    r = table.ball_radius
    fx, fy = table.spot("foot-spot")
    x_max = table.half_length - table.cushion_reach
    x_min = -table.half_length + table.cushion_reach
    placed: dict[BallId, Point] = dict(occupied)
    order = sorted(set(balls), key=_sort_key)
    out: list[tuple[BallId, Point]] = []
    behind_failed: list[BallId] = []
    for ball in order:
        cands = [fx] + [c for c in _string_candidates(placed, r, fy) if c > fx]
        best = None
        for x in sorted(cands):
            if x <= x_max + _EPS and _clear(x, fy, placed, r):
                best = x
                break
        if best is None:
            behind_failed.append(ball)
            continue
        placed[ball] = (best, fy)
        out.append((ball, (best, fy)))
    # In front of the spot: the highest goes nearest the spot so the lowest ends frontmost.
    for ball in reversed(behind_failed):
        cands = [fx] + [c for c in _string_candidates(placed, r, fy) if c < fx]
        best = None
        for x in sorted(cands, reverse=True):
            if x >= x_min - _EPS and _clear(x, fy, placed, r):
                best = x
                break
        if best is None:  # a table that full cannot occur with 16 balls; keep a defined answer anyway
            best = fx
        placed[ball] = (best, fy)
        out.append((ball, (best, fy)))
    return out


def rack_positions(table: TableSpec, rows: int = 5) -> list[Point]:
    """The triangle rack's places: apex on the foot spot, rows widening toward the foot cushion, each row
    from its -y end (physics lays the rack out: :func:`physics.racks.initial_layout`).

    Balls touch, as a tight rack is racked (000: Расстановка шаров). Row k (0 = apex) holds k + 1 balls."""
    ids = tuple(tuple(f"{k}.{j}" for j in range(k + 1)) for k in range(rows))
    return list(initial_layout(Rack(rows=ids), table).values())


def in_rack_area(table: TableSpec, p: Point, positions: Sequence[Point] | None = None) -> bool:
    """True when a ball at ``p`` would touch or overlap a ball racked in the full triangle."""
    r = table.ball_radius
    for q in positions if positions is not None else rack_positions(table):
        if math.hypot(p[0] - q[0], p[1] - q[1]) < 2 * r - 1e-7:
            return True
    return False


# The 9-ball diamond: rows of 1, 2, 3, 2, 1 balls, the front ball on the foot spot.
DIAMOND_ROWS = (1, 2, 3, 2, 1)
