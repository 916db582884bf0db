"""Pool referees (8-ball, 9-ball, 14.1): every foul, the jump/off-table table, spotting, ends of frame."""

from __future__ import annotations

import math

import pytest

from physics.tables import load_table
from rules.games.pool_geometry import rack_positions, spot_on_long_string
from rules.notation import layout, record
from rules.registry import get_referee
from rules.ruling import InHand, Option
from rules.state import MatchState
from tests.rules.test_pool_support import check_places, state

T = "pool-9ft"
TABLE = load_table(T)
R = TABLE.ball_radius
FOOT = TABLE.spot("foot-spot")
POOL_GAMES = ("pool-8-ball", "pool-9-ball", "straight-pool")

# A mid-frame layout every pool game accepts: the 1 is the lowest ball and legal on an open table.
MID = "cue=-0.8,0 1=0.2,0 3=0.6,0.2 5=-0.2,0.4"


def judge(game: str, script: str, balls: str = MID, **kw: object):
    st = state(game, layout(balls, T), **kw)  # type: ignore[arg-type]
    ruling = get_referee(game).judge(st, record(balls, script, table=T))
    check_places(st, ruling)
    return st, ruling


# --- the jump / off-table table (rules-notes §2), under every pool game -----------------------
OFF_ROWS = [
    # (row, script, foul codes expected)
    ("1 rail top and back", "cue>1 1|foot 3~rail_top 3<", []),
    ("2 rests on the rail", "cue>1 1|foot 3!rail", ["ball_off_table"]),
    ("3 on the floor", "cue>1 1|foot 3!floor", ["ball_off_table"]),
    ("4 lamp and back", "cue>1 1|foot 3~lamp 3<", ["ball_off_table"]),
    ("5 chalk and back", "cue>1 1|foot 3~chalk 3<", ["ball_off_table"]),
    ("5 person and back", "cue>1 1|foot 3~person 3<", ["ball_off_table"]),
    ("5 cue and back", "cue>1 1|foot 3~cue 3<", ["ball_off_table"]),
    ("6 scoop", "cue*scoop cue^ cue^5 cue>1 1|foot", ["scoop"]),
    ("7 legal jump", "elev=30 cue* cue^ cue^5 cue_bed cue>1 1|foot", []),
    ("8 jumps after contact", "cue>1 cue^ cue^3 cue_bed 1|foot", []),
    ("9 clips the ball on", "elev=30 cue* cue^ cue>1 cue^1 cue_bed 1|foot", []),
    ("10 drops back near side", "elev=30 cue* cue^ cue>1 cue_bed 1|foot", []),
    ("11 miscue, no jump", "cue*miscue cue>1 1|foot", []),
    ("11 miscue on a jump", "cue*miscue cue^ cue^5 cue>1 1|foot", ["miscue"]),
    ("15 bounces out of the pocket", "cue>1 1#foot-left 1|foot", []),
    ("16 out of the pocket to the floor", "cue>1 1#foot-left 1!floor", ["ball_off_table"]),
    ("cue ball off the lamp", "cue>1 1|foot cue~lamp cue<", ["cue_ball_off_table"]),
    ("cue ball on the floor", "cue>1 1|foot cue!floor", ["cue_ball_off_table"]),
]


@pytest.mark.parametrize("game", POOL_GAMES)
@pytest.mark.parametrize(("row", "script", "codes"), OFF_ROWS, ids=[r[0] for r in OFF_ROWS])
def test_jump_and_off_table_rows(game: str, row: str, script: str, codes: list[str]) -> None:
    _, r = judge(game, script)
    assert r.codes() == codes, (row, r.codes())
    for c in codes:
        if "off_table" in c:
            assert r.fouls[0].rule == "000: Выскочившие шары"
    if "lamp" in script and codes:
        assert "lamp" in r.fouls[0].explain["en"]
        assert "прибор" in r.fouls[0].explain["ru"]


@pytest.mark.parametrize("game", POOL_GAMES)
def test_off_table_object_ball_fate_per_game(game: str) -> None:
    _, r = judge(game, "cue>1 1|foot 3~lamp 3<")
    assert r.off_table == ("3",)
    if game == "straight-pool":
        # 14.1 spots a jumped ball on the foot spot; -1 for the foul.
        assert [x.ball for x in r.respot] == ["3"]
        assert r.respot[0].at == FOOT
        assert r.points == (-1, 0)
        assert r.in_hand is None  # the cue ball stays where it lies after a non-scratch foul
    else:
        # 8-ball and 9-ball never spot an object ball that left the table (except the 8 / 9).
        assert r.respot == ()
        assert "3" in r.out_of_play
        assert r.in_hand == InHand.ANYWHERE
    assert r.next_player == 1


@pytest.mark.parametrize("game", POOL_GAMES)
def test_hanging_ball_five_second_rule(game: str) -> None:
    # Row 12: hung >= 5 s, then fell - put back where it hung, not pocketed.
    _, late = judge(game, "cue>1 1?foot-left 3|foot 1?foot-left+6")
    assert "1" not in late.counted
    assert "1" in late.positions
    hang = TABLE.pockets["foot-left"].centre
    assert math.dist(late.positions["1"], hang) < R
    # Row 13: fell within 5 s - pocketed by the stroke.
    _, early = judge(game, "cue>1 1?foot-left 1?foot-left+2 call=1@foot-left")
    assert "1" not in early.positions
    assert not early.foul


@pytest.mark.parametrize("game", POOL_GAMES)
def test_outside_interference_is_replayed(game: str) -> None:
    st, r = judge(game, "cue>1 3~spectator 3=0.3,0.3")
    assert r.replay
    assert not r.foul
    assert r.positions == st.balls


@pytest.mark.parametrize("game", POOL_GAMES)
def test_common_fouls(game: str) -> None:
    assert judge(game, "cue|foot")[1].codes() == ["miss"]
    assert judge(game, "cue>1")[1].codes() == ["no_rail"]
    _, scratch = judge(game, "cue>1 1|foot cue@head-left")
    assert scratch.codes() == ["cue_ball_pocketed"]
    assert "cue" not in scratch.positions
    assert scratch.in_hand == (InHand.BEHIND_HEAD_STRING if game == "straight-pool" else InHand.ANYWHERE)
    assert judge(game, "cue* cue* cue>1 1|foot")[1].codes() == ["double_hit"]
    assert judge(game, "1* 1>3 3|foot")[1].codes()[0] == "wrong_ball_struck"


def test_frozen_ball_needs_another_rail() -> None:
    # 000 «Шар на борту»: a ball frozen to the foot cushion pushed into that same cushion is no rail. Frozen is
    # touching the nose: the centre TABLE.cushion_reach from the nose line (not R: the nose is above the centre).
    x = TABLE.half_length - TABLE.cushion_reach
    balls = f"cue=0.4,0 1={x},0 3=-0.6,0.2"
    st = state("pool-9-ball", layout(balls, T))
    same = get_referee("pool-9-ball").judge(st, record(balls, "cue>1 1|foot", table=T))
    assert same.codes() == ["no_rail"]
    other = get_referee("pool-9-ball").judge(st, record(balls, "cue>1 1|foot cue|head", table=T))
    assert not other.foul


# --- 8-ball -----------------------------------------------------------------------------
def _eight_rack() -> tuple[MatchState, str]:
    ref = get_referee("pool-8-ball")
    st = MatchState.new(get_referee("pool-8-ball"), ("A", "B"))
    balls = " ".join(f"{b}={x},{y}" for b, (x, y) in ref.rack(2).items()) + " cue=-0.8,0"
    return st, balls


def test_eight_ball_rack_and_legal_break() -> None:
    st, balls = _eight_rack()
    rack = get_referee("pool-8-ball").rack(2)
    assert rack["1"] == FOOT
    assert len(rack) == 15
    assert math.dist(rack["8"], (FOOT[0] + 2 * math.sqrt(3) * R, 0.0)) < 1e-5  # racked touching (1 µm apart)
    rails = "cue>1 2|foot 3|left-foot 4|right-foot 5|foot"
    r = get_referee("pool-8-ball").judge(st, record(balls, rails, table=T))
    assert not r.foul
    assert r.next_player == 1
    assert r.extra["groups"] == ["", ""]
    check_places(st, r)


def test_eight_ball_illegal_break_and_rebreak() -> None:
    st, balls = _eight_rack()
    r = get_referee("pool-8-ball").judge(st, record(balls, "cue>1 2|foot 3|foot 4|foot", table=T))
    assert r.codes() == ["illegal_break"]
    assert r.options == (Option.MAKE_OFFENDER_REPLAY,)
    accept = check_places(st, r)
    assert accept.to_play == 1
    assert not get_referee("pool-8-ball").breaking(_stroke(accept, balls))
    again = check_places(st, r, Option.MAKE_OFFENDER_REPLAY)
    assert again.to_play == 0
    assert again.balls == st.balls
    assert get_referee("pool-8-ball").breaking(_stroke(again, balls))


def _stroke(st: MatchState, balls: str):
    return get_referee(st.game).stroke(st, record(balls, "cue>1", table=T))


def test_eight_ball_break_scratch_and_eight_on_break() -> None:
    st, balls = _eight_rack()
    ref = get_referee("pool-8-ball")
    scratch = ref.judge(st, record(balls, "cue>1 2@foot-left cue@head-right", table=T))
    assert scratch.codes() == ["cue_ball_pocketed"]
    assert scratch.in_hand == InHand.BEHIND_HEAD_STRING
    assert scratch.next_player == 1
    assert "2" in scratch.out_of_play
    check_places(st, scratch)
    eight = ref.judge(st, record(balls, "cue>1 8@foot-left 2|foot", table=T))
    assert not eight.foul
    assert not eight.frame_over
    assert eight.next_player == 0
    assert [x.ball for x in eight.respot] == ["8"]
    # The foot spot holds the 1 still: the 8 goes behind it, frozen (000: Выставление шаров).
    assert eight.respot[0].at[1] == 0.0
    assert eight.respot[0].at[0] > FOOT[0]
    assert eight.options == (Option.MAKE_OFFENDER_REPLAY,)
    check_places(st, eight)


EIGHT_MID = "cue=-0.8,0 1=0.2,0 9=0.6,0.2 8=0.3,-0.4"


def test_eight_ball_open_table_groups_and_wrong_ball() -> None:
    st = state("pool-8-ball", layout(EIGHT_MID, T))
    ref = get_referee("pool-8-ball")
    on_eight = ref.judge(st, record(EIGHT_MID, "cue>8 8|foot", table=T))
    assert on_eight.codes() == ["wrong_ball_first"]
    assert on_eight.in_hand == InHand.ANYWHERE
    take = ref.judge(st, record(EIGHT_MID, "cue>9 9@foot-left call=9@foot-left", table=T))
    assert not take.foul
    assert take.next_player == 0
    assert take.extra["groups"] == ["stripes", "solids"]
    after = check_places(st, take)
    # Now stripes: meeting the solid 1 first is a foul.
    wrong = ref.judge(after, record("cue=-0.8,0 1=0.2,0 8=0.3,-0.4", "cue>1 1|foot", table=T))
    assert wrong.codes() == ["wrong_ball_first"]


def test_eight_ball_called_ball_missed_ends_inning() -> None:
    st = state("pool-8-ball", layout(EIGHT_MID, T))
    r = get_referee("pool-8-ball").judge(
        st, record(EIGHT_MID, "cue>9 9|foot 1@foot-right call=9@foot-left", table=T)
    )
    assert not r.foul
    assert r.next_player == 1
    assert r.extra["groups"] == ["", ""]
    assert "1" in r.out_of_play
    check_places(st, r)


@pytest.mark.parametrize(
    ("script", "balls", "winner", "code"),
    [
        ("cue>8 8@foot-left call=8@foot-left", "cue=-0.8,0 8=0.3,-0.4 9=0.6,0.2", 0, None),
        ("cue>1 1>8 8@foot-left call=1@foot-right", EIGHT_MID, 1, "eight_ball_early"),
        (
            "cue>8 8@foot-right call=8@foot-left",
            "cue=-0.8,0 8=0.3,-0.4 9=0.6,0.2",
            1,
            "eight_ball_wrong_pocket",
        ),
        (
            "cue>8 8@foot-left cue@head-left call=8@foot-left",
            "cue=-0.8,0 8=0.3,-0.4 9=0.6,0.2",
            1,
            "eight_ball_on_foul",
        ),
        ("cue>8 8!floor cue|foot", "cue=-0.8,0 8=0.3,-0.4 9=0.6,0.2", 1, "eight_ball_off_table"),
    ],
)
def test_eight_ball_end_of_frame(script: str, balls: str, winner: int, code: str | None) -> None:
    st = state("pool-8-ball", layout(balls, T), extra={"groups": ["solids", "stripes"]})
    r = get_referee("pool-8-ball").judge(st, record(balls, script, table=T))
    assert r.frame_over
    assert r.winner == winner
    if code is None:
        assert not r.foul
    else:
        assert code in r.codes()
        assert any(f.rule == "WPA 8-ball: Loss of Game" for f in r.fouls)
    check_places(st, r)


# --- 9-ball -----------------------------------------------------------------------------
NINE = "cue=-0.8,0 1=0.2,0 3=0.6,0.2 9=0.4,-0.3"


def test_nine_ball_lowest_first_and_nine_wins() -> None:
    ref = get_referee("pool-9-ball")
    st = state("pool-9-ball", layout(NINE, T))
    assert ref.judge(st, record(NINE, "cue>3 3|foot", table=T)).codes() == ["wrong_ball_first"]
    win = ref.judge(st, record(NINE, "cue>1 1>9 9@foot-left", table=T))
    assert win.frame_over
    assert win.winner == 0
    assert not win.foul
    foul9 = ref.judge(st, record(NINE, "cue>1 1>9 9@foot-left cue@head-left", table=T))
    assert not foul9.frame_over
    assert [x.ball for x in foul9.respot] == ["9"]
    assert foul9.respot[0].at == FOOT
    check_places(st, foul9)
    off9 = ref.judge(st, record(NINE, "cue>1 1>9 9!floor 1|foot", table=T))
    assert off9.codes() == ["ball_off_table"]
    assert [x.ball for x in off9.respot] == ["9"]


def test_nine_ball_break() -> None:
    ref = get_referee("pool-9-ball")
    st = MatchState.new(get_referee("pool-9-ball"), ("A", "B"))
    rack = ref.rack(2)
    assert rack["1"] == FOOT
    assert set(rack) == {str(i) for i in range(1, 10)}
    balls = " ".join(f"{b}={x},{y}" for b, (x, y) in rack.items()) + " cue=-0.8,0"
    on_break = ref.judge(st, record(balls, "cue>1 1>9 9@foot-left", table=T))
    assert on_break.frame_over
    assert on_break.winner == 0
    weak = ref.judge(st, record(balls, "cue>1 2|foot 3|foot", table=T))
    assert weak.codes() == ["illegal_break"]
    assert weak.in_hand == InHand.ANYWHERE
    wrong = ref.judge(st, record(balls, "cue>2 2|foot 3|foot 4|foot 5|foot", table=T))
    assert wrong.codes() == ["wrong_ball_first"]


def test_nine_ball_three_consecutive_fouls() -> None:
    ref = get_referee("pool-9-ball")
    st = state("pool-9-ball", layout(NINE, T), fouls_in_row=(1, 0))
    second = ref.judge(st, record(NINE, "cue|foot", table=T))
    assert second.codes() == ["miss"]
    assert [w.code for w in second.warnings] == ["second_foul_warning"]
    st3 = state("pool-9-ball", layout(NINE, T), fouls_in_row=(2, 0))
    third = ref.judge(st3, record(NINE, "cue|foot", table=T))
    assert "three_consecutive_fouls" in third.codes()
    assert third.frame_over
    assert third.winner == 1


# --- 14.1 ------------------------------------------------------------------------------
def test_straight_pool_called_ball_and_extras_count() -> None:
    ref = get_referee("straight-pool")
    more = MID + " 7=0.9,-0.3 9=-0.5,-0.3"
    st = state("straight-pool", layout(more, T), scores=(10, 4))
    r = ref.judge(st, record(more, "cue>1 1@foot-left 1>3 3@foot-right call=1@foot-left", table=T))
    assert r.counted == ("1", "3")
    assert r.points == (2, 0)
    assert r.scores == (12, 4)
    assert r.next_player == 0
    nxt = check_places(st, r)
    assert nxt.shelves[0] == ("1", "3")
    uncalled = ref.judge(st, record(MID, "cue>1 1@foot-left call=3@foot-right", table=T))
    assert uncalled.counted == ()
    assert uncalled.points == (0, 0)
    assert uncalled.next_player == 1
    assert [x.ball for x in uncalled.respot] == ["1"]
    assert uncalled.respot[0].at == FOOT


def test_straight_pool_fouls_and_third_foul() -> None:
    ref = get_referee("straight-pool")
    st = state("straight-pool", layout(MID, T), scores=(10, 4))
    miss = ref.judge(st, record(MID, "cue|foot", table=T))
    assert miss.points == (-1, 0)
    assert miss.in_hand is None
    shelf = tuple(b for b in map(str, range(1, 16)) if b not in ("1", "3", "5"))
    st3 = state("straight-pool", layout(MID, T), scores=(10, 4), fouls_in_row=(2, 0), shelves=(shelf, ()))
    third = ref.judge(st3, record(MID, "cue|foot", table=T))
    assert third.points == (-16, 0)
    assert third.scores == (-6, 4)
    assert third.next_player == 0
    assert third.in_hand == InHand.BEHIND_HEAD_STRING
    assert third.phase == "break"
    assert len(third.positions) == 15
    assert "cue" not in third.positions
    nxt = check_places(st3, third)
    assert ref.breaking(ref.stroke(nxt, record("cue=-0.9,0 " + _rack_text(nxt), "cue>1", table=T)))


def _rack_text(st: MatchState) -> str:
    return " ".join(f"{b}={x},{y}" for b, (x, y) in st.balls.items())


def test_straight_pool_opening_break() -> None:
    ref = get_referee("straight-pool")
    st = MatchState.new(get_referee("straight-pool"), ("A", "B"))
    balls = _rack_text(st) + " cue=-0.9,0"
    ok = ref.judge(st, record(balls, "cue>1 cue|foot 2|foot 3|right-foot", table=T))
    assert not ok.foul
    assert ok.next_player == 1
    bad = ref.judge(st, record(balls, "cue>1 2|foot", table=T))
    assert bad.codes() == ["breaking_violation"]
    assert bad.points == (-2, 0)
    assert bad.options == (Option.MAKE_OFFENDER_REPLAY,)
    again = check_places(st, bad, Option.MAKE_OFFENDER_REPLAY)
    assert again.to_play == 0
    assert ref.breaking(ref.stroke(again, record(balls, "cue>1", table=T)))


def test_straight_pool_kitchen_rules() -> None:
    ref = get_referee("straight-pool")
    hs = TABLE.lines["head-string"]
    balls = f"cue={hs - 0.2},0 1={hs - 0.1},0.3 3=0.6,0.2"
    st = state(
        "straight-pool",
        {k: v for k, v in layout(balls, T).items() if k != "cue"},
        in_hand=InHand.BEHIND_HEAD_STRING,
    )
    r = ref.judge(st, record(balls, "cue>1 1|left-head", table=T))
    assert r.codes() == ["ball_behind_head_string_first"]
    ok = ref.judge(st, record(balls, "cue|foot cue:head-string cue>1 1|left-head", table=T))
    assert not ok.foul
    placed = f"cue={hs + 0.1},0 3=0.6,0.2"
    bad = ref.judge(
        state("straight-pool", {"3": (0.6, 0.2)}, in_hand=InHand.BEHIND_HEAD_STRING),
        record(placed, "cue>3 3|foot", table=T),
    )
    assert bad.codes() == ["cue_ball_misplaced"]


def test_straight_pool_rerack_and_target() -> None:
    ref = get_referee("straight-pool")
    shelf = tuple(str(i) for i in range(1, 14))
    balls = "cue=-0.8,0 14=0.2,0 15=-0.3,0.4"
    st = state("straight-pool", layout(balls, T), shelves=(shelf, ()), scores=(13, 0), extra={"target": 50})
    r = ref.judge(st, record(balls, "cue>14 14@foot-left call=14@foot-left", table=T))
    assert r.counted == ("14",)
    assert r.scores == (14, 0)
    assert r.next_player == 0
    slots = rack_positions(TABLE)[1:]
    assert {x.ball for x in r.respot} == {str(i) for i in range(1, 15)}
    assert sorted(r.positions[b] for b in shelf + ("14",)) == sorted(slots)
    assert FOOT not in r.positions.values()  # the apex stays empty
    nxt = check_places(st, r)
    assert nxt.shelves == ((), ())
    assert len(nxt.balls) == 16
    # The 15th ball lying in the rack area goes to the head spot.
    balls2 = f"cue=-0.8,0 14=0.2,0 15={slots[4][0]},{slots[4][1]}"
    r2 = ref.judge(
        state("straight-pool", layout(balls2, T), shelves=(shelf, ())),
        record(balls2, "cue>14 14@foot-left call=14@foot-left", table=T),
    )
    assert r2.positions["15"] == TABLE.spot("head-spot")
    # Reaching the target ends the frame.
    near = state("straight-pool", layout(MID, T), scores=(49, 3), extra={"target": 50})
    win = ref.judge(near, record(MID, "cue>1 1@foot-left call=1@foot-left", table=T))
    assert win.frame_over
    assert win.winner == 0


# --- spotting on the long string --------------------------------------------------------------
def test_spotting_order_and_occupied_spot() -> None:
    free = dict(spot_on_long_string(TABLE, ["9", "3"], {}))
    assert free["3"] == FOOT
    assert math.isclose(free["9"][0], FOOT[0] + 2 * R)
    assert free["9"][1] == 0.0
    # An object ball on the foot spot: frozen behind it.
    occ = dict(spot_on_long_string(TABLE, ["3"], {"7": FOOT}))
    assert math.isclose(occ["3"][0], FOOT[0] + 2 * R)
    # The cue ball on the foot spot: behind it, but not frozen to it.
    near_cue = dict(spot_on_long_string(TABLE, ["3"], {"cue": FOOT}))
    assert near_cue["3"][0] - FOOT[0] > 2 * R
    assert near_cue["3"][0] - FOOT[0] < 2 * R + 0.002
    # The string behind the spot full: in front of the spot, toward the centre.
    x_end = TABLE.half_length - R
    wall = {f"b{i}": (FOOT[0] + i * 2 * R, 0.0) for i in range(0, int((x_end - FOOT[0]) / (2 * R)) + 1)}
    front = dict(spot_on_long_string(TABLE, ["3", "4"], wall))
    assert front["3"][0] < front["4"][0] < FOOT[0]


@pytest.mark.parametrize("game", POOL_GAMES)
def test_a_jump_struck_below_centre_is_a_jump_not_a_scoop(game: str) -> None:
    """A raised cue struck below centre still drives the ball down into the slate, its tip well clear of the
    cloth: a jump, legal where a jump is (docs/strike.md). The scoop is the tip on the cloth with the ball."""
    from dataclasses import replace as dc_replace

    st = state(game, layout(MID, T))
    rec = record(MID, "elev=40 cue* cue^ cue^5 cue_bed cue>1 1|foot", table=T)
    assert rec.shot is not None
    low = dc_replace(rec, shot=dc_replace(rec.shot, tip=(0.0, -0.4)))
    assert get_referee(game).judge(st, low).codes() == []


@pytest.mark.parametrize("game", POOL_GAMES)
def test_a_tip_on_the_cloth_under_the_ball_is_a_scoop(game: str) -> None:
    """The declared shot puts the tip on the cloth as it meets the ball (0.8 R below centre, cue at 3
    degrees): a scoop whatever the strike event says, lifted or not."""
    from dataclasses import replace as dc_replace

    st = state(game, layout(MID, T))
    for script in (
        "elev=3 cue* cue^ cue^5 cue_bed cue>1 1|foot",
        "elev=3 cue* cue>1 1|foot",
    ):
        rec = record(MID, script, table=T)
        assert rec.shot is not None
        low = dc_replace(rec, shot=dc_replace(rec.shot, tip=(0.0, -0.8)))
        assert "scoop" in get_referee(game).judge(st, low).codes(), script
        clear = dc_replace(rec, shot=dc_replace(rec.shot, tip=(0.0, -0.4)))
        assert "scoop" not in get_referee(game).judge(st, clear).codes(), script


def test_nine_ball_push_out() -> None:
    ref = get_referee("pool-9-ball")
    st = MatchState.new(get_referee("pool-9-ball"), ("A", "B"))
    balls = " ".join(f"{b}={x},{y}" for b, (x, y) in ref.rack(2).items()) + " cue=-0.8,0"
    brk = ref.judge(st, record(balls, "cue>1 2|foot 3|foot 4|foot 5|foot", table=T))
    assert not brk.foul
    assert brk.extra["push_out_available"] is True
    after = check_places(st, brk)
    layout_now = "cue=-0.6,0.1 1=0.2,0 3=0.6,0.2 9=0.4,-0.3"
    pushed_state = state(
        "pool-9-ball", layout(layout_now, T), to_play=1, extra={**after.extra, "push_out": True}
    )
    push = ref.judge(pushed_state, record(layout_now, "cue>3 3@foot-left", table=T))
    assert not push.foul
    assert push.counted == ()
    assert "3" in push.out_of_play
    assert push.next_player == 0
    assert push.options == (Option.PLAY_ON,)
    back = check_places(pushed_state, push, Option.PLAY_ON)
    assert back.to_play == 1
    assert back.extra["push_out_available"] is False
    # The same stroke without a push out declared: a foul, and later push outs are refused.
    plain = ref.judge(
        state("pool-9-ball", layout(layout_now, T), to_play=1, extra={"push_out": True}),
        record(layout_now, "cue>3 3@foot-left", table=T),
    )
    assert plain.codes() == ["wrong_ball_first"]
    # A push out still fouls on a scratch; the 9 pushed in is spotted.
    nine = ref.judge(pushed_state, record(layout_now, "cue>9 9@foot-left", table=T))
    assert not nine.frame_over
    assert [x.ball for x in nine.respot] == ["9"]
    scratch = ref.judge(pushed_state, record(layout_now, "cue>3 cue@head-left", table=T))
    assert scratch.codes() == ["cue_ball_pocketed"]
    assert scratch.in_hand == InHand.ANYWHERE
