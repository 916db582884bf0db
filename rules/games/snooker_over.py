"""Did the cue ball pass over the ball it touched? (WPBSA's jump shot: over any part of a ball, touching it
or not.)

The physics names a ``jumped_over`` only for a ball the cue ball passed without touching, so a cue ball that
meets the top of a ball in the air and flies on over it reaches the referee as a plain contact. The record
still shows it: the cue ball's positions after the touch (its take-offs, landings and line crossings carry
them) and the ball's own, between which each moves on a straight line across the table while it flies. The
cue ball passed over the ball when, still in the air after the touch, it was higher than the ball, within two
radii of it across, and beyond it along its own travel - at the same instant, so a ball knocked away from under
the cue ball is not jumped by a cue ball that follows through over the spot where it stood.
"""

from __future__ import annotations

import math

from physics.record import BallId, Event, EventType, ShotRecord
from physics.tables import load_table
from rules.games import pool_events as PE

Track = list[tuple[float, tuple[float, float, float]]]
# Instants the two tracks are compared at, besides the cue ball's own events: fine enough that a 1 m/s
# cue ball moves less than a tenth of a radius between them.
STEP_S = 0.002
# Events that end the cue ball's flight after the touch (it met something, or came down).
_ENDS = (EventType.LANDED, EventType.BALL_BALL, EventType.CUSHION, EventType.POCKET_JAW, EventType.POCKETED)


def _airborne_at(record: ShotRecord, ball: BallId, t: float) -> bool:
    state = False
    for e in record.events:
        if e.t > t + PE.SAME_INSTANT:
            break
        if e.ball == ball and e.type in (EventType.AIRBORNE, EventType.LANDED):
            state = e.type == EventType.AIRBORNE
    return state


def _cue_flight(record: ShotRecord, cue: BallId, touch: Event) -> Track:
    """The cue ball's positions from the touch to the end of its flight (its next landing or contact)."""
    assert touch.pos is not None
    track: Track = [(touch.t, (touch.pos[0], touch.pos[1], touch.pos[2]))]
    for e in record.events:
        if e.t <= touch.t + PE.SAME_INSTANT or not e.involves(cue):
            continue
        if e.ball == cue and e.pos is not None:
            track.append((e.t, (e.pos[0], e.pos[1], e.pos[2])))
        if e.type in _ENDS:
            break
    return track


def _ball_track(record: ShotRecord, ball: BallId, since: float) -> Track:
    """The touched ball's known positions from the touch on: where it stood, then each event of its own."""
    start = record.initial.get(ball)
    track: Track = []
    if start is not None:
        track.append((since, (start[0], start[1], start[2])))
    for e in record.events:
        if e.t >= since - PE.SAME_INSTANT and e.ball == ball and e.pos is not None:
            track.append((max(e.t, since), (e.pos[0], e.pos[1], e.pos[2])))
    return track


def _at(track: Track, t: float) -> tuple[float, float, float]:
    """Linear between known positions; held at the last one after it."""
    if t <= track[0][0]:
        return track[0][1]
    for (t0, p0), (t1, p1) in zip(track, track[1:], strict=False):
        if t0 <= t <= t1:
            f = 0.0 if t1 <= t0 else (t - t0) / (t1 - t0)
            return (p0[0] + f * (p1[0] - p0[0]), p0[1] + f * (p1[1] - p0[1]), p0[2] + f * (p1[2] - p0[2]))
    return track[-1][1]


def passes_over_after_touch(record: ShotRecord, cue: BallId, first: BallId, first_t: float) -> bool:
    """Was the cue ball in the air when it met ``first``, and did it then pass over it (module docstring)?"""
    touch = next(
        (
            e
            for e in record.events
            if e.type == EventType.BALL_BALL
            and e.involves(cue)
            and e.involves(first)
            and e.t >= first_t - 1e-9
        ),
        None,
    )
    if touch is None or touch.balls is None or touch.balls[0] != cue or touch.pos is None:
        return False  # the contact's place is its first ball's: without the cue ball's, nothing to read
    if not _airborne_at(record, cue, touch.t):
        return False
    flight = _cue_flight(record, cue, touch)
    ball = _ball_track(record, first, touch.t)
    if len(flight) < 2 or not ball:
        return False
    R = load_table(record.table).ball_radius
    t, end = touch.t, flight[-1][0]
    while t <= end:
        c = _at(flight, t)
        o = _at(ball, t)
        nxt = _at(flight, min(t + STEP_S, end))
        ux, uy = nxt[0] - c[0], nxt[1] - c[1]
        moving = math.hypot(ux, uy)
        dx, dy = c[0] - o[0], c[1] - o[1]
        if moving > 0.0 and c[2] > o[2] and math.hypot(dx, dy) < 2.0 * R and (dx * ux + dy * uy) > 0.0:
            return True
        t += STEP_S
    return False
