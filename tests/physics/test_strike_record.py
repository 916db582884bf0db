"""The record of the strike (``cue_strike``, docs/formats.md §Events): how many times the tip met the ball and when."""

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
    assert strike.contacts == 1
    assert strike.contact_times == ()
    d = rec.to_dict()["events"][0]
    assert d["contacts"] == 1
    assert d["contact_times"] == []
    back = ShotRecord.from_dict(json.loads(rec.to_json())).events[0]
    assert back == strike


def test_an_old_record_without_them_reads_as_one_contact() -> None:
    old = {"t": 0.0, "type": "cue_strike", "ball": "cue", "miscue": False, "scoop": False}
    e = Event.from_dict(old)
    # absent: one contact (docs/formats.md)
    assert e.contacts is None
    assert e.contact_times is None
    assert "contacts" not in e.to_dict()
    assert "contact_times" not in e.to_dict()
    double = Event.from_dict({**old, "contacts": 2, "contact_times": [0.0125]})
    assert double.contacts == 2
    assert double.contact_times == (0.0125,)
    assert double.to_dict()["contact_times"] == [0.0125]


def _double(gap: float, cue_speed: float, elevation: float = 0.0) -> Event:
    R = POOL.ball_radius
    shot = ShotParams(ball="cue", cue_speed=cue_speed, direction=0.0, elevation=elevation)
    rec = simulate(POOL, {"cue": (-0.5, 0.0), "1": (-0.5 + 2.0 * R + gap, 0.0)}, shot, sample_hz=None)
    return rec.events[0]


def test_a_slow_stroke_into_a_close_ball_meets_the_cue_ball_again() -> None:
    """A centre-ball stroke into an object ball 5 mm ahead: the cue ball (1.32 V off the tip, TP A.30) stops on
    the object ball (it keeps (1 - e)/2 of its speed); the cue, still moving at V - F/M = 0.59 V, reaches it
    again: a double hit, the cue ball's gap and then the object ball's gap closed at 0.59 V - 0.03 V."""
    e = _double(0.005, 0.5)
    assert e.contacts == 2
    assert e.contact_times is not None
    # The cue ball meets the object ball after 5 mm at 0.66 m/s; the tip has fallen 5 mm x 0.73/1.32 behind
    # and closes it at 0.28 m/s: ~7.6 + ~10 ms.
    assert 0.012 < e.contact_times[0] < 0.025
    assert _double(0.005, 2.0).contacts == 2  # faster, the same: the follow-through reaches it


def test_no_double_hit_where_the_ball_is_out_of_the_follow_throughs_reach() -> None:
    assert _double(0.2, 0.5).contacts == 1
    assert _double(0.2, 3.0).contacts == 1
