"""The aiming aids' predictions come from the physics' own strike, cloth and collision models."""

from __future__ import annotations

import math

import pytest

from physics.cue import squirt_angle
from physics.params import PhysicsParams
from physics.record import ShotParams
from physics.tables import load_table
from scenes.aim_view import line_px, min_level
from scenes.core.aim_aids import AimLevel, predict

SPEC = load_table("snooker-12ft")
P = PhysicsParams.for_table(SPEC, {})
R = SPEC.ball_radius


def _dir(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def test_straight_shot_ghost_ball_two_radii_short_of_the_object_ball() -> None:
    pos = {"cue": (-0.5, 0.0), "black": (0.5, 0.0)}
    pred = predict(SPEC, P, pos, ShotParams("cue", 2.0, 0.0, 0.0, (0.0, 0.0)), AimLevel.PATH)
    assert pred is not None
    assert pred.ball == "black"
    assert pred.ghost is not None
    assert pred.ghost[0] == pytest.approx(0.5 - 2 * R, abs=1e-4)
    assert pred.ghost[1] == pytest.approx(0.0, abs=1e-9)
    # The object ball goes straight on, to the foot cushion.
    assert pred.object_path[-1][0] == pytest.approx(SPEC.half_length - R, abs=2e-3)


def test_follow_and_draw_bend_the_cue_balls_path_after_contact() -> None:
    """Close to the object ball the cue ball still slides at contact: the tip's spin decides where it goes."""
    pos = {"cue": (0.0, 0.0), "black": (0.3, 0.0)}
    ends = {}
    for name, tip in (("stun", (0.0, 0.0)), ("follow", (0.0, 0.45)), ("draw", (0.0, -0.45))):
        pred = predict(SPEC, P, pos, ShotParams("cue", 2.5, 0.0, 0.0, tip), AimLevel.PATH)
        assert pred is not None
        assert pred.ghost is not None
        ends[name] = pred.after_path[-1][0] - pred.ghost[0]
    assert ends["follow"] > 0.2  # runs on after the object ball
    assert ends["draw"] < -0.2  # comes back towards the player
    assert abs(ends["stun"]) < min(ends["follow"], -ends["draw"])


def test_stun_cut_leaves_along_the_tangent_line() -> None:
    """A sliding (stun) cue ball parts from the object ball at about 90 degrees (the tangent line)."""
    pos = {"cue": (0.0, 0.0), "black": (0.25, 0.03)}
    pred = predict(SPEC, P, pos, ShotParams("cue", 3.0, 0.0, 0.0, (0.0, -0.2)), AimLevel.PATH)
    assert pred is not None
    assert pred.ghost is not None
    obj = _dir(pred.object_path[0], pred.object_path[min(5, len(pred.object_path) - 1)])
    cue = _dir(pred.after_path[0], pred.after_path[min(3, len(pred.after_path) - 1)])
    line_of_centres = _dir(pred.ghost, pos["black"])
    assert obj == pytest.approx(line_of_centres, abs=3.0)  # throw turns it by a degree or two
    assert abs(((cue - obj) + 180) % 360 - 180) == pytest.approx(90.0, abs=8.0)


def test_side_spin_squirts_the_cue_ball_as_the_physics_strike_does() -> None:
    pos = {"cue": (0.0, 0.0), "black": (1.0, 0.3)}
    pred = predict(SPEC, P, pos, ShotParams("cue", 3.0, 0.0, 0.0, (0.4, 0.0)), AimLevel.GHOST)
    assert pred is not None
    assert pred.squirt_deg == pytest.approx(math.degrees(squirt_angle(0.4, P)), rel=1e-6)
    assert pred.squirt_deg > 0  # right english: the ball leaves to the left of the aim
    left = predict(SPEC, P, pos, ShotParams("cue", 3.0, 0.0, 0.0, (-0.4, 0.0)), AimLevel.GHOST)
    assert left is not None
    assert left.squirt_deg == pytest.approx(-pred.squirt_deg)


def test_levels_draw_only_what_they_promise() -> None:
    pos = {"cue": (-0.5, 0.0), "black": (0.5, 0.02)}
    shot = ShotParams("cue", 2.0, 0.0, 0.0, (0.0, 0.2))
    ghost = predict(SPEC, P, pos, shot, AimLevel.GHOST)
    obj = predict(SPEC, P, pos, shot, AimLevel.OBJECT)
    path = predict(SPEC, P, pos, shot, AimLevel.PATH)
    assert predict(SPEC, P, pos, shot, AimLevel.OFF) is None
    assert ghost is not None
    assert ghost.ghost
    assert not ghost.object_path
    assert not ghost.after_path
    assert obj is not None
    assert obj.object_path
    assert not obj.after_path
    assert path is not None
    assert path.object_path
    assert path.after_path
    # A miss: the line ends at the cushion, no ghost ball.
    miss = predict(SPEC, P, pos, ShotParams("cue", 2.0, 90.0, 0.0, (0.0, 0.0)), AimLevel.PATH)
    assert miss is not None
    assert miss.ghost is None
    assert miss.cushion
    assert miss.cue_path[-1][1] == pytest.approx(SPEC.half_width - R, abs=1e-3)


def test_level_cycle_stops_at_the_settings_cap_and_lines_grow_with_the_window() -> None:
    assert AimLevel.OFF.next() == AimLevel.GHOST
    assert AimLevel.PREVIEW.next() == AimLevel.OFF
    assert min_level(AimLevel.PREVIEW, AimLevel.PATH) == AimLevel.PATH
    assert min_level(AimLevel.GHOST, AimLevel.PATH) == AimLevel.GHOST
    assert line_px(600) == 2.0
    assert line_px(1080) == 3.0
    assert line_px(2160) == 6.0
