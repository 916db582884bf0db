"""A ball rolling along the long rail into a Russian corner pocket (issue 23 §3), by the geometry and by the engine.

The pyramid corner (72.5 mm between facings along the pocket's axis, R1 rounding, 68 mm ball) is narrower than
a path along the rail can use: TP 3.6's equations (``physics.validation_pockets``) with this pocket give, nearly
along the rail (44 degrees off the axis), no target on the rail's side and under 8 mm on the other, while a ball
frozen to the rail runs R - mouth / (2 sqrt 2) = 8.4 mm off the mouth's centre. docs/pockets.md has the figures."""

from __future__ import annotations

import math

import pytest

from physics.cue import cue_speed_for
from physics.params import PhysicsParams
from physics.record import BallStatus, ShotParams
from physics.simulate import simulate
from physics.tables import load_table
from physics.validation_pockets import CornerPocket


def test_tp_3_6_leaves_a_rail_ball_no_way_into_the_russian_corner() -> None:
    spec = load_table("pyramid-12ft")
    pk = spec.pockets["foot-left"]
    R = spec.ball_radius
    frozen_off = R - pk.mouth / (2 * math.sqrt(2))
    for hole in (0.04, 0.07, 0.09):
        # The 135 degree cut puts the facings along the axis: alpha 0 (a hair over, clear of the sines' zeros).
        m = CornerPocket(R=R, mouth=pk.mouth, alpha=1e-5, hole=hole, shelf=pk.corridor, rail=spec.length)
        rail_side, far_side = m.target(math.radians(44.0))
        assert rail_side == 0.0
        assert far_side < frozen_off


@pytest.mark.parametrize("v", [0.5, 0.8])
def test_a_ball_frozen_to_the_rail_rattles_out_of_the_russian_corner(v: float) -> None:
    spec = load_table("pyramid-12ft")
    p = PhysicsParams.for_table(spec)
    R = spec.ball_radius
    start = (spec.half_length - 0.6, spec.half_width - R)
    shot = ShotParams(ball="cue", cue_speed=cue_speed_for(v, 0.4, p), direction=0.0, tip=(0.0, 0.4))
    rec = simulate(spec, {"cue": start}, shot)
    assert rec.final["cue"].status == BallStatus.ON_TABLE
    assert any(e.type.value == "pocket_jaw" for e in rec.events)
