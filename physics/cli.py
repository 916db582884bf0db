"""The ``simulate`` command and the scenario → shot record step the referee command uses.

``settings`` is ``scenes.core.settings.Settings``, used duck-typed (physics must not import scenes):
``settings.physics.substep_hz / .overrides / .max_stroke_seconds``, ``settings.lamp_position``,
``settings.lang``.
"""

from __future__ import annotations

import math
from typing import Any

from physics.errors import InputError
from physics.files import write_out
from physics.params import PhysicsParams
from physics.record import BallFinal, BallStatus, ShotRecord
from physics.report import summary
from physics.scenario import GameCatalog, Scenario, load_scenario
from physics.simulate import simulate_scenario

MAX_SAMPLE_HZ = 10000.0


def params_for(scenario: Scenario, settings: Any | None) -> PhysicsParams:
    ph = getattr(settings, "physics", None)
    if ph is None:
        return PhysicsParams.for_table(scenario.table)
    return PhysicsParams.for_table(scenario.table, dict(ph.overrides), ph.substep_hz, ph.max_stroke_seconds)


def _check_rate(sample_hz: float | None) -> None:
    if sample_hz is not None and not (math.isfinite(sample_hz) and 0.0 < sample_hz <= MAX_SAMPLE_HZ):
        raise InputError("command line", "--sample-hz", f"a rate in Hz above 0 and at most {MAX_SAMPLE_HZ:g}")


def recorded_record(scenario: Scenario, params: PhysicsParams) -> ShotRecord:
    """The shot record of a scenario that carries a recorded stroke (no simulation).

    Balls the file's ``final`` does not mention stayed where they were.
    """
    R = scenario.table.ball_radius
    final: dict[str, BallFinal] = {}
    given = dict(scenario.recorded_final or {})
    for b, (x, y) in scenario.balls.items():
        final[b] = given.pop(b, BallFinal(BallStatus.ON_TABLE, pos=(x, y, R)))
    final.update(given)
    events = tuple(sorted(scenario.recorded_events or (), key=lambda e: e.t))
    return ShotRecord(
        table=scenario.table.id,
        params=params.as_dict(),
        events=events,
        final=final,
        samples=None,
        initial={b: (x, y, R) for b, (x, y) in scenario.balls.items()},
        shot=scenario.shot,
        duration=max((e.t for e in events), default=0.0),
    )


def load_or_simulate(
    file: str, sample_hz: float | None, settings: Any | None, catalog: GameCatalog
) -> tuple[Scenario, ShotRecord]:
    """``catalog``: what the file's game ids mean (the referee's registry, handed down by main.py)."""
    _check_rate(sample_hz)
    scenario = load_scenario(file, catalog)
    params = params_for(scenario, settings)
    if scenario.is_recorded:
        return scenario, recorded_record(scenario, params)
    lamp = getattr(settings, "lamp_position", (0.0, 0.0, 1.0)) if settings is not None else (0.0, 0.0, 1.0)
    try:
        return scenario, simulate_scenario(scenario, params, lamp=lamp, sample_hz=sample_hz)
    except InputError as exc:
        if exc.key == "sample_hz":  # too many rows for this stroke: the user's --sample-hz
            raise InputError("command line", "--sample-hz", exc.expected) from None
        raise


def simulate_command(
    file: str, json_path: str | None, sample_hz: float | None, settings: Any | None, catalog: GameCatalog
) -> int:
    _, record = load_or_simulate(file, sample_hz, settings, catalog)
    if json_path is None:
        print(summary(record, getattr(settings, "lang", "en") if settings is not None else "en"))
        return 0
    write_out(json_path, "--json", record.write_json)
    return 0
