"""Facts about one stroke the pocket games of this package read beyond :class:`rules.base.Stroke`.

Rails reached after the first contact (a ball frozen to a cushion does not "reach" that cushion
again: 000 «Шар на борту»), whether the cue ball left the cloth, and the cue ball's own contacts.
"""

from __future__ import annotations

from physics.record import BallId, EventType, ShotRecord
from physics.tables import TableSpec
from rules import filters as F

# Events closer than this in time are one instant (contacts found in the same physics substep).
SAME_INSTANT = 1e-6
# Below this elevation a cue counts as level for the scoop call, as in the physics' own call
# (physics/cue.py, SCOOP_MIN_ELEVATION_DEG; physics.md §3.5): every real cue is raised a few degrees
# over the rail, and a near-level cue cannot dig under the ball.
SCOOP_MIN_ELEVATION_DEG = 5.0


def frozen_at_start(record: ShotRecord, table: TableSpec) -> dict[BallId, set[str]]:
    """Cushions each ball was frozen to when the stroke began."""
    out: dict[BallId, set[str]] = {}
    for b, p in record.initial.items():
        out[b] = set(F.frozen_to_cushion(table, (p[0], p[1])))
    return out


def rails_reached(record: ShotRecord, table: TableSpec, since: float | None) -> set[BallId]:
    """Balls that reached a cushion (or a pocket jaw, part of the cushion) at or after ``since``.

    A ball frozen to a cushion at the start does not count for that cushion: it was already there
    (000 «Шар на борту»). ``since`` None means no contact happened: nothing counts.
    """
    if since is None:
        return set()
    frozen = frozen_at_start(record, table)
    out: set[BallId] = set()
    for e in record.events:
        if e.type not in (EventType.CUSHION, EventType.POCKET_JAW) or e.ball is None:
            continue
        if e.t < since - SAME_INSTANT:
            continue
        if e.type == EventType.CUSHION and e.cushion in frozen.get(e.ball, set()):
            continue
        out.add(e.ball)
    return out


def simultaneous_first(record: ShotRecord, cue: BallId) -> list[BallId]:
    """Every ball the cue ball met at the instant of its first contact."""
    out: list[BallId] = []
    t0: float | None = None
    for e in F.select(record.events, F.by_type(EventType.BALL_BALL), F.by_ball(cue)):
        if t0 is None:
            t0 = e.t
        if e.t - t0 > SAME_INSTANT:
            break
        o = F.other(e, cue)
        if o not in out:
            out.append(o)
    return out


def airborne(record: ShotRecord, ball: BallId) -> bool:
    return F.first(record.events, F.by_type(EventType.AIRBORNE), F.by_ball(ball)) is not None


def crossed_before(record: ShotRecord, ball: BallId, line: str, until: float | None) -> bool:
    """Did ``ball``'s centre cross ``line`` before time ``until`` (None: at any time)?"""
    for e in F.select(record.events, F.by_type(EventType.LINE_CROSSED), F.by_ball(ball)):
        if e.line == line and (until is None or e.t < until):
            return True
    return False


def scooped(record: ShotRecord, cue: BallId, flagged: bool) -> bool:
    """A scoop: the strike event says so, or the declared shot hit below centre with a raised cue and the
    stroke itself lifted the cue ball - it left the cloth before touching anything (a legal jump is struck
    down on the upper half: 000 «Правильный перескок»). A hop later in the stroke, off a ball or a cushion,
    is not the cue's doing."""
    if flagged:
        return True
    shot = record.shot
    if shot is None or shot.elevation < SCOOP_MIN_ELEVATION_DEG or shot.tip[1] >= 0.0:
        return False
    lift = F.first(record.events, F.by_type(EventType.AIRBORNE), F.by_ball(cue))
    if lift is None:
        return False
    touch = F.first(
        record.events, F.by_type(EventType.BALL_BALL, EventType.CUSHION, EventType.POCKET_JAW), F.by_ball(cue)
    )
    return touch is None or lift.t <= touch.t
