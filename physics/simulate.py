"""Simulate one stroke to rest and return its shot record (docs/formats.md §Shot record)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from panda3d.core import RenderState, TransformState

from physics.engine import Engine
from physics.errors import InputError
from physics.file_checks import check_simulate_args
from physics.objects import SceneObject
from physics.params import PhysicsParams
from physics.record import ShotParams, ShotRecord
from physics.scenario import Scenario
from physics.tables import TABLE_IDS, TableSpec, load_table

# Sample rows one stroke may hold (rate x duration x balls): 3 million packed rows are 240 MB, so the
# worst accepted request stays under ~500 MB with the engine and the JSON writer.
MAX_SAMPLE_ROWS = 3_000_000


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
    if isinstance(table, str):
        if table not in TABLE_IDS:
            raise InputError("simulate()", "table", f"a table id: {', '.join(TABLE_IDS)}")
        spec = load_table(table)
    else:
        spec = table
    p = params or PhysicsParams.for_table(spec)
    if sample_hz is not None and not (math.isfinite(sample_hz) and 0.0 < sample_hz <= 10000.0):
        raise InputError("simulate()", "sample_hz", "a rate in Hz above 0 and at most 10000")
    check_simulate_args(spec, balls, shot, p, objects, lamp)
    if shot is not None and shot.cue != p.cue:
        p = p.with_cue(spec.id, shot.cue)  # the cue the player took; the rest of the parameters as given
    if sample_hz is not None and sample_hz * (p.max_stroke_seconds + 1.0) * len(balls) > MAX_SAMPLE_ROWS:
        # Samples never change a stroke (tests/physics/test_engine_samples.py): run it once without them to
        # learn how long it lasts, and refuse a rate whose rows would not fit before storing any.
        bare = _run(spec, balls, shot, p, objects, lamp, None)
        top = MAX_SAMPLE_ROWS / (len(balls) * (float(bare.t) + 0.01))
        if sample_hz > top:
            raise InputError(
                "simulate()",
                "sample_hz",
                f"at most {math.floor(top)} Hz for this stroke ({len(balls)} balls, {float(bare.t):.2f} s: "
                f"{MAX_SAMPLE_ROWS:,} rows at most)",
            )
    eng = _run(spec, balls, shot, p, objects, lamp, sample_hz)
    samples = eng.samples
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


def _run(
    spec: TableSpec,
    balls: Mapping[str, tuple[float, float]],
    shot: ShotParams | None,
    p: PhysicsParams,
    objects: Sequence[SceneObject],
    lamp: tuple[float, float, float] | None,
    sample_hz: float | None,
) -> Engine:
    eng = Engine(spec, balls, p, objects, lamp, sample_hz)
    try:
        eng.run(shot)
    finally:
        eng.close()
        collect_panda_states()
    return eng


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
