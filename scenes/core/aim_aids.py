"""Aiming aids as a practising player expects them, computed from the physics (no Panda3D here).

Levels (settings ``[display] aim_aid`` / ``aim_aid_match``, cycled with the ``aim_aid`` key):

- ``off``: nothing drawn;
- ``ghost``: the cue ball's line to the ghost ball (where it is at contact), the ghost ball;
- ``object``: + the object ball's line after contact;
- ``path``: + the cue ball's path after contact: the tangent line, bent by the spin the cue ball carries;
- ``preview``: + the whole stroke simulated ahead by the physics engine, every moving ball's path drawn and
  its end position ghosted.

``predict`` (levels ``ghost`` to ``path``) follows the cue ball and the first ball it meets with the physics'
own pieces: the cue strike (:func:`physics.cue.strike`, squirt and spin included), the exact cloth motion
(:func:`physics.cloth.advance`: slide, roll, the swerve of an elevated cue) and the ball-ball collision
(:func:`physics.collide.ball_ball`, throw included), stopping each path at its first cushion or rest. It is
what the stroke does if nothing else is met; the ``preview`` level runs the full engine in the worker.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from physics.params import PhysicsParams
from physics.record import ShotParams
from physics.tables import TableSpec


class AimLevel(StrEnum):
    OFF = "off"
    GHOST = "ghost"
    OBJECT = "object"
    PATH = "path"
    PREVIEW = "preview"

    def next(self) -> AimLevel:
        levels = list(AimLevel)
        return levels[(levels.index(self) + 1) % len(levels)]

    def at_least(self, other: AimLevel) -> bool:
        levels = list(AimLevel)
        return levels.index(self) >= levels.index(other)


Point = tuple[float, float]
STEP = 0.004  # s: a cue ball at 10 m/s moves 4 cm a step; contacts are then found by bisection
MAX_T = 12.0  # s followed at most (a lag stroke is ~8 s)
PATH_POINTS = 80  # at most this many points per drawn path


@dataclass(frozen=True)
class AimPrediction:
    """What the aids draw, in the table frame (metres, z = ball centre height)."""

    start: Point
    launch_dir: Point  # the cue ball's direction off the tip (squirt included)
    squirt_deg: float  # launch direction minus aim, degrees (+: to the left of the aim)
    cue_path: tuple[Point, ...]  # from the start to the ghost ball (or to its first cushion or rest)
    ghost: Point | None = None  # the cue ball's centre at contact
    ball: str | None = None  # the ball met first
    object_path: tuple[Point, ...] = ()  # that ball's path after contact, to a cushion or rest
    after_path: tuple[Point, ...] = ()  # the cue ball's path after contact, to a cushion or rest
    cushion: bool = False  # the cue ball meets a cushion before any ball
    notes: tuple[str, ...] = field(default_factory=tuple)


def _state(shot: ShotParams, p: PhysicsParams) -> tuple[np.ndarray, np.ndarray]:
    from physics.cue import strike

    s = strike(shot.cue_speed, shot.direction, shot.elevation, shot.tip, p)
    # The ball off the tip and the slate (a hop is the full preview's business: its path here stays on the cloth).
    v = np.array([s.v[0], s.v[1], 0.0])
    w = np.array(s.w)
    return v, w


def _advance(
    pos: np.ndarray, v: np.ndarray, w: np.ndarray, dt: float, p: PhysicsParams
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    from physics.cloth import advance

    P, V, W, stop = advance(pos[None, :], v[None, :], w[None, :], float(dt), p)
    return P[0], V[0], W[0], bool(np.isfinite(stop[0]))


def _inside(spec: TableSpec, x: float, y: float) -> bool:
    R = spec.ball_radius
    return abs(x) <= spec.half_length - R and abs(y) <= spec.half_width - R


def _follow(
    spec: TableSpec,
    p: PhysicsParams,
    pos: np.ndarray,
    v: np.ndarray,
    w: np.ndarray,
    others: Mapping[str, Point],
) -> tuple[list[Point], str | None, float, np.ndarray, np.ndarray, np.ndarray, bool]:
    """Move one ball on the cloth until it touches another ball, reaches a cushion or stops.

    Returns (path, ball met, time, pos, v, w at the end, cushion reached)."""
    R = spec.ball_radius
    path: list[Point] = [(float(pos[0]), float(pos[1]))]
    t = 0.0
    others_xy = [(b, np.array(q, dtype=float)) for b, q in others.items()]

    def hit(q: np.ndarray) -> str | None:
        for b, o in others_xy:
            if (q[0] - o[0]) ** 2 + (q[1] - o[1]) ** 2 < (2 * R) ** 2:
                return b
        return None

    while t < MAX_T:
        p1, v1, w1, stopped = _advance(pos, v, w, STEP, p)
        met = hit(p1)
        wall = not _inside(spec, float(p1[0]), float(p1[1]))
        if met is not None or wall:
            # Bisect the step for the moment of contact (to a micrometre of travel).
            lo, hi = 0.0, STEP
            for _ in range(30):
                mid = (lo + hi) / 2
                pm, _, _, _ = _advance(pos, v, w, mid, p)
                if hit(pm) is not None or not _inside(spec, float(pm[0]), float(pm[1])):
                    hi = mid
                else:
                    lo = mid
            pos, v, w, _ = _advance(pos, v, w, lo, p)
            path.append((float(pos[0]), float(pos[1])))
            return path, met, t + lo, pos, v, w, met is None
        pos, v, w = p1, v1, w1
        t += STEP
        path.append((float(pos[0]), float(pos[1])))
        if stopped or math.hypot(float(v[0]), float(v[1])) < 1e-4:
            break
    return path, None, t, pos, v, w, False


def _thin(path: list[Point]) -> tuple[Point, ...]:
    if len(path) <= PATH_POINTS:
        return tuple(path)
    step = (len(path) - 1) / (PATH_POINTS - 1)
    return tuple(path[round(i * step)] for i in range(PATH_POINTS))


def predict(
    spec: TableSpec,
    params: PhysicsParams,
    positions: Mapping[str, Point],
    shot: ShotParams,
    level: AimLevel = AimLevel.PATH,
) -> AimPrediction | None:
    """The aids' geometry for ``shot`` from ``positions`` (None when the struck ball is not on the bed)."""
    if shot.ball not in positions or level == AimLevel.OFF:
        return None
    from physics.collide import ball_ball

    R = spec.ball_radius
    x0, y0 = positions[shot.ball]
    speed = max(shot.cue_speed, 0.3)  # the lines show where a stroke goes even before power is set
    if shot.cue != params.cue:
        params = params.with_cue(spec.id, shot.cue)  # the cue taken: its mass, tip and squirt
    v, w = _state(ShotParams(shot.ball, speed, shot.direction, shot.elevation, shot.tip), params)
    vn = math.hypot(float(v[0]), float(v[1]))
    launch = (float(v[0]) / vn, float(v[1]) / vn) if vn > 1e-9 else (1.0, 0.0)
    aim = math.radians(shot.direction)
    squirt = math.degrees(math.atan2(launch[1], launch[0]) - aim)
    squirt = (squirt + 180.0) % 360.0 - 180.0
    pos = np.array([x0, y0, R])
    others = {b: q for b, q in positions.items() if b != shot.ball}
    path, met, _t, pos, v, w, wall = _follow(spec, params, pos, v, w, others)
    if met is None:
        return AimPrediction((x0, y0), launch, squirt, _thin(path), cushion=wall)
    ghost = (float(pos[0]), float(pos[1]))
    out = AimPrediction((x0, y0), launch, squirt, _thin(path), ghost, met)
    if not level.at_least(AimLevel.OBJECT):
        return out
    ob = np.array([positions[met][0], positions[met][1], R])
    res = ball_ball(pos, v, w, ob, np.zeros(3), np.zeros(3), params)
    if res is None:
        return out
    va, wa, vb, wb = res
    va, vb = np.array([va[0], va[1], 0.0]), np.array([vb[0], vb[1], 0.0])  # both stay on the cloth
    rest = {b: q for b, q in others.items() if b != met}
    # Each path runs until a cushion, a third ball or rest: the two balls part at once, so neither
    # counts as an obstacle to the other.
    obj_path, *_ = _follow(spec, params, ob, vb, wb, rest)
    after: list[Point] = []
    if level.at_least(AimLevel.PATH):
        after, *_ = _follow(spec, params, pos, va, wa, rest)
    return AimPrediction(
        (x0, y0), launch, squirt, _thin(path), ghost, met, _thin(obj_path), _thin(after), False
    )


def end_positions(record: object) -> dict[str, tuple[float, float, float]]:
    """The preview's ghosted end positions: where each ball that moved comes to rest on the bed."""
    from physics.record import BallStatus, ShotRecord

    assert isinstance(record, ShotRecord)
    out: dict[str, tuple[float, float, float]] = {}
    for ball, final in record.final.items():
        start = record.initial.get(ball)
        if final.status != BallStatus.ON_TABLE or final.pos is None or start is None:
            continue
        if math.hypot(final.pos[0] - start[0], final.pos[1] - start[1]) > 1e-3:
            out[ball] = (float(final.pos[0]), float(final.pos[1]), float(final.pos[2]))
    return out


def trajectory_paths(record: object) -> dict[str, list[tuple[float, float, float]]]:
    """Each ball's sampled path in a record, only for the balls that moved more than a millimetre."""
    out: dict[str, list[tuple[float, float, float]]] = {}
    for ball, rows in (getattr(record, "samples", None) or {}).items():
        pts = [(r[1], r[2], r[3]) for r in rows]
        if len(pts) >= 2 and max(math.hypot(p[0] - pts[0][0], p[1] - pts[0][1]) for p in pts) > 1e-3:
            out[ball] = pts
    return out
