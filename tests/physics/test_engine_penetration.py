"""Regression tests for two penetrations the random-stroke campaign found (tests/hardening/repro).

* ``campaign_seed_100105.toml``: a cue ball hit a blue frozen to the head cushion; after the pair's
  impulses the two, touching and separating slowly, curved back into each other under cloth friction
  and overlapped 1.98 mm for 0.11 s. Cause: the step bound treated a separating pair as safe on its
  straight paths even when it was already within the paths' possible curvature of contact. Tolerance:
  the campaign's ``BALL_TOL`` 0.1 mm (ball-ball contacts are analytic, only rounding is allowed).
* ``campaign_seed_100128.toml``: a cue ball flying at 13 m/s just above the slate hit a cushion nose,
  which pushed it down at 2.3 m/s; Bullet found the slate only after a substep had carried the ball
  0.82 mm into it. Tolerance: the campaign's ``BED_TOL`` 0.1 mm over the open slate.

Both are checked at 100 Hz samples (as the campaign found them) and at 1000 Hz (every substep) or
500 Hz (the 100128 ball ends on the floor and spins there for seconds).
"""

from __future__ import annotations

import pytest

from tests.hardening.checks import BALL_TOL, BED_TOL, measure_seed


@pytest.mark.parametrize("hz", [100.0, 1000.0])
def test_seed_100105_balls_do_not_pass_through(hz: float) -> None:
    m = measure_seed(100105, hz)
    assert m.ball_pen <= BALL_TOL, m.ball_pen_at
    assert not [f for f in m.failures if f[0] in ("balls", "accounted", "finite", "bounded")]


@pytest.mark.parametrize("hz", [100.0, 500.0])
def test_seed_100128_ball_does_not_sink_into_the_slate(hz: float) -> None:
    m = measure_seed(100128, hz)
    slate = [f for f in m.failures if f[0] == "static" and "slate" in f[1]]
    assert not slate
    assert not [f for f in m.failures if f[0] in ("balls", "accounted", "finite", "bounded")]
    if "slate" in m.static_pen_at:
        assert m.static_pen <= BED_TOL
