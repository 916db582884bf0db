"""Runs of sustained pushes (physics/engine/pushes.py): the same model as the general step, cheaper.

A run takes the substeps in which nothing happens but sustained pushes (and slow contacts that become
pushes) in plain floats; anything else is left to the general step. Where the two differ is the instant
of a slow contact: the general step finds it inside the substep, a run at the substep's end (under 1 ms
late, the pair closing at under 10 mm/s: under 0.01 mm), and what such shifts add up to over a stroke.
"""

from __future__ import annotations

import math

import pytest

from physics.bench import CASES, FROZEN_GAP, SLOW_CASES, format_bench, slow_layout
from physics.engine import Engine, pushes
from physics.params import PhysicsParams
from physics.racks import BENCH_PYRAMID, initial_layout
from physics.record import EventType, ShotParams, ShotRecord
from physics.simulate import simulate
from physics.tables import load_table
from tests.hardening.checks import check_stroke
from tests.hardening.strategies import Stroke

# Final positions with and without runs, measured on the bench's slow strokes on every table: 0.05-0.13 mm.
FINAL_TOL = 5e-4


def _without_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Engine, "_pushes_only", lambda self: False)


def _pairs(rec: ShotRecord) -> set[tuple[str, ...]]:
    return {tuple(sorted(e.balls or ())) for e in rec.events if e.type is EventType.BALL_BALL}


def test_a_run_of_pushes_follows_the_general_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's frozen-cluster push on the pool table (cue ball frozen to the apex, 1 m/s with follow
    and side): most of its contact time is sustained pushing."""
    spec = load_table("pool-9ft")
    p = PhysicsParams.for_table(spec)
    layout = slow_layout("pool-cluster-push", spec)
    shot = ShotParams(ball="cue", cue_speed=1.0, tip=(0.3, 0.4))
    calls: list[float] = []
    run = pushes.PushRun.run

    def counted(self: pushes.PushRun, t: float, t_cap: float) -> float:
        out = run(self, t, t_cap)
        calls.append(out - t)
        return out

    monkeypatch.setattr(pushes.PushRun, "run", counted)
    with_runs = simulate(spec, layout, shot, p)
    assert sum(calls) > 0.1  # over 100 substeps of pushing taken in runs
    _without_runs(monkeypatch)
    general = simulate(spec, layout, shot, p)
    assert _pairs(with_runs) == _pairs(general)
    for bid, fa in with_runs.final.items():
        fb = general.final[bid]
        assert fa.status == fb.status, bid
        if fa.pos is not None and fb.pos is not None:
            assert math.dist(fa.pos, fb.pos) < FINAL_TOL, bid


def test_a_stroke_without_a_sustained_contact_runs_no_pushes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The full-power break: every contact an impact; its record is the general step's alone."""

    def never(self: pushes.PushRun, t: float, t_cap: float) -> float:
        raise AssertionError("a run of pushes in a stroke without a sustained contact")

    monkeypatch.setattr(pushes.PushRun, "run", never)
    spec = load_table("pyramid-12ft")
    rec = simulate(spec, initial_layout(BENCH_PYRAMID, spec), ShotParams(ball="cue", cue_speed=8.0))
    assert len(rec.events) > 30


@pytest.mark.parametrize("name", [c[0] for c in SLOW_CASES])
def test_the_bench_slow_strokes_start_from_a_frozen_rack(name: str) -> None:
    table = next(t for n, t, _r, _s in CASES if n == next(c[1] for c in SLOW_CASES if c[0] == name))
    spec = load_table(table)
    layout = slow_layout(name, spec)
    R = spec.ball_radius
    pts = list(layout.values())
    gaps = [math.dist(a, b) - 2 * R for k, a in enumerate(pts) for b in pts[k + 1 :]]
    assert min(gaps) > 0.0
    frozen = next(c[4] for c in SLOW_CASES if c[0] == name)
    cue_gap = math.dist(layout["cue"], layout["1"]) - 2 * R
    assert cue_gap == pytest.approx(FROZEN_GAP, abs=1e-9) if frozen else cue_gap > 1.0


def test_bench_prints_each_slow_stroke_as_a_ratio_to_its_full_break() -> None:
    base = {
        "table": "pool-9ft",
        "balls": 16,
        "cue_speed": 8.0,
        "simulated_s": 7.8,
        "wall_s": 0.1,
        "cpu_s": 0.1,
        "realtime_ratio": 78.0,
        "cpu_realtime_ratio": 78.0,
        "substep_hz": 1000.0,
        "events": 77,
        "runs": 3,
    }
    slow = dict(base, cpu_s=0.25, simulated_s=4.5, events=51, against="pool-break", cpu_ratio_to_break=2.5)
    result = {"physics": {"pool-break": base, "pool-soft-break": slow}}
    en = format_bench(result, "en").splitlines()
    assert en[0].startswith("pool-break: 7.80 s simulated")
    assert en[1] == "pool-soft-break: 4.50 s simulated, CPU 0.250 s = 2.50x the full break above (51 events)"
    ru = format_bench(result, "ru").splitlines()
    assert ru[1].startswith("слабый разбой в пуле: 4,50 с удара, ЦП 0,250 с = 2,50x от полного разбоя")


@pytest.mark.parametrize("name", ["pyramid-soft-break", "pool-cluster-push"])
def test_strokes_of_pushes_pass_the_hardening_checks(name: str) -> None:
    """Energy never rising, no ball into another beyond BALL_TOL, every ball accounted for, the same record
    twice: with samples at 100 Hz, some of which fall inside runs of pushes."""
    base = next(c[1] for c in SLOW_CASES if c[0] == name)
    table = next(t for n, t, _r, _s in CASES if n == base)
    speed, tip = next((c[2], c[3]) for c in SLOW_CASES if c[0] == name)
    stroke = Stroke(
        table, slow_layout(name, load_table(table)), ShotParams(ball="cue", cue_speed=speed, tip=tip)
    )
    _rec, m = check_stroke(stroke, sample_hz=100.0, twice=True, referee=False)
    assert not m.failures, m.failures
