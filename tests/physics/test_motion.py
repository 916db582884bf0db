"""Cloth motion against the textbook solutions (docs/physics.md §Cloth), with the project's parameters."""

from __future__ import annotations

import math

import numpy as np
import pytest

from physics.record import EventType
from tests.physics.helpers import G, P, rows, slip_speed, speed, stroke

R = P.R


@pytest.mark.parametrize("v0", [1.0, 2.0, 3.0])
def test_stun_ball_rolls_at_five_sevenths_after_the_slide_distance(v0: float) -> None:
    rec = stroke({"cue": (-1.6, 0.0)}, v0)
    r = rows(rec)
    assert speed(r)[0] == pytest.approx(v0, rel=1e-3)  # a centre hit: pure slide, no spin
    k = int(np.argmax(slip_speed(r, R) < 1e-6))  # first sample rolling
    assert k > 0
    assert speed(r)[k] == pytest.approx(5.0 / 7.0 * v0, rel=0.01)
    slide = r[k, 1] - r[0, 1]
    assert slide == pytest.approx(12.0 * v0**2 / (49.0 * P.mu_slide * G), rel=0.03)


@pytest.mark.parametrize("v", [0.5, 0.8])
def test_rolling_ball_rolls_out_over_v2_over_2_mu_r_g(v: float) -> None:
    # 0.4 R above centre: the natural-roll height, the ball rolls from the start [TP A.18].
    rec = stroke({"cue": (-1.70, 0.0)}, v, tip=(0.0, 0.4))
    r = rows(rec)
    assert slip_speed(r[:1], R)[0] < 1e-5
    rest = [e for e in rec.events if e.type == EventType.REST and e.ball == "cue"]
    assert len(rest) == 1
    assert rec.final["cue"].pos is not None
    dist = rec.final["cue"].pos[0] - (-1.70)
    assert dist == pytest.approx(v * v / (2 * P.mu_roll * G), rel=0.03)
    assert rest[0].t == pytest.approx(v / (P.mu_roll * G), rel=0.03)


def test_spin_about_the_vertical_decays_at_the_spin_deceleration() -> None:
    rec = stroke({"cue": (-1.6, 0.0)}, 1.0, tip=(0.4, 0.0))
    r = rows(rec)
    wz = r[:, 9]
    assert wz[0] > 20.0  # right English: the right side is pushed forward, anticlockwise from above
    live = np.nonzero(np.abs(wz) > 1.0)[0]
    i0, i1 = live[1], live[-1]
    rate = (wz[i1] - wz[i0]) / (r[i1, 0] - r[i0, 0])
    assert -rate == pytest.approx(P.spin_decel, rel=0.05)


def test_a_level_cue_lifts_only_a_draw_by_its_vertical_squirt() -> None:
    """A level cue drives nothing into the slate and lifts nothing, except by squirt: the shaft's end mass
    gives way across the cue in the plane of the offset (TP A.31), so a draw's lateral impulse points up,
    F tan(alpha) with tan(alpha) = (5/2) b sqrt(1-b^2) / (1 + m/m_e + (5/2)(1-b^2)); a rise below
    min_bounce stays on the cloth. Follow pushes down into the slate, side across: neither lifts. Measured
    until the ball meets a cushion: a hard hit into a cushion makes it hop (test_cushion)."""
    for v, tip in ((1.0, (0.0, 0.0)), (4.0, (0.0, 0.45)), (6.0, (0.0, -0.45)), (8.0, (0.45, 0.0))):
        rec = stroke({"cue": (-1.2, 0.0)}, v, tip=tip)
        until = min((e.t for e in rec.events if e.type == "cushion"), default=math.inf)
        r = rows(rec)
        assert (r[:, 0] < until).sum() > 10
        rise = r[r[:, 0] < until, 3].max() - R
        b = tip[1]
        c = 1.0 - b * b
        vz = v * 2.5 * abs(b) * math.sqrt(c) / (1.0 + P.squirt_mass_ratio + 2.5 * c) if b < 0.0 else 0.0
        expected = vz * vz / (2.0 * G)
        if expected < P.min_bounce:
            assert rise <= 1e-6, (v, tip)
        else:
            assert rise == pytest.approx(expected, rel=0.02), (v, tip)
