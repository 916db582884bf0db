"""The CPU time of pooltool's own full break, for ``python main.py bench --pooltool PYTHON``.

Run by the bench as a subprocess in the interpreter that has pooltool (a venv of its own: pooltool pins
a Panda3D build of its own, so it never shares the project's); the project never imports pooltool.
Prints one JSON object on stdout.

The stroke matches the bench's pool break: pooltool's 8-ball rack (15 balls, its default table and ball
parameters), the cue ball on the head spot struck at 8 m/s through the centre at the apex ball. A
warm-up break comes first (numba compiles pooltool's kernels on their first call, as our warm-up stroke
takes the table's one-time build), then the median of ``--runs`` breaks, each on a rack drawn anew from
the same seeds (pooltool orders and wiggles its racked balls at random; the order comes from a set of ids,
so the bench also fixes PYTHONHASHSEED), so every run simulates the same break.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np
import pooltool as pt


def _system() -> Any:
    random.seed(1)  # pooltool draws the rack's order with random, the wiggles with numpy
    np.random.seed(1)
    table = pt.Table.default()
    balls = pt.get_rack(pt.GameType.EIGHTBALL, table)
    cue_ball = balls["cue"]
    cue_ball.state.rvw[0][0] = table.w / 2.0
    cue_ball.state.rvw[0][1] = table.l / 4.0  # the head spot
    system = pt.System(cue=pt.Cue(cue_ball_id="cue"), table=table, balls=balls)
    system.strike(V0=8.0, phi=pt.aim.at_ball(system, "1"), theta=0.0, a=0.0, b=0.0)
    return system


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    pt.simulate(_system(), inplace=True)  # warm-up: numba's compile
    timings: list[tuple[float, float, Any]] = []
    for _ in range(max(1, args.runs)):
        system = _system()
        c0, w0 = time.process_time(), time.perf_counter()
        pt.simulate(system, inplace=True)
        timings.append((time.process_time() - c0, time.perf_counter() - w0, system))
    cpu, wall, system = sorted(timings, key=lambda t: t[0])[len(timings) // 2]
    print(
        json.dumps(
            {
                "pooltool": pt.__version__,
                "balls": len(system.balls),
                "cue_speed": 8.0,
                "simulated_s": round(float(system.t), 4),
                "events": len(system.events),
                "cpu_s": round(cpu, 4),
                "wall_s": round(wall, 4),
                "runs": len(timings),
            }
        )
    )


if __name__ == "__main__":
    main()
