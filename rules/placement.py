"""Where the referee puts balls back on a pyramid table (it says where; the scenes move them).

- :func:`spot_on_line`: the back spot, then along the long line (y = 0) toward the back cushion
  (000: Русская пирамида, «Выставление шаров»; ФБСР 8 balls): balls in rising order, each at the first
  free place; next to a ball already on the table "as close as possible but not frozen" (a 1 mm gap), next
  to a ball respotted in the same go frozen to it. When that part of the line is full: toward the centre.
- :func:`spot_at_back_cushion`: frozen to the middle of the back (foot) cushion; if taken, frozen to the
  cushion as close to the interfering ball as possible (000: Американка / Московская пирамида,
  «Выставление шаров»). The text leaves the side to the referee: we take the nearer free place, and the
  left (+y) side on a tie, so the same position always gives the same ruling.

A place is free when no ball centre is closer than 2R (the balls do not overlap).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from physics.record import BallId
from physics.tables import TableSpec
from rules.ruling import Point, Respot

NOT_FROZEN_GAP = 0.001
_EPS = 1e-7


def ball_order(ball: BallId) -> tuple[int, str]:
    """Rising order: numbered balls by number, then the rest by name."""
    return (int(ball), ball) if ball.isdigit() else (1000, ball)


def house_zone(table: TableSpec, objects: Iterable[Point]) -> tuple[str, int]:
    """The house as ``(line, sign)``: the points with ``sign * x > sign * table.lines[line]``.

    Normally behind the head string; when every object ball stands in it, the other end, bounded by the
    foot string, serves as a temporary house (003: Начальный удар, б). A point on the line is outside."""
    objs = list(objects)
    if objs and all(p[0] < table.lines["head-string"] for p in objs):
        return "foot-string", 1
    return "head-string", -1


def is_free(p: Point, occupied: Mapping[BallId, Point], r: float) -> bool:
    return all(math.hypot(p[0] - q[0], p[1] - q[1]) >= 2 * r - _EPS for q in occupied.values())


def _line_candidates(
    y: float, occupied: Mapping[BallId, Point], respotted: set[BallId], r: float
) -> list[float]:
    out: list[float] = []
    for b, (ox, oy) in occupied.items():
        need = 2 * r + (0.0 if b in respotted else NOT_FROZEN_GAP)
        dy = oy - y
        if abs(dy) < need:
            dx = math.sqrt(need * need - dy * dy)
            out += [ox + dx, ox - dx]
    return out


def spot_on_line(
    balls: Iterable[BallId], occupied: Mapping[BallId, Point], table: TableSpec, spot: str = "foot-spot"
) -> list[Respot]:
    """Respot ``balls`` (any order given; placed in rising order) from ``spot`` toward the foot cushion."""
    r = table.ball_radius
    sx, sy = table.spot(spot)
    occ = dict(occupied)
    placed: set[BallId] = set()
    out: list[Respot] = []
    x_max = table.half_length - table.cushion_reach
    x_min = -table.half_length + table.cushion_reach
    for b in sorted(balls, key=ball_order):
        cands = [sx] + _line_candidates(sy, occ, placed, r)
        forward = sorted(c for c in cands if sx - _EPS <= c <= x_max + _EPS)
        back = sorted((c for c in cands if x_min - _EPS <= c < sx), reverse=True)
        at: Point | None = None
        for c in forward + back:
            c = min(max(c, x_min), x_max)
            if is_free((c, sy), occ, r):
                at = (c, sy)
                break
        if at is None:  # the whole line is full (cannot happen with 16 balls on a 12 ft bed)
            raise ValueError(f"no free place on the spotting line for ball {b}")
        occ[b] = at
        placed.add(b)
        out.append(Respot(b, at))
    return out


def spot_at_back_cushion(
    balls: Iterable[BallId], occupied: Mapping[BallId, Point], table: TableSpec
) -> list[Respot]:
    """Respot ``balls`` frozen to the middle of the foot cushion, then along it next to the interfering ball."""
    r = table.ball_radius
    x = table.half_length - table.cushion_reach  # frozen: touching the cushion's nose
    c = table.cushions["foot"]
    y_lim = max(abs(c.start[1]), abs(c.end[1]))
    occ = dict(occupied)
    out: list[Respot] = []
    for b in sorted(balls, key=ball_order):
        cands = [0.0]
        for q in occ.values():
            dx = q[0] - x
            if abs(dx) < 2 * r:
                dy = math.sqrt(4 * r * r - dx * dx)
                cands += [q[1] + dy, q[1] - dy]
        cands = sorted(
            (cy for cy in cands if abs(cy) <= y_lim + _EPS), key=lambda cy: (round(abs(cy), 9), -cy)
        )
        at: Point | None = None
        for cy in cands:
            if is_free((x, cy), occ, r):
                at = (x, cy)
                break
        if at is None:
            raise ValueError(f"no free place at the back cushion for ball {b}")
        occ[b] = at
        out.append(Respot(b, at))
    return out
