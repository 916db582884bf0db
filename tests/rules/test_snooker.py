"""Snooker and American snooker referees: ball on, values, penalties, jump shots, off-table rows,
colour respotting with occupied spots, free ball, foul and a miss, the re-spotted black."""

from __future__ import annotations

import math

import pytest

from physics.tables import load_table
from rules.games.snooker_geometry import spot_colours
from rules.notation import layout, record
from rules.registry import get_referee
from rules.ruling import InHand, Option
from rules.state import MatchState
from tests.rules.test_pool_support import check_places, state

T = "snooker-12ft"
TABLE = load_table(T)
R = TABLE.ball_radius
COLOURS = "yellow=yellow green=green brown=brown blue=blue pink=pink black=black"
MID = "cue=-0.5,0.3 red1=0.5,0.2 red2=0.6,-0.3 " + COLOURS


def judge(script: str, balls: str = MID, game: str = "snooker", table: str = T, **kw: object):
    st = state(game, layout(balls, table), **kw)  # type: ignore[arg-type]
    ruling = get_referee(game).judge(st, record(balls, script, table=table))
    check_places(st, ruling)
    return st, ruling


# --- scoring and the ball on ------------------------------------------------------------------
def test_red_then_nominated_colour() -> None:
    st, r = judge("cue>red1 red1@foot-left")
    assert r.counted == ("red1",)
    assert r.points == (1, 0)
    assert r.ball_on == "colour"
    assert r.next_player == 0
    assert "red1" in r.out_of_play
    after = st.apply(r)
    balls = "cue=-0.5,0.3 red2=0.6,-0.3 " + COLOURS
    r2 = get_referee("snooker").judge(
        after, record(balls, "cue>black black@foot-right call=black@foot-right", table=T)
    )
    assert r2.counted == ("black",)
    assert r2.points == (7, 0)
    assert r2.ball_on == "red"
    assert [x.ball for x in r2.respot] == ["black"]
    assert r2.respot[0].at == TABLE.spot("black")
    check_places(after, r2)


@pytest.mark.parametrize(
    ("script", "kw", "code", "pts"),
    [
        ("cue|foot", {}, "miss", 4),  # miss all, red on: minimum 4
        ("cue>pink pink|foot", {}, "wrong_ball_first", 6),  # the ball concerned is worth more
        ("cue>red1 red1>black black@foot-left", {}, "ball_not_on_potted", 7),
        ("cue>blue cue@head-left call=blue@middle-left", {"ball_on": "colour"}, "cue_ball_pocketed", 5),
        ("cue>red1 red1|foot black!floor", {}, "ball_off_table", 7),
        ("cue>red1 red1!rail", {}, "ball_off_table", 4),
        ("cue* cue* cue>red1", {}, "double_hit", 4),
        ("cue>red1 red1|foot pink~chalk pink<", {}, "ball_touched", 6),
    ],
)
def test_penalty_values(script: str, kw: dict, code: str, pts: int) -> None:
    _, r = judge(script, **kw)
    assert code in r.codes()
    assert r.points == (0, pts)
    assert r.next_player == 1
    assert r.fouls[0].rule.startswith("000: Международный снукер") or r.fouls[0].rule.startswith("WPBSA")


def test_seven_point_cases() -> None:
    # A foul after a red and before a colour is nominated.
    _, r = judge("cue>red2 red2|foot", ball_on="colour")
    assert "no_colour_nominated" in r.codes()
    assert r.points == (0, 7)
    # Playing at a red again after a red.
    _, r = judge("cue>red2 red2|foot call=red2@foot-left", ball_on="colour")
    assert "reds_in_successive_strokes" in r.codes()
    assert r.points == (0, 7)
    # A ball other than the white used as the cue ball.
    _, r = judge("yellow* yellow>red1")
    assert "non_white_cue_ball" in r.codes()
    assert r.points == (0, 7)


def test_reds_never_respotted_colours_respotted() -> None:
    _, r = judge("cue>red1 red1>red2 red2@foot-left red1!floor")
    # reds stay off
    assert r.foul
    assert "red1" in r.out_of_play
    assert not r.respot
    _, r = judge("cue>red1 red1>green green@foot-left")
    assert [x.ball for x in r.respot] == ["green"]
    assert r.respot[0].at == TABLE.spot("green")


# --- jump shot: definition and its three exceptions --------------------------------------------
JUMP = "cue=-0.5,0 red2=-0.2,0 red1=0.5,0 " + COLOURS


@pytest.mark.parametrize(
    ("row", "script", "foul"),
    [
        (
            "7 elevated jump over a blocker",
            "elev=30 cue* cue^ cue^red2 cue_bed cue>red1 red1@foot-left",
            True,
        ),
        ("6 scoop", "cue*scoop cue^ cue^red2 cue>red1 red1|foot", True),
        (
            "8 (a) jumps another ball after the first contact",
            "cue>red2 cue^ cue^pink cue_bed red2|foot",
            False,
        ),
        (
            "9 clips the ball on and lands beyond",
            "elev=30 cue* cue^ cue>red2 cue^red2 cue_bed cue=0.2,0.05",
            True,
        ),
        (
            "10 (b) strikes and drops back on the near side",
            "elev=30 cue* cue^ cue>red2 cue^red2 cue_bed cue=-0.4,0",
            False,
        ),
        (
            "(c) jumps the ball on after a cushion",
            "cue>red2 cue|foot cue^ cue^red2 cue_bed cue=-0.6,0",
            False,
        ),
        ("11 miscue, no jump", "cue*miscue cue>red2 red2|foot", False),
    ],
)
def test_jump_shot_rows(row: str, script: str, foul: bool) -> None:
    _, r = judge(script, balls=JUMP)
    jumped = "jump_shot" in r.codes() or "scoop" in r.codes()
    assert jumped == foul, (row, r.codes())
    if foul:
        assert r.points == (0, 4)
        assert r.counted == ()
        if "jump_shot" in r.codes():
            jump = next(f for f in r.fouls if f.code == "jump_shot")
            assert jump.rule == "000: Международный снукер, Правила игры"
            assert "WPBSA" in jump.explain["en"]


# --- balls leaving the table (rules-notes §2) ------------------------------------------------
@pytest.mark.parametrize(
    ("row", "script", "codes"),
    [
        ("1 rail top and back", "cue>red1 red1|foot pink~rail_top pink<", []),
        ("2 rests on the rail", "cue>red1 red1|foot pink!rail", ["ball_off_table"]),
        ("3 floor", "cue>red1 red1|foot pink!floor", ["ball_off_table"]),
        ("4 lamp and back: no foul", "cue>red1 red1|foot pink~lamp pink<", []),
        ("5 chalk and back", "cue>red1 red1|foot pink~chalk pink<", ["ball_touched"]),
        ("5 person and back", "cue>red1 red1|foot pink~person pink<", ["ball_touched"]),
        ("5 cue and back", "cue>red1 red1|foot pink~cue pink<", ["ball_touched"]),
        ("15 bounces out of the pocket", "cue>red1 red1#foot-left red1|foot", []),
        ("16 out of the pocket to the floor", "cue>red1 red1#foot-left red1!floor", ["ball_off_table"]),
        ("cue ball forced off", "cue>red1 cue!floor", ["cue_ball_off_table"]),
    ],
)
def test_off_table_rows(row: str, script: str, codes: list[str]) -> None:
    _, r = judge(script)
    assert r.codes() == codes, row
    if "ball_off_table" in codes and "pink" in script:
        assert r.points == (0, 6)
        assert [x.ball for x in r.respot] == ["pink"]
    if codes == ["cue_ball_off_table"]:
        assert r.in_hand == InHand.D
        assert "cue" not in r.positions


def test_hanging_ball_rows() -> None:
    # WPBSA S3 R9: a ball that falls by itself after the stroke has ended is not part of it - replaced, however
    # soon; one that balances for a moment and falls during the stroke is potted.
    for after in (6, 1):
        _, late = judge(f"cue>red1 red1?foot-left red1?foot-left+{after}")
        assert late.counted == ()
        assert "red1" in late.positions
        assert "WPBSA S3 R9" in late.explain["en"]
    _, early = judge("cue>red1 red1?foot-left red1@foot-left")
    assert early.counted == ("red1",)
    assert early.points == (1, 0)
    # American snooker is played by 000's general pool rules: five seconds.
    _, us = judge(
        "cue>red1 red1?foot-left red1?foot-left+1",
        game="american-snooker",
        table="snooker-10ft",
        balls=MID.replace("yellow=yellow", "yellow=yellow"),
    )
    assert us.counted == ("red1",)


def test_outside_interference_replayed() -> None:
    _, r = judge("cue>red1 red1~spectator")
    assert r.replay
    assert not r.foul


# --- respotting colours ----------------------------------------------------------------------
def test_colour_respot_occupied_spots() -> None:
    # Own spot taken: the highest free spot.
    occ = {"red1": TABLE.spot("pink")}
    got = dict(spot_colours(TABLE, ["pink"], occ))
    assert got["pink"] == TABLE.spot("black")
    # Every spot taken: as near its own spot as possible toward the top cushion.
    every = {f"x{c}": TABLE.spot(c) for c in ("yellow", "green", "brown", "blue", "pink", "black")}
    got = dict(spot_colours(TABLE, ["blue"], every))
    assert got["blue"][1] == 0.0
    assert math.isclose(got["blue"][0], 2 * R)
    # Black with no room toward the top cushion: toward the centre.
    x_end = TABLE.half_length - R
    wall = {
        **every,
        **{
            f"w{i}": (TABLE.spot("black")[0] + i * 2 * R, 0.0)
            for i in range(1, 20)
            if TABLE.spot("black")[0] + i * 2 * R <= x_end
        },
    }
    wall["edge"] = (x_end, 0.0)
    got = dict(spot_colours(TABLE, ["black"], wall))
    assert got["black"][0] < TABLE.spot("black")[0]
    # Several colours: the highest first takes the free spot.
    two = dict(spot_colours(TABLE, ["pink", "black"], {"a": TABLE.spot("pink"), "b": TABLE.spot("black")}))
    assert two["black"] == TABLE.spot("blue")
    assert two["pink"] == TABLE.spot("brown")


def test_respot_via_ruling_with_occupied_spot() -> None:
    px, py = TABLE.spot("pink")
    balls = (
        f"cue=-0.5,0.3 red1=0.5,0.2 red2={px},{py} yellow=yellow green=green brown=brown blue=blue black=black "
        "pink=0.3,-0.4"
    )
    _, r = judge("cue>red1 red1>pink pink@foot-left", balls=balls)
    # Pink's spot holds a red and every other spot its own colour: frozen to the red, toward the top cushion.
    assert r.foul
    assert r.respot[0].ball == "pink"
    assert r.respot[0].at[1] == 0.0
    assert math.isclose(r.respot[0].at[0], TABLE.spot("pink")[0] + 2 * R)


# --- free ball, foul and a miss -------------------------------------------------------------
SNOOKERED = "cue=-0.5,0 blue=-0.3,0 red1=0.2,0 yellow=yellow green=green brown=brown pink=pink black=black"


def test_free_ball_awarded_and_used() -> None:
    st, r = judge("cue>red1 red1|foot cue=-0.5,0", balls=SNOOKERED.replace("cue=-0.5,0", "cue=-0.9,0.5"))
    assert not r.foul
    # A foul that leaves the opponent snookered behind the blue: free ball.
    _, f = judge("cue|head", balls=SNOOKERED)
    assert f.foul
    assert f.extra["free_ball_for"] == 1
    assert Option.PLAY_ON in f.options
    free_state = state("snooker", layout(SNOOKERED, T), to_play=1, extra={"free_ball_for": 1})
    use = get_referee("snooker").judge(
        free_state, record(SNOOKERED, "cue>blue blue@foot-left call=blue@foot-left", table=T)
    )
    assert not use.foul
    assert use.points == (0, 1)
    assert use.ball_on == "colour"
    assert [x.ball for x in use.respot] == ["blue"]
    check_places(free_state, use)


def test_foul_and_miss_options_and_three_misses() -> None:
    open_view = "cue=-0.5,0 red1=0.2,0.4 " + COLOURS
    st, r = judge("cue>pink pink|foot", balls=open_view)
    assert Option.MAKE_OFFENDER_REPLAY in r.options
    assert "foul_and_miss" in [w.code for w in r.warnings]
    replay = check_places(st, r, Option.MAKE_OFFENDER_REPLAY)
    assert replay.to_play == 0
    assert replay.balls == st.balls
    assert replay.scores == (0, 6)
    _, second = judge("cue>pink pink|foot", balls=open_view, extra={"misses": 1, "miss_by": 0})
    assert "third_miss_warning" in [w.code for w in second.warnings]
    assert not second.frame_over
    _, third = judge("cue>pink pink|foot", balls=open_view, extra={"misses": 2, "miss_by": 0})
    assert third.frame_over
    assert third.winner == 1
    assert "three_misses" in third.codes()


# --- end of frame and the re-spotted black ---------------------------------------------------
LAST = "cue=0.6,0.1 black=black"


def test_last_black_potted_and_fouled() -> None:
    _, win = judge("cue>black black@foot-left", balls=LAST, ball_on="black", scores=(50, 40))
    assert win.frame_over
    assert win.winner == 0
    assert win.scores == (57, 40)
    _, foul = judge("cue>black cue@foot-right", balls=LAST, ball_on="black", scores=(50, 40))
    assert foul.frame_over
    assert foul.winner == 0
    assert foul.scores == (50, 47)
    _, lost = judge("cue|head", balls=LAST, ball_on="black", scores=(50, 48))
    assert lost.frame_over
    assert lost.winner == 1
    assert lost.scores == (50, 55)


def test_respotted_black() -> None:
    st, tie = judge("cue>black black@foot-left", balls=LAST, ball_on="black", scores=(40, 47))
    assert not tie.frame_over
    assert tie.phase == "respotted-black"
    assert tie.options == (Option.LAG,)
    assert tie.positions == {"black": TABLE.spot("black")}
    assert tie.in_hand == InHand.D
    nxt = check_places(st, tie, "lag:1")
    assert nxt.to_play == 1
    assert nxt.phase == "respotted-black"
    balls = "cue=-1.1,0.1 black=black"
    end = get_referee("snooker").judge(nxt, record(balls, "cue>black black@foot-left", table=T))
    assert end.frame_over
    assert end.winner == 1
    foul_end = get_referee("snooker").judge(nxt, record(balls, "cue|foot", table=T))
    assert foul_end.frame_over
    assert foul_end.winner == 0


def test_fresh_frame_rack_and_break() -> None:
    st = MatchState.new(get_referee("snooker"), ("A", "B"))
    assert st.in_hand == InHand.D
    assert len(st.balls) == 21
    ref = get_referee("snooker")
    balls = " ".join(f"{b}={x},{y}" for b, (x, y) in st.balls.items()) + " cue=-1.1,0.1"
    ok = ref.judge(st, record(balls, "cue>red1 red1|foot", table=T))
    assert not ok.foul
    assert ok.next_player == 1
    bad = ref.judge(st, record(balls, "cue>brown brown|foot", table=T))
    assert bad.codes() == ["wrong_ball_first"]
    assert bad.points == (0, 4)
    assert bad.options == (Option.PLAY_ON, Option.MAKE_OFFENDER_REPLAY)
    rebreak = check_places(st, bad, Option.MAKE_OFFENDER_REPLAY)
    assert rebreak.balls == st.balls
    assert rebreak.to_play == 0
    assert rebreak.in_hand == InHand.D
    assert ref.breaking(ref.stroke(rebreak, record(balls, "cue>red1", table=T)))
    accepted = check_places(st, bad)
    assert accepted.to_play == 1
    assert not ref.breaking(ref.stroke(accepted, record(balls, "cue>red1", table=T)))


# --- American snooker -----------------------------------------------------------------------
AT = "snooker-10ft"
AMID = "cue=-0.5,0.3 red1=0.5,0.2 red2=0.6,-0.3 " + COLOURS


def ajudge(script: str, balls: str = AMID, **kw: object):
    return judge(script, balls=balls, game="american-snooker", table=AT, **kw)


def test_american_snooker_penalty_is_always_seven() -> None:
    for script in ("cue|foot", "cue>red1 red1|foot cue@head-left", "cue>pink pink|foot"):
        _, r = ajudge(script)
        assert r.foul, script
        assert r.points == (0, 7), script
        assert r.options == (Option.PLAY_ON,), script


def test_american_snooker_cushion_or_pocket() -> None:
    _, r = ajudge("cue>red1")
    assert r.codes() == ["no_rail"]
    assert r.points == (0, 7)
    assert not ajudge("cue>red1 cue|foot")[1].foul
    assert not ajudge("cue>red1 red1@foot-left")[1].foul


def test_american_snooker_jumped_balls_and_rows() -> None:
    _, red_off = ajudge("cue>red1 red1|foot red1!floor")
    assert not red_off.foul
    assert "red1" in red_off.out_of_play
    _, col_off = ajudge("cue>red1 red1>pink pink!floor red1|foot")
    assert not col_off.foul
    assert [x.ball for x in col_off.respot] == ["pink"]
    _, cue_off = ajudge("cue>red1 red1|foot cue!floor")
    assert cue_off.codes() == ["cue_ball_off_table"]
    assert cue_off.in_hand == InHand.D
    assert cue_off.points == (0, 7)
    assert ajudge("cue>red1 red1|foot pink~lamp pink<")[1].codes() == []
    assert ajudge("cue>red1 red1|foot pink~chalk pink<")[1].codes() == ["ball_touched"]
    jump = ajudge(
        "elev=30 cue* cue^ cue^red2 cue_bed cue>red1 red1|foot",
        balls="cue=-0.5,0 red2=-0.2,0 red1=0.5,0 " + COLOURS,
    )[1]
    assert "jump_shot" in jump.codes()
    assert jump.points == (0, 7)


def test_american_snooker_break() -> None:
    st = MatchState.new(get_referee("american-snooker"), ("A", "B"))
    ref = get_referee("american-snooker")
    balls = " ".join(f"{b}={x},{y}" for b, (x, y) in st.balls.items()) + " cue=-0.9,0.1"
    good = ref.judge(st, record(balls, "cue>red1 red1|foot cue|foot", table=AT))
    assert not good.foul
    no_cue_rail = ref.judge(st, record(balls, "cue>red1 red1|foot", table=AT))
    assert no_cue_rail.codes() == ["illegal_break"]
    assert no_cue_rail.options == (Option.MAKE_OFFENDER_REPLAY,)
    again = check_places(st, no_cue_rail, Option.MAKE_OFFENDER_REPLAY)
    assert again.to_play == 0
    assert ref.breaking(ref.stroke(again, record(balls, "cue>red1", table=AT)))


def test_replay_restores_balls_the_stroke_took_away() -> None:
    # Foul and a miss that also potted a red: replacing the balls must bring the red back, once.
    balls = "cue=-0.5,0 red1=0.2,0.4 red2=0.6,-0.3 " + COLOURS
    st = state("snooker", layout(balls, T))
    r = get_referee("snooker").judge(st, record(balls, "cue>pink pink>red2 red2@foot-right", table=T))
    assert Option.MAKE_OFFENDER_REPLAY in r.options
    assert "red2" in r.out_of_play
    check_places(st, r, Option.MAKE_OFFENDER_REPLAY)


def test_in_hand_must_be_in_the_d() -> None:
    bx, rad = TABLE.lines["head-string"], TABLE.d_radius or 0.0
    outside = f"cue={bx - 0.1},{rad + 0.05} red1=0.5,0.2 " + COLOURS
    inside = f"cue={bx - 0.1},0.1 red1=0.5,0.2 " + COLOURS
    on_line = f"cue={bx},{rad * 0.99} red1=0.5,0.2 " + COLOURS
    for balls, foul in ((outside, True), (inside, False), (on_line, False)):
        bed = {b: p for b, p in layout(balls, T).items() if b != "cue"}
        st = state("snooker", bed, in_hand=InHand.D)
        r = get_referee("snooker").judge(st, record(balls, "cue>red1 red1|foot", table=T))
        assert ("cue_ball_outside_d" in r.codes()) == foul
        assert r.points == ((0, 4) if foul else (0, 0))


def test_free_ball_must_be_hit_first() -> None:
    free_state = state("snooker", layout(SNOOKERED, T), to_play=1, extra={"free_ball_for": 1})
    r = get_referee("snooker").judge(
        free_state, record(SNOOKERED, "cue>red1 red1|foot call=blue@foot-left", table=T)
    )
    # Red on, a red struck first: the minimum 4. The cue ball is still behind the blue, the free ball: 000
    # «Свободный шар» (2) - left snookered by the free ball - is a foul too; one penalty, the higher.
    assert r.codes() == ["wrong_ball_first", "snookered_behind_free_ball"]
    assert r.points == (4, 0)


def test_two_balls_struck_at_once() -> None:
    from dataclasses import replace as dc_replace

    balls = "cue=-0.5,0 red1=0.2,0.0265 pink=0.2,-0.0265 " + COLOURS.replace("pink=pink ", "")
    rec = record(balls, "cue>red1 cue>pink red1|foot", table=T)
    t1 = rec.events[1].t
    both = dc_replace(
        rec, events=tuple(dc_replace(e, t=t1) if i == 2 else e for i, e in enumerate(rec.events))
    )
    st = state("snooker", layout(balls, T))
    r = get_referee("snooker").judge(st, both)
    # A red and a colour met together: the higher of the two (the pink, 6).
    assert r.codes() == ["wrong_ball_first"]
    assert r.points == (0, 6)
    two_reds = "cue=-0.5,0 red1=0.2,0.0265 red2=0.2,-0.0265 " + COLOURS
    rec2 = record(two_reds, "cue>red1 cue>red2 red1|foot", table=T)
    rec2 = dc_replace(
        rec2,
        events=tuple(dc_replace(e, t=rec2.events[1].t) if i == 2 else e for i, e in enumerate(rec2.events)),
    )
    assert not get_referee("snooker").judge(state("snooker", layout(two_reds, T)), rec2).foul
