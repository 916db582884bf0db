"""New cases from library strokes: vary the shot with a noise model, keep outcomes in a wanted category.

``python main.py train --generate N --game G [--category C] [--seed S] [--out DIR]``

The noise is the computational-pool model (physics.md §2.2: σ of 0.125° in direction, 0.1° in elevation,
0.075 m/s in speed, 0.5 mm in tip offset), scaled up step by step when the wanted outcome is rare: a human
stroke varies far more than a robot's, and a rare call (a ball off the lamp) needs a wide search.
Each kept stroke is simulated, judged under every rulebook of its base case, and written as a case file
with its expected rulings; the same seed gives the same files.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from physics.errors import InputError
from physics.record import BallStatus, EventType, ShotParams, ShotRecord
from physics.scenario import Scenario
from scenes.trainer.cases import (
    Case,
    Expected,
    Topic,
    case_toml,
    load_library,
    physics_params,
    rule,
    user_cases_dir,
)

CLI = "command line"

# physics.md §2.2, computational-pool noise (σ per shot parameter).
SIGMA_DIRECTION = 0.125  # degrees
SIGMA_ELEVATION = 0.1  # degrees
SIGMA_SPEED = 0.075  # m/s
SIGMA_TIP = 0.0005  # m of contact offset
SCALES = (1.0, 4.0, 16.0, 64.0)  # noise multipliers tried in turn while the category stays rare
ATTEMPTS_PER_SCALE = 12


@dataclass(frozen=True)
class Features:
    """What happened in a stroke, in the terms the categories and topics use."""

    off_rest: frozenset[str]  # rest places of balls off the table: floor, rail, ...
    touched: frozenset[str]  # objects touched: rail_top, lamp, chalk, person, floor, ...
    returned: bool  # some ball left the bed and came back by itself
    jumped_over: bool
    airborne: bool
    miscue: bool
    scoop: bool
    bounced_out_of_pocket: bool  # a ball met a pocket and ended on the bed after leaving it
    hanging: bool
    pocketed: bool


def features(record: ShotRecord) -> Features:
    off_rest = frozenset(
        str(f.rest or "off") for f in record.final.values() if f.status == BallStatus.OFF_TABLE
    )
    touched = frozenset(str(e.object) for e in record.of_type(EventType.TOUCHED) if e.object)
    strikes = record.of_type(EventType.CUE_STRIKE)
    jaw_balls = {e.ball for e in record.of_type(EventType.POCKET_JAW, EventType.POCKETED) if e.ball}
    left = {e.ball for e in record.of_type(EventType.LEFT_TABLE) if e.ball}
    back = {e.ball for e in record.of_type(EventType.RETURNED) if e.ball}
    bounced = any(
        b in back and record.final.get(b) is not None and record.final[b].status == BallStatus.ON_TABLE
        for b in jaw_balls & left
    ) or _thrown_back_from_hole(record)
    return Features(
        off_rest=off_rest,
        touched=touched,
        returned=bool(left & back),
        jumped_over=bool(record.of_type(EventType.JUMPED_OVER)),
        airborne=bool(record.of_type(EventType.AIRBORNE)),
        miscue=any(bool(e.miscue) for e in strikes),
        scoop=any(bool(e.scoop) for e in strikes),
        bounced_out_of_pocket=bounced,
        hanging=bool(record.of_type(EventType.HANGING)),
        pocketed=any(f.status == BallStatus.POCKETED for f in record.final.values()),
    )


def _thrown_back_from_hole(record: ShotRecord) -> bool:
    """A ball met a pocket with its centre over the hole (past the drop line: the back or the sides of the
    pocket, not the jaws) and still ended on the bed: it went into the pocket and came back out (row 15)."""
    hits = [
        e
        for e in record.of_type(EventType.POCKET_JAW)
        if e.ball
        and e.pocket
        and e.pos is not None
        and record.final.get(e.ball) is not None
        and record.final[e.ball].status == BallStatus.ON_TABLE
    ]
    if not hits:
        return False
    from physics.geometry import pocket_shapes
    from physics.tables import load_table

    try:
        shapes = pocket_shapes(load_table(record.table))
    except InputError:
        return False
    return any(
        e.pocket in shapes and e.pos is not None and shapes[e.pocket].in_well(e.pos[0], e.pos[1])
        for e in hits
    )


def _off_by(f: Features, rest: str) -> bool:
    return rest in f.off_rest


# Category -> test on the stroke's features (and the ruling under the chosen game for foul/legal).
CATEGORIES: dict[str, Callable[[Features, Mapping[str, Any]], bool]] = {
    "off-table": lambda f, r: bool(f.off_rest),
    "floor": lambda f, r: _off_by(f, "floor"),
    "rail-stays": lambda f, r: _off_by(f, "rail"),
    "rail-returns": lambda f, r: "rail_top" in f.touched and f.returned and not f.off_rest,
    "lamp": lambda f, r: "lamp" in f.touched,
    "chalk": lambda f, r: "chalk" in f.touched,
    "person": lambda f, r: "person" in f.touched,
    "jumped_over": lambda f, r: f.jumped_over,
    "airborne": lambda f, r: f.airborne,
    "miscue": lambda f, r: f.miscue,
    "scoop": lambda f, r: f.scoop,
    "pocket-bounce-out": lambda f, r: f.bounced_out_of_pocket,
    "pocketed": lambda f, r: f.pocketed,
    "foul": lambda f, r: bool(r.get("foul")),
    "legal": lambda f, r: not r.get("foul"),
}
# Topic names are accepted as categories too.
ALIASES = {
    "off-floor": "floor",
    "rail-top-stays": "rail-stays",
    "rail-top-returns": "rail-returns",
    "jump": "jumped_over",
    "off_table": "off-table",
    "jumped-over": "jumped_over",
}


def category_of(name: str) -> str:
    c = ALIASES.get(name, name)
    if c not in CATEGORIES:
        raise InputError(CLI, "--category", f"one of {', '.join(sorted(set(CATEGORIES) | set(ALIASES)))}")
    return c


def topic_of(f: Features, base: Topic) -> Topic:
    """The topic a stroke illustrates, the most telling event first; the base case's topic otherwise."""
    if "person" in f.touched:
        return Topic.PERSON
    if "chalk" in f.touched:
        return Topic.CHALK
    if "lamp" in f.touched:
        return Topic.LAMP
    if "rail" in f.off_rest:
        return Topic.RAIL_TOP_STAYS
    if "floor" in f.off_rest:
        return Topic.POCKET_BOUNCE_FLOOR if base == Topic.POCKET_BOUNCE_FLOOR else Topic.OFF_FLOOR
    if "rail_top" in f.touched and f.returned:
        return Topic.RAIL_TOP_RETURNS
    if f.bounced_out_of_pocket:
        return Topic.POCKET_BOUNCE_OUT
    if f.scoop:
        return Topic.SCOOP
    if f.miscue:
        return Topic.MISCUE
    return base


def vary(shot: ShotParams, radius: float, rng: random.Random, scale: float) -> ShotParams:
    """One noisy copy of a stroke (Gaussian per parameter, clamped to what a cue can do)."""
    tip_sigma = SIGMA_TIP / radius * scale
    tr = shot.tip[0] + rng.gauss(0.0, tip_sigma)
    tu = shot.tip[1] + rng.gauss(0.0, tip_sigma)
    n = math.hypot(tr, tu)
    if n > 0.95:
        tr, tu = tr * 0.95 / n, tu * 0.95 / n
    return replace(
        shot,
        direction=round(
            (shot.direction + rng.gauss(0.0, SIGMA_DIRECTION * scale) + 180.0) % 360.0 - 180.0, 4
        ),
        elevation=round(min(89.0, max(0.0, shot.elevation + rng.gauss(0.0, SIGMA_ELEVATION * scale))), 4),
        cue_speed=round(min(20.0, max(0.05, shot.cue_speed + rng.gauss(0.0, SIGMA_SPEED * scale))), 4),
        tip=(round(tr, 4), round(tu, 4)),
    )


def simulate(sc: Scenario, shot: ShotParams, settings: Any) -> ShotRecord:
    """Simulate a scenario's position with another stroke, with the user's physics settings."""
    from physics.simulate import simulate as physics_simulate

    return physics_simulate(
        sc.table, sc.balls, shot, physics_params(sc.table, settings), sc.objects, settings.lamp_position
    )


def _judge_all(case: Case, sc: Scenario, record: ShotRecord) -> dict[str, dict[str, Any]]:
    # rule() reads the position and state from the case's scenario: the same for a variation.
    return {g: rule(case, record, g) for g in case.games}


def generate(
    library: Sequence[Case],
    n: int,
    game: str,
    category: str | None,
    seed: int,
    out_dir: Path,
    settings: Any,
    log: TextIO | None = None,
) -> list[Path]:
    """Write up to ``n`` new case files into ``out_dir``; returns their paths."""
    cat = category_of(category) if category else None
    bases = [c for c in library if game in c.games and c.scenario.shot is not None]
    if not bases:
        raise InputError(CLI, "--game", "a game the case library has simulated strokes for")
    if cat is not None and cat not in ("foul", "legal"):
        # Strokes whose base case already shows the category vary into new ones most often.
        preferred = [c for c in bases if _base_hits(c, cat)]
        bases = preferred or bases
    rng = random.Random(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    seen: set[tuple[Any, ...]] = set()
    max_attempts = n * len(SCALES) * ATTEMPTS_PER_SCALE
    attempts = 0
    scale_i = 0
    misses = 0
    while len(written) < n and attempts < max_attempts:
        attempts += 1
        base = bases[rng.randrange(len(bases))]
        sc = base.scenario
        assert sc.shot is not None
        shot = vary(sc.shot, sc.table.ball_radius, rng, SCALES[scale_i])
        record = simulate(sc, shot, settings)
        rulings = _judge_all(base, sc, record)
        f = features(record)
        if cat is not None and not CATEGORIES[cat](f, rulings[game]):
            misses += 1
            if misses >= ATTEMPTS_PER_SCALE and scale_i < len(SCALES) - 1:
                scale_i, misses = scale_i + 1, 0
            continue
        outcome = (
            base.id,
            tuple(
                sorted(
                    (e.type.value, e.ball or "", e.object or "", e.rest or "")
                    for e in record.events
                    if e.type != EventType.REST
                )
            ),
        )
        if outcome in seen:
            continue
        seen.add(outcome)
        topic = topic_of(f, base.topic)
        k = len(written) + 1
        name = f"gen-{game}-{cat or 'any'}-s{seed}-{k:03d}"
        title = {"en": f"{base.title['en']} (variation {k})", "ru": f"{base.title['ru']} (вариант {k})"}
        text = case_toml(
            title=title,
            game=sc.game,
            table=sc.table.id,
            balls=sc.balls,
            shot=shot,
            topic=topic.value,
            games=base.games,
            expected={g: Expected.from_ruling(r, record) for g, r in rulings.items()},
            state=dict(sc.state),
            objects=[{"kind": o.kind, "at": list(o.at), **dict(o.params)} for o in sc.objects],
            header=f"Generated from {base.id} (seed {seed}, noise x{SCALES[scale_i]:g}); category {cat or 'any'}.",
        )
        path = out_dir / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        written.append(path)
        if log is not None:
            print(f"{path}: {topic.value}", file=log)
    return written


def _base_hits(case: Case, cat: str) -> bool:
    t = case.topic
    return {
        "off-table": t in (Topic.OFF_FLOOR, Topic.RAIL_TOP_STAYS, Topic.POCKET_BOUNCE_FLOOR),
        "floor": t in (Topic.OFF_FLOOR, Topic.POCKET_BOUNCE_FLOOR),
        "rail-stays": t == Topic.RAIL_TOP_STAYS,
        "rail-returns": t == Topic.RAIL_TOP_RETURNS,
        "lamp": t == Topic.LAMP,
        "chalk": t == Topic.CHALK,
        "person": t == Topic.PERSON,
        "jumped_over": t in (Topic.JUMP, Topic.JUMP_AFTER_CONTACT, Topic.CLIPPED_BALL_ON),
        "airborne": t in (Topic.JUMP, Topic.JUMP_DROP_BACK, Topic.SCOOP, Topic.OFF_FLOOR),
        "miscue": t == Topic.MISCUE,
        "scoop": t == Topic.SCOOP,
        "pocket-bounce-out": t == Topic.POCKET_BOUNCE_OUT,
        "pocketed": t == Topic.HANGING_BEFORE_5S,
    }.get(cat, False)


def generate_command(args: Any, settings: Any, out: TextIO) -> int:
    n = int(args.generate)
    if n < 1:
        raise InputError(CLI, "--generate", "a number of cases >= 1")
    if not args.game:
        raise InputError(CLI, "--game", "a game id (the rulebook the new cases are for)")
    out_dir = Path(args.out) if args.out else user_cases_dir(settings)
    library = load_library()
    written = generate(library, n, args.game, args.category, int(args.seed or 0), out_dir, settings, log=out)
    en = settings.lang == "en"
    print(
        (
            f"{len(written)} of {n} cases written to {out_dir}"
            if en
            else f"Записано случаев: {len(written)} из {n} в {out_dir}"
        ),
        file=out,
    )
    return 0


# Who may touch a ball without being the striker's side (the referee's outside agents, rules/base.py).
OUTSIDE_AGENTS = frozenset({"outsider", "spectator", "referee", "wind"})


def _touched_before(record: ShotRecord, ball: str, t: float) -> bool:
    """Did a ball, a cushion or a jaw touch ``ball`` before ``t``?"""
    return any(
        e.t < t
        and e.type in (EventType.BALL_BALL, EventType.CUSHION, EventType.POCKET_JAW)
        and e.involves(ball)
        for e in record.events
    )


def rail_top_return(record: ShotRecord, ball: str | None = None) -> bool:
    """A ball (``ball``, or any) left the bed onto the rail (the wooden rail top or the rubber's top behind
    the nose line) and came back onto the bed by itself - touching nothing but the table on the way - to end
    the stroke there."""
    for b, fin in record.final.items():
        if fin.status != BallStatus.ON_TABLE or (ball is not None and b != ball):
            continue
        out = on_rail = False
        for e in record.events:
            if e.ball != b:
                continue
            if e.type == EventType.LEFT_TABLE:
                out, on_rail = True, False
            elif e.type == EventType.TOUCHED and e.object == "rail_top":
                on_rail = True
            elif e.type == EventType.CUSHION and out:
                on_rail = True
            elif e.type == EventType.TOUCHED and e.object not in ("rail_top", "frame"):
                out = on_rail = False  # something else sent it back: not this topic
            elif e.type == EventType.RETURNED:
                if out and on_rail:
                    return True
                out = on_rail = False
    return False


def _out_of_pocket_to_floor(record: ShotRecord) -> bool:
    """A ball on the floor that met a pocket (its jaws or its well) before it left the table."""
    for b, fin in record.final.items():
        if fin.status != BallStatus.OFF_TABLE or fin.rest != "floor":
            continue
        left = next((e.t for e in record.events if e.type == EventType.LEFT_TABLE and e.ball == b), math.inf)
        if any(e.type == EventType.POCKET_JAW and e.ball == b and e.t <= left for e in record.events):
            return True
    return False


def shows_topic(topic: Topic, record: ShotRecord) -> bool:
    """Does the stroke really show what its topic teaches? (A library case that stops doing so fails a test.)"""
    f = features(record)
    ev = record.events
    strike = record.of_type(EventType.CUE_STRIKE)
    struck = strike[0].ball if strike and strike[0].ball else "cue"
    contacts = [e for e in ev if e.type == EventType.BALL_BALL and e.balls and struck in e.balls]
    first = contacts[0] if contacts else None
    ball_on = None
    if first is not None and first.balls is not None:
        ball_on = first.balls[1] if first.balls[0] == struck else first.balls[0]
    t_first = first.t if first is not None else math.inf
    jumps = [e for e in ev if e.type == EventType.JUMPED_OVER and e.ball == struck]
    before = [e for e in jumps if e.t <= t_first]
    after = [e for e in jumps if e.t > t_first]
    airborne_before = any(e.type == EventType.AIRBORNE and e.ball == struck and e.t < t_first for e in ev)
    drops = [e.after for e in record.of_type(EventType.DROPPED) if e.after is not None]
    clean = not f.miscue and not f.scoop
    # Row 14: a ball that was hanging at the start fell while the struck ball was on its way, untouched.
    hung = {e.ball for e in record.of_type(EventType.HANGING) if e.ball and e.t <= 0.0}
    fell_untouched = any(
        e.ball in hung and e.ball != struck and not _touched_before(record, e.ball, e.t)
        for e in record.of_type(EventType.POCKETED)
    )
    checks = {
        Topic.JUMP: clean and any(e.over != ball_on for e in before) and first is not None,
        Topic.SCOOP: f.scoop and f.airborne,
        Topic.MISCUE: f.miscue,
        Topic.JUMP_AFTER_CONTACT: clean and first is not None and any(e.over != ball_on for e in after),
        Topic.CLIPPED_BALL_ON: clean and first is not None and any(e.over == ball_on for e in jumps),
        Topic.JUMP_DROP_BACK: clean
        and first is not None
        and airborne_before
        and not any(e.over == ball_on for e in jumps),
        Topic.OFF_FLOOR: "floor" in f.off_rest,
        Topic.RAIL_TOP_STAYS: "rail" in f.off_rest,
        Topic.RAIL_TOP_RETURNS: rail_top_return(record),
        Topic.LAMP: "lamp" in f.touched,
        Topic.CHALK: "chalk" in f.touched,
        Topic.PERSON: "person" in f.touched,
        Topic.POCKET_BOUNCE_OUT: f.bounced_out_of_pocket,
        Topic.POCKET_BOUNCE_FLOOR: _out_of_pocket_to_floor(record),
        Topic.HANGING_BEFORE_5S: f.hanging and bool(drops) and max(drops) < 5.0,
        Topic.HANGING_AFTER_5S: f.hanging and bool(drops) and max(drops) >= 5.0,
        Topic.HANGING_ON_ARRIVAL: fell_untouched,
        Topic.OUTSIDE_INTERFERENCE: bool(f.touched & OUTSIDE_AGENTS),
    }
    return bool(checks[topic])
