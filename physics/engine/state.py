"""The balls' state during a stroke: where each is, how it moves, which mode advances it, and the
per-ball bookkeeping the events need (flights, surfaces touched, time at rest)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import NamedTuple

import numpy as np


class Mode(IntEnum):
    """What advances a ball: nothing (at rest), the exact cloth motion, Bullet, or nothing ever again
    (pocketed)."""

    REST = 0
    CLOTH = 1
    BULLET = 2
    GONE = 3


# Plain ints for the hot path (IntEnum attribute access costs microseconds).
REST, CLOTH, BULLET, GONE = 0, 1, 2, 3

ROLLING_SLIP = 0.005  # m/s: a ball whose contact point slips less than this is rolling
ON_BED_Z = 2e-4  # m: a Bullet ball this close to z = R is sitting on the slate

Surfaces = set[tuple[str, str | None]]  # (surface kind, id) pairs a ball is touching


class Segment(NamedTuple):
    """The state at the start of the step being taken: samples and exact-path tests read it."""

    t0: float
    p0: np.ndarray
    v0: np.ndarray
    w0: np.ndarray
    cl: np.ndarray  # the balls on the cloth in this step
    mode0: np.ndarray
    pure: bool  # no Bullet ball in the step: every moving ball follows the cloth's closed form


class Balls:
    """Positions, velocities, spins and modes of every ball (arrays indexed by ball), and what the events
    of each ball depend on."""

    def __init__(self, layout: Mapping[str, tuple[float, float]], R: float) -> None:
        self.ids = list(layout)
        n = len(self.ids)
        self.n = n
        self.R = R
        self.pos = np.zeros((n, 3))
        self.pos[:, 0] = [layout[b][0] for b in self.ids]
        self.pos[:, 1] = [layout[b][1] for b in self.ids]
        self.pos[:, 2] = R
        self.vel = np.zeros((n, 3))
        self.omg = np.zeros((n, 3))
        self.mode = np.full(n, REST, dtype=np.int8)
        self.pocket: dict[int, str] = {}  # pocketed ball -> its pocket
        # The surfaces each ball touches (a cloth ball: the cushion it is against).
        self.contacts: list[Surfaces] = [set() for _ in range(n)]
        self.touched_once: set[tuple[int, str, str | None]] = set()  # (ball, kind, id) already reported
        self.flying = np.zeros(n, dtype=bool)
        self.takeoff_t = np.zeros(n)
        self.over: dict[tuple[int, int], bool] = {}  # (flier, other) -> clean so far
        self.hit_in_flight: set[tuple[int, int]] = set()
        self.outside = np.zeros(n, dtype=bool)  # centre outside the bed outline
        self.rest_time = np.zeros(n)  # how long a Bullet ball has been still
        iu, ju = np.triu_indices(n, 1)
        self.pair_i, self.pair_j = iu.astype(np.intp), ju.astype(np.intp)  # every pair, i < j

    def at(self, i: int) -> tuple[float, float, float]:
        """Ball ``i``'s position as events record it."""
        return (
            round(float(self.pos[i, 0]), 6),
            round(float(self.pos[i, 1]), 6),
            round(float(self.pos[i, 2]), 6),
        )


def place_name(kind: str) -> str:
    """The record's name for a surface kind a ball lands or rests on."""
    return {"rail_top": "rail", "bed": "bed"}.get(kind, kind)
