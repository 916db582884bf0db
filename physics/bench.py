"""``python main.py bench``: how fast the engine simulates each table's full break, in-process, and what
the slow strokes cost against them.

Cases: a full pyramid break (15 balls racked on the foot spot, cue ball on the head spot, 8 m/s cue
speed at the apex), a 16-ball pool (8-ball) break at the same cue speed, and a snooker break on each
snooker table (racks.bench_snooker, 19 balls, 8 m/s): the campaign weighs each stroke against the break
of its own table (a 22-ball snooker stroke against the 16-ball pyramid told little). Each table first gets a
warm-up stroke (imports and the table's one-time geometry build are not the engine's speed: the app and
the trainer simulate stroke after stroke on one table). Each case then runs ``RUNS`` times to rest and
the median run is reported (a single run on a shared machine swings by a factor of two); the records of
the runs are identical, so only the time varies.

On each table two strokes that are all sustained contact follow (``SLOW_CASES``), each given as a ratio
of its CPU time to the table's full break: a soft break (the same rack at 1 m/s), and a frozen-cluster
push (the cue ball frozen to the apex ball and struck at 1 m/s with follow and side, so its spin drives
it on into the rack). A stroke's cost should follow its events, not the time its balls spend pressed
together; each once cost 8-15 times the full break.

Given an interpreter that has pooltool (``--pooltool PYTHON`` or ``POOLTOOL_PYTHON``), the bench also
runs ``tools/pooltool_break.py`` in it as a subprocess, pooltool's 8-ball break at the same 8 m/s, so the
two engines' CPU figures come from one run on one machine load. The project never imports pooltool.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path
from typing import Any

from physics.params import PhysicsParams
from physics.racks import BENCH_POOL, BENCH_PYRAMID, Rack, bench_snooker, initial_layout
from physics.record import ShotParams
from physics.simulate import simulate
from physics.tables import TableSpec, load_table

# (name, table, rack, cue speed m/s): each table's full break, the figure its strokes are weighed against
CASES: tuple[tuple[str, str, Rack | None, float], ...] = (
    ("pyramid-break", "pyramid-12ft", BENCH_PYRAMID, 8.0),
    ("pool-break", "pool-9ft", BENCH_POOL, 8.0),
    ("snooker-break", "snooker-12ft", None, 8.0),  # None: racks.bench_snooker on the table
    ("snooker10-break", "snooker-10ft", None, 8.0),
)
BREAK_OF_TABLE = {table: name for name, table, _r, _s in CASES}
# (name, the full break it is measured against, cue speed m/s, tip [right, up] in radii, cue ball frozen to
# the apex ball)
SLOW_CASES = (
    ("pyramid-soft-break", "pyramid-break", 1.0, (0.0, 0.0), False),
    ("pyramid-cluster-push", "pyramid-break", 1.0, (0.3, 0.4), True),
    ("pool-soft-break", "pool-break", 1.0, (0.0, 0.0), False),
    ("pool-cluster-push", "pool-break", 1.0, (0.3, 0.4), True),
)
FROZEN_GAP = 1e-6  # m between the frozen cue ball and the apex ball (racks.TOUCH_GAP)


def _params(spec: Any, settings: Any | None) -> PhysicsParams:
    ph = getattr(settings, "physics", None)
    if ph is None:
        return PhysicsParams.for_table(spec)
    return PhysicsParams.for_table(spec, dict(ph.overrides), ph.substep_hz, ph.max_stroke_seconds)


RUNS = 3


def _timed(spec: Any, layout: Any, shot: ShotParams, params: PhysicsParams, runs: int) -> dict[str, Any]:
    """The median of ``runs`` runs of one stroke (wall and CPU seconds) and what it simulated."""
    timings: list[tuple[float, float]] = []
    for _ in range(max(1, runs)):
        c0, w0 = time.process_time(), time.perf_counter()
        record = simulate(spec, layout, shot, params)
        timings.append((time.perf_counter() - w0, time.process_time() - c0))
    wall, cpu = sorted(timings)[len(timings) // 2]
    return {
        "table": spec.id,
        "balls": len(layout),
        "cue_speed": shot.cue_speed,
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


def break_layout(name: str, spec: TableSpec) -> dict[str, tuple[float, float]]:
    """The layout of the ``CASES`` break ``name`` on its table ``spec``; the cue ball is struck along +x."""
    rack = next(r for n, _t, r, _s in CASES if n == name)
    return initial_layout(rack if rack is not None else bench_snooker(spec), spec)


def slow_layout(name: str, spec: Any) -> dict[str, tuple[float, float]]:
    """The layout of a ``SLOW_CASES`` stroke: the bench rack, with the cue ball frozen to the apex for a push."""
    case = next(c for c in SLOW_CASES if c[0] == name)
    layout = break_layout(case[1], spec)
    if case[4]:
        ax, ay = layout["1"]
        layout["cue"] = (ax - 2.0 * spec.ball_radius - FROZEN_GAP, ay)
    return layout


def run_bench(settings: Any | None = None, runs: int = RUNS) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name, table, _rack, speed in CASES:
        spec = load_table(table)
        params = _params(spec, settings)
        simulate(spec, {"cue": (0.0, 0.0)}, ShotParams(cue_speed=1.0), params)  # warm-up
        layout = break_layout(name, spec)
        shot = ShotParams(ball="cue", cue_speed=speed, direction=0.0)  # head spot -> apex on the foot spot
        results[name] = _timed(spec, layout, shot, params, runs)
        for slow, base, s_speed, tip, _frozen in SLOW_CASES:
            if base != name:
                continue
            shot = ShotParams(ball="cue", cue_speed=s_speed, direction=0.0, tip=tip)
            r = _timed(spec, slow_layout(slow, spec), shot, params, runs)
            cpu0 = results[name]["cpu_s"]
            r["against"] = name
            r["cpu_ratio_to_break"] = round(r["cpu_s"] / cpu0, 2) if cpu0 > 0 else None
            results[slow] = r
    return {"physics": results}


POOLTOOL_SCRIPT = Path(__file__).resolve().parent.parent / "tools" / "pooltool_break.py"
POOLTOOL_ENV = "POOLTOOL_PYTHON"


class PooltoolError(Exception):
    """The pooltool interpreter could not give its figure (the message names the interpreter and why)."""


def pooltool_break(python: str, runs: int = RUNS) -> dict[str, Any]:
    """pooltool's full break timed in ``python``, an interpreter with pooltool (in a subprocess)."""
    cmd = [python, str(POOLTOOL_SCRIPT), "--runs", str(runs)]
    try:
        # pooltool draws the rack's order from a set of ids: a fixed hash seed makes it the same break each run
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False, env=env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PooltoolError(f"{python}: {exc}") from exc
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise PooltoolError(f"{python}: exit {done.returncode}: {tail}")
    try:
        result: dict[str, Any] = json.loads(lines[-1])
        float(result["cpu_s"])
    except (ValueError, KeyError, TypeError) as exc:
        raise PooltoolError(f"{python}: expected one JSON line with cpu_s, got {lines[-1][:80]!r}") from exc
    return result


def add_pooltool(result: dict[str, Any], python: str | None) -> None:
    """Put pooltool's break and each of our breaks' CPU lead over it into ``result`` (if an interpreter)."""
    python = python or os.environ.get(POOLTOOL_ENV) or None
    if not python:
        return
    pt = pooltool_break(python)
    for r in result["physics"].values():
        if "against" not in r and pt["cpu_s"] > 0:
            r["pooltool_cpu_ratio"] = round(pt["cpu_s"] / r["cpu_s"], 2) if r["cpu_s"] > 0 else None
    result["pooltool"] = pt


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
_RATIO = {
    "en": "{name}: {sim:.2f} s simulated, CPU {cpu:.3f} s = {ratio:.2f}x the full break above ({ev} events)",
    "ru": "{name}: {sim:.2f} с удара, ЦП {cpu:.3f} с = {ratio:.2f}x от полного разбоя выше (событий {ev})",
}
_NAMES = {
    "ru": {
        "pyramid-break": "разбой пирамиды",
        "pool-break": "разбой в пуле",
        "snooker-break": "разбой в снукере",
        "snooker10-break": "разбой в снукере (10 футов)",
        "pyramid-soft-break": "слабый разбой пирамиды",
        "pyramid-cluster-push": "толчок в прижатую пирамиду",
        "pool-soft-break": "слабый разбой в пуле",
        "pool-cluster-push": "толчок в прижатую пирамиду (пул)",
    },
}


_POOLTOOL = {
    "en": (
        "pooltool {ver} 8-ball break ({balls} balls, 8 m/s): {sim:.2f} s simulated, CPU {cpu:.3f} s, "
        "{ev} events, median of {runs} runs"
    ),
    "ru": (
        "pooltool {ver}, разбой в пуле ({balls} шаров, 8 м/с): {sim:.2f} с удара, ЦП {cpu:.3f} с, "
        "событий {ev}, медиана {runs} прогонов"
    ),
}
_LEAD = {
    "en": "{name}: pooltool's break CPU / this break's = {ratio:.2f}",
    "ru": "{name}: ЦП разбоя pooltool / ЦП этого разбоя = {ratio:.2f}",
}


def _decimal(text: str, lang: str) -> str:
    """A text's numbers with the language's decimal separator (0,044 с in Russian: the interface's one number
    format, scenes.core.i18n.number, which physics does not import)."""
    return re.sub(r"(?<=\d)\.(?=\d)", ",", text) if lang == "ru" else text


def format_pooltool(result: dict[str, Any], lang: str = "en") -> str:
    """pooltool's break and our breaks' lead over it, from ``add_pooltool``'s figures."""
    pt = result["pooltool"]
    lines = [
        _POOLTOOL.get(lang, _POOLTOOL["en"]).format(
            ver="{ver}",
            balls=pt["balls"],
            sim=pt["simulated_s"],
            cpu=pt["cpu_s"],
            ev=pt["events"],
            runs=pt["runs"],
        )
    ]
    names = _NAMES.get(lang, {})
    for name, r in result["physics"].items():
        if r.get("pooltool_cpu_ratio") is not None:
            lines.append(
                _LEAD.get(lang, _LEAD["en"]).format(name=names.get(name, name), ratio=r["pooltool_cpu_ratio"])
            )
    return _decimal("\n".join(lines), lang).replace("{ver}", str(pt["pooltool"]))


def format_bench(result: dict[str, Any], lang: str = "en") -> str:
    fmt = _LABELS.get(lang, _LABELS["en"])
    lines = []
    names = _NAMES.get(lang, {})
    for name, r in result.get("physics", {}).items():
        if "against" in r:
            lines.append(
                _RATIO.get(lang, _RATIO["en"]).format(
                    name=names.get(name, name),
                    sim=r["simulated_s"],
                    cpu=r["cpu_s"],
                    ratio=r["cpu_ratio_to_break"] or 0.0,
                    ev=r["events"],
                )
            )
            continue
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
    return _decimal("\n".join(lines), lang)
