"""The computer player's thinking time for ``python main.py bench`` (issue 24 §3: at level 5, at most 2 s a
stroke median and 5 s worst on the project's 2-core machine).

The positions are the first strokes after the break of a few games, played by level 5 itself from fixed
seeds: the same positions on every run, each timed as the player thinks over it (wall clock).
"""

from __future__ import annotations

import random
import statistics
from dataclasses import replace
from typing import Any

from physics.simulate import simulate
from rules.registry import get_referee
from rules.state import MatchState
from scenes.core.opponent.levels import level
from scenes.core.opponent.player import choose, layout_for, perform

BENCH_GAMES = ("pool-9-ball", "russian-pyramid", "snooker", "pool-8-ball")
STROKES = 3  # positions timed per game: the break's and the next two


def positions(n_strokes: int = STROKES, lv: int = 5) -> list[MatchState]:
    """The bench's positions: each game's opening and the positions its first strokes leave."""
    out: list[MatchState] = []
    player = level(lv)
    for game in BENCH_GAMES:
        ref = get_referee(game)
        state = MatchState.new(ref)
        rng = random.Random(f"bench:{game}")
        for k in range(n_strokes):
            if state.frame_over:
                break
            out.append(state)
            plan = choose(state, player, seed=k)
            record = simulate(ref.table, layout_for(state, plan.place), perform(plan.shot, player, rng))
            state = replace(state.apply(ref.judge(state, record), None), history=())
    return out


def think_bench(lv: int = 5) -> dict[str, Any]:
    """Median and worst thinking time (s, wall clock and CPU) at level ``lv`` over :func:`positions`."""
    player = level(lv)
    plans = [choose(s, player, seed=1) for s in positions(lv=lv)]
    wall, cpu = [p.think_s for p in plans], [p.cpu_s for p in plans]
    return {
        "level": lv,
        "positions": len(plans),
        "median_s": round(statistics.median(wall), 3),
        "max_s": round(max(wall), 3),
        # CPU seconds beside the wall clock: on a shared machine the wall clock also counts others' work.
        "median_cpu_s": round(statistics.median(cpu), 3),
        "max_cpu_s": round(max(cpu), 3),
    }
