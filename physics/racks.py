"""Opening layouts for every game id (design.md ball ids, table frame).

Racked balls touch (frozen rack, centres 2R + 1 µm apart along each row). With ``seed`` the rack
is built with 0.1 mm between neighbours and each racked ball is moved by a seeded amount of at
most 0.05 mm (never into a neighbour), modelling the small gaps of a real rack.
"""

from __future__ import annotations

import math
import random

from physics.tables import GAME_TABLES, TableSpec

PYRAMID_GAMES = (
    "russian-pyramid",
    "russian-pyramid-fast",
    "american",
    "american-fast",
    "moscow-pyramid",
    "moscow-pyramid-fast",
    "pyramid-8",
    "pyramid-8-fast",
    "practice",
)
# Rows from the apex (foot spot) towards the foot cushion.
_EIGHT_BALL = (("1",), ("9", "2"), ("10", "8", "3"), ("11", "7", "14", "4"), ("5", "13", "15", "6", "12"))
_NINE_BALL = (("1",), ("2", "3"), ("4", "9", "5"), ("6", "7"), ("8",))
_STRAIGHT = (("1",), ("2", "3"), ("4", "5", "6"), ("7", "8", "9", "10"), ("11", "12", "13", "14", "15"))
_PYRAMID = _STRAIGHT
JITTER = 1e-4  # m, largest seeded displacement of a racked ball


def _triangle(
    rows: tuple[tuple[str, ...], ...], apex: tuple[float, float], R: float, gap: float = 1e-6
) -> dict[str, tuple[float, float]]:
    """Rows of touching balls; row k has its centres ``2R cos 30°`` further towards +x.

    ``gap`` (1 µm) keeps neighbours from overlapping through rounding.
    """
    d = 2.0 * R + gap
    out: dict[str, tuple[float, float]] = {}
    for k, row in enumerate(rows):
        x = apex[0] + k * d * math.sqrt(3.0) / 2.0
        n = len(row)
        for j, bid in enumerate(row):
            out[bid] = (x, apex[1] + (j - (n - 1) / 2.0) * d)
    return out


def _diamond(
    rows: tuple[tuple[str, ...], ...], apex: tuple[float, float], R: float, gap: float = 1e-6
) -> dict[str, tuple[float, float]]:
    return _triangle(rows, apex, R, gap)


def _jitter(
    layout: dict[str, tuple[float, float]], racked: set[str], seed: int | None, R: float
) -> dict[str, tuple[float, float]]:
    if seed is None:
        return layout
    rng = random.Random(seed)
    out = dict(layout)
    for bid in sorted(racked, key=lambda b: (len(b), b)):
        x, y = out[bid]
        a = rng.uniform(0.0, 2.0 * math.pi)
        r = rng.uniform(0.0, JITTER / 2.0)
        out[bid] = (x + r * math.cos(a), y + r * math.sin(a))
    return out


def initial_layout(
    game_id: str, spec: TableSpec, n_players: int = 2, seed: int | None = None
) -> dict[str, tuple[float, float]]:
    """The opening layout of ``game_id`` on ``spec``; ``cue`` first."""
    if game_id not in GAME_TABLES:
        raise ValueError(f"unknown game id {game_id!r}")
    R = spec.ball_radius
    head = spec.spots.get("head-spot", (-spec.length / 4, 0.0))
    foot = spec.spots.get("foot-spot", (spec.length / 4, 0.0))
    layout: dict[str, tuple[float, float]] = {}
    racked: set[str] = set()
    # A seeded rack leaves JITTER between neighbours and moves each ball by at most JITTER / 2.
    gap = JITTER if seed is not None else 1e-6
    if game_id in PYRAMID_GAMES:
        layout["cue"] = head
        rack = _triangle(_PYRAMID, foot, R, gap)
    elif game_id == "pool-8-ball":
        layout["cue"] = head
        rack = _triangle(_EIGHT_BALL, foot, R, gap)
    elif game_id == "pool-9-ball":
        layout["cue"] = head
        rack = _diamond(_NINE_BALL, foot, R, gap)
    elif game_id == "straight-pool":
        layout["cue"] = head
        rack = _triangle(_STRAIGHT, foot, R, gap)
    elif game_id in ("snooker", "american-snooker"):
        d = spec.d_radius or 0.29
        brown = spec.spots["brown"]
        # Cue ball in the D, halfway between the brown and the green spots, a little behind the line.
        layout["cue"] = (brown[0] - d / 3.0, brown[1] + d / 2.0)
        for colour in ("yellow", "green", "brown", "blue", "pink", "black"):
            layout[colour] = spec.spots[colour]
        pink = spec.spots["pink"]
        apex = (pink[0] + 2.0 * R + 1e-3, pink[1])  # the apex red as near the pink as it can be
        rows = tuple(
            tuple(f"red{k}" for k in range(r * (r - 1) // 2 + 1, r * (r + 1) // 2 + 1)) for r in range(1, 6)
        )
        rack = _triangle(rows, apex, R, gap)
        # On a small table the back row of reds can reach the black spot (snooker-10ft with 54 mm balls):
        # then the black stands as near its spot as it can towards the top cushion, as when a spot is taken.
        bx, by = layout["black"]
        d = 2.0 * R + gap
        back_x = max(
            (rx + math.sqrt(d * d - (by - ry) ** 2) for rx, ry in rack.values() if abs(by - ry) < d),
            default=bx,
        )
        if back_x > bx:
            layout["black"] = (back_x, by)
    elif game_id == "golf":
        # Cue ball in the kitchen on the head spot; each player's ball starts on the foot spot. They would
        # all overlap there, so only the first player's ball ("1") is placed; the rest come in on their turns.
        layout["cue"] = head
        rack = {"1": foot}
        del n_players
    else:  # pragma: no cover - GAME_TABLES and the branches above agree (tested)
        raise ValueError(game_id)
    racked = set(rack)
    layout.update(rack)
    return _jitter(layout, racked, seed, R)
