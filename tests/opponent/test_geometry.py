"""The cheap model: ghost-ball aims, blocked paths, mirror images, tolerances (docs/opponent.md)."""

from __future__ import annotations

import math

from physics.tables import load_table
from scenes.core.opponent.geometry import aim_point, kick_aims, mirror, pots_for

SPEC = load_table("pool-9ft")
R = SPEC.ball_radius


def test_a_straight_pot_is_aimed_at_the_ghost_ball_two_radii_behind() -> None:
    pocket = SPEC.pockets["foot-left"]
    aim = aim_point(SPEC, pocket)
    o = (aim[0] - 0.4, aim[1] - 0.4)
    u = ((aim[0] - o[0]) / math.dist(aim, o), (aim[1] - o[1]) / math.dist(aim, o))
    cue = (o[0] - 1.0 * u[0], o[1] - 1.0 * u[1])
    pots = [p for p in pots_for(SPEC, {"cue": cue, "1": o}, {"cue": cue}, ["1"]) if p.pocket == "foot-left"]
    assert len(pots) == 1
    p = pots[0]
    assert math.isclose(math.dist(p.ghost, o), 2 * R, rel_tol=1e-9)
    assert p.cut < 1e-6
    assert math.isclose(p.d1, 1.0 - 2 * R, rel_tol=1e-9)


def test_a_ball_in_the_way_blocks_the_pot_and_a_longer_pot_forgives_less() -> None:
    cue, o = (-0.6, 0.0), (0.6, 0.0)
    near, far = (
        [p for p in pots_for(SPEC, {"cue": c, "1": o}, {"cue": c}, ["1"]) if p.pocket == "foot-left"]
        for c in ((0.2, 0.0), cue)
    )
    assert near
    assert far
    assert near[0].tolerance > far[0].tolerance
    blocked = {"cue": cue, "1": o, "2": (0.0, 0.0)}
    assert not [p for p in pots_for(SPEC, blocked, {"cue": cue}, ["1"]) if p.pocket == "foot-left"]


def test_a_kick_is_aimed_at_the_mirror_image_in_the_cushion_line() -> None:
    line = (1, SPEC.half_width - SPEC.cushion_reach)
    assert mirror((0.3, 0.1), line) == (0.3, 2 * line[1] - 0.1)
    # The ball on hidden behind another: a one-cushion kick off the left cushion still reaches it.
    balls = {"cue": (-0.6, 0.0), "1": (0.6, 0.0), "2": (0.0, 0.0)}
    kinds = {k for _d, k in kick_aims(SPEC, balls, "cue", balls["cue"], "1")}
    assert "one" in kinds
