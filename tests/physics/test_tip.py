"""The tip's geometry: where a stroke is a scoop (the tip on the cloth with the ball) and where it miscues.

docs/strike.md says where the lines are and why; these tests hold the physics to that geometry over a grid
of tip offset x elevation on every table's cues, and to the closed forms at the two ends of the range.
"""

from __future__ import annotations

import math

import pytest

from physics.cue import is_scoop, strike
from physics.cues import CUE_KINDS
from physics.params import PhysicsParams
from physics.tables import load_table
from physics.tip import friction_demand, miscue_limit, squirt_tan, tip_clearance

TABLES = ("pyramid-12ft", "pool-9ft", "snooker-12ft", "snooker-10ft")
PARAMS = [PhysicsParams.for_table(load_table(t), cue=k) for t in TABLES for k in CUE_KINDS]


@pytest.mark.parametrize("p", PARAMS, ids=lambda p: f"{p.R * 2000:.1f}mm-{p.cue}")
def test_every_ordinary_draw_is_no_scoop(p: PhysicsParams) -> None:
    """Draw up to 0.6 R below centre with the cue raised 5-20 degrees: the tip stays clear of the cloth on
    every table, so no such stroke is a scoop (every draw played at the window's default 5 degrees was)."""
    for b10 in range(0, 7):
        for side10 in (-3, 0, 3):
            tip = (side10 / 10.0, -b10 / 10.0)
            for elev in (5.0, 8.0, 12.0, 16.0, 20.0):
                assert tip_clearance(tip, elev, p.R, p.tip_radius, p.tip_width) > 0.0, (tip, elev)
                assert not is_scoop(tip, elev, p), (tip, elev)
                assert not strike(3.0, 0.0, elev, tip, p).scoop, (tip, elev)


@pytest.mark.parametrize("p", PARAMS, ids=lambda p: f"{p.R * 2000:.1f}mm-{p.cue}")
def test_the_scoop_line_is_where_the_tip_reaches_the_cloth(p: PhysicsParams) -> None:
    """Over the grid the call flips exactly where the clearance crosses zero, and it only ever flips one way
    as the tip goes lower or the cue flatter."""
    for elev in (0.0, 2.0, 5.0, 10.0, 20.0, 30.0, 45.0, 60.0, 75.0):
        calls = [is_scoop((0.0, -b / 100.0), elev, p) for b in range(0, 100)]
        # Once scooping, every lower tip scoops too.
        first = calls.index(True) if True in calls else len(calls)
        assert all(calls[first:]), elev
        assert not any(calls[:first]), elev
    for b in range(0, 100, 5):
        flat = [is_scoop((0.0, -b / 100.0), e, p) for e in range(0, 80, 2)]
        first_clear = flat.index(False) if False in flat else len(flat)
        assert not any(flat[first_clear:]), b  # a steeper cue lifts the tip off the cloth


def test_clearance_closed_forms() -> None:
    """A level cue: the cap's lower edge at R - (R + r_t) rho - w/2; a steep one: the dome's own bottom."""
    R, rt, w = 0.028575, 0.0106, 0.013
    for b in (0.0, 0.2, 0.5, 0.6):
        assert tip_clearance((0.0, -b), 0.0, R, rt, w) == pytest.approx(R - (R + rt) * b - w / 2, abs=1e-12)
    th = math.radians(70.0)
    b = 0.3
    dome_z = R + (R + rt) * (-b * math.cos(th) + math.sqrt(1 - b * b) * math.sin(th))
    assert tip_clearance((0.0, -b), 70.0, R, rt, w) == pytest.approx(dome_z - rt, abs=1e-12)
    # Side english alone at a level cue: the contact's height is R - 0 and the clearance does not depend on
    # which side.
    assert tip_clearance((0.4, 0.0), 0.0, R, rt, w) == pytest.approx(
        tip_clearance((-0.4, 0.0), 0.0, R, rt, w)
    )


def test_a_tip_aimed_at_the_cloth_is_a_scoop_and_slides_off() -> None:
    """A tip 0.7-0.8 R below centre on a near-level cue meets the cloth with the ball: a scoop, and beyond the
    friction limit, a miscue too (WPA treats a scoop as a miscue: docs/strike.md)."""
    for t in TABLES:
        p = PhysicsParams.for_table(load_table(t))
        s = strike(3.0, 0.0, 2.0, (0.0, -0.8), p)
        assert s.scoop, t
        assert s.miscue, t


@pytest.mark.parametrize("ratio", [15.0, 25.0])
def test_miscue_limit_is_the_edge_of_the_friction_cone(ratio: float) -> None:
    """At the limit the impulse the tip transmits (axial plus the squirt's lateral push) lies on the edge of
    the cone: tan(asin(rho) - squirt angle) = mu. Without squirt it would be mu / sqrt(1 + mu^2)."""
    mu = 0.6
    rho = miscue_limit(mu, ratio)
    assert friction_demand(rho, ratio) == pytest.approx(mu, abs=1e-9)
    assert math.tan(math.asin(rho) - math.atan(squirt_tan(rho, ratio))) == pytest.approx(mu, abs=1e-9)
    plain = mu / math.sqrt(1 + mu * mu)
    assert plain < rho < plain + 0.06  # the shaft's give widens Dr. Dave's ~0.5 R a little
    # The physics' own call follows it.
    p = PhysicsParams.for_table(load_table("pool-9ft"))
    assert not strike(2.0, 0.0, 10.0, (0.0, p.miscue_limit - 1e-6), p).miscue
    assert strike(2.0, 0.0, 10.0, (0.0, p.miscue_limit + 1e-6), p).miscue
