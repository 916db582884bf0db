"""The record of the strike (design.md's ``cue_strike``): how many times the tip met the ball and when."""

from __future__ import annotations

import json

from physics.record import Event, EventType, ShotParams, ShotRecord
from physics.simulate import simulate
from physics.tables import load_table

POOL = load_table("pool-9ft")


def test_every_stroke_records_its_tip_contacts() -> None:
    shot = ShotParams(ball="cue", cue_speed=2.0, direction=0.0, elevation=5.0)
    rec = simulate(POOL, {"cue": (-0.5, 0.0)}, shot, sample_hz=None)
    strike = rec.events[0]
    assert strike.type == EventType.CUE_STRIKE
    assert strike.contacts == 1 and strike.contact_times == ()
    d = rec.to_dict()["events"][0]
    assert d["contacts"] == 1 and d["contact_times"] == []
    back = ShotRecord.from_dict(json.loads(rec.to_json())).events[0]
    assert back == strike


def test_an_old_record_without_them_reads_as_one_contact() -> None:
    old = {"t": 0.0, "type": "cue_strike", "ball": "cue", "miscue": False, "scoop": False}
    e = Event.from_dict(old)
    assert e.contacts is None and e.contact_times is None  # absent: one contact (design.md)
    assert "contacts" not in e.to_dict() and "contact_times" not in e.to_dict()
    double = Event.from_dict({**old, "contacts": 2, "contact_times": [0.0125]})
    assert double.contacts == 2 and double.contact_times == (0.0125,)
    assert double.to_dict()["contact_times"] == [0.0125]
