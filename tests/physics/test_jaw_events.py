"""Every contact with a jaw is recorded, on time (issue 23 §3): the referee reads ``pocket_jaw`` and ``cushion``
events (a jaw counts as a cushion in several games), so a contact may be neither missing nor stamped later than it
began by more than one substep.

The truth is the geometry: the ball's sampled centres (10 kHz) against the table's static bodies. A contact begins
at the first sample where the ball is within 0.2 mm of a jaw; its event must be stamped no later than one substep
(1 ms) after it: a ``pocket_jaw``, or where the jaw's round meets a cushion's nose and the ball touches both, that
cushion's ``cushion`` (the pyramid's corner jaws begin 2 mm before the nose line ends: R1 round, 45 degree turn). Found broken: the engine only took a contact for new if the
ball had not touched any surface of that kind and pocket at its previous step's end, and a step in a pocket can
be 50 ms long, so a ball rattling from one facing to the other (pool corner, 2.4 m/s, 30 degrees off the axis,
40 mm off the centre) had its second and third jaw contacts unrecorded.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from physics import validation_models as M
from physics.engine import Engine
from physics.params import PhysicsParams
from physics.record import EventType, ShotParams
from physics.simulate import simulate
from physics.tables import load_table

TOUCH = 2e-4  # m: a ball this close to a surface touches it (Bullet's contacts begin a fraction of a mm out)
HZ = 10000.0


def _into_corner(
    tid: str, theta: float, offset: float, v: float
) -> tuple[np.ndarray, list[tuple[float, str, str]]]:
    """A rolling ball at ``v`` into the foot-left corner, ``theta`` degrees off its axis from the long rail's
    side, ``offset`` across the line from the centre of the mouth: its samples and its jaw and cushion events
    (time, kind, pocket or cushion)."""
    spec = load_table(tid)
    p = PhysicsParams.for_table(spec)
    pk = spec.pockets["foot-left"]
    mc = (pk.centre[0] - pk.axis[0] * pk.mouth / 2, pk.centre[1] - pk.axis[1] * pk.mouth / 2)
    a = math.atan2(pk.axis[1], pk.axis[0]) - math.radians(theta)
    u, n = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    start = (mc[0] - 0.3 * u[0] + offset * n[0], mc[1] - 0.3 * u[1] + offset * n[1])
    cue = v / M.strike_speed(1.0, 0.4, p.m, p.cue_mass, p.tip_e)
    shot = ShotParams(ball="cue", cue_speed=cue, direction=math.degrees(a), tip=(0.0, 0.4))
    rec = simulate(spec, {"cue": start}, shot, replace(p, max_stroke_seconds=0.4), sample_hz=HZ)
    assert rec.samples is not None
    kinds = {EventType.POCKET_JAW: "jaw", EventType.CUSHION: "cushion"}
    events = [(e.t, kinds[e.type], e.pocket or e.cushion or "") for e in rec.events if e.type in kinds]
    return np.asarray(rec.samples["cue"], dtype=float), events


def _jaw_contacts(tid: str, r: np.ndarray) -> list[tuple[float, str, set[str]]]:
    """When the ball, by its samples, begins to touch a jaw above the cloth (not falling in the well): the time,
    the pocket and the cushions it touches with it (where a jaw's round meets a cushion's nose it touches both)."""
    spec = load_table(tid)
    geo = Engine(spec, {"cue": (0.0, 0.0)}, PhysicsParams.for_table(spec)).bullet.geo
    out: list[tuple[float, str, set[str]]] = []
    touching: set[str] = set()
    for row in r:
        near = [
            (s.kind, s.id or "") for s, _pt, _n, d in geo.contacts(row[1:4], spec.ball_radius) if d < TOUCH
        ]
        now = {sid for kind, sid in near if kind == "jaw"} if row[3] > 0.0 else set()
        out += [
            (float(row[0]), pid, {sid for kind, sid in near if kind == "cushion"})
            for pid in sorted(now - touching)
        ]
        touching = now
    return out


@pytest.mark.parametrize(
    ("tid", "theta", "offset"),
    [
        ("pool-9ft", 30.0, 0.040),  # off one facing, across to the other and back
        ("pool-9ft", 40.0, -0.028),
        ("pyramid-12ft", 0.0, -0.010),  # jaw to jaw in the tight Russian corner
        ("pyramid-12ft", 30.0, -0.010),
    ],
)
def test_every_jaw_contact_is_recorded_within_a_substep(tid: str, theta: float, offset: float) -> None:
    r, events = _into_corner(tid, theta, offset, 2.4)
    contacts = _jaw_contacts(tid, r)
    assert contacts, "the stroke meets no jaw: the layout no longer tests anything"
    h = 1.0 / PhysicsParams.for_table(load_table(tid)).substep_hz
    for t, pid, cushions in contacts:
        near = [
            (te, kind, sid)
            for te, kind, sid in events
            if t - 2 * h <= te <= t + h + 1.0 / HZ and ((kind, sid) == ("jaw", pid) or sid in cushions)
        ]
        assert near, f"jaw {pid} touched at {t:.4f} s: no event by {t + h:.4f} s (events {events})"
