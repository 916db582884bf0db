"""The table as the analytic cloth path sees it: the cushions' contact lines, the pocket zones (where a ball
is handed to Bullet), the lines a ball can cross, and which places are open slate."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from physics.geometry import TableGeometry
from physics.tables import TableSpec

CLOTH_MARGIN = 0.002  # m: keep this far from a cushion's contact line to hand a ball back to the cloth
LINE_NAMES = ("head-string", "centre-line", "foot-string")


class TableZones:
    def __init__(self, spec: TableSpec, R: float, contact_angle: float, geo: TableGeometry) -> None:
        self.geo = geo
        self.nose_height = spec.cushion_nose_height
        self.rc = R * math.cos(contact_angle)  # centre-to-nose-line distance at contact
        self.lim = np.array([spec.half_length - self.rc, spec.half_width - self.rc])
        self.zone_c = np.array([pk.centre for pk in spec.pockets.values()])
        # Pocket zones: circles about each pocket's outline point holding every place where a ball on
        # the cloth can touch a jaw (the nose line ends mouth/sqrt(2) (corner) or mouth/2 (middle) from
        # that point; the jaw adds its corridor and rounding), plus R of way for the hand-over.
        self.zone_r = np.array(
            [
                math.hypot(pk.mouth / math.sqrt(2) if pk.corner else pk.mouth / 2, R)
                + pk.corridor
                + pk.jaw_radius
                + R
                + 0.01
                for pk in spec.pockets.values()
            ]
        )
        self.zone_r2 = self.zone_r**2
        self.lines = [(name, spec.lines[name]) for name in LINE_NAMES if name in spec.lines]
        self.line_xs = [float(x) for _, x in self.lines]
        self.zone_cx = self.zone_c[None, :, 0].copy()
        self.zone_cx1 = self.zone_c[:, 0].copy()
        self.zone_cy1 = self.zone_c[:, 1].copy()
        self.zone_cy = self.zone_c[None, :, 1].copy()
        self.lim_xy = (float(self.lim[0]), float(self.lim[1]))
        self.zones = [
            (float(c[0]), float(c[1]), float(r)) for c, r in zip(self.zone_c, self.zone_r, strict=True)
        ]
        # How far inside the cushion lines a landing ball's reach must stay for its step to run on.
        self.landing_margin = float(self.zone_r.max()) + R
        # The bed outline off its rectangle (jaw passages, openings) as bounding boxes with a margin: a
        # centre outside all of them is outside the outline without the polygons' tests (a ball on the
        # floor is asked every step; the polygon tests were a tenth of the campaign's CPU).
        self._half = (float(spec.half_length), float(spec.half_width))
        self._outline_boxes = [
            (
                min(float(q[0]) for q in poly) - 1e-6,
                max(float(q[0]) for q in poly) + 1e-6,
                min(float(q[1]) for q in poly) - 1e-6,
                max(float(q[1]) for q in poly) + 1e-6,
            )
            for poly in list(geo.plan.passages) + list(geo.plan.openings)
        ]

    def in_bed_outline(self, x: float, y: float) -> bool:
        """TableGeometry.in_bed_outline, answered here where a bounding box settles it."""
        if abs(x) <= self._half[0] and abs(y) <= self._half[1]:
            return True
        for x0, x1, y0, y1 in self._outline_boxes:
            if x0 <= x <= x1 and y0 <= y <= y1:
                return self.geo.in_bed_outline(x, y)
        return False

    def in_zone(self, xy: Sequence[float]) -> bool:
        return bool(np.count_nonzero(np.hypot(self.zone_cx1 - xy[0], self.zone_cy1 - xy[1]) < self.zone_r))

    def over_open_bed(self, x: float, y: float, margin: float = CLOTH_MARGIN) -> bool:
        if abs(x) > self.lim[0] - margin or abs(y) > self.lim[1] - margin:
            return False
        return not self.in_zone((x, y))

    def over_slate(self, x: float, y: float) -> bool:
        """Is (x, y), inside the cushion lines, over the playing slate (in a pocket zone: not over its hole)?"""
        if self.over_open_bed(x, y, 0.0):
            return True
        return (
            abs(x) <= self.lim[0]
            and abs(y) <= self.lim[1]
            and self.in_zone((x, y))
            and self.geo.kind_below(x, y, 0.0) == "bed"
        )

    @staticmethod
    def cushion_id(ax: int, x: float, y: float) -> str:
        """The cushion a ball on the cloth at (x, y) meets across axis ``ax`` (0: the ends, 1: the sides)."""
        if ax == 0:
            return "foot" if x > 0 else "head"
        side = "left" if y > 0 else "right"
        return f"{side}-{'foot' if x > 0 else 'head'}"
