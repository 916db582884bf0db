"""The cues a player can take: playing, break and jump cue, for each table's balls.

What the strike needs of a cue (physics.cue): its mass, which moves with the tip along the cue through
the ~1 ms contact (the stress wave crosses the whole cue in that time [RB]); its tip's restitution and
friction; and the end mass of the shaft, which sets the squirt (TP A.31). Its length and tip radius
describe the stick (drawing, what it clears); the strike does not depend on them.

Sources (docs/physics.md §Cues, §Parameters): pool playing cue 18-21 oz = 0.51-0.60 kg [RB citing WPA, TP A.30],
pooltool 0.567 kg, L 1.4732 m, tip radius 10.6 mm [PT cue/datatypes.py]; snooker cue 0.478 kg, L 1.475 m
[PT]; a jump cue is shorter and about half the playing cue's weight, with a hard phenolic tip [SIMPSON];
leather tips e 0.71-0.75, phenolic 0.81-0.87, chalked tip friction 0.6 [DD-CONST][DD-TIP]; measured
ball/end mass 12-29 [TP A.31]. Russian cues are longer and heavier than pool cues, with no published
numbers (ESTIMATE 0.65-0.75 kg, ~1.6 m). Every value not in those sources is marked ESTIMATE.
"""

from __future__ import annotations

from dataclasses import dataclass

CUE_KINDS: tuple[str, ...] = ("playing", "break", "jump")
DEFAULT_CUE = "playing"

LEATHER_E = 0.73  # [DD-TIP] 0.71-0.75
PHENOLIC_E = 0.85  # [DD-TIP] 0.81-0.87
TIP_MU = 0.6  # chalked tip on a ball [DD-CONST]
SHAFT_RATIO = 25.0  # ball mass / end mass of a playing shaft, measured 12-29 [TP A.31]
# Break and jump shafts are thicker and stiffer (more end mass): the low end of the measured range (ESTIMATE).
STIFF_SHAFT_RATIO = 15.0


@dataclass(frozen=True)
class Cue:
    kind: str
    mass: float  # kg
    length: float  # m
    tip_radius: float  # m, radius of the tip's dome
    tip_width: float  # m, the tip's and ferrule's diameter (how near the cloth the tip comes: physics.tip)
    tip_e: float
    tip_mu: float
    squirt_mass_ratio: float  # ball mass / shaft end mass


Dims = tuple[float, float, float, float]


def _set(playing: Dims, brk: Dims, jump: Dims) -> dict[str, Cue]:
    """Three cues from (mass, length, tip radius, tip width) each: a leather-tipped playing cue, a phenolic
    break and jump cue."""
    return {
        "playing": Cue("playing", *playing, LEATHER_E, TIP_MU, SHAFT_RATIO),
        "break": Cue("break", *brk, PHENOLIC_E, TIP_MU, STIFF_SHAFT_RATIO),
        "jump": Cue("jump", *jump, PHENOLIC_E, TIP_MU, STIFF_SHAFT_RATIO),
    }


# Tip widths: pool shafts end in 12.5-13.5 mm tips, snooker in 9-10 mm, Russian cues in 12-13 mm (ESTIMATE:
# the common sizes sold for each game); a jump cue keeps its game's width.
_POOL = _set(
    # 19 oz, in the 18-21 oz range [RB/WPA] and near pooltool's 0.567 kg; length and tip radius [PT].
    (0.54, 1.4732, 0.0106, 0.013),
    # 21 oz, the heavy end of the range (ESTIMATE: break cues are the heavy ones); phenolic tip.
    (0.595, 1.4732, 0.0106, 0.013),
    # ~half the playing cue [SIMPSON] (9 oz), as short as WPA allows (40 in = 1.016 m) (ESTIMATE).
    (0.27, 1.016, 0.0106, 0.013),
)
_SNOOKER = _set(
    # pooltool's snooker cue [PT]; snooker tips are narrower (9-10 mm), a dome of ~8.5 mm (ESTIMATE).
    (0.478, 1.475, 0.0085, 0.0095),
    # Snooker players break with their own cue: the break "cue" is it with a hard tip (ESTIMATE).
    (0.478, 1.475, 0.0085, 0.0095),
    (0.24, 1.016, 0.0085, 0.0095),  # half the playing cue (ESTIMATE, as pool)
)
_PYRAMID = _set(
    (
        0.70,
        1.60,
        0.0115,
        0.0125,
    ),  # ESTIMATE 0.65-0.75 kg, ~1.6 m; 12-13 mm tips for the 68 mm balls (ESTIMATE)
    (0.72, 1.60, 0.0115, 0.0125),  # a break cue a little heavier, phenolic (ESTIMATE)
    (0.35, 1.10, 0.0115, 0.0125),  # half the playing cue (ESTIMATE)
)

CUES: dict[str, dict[str, Cue]] = {
    "pyramid-12ft": _PYRAMID,
    "pool-9ft": _POOL,
    "snooker-12ft": _SNOOKER,
    "snooker-10ft": _SNOOKER,
}


def cue_for(table_id: str, kind: str) -> Cue:
    """The cue of ``kind`` that goes with the balls of table ``table_id`` (a pool cue for an unknown table)."""
    if kind not in CUE_KINDS:
        raise ValueError(f"unknown cue kind {kind!r}: one of {', '.join(CUE_KINDS)}")
    return CUES.get(table_id, _POOL)[kind]
