"""Regulation table specs, loaded from ``assets/tables/*.toml``.

Frame (docs/formats.md §Names): origin at the centre of the bed, z = 0 on the cloth, +x to the foot,
+y to the left looking from head to foot. All numbers SI.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from physics.errors import InputError
from physics.record import CUSHION_IDS, POCKET_IDS, CushionId, PocketId

TABLES_DIR = Path(__file__).resolve().parent.parent / "assets" / "tables"

# The rubber's face meets its top this far above the contact line at the nose height (the built
# edge sits a little above h so that Bullet's rounding of a hull edge by its margin stays clear of
# the contact). The top rises from that edge at ``cushion_top_tilt`` to the rail.
NOSE_EDGE_RISE = 0.0015  # m
TABLE_IDS: tuple[str, ...] = ("pyramid-12ft", "pool-9ft", "snooker-12ft", "snooker-10ft")

# The balls each table is equipped with (docs/formats.md §Names). Which of them a game plays is the game's business
# (its referee declares its ball set); practice on a table may use any of them.
_NUMBERED: tuple[str, ...] = ("cue", *(str(i) for i in range(1, 16)))
_SNOOKER: tuple[str, ...] = (
    "cue",
    *(f"red{i}" for i in range(1, 16)),
    "yellow",
    "green",
    "brown",
    "blue",
    "pink",
    "black",
)
# Golf on a snooker table (000 «Гольф»: usually a snooker table with snooker balls, one numbered object ball per
# player): the snooker balls carrying the numbers 1-8 (000 «Американский снукер»: the colours come with or
# without a number), ids "1".."8" as in every golf game (docs/formats.md §Names).
_GOLF_ON_SNOOKER: tuple[str, ...] = tuple(str(i) for i in range(1, 9))
TABLE_BALLS: dict[str, tuple[str, ...]] = {
    "pyramid-12ft": _NUMBERED,
    "pool-9ft": _NUMBERED,
    "snooker-12ft": _SNOOKER + _GOLF_ON_SNOOKER,
    "snooker-10ft": _SNOOKER + _GOLF_ON_SNOOKER,
}


@dataclass(frozen=True)
class Pocket:
    id: PocketId
    centre: tuple[float, float]  # the point on the nose-line outline the mouth is centred on
    mouth: float  # opening between the jaw noses, m
    jaw_radius: float
    corridor: float  # length of the straight jaw passage
    corner: bool
    axis: tuple[float, float]  # unit vector pointing from the bed into the pocket


@dataclass(frozen=True)
class Cushion:
    id: CushionId
    start: tuple[float, float]  # nose line segment, between the pocket mouths
    end: tuple[float, float]
    normal: tuple[float, float]  # unit vector pointing into the bed


@dataclass(frozen=True)
class CushionRubber:
    """How the cushion answers an impact (physics.cushion); each table file's ``[cushion]`` gives its values with
    their sources. The defaults are Mathavan et al.'s snooker figures [MAT10] and the pyramid rubber's [MKP]."""

    restitution: float = 0.98  # work-energy restitution at the nose, rigid cushion [MAT10]
    friction: float = 0.14  # ball-rubber sliding friction [MAT10]
    rigid_speed: float = 2.5  # m/s: the normal speed up to which the cushion acts rigid [MAT10]
    resilience: float = 0.55  # energy the rubber gives back deformed beyond that: rebound resilience [MKP]


# [cushion] keys: the least and greatest value each may take.
_RUBBER_RANGES = {
    "restitution": (0.0, 1.0),
    "friction": (0.0, 1.0),
    "rigid_speed": (0.1, 20.0),
    "resilience": (0.0, 1.0),
}


@dataclass(frozen=True)
class TableSpec:
    id: str
    name: dict[str, str]
    length: float
    width: float
    ball_radius: float
    ball_mass: float
    bed_height: float
    cushion_nose_height: float
    cushion_width: float
    cushion_top_tilt: float
    rail_width: float
    rail_height: float  # derived: see ``rail_height_for``
    corner_mouth: float
    middle_mouth: float
    corner_jaw_radius: float
    middle_jaw_radius: float
    corner_corridor: float
    middle_corridor: float
    pocket_depth: float
    lines: dict[str, float]
    spots: dict[str, tuple[float, float]]
    d_radius: float | None = None
    pockets: dict[PocketId, Pocket] = field(default_factory=dict)
    cushions: dict[CushionId, Cushion] = field(default_factory=dict)
    rubber: CushionRubber = field(default_factory=CushionRubber)

    @property
    def half_length(self) -> float:
        return self.length / 2

    @property
    def half_width(self) -> float:
        return self.width / 2

    @property
    def floor_z(self) -> float:
        return -self.bed_height

    @property
    def contact_angle(self) -> float:
        """Angle of the cushion contact normal below horizontal: asin((h - R)/R)."""
        return math.asin((self.cushion_nose_height - self.ball_radius) / self.ball_radius)

    @property
    def cushion_reach(self) -> float:
        """How far from a cushion's nose line the centre of a ball touching the cushion lies: the nose meets
        the ball above its centre (h > R), so R cos(theta), a little less than R. The one definition of a ball
        "frozen to a cushion": the scenario loader's bound, the engine's contact (``rc``), the referee."""
        return self.ball_radius * math.cos(self.contact_angle)

    def on_bed(self, x: float, y: float) -> bool:
        """True when a ball centre is within the bed outline (nose to nose)."""
        return abs(x) <= self.half_length and abs(y) <= self.half_width

    def spot(self, name: str) -> tuple[float, float]:
        return self.spots[name]

    @property
    def equipment(self) -> tuple[str, ...]:
        """The balls this table is played with (``TABLE_BALLS``)."""
        return TABLE_BALLS[self.id]


def _pockets(L: float, W: float, d: dict[str, float]) -> dict[PocketId, Pocket]:
    hl, hw = L / 2, W / 2
    s = 1 / math.sqrt(2)
    out: dict[PocketId, Pocket] = {}
    for pid, (x, y), corner, axis in (
        ("head-left", (-hl, hw), True, (-s, s)),
        ("head-right", (-hl, -hw), True, (-s, -s)),
        ("middle-left", (0.0, hw), False, (0.0, 1.0)),
        ("middle-right", (0.0, -hw), False, (0.0, -1.0)),
        ("foot-left", (hl, hw), True, (s, s)),
        ("foot-right", (hl, -hw), True, (s, -s)),
    ):
        out[pid] = Pocket(
            id=pid,
            centre=(x, y),
            corner=corner,
            axis=axis,
            mouth=d["corner_mouth"] if corner else d["middle_mouth"],
            jaw_radius=d["corner_jaw_radius"] if corner else d["middle_jaw_radius"],
            corridor=d["corner_corridor"] if corner else d["middle_corridor"],
        )
    assert tuple(out) == POCKET_IDS
    return out


def _cushions(L: float, W: float, corner_mouth: float, middle_mouth: float) -> dict[CushionId, Cushion]:
    """Nose-line segments between pocket mouths.

    A corner mouth measured across the jaws at 45 degrees leaves each cushion short of the corner by
    mouth / sqrt(2); a middle mouth removes mouth / 2 either side of x = 0.
    """
    hl, hw = L / 2, W / 2
    c = corner_mouth / math.sqrt(2)
    m = middle_mouth / 2
    segs = {
        "head": ((-hl, -hw + c), (-hl, hw - c), (1.0, 0.0)),
        "foot": ((hl, hw - c), (hl, -hw + c), (-1.0, 0.0)),
        "left-head": ((-hl + c, hw), (-m, hw), (0.0, -1.0)),
        "left-foot": ((m, hw), (hl - c, hw), (0.0, -1.0)),
        "right-head": ((-m, -hw), (-hl + c, -hw), (0.0, 1.0)),
        "right-foot": ((hl - c, -hw), (m, -hw), (0.0, 1.0)),
    }
    out = {cid: Cushion(cid, a, b, n) for cid, (a, b, n) in segs.items()}
    assert tuple(out) == CUSHION_IDS
    return out


def rail_height_for(
    ball_radius: float, nose_height: float, cushion_width: float, top_tilt_deg: float
) -> float:
    """Height of the rail top above the cloth that gives the rubber's top its regulation tilt.

    The top is one plane from the rubber's edge (``NOSE_EDGE_RISE`` above the nose height h, a
    little in front of the nose line because the face leans back by theta = asin((h - R)/R))
    up to the rail at the back of the cushion, tilted ``top_tilt_deg`` to the bed: 6-8 degrees on
    a pyramid table (docs/physics.md §Tables: the rubber's top tilt [MKP]). The rail's height is given
    nowhere (only snooker's floor-to-rail 851-876 mm [WPBSA], which the result meets), while the
    nose height, the tilt and (pool [WPA], snooker [PT]) the cushion width are; so the rail
    height is the number derived. (An estimated 45 mm rail over a 42 mm nose left the top only
    ~2 degrees of rise over the 50 mm cushion.)
    """
    theta = math.asin((nose_height - ball_radius) / ball_radius)
    edge_z = nose_height + NOSE_EDGE_RISE
    run = cushion_width + NOSE_EDGE_RISE * math.tan(theta)
    return edge_z + run * math.tan(math.radians(top_tilt_deg))


def _rubber(path: Path, raw: object) -> CushionRubber:
    """The ``[cushion]`` table of a table file: every key known, every value a number in its range."""
    if not isinstance(raw, dict):
        raise InputError(str(path), "cushion", "a table of the cushion's impact parameters")
    vals: dict[str, float] = {}
    for key, val in raw.items():
        if key not in _RUBBER_RANGES:
            raise InputError(str(path), f"cushion.{key}", f"a known key ({', '.join(_RUBBER_RANGES)})")
        lo, hi = _RUBBER_RANGES[key]
        if isinstance(val, bool) or not isinstance(val, (int, float)) or not lo <= val <= hi:
            raise InputError(str(path), f"cushion.{key}", f"a number in [{lo:g}, {hi:g}]")
        vals[key] = float(val)
    return CushionRubber(**vals)


@cache
def load_table(table_id: str) -> TableSpec:
    """Load a table spec by id; an unknown id is an :class:`InputError`."""
    if table_id not in TABLE_IDS:
        raise InputError("table", table_id, f"one of {', '.join(TABLE_IDS)}")
    path = TABLES_DIR / f"{table_id}.toml"
    with path.open("rb") as f:
        d = tomllib.load(f)
    spots = {k: (float(v[0]), float(v[1])) for k, v in d["spots"].items()}
    L, W = float(d["length"]), float(d["width"])
    numeric = {k: float(v) for k, v in d.items() if isinstance(v, (int, float))}
    if "rail_height" in d:
        raise InputError(str(path), "rail_height", "no value: the rail height follows from cushion_top_tilt")
    R, h = numeric["ball_radius"], numeric["cushion_nose_height"]
    if not R < h < 2 * R:
        raise InputError(
            str(path), "cushion_nose_height", "a height between the ball's radius and its diameter"
        )
    if not 0.0 <= numeric["cushion_top_tilt"] < 45.0:
        raise InputError(str(path), "cushion_top_tilt", "degrees in [0, 45)")
    numeric["rail_height"] = rail_height_for(R, h, numeric["cushion_width"], numeric["cushion_top_tilt"])
    return TableSpec(
        id=d["id"],
        name=dict(d["name"]),
        lines={k: float(v) for k, v in d["lines"].items()},
        spots=spots,
        d_radius=float(d["d"]["radius"]) if "d" in d else None,
        pockets=_pockets(L, W, numeric),
        cushions=_cushions(L, W, numeric["corner_mouth"], numeric["middle_mouth"]),
        rubber=_rubber(path, d.get("cushion", {})),
        **{
            k: numeric[k]
            for k in (
                "length",
                "width",
                "ball_radius",
                "ball_mass",
                "bed_height",
                "cushion_nose_height",
                "cushion_width",
                "cushion_top_tilt",
                "rail_width",
                "rail_height",
                "corner_mouth",
                "middle_mouth",
                "corner_jaw_radius",
                "middle_jaw_radius",
                "corner_corridor",
                "middle_corridor",
                "pocket_depth",
            )
        },
    )
