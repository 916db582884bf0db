"""Русская пирамида (71): calls, values, respots, penalties, 70:70, the stalemate (000 + 003)."""

from __future__ import annotations

import pytest

from rules.games.russian import SeventyOneState
from rules.registry import get_referee
from rules.ruling import InHand
from tests.rules.util import R, judge, judge_st

G = "russian-pyramid"
PLAY = "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4 1=-0.2,0.5"
BACK_SPOT = (0.8875, 0.0)


def test_called_ball_counts_its_number_and_striker_continues() -> None:
    r = judge(G, PLAY, "cue>7 7@foot-left call=7@foot-left", scores=[10, 20])
    assert not r.foul
    assert r.counted == ("7",)
    assert r.points == (7, 0)
    assert r.scores == (17, 20)
    assert r.next_player == 0
    assert r.in_hand is None
    assert r.respot == ()


def test_ace_scores_eleven_and_every_ball_falling_with_the_called_one_counts() -> None:
    r = judge(G, PLAY, "cue>1 1@middle-left cue>7 7@foot-left call=1@middle-left")
    assert r.counted == ("1", "7")
    assert r.points == (18, 0)


@pytest.mark.parametrize(
    "script",
    ["cue>7 7@foot-left", "cue>7 7@foot-left call=7@foot-right", "cue>7 7>3 3@foot-right call=7@foot-left"],
)
def test_uncalled_or_wrong_pocket_is_respotted_on_the_back_spot_without_penalty(script: str) -> None:
    r = judge(G, PLAY, script, scores=[10, 20])
    assert not r.foul
    assert r.counted == ()
    assert r.scores == (10, 20)
    assert r.next_player == 1
    (sp,) = r.respot
    assert sp.at == pytest.approx(BACK_SPOT)
    assert r.positions[sp.ball] == sp.at


def test_respot_with_the_back_spot_taken_goes_toward_the_back_cushion_not_frozen() -> None:
    r = judge(G, "cue=-0.5,0 7=0.5,0.2 3=foot-spot", "cue>7 7@foot-left")
    (sp,) = r.respot
    assert sp.ball == "7"
    assert sp.at[1] == 0.0
    assert sp.at[0] - BACK_SPOT[0] == pytest.approx(2 * R + 0.001, abs=1e-9)


def test_several_respots_in_rising_order_frozen_to_each_other() -> None:
    r = judge(
        G,
        "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4 12=0.3,0.3",
        "cue>12 12>7 12@foot-left 7@foot-right cue>3 3@head-left",
    )
    assert [s.ball for s in r.respot] == ["3", "7", "12"]
    xs = [s.at[0] for s in r.respot]
    assert xs[0] == pytest.approx(BACK_SPOT[0])
    assert xs[1] - xs[0] == pytest.approx(2 * R)
    assert xs[2] - xs[1] == pytest.approx(2 * R)


def test_foul_costs_five_and_gives_five() -> None:
    r = judge(G, PLAY, "cue|foot", scores=[20, 10])
    assert r.codes() == ["miss"]
    assert r.points == (-5, 5)
    assert r.scores == (15, 15)
    assert r.next_player == 1
    assert "play_on" in r.options
    assert r.fouls[0].rule.startswith("003")


def test_several_violations_one_penalty() -> None:
    r = judge(G, PLAY, "cue*miscue cue@head-left", scores=[20, 10])
    assert set(r.codes()) == {"miscue", "miss", "cue_ball_pocketed"}
    assert r.points == (-5, 5)


def test_balls_pocketed_on_a_foul_do_not_count_and_are_respotted() -> None:
    r = judge(G, PLAY, "cue>7 7@foot-left cue@foot-right call=7@foot-left")
    assert r.codes() == ["cue_ball_pocketed"]
    assert r.counted == ()
    assert [s.ball for s in r.respot] == ["7"]
    assert r.in_hand == InHand.HOUSE
    assert "cue" not in r.positions
    assert r.next_player == 1


def test_play_on_option_makes_the_offender_play_from_hand() -> None:
    st, r = judge_st(G, PLAY, "cue>7 cue@foot-right")
    nxt = st.apply(r, "play_on")
    assert nxt.to_play == 0
    assert nxt.in_hand == InHand.HOUSE
    assert "cue" not in nxt.balls
    default = st.apply(r)
    assert default.to_play == 1


def test_last_ball_gets_ten_and_71_ends_the_frame() -> None:
    r = judge(G, "cue=-0.5,0 5=0.5,0.2", "cue>5 5@foot-left call=5@foot-left", scores=[56, 60])
    assert r.points == (15, 0)
    assert r.scores == (71, 60)
    assert r.frame_over
    assert r.winner == 0


def test_penalty_reaching_71_ends_the_frame_for_the_opponent() -> None:
    r = judge(G, PLAY, "cue|foot", scores=[30, 66])
    assert r.scores == (25, 71)
    assert r.frame_over
    assert r.winner == 1


def test_seventy_all_respots_the_last_ball_and_calls_a_lag() -> None:
    st, r = judge_st(
        G, "cue=-0.5,0 5=0.5,0.2 3=0.2,-0.4", "cue>5 5@foot-left call=5@foot-left", scores=[65, 70]
    )
    assert r.scores == (70, 70)
    assert not r.frame_over
    assert r.phase == "70:70"
    assert [(s.ball, s.at) for s in r.respot] == [("5", BACK_SPOT)]
    assert r.in_hand == InHand.HOUSE
    assert "lag" in r.options
    assert "cue" not in r.positions
    nxt = st.apply(r, "lag:1")
    assert nxt.to_play == 1
    assert nxt.phase == "70:70"
    assert nxt.balls["5"] == BACK_SPOT
    assert "5" not in nxt.shelves[0]
    assert nxt.where("5") == ["table"]
    # Under the 70:70 rule the next counted ball wins; the next foul loses.
    ref = get_referee(G)
    from rules.notation import record

    rec = record("cue=-1.2,0 5=0.8875,0 3=0.2,-0.4", "cue>5 5@foot-left call=5@foot-left")
    won = ref.judge(nxt, rec)
    assert won.frame_over
    assert won.winner == 1
    lost = ref.judge(nxt, record("cue=-1.2,0 5=0.8875,0 3=0.2,-0.4", "cue:head-string cue|foot"))
    assert lost.frame_over
    assert lost.winner == 0
    assert lost.scores == (75, 65)


def test_three_fouls_each_stalemate_with_warning_after_the_second() -> None:
    from rules.notation import record

    ref = get_referee(G)
    rec = record(PLAY, "cue|foot cue=-0.6,0.1")
    st, _ = judge_st(G, PLAY, scores=[30, 40])
    warned = []
    for _ in range(6):
        r = ref.judge(st, rec)
        warned.append([w.code for w in r.warnings])
        st = st.apply(r)
    assert warned[2] == ["second_foul_in_row"]
    assert warned[3] == ["second_foul_in_row"]
    assert "stalemate" in warned[5]
    assert st.scores == (70, 70)
    assert st.phase == "70:70"
    assert st.in_hand == InHand.HOUSE
    assert set(st.balls) == {"1"}
    assert st.balls["1"] == BACK_SPOT
    assert set(st.out) >= {"3", "7"}


def test_a_foul_that_moves_the_object_balls_resets_the_stalemate_count() -> None:
    st, r = judge_st(G, PLAY, "cue>7 7=0.6,0.3", extra={"quiet_fouls": [2, 2]}, scores=[0, 0])
    assert not r.foul
    assert r.family == SeventyOneState(quiet_fouls=(0, 0))
    assert not r.standing


def test_break_without_a_call_counts_what_falls() -> None:
    from rules.notation import record
    from rules.state import MatchState

    st = MatchState.new(get_referee(G))
    rec = record(dict(st.balls, cue=(-1.2, 0.0)), "cue:head-string cue>4 4>5 5@foot-left 4>6 6@middle-right")
    r = get_referee(G).judge(st, rec)
    assert not r.foul
    assert r.counted == ("5", "6")
    assert r.scores == (11, 0)
    assert r.next_player == 0
    assert r.phase == "play"


def test_spotting_line_full_to_the_back_cushion_continues_toward_the_centre() -> None:
    step = 2 * R + 0.002
    row = " ".join(f"{10 + k}={BACK_SPOT[0] + k * step:.4f},0" for k in range(6))
    row += " " + " ".join(f"{2 + k}={BACK_SPOT[0] + (6 + k) * step:.4f},0" for k in range(7))
    r = judge(G, "cue=-0.5,0.3 1=0.3,0.4 " + row, "cue>1 1@middle-left")
    (sp,) = r.respot
    assert sp.ball == "1"
    assert sp.at == pytest.approx((BACK_SPOT[0] - 2 * R - 0.001, 0.0))


def test_same_input_same_ruling_bit_for_bit() -> None:
    import json

    a = judge(G, PLAY, "cue>7 7>3 3@foot-right 7^ 7!floor cue@head-left call=3@foot-right", scores=[30, 22])
    b = judge(G, PLAY, "cue>7 7>3 3@foot-right 7^ 7!floor cue@head-left call=3@foot-right", scores=[30, 22])
    assert json.dumps(a.to_dict(), ensure_ascii=False) == json.dumps(b.to_dict(), ensure_ascii=False)


def test_seventy_all_reached_by_a_penalty_respots_the_last_ball_from_the_shelf() -> None:
    st, r = judge_st(G, PLAY, "cue|foot", scores=[75, 65], shelves=[["15", "14"], ["13"]], last_counted="14")
    assert r.scores == (70, 70)
    assert r.from_shelf == ("14",)
    assert r.phase == "70:70"
    assert any(s.ball == "14" and s.at == pytest.approx(BACK_SPOT) for s in r.respot)
    nxt = st.apply(r)
    assert nxt.shelves[0] == ("15",)
    assert nxt.where("14") == ["table"]
    assert nxt.in_hand == InHand.HOUSE
