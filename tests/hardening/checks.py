"""The checks every random stroke must pass, measured (not just asserted) so the campaign can report them.

Tolerances and why:

* ``STATIC_TOL`` 1.5 mm into the slate, a cushion, a jaw, a rail, a well or a room object. Balls near
  pockets and in flight are integrated by Bullet, whose solver lets a resting or hard contact sink
  by a fraction of a millimetre before it pushes back, and whose GJK distance is up to about 1 mm
  off near hull vertices (physics/plan, GJK_MERGE). A ball 1.5 mm in (4 % of R) is still
  visibly outside; 2 mm and more would show and could catch a ball on an edge. On top of that a
  ball moving at speed v may be sampled inside the substep in which Bullet meets the contact,
  up to v h deep (h = 1/substep_hz): a ball hitting the floor at 4 m/s is 4 mm in for one substep
  and out at the next. So the bound is 1.5 mm + v h at the sampled speed.
* ``BALL_TOL`` 0.1 mm between two balls: ball-ball contacts are solved analytically by the engine
  (swept spheres), so only rounding is allowed; it is the scenario format's own overlap tolerance.
* ``BED_TOL`` 0.1 mm below z = R over the open slate, where the cloth motion is analytic.
* Energy: the strike is the only input, so after the first sample the total of
  ``m v^2 / 2 + I w^2 / 2 + m g z`` over the balls present in two consecutive samples may not rise by
  more than ``ENERGY_ABS`` + ``ENERGY_REL`` of the total. The absolute part covers the 1e-6 rounding
  of the sample rows (m v dv at 16 m/s is 5e-6 J); the relative part covers Bullet's
  semi-implicit Euler step, which gains up to m g^2 h^2 per substep in free flight
  (1e-5 J at 1 kHz over a 0.3 s flight is 3e-5 J, under 0.1 % of a 1 m/s ball).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import Any

from panda3d.bullet import BulletWorld

from physics.geometry import Surface, TableGeometry, build_table_geometry
from physics.params import G, PhysicsParams
from physics.record import POCKET_IDS, BallStatus, EventType, ShotRecord
from physics.simulate import simulate
from physics.tables import load_table
from tests.hardening.strategies import Stroke, draw_stroke

STATIC_TOL = 1.5e-3
BALL_TOL = 1e-4
BED_TOL = 1e-4
ENERGY_ABS = 1e-4
ENERGY_REL = 1e-3


@dataclass
class Measure:
    """What one stroke did, measured."""

    duration: float = 0.0
    wall: float = 0.0
    cpu: float = 0.0  # the simulation's CPU seconds (the wall time swings with the machine's load)
    static_pen: float = 0.0  # deepest reach of a ball into a static body, m
    static_pen_at: str = ""
    ball_pen: float = 0.0  # deepest overlap of two balls, m
    ball_pen_at: str = ""
    kind_pen: dict[str, float] = field(default_factory=dict)  # deepest reach per surface kind, m
    energy_rise: float = 0.0  # largest rise of the total energy between samples, J
    energy_rise_at: str = ""
    failures: list[tuple[str, str]] = field(default_factory=list)  # (check, message)

    def fail(self, check: str, msg: str) -> None:
        self.failures.append((check, msg))


def run(stroke: Stroke, sample_hz: float | None = None) -> ShotRecord:
    return simulate(
        stroke.table, stroke.balls, stroke.shot, objects=stroke.objects, lamp=stroke.lamp, sample_hz=sample_hz
    )


def measure_seed(seed: int, sample_hz: float, record: bool = True) -> Measure:
    """Run the campaign's stroke ``seed`` with samples at ``sample_hz`` and measure it: its samples, and its
    record too unless ``record`` is False (the repro tests of one defect)."""
    stroke = draw_stroke(seed)
    rec = run(stroke, sample_hz)
    m = Measure()
    if record:
        check_record(stroke, rec, m)
    check_samples(stroke, rec, m)
    return m


def check_geometry(stroke: Stroke) -> TableGeometry:
    """The stroke's static world (table, lamp, objects), for contact queries."""
    return build_table_geometry(BulletWorld(), load_table(stroke.table), stroke.objects, stroke.lamp)


def _finite(x: Any) -> bool:
    if isinstance(x, float):
        return math.isfinite(x)
    if isinstance(x, dict):
        return all(_finite(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return all(_finite(v) for v in x)
    return True


def check_record(stroke: Stroke, rec: ShotRecord, m: Measure) -> None:
    """No NaN/inf, every ball accounted for, bounded time."""
    # Every number of the record, its samples included, as JSON without NaN or infinity (to_dict refuses a
    # non-finite number, json.dumps with allow_nan=False too: walking the record's numbers once more in Python
    # was a third of the campaign's time).
    try:
        json.dumps(rec.to_dict(), allow_nan=False)
    except ValueError as exc:
        m.fail("finite", f"to_json: {exc}")
    spec = load_table(stroke.table)
    R = spec.ball_radius
    if set(rec.final) != set(stroke.balls):
        m.fail("accounted", f"final has {sorted(rec.final)}, layout has {sorted(stroke.balls)}")
    for b, f in rec.final.items():
        if f.status == BallStatus.ON_TABLE:
            if f.pos is None or not _finite(list(f.pos)):
                m.fail("accounted", f"{b} on_table without a finite position")
            elif (
                abs(f.pos[2] - R) > 1e-3
                or abs(f.pos[0]) > spec.half_length + 0.2
                or abs(f.pos[1]) > spec.half_width + 0.2
            ):
                m.fail("accounted", f"{b} on_table at {f.pos}: not on the bed")
        elif f.status == BallStatus.POCKETED:
            if f.pocket not in POCKET_IDS:
                m.fail("accounted", f"{b} pocketed in {f.pocket!r}")
        elif f.status == BallStatus.OFF_TABLE:
            if f.pos is None or not _finite(list(f.pos)) or not f.rest:
                m.fail("accounted", f"{b} off_table without a position and a resting place: {f}")
            elif f.pos[2] < spec.floor_z + R - STATIC_TOL - 1e-9:
                m.fail("accounted", f"{b} off_table below the floor: {f.pos}")
        else:
            m.fail("accounted", f"{b}: status {f.status!r}")
    p = PhysicsParams.for_table(spec)
    if not (0.0 <= rec.duration < p.max_stroke_seconds):
        m.fail("bounded", f"duration {rec.duration} s (cap {p.max_stroke_seconds} s)")
    # The record rounds the duration to 1 us; event times are not rounded.
    if any(e.t > rec.duration + 1e-6 or e.t < 0.0 for e in rec.events):
        m.fail("bounded", "an event outside [0, duration]")
    m.duration = rec.duration


def check_samples(stroke: Stroke, rec: ShotRecord, m: Measure, geo: TableGeometry | None = None) -> None:
    """Penetration and energy over the sampled states."""
    if not rec.samples:
        return
    spec = load_table(stroke.table)
    p = PhysicsParams.for_table(spec)
    R, mass, inertia, h = p.R, p.m, p.inertia, 1.0 / p.substep_hz
    geo = geo or check_geometry(stroke)
    x0, x1, y0, y1 = geo.safe_box(clearance=0.0)
    by_t: dict[float, dict[str, tuple[float, ...]]] = {}
    for b, ball_rows in rec.samples.items():
        for row in ball_rows:
            by_t.setdefault(row[0], {})[b] = row
    # The cue adds energy where the tip meets the ball again (the follow-through's later contacts).
    tip_times = [
        e.t + dt for e in rec.events if e.type == EventType.CUE_STRIKE for dt in (e.contact_times or ())
    ]
    prev: dict[str, float] | None = None
    prev_t = 0.0
    seen: dict[tuple[float, float, float], list[tuple[Surface, float]]] = {}
    for t in sorted(by_t):
        rows = by_t[t]
        energy: dict[str, float] = {}
        for b, r in rows.items():
            x, y, z = r[1], r[2], r[3]
            v2 = r[4] ** 2 + r[5] ** 2 + r[6] ** 2
            w2 = r[7] ** 2 + r[8] ** 2 + r[9] ** 2
            energy[b] = 0.5 * mass * v2 + 0.5 * inertia * w2 + mass * G * z
            if x0 <= x <= x1 and y0 <= y <= y1 and R - 0.01 < z < R + 0.01:
                # Over the open slate only the cloth is near: analytic check against z = R.
                pen = R - z
                if pen > m.static_pen:
                    m.static_pen, m.static_pen_at = pen, f"{b} t={t} slate"
                if pen > BED_TOL:
                    m.fail(
                        "static",
                        f"{b} {pen * 1e3:.3f} mm into the slate at t={t} ({x:.4f}, {y:.4f}, {z:.5f})",
                    )
                continue
            speed = math.sqrt(v2)
            tol = STATIC_TOL + speed * h
            key = (x, y, z)
            found = seen.get(key)
            if found is None:
                # A ball at rest repeats its row: its contacts with the static world are asked once (the
                # queries were most of the checks' cost, and most rows are of balls at rest).
                found = seen[key] = [(surf, dist) for surf, _pt, _n, dist in geo.contacts(key, R)]
            for surf, dist in found:
                pen = -dist
                if pen > m.kind_pen.get(surf.kind, 0.0):
                    m.kind_pen[surf.kind] = pen
                if pen > m.static_pen:
                    m.static_pen, m.static_pen_at = pen, f"{b} t={t} {surf.kind}:{surf.id}"
                if pen > tol:
                    m.fail(
                        "static",
                        f"{b} {pen * 1e3:.2f} mm into {surf.kind}:{surf.id} at t={t} "
                        f"({x:.4f}, {y:.4f}, {z:.4f})",
                    )
        names = sorted(rows)
        for i, a in enumerate(names):
            ra = rows[a]
            for b in names[i + 1 :]:
                rb = rows[b]
                dist = math.dist(ra[1:4], rb[1:4])
                pen = 2.0 * R - dist
                if pen > m.ball_pen:
                    m.ball_pen, m.ball_pen_at = pen, f"{a}/{b} t={t}"
                if pen > BALL_TOL:
                    m.fail("balls", f"{a} and {b} overlap by {pen * 1e3:.3f} mm at t={t}")
        if prev is not None and not any(prev_t - h <= tt <= t + h for tt in tip_times):
            common = [b for b in energy if b in prev]
            e0 = sum(prev[b] for b in common)
            e1 = sum(energy[b] for b in common)
            rise = e1 - e0
            if rise > m.energy_rise:
                m.energy_rise, m.energy_rise_at = rise, f"t={prev_t}..{t} E {e0:.6f} -> {e1:.6f} J"
            if rise > ENERGY_ABS + ENERGY_REL * abs(e0):
                m.fail(
                    "energy",
                    f"total energy rose {rise:.6f} J ({e0:.6f} -> {e1:.6f}) between t={prev_t} and {t}",
                )
        prev, prev_t = energy, t


def check_referee(stroke: Stroke, rec: ShotRecord, m: Measure) -> None:
    """Every game of the table rules on the stroke without raising."""
    from rules.registry import games_for_table, get_referee
    from rules.state import MatchState

    for game in games_for_table(stroke.table):
        ref = get_referee(game)
        n = ref.player_range[0]
        known = set(ref.ball_set(n))
        layout = {b: p for b, p in stroke.balls.items() if b in known}
        try:
            state = MatchState.new(get_referee(game), tuple(f"P{i + 1}" for i in range(n)), layout=layout)
            ruling = ref.judge(state, rec)
            state.apply(ruling)
        except Exception as exc:  # noqa: BLE001 - any exception is the finding
            m.fail("referee", f"{game}: {type(exc).__name__}: {exc}")


def check_stroke(
    stroke: Stroke, sample_hz: float | None = None, twice: bool = True, referee: bool = True
) -> tuple[ShotRecord | None, Measure]:
    m = Measure()
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        rec = run(stroke, sample_hz)
    except Exception as exc:  # noqa: BLE001
        m.fail("raises", f"simulate: {type(exc).__name__}: {exc}")
        return None, m
    m.wall = time.perf_counter() - t0
    m.cpu = time.process_time() - c0
    check_record(stroke, rec, m)
    check_samples(stroke, rec, m)
    if twice:
        again = run(stroke, sample_hz)
        if again.to_json() != rec.to_json():
            m.fail("deterministic", "the same stroke twice gave different records")
    if referee:
        check_referee(stroke, rec, m)
    return rec, m
