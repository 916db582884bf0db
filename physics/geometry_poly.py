"""Small 2D convex-polygon helpers for building the table's static collision pieces.

Bullet wants convex pieces; the table's plan (rails with pocket cut-outs, the slate with its
drop edges) is cut from rectangles by convex holes. Polygons are lists of (x, y) points,
counter-clockwise, convex.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Pt = tuple[float, float]
Poly = list[Pt]

# Pieces thinner than this (m^2 area) are numerical slivers of a cut, not geometry.
MIN_AREA = 1e-7


def area(poly: Sequence[Pt]) -> float:
    """Signed area (positive for counter-clockwise)."""
    s = 0.0
    for i, (x0, y0) in enumerate(poly):
        x1, y1 = poly[(i + 1) % len(poly)]
        s += x0 * y1 - x1 * y0
    return 0.5 * s


def ccw(poly: Sequence[Pt]) -> Poly:
    p = list(poly)
    return p if area(p) >= 0 else p[::-1]


def rect(x0: float, y0: float, x1: float, y1: float) -> Poly:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def clip(poly: Sequence[Pt], n: Pt, c: float) -> Poly:
    """Keep the part of ``poly`` where n . p <= c (Sutherland-Hodgman, one half-plane)."""
    out: Poly = []
    if not poly:
        return out
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        dp = n[0] * p[0] + n[1] * p[1] - c
        dq = n[0] * q[0] + n[1] * q[1] - c
        if dp <= 0:
            out.append(p)
        if (dp < 0 < dq) or (dq < 0 < dp):
            s = dp / (dp - dq)
            out.append((p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])))
    return _dedup(out)


def halfplanes(poly: Sequence[Pt]) -> list[tuple[Pt, float]]:
    """Outward edge normals and offsets (n . p <= c inside) of a convex CCW polygon."""
    out: list[tuple[Pt, float]] = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        dx, dy = q[0] - p[0], q[1] - p[1]
        ln = math.hypot(dx, dy)
        if ln < 1e-12:
            continue
        n = (dy / ln, -dx / ln)
        out.append((n, n[0] * p[0] + n[1] * p[1]))
    return out


def intersect(poly: Sequence[Pt], other: Sequence[Pt]) -> Poly:
    out = list(poly)
    for n, c in halfplanes(other):
        out = clip(out, n, c)
        if not out:
            break
    return out


def subtract(poly: Sequence[Pt], hole: Sequence[Pt]) -> list[Poly]:
    """``poly`` minus the convex ``hole`` as a list of convex pieces (one per hole edge at most).

    A polygon the hole does not overlap comes back whole (not cut along the hole's edge lines).
    """
    if area(intersect(poly, hole)) <= MIN_AREA:
        return [list(poly)]
    pieces: list[Poly] = []
    rest = list(poly)
    for n, c in halfplanes(hole):
        outside = clip(rest, (-n[0], -n[1]), -c)
        if outside and area(outside) > MIN_AREA:
            pieces.append(outside)
        rest = clip(rest, n, c)
        if not rest or area(rest) <= MIN_AREA:
            break
    return pieces


def split(polys: Sequence[Sequence[Pt]], axis: int, cuts: Sequence[float]) -> list[Poly]:
    """Cut polygons along the lines x = c (axis 0) or y = c (axis 1) for every c in ``cuts``."""
    out = [list(p) for p in polys]
    n_lo: Pt = (1.0, 0.0) if axis == 0 else (0.0, 1.0)
    for c in cuts:
        nxt: list[Poly] = []
        for p in out:
            lo = clip(p, n_lo, c)
            hi = clip(p, (-n_lo[0], -n_lo[1]), -c)
            nxt.extend(q for q in (lo, hi) if q and area(q) > MIN_AREA)
        out = nxt
    return out


def subtract_all(polys: Sequence[Sequence[Pt]], holes: Sequence[Sequence[Pt]]) -> list[Poly]:
    out = [list(p) for p in polys]
    for h in holes:
        nxt: list[Poly] = []
        for p in out:
            nxt.extend(subtract(p, h))
        out = nxt
    return out


def inset(poly: Sequence[Pt], d: float) -> Poly:
    """Move every edge of a convex CCW polygon inward by ``d`` (the polygon Bullet's margin grows back)."""
    hp = halfplanes(poly)
    out: Poly = []
    k = len(hp)
    for i in range(k):
        (n0, c0), (n1, c1) = hp[i - 1], hp[i]
        c0, c1 = c0 - d, c1 - d
        det = n0[0] * n1[1] - n0[1] * n1[0]
        if abs(det) < 1e-12:
            continue
        out.append(((c0 * n1[1] - c1 * n0[1]) / det, (n0[0] * c1 - n1[0] * c0) / det))
    return out


def contains(poly: Sequence[Pt], p: Pt, tol: float = 0.0) -> bool:
    return all(n[0] * p[0] + n[1] * p[1] <= c + tol for n, c in halfplanes(poly))


def is_axis_rect(poly: Sequence[Pt], tol: float = 1e-9) -> bool:
    if len(poly) != 4:
        return False
    xs = sorted({round(p[0] / tol) for p in poly})
    ys = sorted({round(p[1] / tol) for p in poly})
    return len(xs) == 2 and len(ys) == 2


def _dedup(poly: Poly, eps: float = 1e-10) -> Poly:
    out: Poly = []
    for p in poly:
        if not out or abs(p[0] - out[-1][0]) > eps or abs(p[1] - out[-1][1]) > eps:
            out.append(p)
    if len(out) > 1 and abs(out[0][0] - out[-1][0]) <= eps and abs(out[0][1] - out[-1][1]) <= eps:
        out.pop()
    return out if len(out) >= 3 else []


def hull(points: Sequence[Pt]) -> Poly:
    """Convex hull (counter-clockwise) of 2D points: Andrew's monotone chain."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return list(pts)

    def half(seq: Sequence[Pt]) -> Poly:
        out: Poly = []
        for p in seq:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return lower[:-1] + upper[:-1]
