"""Russian 71 at 70:70 (000: Игра при счете 70:70): the lag that decides who plays on is played on the
table between the two players, then the frame resumes with the last ball on the back spot and the lag's
winner playing from hand in the house."""

from __future__ import annotations

from dataclasses import replace

import pytest

from physics.record import ShotParams
from rules.notation import record
from rules.ruling import InHand
from scenes.core.match import MatchController

BACK_SPOT_X = 0.8875  # the pyramid table's back spot (see tests/rules/test_pyramid71.py)


def test_seventy_all_lag_is_played_and_the_frame_resumes() -> None:
    m = MatchController(game="russian-pyramid", names=("Анна", "Борис"))
    m.state = replace(m.state, scores=(65, 70), phase="play", to_play=0, in_hand=None)
    m.positions = {"cue": (-0.5, 0.0), "5": (0.5, 0.2), "3": (0.2, -0.4)}
    m.judge(record("cue=-0.5,0 5=0.5,0.2 3=0.2,-0.4", "cue>5 5@foot-left call=5@foot-left"))
    assert m.ruling_needs_lag
    run = m.start_lag()
    # the lag on a cleared table
    assert run.resume is not None
    assert set(m.positions) == {run.ball}
    # Player 1 lags slower than player 2: 1.6 m/s comes back nearer the head cushion than 1.5 m/s
    # (tests/rules/test_lag.py, the measured cushions), so player 2 (index 1) wins.
    for speed in (1.5, 1.6):
        assert (
            m.lag_stroke(m.simulate(ShotParams(ball=m.lag_run.ball, cue_speed=speed, direction=0.0))) is None
            or speed == 1.6
        )
    assert m.lag_run.result.winner == 1
    m.finish_lag()
    assert m.lag_run is None
    assert m.pending is None
    st = m.state
    assert st.scores == (70, 70)
    assert st.phase == "70:70"
    assert st.to_play == 1
    assert st.in_hand == InHand.HOUSE
    assert st.balls["5"][0] == pytest.approx(BACK_SPOT_X)
    assert abs(st.balls["5"][1]) < 1e-9
    assert set(m.positions) >= {"5", "3"}
    assert m.positions["3"] == (0.2, -0.4)
    # One undo goes back to the 65:70 position, as before the stroke.
    assert m.undo()
    assert m.state.scores == (65, 70)


def test_a_tied_seventy_all_lag_is_played_again_with_the_frame_kept() -> None:
    m = MatchController(game="russian-pyramid", names=("A", "B"))
    m.state = replace(m.state, scores=(65, 70), phase="play", to_play=0, in_hand=None)
    m.positions = {"cue": (-0.5, 0.0), "5": (0.5, 0.2), "3": (0.2, -0.4)}
    m.judge(record("cue=-0.5,0 5=0.5,0.2 3=0.2,-0.4", "cue>5 5@foot-left call=5@foot-left"))
    m.start_lag()
    for _ in range(2):  # mirror strokes tie (tests/rules/test_lag.py)
        m.lag_stroke(m.simulate(ShotParams(ball=m.lag_run.ball, cue_speed=2.0, direction=0.0)))
    assert m.lag_run.result.winner is None
    m.finish_lag()
    assert m.lag_run is not None
    assert m.lag_run.index == 0
    assert m.lag_run.resume is not None
    assert m.state.scores == (65, 70)  # nothing applied yet
