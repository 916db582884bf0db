"""The referee on strokes the physics simulated (not hand-written logs): the contract between the two."""

from __future__ import annotations

from physics.record import ShotParams
from physics.simulate import simulate
from rules.registry import get_referee
from rules.ruling import InHand
from rules.state import MatchState
from tests.rules.util import PYRAMID_GAMES


def test_break_from_hand_is_legal_under_every_pyramid_game() -> None:
    st = MatchState.new(get_referee("russian-pyramid"))
    balls = dict(st.balls, cue=(-1.2, 0.0))
    rec = simulate("pyramid-12ft", balls, ShotParams(ball="cue", cue_speed=7.0, direction=0.0, elevation=5.0))
    assert rec.first_contact("cue") is not None
    for game in PYRAMID_GAMES:
        s = MatchState.new(get_referee(game))
        r = get_referee(game).judge(s, rec)
        assert not r.foul, (game, r.codes())
        for b in get_referee(game).ball_set(2):
            assert len(s.apply(r).where(b)) == 1, (game, b)


def test_straight_called_pot_counts() -> None:
    balls = {"cue": (0.0, 0.2), "7": (0.0, 0.6), "3": (-0.5, -0.3)}
    # Screw (tip below centre) so the cue ball comes back instead of following 7 in.
    rec = simulate(
        "pyramid-12ft",
        balls,
        ShotParams(
            ball="cue",
            cue_speed=1.5,
            direction=90.0,
            tip=(0.0, -0.5),
            call_ball="7",
            call_pocket="middle-left",
        ),
    )
    st = MatchState.from_scenario(get_referee("russian-pyramid"), {"scores": [10, 0]}, balls, "t")
    r = get_referee("russian-pyramid").judge(st, rec)
    assert not r.foul
    assert r.counted == ("7",)
    assert r.scores == (17, 0)
    assert r.next_player == 0
    wrong = get_referee("russian-pyramid").judge(
        st,
        rec.__class__(
            rec.table,
            rec.params,
            rec.events,
            rec.final,
            None,
            rec.initial,
            ShotParams(ball="cue", call_ball="7", call_pocket="middle-right"),
        ),
    )
    assert not wrong.foul
    assert wrong.counted == ()
    assert [x.ball for x in wrong.respot] == ["7"]


def test_shot_away_from_every_ball_is_a_miss() -> None:
    balls = {"cue": (-0.5, 0.0), "7": (0.5, 0.2)}
    rec = simulate("pyramid-12ft", balls, ShotParams(ball="cue", cue_speed=1.0, direction=180.0))
    r = get_referee("pyramid-8").judge(
        MatchState.from_scenario(get_referee("pyramid-8"), {}, balls, "t"), rec
    )
    assert "miss" in r.codes()
    assert r.next_player == 1
    assert r.owed == (1, 0)
    assert r.in_hand in (None, InHand.HOUSE)
