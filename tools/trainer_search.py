"""Find shot parameters that make the physics produce a training case's outcome.

Random search (seeded) over the ranges of a recipe of ``tools/case_recipes.py``: a hit is a stroke
whose record passes every check of the case's row (``scenes.core.trainer.rows``, the checks the library test
runs), the recipe's own extra check, and whose rulings carry no foul unrelated to the row. The first try is
the recipe's current stroke. ``tools/trainer_make_cases.py --refind N`` calls :func:`search` for every case
that fails; run alone, this prints the hits.

    nice -n 10 .venv/bin/python tools/trainer_search.py RECIPE_ID_OR_PREFIX ... [--tries N] [--seed S] [-v]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from case_recipes import RECIPES, Recipe, build, problems, scene_objects  # noqa: E402

from physics.params import PhysicsParams  # noqa: E402
from physics.record import ShotParams  # noqa: E402
from physics.simulate import simulate  # noqa: E402
from physics.tables import load_table  # noqa: E402
from scenes.core.settings import load_settings  # noqa: E402

# The search's quick look stops a stroke at this many seconds; a candidate is then simulated in full.
QUICK_CAP = 15.0


def sample(rec: Recipe, rng: random.Random) -> ShotParams:
    s = rec.search or {}
    base = rec.shot_params()

    def pick(name: str, cur: float) -> float:
        lo, hi = s.get(name, (cur, cur))
        return round(rng.uniform(lo, hi), 3)

    tip = (pick("tip_r", base.tip[0]), pick("tip_u", base.tip[1]))
    return replace(
        base,
        cue_speed=pick("cue_speed", base.cue_speed),
        direction=pick("direction", base.direction),
        elevation=pick("elevation", base.elevation),
        tip=tip,
    )


def _shot_dict(shot: ShotParams) -> dict[str, Any]:
    return {
        "cue_speed": shot.cue_speed,
        "direction": shot.direction,
        "elevation": shot.elevation,
        "tip": [shot.tip[0], shot.tip[1]],
    }


def search(
    rec: Recipe, tries: int, seed: int, settings: Any = None, verbose: bool = False
) -> ShotParams | None:
    """The first of up to ``tries`` strokes (the recipe's own first, then seeded samples) that passes."""
    settings = settings or load_settings()
    table = load_table(rec.table_id)
    params = PhysicsParams.for_table(table, max_stroke_seconds=QUICK_CAP)
    rng = random.Random(seed)
    original = dict(rec.shot)
    t0 = time.perf_counter()
    near = 0
    try:
        for i in range(tries):
            shot = sample(rec, rng) if i else rec.shot_params()
            record = simulate(
                table, rec.balls, shot, params, objects=scene_objects(rec), lamp=settings.lamp_position
            )
            quick = problems(rec, record)
            if verbose:
                print(i, _shot_dict(shot), quick, flush=True)
            if quick:
                continue
            near += 1
            rec.shot = {**original, **_shot_dict(shot)}
            _text, full, rulings = build(rec, settings)
            late = problems(rec, full, rulings)
            if not late:
                print(f"hit at try {i} ({time.perf_counter() - t0:.0f} s): {_shot_dict(shot)}", flush=True)
                return shot
            print(f"  near miss at try {i}: {'; '.join(late)}", flush=True)
        print(
            f"{rec.id}: no hit in {tries} tries ({near} passed the quick look), {time.perf_counter() - t0:.0f} s",
            flush=True,
        )
        return None
    finally:
        rec.shot = original


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("recipe", nargs="+", help="recipe ids, or a family prefix such as 'pool-'")
    p.add_argument("--tries", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("-v", action="store_true")
    a = p.parse_args()
    chosen = [
        r
        for r in RECIPES
        if r.events is None
        and r.recorded_from is None
        and any(r.id == x or r.id.startswith(x) for x in a.recipe)
    ]
    settings = load_settings()
    for rec in chosen:
        hit = search(rec, a.tries, a.seed, settings, a.v)
        if hit is not None:
            print(f"{rec.id}: {_shot_dict(hit)}")


if __name__ == "__main__":
    main()
