"""The computer player's cheap model of the table: straight lines, ghost balls and mirror images.

Nothing here simulates. It proposes where to aim (the ghost-ball aim of a pot, the mirror image of a ball
or a pocket in a cushion line for a kick or a bank) and rates how hard a pot is, so the search
(``player.py``) spends its simulations on the likeliest strokes and can weigh the position a stroke leaves.
The stroke played is always one the full physics ran and the referee judged; this model only ranks.

The ghost ball: to send an object ball at ``o`` along the unit vector ``u``, the cue ball must meet it with its
centre at ``o - 2R u`` (Dr. Dave, "ghost-ball aiming"); the cut angle is the angle between the cue ball's path
and ``u``. The tolerance of a pot: the object ball may leave ``u`` by the angle under which the pocket's
opening, less a ball's radius, is seen from it; an aim error of the cue ball of ``delta`` turns the object
ball by about ``delta * d1 / (2 R cos(cut))`` (a throw-free, rolling-free first estimate: docs/opponent.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from physics.tables import Pocket, TableSpec

Point = tuple[float, float]

MAX_CUT_DEG = 78.0  # thinner cuts than this are left to the safeties: the ball barely moves
CORNER_APPROACH_DEG = 62.0  # a ball meeting a corner pocket further off its axis hits a jaw
MIDDLE_APPROACH_DEG = 48.0  # the middle pockets' opening is narrower seen at an angle
# The aim error (radians) the position rating assumes of the player who plays next: about a good amateur's.
REFERENCE_AIM = math.radians(0.5)


def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def norm(v: Point) -> float:
    return math.hypot(v[0], v[1])


def unit(v: Point) -> Point:
    n = norm(v)
    return (v[0] / n, v[1] / n) if n > 1e-12 else (1.0, 0.0)


def heading(a: Point, b: Point) -> float:
    """The direction from ``a`` to ``b`` in degrees anticlockwise from +x, in [0, 360)."""
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0


def seg_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment ``a``-``b``."""
    ab = sub(b, a)
    L2 = ab[0] ** 2 + ab[1] ** 2
    t = 0.0 if L2 < 1e-18 else max(0.0, min(1.0, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / L2))
    return math.hypot(p[0] - a[0] - t * ab[0], p[1] - a[1] - t * ab[1])


def clear(a: Point, b: Point, balls: Mapping[str, Point], skip: Iterable[str], R: float) -> bool:
    """A ball rolling from ``a`` to ``b`` passes every other ball (centres at least 2R from its path)."""
    ignore = set(skip)
    return all(seg_distance(p, a, b) >= 2.0 * R - 1e-9 for k, p in balls.items() if k not in ignore)


def aim_point(spec: TableSpec, pocket: Pocket) -> Point:
    """Where an object ball's centre is sent: half a radius into the pocket past the mouth's centre."""
    c, ax = pocket.centre, pocket.axis
    return (c[0] + ax[0] * spec.ball_radius * 0.5, c[1] + ax[1] * spec.ball_radius * 0.5)


def approach_ok(pocket: Pocket, u: Point) -> float | None:
    """The opening the pocket shows to a ball coming along ``u`` (metres), or None when it is hidden."""
    cosang = u[0] * pocket.axis[0] + u[1] * pocket.axis[1]
    limit = CORNER_APPROACH_DEG if pocket.corner else MIDDLE_APPROACH_DEG
    if cosang < math.cos(math.radians(limit)):
        return None
    return pocket.mouth * cosang


@dataclass(frozen=True)
class Pot:
    """A pot found by geometry: strike ``struck`` towards ``ghost`` to send ``target`` into ``pocket``.

    ``d1``: the struck ball's path to the ghost; ``d2``: the object ball's to the pocket; ``cut`` in degrees;
    ``tolerance``: the aim error (radians) the pot forgives; ``via``: "" for a direct pot, "bank" (the
    object ball off a cushion), "kick" (the struck ball off one), "combination" (through another ball)."""

    struck: str
    target: str
    pocket: str
    ghost: Point
    d1: float
    d2: float
    cut: float
    tolerance: float
    via: str = ""

    def ease(self, aim_sd: float = REFERENCE_AIM) -> float:
        """The chance the pot goes in for a player whose aim errs by ``aim_sd`` (radians, one sd): the share
        of a normal distribution within the tolerance."""
        if aim_sd <= 0.0:
            return 1.0
        return math.erf(self.tolerance / (aim_sd * math.sqrt(2.0)))


def _tolerance(spec: TableSpec, opening: float, d1: float, d2: float, cut_rad: float) -> float:
    R = spec.ball_radius
    slack = max(opening / 2.0 - R * 0.75, 0.002)
    obj_tol = math.atan2(slack, max(d2, R))
    # An aim error at the cue ball turns the object ball by ~ delta * d1 / (2R cos(cut)) (module docstring).
    return obj_tol * 2.0 * R * math.cos(cut_rad) / max(d1, 2.0 * R)


def direct_pot(
    spec: TableSpec,
    balls: Mapping[str, Point],
    struck: str,
    start: Point,
    target: str,
    pocket: Pocket,
    to: Point | None = None,
    via: str = "",
) -> Pot | None:
    """The pot of ``target`` into ``pocket`` by the ball ``struck`` from ``start`` with both paths clear, or
    None. ``to`` replaces the pocket's aim point (a bank's mirror image)."""
    R = spec.ball_radius
    o = balls[target]
    dest = aim_point(spec, pocket) if to is None else to
    u = unit(sub(dest, o))
    opening = approach_ok(pocket, u) if to is None else pocket.mouth * 0.7
    if opening is None:
        return None
    ghost = (o[0] - 2.0 * R * u[0], o[1] - 2.0 * R * u[1])
    if not _on_bed(spec, ghost):
        return None
    path = sub(ghost, start)
    d1, d2 = norm(path), norm(sub(dest, o))
    if d1 < 1e-6:
        return None
    cosc = max(-1.0, min(1.0, (path[0] * u[0] + path[1] * u[1]) / d1))
    cut = math.degrees(math.acos(cosc))
    if cut > MAX_CUT_DEG:
        return None
    if not clear(start, ghost, balls, (struck, target), R) or not clear(o, dest, balls, (struck, target), R):
        return None
    tol = _tolerance(spec, opening, d1, d2, math.radians(cut))
    return Pot(struck, target, pocket.id, ghost, d1, d2, cut, tol, via)


def _on_bed(spec: TableSpec, p: Point) -> bool:
    reach = spec.cushion_reach
    return abs(p[0]) <= spec.half_length - reach and abs(p[1]) <= spec.half_width - reach


def cushion_lines(spec: TableSpec) -> list[tuple[int, float]]:
    """The lines a ball's centre reaches against each cushion: (axis 0 for x / 1 for y, coordinate)."""
    reach = spec.cushion_reach
    hl, hw = spec.half_length - reach, spec.half_width - reach
    return [(0, hl), (0, -hl), (1, hw), (1, -hw)]


def mirror(p: Point, line: tuple[int, float]) -> Point:
    axis, c = line
    return (2.0 * c - p[0], p[1]) if axis == 0 else (p[0], 2.0 * c - p[1])


def bank_pots(
    spec: TableSpec, balls: Mapping[str, Point], struck: str, start: Point, target: str
) -> list[Pot]:
    """One-cushion banks: the object ball sent at a pocket's mirror image in a cushion line (angle in =
    angle out: a first model that ignores the cushion's own throw)."""
    out: list[Pot] = []
    for pocket in spec.pockets.values():
        for line in cushion_lines(spec):
            img = mirror(aim_point(spec, pocket), line)
            p = direct_pot(spec, balls, struck, start, target, pocket, to=img, via="bank")
            if p is not None and _bank_reaches(spec, balls[target], img, line):
                out.append(p)
    return out


def _bank_reaches(spec: TableSpec, o: Point, img: Point, line: tuple[int, float]) -> bool:
    """The object ball's line to the image crosses the cushion line within the bed (not behind a pocket)."""
    axis, c = line
    a, b = (o[0], img[0]) if axis == 0 else (o[1], img[1])
    if (a - c) * (b - c) >= 0:
        return False
    t = (c - a) / (b - a)
    other = o[1] + t * (img[1] - o[1]) if axis == 0 else o[0] + t * (img[0] - o[0])
    half = spec.half_width if axis == 0 else spec.half_length
    return abs(other) < half - spec.corner_mouth


def kick_aims(
    spec: TableSpec, balls: Mapping[str, Point], struck: str, start: Point, target: str
) -> list[tuple[float, str]]:
    """Directions (degrees) that reach ``target`` off one cushion, and then off two (a corner's two lines):
    the struck ball aimed at the target's mirror image (escapes from a snooker)."""
    R = spec.ball_radius
    o = balls[target]
    out: list[tuple[float, str]] = []
    lines = cushion_lines(spec)
    for line in lines:
        img = mirror(o, line)
        hit = _crossing(start, img, line)
        if (
            hit is not None
            and clear(start, hit, balls, (struck,), R)
            and clear(hit, o, balls, (struck, target), R)
        ):
            out.append((heading(start, img), "one"))
    for a in lines:
        for b in lines:
            if a[0] != b[0]:
                img = mirror(mirror(o, b), a)
                out.append((heading(start, img), "two"))
    return out


def _crossing(a: Point, b: Point, line: tuple[int, float]) -> Point | None:
    axis, c = line
    pa, pb = a[axis], b[axis]
    if (pa - c) * (pb - c) >= 0:
        return None
    t = (c - pa) / (pb - pa)
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def combination_pots(
    spec: TableSpec, balls: Mapping[str, Point], struck: str, start: Point, first: str, second: str
) -> list[Pot]:
    """``first`` sent into ``second``, which goes to a pocket: the first ball aimed at the second's ghost."""
    R = spec.ball_radius
    out: list[Pot] = []
    for pocket in spec.pockets.values():
        inner = direct_pot(spec, balls, first, balls[first], second, pocket)
        if inner is None or inner.cut > 35.0:
            continue
        u = unit(sub(inner.ghost, balls[first]))
        ghost = (balls[first][0] - 2.0 * R * u[0], balls[first][1] - 2.0 * R * u[1])
        path = sub(ghost, start)
        d1 = norm(path)
        if d1 < 1e-6 or not clear(start, ghost, balls, (struck, first), R):
            continue
        cut = math.degrees(math.acos(max(-1.0, min(1.0, (path[0] * u[0] + path[1] * u[1]) / d1))))
        if cut > 45.0:
            continue
        tol = inner.tolerance * 2.0 * R * math.cos(math.radians(cut)) / max(d1, 2.0 * R) * 0.7
        out.append(Pot(struck, second, pocket.id, ghost, d1, inner.d1 + inner.d2, cut, tol, "combination"))
    return out


def pots_for(
    spec: TableSpec,
    balls: Mapping[str, Point],
    starts: Mapping[str, Point],
    targets: Iterable[str],
    pockets: Iterable[Pocket] | None = None,
) -> list[Pot]:
    """Every clear direct pot of each target ball into each pocket by each struck ball of ``starts``
    (struck ball -> where it stands). The object ball's leg is worked out once for all struck balls."""
    R = spec.ball_radius
    out: list[Pot] = []
    chosen = list(spec.pockets.values()) if pockets is None else list(pockets)
    for t in targets:
        if t not in balls:
            continue
        o = balls[t]
        for pocket in chosen:
            dest = aim_point(spec, pocket)
            u = unit(sub(dest, o))
            opening = approach_ok(pocket, u)
            ghost = (o[0] - 2.0 * R * u[0], o[1] - 2.0 * R * u[1])
            if opening is None or not _on_bed(spec, ghost) or not clear(o, dest, balls, (t,), R):
                continue
            d2 = norm(sub(dest, o))
            for struck, start in starts.items():
                if struck == t:
                    continue
                path = sub(ghost, start)
                d1 = norm(path)
                if d1 < 1e-6:
                    continue
                cosc = max(-1.0, min(1.0, (path[0] * u[0] + path[1] * u[1]) / d1))
                cut = math.degrees(math.acos(cosc))
                if cut > MAX_CUT_DEG or not clear(start, ghost, balls, (struck, t), R):
                    continue
                tol = _tolerance(spec, opening, d1, d2, math.radians(cut))
                out.append(Pot(struck, t, pocket.id, ghost, d1, d2, cut, tol))
    return out
