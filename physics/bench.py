"""``python main.py bench``: how fast the engine simulates two breaks, in-process.

Cases: a full pyramid break (15 balls racked on the foot spot, cue ball on the head spot, 8 m/s cue
speed at the apex) and a 16-ball pool (8-ball) break at the same cue speed. Each table first gets a
warm-up stroke (imports and the table's one-time geometry build are not the engine's speed: the app and
the trainer simulate stroke after stroke on one table). Each case then runs ``RUNS`` times to rest and
the median run is reported (a single run on a shared machine swings by a factor of two); the records of
the runs are identical, so only the time varies.
"""

from __future__ import annotations

import time
from typing import Any

from physics.params import PhysicsParams
from physics.racks import BENCH_POOL, BENCH_PYRAMID, initial_layout
from physics.record import ShotParams
from physics.simulate import simulate
from physics.tables import load_table

CASES = (("pyramid-break", "pyramid-12ft", BENCH_PYRAMID, 8.0), ("pool-break", "pool-9ft", BENCH_POOL, 8.0))


def _params(spec: Any, settings: Any | None) -> PhysicsParams:
    ph = getattr(settings, "physics", None)
    if ph is None:
        return PhysicsParams.for_table(spec)
    return PhysicsParams.for_table(spec, dict(ph.overrides), ph.substep_hz, ph.max_stroke_seconds)


RUNS = 3


def run_bench(settings: Any | None = None, runs: int = RUNS) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name, table, rack, speed in CASES:
        spec = load_table(table)
        params = _params(spec, settings)
        simulate(spec, {"cue": (0.0, 0.0)}, ShotParams(cue_speed=1.0), params)  # warm-up
        layout = initial_layout(rack, spec)
        shot = ShotParams(ball="cue", cue_speed=speed, direction=0.0)  # head spot -> apex on the foot spot
        timings: list[tuple[float, float]] = []
        for _ in range(max(1, runs)):
            c0, w0 = time.process_time(), time.perf_counter()
            record = simulate(spec, layout, shot, params)
            timings.append((time.perf_counter() - w0, time.process_time() - c0))
        wall, cpu = sorted(timings)[len(timings) // 2]
        results[name] = {
            "table": spec.id,
            "balls": len(layout),
            "cue_speed": speed,
            "simulated_s": round(record.duration, 4),
            "wall_s": round(wall, 4),
            "cpu_s": round(cpu, 4),
            "realtime_ratio": round(record.duration / wall, 1) if wall > 0 else None,
            "cpu_realtime_ratio": round(record.duration / cpu, 1) if cpu > 0 else None,
            "substep_hz": params.substep_hz,
            "events": len(record.events),
            "runs": len(timings),
            "wall_s_min_max": [round(min(w for w, _ in timings), 4), round(max(w for w, _ in timings), 4)],
        }
    return {"physics": results}


_LABELS = {
    "en": (
        "{name}: {sim:.2f} s simulated in {wall:.3f} s wall ({ratio}x real time; CPU {cpu:.3f} s, {cratio}x), "
        "{hz:g} Hz substeps, {ev} events, median of {runs} runs"
    ),
    "ru": (
        "{name}: {sim:.2f} с удара за {wall:.3f} с ({ratio}x быстрее реального времени; ЦП {cpu:.3f} с, "
        "{cratio}x), подшаг {hz:g} Гц, событий {ev}, медиана {runs} прогонов"
    ),
}
_NAMES = {"ru": {"pyramid-break": "разбой пирамиды", "pool-break": "разбой в пуле"}}


def format_bench(result: dict[str, Any], lang: str = "en") -> str:
    fmt = _LABELS.get(lang, _LABELS["en"])
    lines = []
    for name, r in result.get("physics", {}).items():
        lines.append(
            fmt.format(
                name=_NAMES.get(lang, {}).get(name, name),
                sim=r["simulated_s"],
                wall=r["wall_s"],
                ratio=r["realtime_ratio"],
                cpu=r["cpu_s"],
                cratio=r["cpu_realtime_ratio"],
                hz=r["substep_hz"],
                ev=r["events"],
                runs=r.get("runs", 1),
            )
        )
    for key, value in result.items():
        if key == "physics":
            continue
        if isinstance(value, dict):
            lines.append(f"{key}: " + ", ".join(f"{k}={v}" for k, v in value.items()))
        else:
            lines.append(f"{key}: {value}")
    return "\n".join(lines)
