"""Write the trainer's case library (``assets/cases/*.toml``) from its recipes, and re-find strokes.

The recipes are in ``tools/case_recipes.py``: each is a position, the topic (row of rules-notes §2) it
teaches, its subject ball where the row could be about either, a first-guess stroke and the ranges to search.
The stroke in use is the one in the recipe's case file when the file exists (its position unchanged), so the
library itself keeps the strokes found. The tool simulates the stroke exactly as ``main.py referee`` does,
checks the record shows what the case's row must show (``scenes.core.trainer.rows``: the same checks the library
test and ``train --generate`` run), asks the referee for its ruling under every rulebook of the table, and
writes the case file with those rulings as ``[expected]``. The rulings are the referee's; a disagreement with the rule texts is fixed in the
referee, never by editing an expected ruling.

    nice -n 10 .venv/bin/python tools/trainer_make_cases.py [RECIPE_ID or prefix ...] [--check] [--refind N]

``--check`` reports, writes nothing, and exits 1 when a case fails its checks. ``--refind N`` (the one
command to run after a physics change, ``make cases``) rebuilds every case, and for each stroke that no
longer passes searches up to N strokes over the recipe's ranges (seeded: the same physics gives the same
hits) and writes the first that passes. ``--missing`` also tries the recipes that have no case file yet.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from case_recipes import RECIPES, Recipe, build, problems  # noqa: E402
from trainer_search import search  # noqa: E402

from physics.record import ShotParams  # noqa: E402
from rules.ruling import Ruling  # noqa: E402
from scenes.core.trainer.cases import CASES_DIR, load_case  # noqa: E402


def _use(rec: Recipe, shot: ShotParams) -> None:
    rec.shot = {
        **rec.shot,
        "cue_speed": shot.cue_speed,
        "direction": shot.direction,
        "elevation": shot.elevation,
        "tip": [shot.tip[0], shot.tip[1]],
    }


def _report(rec: Recipe, bad: list[str], rulings: Mapping[str, Ruling]) -> None:
    print(f"{'ok ' if not bad else 'NO '}{rec.id}:" + ("" if not bad else " " + "; ".join(bad)), flush=True)
    for g, r in rulings.items():
        codes = ",".join(r.codes()) or "-"
        print(
            f"     {g:18s} foul={r.foul!s:5s} codes={codes} counted={list(r.counted)} off={list(r.off_table)} "
            f"respot={[x.ball for x in r.respot]} next={r.next_player} in_hand={r.in_hand}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    from scenes.core.settings import load_settings

    p = argparse.ArgumentParser()
    p.add_argument("ids", nargs="*")
    p.add_argument(
        "--check", action="store_true", help="only report, write nothing; exit 1 on a failing case"
    )
    p.add_argument(
        "--refind",
        type=int,
        default=0,
        metavar="N",
        help="when a case's stroke no longer passes its checks, search up to N strokes over its recipe's "
        "ranges (tools/trainer_search.py) and write the first that passes",
    )
    p.add_argument("--missing", action="store_true", help="also try recipes that have no case file yet")
    p.add_argument("--seed", type=int, default=1, help="seed of the --refind search")
    a = p.parse_args(argv)
    settings = load_settings()
    todo = [r for r in RECIPES if not a.ids or any(r.id == x or r.id.startswith(x) for x in a.ids)]
    if not a.missing:
        # A prefix picks the recipes that have a case; a recipe named in full is tried either way.
        todo = [r for r in todo if r.id in a.ids or (CASES_DIR / f"{r.id}.toml").exists()]
    failed: list[str] = []
    refound: list[str] = []
    for rec in todo:
        try:
            text, record, rulings = build(rec, settings)
            bad = problems(rec, record, rulings)
            if bad and a.refind and rec.search is not None and not a.check:
                print(f"... {rec.id}: {'; '.join(bad)}; searching {a.refind} strokes", flush=True)
                hit = search(rec, a.refind, a.seed, settings)
                if hit is not None:
                    _use(rec, hit)
                    text, record, rulings = build(rec, settings)
                    bad = problems(rec, record, rulings)
                    if not bad:
                        refound.append(rec.id)
        except Exception as exc:  # report and go on: one recipe must not hide the others
            print(f"ERR {rec.id}: {type(exc).__name__}: {exc}", flush=True)
            failed.append(rec.id)
            continue
        _report(rec, bad, rulings)
        if bad:
            failed.append(rec.id)
        elif not a.check:
            path = CASES_DIR / f"{rec.id}.toml"
            path.write_text(text, encoding="utf-8")
            load_case(path)  # the written file must load
    print(f"{len(todo) - len(failed)} of {len(todo)} cases pass their checks", flush=True)
    if refound:
        print("re-found: " + ", ".join(refound))
    if failed:
        print("failing: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
