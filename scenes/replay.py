"""Plays a shot record's samples back on a :class:`scenes.table_view.TableView`.

The record holds rows ``[t, x, y, z, vx, vy, vz, wx, wy, wz]`` per ball (docs/formats.md). Positions between rows are
interpolated linearly (rows come at 120 Hz by default, far finer than a ball's path curves between collisions);
orientations are integrated from the angular velocity, so balls roll and spin on screen as the physics says.
A pocketed ball vanishes at its ``pocketed`` event (it has dropped into the pocket by then); a ball that left the
table stays where its last row puts it (on the rail, on the floor).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from physics.record import BallStatus, Event, EventType, ShotRecord
from scenes.table_view import BallState, TableView, initial_quat, quat_mul

SPEEDS: tuple[float, ...] = (1.0, 0.25, 0.125, 0.0625)
DEFAULT_STEP = 1.0 / 60.0


@dataclass(frozen=True)
class _Track:
    times: tuple[float, ...]
    pos: tuple[tuple[float, float, float], ...]
    omega: tuple[tuple[float, float, float], ...]
    quats: tuple[tuple[float, float, float, float], ...]  # orientation at each row


def _axis_angle_quat(wx: float, wy: float, wz: float, dt: float) -> tuple[float, float, float, float]:
    """The rotation a body spinning at world angular velocity (wx, wy, wz) makes in dt seconds."""
    w = math.sqrt(wx * wx + wy * wy + wz * wz)
    angle = w * dt
    if angle < 1e-12:
        return (1.0, 0.0, 0.0, 0.0)
    s = math.sin(angle / 2) / w
    return (math.cos(angle / 2), wx * s, wy * s, wz * s)


def _normalise(q: Sequence[float]) -> tuple[float, float, float, float]:
    n = math.sqrt(sum(c * c for c in q)) or 1.0
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def _build_track(rows: Sequence[Sequence[float]], q0: tuple[float, float, float, float]) -> _Track:
    times = tuple(float(r[0]) for r in rows)
    pos = tuple((float(r[1]), float(r[2]), float(r[3])) for r in rows)
    omega = tuple((float(r[7]), float(r[8]), float(r[9])) for r in rows)
    quats = [q0]
    for k in range(1, len(rows)):
        dt = times[k] - times[k - 1]
        w = [(omega[k - 1][i] + omega[k][i]) / 2 for i in range(3)]
        # World-frame angular velocity: the increment multiplies from the left.
        quats.append(_normalise(quat_mul(_axis_angle_quat(w[0], w[1], w[2], dt), quats[-1])))
    return _Track(times, pos, omega, tuple(quats))


class ReplayPlayer:
    """Time-based playback of one stroke.

    ``t`` is seconds after the strike; ``update(dt)`` advances it by ``dt × speed`` unless paused and pushes the
    ball states to the view. ``seek``/``step`` scrub. ``events_until(t)`` lists what has happened by then (the
    app plays sounds for events it has not seen yet; the HUD shows the list).
    """

    def __init__(self, record: ShotRecord, table_view: TableView | None = None) -> None:
        self.record = record
        self.view = table_view
        self.speed = 1.0
        self.paused = False
        self._events = tuple(sorted(record.events, key=lambda e: e.t))
        self._event_times = [e.t for e in self._events]
        samples = record.samples or {}
        self._tracks: dict[str, _Track] = {
            b: _build_track(rows, initial_quat(b)) for b, rows in samples.items() if rows
        }
        self._hide_at: dict[str, float] = {}
        for e in self._events:
            if e.type == EventType.POCKETED and e.ball is not None and e.ball not in self._hide_at:
                self._hide_at[e.ball] = e.t
        ends = [tr.times[-1] for tr in self._tracks.values()]
        self.duration = max([record.duration, *ends, *self._event_times, 0.0])
        for b, f in record.final.items():
            if f.status == BallStatus.POCKETED and b not in self._hide_at:
                # Pocketed without a pocketed event (a hanging ball that dropped later): gone at the end.
                self._hide_at[b] = self.duration
        self.balls: tuple[str, ...] = tuple(dict.fromkeys([*record.initial, *self._tracks, *record.final]))
        steps = [
            tr.times[k + 1] - tr.times[k]
            for tr in self._tracks.values()
            for k in range(min(3, len(tr.times) - 1))
        ]
        self.frame_step = min(steps) if steps and min(steps) > 0 else DEFAULT_STEP
        self.t = 0.0
        self._apply()

    # ------------------------------------------------------------------ transport
    def update(self, dt: float) -> list[Event]:
        """Advance by ``dt`` real seconds; returns the events that happened in the step (for sounds)."""
        if self.paused or self.finished:
            return []
        t0 = self.t
        self.t = min(self.duration, self.t + max(0.0, dt) * self.speed)
        self._apply()
        return self.events_between(t0, self.t)

    def seek(self, t: float) -> None:
        self.t = min(self.duration, max(0.0, float(t)))
        self._apply()

    def step(self, frames: int = 1) -> None:
        """Pause and move by whole sample intervals (negative goes back)."""
        self.paused = True
        self.seek(self.t + frames * self.frame_step)

    def pause(self) -> None:
        self.paused = True

    def play(self) -> None:
        if self.finished:
            self.seek(0.0)
        self.paused = False

    def toggle_pause(self) -> None:
        self.play() if self.paused else self.pause()

    def set_speed(self, speed: float) -> None:
        """Playback rate: the offered steps are :data:`SPEEDS`; any rate in (0, 16] is accepted."""
        if not (math.isfinite(speed) and 0.0 < speed <= 16.0):
            raise ValueError("replay speed must be a number in (0, 16]")
        self.speed = float(speed)

    def slower(self) -> None:
        """The next offered step below the current rate (1 → 1/4 → 1/8 → 1/16)."""
        below = [v for v in SPEEDS if v < self.speed]
        self.speed = max(below) if below else SPEEDS[-1]

    def faster(self) -> None:
        above = [v for v in SPEEDS if v > self.speed]
        self.speed = min(above) if above else SPEEDS[0]

    @property
    def finished(self) -> bool:
        return self.t >= self.duration

    # ------------------------------------------------------------------ queries
    def events_until(self, t: float | None = None) -> list[Event]:
        """Every event at or before ``t`` (default: now)."""
        t = self.t if t is None else t
        return list(self._events[: bisect.bisect_right(self._event_times, t)])

    def events_between(self, t0: float, t1: float) -> list[Event]:
        """Events in (t0, t1]; at t0 == 0 the strike itself (t = 0) is included."""
        lo = 0 if t0 <= 0 else bisect.bisect_right(self._event_times, t0)
        return list(self._events[lo : bisect.bisect_right(self._event_times, t1)])

    def state_at(self, ball: str, t: float) -> BallState:
        """Where ``ball`` is at ``t``, and whether it is to be seen."""
        visible = not (ball in self._hide_at and t >= self._hide_at[ball])
        tr = self._tracks.get(ball)
        if tr is None:
            return BallState(self._static_pos(ball, t), initial_quat(ball), visible)
        times = tr.times
        if t <= times[0]:
            return BallState(tr.pos[0], tr.quats[0], visible)
        if t >= times[-1]:
            return BallState(tr.pos[-1], tr.quats[-1], visible)
        k = bisect.bisect_right(times, t) - 1
        t0, t1 = times[k], times[k + 1]
        f = (t - t0) / (t1 - t0) if t1 > t0 else 0.0
        p0, p1 = tr.pos[k], tr.pos[k + 1]
        pos = (p0[0] + (p1[0] - p0[0]) * f, p0[1] + (p1[1] - p0[1]) * f, p0[2] + (p1[2] - p0[2]) * f)
        w0, w1 = tr.omega[k], tr.omega[k + 1]
        w = [(w0[i] + w1[i]) / 2 for i in range(3)]
        quat = _normalise(quat_mul(_axis_angle_quat(w[0], w[1], w[2], t - t0), tr.quats[k]))
        return BallState(pos, quat, visible)

    def states_at(self, t: float) -> dict[str, BallState]:
        return {b: self.state_at(b, t) for b in self.balls}

    def _static_pos(self, ball: str, t: float) -> tuple[float, float, float]:
        """A ball without samples: where it started, or where it ended once the stroke is over."""
        R = float(self.record.params.get("R", 0.0)) if isinstance(self.record.params, Mapping) else 0.0
        start = self.record.initial.get(ball)
        final = self.record.final.get(ball)
        if final is not None and final.pos is not None and (start is None or t >= self.duration):
            return (float(final.pos[0]), float(final.pos[1]), float(final.pos[2]))
        if start is not None:
            return (float(start[0]), float(start[1]), float(start[2]) if len(start) > 2 else R)
        return (0.0, 0.0, R)

    def _apply(self) -> None:
        if self.view is not None:
            self.view.set_balls(self.states_at(self.t))


# --- the timeline under the replay ----------------------------------------------------------------
# Event type -> the tick's kind (its colour and legend entry). ``rest`` is left out: every ball stops.
TICK_KINDS: dict[str, str] = {
    EventType.CUE_STRIKE: "strike",
    EventType.BALL_BALL: "contact",
    EventType.CUSHION: "cushion",
    EventType.POCKET_JAW: "cushion",
    EventType.POCKETED: "pot",
    EventType.HANGING: "pot",
    EventType.DROPPED: "pot",
    EventType.AIRBORNE: "jump",
    EventType.LANDED: "jump",
    EventType.JUMPED_OVER: "jump",
    EventType.LEFT_TABLE: "off",
    EventType.OFF_TABLE: "off",
    EventType.RETURNED: "off",
    EventType.TOUCHED: "off",
    EventType.LINE_CROSSED: "line",
}
TICK_ORDER = ("strike", "contact", "cushion", "pot", "jump", "off", "line")


@dataclass(frozen=True)
class Tick:
    t: float  # seconds after the strike
    frac: float  # 0..1 along the bar
    kind: str
    event: str  # the event's type


def timeline_ticks(events: Sequence[Event], duration: float) -> list[Tick]:
    """One tick for every event of the stroke but the balls' rests, placed by its time on a bar of the stroke."""
    span = duration if duration > 0 else 1.0
    out = []
    for e in sorted(events, key=lambda e: e.t):
        kind = TICK_KINDS.get(str(e.type))
        if kind is not None:
            out.append(Tick(float(e.t), min(1.0, max(0.0, e.t / span)), kind, str(e.type)))
    return out
