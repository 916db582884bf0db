"""Pool, snooker and golf referees on strokes the physics simulated (the contract between the two)."""

from __future__ import annotations

import math

from physics.record import ShotParams
from physics.simulate import simulate
from physics.tables import load_table
from rules.registry import get_referee
from tests.rules.test_pool_support import check_places, state


def test_corner_pot_counts_in_every_pool_game() -> None:
    t = load_table("pool-9ft")
    hl, hw = t.half_length, t.half_width
    b1 = (hl - 0.3 / math.sqrt(2) - 0.03, hw - 0.3 / math.sqrt(2) - 0.03)
    cue = (b1[0] - 0.4 / math.sqrt(2), b1[1] - 0.4 / math.sqrt(2))
    balls = {"cue": cue, "1": b1, "5": (-0.6, -0.3)}
    rec = simulate(
        "pool-9ft",
        balls,
        ShotParams(
            ball="cue", cue_speed=2.0, direction=45.0, elevation=5.0, call_ball="1", call_pocket="foot-left"
        ),
    )
    assert rec.final["1"].pocket == "foot-left"
    for game in ("pool-8-ball", "pool-9-ball", "straight-pool"):
        st = state(game, balls)
        r = get_referee(game).judge(st, rec)
        assert not r.foul, (game, r.codes())
        assert r.counted == ("1",), (game, r.codes())
        assert r.next_player == 0, (game, r.codes())
        check_places(st, r)


def test_snooker_shot_away_from_every_ball_is_a_foul_of_four() -> None:
    balls = {"cue": (-0.5, 0.0), "red1": (0.5, 0.2), "black": (1.2605, 0.0)}
    rec = simulate("snooker-12ft", balls, ShotParams(ball="cue", cue_speed=1.0, direction=180.0))
    assert rec.first_contact("cue") is None
    st = state("snooker", balls)
    r = get_referee("snooker").judge(st, rec)
    assert r.codes() == ["miss"]
    assert r.points == (0, 4)
    assert r.next_player == 1
    check_places(st, r)
