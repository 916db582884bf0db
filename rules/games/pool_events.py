"""Facts about one stroke the pocket games of this package read beyond :class:`rules.base.Stroke`.

Rails reached after the first contact (a ball frozen to a cushion does not "reach" that cushion
again: 000 «Шар на борту»), whether the cue ball left the cloth, and the cue ball's own contacts.
"""

from __future__ import annotations

from physics.cues import DEFAULT_CUE, cue_for
from physics.record import BallId, EventType, ShotRecord
from physics.tables import TableSpec, load_table
from physics.tip import tip_clearance
from rules import filters as F

# Events closer than this in time are one instant (contacts found in the same physics substep).
SAME_INSTANT = 1e-6


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
    """A scoop: the strike event says so, or the declared shot puts the tip on the cloth as it meets the
    ball (the physics' own geometry, physics.tip: docs/strike.md). A draw with a raised cue whose tip stays
    clear of the cloth is an ordinary stroke, and a legal jump is one struck down into the slate
    (000 «Правильный перескок»)."""
    if flagged:
        return True
    shot = record.shot
    if shot is None or shot.tip[1] >= 0.0:
        return False
    return _tip_clearance(record, shot.tip, shot.elevation) <= 0.0


def _tip_clearance(record: ShotRecord, tip: tuple[float, float], elevation: float) -> float:
    """The tip's lowest point above the cloth for the record's ball and cue: the record's own parameters
    where it carries them (a physics record does), the table's cue otherwise."""
    params = record.params
    kind = params.get("cue", DEFAULT_CUE)
    c = cue_for(record.table, kind if isinstance(kind, str) else DEFAULT_CUE)

    def number(key: str, default: float) -> float:
        v = params.get(key)
        return float(v) if isinstance(v, float | int) else default

    R = number("R", load_table(record.table).ball_radius)
    return tip_clearance(
        tip, elevation, R, number("tip_radius", c.tip_radius), number("tip_width", c.tip_width)
    )
