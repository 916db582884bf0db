"""Simulate one stroke to rest and return its shot record (design.md)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from panda3d.core import RenderState, TransformState

from physics.engine import Engine
from physics.errors import InputError
from physics.params import PhysicsParams
from physics.record import SampleRow, ShotParams, ShotRecord
from physics.scenario import Scenario, SceneObject
from physics.tables import TableSpec, load_table


def simulate(
    table: TableSpec | str,
    balls: Mapping[str, tuple[float, float]],
    shot: ShotParams | None,
    params: PhysicsParams | None = None,
    objects: Sequence[SceneObject] = (),
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
    sample_hz: float | None = None,
) -> ShotRecord:
    """Simulate ``shot`` on ``table`` from the layout ``balls`` until every ball rests.

    ``lamp`` is (x, y, height of the shade's bottom above the bed). ``sample_hz`` adds per-ball state
    rows ``[t, x, y, z, vx, vy, vz, wx, wy, wz]`` at that rate.
    """
    spec = load_table(table) if isinstance(table, str) else table
    p = params or PhysicsParams.for_table(spec)
    if sample_hz is not None and not (math.isfinite(sample_hz) and 0.0 < sample_hz <= 10000.0):
        raise InputError("--sample-hz", "N", "a rate in Hz, 0 < N <= 10000")
    if shot is not None and shot.ball not in balls:
        raise InputError("shot", "ball", f"a ball placed on the table ({', '.join(balls)})")
    eng = Engine(spec, balls, p, objects, lamp, sample_hz)
    try:
        eng.run(shot)
    finally:
        eng.close()
        collect_panda_states()
    samples: dict[str, tuple[SampleRow, ...]] | None = None
    if eng.samples is not None:
        samples = {b: tuple(rows) for b, rows in eng.samples.items()}
    return ShotRecord(
        table=spec.id,
        params=p.as_dict(),
        events=tuple(eng.events),
        final=dict(eng.finals),
        samples=samples,
        initial={b: (float(x), float(y), p.R) for b, (x, y) in balls.items()},
        shot=shot,
        duration=round(float(eng.t), 6),
    )


def collect_panda_states() -> None:
    """Let Panda3D free the transform and render states nothing uses any more.

    Panda3D keeps every state it makes in a global cache that only a rendered frame prunes. Bullet
    makes a state for every body transform it writes, so a process that simulates without drawing
    (the app's physics worker, `referee`, the campaign) grew by ~150 KB per varied stroke: 62,000
    cached states after 200 strokes. One call prunes a share of the cache; repeat until none is left.
    """
    for _ in range(64):
        if not TransformState.garbage_collect():
            break
    RenderState.garbage_collect()


def simulate_scenario(
    scenario: Scenario,
    params: PhysicsParams | None = None,
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
    sample_hz: float | None = None,
) -> ShotRecord:
    return simulate(scenario.table, scenario.balls, scenario.shot, params, scenario.objects, lamp, sample_hz)
