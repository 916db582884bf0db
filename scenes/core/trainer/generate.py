"""New cases from library strokes: vary the shot with a noise model, keep outcomes in a wanted category.

``python main.py train --generate N --game G [--category C] [--seed S] [--out DIR]``

The noise is the computational-pool model (docs/physics.md §Cues: σ of 0.125° in direction, 0.1° in elevation,
0.075 m/s in speed, 0.5 mm in tip offset), scaled up step by step when the wanted outcome is rare: a human
stroke varies far more than a robot's, and a rare call (a ball off the lamp) needs a wide search.
Each stroke in the category is judged under every rulebook of its base case and kept only when it passes
the same checks as every library case (``scenes.core.trainer.rows``: it shows what its row must show, and its
rulings carry no foul unrelated to the row); it is written as a case file with the referee's rulings as
its expected ones. The same seed gives the same files.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from physics.errors import InputError
from physics.files import atomic_text
from physics.record import BallStatus, EventType, ShotParams, ShotRecord
from physics.scenario import Scenario
from rules.ruling import Ruling
from scenes.core.i18n import ntr, tr
from scenes.core.trainer.cases import (
    Case,
    Expected,
    Topic,
    case_toml,
    load_library,
    physics_params,
    rule,
    user_cases_dir,
)
from scenes.core.trainer.rows import TOPIC_ROW, Claim, bounced_out_of_pocket, incidental_fouls, row_problems

CLI = "command line"

# docs/physics.md §Cues, computational-pool noise (σ per shot parameter).
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
    left = {e.ball for e in record.of_type(EventType.LEFT_TABLE) if e.ball}
    back = {e.ball for e in record.of_type(EventType.RETURNED) if e.ball}
    return Features(
        off_rest=off_rest,
        touched=touched,
        returned=bool(left & back),
        jumped_over=bool(record.of_type(EventType.JUMPED_OVER)),
        airborne=bool(record.of_type(EventType.AIRBORNE)),
        miscue=any(bool(e.miscue) for e in strikes),
        scoop=any(bool(e.scoop) for e in strikes),
        bounced_out_of_pocket=bounced_out_of_pocket(record),
        hanging=bool(record.of_type(EventType.HANGING)),
        pocketed=any(f.status == BallStatus.POCKETED for f in record.final.values()),
    )


def _off_by(f: Features, rest: str) -> bool:
    return rest in f.off_rest


# Category -> test on the stroke's features (and the ruling under the chosen game for foul/legal).
CATEGORIES: dict[str, Callable[[Features, Ruling], bool]] = {
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
    "foul": lambda f, r: r.foul,
    "legal": lambda f, r: not r.foul,
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


def _judge_all(case: Case, sc: Scenario, record: ShotRecord) -> dict[str, Ruling]:
    # rule() reads the position and state from the case's scenario: the same for a variation.
    return {g: rule(case, record, g) for g in case.games}


def _variation_toml(
    base: Case,
    k: int,
    shot: ShotParams,
    record: ShotRecord,
    rulings: dict[str, Ruling],
    claim: Claim,
    header: str,
) -> str:
    """The case file of variation ``k`` of ``base``: titled by what the stroke shows (the base case's title
    when it teaches the same, else its topic's), judged under the base case's rulebooks."""
    sc = base.scenario
    topic = claim.topic

    def title(lang: str) -> str:
        name = base.title[lang] if topic == base.topic else topic.label(lang).capitalize()
        return tr("trainer.gen.variation", lang, title=name, k=k)

    return case_toml(
        title={"en": title("en"), "ru": title("ru")},
        game=sc.game,
        table=sc.table.id,
        balls=sc.balls,
        shot=shot,
        topic=topic.value,
        games=base.games,
        expected={g: Expected.from_ruling(r, record) for g, r in rulings.items()},
        row=claim.row,
        subject=claim.subject,
        state=dict(sc.state),
        objects=[{"kind": o.kind, "at": list(o.at), **dict(o.params)} for o in sc.objects],
        header=header,
    )


def _write_text(path: Path, text: str) -> None:
    atomic_text(path, "--out", lambda f: f.write(text))


def generate(
    library: Sequence[Case],
    n: int,
    game: str,
    category: str | None,
    seed: int,
    out_dir: Path,
    settings: Any,
    log: TextIO | None = None,
    *,
    same_topic: bool = False,
    prefix: str | None = None,
    attempts_per_case: int | None = None,
) -> list[Path]:
    """Write up to ``n`` new case files into ``out_dir``; returns their paths.

    ``same_topic`` keeps only strokes that teach their base case's own topic (variations of one case);
    ``prefix`` names the files (default ``gen-<game>-<category>-s<seed>``).
    """
    cat = category_of(category) if category else None
    bases = [c for c in library if game in c.games and c.scenario.shot is not None]
    if not bases:
        raise InputError(CLI, "--game", "a game the case library has simulated strokes for")
    if cat is not None and cat not in ("foul", "legal"):
        # Strokes whose base case already shows the category vary into new ones most often.
        preferred = [c for c in bases if _base_hits(c, cat)]
        bases = preferred or bases
    rng = random.Random(seed)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file in the way, a read-only place: one line, nothing written
        raise InputError(str(out_dir), "--out", f"a folder for the new cases ({exc.strerror})") from None
    written: list[Path] = []
    seen: set[tuple[Any, ...]] = set()
    max_attempts = attempts_per_case * n if attempts_per_case else n * len(SCALES) * ATTEMPTS_PER_SCALE
    attempts = 0
    scale_i = 0
    misses = 0
    rejected = 0
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
        topic = topic_of(f, base.topic)
        claim = Claim(topic, base.subject if topic == base.topic else None)
        if (
            (same_topic and topic != base.topic)
            or row_problems(claim, record)
            or incidental_fouls(rulings, TOPIC_ROW.get(topic))
        ):
            # The same checks as the library's: a variation that does not show its row cleanly is no case.
            rejected += 1
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
        k = len(written) + 1
        stem = prefix or f"gen-{game}-{cat or 'any'}-s{seed}"
        header = (
            f"Generated from {base.id} (seed {seed}, noise x{SCALES[scale_i]:g}); category {cat or 'any'}."
        )
        text = _variation_toml(base, k, shot, record, rulings, claim, header)
        path = out_dir / f"{stem}-{k:03d}.toml"
        _write_text(path, text)
        written.append(path)
        if log is not None:
            print(f"{path}: {topic.label(settings.lang)}", file=log)
    if log is not None and rejected:
        print(ntr("trainer.gen.rejected", rejected, settings.lang), file=log)
    return written


def variations(
    case: Case, game: str, n: int, seed: int, out_dir: Path, settings: Any, log: TextIO | None = None
) -> list[Path]:
    """Up to ``n`` variations of one case (a missed one, for practice): the computational-pool noise on its
    stroke, kept only when the variation teaches the case's own topic and passes its row's checks. They are
    written as ``var-<case>-s<seed>-<k>.toml`` and join the trainee's sessions (spaced repetition puts them
    early: they are new items of a topic and rulebook the trainee got wrong)."""
    if case.scenario.shot is None or case.scenario.is_recorded:
        return []
    return generate(
        [case],
        n,
        game,
        None,
        seed,
        out_dir,
        settings,
        log,
        same_topic=True,
        prefix=f"var-{case.id}-s{seed}",
        attempts_per_case=ATTEMPTS_PER_SCALE * 2,
    )


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
    print(ntr("trainer.gen.written", n, settings.lang, got=len(written), folder=str(out_dir)), file=out)
    return 0
