"""[TP 3.6] Alciatore, "Effective target sizes for slow shots into a corner pocket at different angles" (technical
proof TP 3.6, billiards.colostate.edu, revised 2008): the published 2-D model of a corner pocket, written out here
from its equations so ``validate`` compares the engine's pocket with it (docs/pockets.md).

A ball approaches the pocket at ``theta`` from the pocket's axis (positive: from the long rail's side). The effective
target is the band of aim lines, measured across the approach from the centre of the mouth, whose balls drop: its
long-rail half ``left`` and short-rail half ``right``. The model counts a ball in when it reaches the hole (a circle
of radius ``hole`` whose centre is ``shelf + hole`` behind the mouth) directly, off one or both facings (each at
``alpha`` to the axis), off the point of a jaw, or off the long rail first (a mirror bounce), for slow balls that
rebound without loss. Lengths in metres, angles in radians.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

QUARTER = math.pi / 4
RIGHT = math.pi / 2


def _root(f: Callable[[float], float], guess: float, lo: float, hi: float) -> float:
    """A root of ``f`` near ``guess`` in [lo, hi]: Newton's steps while they stay in the bracket, then bisection."""
    x = guess
    for _ in range(100):
        fx = f(x)
        if abs(fx) < 1e-13:
            return x
        h = 1e-8
        d = (f(x + h) - f(x - h)) / (2 * h)
        if abs(d) < 1e-15 or not lo <= x - fx / d <= hi:
            break
        x -= fx / d
    f_lo = f(lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if hi - lo < 1e-13:
            break
        f_mid = f(mid)
        if f_lo * f_mid < 0:
            hi = mid
        else:
            lo, f_lo = mid, f_mid
    return 0.5 * (lo + hi)


@dataclass(frozen=True)
class CornerPocket:
    """TP 3.6's corner pocket. Its defaults: a 4.5875 in mouth, 7 degree facings, a 2.75 in hole 1.125 in behind the
    mouth, a 2.25 in ball, a 100 in rail (9 ft)."""

    R: float = 1.125 * 0.0254
    mouth: float = 4.5875 * 0.0254
    alpha: float = math.radians(7.0)
    hole: float = 2.75 * 0.0254
    shelf: float = 1.125 * 0.0254
    rail: float = 100 * 0.0254

    def _a(self, beta: float, th: float) -> float:
        g = 2 * beta - th - self.alpha
        p2, a = self.mouth / 2, self.alpha
        return (
            p2 * math.cos(a) - self.R - self.hole * math.cos(g) - (self.hole + self.shelf) * math.sin(a)
        ) / math.sin(g)

    def _wall(self, th: float) -> float:
        """Off one facing into the hole."""
        t, a, p2 = -th, self.alpha, self.mouth / 2
        g = 2 * t + 2 * a
        r = (
            self._a(RIGHT, t) * math.sin(g)
            - self.hole * math.cos(g)
            + p2 * math.cos(t)
            - (self.hole + self.shelf) * math.sin(t)
        )
        return r - p2 * math.cos(t)

    def _wall_wall(self, th: float) -> float:
        """Off one facing, then the other."""
        a, p2, R = self.alpha, self.mouth / 2, self.R
        d = (p2 * math.cos(th - 2 * a) - R * math.cos(th - a) + self._wall(th - 2 * a)) / math.sin(th - a)
        return p2 * math.cos(th) + d * math.sin(th - a) - R * math.cos(th - a)

    def _point_wall(self, th: float) -> float:
        """Off the jaw's point, then a facing."""
        a, p2, R, h, b = self.alpha, self.mouth / 2, self.R, self.hole, self.shelf

        def deflect(be: float) -> float:
            g1, g2 = 4 * be - 2 * th - 2 * a, 2 * be - th
            return (
                R * math.sin(be)
                + self._a(be, th) * math.sin(g1)
                + h * math.cos(g1)
                + p2 * math.cos(g2)
                + (h + b) * math.sin(g2)
            )

        def inside(be: float) -> float:
            g = 2 * be - th
            return -R * math.sin(be) + h - p2 * math.cos(g) - (h + b) * math.sin(g)

        guess = math.radians(20.0) + (70.0 / 130.0) * (th + math.radians(60.0))
        beta = min(_root(deflect, guess, 0.0, RIGHT), _root(inside, guess, 0.0, RIGHT))
        return p2 * math.cos(th) - R * math.sin(beta)

    def _point_wall_wall(self, th: float) -> float:
        """Off the jaw's point, then both facings."""
        a, p2, R, h, b = self.alpha, self.mouth / 2, self.R, self.hole, self.shelf

        def rattle(be: float) -> float:
            f1 = 2 * be - RIGHT - th - 2 * a
            f2 = f1 - 2 * a
            a2 = (p2 * math.cos(a) - (h + b) * math.sin(a) + h * math.sin(f2 + a) - R) / math.cos(f2 + a)
            a1 = (
                p2 * math.cos(a) - R + a2 * math.cos(f2 - a) - h * math.sin(f2 - a) - (h + b) * math.sin(a)
            ) / math.cos(f1 + a)
            g = 2 * be - th
            return (
                -R * math.sin(be)
                - a1 * math.cos(g + f1)
                + a2 * math.cos(g - f2)
                + h * math.sin(g - f2)
                - p2 * math.cos(g)
                - (h + b) * math.sin(g)
            )

        beta = _root(rattle, math.radians(75.0), math.radians(30.0), math.radians(89.0))
        return p2 * math.cos(th) - R * math.sin(beta)

    def _off_rail(self, inner: Callable[[float], float], th: float) -> tuple[float, float]:
        """Off the long rail first (the mirror bounce turns ``th`` into ``th - 90``): the rail distance and size."""
        q, p2 = QUARTER - th, self.mouth / 2
        d = (inner(th - RIGHT) + p2 * math.sin(th) - self.R * math.cos(q)) / math.sin(q)
        return d, p2 * math.cos(th) + d * math.sin(q) - self.R * math.cos(q)

    def half(self, th: float) -> float:
        """The half of the target on the side ``th`` comes from (TP 3.6's s_left), by the mechanism that reaches
        furthest there, the rail distance bounded by the rail's length."""
        d_max = self.rail - self.mouth / math.cos(QUARTER) - 2 * self.R
        th_c = _root(
            lambda t: self._off_rail(self._point_wall, t)[1] - self._off_rail(self._wall_wall, t)[1],
            math.radians(38),
            math.radians(20),
            math.radians(44),
        )
        th_d = _root(
            lambda t: self._off_rail(self._wall_wall, t)[1] - self._point_wall_wall(t),
            math.radians(28),
            math.radians(15),
            math.radians(40),
        )
        th_m = _root(
            lambda t: self._off_rail(self._point_wall_wall, t)[0] - d_max,
            math.radians(44),
            math.radians(40),
            math.radians(45),
        )
        if th >= th_m:
            q = QUARTER - th
            v = self.mouth / 2 * math.cos(th) + d_max * math.sin(q) - self.R * math.cos(q)
        elif th >= th_c:
            v = self._off_rail(self._point_wall, th)[1]
        elif th >= th_d:
            v = self._off_rail(self._wall_wall, th)[1]
        else:
            v = self._point_wall_wall(th)
        return max(0.0, v)

    def target(self, th: float) -> tuple[float, float]:
        """(long-rail half, short-rail half) of the effective target at approach angle ``th``."""
        return self.half(th), self.half(-th)
