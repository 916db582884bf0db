"""What ``python main.py validate`` produces (:mod:`physics.validation`), as plain data: the series to draw and
the checks (published value, simulated value, tolerance) of each fact. The facts build these and
``scenes/core/validate.py`` draws them; neither needs the other to know the shapes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Text = dict[str, str]  # {"en": ..., "ru": ...}


def text(en: str, ru: str) -> Text:
    return {"en": en, "ru": ru}


@dataclass(frozen=True)
class Series:
    """One line or set of points on a fact's plot. ``kind``: ``published`` (the source's measurements or model),
    ``simulated`` (this physics) or ``guide`` (a line to read the plot by: the mirror angle, a ball's height);
    ``points`` draws markers only."""

    label: Text
    x: tuple[float, ...]
    y: tuple[float, ...]
    kind: str = "simulated"
    points: bool = False


@dataclass(frozen=True)
class Check:
    """One row of the error table: what the source says and what the physics did, in ``unit``. ``simulated`` is
    None when the stroke did not show the quantity (the ball never landed...): that row fails."""

    what: Text
    published: float
    simulated: float | None
    tolerance: float
    unit: str

    @property
    def error(self) -> float | None:
        return None if self.simulated is None else self.simulated - self.published

    @property
    def ok(self) -> bool:
        e = self.error
        return bool(e is not None and math.isfinite(e) and abs(e) <= self.tolerance)


@dataclass(frozen=True)
class Fact:
    """A validation fact: what was measured, against which source, the series to draw and the checks."""

    id: str
    title: Text
    source: Text
    table: str
    x_label: Text
    y_label: Text
    series: tuple[Series, ...]
    checks: tuple[Check, ...]
    note: Text = field(default_factory=lambda: text("", ""))
    equal_axes: bool = False  # a path on the bed: x and y in the same metres

    @property
    def worst(self) -> Check | None:
        """The check furthest outside (or nearest to) its tolerance."""
        measured = [c for c in self.checks if c.error is not None]
        missing = [c for c in self.checks if c.error is None]
        if missing:
            return missing[0]
        return max(measured, key=lambda c: abs(c.error or 0.0) / c.tolerance, default=None)

    @property
    def passed(self) -> int:
        return sum(1 for c in self.checks if c.ok)
