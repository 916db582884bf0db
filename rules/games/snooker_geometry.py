"""Snooker geometry the referee needs: where a colour is respotted, whether the striker is snookered (000
«Снукер (маска)»: no straight stroke at any ball on) and whether he has a full view of a ball on (WPBSA S3
R14, for a miss).

Pure functions of ball centres (metres, table frame) and a :class:`physics.tables.TableSpec`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from physics.record import BallId
from physics.tables import TableSpec

Point = tuple[float, float]

COLOURS: tuple[BallId, ...] = ("yellow", "green", "brown", "blue", "pink", "black")
VALUES: dict[BallId, int] = {"yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}


def value(ball: BallId) -> int:
    """Points a ball is worth: a red 1, the colours 2..7 (000: Используемые шары)."""
    return VALUES.get(ball, 1 if ball.startswith("red") else 0)


def is_red(ball: BallId) -> bool:
    return ball.startswith("red")


def _free(p: Point, occupied: Mapping[BallId, Point], r: float) -> bool:
    # 000 «Занятая отметка»: a spot is taken when a ball cannot be put on it without touching another.
    return all(math.hypot(p[0] - q[0], p[1] - q[1]) >= 2 * r - 1e-7 for q in occupied.values())


def _along(
    table: TableSpec, start: Point, direction: float, occupied: Mapping[BallId, Point], r: float
) -> Point | None:
    """Nearest free point to ``start`` on the line y = start.y, moving in ``direction`` (+1 to the top
    cushion, -1 toward the centre), never past the cushion."""
    x0, y = start
    cands = [x0]
    for q in occupied.values():
        dy = q[1] - y
        if abs(dy) < 2 * r:
            dx = math.sqrt((2 * r) ** 2 - dy * dy)
            cands += [q[0] + dx, q[0] - dx]
    lim = (
        table.half_length - table.cushion_reach if direction > 0 else -table.half_length + table.cushion_reach
    )
    ok = [x for x in cands if (x - x0) * direction >= -1e-12 and (lim - x) * direction >= -1e-12]
    for x in sorted(ok, key=lambda x: abs(x - x0)):
        if _free((x, y), occupied, r):
            return (x, y)
    return None


def spot_colours(
    table: TableSpec, colours: Iterable[BallId], occupied: Mapping[BallId, Point]
) -> list[tuple[BallId, Point]]:
    """Respot colours as 000 («Выставление шаров», snooker) and WPBSA S3 R7 order it.

    Highest value first. Own spot if free; else the free spot of the highest value; else as near
    its own spot as possible on the top-cushion side of it; pink and black, with no room there,
    as near as possible on the centre side (WPBSA S3 R7(b)).
    """
    r = table.ball_radius
    placed: dict[BallId, Point] = dict(occupied)
    out: list[tuple[BallId, Point]] = []
    for c in sorted(set(colours), key=lambda b: -value(b)):
        own = table.spot(c)
        at: Point | None = own if _free(own, placed, r) else None
        if at is None:
            for other in sorted(COLOURS, key=lambda b: -value(b)):
                s = table.spot(other)
                if _free(s, placed, r):
                    at = s
                    break
        if at is None:
            at = _along(table, own, +1.0, placed, r)
        if at is None:
            at = _along(table, own, -1.0, placed, r)
        if at is None:  # a bed this crowded needs more balls than the game has
            at = own
        placed[c] = at
        out.append((c, at))
    return out


def _segment_clear(a: Point, b: Point, blockers: Mapping[BallId, Point], r: float) -> bool:
    """True when a ball rolling from centre ``a`` to centre ``b`` touches none of ``blockers``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L2 = dx * dx + dy * dy
    for q in blockers.values():
        if L2 == 0.0:
            t = 0.0
        else:
            t = max(0.0, min(1.0, ((q[0] - ax) * dx + (q[1] - ay) * dy) / L2))
        px, py = ax + t * dx, ay + t * dy
        if math.hypot(q[0] - px, q[1] - py) < 2 * r - 1e-9:
            return False
    return True


def edges_visible(cue: Point, target: Point, blockers: Mapping[BallId, Point], r: float) -> tuple[bool, bool]:
    """Can the cue ball hit the left and the right extreme edge of ``target`` in a straight line?

    The extreme edges are the two thinnest contacts: the cue ball's centre passes at 2R from the
    target's centre. Each is tested as the straight path of the cue ball's centre up to contact.
    """
    (_, left), (_, right) = edge_paths(cue, target, blockers, r)
    return (left, right)


def edge_paths(
    cue: Point, target: Point, blockers: Mapping[BallId, Point], r: float
) -> tuple[tuple[Point, bool], tuple[Point, bool]]:
    """The cue ball's centre paths to the left and the right extreme edge of ``target``: where each ends (the
    cue ball's centre at contact) and whether it is clear of ``blockers`` (the lines of sight a referee
    draws to say whether a ball is snookered)."""
    dx, dy = target[0] - cue[0], target[1] - cue[1]
    d = math.hypot(dx, dy)
    if d <= 2 * r:
        return ((cue, True), (cue, True))
    ux, uy = dx / d, dy / d
    out: list[tuple[Point, bool]] = []
    for side in (1.0, -1.0):
        # Thinnest contact: contact point where the offset from the line of centres is just under 2R.
        off = 2 * r * (1 - 1e-6)
        along = math.sqrt(max(d * d - off * off, 0.0))
        # The path direction that passes `off` from the target at the moment of contact.
        ang = math.asin(off / d) * side
        ca, sa = math.cos(ang), math.sin(ang)
        px, py = ux * ca - uy * sa, uy * ca + ux * sa
        end_dist = along - math.sqrt(max((2 * r) ** 2 - off * off, 0.0))
        end = (cue[0] + px * end_dist, cue[1] + py * end_dist)
        out.append((end, _segment_clear(cue, end, blockers, r)))
    return (out[0], out[1])


def full_view(cue: Point, on: Iterable[BallId], positions: Mapping[BallId, Point], r: float) -> bool:
    """WPBSA S3 R14 (foul and a miss): the striker can see both extreme edges of some ball on."""
    on_set = [b for b in on if b in positions]
    for b in on_set:
        blockers = {k: p for k, p in positions.items() if k != "cue" and k != b}
        if all(edges_visible(cue, positions[b], blockers, r)):
            return True
    return False


RAYS = 96  # straight paths tried across the span that meets a ball (a snooker needs every one blocked)


def blocking_balls(
    cue: Point, target: Point, blockers: Mapping[BallId, Point], r: float
) -> tuple[bool, set[BallId]]:
    """Can the cue ball, rolling straight, meet any part of ``target``? Returns (it can, the balls that lie
    across some of those paths). Cushions are not considered."""
    dx, dy = target[0] - cue[0], target[1] - cue[1]
    d = math.hypot(dx, dy)
    if d <= 2 * r:
        return True, set()
    ux, uy = dx / d, dy / d
    half = math.asin(min(1.0, 2 * r / d)) * (1 - 1e-9)
    hit = False
    across: set[BallId] = set()
    for k in range(RAYS + 1):
        a = -half + 2 * half * k / RAYS
        ca, sa = math.cos(a), math.sin(a)
        px, py = ux * ca - uy * sa, uy * ca + ux * sa
        # Distance along the ray at which the moving centre comes within 2r of the target's centre.
        along = d * ca - math.sqrt(max((2 * r) ** 2 - (d * sa) ** 2, 0.0))
        end = (cue[0] + px * along, cue[1] + py * along)
        in_way = {b for b, q in blockers.items() if not _segment_clear(cue, end, {b: q}, r)}
        if in_way:
            across |= in_way
        else:
            hit = True
    return hit, across


def snooker(
    cue: Point, on: Iterable[BallId], positions: Mapping[BallId, Point], r: float
) -> tuple[bool, tuple[BallId, ...]]:
    """000 «Снукер (маска)»: the cue ball is snookered when balls not on leave it no straight stroke at any
    ball on; if it can hit even one ball on directly, there is no snooker. Returns (snookered, the balls that
    block, nearest the cue ball first: the first is the effective snookering ball)."""
    on_set = [b for b in on if b in positions]
    if not on_set:
        return False, ()
    not_on = {k: p for k, p in positions.items() if k != "cue" and k not in on_set}
    blocking: set[BallId] = set()
    for b in on_set:
        hit, across = blocking_balls(cue, positions[b], not_on, r)
        if hit:
            return False, ()
        blocking |= across
    order = sorted(blocking, key=lambda b: math.hypot(not_on[b][0] - cue[0], not_on[b][1] - cue[1]))
    return True, tuple(order)


def snookered(cue: Point, on: Iterable[BallId], positions: Mapping[BallId, Point], r: float) -> bool:
    """000 «Снукер (маска)»: see :func:`snooker`."""
    return snooker(cue, on, positions, r)[0]


def snooker_from_d(
    table: TableSpec, on: Iterable[BallId], positions: Mapping[BallId, Point]
) -> tuple[bool, tuple[BallId, ...]]:
    """000 «Снукер (маска)»: in hand, snookered only if no place on or in the D gives a straight stroke at a
    ball on. Returns (snookered, the blocking balls, nearest the D's centre first)."""
    r = table.ball_radius
    bx = table.lines["head-string"]
    rad = table.d_radius or 0.0
    on_l = list(on)
    others = {k: q for k, q in positions.items() if k != "cue"}
    blocking: list[BallId] = []
    for i in range(13):
        ang = math.pi / 2 + math.pi * i / 12  # the D's arc faces the head cushion
        for frac in (0.0, 0.5, 1.0):
            p = (bx + frac * rad * math.cos(ang), frac * rad * math.sin(ang))
            if not _free(p, others, r):
                continue
            snook, by = snooker(p, on_l, others, r)
            if not snook:
                return False, ()
            blocking += [b for b in by if b not in blocking]
    return True, tuple(blocking)


def snookered_from_d(table: TableSpec, on: Iterable[BallId], positions: Mapping[BallId, Point]) -> bool:
    return snooker_from_d(table, on, positions)[0]
