"""Find shot parameters that make the physics produce a training case's outcome.

Random search (seeded) over ranges of cue speed, direction, elevation and tip offset around a recipe of
``tools/trainer_make_cases.py``; a hit is a stroke whose record shows the recipe's topic
(``scenes.trainer.generate.shows_topic``) and passes the recipe's extra check. Prints the hits as
``[shot]`` lines ready to paste into the recipe.

    .venv/bin/python tools/trainer_search.py RECIPE_ID [--tries N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from trainer_make_cases import RECIPES, Recipe, acceptable, scene_objects  # noqa: E402

from physics.params import PhysicsParams  # noqa: E402
from physics.record import ShotParams  # noqa: E402
from physics.simulate import simulate  # noqa: E402
from physics.tables import load_table  # noqa: E402
from scenes.settings import load_settings  # noqa: E402
from scenes.trainer.generate import features  # noqa: E402


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


def run(rec: Recipe, tries: int, seed: int, stop_after: int = 3, verbose: bool = False) -> list[ShotParams]:
    settings = load_settings()
    table = load_table(rec.table_id)
    params = PhysicsParams.for_table(table, max_stroke_seconds=15.0)
    rng = random.Random(seed)
    hits: list[ShotParams] = []
    t0 = time.perf_counter()
    for i in range(tries):
        shot = sample(rec, rng) if i else rec.shot_params()
        # A shorter cap keeps the search quick; trainer_make_cases.py re-simulates the hit in full.
        record = simulate(
            table, rec.balls, shot, params, objects=scene_objects(rec), lamp=settings.lamp_position
        )
        ok = acceptable(rec, record)
        if verbose:
            f = features(record)
            print(
                i,
                shot.cue_speed,
                shot.direction,
                shot.elevation,
                shot.tip,
                ok,
                sorted(f.touched),
                sorted(f.off_rest),
                f.jumped_over,
                f.airborne,
            )
        if ok:
            hits.append(shot)
            print(
                f"hit {len(hits)} at try {i}: cue_speed = {shot.cue_speed}, direction = {shot.direction}, "
                f"elevation = {shot.elevation}, tip = [{shot.tip[0]}, {shot.tip[1]}]",
                flush=True,
            )
            if len(hits) >= stop_after:
                break
    print(f"{rec.id}: {len(hits)} hits in {i + 1} tries, {time.perf_counter() - t0:.1f} s", flush=True)
    return hits


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("recipe", nargs="+", help="recipe ids, or a family prefix such as 'pool-'")
    p.add_argument("--tries", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hits", type=int, default=1)
    p.add_argument("-v", action="store_true")
    a = p.parse_args()
    chosen = [
        r
        for r in RECIPES
        if r.events is None
        and r.recorded_from is None
        and any(r.id == x or r.id.startswith(x) for x in a.recipe)
    ]
    found: dict[str, ShotParams] = {}
    for rec in chosen:
        hits = run(rec, a.tries, a.seed, a.hits, a.v)
        if hits:
            found[rec.id] = hits[0]
    print("FOUND entries:")
    for rid, s in found.items():
        print(
            f'    "{rid}": {{"cue_speed": {s.cue_speed}, "direction": {s.direction}, '
            f'"elevation": {s.elevation}, "tip": [{s.tip[0]}, {s.tip[1]}]}},'
        )


if __name__ == "__main__":
    main()
