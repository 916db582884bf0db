"""Long session soak: one process plays many strokes through the real scene (offscreen, software
renderer) and enters and leaves the trainer screen, measuring what must stay flat.

    python -m tests.soak --strokes 500 [--seed S] [--out soak.json] [--rerack 50] [--trainer-visits 20]

After every stroke (shot, physics in the app's worker process, playback at high speed, rest) it
records the scene process's RSS (/proc/self/statm) and the physics worker's, the scene-graph node
counts under ``render`` and ``aspect2d``, and the mean frame time of the playback. The practice
table is re-racked every ``--rerack`` strokes by switching screens (so screen teardown is exercised
too). The summary compares the first and the last tenth of the strokes: growth of RSS and nodes,
and the ratio of frame times.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss(pid: int | str = "self") -> int:
    """Resident set size in bytes (0 if the process is gone)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def children() -> list[int]:
    out: list[int] = []
    for task in Path("/proc/self/task").iterdir():
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.soak", description=__doc__.split("\n\n")[0])
    ap.add_argument("--strokes", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="soak.json")
    ap.add_argument("--rerack", type=int, default=50)
    ap.add_argument("--trainer-visits", type=int, default=20)
    ap.add_argument("--max-speed", type=float, default=6.0)
    args = ap.parse_args(argv)

    from scenes.app import App, ScriptRunner, configure_panda, open_base
    from scenes.core.settings import load_settings

    settings = load_settings(None)
    configure_panda(settings, offscreen=True, size=(320, 240))
    base = open_base(True)
    app = App(base, settings, True)
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    t_start = time.perf_counter()

    def run_actions(actions: list[dict[str, Any]], timeout: float = 600.0) -> tuple[int, float]:
        """Step frames until the actions are done; (frames, total frame seconds)."""
        runner = ScriptRunner(app, actions)
        frames, spent = 0, 0.0
        t0 = time.perf_counter()
        more = True
        while more:
            f0 = time.perf_counter()
            more = runner.step(1.0 / 60.0)
            base.taskMgr.step()
            spent += time.perf_counter() - f0
            frames += 1
            if time.perf_counter() - t0 > timeout:
                scr = app.manager.current
                raise RuntimeError(
                    f"soak: stuck at action {runner.index}: {actions[runner.index]} "
                    f"(screen {getattr(scr, 'name', None)}, phase {getattr(scr, 'phase', None)})"
                )
            if frames % 600 == 0:
                scr = app.manager.current
                print(
                    f"soak: frame {frames} screen {getattr(scr, 'name', None)} phase {getattr(scr, 'phase', None)} "
                    f"t {time.perf_counter() - t0:.0f}s",
                    file=sys.stderr,
                    flush=True,
                )
        return frames, spent

    run_actions([{"do": "practice"}, {"do": "frames", "n": 2}])
    for k in range(args.strokes):
        if k and args.rerack and k % args.rerack == 0:
            run_actions(
                [{"do": "menu"}, {"do": "frames", "n": 2}, {"do": "practice"}, {"do": "frames", "n": 2}]
            )
        shot = [
            {"do": "aim", "direction": rng.uniform(0.0, 360.0)},
            {"do": "power", "speed": rng.uniform(0.3, args.max_speed)},
            {"do": "elevation", "degrees": rng.uniform(0.0, 15.0)},
            {"do": "tip", "x": rng.uniform(-0.3, 0.3), "y": rng.uniform(-0.3, 0.3)},
            {"do": "shoot"},
            {"do": "speed", "x": 50.0},
            {"do": "wait_rest", "timeout": 600},
        ]
        frames, spent = run_actions(shot)
        kids = children()
        rows.append(
            {
                "stroke": k + 1,
                "rss": rss(),
                "worker_rss": sum(rss(c) for c in kids),
                "render_nodes": base.render.countNumDescendants(),
                "aspect2d_nodes": base.aspect2d.countNumDescendants(),
                "frames": frames,
                "frame_ms": 1000.0 * spent / max(frames, 1),
            }
        )
        if (k + 1) % 10 == 0 or k + 1 == args.strokes:
            r = rows[-1]
            print(
                f"soak: {k + 1}/{args.strokes} rss {r['rss'] / 2**20:.1f} MiB worker {r['worker_rss'] / 2**20:.1f} MiB "
                f"nodes {r['render_nodes']}+{r['aspect2d_nodes']} frame {r['frame_ms']:.1f} ms "
                f"elapsed {time.perf_counter() - t_start:.0f}s",
                file=sys.stderr,
                flush=True,
            )

    trainer_rows: list[dict[str, Any]] = []
    for v in range(args.trainer_visits):
        run_actions([{"do": "menu"}, {"do": "frames", "n": 2}])
        app.manager.switch("trainer", args=argparse.Namespace(game=None, topic=None, cases=None, seed=v))
        run_actions([{"do": "frames", "n": 5}])
        trainer_rows.append(
            {
                "visit": v + 1,
                "rss": rss(),
                "render_nodes": base.render.countNumDescendants(),
                "aspect2d_nodes": base.aspect2d.countNumDescendants(),
            }
        )
    run_actions([{"do": "menu"}, {"do": "frames", "n": 2}])
    app.close()

    n = max(1, len(rows) // 10)
    first, last = rows[:n], rows[-n:]

    def growth(key: str) -> float:
        return _mean([r[key] for r in last]) - _mean([r[key] for r in first])

    summary = {
        "strokes": len(rows),
        "seed": args.seed,
        "wall_seconds": round(time.perf_counter() - t_start, 1),
        "rss_first_MiB": round(_mean([r["rss"] for r in first]) / 2**20, 2),
        "rss_last_MiB": round(_mean([r["rss"] for r in last]) / 2**20, 2),
        "rss_growth_MiB": round(growth("rss") / 2**20, 2),
        "worker_rss_growth_MiB": round(growth("worker_rss") / 2**20, 2),
        "render_nodes_first_last": [first[0]["render_nodes"], last[-1]["render_nodes"]],
        "aspect2d_nodes_first_last": [first[0]["aspect2d_nodes"], last[-1]["aspect2d_nodes"]],
        "render_nodes_max": max(r["render_nodes"] for r in rows),
        "frame_ms_first": round(_mean([r["frame_ms"] for r in first]), 2),
        "frame_ms_last": round(_mean([r["frame_ms"] for r in last]), 2),
        "trainer_visits": trainer_rows[:1] + trainer_rows[-1:],
        "per_stroke": rows,
    }
    Path(args.out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in summary.items() if k != "per_stroke"}, indent=1), file=sys.stderr)
    base.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
