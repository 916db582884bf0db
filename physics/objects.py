"""The room's extra objects (``[[objects]]``) in plan: what one is (:class:`SceneObject`), their sizes and
the box each one fills.

Pure Python, so a scenario file can be checked (an object inside a ball, a person standing on the table)
without building the Bullet world. The table's plan (physics/plan) builds its solids, and so the Bullet
bodies, from these sizes (tests/hardening/test_file_meaning.py holds the two to one set of numbers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from physics.tables import TableSpec


@dataclass(frozen=True)
class SceneObject:
    kind: str
    at: tuple[float, float, float]
    params: Mapping[str, Any] = field(default_factory=dict)
    owner: str = "striker"  # whose it is (file_checks.OBJECT_OWNERS): the referee judges a touch by it


OBJECT_KINDS = ("chalk", "person", "cue-on-rail")
CHALK_SIZE = 0.022  # m, a cube of billiard chalk
PERSON_SIZE = (0.45, 0.30, 1.75)  # m: shoulder width, depth, height (ESTIMATE, an adult)
CUE_LENGTH = 1.45  # m [FF cue length]; Russian cues are longer (docs/physics.md §Cues)
CUE_RADIUS = 0.011  # m, a mean of tip 13 mm and butt 30 mm diameters (ESTIMATE)
CUE_LENGTH_RANGE = (0.3, 2.0)  # m: a broken cue to a long Russian one

Vec3 = tuple[float, float, float]
Box = tuple[Vec3, Vec3]


def base_z(spec: TableSpec, x: float, y: float) -> float:
    """The height an object at (x, y) rests on: the cloth, the cushion (its lowest, at the nose), the rail
    or the floor."""
    ax, ay = abs(x), abs(y)
    if ax <= spec.half_length and ay <= spec.half_width:
        return 0.0
    hl, hw = spec.half_length + spec.cushion_width, spec.half_width + spec.cushion_width
    if ax <= hl and ay <= hw:
        return spec.cushion_nose_height
    if ax <= hl + spec.rail_width and ay <= hw + spec.rail_width:
        return spec.rail_height
    return spec.floor_z


def footprint(spec: TableSpec, kind: str, at: Vec3, length: float | None = None) -> Box | None:
    """The box ``kind`` at ``at`` fills, or None where it cannot be (a person on the table)."""
    x, y = at[0], at[1]
    xo = spec.half_length + spec.cushion_width + spec.rail_width
    yo = spec.half_width + spec.cushion_width + spec.rail_width
    if kind == "person":
        w, d, tall = PERSON_SIZE
        # Facing the table: the shoulders run along the side the person stands at.
        along_x = abs(y) - yo >= abs(x) - xo
        hx, hy = (w / 2, d / 2) if along_x else (d / 2, w / 2)
        if abs(x) - hx < xo and abs(y) - hy < yo:
            return None
        return (x - hx, y - hy, spec.floor_z), (x + hx, y + hy, spec.floor_z + tall)
    z = base_z(spec, x, y)
    if kind == "chalk":
        h = CHALK_SIZE / 2
        return (x - h, y - h, z), (x + h, y + h, z + CHALK_SIZE)
    half = (length if length is not None else CUE_LENGTH) / 2
    along_x = (
        abs(y) > spec.half_width + spec.cushion_width or not abs(x) > spec.half_length + spec.cushion_width
    )
    hx, hy = (half, CUE_RADIUS) if along_x else (CUE_RADIUS, half)
    return (x - hx, y - hy, z), (x + hx, y + hy, z + 2 * CUE_RADIUS)


def sphere_meets_box(centre: Vec3, radius: float, box: Box, tol: float = 1e-6) -> bool:
    """True when the ball reaches inside the box by more than ``tol`` (touching is allowed)."""
    lo, hi = box
    d2 = 0.0
    for c, a, b in zip(centre, lo, hi, strict=True):
        q = min(max(c, a), b)
        d2 += (c - q) ** 2
    return d2 < (radius - tol) ** 2
