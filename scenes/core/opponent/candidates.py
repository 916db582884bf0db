"""The strokes the computer considers: pots, banks, combinations, safeties, escapes, breaks, placements.

Each :class:`Candidate` is a complete stroke (a scenario ``[shot]``, the place of the ball in hand, the
call) that the search simulates and the referee judges (``player.py``). Which balls may be aimed at, what
must be called and where the ball in hand may go come from the game's referee: ``ball_on``, ``required``
and ``may_place`` (``rules/base.py``); nothing here knows a game by name.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from physics.cue import cue_speed_for
from physics.params import PhysicsParams
from physics.record import ShotParams
from physics.tables import TableSpec
from rules.contract import CallKind, Required
from rules.state import MatchState
from scenes.core.opponent.geometry import (
    Point,
    Pot,
    bank_pots,
    clear,
    combination_pots,
    heading,
    kick_aims,
    pots_for,
)
from scenes.core.opponent.levels import Level

G = 9.81
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
POCKET_SPEED = (
    0.35  # m/s: the speed an object ball is sent to arrive at the pocket with (firm enough to drop)
)
ELEVATION = 2.0  # degrees: a cue over the rail is never quite level
MAX_SPEED = 7.0  # m/s of the cue: harder than this only a break is played
# (speed factor, tip [right, up]) of the strokes tried for one pot: stun, follow, draw, firmer, softer.
VARIANTS: tuple[tuple[float, tuple[float, float]], ...] = (
    (1.0, (0.0, 0.0)),
    (1.5, (0.0, 0.35)),
    (1.6, (0.0, -0.35)),
    (2.2, (0.0, 0.0)),
    (0.8, (0.0, 0.2)),
    (1.8, (0.0, 0.15)),
)


@dataclass(frozen=True)
class Candidate:
    """One stroke to try: ``place`` is where the ball in hand goes; ``pot`` the pot it plays, if any."""

    shot: ShotParams
    place: Point | None
    intent: str
    pot: Pot | None = None


@dataclass
class Seat:
    """The position as the player at the table sees it: the referee, the state and what it requires."""

    ref: Any  # rules.base.Referee
    state: MatchState
    params: PhysicsParams
    level: Level
    required: Required = field(init=False)

    def __post_init__(self) -> None:
        self.required = self.ref.required(self.state)

    @property
    def spec(self) -> TableSpec:
        table: TableSpec = self.ref.table
        return table

    @property
    def in_hand(self) -> bool:
        return self.state.in_hand is not None


def legal_targets(ref: Any, state: MatchState) -> list[str]:
    """The object balls the striker may aim at first, from the referee's ``ball_on`` (a group or ids)."""
    objs = [b for b in state.balls if b != state.cue]
    on = tuple(ref.ball_on(state))
    if not on or "any" in on:
        return objs
    wanted: set[str] = set()
    for g in on:
        if g == "red":
            wanted |= {b for b in objs if b.startswith("red")}
        elif g == "colour":
            wanted |= {b for b in objs if b in COLOURS}
        elif g in ("solids", "stripes"):
            lo, hi = (1, 7) if g == "solids" else (9, 15)
            wanted |= {b for b in objs if b.isdigit() and lo <= int(b) <= hi}
        else:
            wanted.add(g)
    return [b for b in objs if b in wanted]


def struck_balls(ref: Any, state: MatchState) -> dict[str, Point]:
    """The balls the striker may strike and where they stand (Американка: any ball on the table)."""
    if state.in_hand is not None:
        return {}
    if ref.any_ball_cue:
        return dict(state.balls)
    return {state.cue: state.balls[state.cue]} if state.cue in state.balls else {}


def with_call(seat: Seat, shot: ShotParams, target: str | None, pocket: str | None) -> ShotParams:
    """The shot with the declaration the referee requires: ball and pocket, or the nominated colour."""
    kind = seat.required.call
    if kind == CallKind.BALL_AND_POCKET and target is not None:
        return replace(shot, call_ball=target, call_pocket=pocket)
    if kind in (CallKind.COLOUR, CallKind.FREE_BALL) and target is not None:
        return replace(shot, call_ball=target)
    return shot


def pot_speed(p: PhysicsParams, pot: Pot, factor: float, rho: float) -> float:
    """The cue speed that sends the object ball to the pocket at about POCKET_SPEED, times ``factor``.

    Rolling resistance decelerates a rolling ball by mu_roll g; a ball struck through its centre, and an
    object ball after a collision, slide first and roll on at 5/7 of their speed (docs/physics.md §Cloth: sliding to
    rolling); a collision gives the object ball (1 + e)/2 of the cue ball's speed along the line of centres."""
    a = p.mu_roll * G
    v_obj = math.sqrt(POCKET_SPEED**2 + 2.0 * a * pot.d2) * 7.0 / 5.0
    v_hit = v_obj / ((1.0 + p.e_ball) / 2.0 * max(math.cos(math.radians(pot.cut)), 0.2))
    v0 = math.sqrt(v_hit**2 + 2.0 * a * pot.d1) * 7.0 / 5.0
    return min(MAX_SPEED, max(0.3, cue_speed_for(v0 * factor, rho, p)))


def placements(seat: Seat, targets: list[str]) -> list[Point]:
    """Where the ball in hand may go, as the referee allows (``may_place``): straight behind each pot's
    ghost ball, then a coarse grid over the zone."""
    spec, state, ref = seat.spec, seat.state, seat.ref
    others = dict(state.balls)
    R = spec.ball_radius
    cand: list[Point] = []
    for t in targets:
        o = others[t]
        for pocket in spec.pockets.values():
            ux, uy = pocket.centre[0] - o[0], pocket.centre[1] - o[1]
            n = math.hypot(ux, uy)
            for d in (0.25, 0.5, 0.9):
                cand.append((o[0] - ux / n * (2 * R + d), o[1] - uy / n * (2 * R + d)))
    step = 0.2
    nx, ny = int(spec.half_length / step), int(spec.half_width / step)
    cand += [(i * step, j * step) for i in range(-nx, nx + 1) for j in range(-ny, ny + 1)]
    cand.append(ref.hand_spot(state, others))
    ok = [p for p in cand if ref.may_place(state, p[0], p[1], others).ok]
    if not ok:  # a zone the coarse grid misses between balls: look again at a ball's radius apart
        fine = [
            (i * R, j * R)
            for i in range(-int(spec.half_length / R), int(spec.half_length / R) + 1)
            for j in range(-int(spec.half_width / R), int(spec.half_width / R) + 1)
        ]
        ok = [p for p in fine if ref.may_place(state, p[0], p[1], others).ok][:50]
    return list(dict.fromkeys(ok))


def pot_candidates(seat: Seat, targets: list[str]) -> list[tuple[Pot, Point | None]]:
    """Every pot geometry finds (direct, banks, combinations), each with the placement it needs."""
    spec, balls = seat.spec, dict(seat.state.balls)
    pockets = [spec.pockets[seat.required.pocket]] if seat.required.pocket in spec.pockets else None
    found: list[tuple[Pot, Point | None]] = []
    if seat.in_hand:
        for place in placements(seat, targets):
            found += [(p, place) for p in pots_for(spec, balls, {seat.state.cue: place}, targets, pockets)]
        return found
    starts = struck_balls(seat.ref, seat.state)
    found += [(p, None) for p in pots_for(spec, balls, starts, targets, pockets)]
    cue = seat.state.cue
    if cue in balls and pockets is None:
        for t in targets:
            found += [(p, None) for p in bank_pots(spec, balls, cue, balls[cue], t)]
            for other in balls:
                near = math.dist(balls[other], balls[t]) < 0.6
                if other not in (cue, t) and near:
                    found += [(p, None) for p in combination_pots(spec, balls, cue, balls[cue], t, other)]
    return found


def pot_strokes(seat: Seat, pots: list[tuple[Pot, Point | None]], variants: int) -> list[Candidate]:
    """The strokes that play each pot: aimed at its ghost ball, at the speeds and spins of VARIANTS."""
    out: list[Candidate] = []
    for pot, place in pots:
        start = place if place is not None else seat.state.balls[pot.struck]
        direction = heading(start, pot.ghost)
        for factor, tip in VARIANTS[:variants]:
            speed = pot_speed(seat.params, pot, factor, math.hypot(*tip))
            shot = ShotParams(
                ball=pot.struck, cue_speed=speed, direction=direction, elevation=ELEVATION, tip=tip
            )
            target = pot.target if pot.via != "combination" else _first_of(seat, pot, start)
            out.append(Candidate(with_call(seat, shot, target, pot.pocket), place, pot.via or "pot", pot))
    return out


def _first_of(seat: Seat, pot: Pot, start: Point) -> str:
    """The ball a combination meets first: the one whose ghost the stroke is aimed at."""
    balls = seat.state.balls
    return min(
        (b for b in balls if b not in (pot.struck, pot.target)), key=lambda b: math.dist(balls[b], pot.ghost)
    )


def contact_strokes(
    seat: Seat,
    start: Point,
    struck: str,
    targets: list[str],
    speeds: tuple[float, ...],
    offsets: tuple[float, ...],
    limit: int = 99,
) -> list[tuple[str, ShotParams]]:
    """Strokes that meet a target ball straight: full (offset 0) or thinner (offsets in ball radii from the
    line of centres), at the given ball speeds (m/s)."""
    spec = seat.spec
    R = spec.ball_radius
    out: list[tuple[str, ShotParams]] = []
    balls = dict(seat.state.balls)
    balls[struck] = start
    seen = [t for t in sorted(targets, key=lambda b: math.dist(start, balls[b])) if t != struck]
    used = 0
    for t in seen:
        d = math.dist(start, balls[t])
        base = heading(start, balls[t])
        found = False
        for off in offsets:
            lateral = max(-1.9, min(1.9, off)) * R
            if d <= 2.0 * R or abs(lateral) >= d:
                continue
            turn = math.asin(lateral / d)
            # Where the struck ball's centre is when it meets the target: along its line, 2R from the target.
            reach = d * math.cos(turn) - math.sqrt(4.0 * R * R - lateral * lateral)
            a = math.radians(base) + turn
            meet = (start[0] + reach * math.cos(a), start[1] + reach * math.sin(a))
            if not clear(start, meet, balls, (struck, t), R):
                continue
            found = True
            for v in speeds:
                shot = ShotParams(
                    ball=struck,
                    cue_speed=min(MAX_SPEED * 1.3, cue_speed_for(v, 0.0, seat.params)),
                    direction=(base + math.degrees(turn)) % 360.0,
                    elevation=ELEVATION,
                )
                out.append((t, shot))
        used += found
        if used >= limit:
            break
    return out


def safety_strokes(seat: Seat, targets: list[str], place: Point | None) -> list[Candidate]:
    """Safeties: the target met full or thin, softly, so that the stroke leaves the opponent no pot (the
    search scores what it leaves)."""
    starts = {seat.state.cue: place} if place is not None else struck_balls(seat.ref, seat.state)
    out: list[Candidate] = []
    for struck, start in starts.items():
        for t, shot in contact_strokes(seat, start, struck, targets, (0.9, 1.6), (0.0, 1.2, -1.2, 1.7, -1.7)):
            out.append(Candidate(with_call(seat, shot, t, _nearest_pocket(seat, t)), place, "safety"))
    return out


def _nearest_pocket(seat: Seat, ball: str) -> str:
    p = seat.state.balls[ball]
    return min(seat.spec.pockets.values(), key=lambda k: math.dist(k.centre, p)).id


def escape_strokes(seat: Seat, targets: list[str], place: Point | None) -> list[Candidate]:
    """Escapes from a snooker: the target reached off one cushion or two (mirror images), then a fan of
    directions all round at a medium speed for what geometry cannot see."""
    starts = {seat.state.cue: place} if place is not None else struck_balls(seat.ref, seat.state)
    out: list[Candidate] = []
    for struck, start in list(starts.items())[:1]:
        balls = dict(seat.state.balls)
        balls[struck] = start
        for t in targets:
            for direction, _kind in kick_aims(seat.spec, balls, struck, start, t):
                for v in (1.8, 2.8):
                    shot = ShotParams(
                        ball=struck,
                        cue_speed=cue_speed_for(v, 0.0, seat.params),
                        direction=direction,
                        elevation=ELEVATION,
                    )
                    out.append(Candidate(with_call(seat, shot, t, _nearest_pocket(seat, t)), place, "escape"))
        for k in range(24):
            shot = ShotParams(
                ball=struck,
                cue_speed=cue_speed_for(2.2, 0.0, seat.params),
                direction=k * 15.0,
                elevation=ELEVATION,
            )
            first = targets[0] if targets else None
            pocket = _nearest_pocket(seat, first) if first is not None else None
            out.append(Candidate(with_call(seat, shot, first, pocket), place, "escape"))
    return out


def break_strokes(seat: Seat, targets: list[str], n: int) -> list[Candidate]:
    """The break: from the referee's hand spot (and beside it) at the nearest balls of the rack, full and
    thin, hard and soft; the search keeps what the referee accepts and scores best."""
    state, ref = seat.state, seat.ref
    starts: Sequence[tuple[str, Point, Point | None]]
    if seat.in_hand:
        others = dict(state.balls)
        hs = ref.hand_spot(state, others)
        spots = [
            p for p in (hs, (hs[0], hs[1] + 0.2), (hs[0], hs[1] - 0.2)) if ref.may_place(state, *p, others).ok
        ]
        starts = [(state.cue, p, p) for p in spots[:2]]
    else:
        starts = [(b, p, None) for b, p in struck_balls(ref, state).items()][:1]
    out: list[Candidate] = []
    for struck, start, place in starts:
        tried = contact_strokes(
            seat, start, struck, targets, (8.0, 5.0, 3.0), (0.0, 0.6, -0.6, 1.6, -1.6), limit=3
        )
        for t, shot in tried:
            out.append(Candidate(with_call(seat, shot, t, _nearest_pocket(seat, t)), place, "break"))
    return spread(out, n)


def spread(items: list[Candidate], n: int) -> list[Candidate]:
    """``n`` of ``items`` evenly spaced through the list (a budget that still sees every kind)."""
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]
