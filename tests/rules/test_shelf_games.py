"""Американка, Московская пирамида, Пирамида 8 шаров: shelves, penalty balls, owed balls, the Moscow
in-off and its ball to remove, spotting at the back cushion (000 + 003)."""

from __future__ import annotations

import pytest

from physics.tables import load_table
from rules.ruling import InHand
from tests.rules.util import R, judge, judge_st

T = load_table("pyramid-12ft")
BACK_CUSHION = (T.half_length - T.cushion_reach, 0.0)  # frozen to the back cushion
BACK_SPOT = (0.8875, 0.0)
PLAY = "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4 9=-0.3,0.5"
SAFE = "7|foot 7|left-foot"


@pytest.mark.parametrize("game", ["american", "american-fast", "moscow-pyramid", "pyramid-8"])
def test_pocketed_balls_go_to_the_strikers_shelf(game: str) -> None:
    st, r = judge_st(game, PLAY, "cue>7 7@foot-left cue>3 3@head-right", shelves=[["1"], ["2"]])
    assert r.counted == ("7", "3")
    assert r.scores == (3, 1)
    assert r.next_player == 0
    nxt = st.apply(r)
    assert nxt.shelves == (("1", "7", "3"), ("2",))
    assert "7" not in nxt.balls


@pytest.mark.parametrize("game", ["american", "moscow-pyramid", "pyramid-8"])
def test_penalty_ball_comes_from_the_offenders_shelf(game: str) -> None:
    st, r = judge_st(game, PLAY, "cue|foot", shelves=[["1", "5"], ["2"]])
    assert r.codes() == ["miss"]
    assert r.from_shelf == ("5",)
    assert r.scores == (1, 1)
    assert r.points == (-1, 0)
    where = {s.ball: s.at for s in r.respot}
    assert where["5"] == pytest.approx(BACK_SPOT if game == "pyramid-8" else BACK_CUSHION)
    nxt = st.apply(r)
    assert nxt.shelves[0] == ("1",)
    assert nxt.balls["5"] == where["5"]
    assert nxt.to_play == 1


@pytest.mark.parametrize("game", ["american", "moscow-pyramid", "pyramid-8"])
def test_penalty_owed_when_the_shelf_is_empty_and_paid_from_the_next_ball(game: str) -> None:
    st, r = judge_st(game, PLAY, "cue|foot")
    assert r.owed == (1, 0)
    assert r.from_shelf == ()
    assert r.scores == (0, 0)
    st = st.apply(r)
    assert st.owed == (1, 0)
    # Player 1 plays; then player 0 pockets two balls: one pays the debt and goes back on the table.
    from rules.notation import record
    from rules.registry import get_referee

    st = st.apply(get_referee(game).judge(st, record(PLAY, "cue>7 " + SAFE)))
    assert st.to_play == 0
    r2 = get_referee(game).judge(st, record(PLAY, "cue>7 7@foot-left cue>3 3@head-right"))
    assert r2.counted == ("7", "3")
    assert r2.owed == (0, 0)
    assert r2.from_shelf == ("3",)
    assert r2.scores == (1, 0)
    assert [s.ball for s in r2.respot] == ["3"]
    nxt = st.apply(r2)
    assert nxt.shelves[0] == ("7",)
    assert "3" in nxt.balls
    assert nxt.owed == (0, 0)


def test_american_any_ball_may_be_the_cue_ball_and_the_striking_ball_counts() -> None:
    r = judge("american", PLAY, "9* 9>7 7@foot-left 9@foot-right")
    assert not r.foul
    assert r.counted == ("7", "9")
    assert r.scores == (2, 0)
    assert r.next_player == 0


def test_american_just_respotted_ball_is_an_object_ball_but_fast_may_strike_it() -> None:
    r = judge("american", PLAY, "9* 9>7 " + SAFE, extra={"spotted": ["9"]})
    assert "wrong_ball_struck" in r.codes()
    fast = judge("american-fast", PLAY, "9* 9>7 " + SAFE, extra={"spotted": ["9"]})
    assert not fast.foul


def test_back_cushion_spot_taken_goes_along_the_cushion_frozen_to_the_interfering_ball() -> None:
    lay = f"cue=-0.5,0 7=0.5,0.2 3={BACK_CUSHION[0]},0.0 9=-0.3,0.5"
    r = judge("american", lay, "cue>7 7|foot 7|left-foot 7^ 7!floor")
    (sp,) = r.respot
    assert sp.at == pytest.approx((BACK_CUSHION[0], 2 * R))
    both = judge("moscow-pyramid", lay, "cue>7 7>9 7^ 7!floor 9^ 9!rail")
    assert [(s.ball, s.at) for s in both.respot] == [
        ("7", pytest.approx((BACK_CUSHION[0], 2 * R))),
        ("9", pytest.approx((BACK_CUSHION[0], -2 * R))),
    ]


def test_moscow_in_off_scores_and_the_opponent_picks_the_ball_to_come_off() -> None:
    st, r = judge_st("moscow-pyramid", PLAY, "cue>7 cue@foot-left", shelves=[["1"], []])
    assert not r.foul
    assert r.counted == ("cue",)
    assert r.scores == (2, 0)
    assert r.next_player == 0
    assert r.in_hand == InHand.HOUSE
    assert "cue" not in r.positions
    assert r.choice is not None
    assert r.choice.by == 1
    assert r.choice.credit_to == 0
    assert set(r.choice.among) == {"7", "3", "9"}
    assert r.options == ("remove_ball",)
    nxt = st.apply(r, "9")
    assert nxt.shelves[0] == ("1", "9")
    assert "9" not in nxt.balls
    assert nxt.in_hand == InHand.HOUSE
    assert nxt.scores == (2, 0)
    assert nxt.to_play == 0


def test_moscow_cue_ball_in_a_pocket_without_contact_is_a_foul_and_in_hand_for_the_opponent() -> None:
    r = judge("moscow-pyramid", PLAY, "cue@foot-left", shelves=[["1"], []])
    assert set(r.codes()) == {"miss", "cue_ball_pocketed"}
    assert r.in_hand == InHand.HOUSE
    assert r.next_player == 1
    assert r.from_shelf == ("1",)
    assert r.choice is None


def test_pyramid_8_cue_ball_in_a_pocket_is_a_foul_with_a_penalty_ball() -> None:
    r = judge("pyramid-8", PLAY, "cue>7 7@foot-left cue@foot-right", shelves=[["1"], []])
    assert r.codes() == ["cue_ball_pocketed"]
    assert r.counted == ()
    assert r.from_shelf == ("1",)
    assert sorted(s.ball for s in r.respot) == ["1", "7"]
    assert r.in_hand == InHand.HOUSE


@pytest.mark.parametrize("game", ["american", "moscow-pyramid", "pyramid-8", "pyramid-8-fast"])
def test_eight_balls_win_the_frame(game: str) -> None:
    shelf = ["1", "2", "4", "5", "6", "8", "10"]
    r = judge(game, PLAY, "cue>7 7@foot-left", shelves=[shelf, ["11"]])
    assert r.scores == (8, 1)
    assert r.frame_over
    assert r.winner == 0


def test_moscow_in_off_for_the_eighth_ball_ends_the_frame() -> None:
    shelf = ["1", "2", "4", "5", "6", "8", "10"]
    st, r = judge_st("moscow-pyramid", PLAY, "cue>7 cue@foot-left", shelves=[shelf, []])
    assert r.frame_over
    assert r.winner == 0
    assert r.scores == (8, 0)
    nxt = st.apply(r, "3")
    assert len(nxt.shelves[0]) == 8
    assert nxt.frames_won == (1, 0)
    assert nxt.match_over
