"""Random strokes over every table: layouts, cue actions and room objects.

One builder, two sources of randomness: hypothesis (``strokes()``, which shrinks a failing stroke
to a small one) and ``random.Random`` (``draw_stroke(seed)``, which the campaign uses so that a
single integer reproduces any stroke it reports). Both go through the same :class:`Draw` calls,
so the distributions are the same.

What a layout may hold (all legal: no ball inside another ball or inside any static body, every
ball's centre over the slate):

* balls anywhere on the open bed;
* balls against a cushion (the centre ``centre_distance`` from the nose line, touching it);
* frozen balls: centres exactly 2R apart in a random direction (a chain grows from any ball);
* balls in a pocket's mouth or corridor, short of the drop edge, slid back along the pocket axis
  until they clear both jaws.

The room always has the lamp (the app's default at random heights down to just above the rails,
so lofted balls can reach it); a stroke may add chalk on a rail top, a person standing beside
the table, and a cue lying on a rail.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st
from panda3d.bullet import BulletWorld

from physics.cues import CUE_KINDS
from physics.geometry import TableGeometry, build_table_geometry
from physics.objects import SceneObject
from physics.record import ShotParams
from physics.tables import TABLE_IDS, TableSpec, load_table

T = TypeVar("T")

MAX_CUE_SPEED = 16.0  # m/s: a "ridiculous" break (docs/physics.md §Cues); the task's upper bound
MAX_ELEVATION = 89.0  # deg
LAYOUT_KINDS = ("free", "cushion", "frozen", "jaw")
STATIC_CLEARANCE = 1e-5  # m: a placed ball may not reach into a static body deeper than this

NUMBERED = tuple(str(i) for i in range(1, 16))
SNOOKER_BALLS = (*(f"red{i}" for i in range(1, 16)), "yellow", "green", "brown", "blue", "pink", "black")


def ball_ids(table_id: str) -> tuple[str, ...]:
    """Object-ball ids every game played on ``table_id`` knows about (the cue ball is separate)."""
    return SNOOKER_BALLS if table_id.startswith("snooker") else NUMBERED


class Draw(Protocol):
    def floats(self, lo: float, hi: float) -> float: ...
    def integers(self, lo: int, hi: int) -> int: ...
    def choice(self, seq: Sequence[T]) -> T: ...


@dataclass
class RandomDraw:
    """Draws from a seeded ``random.Random`` (the campaign's source)."""

    rng: random.Random

    def floats(self, lo: float, hi: float) -> float:
        return self.rng.uniform(lo, hi)

    def integers(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.rng.randrange(len(seq))]


@dataclass
class HypothesisDraw:
    """Draws through hypothesis's ``draw`` (shrinkable)."""

    draw: Callable[[st.SearchStrategy[Any]], Any]

    def floats(self, lo: float, hi: float) -> float:
        return float(self.draw(st.floats(lo, hi, allow_nan=False, allow_infinity=False)))

    def integers(self, lo: int, hi: int) -> int:
        return int(self.draw(st.integers(lo, hi)))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.integers(0, len(seq) - 1)]


@dataclass(frozen=True)
class Stroke:
    """Everything ``physics.simulate.simulate`` needs for one random stroke."""

    table: str
    balls: dict[str, tuple[float, float]]
    shot: ShotParams
    objects: tuple[SceneObject, ...] = ()
    lamp: tuple[float, float, float] = (0.0, 0.0, 1.0)
    kinds: dict[str, str] = field(default_factory=dict)  # ball -> how it was placed (for reports)
    seed: int | None = None

    def describe(self) -> dict[str, Any]:
        """A JSON-friendly form (the campaign's worst cases; a repro scenario can be written from it)."""
        return {
            "table": self.table,
            "seed": self.seed,
            "balls": {b: [x, y] for b, (x, y) in self.balls.items()},
            "kinds": dict(self.kinds),
            "shot": self.shot.to_dict(),
            "lamp": list(self.lamp),
            "objects": [{"kind": o.kind, "at": list(o.at)} for o in self.objects],
        }

    def scenario_toml(self, game: str = "practice") -> str:
        """The stroke as a scenario file (docs/formats.md §Scenario files) for a reproducer.

        Balls in the jaws lie outside the box the scenario format accepts; such a file documents
        the stroke but must be fed to ``simulate`` through :func:`tests.hardening.repro`.
        """
        lines = [
            f'title = "hardening repro (seed {self.seed})"',
            f'game = "{game}"',
            f'table = "{self.table}"',
            "",
            "[balls]",
        ]
        lines += [f'"{b}" = [{x!r}, {y!r}]' for b, (x, y) in self.balls.items()]
        s = self.shot
        lines += [
            "",
            "[shot]",
            f'ball = "{s.ball}"',
            f"cue_speed = {s.cue_speed!r}",
            f"direction = {s.direction!r}",
            f"elevation = {s.elevation!r}",
            f"tip = [{s.tip[0]!r}, {s.tip[1]!r}]",
            f'cue = "{s.cue}"',
        ]
        for o in self.objects:
            lines += [
                "",
                "[[objects]]",
                f'kind = "{o.kind}"',
                f"at = [{o.at[0]!r}, {o.at[1]!r}, {o.at[2]!r}]",
            ]
        lines += ["", f"# lamp = {list(self.lamp)!r}", ""]
        return "\n".join(lines)


@cache
def table_geometry(table_id: str) -> TableGeometry:
    """The bare table (no lamp, no objects) in its own world, for placing balls."""
    return build_table_geometry(BulletWorld(), load_table(table_id), (), None)


def _clear_of_statics(geo: TableGeometry, x: float, y: float) -> bool:
    R = geo.spec.ball_radius
    for _surf, _pt, _n, dist in geo.contacts((x, y, R), R):
        if dist < -STATIC_CLEARANCE:
            return False
    # Supported: the centre is over the slate (a ball past the drop edge would fall at once).
    if not geo.in_bed_outline(x, y):
        return False
    return all(p.local(x, y)[0] < p.a_drop - 1e-3 for p in geo.pockets.values())


def _clear_of_balls(balls: dict[str, tuple[float, float]], x: float, y: float, R: float) -> bool:
    # Frozen balls are 2R apart up to rounding of cos/sin (a few 1e-17 m); anything closer overlaps.
    return all(math.hypot(x - bx, y - by) >= 2.0 * R - 1e-12 for bx, by in balls.values())


def _place(
    d: Draw, geo: TableGeometry, kind: str, balls: dict[str, tuple[float, float]]
) -> tuple[float, float]:
    spec = geo.spec
    R = spec.ball_radius
    x0, x1, y0, y1 = geo.safe_box()
    cd = geo.cushion_contact.centre_distance
    if kind == "cushion":
        side = d.choice(("head", "foot", "left", "right"))
        if side in ("head", "foot"):
            x = (-1.0 if side == "head" else 1.0) * (spec.half_length - cd)
            return x, d.floats(y0, y1)
        y = (1.0 if side == "left" else -1.0) * (spec.half_width - cd)
        return d.floats(x0, x1), y
    if kind == "frozen" and balls:
        bx, by = balls[d.choice(sorted(balls))]
        ang = d.floats(0.0, 2.0 * math.pi)
        return bx + 2.0 * R * math.cos(ang), by + 2.0 * R * math.sin(ang)
    if kind == "jaw":
        p = geo.pockets[d.choice(sorted(geo.pockets))]
        t = d.floats(-0.5, 0.5) * max(p.throat - 2.0 * R, 0.0)
        a = d.floats(p.a_mouth - 2.0 * R, p.a_drop - R)
        # Slide back along the axis (into the bed) until the ball clears the jaws.
        for _ in range(200):
            x, y = p.world(a, t)
            if _clear_of_statics(geo, x, y):
                return x, y
            a -= 0.002
        return p.world(a, t)
    return d.floats(x0, x1), d.floats(y0, y1)


def build_layout(d: Draw, table_id: str) -> tuple[dict[str, tuple[float, float]], dict[str, str]]:
    geo = table_geometry(table_id)
    R = geo.spec.ball_radius
    ids = ball_ids(table_id)
    n = d.choice((0, 1, 2, 3, 5, 8, len(ids)))
    chosen = list(ids)
    # A random subset in a drawn order (a full rack keeps every id).
    for i in range(n):
        j = d.integers(i, len(chosen) - 1)
        chosen[i], chosen[j] = chosen[j], chosen[i]
    balls: dict[str, tuple[float, float]] = {}
    kinds: dict[str, str] = {}
    for b in ["cue", *chosen[:n]]:
        for _attempt in range(4):
            kind = d.choice(LAYOUT_KINDS)
            x, y = _place(d, geo, kind, balls)
            if _clear_of_balls(balls, x, y, R) and _clear_of_statics(geo, x, y):
                balls[b], kinds[b] = (x, y), kind
                break
        else:
            if b == "cue":  # the struck ball must be there: the open bed's centre region always has room
                x0, x1, y0, y1 = geo.safe_box()
                for k in range(200):
                    x, y = x0 + (x1 - x0) * ((k * 0.618) % 1.0), y0 + (y1 - y0) * ((k * 0.382) % 1.0)
                    if _clear_of_balls(balls, x, y, R):
                        balls[b], kinds[b] = (x, y), "free"
                        break
    return balls, kinds


def build_shot(d: Draw, spec: TableSpec) -> ShotParams:
    # Speeds: a quarter of the strokes are soft (where creeping and resting logic matter).
    speed = d.choice(
        (
            d.floats(0.0, 1.0),
            d.floats(0.0, MAX_CUE_SPEED),
            d.floats(0.0, MAX_CUE_SPEED),
            d.floats(8.0, MAX_CUE_SPEED),
        )
    )
    elev = d.choice((d.floats(0.0, 10.0), d.floats(0.0, MAX_ELEVATION), d.floats(30.0, MAX_ELEVATION)))
    # Tip offsets: inside the miscue limit (~0.51 R) and beyond it up to the ball's edge.
    r = d.choice((d.floats(0.0, 0.5), d.floats(0.5, 1.0)))
    phi = d.floats(0.0, 2.0 * math.pi)
    tip = (r * math.cos(phi), r * math.sin(phi))
    direction = d.floats(0.0, 360.0)
    # Every cue kind, chosen from a digit of the direction: no further draw, so every seed keeps its stroke.
    cue = CUE_KINDS[int(direction * 997.0) % len(CUE_KINDS)]
    return ShotParams(ball="cue", cue_speed=speed, direction=direction, elevation=elev, tip=tip, cue=cue)


def build_objects(d: Draw, spec: TableSpec) -> tuple[SceneObject, ...]:
    objs: list[SceneObject] = []
    hl, hw = spec.half_length, spec.half_width
    rail_mid = spec.cushion_width + spec.rail_width / 2.0
    if d.integers(0, 1):  # chalk on a rail top (long or short rail)
        if d.integers(0, 1):
            objs.append(
                SceneObject("chalk", (d.floats(-hl, hl), d.choice((1.0, -1.0)) * (hw + rail_mid), 0.0))
            )
        else:
            objs.append(
                SceneObject("chalk", (d.choice((1.0, -1.0)) * (hl + rail_mid), d.floats(-hw, hw), 0.0))
            )
    if d.integers(0, 1):  # a person on the floor beside a long side, 0.3-0.6 m from the rail
        yo = hw + spec.cushion_width + spec.rail_width + 0.15 + d.floats(0.3, 0.6)
        objs.append(SceneObject("person", (d.floats(-hl, hl), d.choice((1.0, -1.0)) * yo, 0.0)))
    if d.integers(0, 3) == 0:  # a cue lying along a long rail
        objs.append(
            SceneObject(
                "cue-on-rail", (d.floats(-hl / 2, hl / 2), d.choice((1.0, -1.0)) * (hw + rail_mid), 0.0)
            )
        )
    return tuple(objs)


def build_stroke(d: Draw, table_id: str | None = None, seed: int | None = None) -> Stroke:
    tid = table_id if table_id is not None else d.choice(TABLE_IDS)
    spec = load_table(tid)
    balls, kinds = build_layout(d, tid)
    shot = build_shot(d, spec)
    objects = build_objects(d, spec)
    # The lamp: centred over the bed as a room has it, its shade between just above the rails and 1.2 m.
    lamp = (d.floats(-0.2, 0.2), d.floats(-0.1, 0.1), d.floats(spec.rail_height + 0.3, 1.2))
    return Stroke(tid, balls, shot, objects, lamp, kinds, seed)


def draw_stroke(seed: int, table_id: str | None = None) -> Stroke:
    """The campaign's stroke number ``seed`` (the same seed gives the same stroke)."""
    return build_stroke(RandomDraw(random.Random(seed)), table_id, seed)


@st.composite
def strokes(draw: Callable[[st.SearchStrategy[Any]], Any], table_ids: Sequence[str] = TABLE_IDS) -> Stroke:
    tid = draw(st.sampled_from(tuple(table_ids)))
    return build_stroke(HypothesisDraw(draw), tid)
