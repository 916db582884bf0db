"""Billiards golf referee: strokes plus three per foul, the opening requirement, holes 1 to 6 in order,
wrong-pocket and off-table fouls, any number of players, the end after the sixth hole."""

from __future__ import annotations

import pytest

from physics.tables import load_table
from rules.games.golf import HOLES
from rules.notation import layout, record
from rules.registry import get_referee
from rules.ruling import InHand
from rules.state import MatchState
from tests.rules.test_pool_support import check_places, state

T = "pool-9ft"
TABLE = load_table(T)
FOOT = TABLE.spot("foot-spot")
CENTRE = TABLE.spot("centre-spot")
REF = get_referee("golf")
MID = "cue=-0.3,0.2 1=0.5,-0.3"


def gstate(
    balls: str = MID, players: int = 2, holes: list[int] | None = None, opening: bool = False, **kw: object
) -> MatchState:
    """Player 0 to play; every other player's ball in his hand (on his shelf)."""
    n = players
    shelves = tuple((str(p + 1),) if str(p + 1) not in layout(balls, T) else () for p in range(n))
    return state(
        "golf",
        layout(balls, T),
        players=n,
        shelves=shelves,
        extra={"holes": holes or [0] * n, "opening": opening},
        **kw,
    )  # type: ignore[arg-type]


def judge(script: str, balls: str = MID, **kw: object):
    st = gstate(balls, **kw)  # type: ignore[arg-type]
    r = REF.judge(st, record(balls, script, table=T))
    check_places(st, r)
    return st, r


def test_fresh_game_layout() -> None:
    st = MatchState.new(get_referee("golf"), ("A", "B", "C"))
    assert st.balls == {"cue": CENTRE, "1": FOOT}
    assert st.in_hand is None
    assert st.extra["opening"] is True
    assert REF.ball_set(3) == ("cue", "1", "2", "3")


def test_opening_requirement() -> None:
    balls = f"cue={CENTRE[0]},{CENTRE[1]} 1={FOOT[0]},{FOOT[1]}"
    _, short = judge("cue>1 1|left-foot 1=0.9,0.4", balls=balls, opening=True)
    assert short.codes() == ["opening_short_of_foot_cushion"]
    assert short.points == (4, 0)
    assert short.positions == {"cue": CENTRE, "1": FOOT}
    assert short.next_player == 0
    assert short.extra["opening"]
    _, ok = judge("cue>1 1|foot 1=0.9,0.1", balls=balls, opening=True)
    assert not ok.foul
    assert ok.points == (1, 0)
    assert ok.extra["opening"] is False


def test_holing_hands_over_with_the_start_position_on_hole_one() -> None:
    st, r = judge("cue>1 1@foot-right")
    assert HOLES[0] == "foot-right"
    assert r.counted == ("1",)
    assert r.points == (1, 0)
    assert r.next_player == 1
    assert r.positions == {"cue": CENTRE, "2": FOOT}
    assert r.extra["opening"] is True
    nxt = st.apply(r)
    assert nxt.shelves[0] == ("1",)
    assert nxt.shelves[1] == ()
    assert nxt.extra["holes"] == [1, 0]


def test_last_player_on_hole_one_sends_first_player_to_hole_two() -> None:
    balls = "cue=-0.3,0.2 2=0.5,-0.3"
    st = state(
        "golf", layout(balls, T), to_play=1, shelves=(("1",), ()), extra={"holes": [1, 0], "opening": False}
    )
    r = REF.judge(st, record(balls, "cue>2 2@foot-right cue=0.1,0.1", table=T))
    assert r.next_player == 0
    assert r.positions == {"cue": (0.1, 0.1), "1": FOOT}
    assert r.extra["holes"] == [1, 1]
    assert r.extra["opening"] is False
    nxt = check_places(st, r)
    # Hole 2 is the right middle pocket; the corner of hole 1 is now a wrong pocket.
    r2 = REF.judge(nxt, record(f"cue=0.1,0.1 1={FOOT[0]},{FOOT[1]}", "cue>1 1@foot-right", table=T))
    assert "wrong_pocket" in r2.codes()
    assert r2.points == (4, 0)
    assert r2.respot[0].at == FOOT
    r3 = REF.judge(nxt, record(f"cue=0.1,0.1 1={FOOT[0]},{FOOT[1]}", "cue>1 1@middle-right", table=T))
    assert r3.counted == ("1",)
    assert r3.next_player == 1


@pytest.mark.parametrize(
    ("script", "code"),
    [
        ("cue>1 1@head-left", "wrong_pocket"),
        ("cue>1", "no_rail"),
        ("cue|foot", "miss"),
        ("cue>1 1|foot 1!floor", "ball_off_table"),
        ("cue>1 1|foot 1~lamp 1<", "ball_off_table"),
        ("cue>1 1|foot 1~chalk 1<", "ball_off_table"),
        ("cue>1 1|foot cue@head-left", "cue_ball_pocketed"),
        ("cue>1 1|foot cue!floor", "cue_ball_off_table"),
        ("cue*scoop cue^ cue>1 1|foot", "scoop"),
        ("cue*miscue cue^ cue>1 1|foot", "miscue"),
        ("cue* cue* cue>1 1|foot", "double_hit"),
    ],
)
def test_golf_fouls_cost_three_strokes(script: str, code: str) -> None:
    _, r = judge(script)
    assert code in r.codes(), r.codes()
    assert r.points == (4, 0), r.codes()
    assert r.next_player == 0, r.codes()
    if code in ("wrong_pocket", "ball_off_table"):
        assert [x.ball for x in r.respot] == ["1"]
        assert r.respot[0].at == FOOT
    if code.startswith("cue_ball"):
        assert r.in_hand == InHand.BEHIND_HEAD_STRING


@pytest.mark.parametrize(
    ("script", "legal"),
    [
        ("cue>1 1|foot 1~rail_top 1<", True),  # rail top and back: in play
        ("elev=30 cue* cue^ cue_bed cue>1 1|foot", True),  # legal jump
        ("cue*miscue cue>1 1|foot", True),  # miscue without a jump
        ("cue>1 1#foot-right 1|foot", True),  # bounced out of the pocket
        ("cue>1 1?foot-right 1?foot-right+6", False),  # hung 5 s+: replaced, no rail
    ],
)
def test_golf_table_rows(script: str, legal: bool) -> None:
    _, r = judge(script)
    assert (not r.foul) == legal, r.codes()


def test_hanging_within_five_seconds_holes() -> None:
    _, r = judge("cue>1 1?foot-right 1?foot-right+1")
    assert r.counted == ("1",)


def test_house_choice_after_scratch() -> None:
    hs = TABLE.lines["head-string"]
    balls = f"cue=0.2,0.2 1={hs - 0.2},0.1"
    _, r = judge("cue>1 1|head cue@foot-left", balls=balls)
    assert r.in_hand == InHand.BEHIND_HEAD_STRING
    assert r.options == (
        "spot_object_ball",
        "cue_ball_on_head_spot",
    )


def test_three_players_and_the_end() -> None:
    # Player 2 holes the sixth hole last: the frame ends, the fewest strokes wins.
    balls = "cue=-0.3,0.2 3=0.5,0.3"
    st = state(
        "golf",
        layout(balls, T),
        players=3,
        to_play=2,
        scores=(30, 26, 27),
        shelves=(("1",), ("2",), ()),
        extra={"holes": [6, 6, 5], "opening": False},
    )
    r = REF.judge(st, record(balls, "cue>3 3@foot-left", table=T))
    assert HOLES[5] == "foot-left"
    assert r.frame_over
    assert r.winner == 1
    assert r.scores == (30, 26, 28)
    check_places(st, r)
    tie = state(
        "golf",
        layout(balls, T),
        players=3,
        to_play=2,
        scores=(30, 26, 25),
        shelves=(("1",), ("2",), ()),
        extra={"holes": [6, 6, 5], "opening": False},
    )
    rt = REF.judge(tie, record(balls, "cue>3 3@foot-left", table=T))
    assert rt.frame_over
    assert rt.winner is None
    # Mid-round with three players: after player 0 the next is player 1, on the same hole.
    mid = state(
        "golf",
        layout("cue=-0.3,0.2 1=0.5,0.3", T),
        players=3,
        shelves=((), ("2",), ("3",)),
        extra={"holes": [2, 2, 2], "opening": False},
    )
    rm = REF.judge(mid, record("cue=-0.3,0.2 1=0.5,0.3", "cue>1 1@head-right", table=T))
    assert rm.counted == ("1",)
    assert rm.next_player == 1
    assert rm.positions["2"] == FOOT
    assert "2" in rm.from_shelf
    check_places(mid, rm)


@pytest.mark.parametrize(
    ("script", "legal"),
    [
        ("cue>1 cue^ cue_bed 1|foot", True),  # 8: jumps after the contact
        ("elev=30 cue* cue^ cue>1 cue_bed 1|foot", True),  # 9/10: clips or drops back
        ("cue>1 1|foot 1~person 1<", False),  # 5: a person sends it back
        ("cue>1 1|foot 1~cue 1<", False),  # 5: a cue sends it back
        ("cue>1 1#foot-right 1!floor", False),  # 16: out of the pocket, floor
        ("cue>1 1!rail", False),  # 2: rests on the rail
    ],
)
def test_golf_more_table_rows(script: str, legal: bool) -> None:
    _, r = judge(script)
    assert (not r.foul) == legal, r.codes()


def test_golf_outside_interference_replayed() -> None:
    _, r = judge("cue>1 1~spectator")
    assert r.replay
    assert not r.foul


def test_fresh_golf_match_hands_over_hole_one() -> None:
    st = MatchState.new(get_referee("golf"), ("A", "B"))
    balls = f"cue={CENTRE[0]},{CENTRE[1]} 1={FOOT[0]},{FOOT[1]}"
    opened = check_places(st, REF.judge(st, record(balls, "cue>1 1|foot 1=0.9,-0.5", table=T)))
    holed = REF.judge(opened, record("cue=0.0,0.0 1=0.9,-0.5", "cue>1 1@foot-right", table=T))
    assert holed.next_player == 1
    assert holed.positions["2"] == FOOT
    check_places(opened, holed)


def test_golf_from_hand_behind_the_head_string() -> None:
    hs = TABLE.lines["head-string"]
    for x, foul in ((hs - 0.1, False), (hs + 0.1, True)):
        balls = f"cue={x},0 1=0.5,-0.3"
        st = gstate("1=0.5,-0.3", in_hand=InHand.BEHIND_HEAD_STRING)
        r = REF.judge(st, record(balls, "cue>1 1|foot", table=T))
        assert ("cue_ball_misplaced" in r.codes()) == foul
        assert r.points == ((4 if foul else 1), 0)
