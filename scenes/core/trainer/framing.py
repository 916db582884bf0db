"""Where the trainer's camera goes to show the decision, and how fast the replay runs there (pure: no Panda3D).

A :class:`Director` reads one case's record and answers, for any replay time ``t``, where the eye is and
what it looks at (:meth:`Director.at`), and the replay's slow-motion factor (:meth:`Director.slow`). The
trainer screen feeds the answer to the camera rig (``CameraRig.set_view``) every frame; the rig's spring
smooths it.

- **side** (rows 6-11, 18-19: jumps, scoops, miscues, the double hit and the push): across the stroke's line at ball height, from the side with
  room on the bed, close enough that a ball is at least :data:`MIN_BALL_PX` pixels across in a 1280x720
  window (the lens's vertical field of view decides the distance; the trainer keeps it when the panel
  narrows the view); when the action is wider than the view, the camera pans along the line with the
  struck ball.
- **follow** (rows 1-3, 5, 15-17: balls leaving the bed, touching things): trails the ball the case is
  about, beside its path and a little above it, down to the floor if that is where it lands.
- **lamp** (row 4): from the long side, far enough to hold the bed and the lamp where the ball strikes it.
- **jaws** (rows 12-14): close on the pocket the ball hangs over, from the bed side, a little above it.

Slow motion: around the deciding moment (``moments.deciding_moment``) the replay runs at
:data:`SLOW` of the chosen speed, from :data:`SLOW_BEFORE` s before it to :data:`SLOW_AFTER` s after, easing
in and out over :data:`SLOW_EASE` s.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass

from physics.plan import ROOM_HALF
from physics.record import EventType, ShotRecord
from physics.tables import TableSpec
from scenes.core.trainer.cases import Topic
from scenes.core.trainer.moments import Moment, deciding_moment

Vec3 = tuple[float, float, float]

MIN_BALL_PX = 84.0  # the 80 px, with a margin for the lens's rounding and the glide
REF_HEIGHT_PX = 720.0  # the window height the ball size is stated for (1280x720)
SLOW = 0.125
SLOW_BEFORE, SLOW_AFTER, SLOW_EASE = 0.25, 0.45, 0.15
FOLLOW_BACK, FOLLOW_UP = 1.1, 0.45  # m: the follow camera's offset beside and above its ball
JAWS_BACK, JAWS_UP = 0.42, 0.2  # m: the jaws view's offset into the bed and above the hanging ball

SIDE_TOPICS = frozenset(
    {
        Topic.JUMP,
        Topic.SCOOP,
        Topic.MISCUE,
        Topic.JUMP_AFTER_CONTACT,
        Topic.CLIPPED_BALL_ON,
        Topic.JUMP_DROP_BACK,
        Topic.DOUBLE_HIT,
        Topic.PUSH,
    }
)
JAWS_TOPICS = frozenset({Topic.HANGING_AFTER_5S, Topic.HANGING_BEFORE_5S, Topic.HANGING_ON_ARRIVAL})


def beyond(b: Sequence[float], back: float = FOLLOW_BACK) -> tuple[Vec3, Vec3]:
    """Eye and look-at point for a ball off the table (on the floor, by a wall): the eye beyond it, low, the
    table behind it - turned along the wall when the room leaves no space straight out - looking a little above
    the ball so the table is in the picture. The side camera (scenes.camera) shows such a ball the same way."""
    n = math.hypot(b[0], b[1]) or 1.0
    out = math.atan2(b[1] / n, b[0] / n)
    lim = (ROOM_HALF[0] - 0.15, ROOM_HALF[1] - 0.15)
    eye = (float(b[0]), float(b[1]))
    for turn in (0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5):
        a = out + turn
        ex, ey = b[0] + math.cos(a) * back, b[1] + math.sin(a) * back
        if abs(ex) <= lim[0] and abs(ey) <= lim[1]:
            eye = (ex, ey)
            break
    return (eye[0], eye[1], b[2] + 0.35), (float(b[0]), float(b[1]), b[2] + 0.2)


def kind_for(topic: Topic) -> str:
    if topic in SIDE_TOPICS:
        return "side"
    if topic in JAWS_TOPICS:
        return "jaws"
    if topic == Topic.LAMP:
        return "lamp"
    return "follow"


def ball_px(distance: float, radius: float, vfov_deg: float, height_px: float = REF_HEIGHT_PX) -> float:
    """Diameter in pixels of a ball ``distance`` m in front of a pinhole camera of vertical field ``vfov``."""
    return height_px * 2.0 * radius / (2.0 * distance * math.tan(math.radians(vfov_deg) / 2.0))


def max_distance(
    radius: float, vfov_deg: float, px: float = MIN_BALL_PX, height_px: float = REF_HEIGHT_PX
) -> float:
    """The farthest a ball may be from the eye and still be ``px`` pixels across."""
    return height_px * 2.0 * radius / (2.0 * px * math.tan(math.radians(vfov_deg) / 2.0))


class Track:
    """A ball's path from the record's samples (linear between rows), or its start and end without them."""

    def __init__(self, record: ShotRecord, ball: str, radius: float) -> None:
        rows = (record.samples or {}).get(ball) or ()
        self.times = [float(r[0]) for r in rows]
        self.pos: list[Vec3] = [(float(r[1]), float(r[2]), float(r[3])) for r in rows]
        start = record.initial.get(ball)
        self.start: Vec3 = (
            (float(start[0]), float(start[1]), float(start[2]) if len(start) > 2 else radius)
            if start is not None
            else (0.0, 0.0, radius)
        )
        fin = record.final.get(ball)
        self.end: Vec3 = (
            (float(fin.pos[0]), float(fin.pos[1]), float(fin.pos[2]))
            if fin is not None and fin.pos
            else self.start
        )
        self.duration = record.duration

    def at(self, t: float) -> Vec3:
        if not self.times:
            return self.end if t >= self.duration else self.start
        if t <= self.times[0]:
            return self.pos[0]
        if t >= self.times[-1]:
            return self.pos[-1]
        k = bisect.bisect_right(self.times, t) - 1
        t0, t1 = self.times[k], self.times[k + 1]
        f = (t - t0) / (t1 - t0) if t1 > t0 else 0.0
        a, b = self.pos[k], self.pos[k + 1]
        return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f)


@dataclass(frozen=True)
class View:
    eye: Vec3
    look: Vec3


class Director:
    """The trainer's framing of one case (see the module doc)."""

    def __init__(
        self,
        topic: Topic,
        record: ShotRecord,
        spec: TableSpec,
        vfov_deg: float,
        aspect: float,
        subject: str | None = None,
    ) -> None:
        self.topic = topic
        self.record = record
        self.spec = spec
        self.vfov = float(vfov_deg)
        self.aspect = float(aspect)
        self.kind = kind_for(topic)
        self.moment: Moment | None = deciding_moment(topic, record)
        R = spec.ball_radius
        strike = record.of_type(EventType.CUE_STRIKE)
        self.struck = strike[0].ball if strike and strike[0].ball else "cue"
        self.ball = self._ball_of_interest(subject)
        self.track = Track(record, self.ball, R)
        self._tracks: dict[str, Track] = {}
        if self.kind == "side":
            self._plan_side()

    # --- which ball ------------------------------------------------------------------------------
    def _ball_of_interest(self, subject: str | None) -> str:
        if self.kind == "side":
            return self.struck
        if self.moment is not None and self.moment.ball is not None:
            if subject != "cue" or self.moment.ball == self.struck:
                return self.moment.ball
        if subject == "cue":
            return self.struck
        for e in self.record.events:
            if e.ball and e.type in (EventType.LEFT_TABLE, EventType.HANGING, EventType.TOUCHED):
                return e.ball
        return self.struck

    def track_of(self, ball: str) -> Track:
        if ball not in self._tracks:
            self._tracks[ball] = Track(self.record, ball, self.spec.ball_radius)
        return self._tracks[ball]

    # --- side view ---------------------------------------------------------------------------------
    def _plan_side(self) -> None:
        s, R = self.spec, self.spec.ball_radius
        p0 = self.track.start
        shot = self.record.shot
        a = math.radians(shot.direction) if shot is not None else 0.0
        u = (math.cos(a), math.sin(a))
        fc = self.record.first_contact(self.struck)
        pts: list[tuple[float, float]] = [(p0[0], p0[1])]
        if fc is not None and fc.balls is not None:
            other = fc.balls[1] if fc.balls[0] == self.struck else fc.balls[0]
            pts.append(tuple(self.track_of(other).start[:2]))  # type: ignore[arg-type]
        for e in self.record.for_ball(self.struck, EventType.JUMPED_OVER, EventType.LANDED):
            if e.type == EventType.JUMPED_OVER and e.over:
                pts.append(tuple(self.track_of(e.over).start[:2]))  # type: ignore[arg-type]
        if self.moment is not None and self.moment.pos is not None:
            pts.append((self.moment.pos[0], self.moment.pos[1]))
        along = [(x - p0[0]) * u[0] + (y - p0[1]) * u[1] for x, y in pts]
        lo, hi = min(along) - 3 * R, max(along) + 5 * R
        self.u = u
        self.p0 = p0
        self.span = (lo, hi)
        d_ball = max_distance(R, self.vfov)
        tan = math.tan(math.radians(self.vfov) / 2.0)
        d_fit = (hi - lo) / (2.0 * tan * self.aspect)
        self.distance = min(d_ball, max(d_fit, 6 * R))
        self.v_half = self.distance * tan
        mid = (lo + hi) / 2.0
        self.centre = (p0[0] + u[0] * mid, p0[1] + u[1] * mid)
        # The side with room on the bed for the eye (and fewer balls in between), else the roomier one.
        n = (-u[1], u[0])
        best: tuple[float, float] | None = None
        for sign in (1.0, -1.0):
            ex = self.centre[0] + sign * n[0] * self.distance
            ey = self.centre[1] + sign * n[1] * self.distance
            inside = abs(ex) <= s.half_length - 2 * R and abs(ey) <= s.half_width - 2 * R
            room = min(s.half_length - abs(ex), s.half_width - abs(ey))
            between = sum(
                1
                for b in self.record.initial
                if b != self.struck and _between(self.track_of(b).start, self.centre, (ex, ey), 2 * R)
            )
            score = (1.0 if inside else 0.0) * 10.0 + room - between
            if best is None or score > best[0]:
                best = (score, sign)
                self.inside = inside
        assert best is not None
        self.n = (n[0] * best[1], n[1] * best[1])
        # At ball height the line of sight is level and the cloth is a line under the balls, so every gap
        # between a ball and the cloth (or between two balls) shows; the view tilts up only when a jump would
        # leave the picture (its upper half is 9/16 of the half width at 16:9).
        peak = max((p[2] for p in self.track.pos), default=R) + R
        self.eye_z = 1.6 * R if self.inside else s.rail_height + 0.11
        self.look_z = max(self.eye_z, peak - 0.85 * self.v_half)

    def _side(self, t: float, aspect: float) -> View:
        lo, hi = self.span
        half = self.v_half * aspect
        if hi - lo > 2.0 * half:
            b = self.track.at(t)
            a = (b[0] - self.p0[0]) * self.u[0] + (b[1] - self.p0[1]) * self.u[1]
            a = min(max(a, lo + half), hi - half)
        else:
            a = (lo + hi) / 2.0
        c = (self.p0[0] + self.u[0] * a, self.p0[1] + self.u[1] * a)
        look = (c[0], c[1], self.look_z)
        eye = (c[0] + self.n[0] * self.distance, c[1] + self.n[1] * self.distance, self.eye_z)
        return View(eye, look)

    # --- follow, lamp, jaws ---------------------------------------------------------------------------
    def _follow(self, t: float) -> View:
        s = self.spec
        b = self.track.at(t)
        X = s.half_length + s.cushion_width + s.rail_width
        Y = s.half_width + s.cushion_width + s.rail_width
        if (abs(b[0]) > X or abs(b[1]) > Y) and b[2] < 0.0:
            # Off the table and down (falling, on the floor, by a wall): from beyond the ball, the table behind
            # it, inside the room. A ball still at the height of the bed is beside the table, where a person or
            # the chalk it may touch stands: seen from along the rail (below), never through them.
            return self._beyond(b)
        # Beside the ball's way out: along the cushion it crosses, towards the middle of the table's length.
        out_y = abs(b[1]) / s.half_width >= abs(b[0]) / s.half_length
        if out_y:
            off = (-math.copysign(FOLLOW_BACK, b[0] if abs(b[0]) > 1e-6 else 1.0), 0.0)
        else:
            off = (0.0, -math.copysign(FOLLOW_BACK, b[1] if abs(b[1]) > 1e-6 else 1.0))
        eye = (b[0] + off[0], b[1] + off[1], b[2] + FOLLOW_UP)
        return View(eye, b)

    def _beyond(self, b: Vec3) -> View:
        return View(*beyond(b))

    def _lamp(self, t: float) -> View:
        s = self.spec
        m = self.moment.pos if self.moment is not None and self.moment.pos is not None else (0.0, 0.0, 1.0)
        b = self.track.at(t)
        mid = (0.5 * (m[0] + b[0]), 0.5 * (m[1] + b[1]), 0.5 * (m[2] + s.ball_radius))
        back = s.half_width + 1.9
        return View((mid[0], -back if m[1] >= 0 else back, mid[2] + 0.1), mid)

    def _jaws(self, t: float) -> View:
        s = self.spec
        hang = next((e for e in self.record.of_type(EventType.HANGING) if e.pos is not None), None)
        if hang is None or hang.pos is None or hang.pocket not in s.pockets:
            return self._follow(t)
        p = s.pockets[hang.pocket]
        h = hang.pos
        ax = p.axis
        eye = (h[0] - ax[0] * JAWS_BACK, h[1] - ax[1] * JAWS_BACK, h[2] + JAWS_UP)
        return View(eye, (h[0], h[1], h[2]))

    # --- public ----------------------------------------------------------------------------------
    def at(self, t: float, aspect: float | None = None) -> View:
        """Eye and look-at point at replay time ``t`` for a view of this aspect (width / height)."""
        if self.kind == "side":
            return self._side(t, self.aspect if aspect is None else aspect)
        if self.kind == "jaws":
            return self._jaws(t)
        if self.kind == "lamp":
            return self._lamp(t)
        return self._follow(t)

    def slow(self, t: float) -> float:
        """The slow-motion factor at replay time ``t``: :data:`SLOW` around the deciding moment, else 1."""
        if self.moment is None:
            return 1.0
        tm = self.moment.t
        a, b = tm - SLOW_BEFORE, tm + SLOW_AFTER
        if a <= t <= b:
            return SLOW
        gap = (a - t) if t < a else (t - b)
        if gap >= SLOW_EASE:
            return 1.0
        # Ease in log-speed, so the change of pace is even.
        return math.exp(math.log(SLOW) * (1.0 - gap / SLOW_EASE))

    def ball_depth(self, t: float, aspect: float | None = None) -> float:
        """How far in front of the eye, along the line of sight, the ball of interest is at ``t``: what its
        size on screen goes by (a pinhole camera draws a sphere at depth z with a diameter of about
        f * 2R / z, a little more off the axis)."""
        v = self.at(t, aspect)
        b = self.track.at(t)
        d = [v.look[k] - v.eye[k] for k in range(3)]
        n = math.sqrt(sum(x * x for x in d)) or 1.0
        return sum((b[k] - v.eye[k]) * d[k] for k in range(3)) / n


def _between(p: Sequence[float], a: Sequence[float], b: Sequence[float], width: float) -> bool:
    """Is ``p`` within ``width`` of the segment from ``a`` to ``b`` (plan view)?"""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n2 = dx * dx + dy * dy
    if n2 == 0.0:
        return False
    f = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n2
    if not 0.0 < f < 1.0:
        return False
    return math.hypot(p[0] - (a[0] + f * dx), p[1] - (a[1] + f * dy)) < width


def held_samples(record: ShotRecord) -> ShotRecord:
    """A recorded stroke (no ball samples: rows 12-14 and 17 of the library) with the places its own events
    give each ball, held from one event to the next: the start, where it hangs over a pocket, where it is
    recorded touching something, where it ends. The replay then shows the record as it stands (a hanging
    ball at the lip until it drops), never a path the record does not have."""
    from dataclasses import replace

    if record.samples:
        return record
    R = float(record.params.get("R", 0.0) or 0.0) or next((p[2] for p in record.initial.values()), 0.03)
    places: dict[str, list[tuple[float, Vec3]]] = {
        b: [(0.0, (float(p[0]), float(p[1]), float(p[2]) if len(p) > 2 else R))]
        for b, p in record.initial.items()
    }
    end = record.duration
    for e in sorted(record.events, key=lambda e: e.t):
        if e.ball is not None and e.pos is not None and e.ball in places and e.type != EventType.POCKETED:
            places[e.ball].append((e.t, (float(e.pos[0]), float(e.pos[1]), float(e.pos[2]))))
    for b, f in record.final.items():
        if b in places and f.pos is not None:
            places[b].append((end, (float(f.pos[0]), float(f.pos[1]), float(f.pos[2]))))
    samples: dict[str, tuple[tuple[float, ...], ...]] = {}
    for b, pts in places.items():
        rows: list[tuple[float, ...]] = []
        for t, p in pts:
            if rows and t > rows[-1][0] + 1e-6:
                rows.append((t - 1e-6, *rows[-1][1:4], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
            if rows and abs(t - rows[-1][0]) <= 1e-6:
                rows[-1] = (rows[-1][0], *p, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            else:
                rows.append((t, *p, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
        samples[b] = tuple(rows)
    return replace(record, samples=samples)  # type: ignore[arg-type]
