"""Judging a stroke someone other than the striker disturbed, from the same stroke simulated without it.

An outsider (WPBSA S3 R15) or the opponent (003 «Вмешательство соперника»: the position «восстанавливается
судьей с максимальной точностью», and a ball he stopped on its way to a pocket counts) disturbed balls; only
the physics can say where they would have come to rest, so the caller passes the undisturbed run
(``Referee.judge(..., undisturbed=...)``; a trainer case stores it as ``[undisturbed]``). :func:`referee_view`
takes, from the first disturbing touch on, the motion of every disturbed ball from that run and everything
else from the stroke as it happened; the stroke is then judged as usual.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import replace

from physics.record import BallId, Event, EventType, ShotRecord
from physics.tables import TableSpec
from rules.contract import Point
from rules.placement import is_free

# Agents outside the game whose touch of a ball is outside interference (003, 000 §16, WPBSA S3 R15).
OUTSIDE_AGENTS = frozenset({"outsider", "spectator", "referee", "wind"})


def disturbed_balls(
    actual: ShotRecord, undisturbed: ShotRecord, touched: set[BallId], t0: float
) -> set[BallId]:
    """The balls whose motion an outsider changed: those it touched, and from ``t0`` on every ball one of them
    met in either run (the runs are the same stroke, so before ``t0`` and apart from these they agree)."""
    out = set(touched)
    grown = True
    while grown:
        grown = False
        for rec in (actual, undisturbed):
            for e in rec.events:
                if (
                    e.t >= t0
                    and e.type == EventType.BALL_BALL
                    and e.balls is not None
                    and (e.balls[0] in out) != (e.balls[1] in out)
                ):
                    out.update(e.balls)
                    grown = True
    return out


def referee_view(
    actual: ShotRecord, undisturbed: ShotRecord, touches: Collection[Event] | None = None
) -> tuple[ShotRecord, str, float, tuple[BallId, ...]]:
    """The stroke as the referee judges it: (record, agent, first touch, disturbed balls).

    ``touches``: the disturbing ``touched`` events of ``actual`` (default: those of an outside agent). Events
    before the first of them are the stroke's own; after it, events of disturbed balls come from the
    undisturbed run and the rest from the stroke; the disturbing touches are left out. Disturbed balls end
    where the undisturbed run leaves them (on the bed, in a pocket or off the table)."""
    if touches is None:
        touches = [e for e in actual.events if e.type == EventType.TOUCHED and e.object in OUTSIDE_AGENTS]
    hits = [e for e in touches if e.ball is not None]
    t0 = min(e.t for e in hits)
    agent = str(next(e.object for e in hits if e.t == t0))
    moved = disturbed_balls(actual, undisturbed, {str(e.ball) for e in hits}, t0)
    disturbing = set(hits)

    def mine(e: Event) -> bool:
        return any(e.involves(b) for b in moved)

    def touch(e: Event) -> bool:
        return e in disturbing or (e.type == EventType.TOUCHED and e.object in OUTSIDE_AGENTS)

    events = [e for e in actual.events if not touch(e) and (e.t < t0 or not mine(e))]
    events += [e for e in undisturbed.events if e.t >= t0 and mine(e) and not touch(e)]
    events.sort(key=lambda e: e.t)  # stable: the stroke's own events first at equal times
    final = dict(actual.final)
    for b in moved:
        if b in undisturbed.final:
            final[b] = undisturbed.final[b]
    order = [b for b in actual.final if b in moved] + sorted(b for b in moved if b not in actual.final)
    view = replace(
        actual,
        events=tuple(events),
        final=final,
        samples=None,
        duration=max(actual.duration, undisturbed.duration),
    )
    return view, agent, t0, tuple(order)


def free_point(table: TableSpec, p: Point, others: Mapping[BallId, Point]) -> Point:
    """``p`` if no ball stands within two radii, else the nearest free point on the bed found on rings of
    quarter-radius steps around it (only a hand-made undisturbed run can ask for an occupied place)."""
    r = table.ball_radius
    lx, ly = table.half_length - table.cushion_reach, table.half_width - table.cushion_reach

    def free(q: Point) -> bool:
        return abs(q[0]) <= lx and abs(q[1]) <= ly and is_free(q, others, r)

    if free(p):
        return p
    for k in range(1, 400):
        n = 8 * k
        for j in range(n):
            a = 2 * math.pi * j / n
            q = (p[0] + k * r / 4 * math.cos(a), p[1] + k * r / 4 * math.sin(a))
            if free(q):
                return q
    return p
