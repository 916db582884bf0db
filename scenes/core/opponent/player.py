"""The computer player: it chooses a stroke (:func:`choose`), a decision after a ruling (:func:`decide`),
and plays the stroke with its level's human errors (:func:`perform`).

:func:`choose` is a pure function of the match state, the level and a seed: plain data in, plain data out,
so the window can run it in a worker process. It asks the cheap model (``geometry.py``) for candidates,
simulates the most promising ones with the project's physics (``physics.simulate.simulate``), has the game's
referee judge each (``Referee.judge``), carries each ruling out (``MatchState.apply``) and scores what the
striker gains: the points or balls, the frame, and the position left: the best pot it leaves the striker if
he stays at the table, the best the opponent gets if not. A pot that went in without noise is weighed by the
chance the level has of making it (its aim error against the pot's tolerance). The stroke returned is always
one the full physics ran and the referee judged.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from physics.errors import InputError
from physics.objects import SceneObject
from physics.params import PhysicsParams
from physics.record import BallStatus, EventType, ShotParams, ShotRecord
from physics.simulate import simulate
from rules.registry import get_referee
from rules.ruling import Ruling
from rules.state import MatchState
from scenes.core.opponent.candidates import (
    Candidate,
    Seat,
    break_strokes,
    escape_strokes,
    legal_targets,
    placements,
    pot_candidates,
    pot_strokes,
    safety_strokes,
    spread,
    struck_balls,
)
from scenes.core.opponent.geometry import REFERENCE_AIM, Point, Pot, aim_point, pots_for
from scenes.core.opponent.levels import Level
from scenes.core.turns import break_gain, decision_of, offered_options

BALL = 10.0  # a point (or a ball where only balls count) is worth this much
FRAME = 1000.0  # winning or losing the frame outweighs everything else
FOUL = 12.0  # a foul costs this beside the points it gives away
POSITION = 8.0  # the best pot left, ease 0..1, is worth this much
IN_HAND_EASE = 0.85  # a ball in hand nearly always gives a pot
MAX_ELEVATION = 89.0
ESCAPES = 12  # strokes tried to escape a snooker (kicks off one and two cushions, then a fan)
DEPARTURE_SEEN = 0.05  # m: the object ball's first position this far from its start shows its line
MAX_TURN = 1.0  # degrees: a correction larger than this is a different stroke, not a better aim
TIP_LIMIT = 0.8  # radii: the noisy tip is kept on the ball's face


@dataclass(frozen=True)
class Plan:
    """The stroke chosen: the ``suggest`` JSON of docs/formats.md (``to_dict``), with the search's own figures."""

    shot: ShotParams
    place: Point | None
    intent: str
    think_s: float
    score: float
    simulated: int
    cpu_s: float = (
        0.0  # the process's CPU time for the same thinking (what a loaded machine does not inflate)
    )

    def to_dict(self) -> dict[str, Any]:
        shot = self.shot.to_dict()
        shot["cue"] = self.shot.cue
        return {
            "shot": shot,
            "place": [round(self.place[0], 6), round(self.place[1], 6)] if self.place is not None else None,
            "intent": self.intent,
            "think_s": round(self.think_s, 3),
        }


@dataclass(frozen=True)
class Tried:
    candidate: Candidate
    ruling: Ruling
    value: float


def choose(
    state: MatchState,
    level: Level,
    seed: int = 0,
    params: PhysicsParams | None = None,
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
    objects: Sequence[SceneObject] = (),
) -> Plan:
    """The stroke the computer at ``level`` plays from ``state`` (the balls are ``state.balls``; a ball in
    hand is placed by the plan). Deterministic for the same arguments (``seed`` orders equal choices)."""
    t0, c0 = time.perf_counter(), time.process_time()
    ref = get_referee(state.game, state.the_rules().table_played)
    p = params or PhysicsParams.for_table(ref.table)
    seat = Seat(ref, state, p, level)
    rng = random.Random(seed)
    tried: list[Tried] = []

    def run(cands: Sequence[Candidate], cap: int) -> None:
        for c in cands[: max(0, cap - len(tried))]:
            tried.append(_try(seat, c, p, lamp, objects)[0])

    targets = legal_targets(ref, state)
    if state.is_break:
        run(break_strokes(seat, targets, level.breaks), level.budget)
    else:
        pot_room = level.budget - level.safeties
        for pot, place in _pot_shortlist(seat, targets):
            if len(tried) >= pot_room:
                break
            tried.extend(_play_pot(seat, pot, place, p, lamp, objects, pot_room - len(tried)))
        place = _safety_place(seat, targets) if seat.in_hand else None
        if level.safeties:
            run(spread(safety_strokes(seat, targets, place), level.safeties), level.budget)
        if not any(not t.ruling.foul for t in tried):
            # Snookered: the escapes are played whatever is left of the budget (a foul is the alternative).
            run(spread(escape_strokes(seat, targets, place), ESCAPES), len(tried) + ESCAPES)
    if not tried:  # nothing to aim at that geometry sees: any stroke the referee can judge
        fan = escape_strokes(seat, targets, _safety_place(seat, targets) if seat.in_hand else None)
        run(fan[-ESCAPES:], ESCAPES)
    rng.shuffle(tried)  # equal scores are broken by the seed, not by the order candidates were made in
    best = max(tried, key=lambda t: t.value)
    c, r = best.candidate, best.ruling
    # A safety that pots a ball and keeps the table is a pot: say what the stroke is for.
    keeps = not r.foul and r.counted and r.next_player == r.striker
    intent = "pot" if keeps and c.intent in ("safety", "escape") else c.intent
    cpu = time.process_time() - c0
    return Plan(c.shot, c.place, intent, time.perf_counter() - t0, best.value, len(tried), cpu)


def _pot_shortlist(seat: Seat, targets: list[str]) -> list[tuple[Pot, Point | None]]:
    """The level's ``pots`` easiest pots by the cheap model's ranking (one per ball, pocket and kind)."""
    lv = seat.level
    aim = math.radians(max(lv.aim_deg, 0.05))
    found = pot_candidates(seat, targets)
    weight = {"": 1.0, "bank": 0.6, "combination": 0.7}
    found.sort(key=lambda pp: -pp[0].ease(aim) * weight.get(pp[0].via, 0.5))
    chosen: list[tuple[Pot, Point | None]] = []
    seen: set[tuple[str, str, str, str]] = set()
    for pot, place in found:
        key = (pot.struck, pot.target, pot.pocket, pot.via)
        if key not in seen:
            seen.add(key)
            chosen.append((pot, place))
        if len(chosen) >= lv.pots:
            break
    return chosen


def _play_pot(
    seat: Seat,
    pot: Pot,
    place: Point | None,
    p: PhysicsParams,
    lamp: tuple[float, float, float] | None,
    objects: Sequence[SceneObject],
    room: int,
) -> list[Tried]:
    """At most ``room`` of a pot's strokes simulated: the first (stun) one corrected up to ``refine`` times by the error the
    object ball showed (the collision's throw, the cushion near the pocket: what the ghost ball leaves out),
    and the other speeds and spins then aimed with the same correction."""
    strokes = pot_strokes(seat, [(pot, place)], seat.level.variants)
    out: list[Tried] = []
    turn = 0.0
    for i, c in enumerate(strokes):
        if len(out) >= room:
            break
        c = _turned(c, turn)
        tried, record = _try(seat, c, p, lamp, objects)
        out.append(tried)
        for _ in range(seat.level.refine if i == 0 else 0):
            err = _object_error(seat, record, pot) if len(out) < room else None
            if err is None:
                break
            # The object ball turns by about the cue ball's turn times d1 / (2R cos(cut)) (geometry.py).
            step = err * 2.0 * seat.spec.ball_radius * math.cos(math.radians(pot.cut)) / max(pot.d1, 1e-3)
            step = max(-MAX_TURN, min(MAX_TURN, step))
            turn += step
            c = _turned(c, step)
            tried, record = _try(seat, c, p, lamp, objects)
            out.append(tried)
    return out


def _turned(c: Candidate, degrees: float) -> Candidate:
    return replace(c, shot=replace(c.shot, direction=(c.shot.direction + degrees) % 360.0))


def _object_error(seat: Seat, record: ShotRecord, pot: Pot) -> float | None:
    """How many degrees the object ball left off its line to the pocket (None: it went in, or it never
    moved far enough to tell)."""
    final = record.final.get(pot.target)
    if final is None or final.status == BallStatus.POCKETED:
        return None
    o = seat.state.balls[pot.target]
    seen: tuple[float, float] | None = None
    touches = [
        e for e in record.events if e.involves(pot.target) and (e.type != EventType.BALL_BALL or e.pos)
    ]
    for k, e in enumerate(touches):
        if k > 0 and e.type == EventType.BALL_BALL:
            return None  # it met another ball before its line showed: nothing to learn about the aim
        if e.type != EventType.BALL_BALL and e.pos is not None and math.dist(e.pos[:2], o) > DEPARTURE_SEEN:
            seen = (e.pos[0], e.pos[1])
            break
    if seen is None and final.pos is not None and math.dist(final.pos[:2], o) > DEPARTURE_SEEN:
        seen = (final.pos[0], final.pos[1])
    if seen is None:
        return None
    aim = aim_point(seat.spec, seat.spec.pockets[pot.pocket])
    want = math.atan2(aim[1] - o[1], aim[0] - o[0])
    went = math.atan2(seen[1] - o[1], seen[0] - o[0])
    return math.degrees(math.remainder(want - went, 2.0 * math.pi))


def _safety_place(seat: Seat, targets: list[str]) -> Point | None:
    """Where the ball in hand goes for a safety: the allowed place nearest a target ball with it in view."""
    spots = placements(seat, targets)
    if not spots:
        return None
    balls = seat.state.balls
    if not targets:
        return spots[0]
    return min(spots, key=lambda p: min(math.dist(p, balls[t]) for t in targets))


def layout_for(state: MatchState, place: Point | None) -> dict[str, Point]:
    """The balls as the stroke starts: the state's, and the ball in hand where it was put."""
    layout = dict(state.balls)
    if place is not None:
        layout[state.cue] = place
    return layout


def _try(
    seat: Seat,
    c: Candidate,
    p: PhysicsParams,
    lamp: tuple[float, float, float] | None,
    objects: Sequence[SceneObject],
) -> tuple[Tried, ShotRecord]:
    record = simulate(seat.ref.table, layout_for(seat.state, c.place), c.shot, p, objects, lamp)
    ruling = seat.ref.judge(seat.state, record, None, objects)
    value = outcome_value(seat, ruling)
    if c.pot is not None and not ruling.foul and ruling.next_player == ruling.striker and ruling.counted:
        # It went in without noise; with the level's errors it goes in this often, else the turn passes.
        chance = c.pot.ease(math.radians(max(seat.level.aim_deg, 0.05)))
        value = chance * value + (1.0 - chance) * -POSITION * (0.7 if seat.level.reply else 0.5)
    return Tried(c, ruling, value), record


def outcome_value(seat: Seat, ruling: Ruling) -> float:
    """What a judged stroke is worth to its striker (module docstring)."""
    me = ruling.striker
    if ruling.replay:
        return -1.0
    if ruling.frame_over:
        return FRAME if ruling.winner == me else -FRAME
    value = 0.0
    if not ruling.foul:
        value += BALL * break_gain(ruling)
    else:
        value -= FOUL
    value -= BALL * sum(max(0, int(pt)) for i, pt in enumerate(ruling.points) if i != me)
    value += BALL * min(0, int(ruling.points[me])) if me < len(ruling.points) else 0.0
    try:
        after = seat.state.apply(ruling, None)
    except (InputError, ValueError):
        return value
    lv = seat.level
    if after.to_play == me:
        if lv.position:
            value += POSITION * best_ease(after, math.radians(max(lv.aim_deg, 0.05)))
    elif lv.reply:
        value -= POSITION * best_ease(after, REFERENCE_AIM)
    else:
        value -= POSITION * 0.5
    return value


def best_ease(state: MatchState, aim_sd: float) -> float:
    """The chance of the easiest pot the player to play has in ``state`` (a ball in hand: IN_HAND_EASE)."""
    if state.frame_over:
        return 0.0
    ref = get_referee(state.game, state.the_rules().table_played)
    targets = legal_targets(ref, state)
    if not targets:
        return 0.0
    if state.in_hand is not None:
        return IN_HAND_EASE
    pots = pots_for(ref.table, state.balls, struck_balls(ref, state), targets)
    return max((pt.ease(aim_sd) for pt in pots), default=0.0)


def decide(state: MatchState, ruling: Ruling, level: Level) -> str | None:
    """The computer's choice after ``ruling`` (an offered option, a ball to remove), or None when nothing is
    offered or the choice is a lag (the players lag for it on the table: the caller's business)."""
    options = [o for o in offered_options(ruling, state.n_players) if not o.startswith("lag:")]
    if not options:
        return None
    decider = ruling.choice.by if ruling.choice is not None else ruling.next_player
    aim = math.radians(max(level.aim_deg, 0.05))

    def worth(option: str) -> float:
        after = state.apply(ruling, decision_of(option))
        if after.frame_over:
            return FRAME if after.winner == decider else -FRAME
        lead = after.scores[decider] - max((s for i, s in enumerate(after.scores) if i != decider), default=0)
        ease = best_ease(after, aim if after.to_play == decider else REFERENCE_AIM)
        return BALL * lead + (POSITION * ease if after.to_play == decider else -POSITION * ease)

    return max(options, key=worth)


def perform(shot: ShotParams, level: Level, rng: random.Random) -> ShotParams:
    """The stroke as the level plays it: its speed, aim, tip and elevation errors drawn from ``rng``."""
    speed = shot.cue_speed * max(0.05, 1.0 + rng.gauss(0.0, level.speed_sd))
    direction = (shot.direction + rng.gauss(0.0, level.aim_deg)) % 360.0
    tx, ty = shot.tip[0] + rng.gauss(0.0, level.tip_sd), shot.tip[1] + rng.gauss(0.0, level.tip_sd)
    r = math.hypot(tx, ty)
    if r > TIP_LIMIT:
        tx, ty = tx * TIP_LIMIT / r, ty * TIP_LIMIT / r
    elevation = min(MAX_ELEVATION, shot.elevation + abs(rng.gauss(0.0, level.elevation_deg)))
    return replace(shot, cue_speed=speed, direction=direction, tip=(tx, ty), elevation=elevation)
