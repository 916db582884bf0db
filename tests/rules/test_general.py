"""General rules of Russian billiards (000 §1-19, 003) under every pyramid game: the foul list and the
jump / off-table table of rules-notes §2 (RU columns)."""

from __future__ import annotations

import pytest

from physics.tables import load_table
from rules.registry import get_referee
from rules.ruling import InHand
from tests.rules.util import PYRAMID_GAMES, R, judge, judge_st

T = load_table("pyramid-12ft")
PLAY = "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4"
# After the hit, 7 goes from one cushion to a second: a legal отыгрыш in every game that asks for one.
SAFE = "7|foot 7|left-foot"
BACK_SPOT = (0.8875, 0.0)
BACK_CUSHION = (T.half_length - T.cushion_reach, 0.0)  # frozen to the back cushion


def respot_place(game: str) -> tuple[float, float]:
    return BACK_CUSHION if get_referee(game).spotting == "cushion" else BACK_SPOT


def call(game: str, ball: str, pocket: str) -> str:
    return f" call={ball}@{pocket}" if get_referee(game).calls else ""


# --- the foul list (003: Штрафы) -------------------------------------------------------------------
@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_legal_safety_stroke_is_no_foul(game: str) -> None:
    r = judge(game, PLAY, "cue>7 " + SAFE)
    assert not r.foul
    assert r.next_player == 1
    assert r.in_hand is None
    assert r.options == ()


@pytest.mark.parametrize("game", PYRAMID_GAMES)
@pytest.mark.parametrize(
    ("script", "code"),
    [
        ("cue|foot cue|left-foot", "miss"),  # (1)
        ("cue>7 " + SAFE + " cue^ cue!floor", "cue_ball_off_table"),  # (2)
        ("cue>7 " + SAFE + " 7~cue", "ball_touched"),  # (4) a ball on the bed touched by a cue
        ("cue>7 " + SAFE + " 7^ 7~chalk", "touched_player_object"),  # a flying ball meets chalk on the rail
        ("cue*miscue cue>7 " + SAFE, "miscue"),  # (5)
        ("cue*scoop cue^ cue^3 cue>7 " + SAFE, "scoop"),  # (5): not a stroke along the cue's axis
        ("cue* cue>7 cue* " + SAFE, "double_hit"),  # (9)
    ],
)
def test_general_fouls(game: str, script: str, code: str) -> None:
    r = judge(game, PLAY, script, scores=[0, 0])
    assert code in r.codes()
    assert r.foul
    assert r.next_player == 1
    assert "play_on" in r.options
    assert r.counted == ()


@pytest.mark.parametrize("game", PYRAMID_GAMES)
@pytest.mark.parametrize(
    ("direction", "end", "foul"),
    [
        (0.0, "cue=0.2,0", True),  # straight through the frozen ball: a push
        (30.0, "cue=0.2,0.1", True),  # under 45°
        (50.0, "cue=0.2,0.3", False),  # 45° or more off the line of centres
        (10.0, "cue=-0.3,0", False),  # it came back off the frozen ball
    ],
)
def test_frozen_cue_ball_45_degrees(game: str, direction: float, end: str, foul: bool) -> None:
    r = judge(game, "cue=0,0 7=0.068,0 3=0.2,-0.4", f"dir={direction} cue>7 {SAFE} {end}")
    assert ("frozen_ball_angle" in r.codes()) is foul


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_striking_another_ball_than_the_cue_ball(game: str) -> None:
    r = judge(game, PLAY + " 5=-0.5,0.4", "5* 5>7 " + SAFE)
    assert ("wrong_ball_struck" in r.codes()) is (not get_referee(game).any_ball_cue)


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_from_hand_ball_in_the_house_hit_before_leaving_it(game: str) -> None:
    lay = "cue=-1.3,0 2=-1.0,0.1 7=0.5,0.2"
    r = judge(game, lay, "cue>2 " + SAFE, in_hand="house")
    assert "house_ball_first" in r.codes()
    ok = judge(
        game, lay, "cue:head-string cue|foot cue:head-string cue>2 2|head 2|left-head", in_hand="house"
    )
    assert "house_ball_first" not in ok.codes()


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_from_hand_cue_ball_placed_outside_the_house(game: str) -> None:
    # 003 «Начальный удар», в: the referee warns a player who places the cue ball outside the house; playing from
    # there after the warning is penalised (003: Штрафы (14)).
    warned = [{"code": "outside_house", "player": 0}]
    r = judge(game, PLAY, "cue>7 " + SAFE, in_hand="house", warnings=warned)
    # the warning is spent
    assert "cue_ball_outside_house" in r.codes()
    assert not r.standing
    on_line = judge(game, "cue=-0.8875,0 7=0.5,0.2", "cue>7 " + SAFE, in_hand="house", warnings=warned)
    assert "cue_ball_outside_house" in on_line.codes()  # on the house line is outside the house (000 §9)


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_from_hand_outside_the_house_without_a_warning_is_the_referees_error(game: str) -> None:
    # 003 «Судейская ошибка» (I): «судья не предупредил игрока, что он располагает биток не в доме» - no penalty,
    # the balls pocketed do not count, the disturbed balls are restored, the turn passes to the opponent.
    r = judge(game, PLAY, "cue>7 7@foot-left cue=0.1,0.1" + call(game, "7", "foot-left"), in_hand="house")
    assert not r.foul
    assert r.counted == ()
    assert r.next_player == 1
    assert r.scores == (0, 0)
    assert r.positions["7"] == (0.5, 0.2)
    assert r.positions["cue"] == (0.1, 0.1)
    assert r.in_hand is None
    assert "referee_error" in [w.code for w in r.warnings]
    assert "003: Судейская ошибка (I)" in r.explain["ru"]


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_temporary_house_when_every_ball_is_in_the_house(game: str) -> None:
    lay = "cue=1.2,0 7=-1.2,0.2 3=-1.0,-0.3"
    r = judge(game, lay, "cue:foot-string cue>7 " + SAFE, in_hand="house")
    assert "cue_ball_outside_house" not in r.codes()
    assert "house_ball_first" not in r.codes()
    warned = [{"code": "outside_house", "player": 0}]
    wrong = judge(
        game, "cue=-1.3,0 7=-1.2,0.2 3=-1.0,-0.3", "cue>7 " + SAFE, in_hand="house", warnings=warned
    )
    assert "cue_ball_outside_house" in wrong.codes()


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_from_hand_cue_ball_never_out_of_the_house_is_replayed(game: str) -> None:
    r = judge(game, "cue=-1.3,0 7=0.5,0.2", "cue|head cue=-1.2,0", in_hand="house")
    assert r.replay
    assert not r.foul
    assert r.next_player == 0


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_cue_ball_in_a_pocket(game: str) -> None:
    ref = get_referee(game)
    # In a called game the in-off counts when it is called (Moscow, called: the cue ball is a ball to call).
    r = judge(game, PLAY, "cue>7 " + SAFE + " cue@head-left" + call(game, "cue", "head-left"))
    if ref.cue_pocket_foul:
        assert r.codes() == ["cue_ball_pocketed"]
        assert r.in_hand == InHand.HOUSE
        assert "cue" not in r.positions
    else:  # Moscow and Американка: the cue ball off an object ball is a pocketed ball
        assert not r.foul
        assert "cue" in r.counted
        assert r.next_player == 0


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_cue_ball_jumped_is_a_foul_and_nothing_counts(game: str) -> None:
    ref = get_referee(game)
    r = judge(game, PLAY, "cue>7 7@foot-left cue^ cue!floor" + call(game, "7", "foot-left"))
    assert "cue_ball_off_table" in r.codes()
    assert r.counted == ()
    assert r.off_table == ("cue",)
    assert "7" in [s.ball for s in r.respot]
    if ref.any_ball_cue:
        # Американка: the jumped ball is spotted (003): at the back cushion, fast variant on the back spot.
        # 7 (a numbered ball) goes first, the striking ball next to it.
        where = {s.ball: s.at for s in r.respot}
        if ref.fast:
            assert where["cue"] == pytest.approx(BACK_SPOT)
            assert where["7"] == pytest.approx(BACK_CUSHION)
        else:
            assert where["7"] == pytest.approx(BACK_CUSHION)
            assert where["cue"] == pytest.approx((BACK_CUSHION[0], 2 * R))
        assert r.in_hand is None
    else:
        assert r.in_hand == InHand.HOUSE
        assert "cue" not in r.positions


# --- rules-notes §2, RU columns -------------------------------------------------------------------
@pytest.mark.parametrize("game", PYRAMID_GAMES)
@pytest.mark.parametrize("obj", ["rail_top", "lamp", "bracket"])
def test_rows_1_4_fixture_then_back_on_the_bed_stays_in_play(game: str, obj: str) -> None:
    r = judge(game, PLAY, f"cue>7 7^ 7~{obj} 7< 7_bed {SAFE} 7=0.9,0.6")
    assert not r.foul
    assert r.off_table == ()
    assert r.respot == ()
    assert r.positions["7"] == (0.9, 0.6)
    rc = judge(game, PLAY, f"cue>7 {SAFE} cue^ cue~{obj} cue< cue=0.1,0.1")
    assert not rc.foul
    assert rc.positions["cue"] == (0.1, 0.1)


@pytest.mark.parametrize("game", PYRAMID_GAMES)
@pytest.mark.parametrize("rest", ["rail", "floor"])
def test_rows_2_3_object_ball_jumped_is_respotted_without_penalty_and_pots_count(
    game: str, rest: str
) -> None:
    r = judge(game, PLAY, f"cue>7 {SAFE} 7^ 7!{rest}")
    assert not r.foul
    assert r.off_table == ("7",)
    assert [(s.ball, s.at) for s in r.respot] == [("7", respot_place(game))]
    assert r.next_player == 1
    pot = judge(game, PLAY, f"cue>7 7>3 3@foot-right 7^ 7!{rest}" + call(game, "3", "foot-right"))
    # the striker keeps the stroke
    assert not pot.foul
    assert pot.counted == ("3",)
    assert pot.next_player == 0
    assert [s.ball for s in pot.respot] == ["7"]


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_row_5_players_things_beyond_the_table_make_a_jumped_ball_even_if_it_comes_back(game: str) -> None:
    r = judge(game, PLAY, f"cue>7 {SAFE} 7^ 7~person 7< 7=0.9,0.6")
    assert not r.foul
    assert r.off_table == ("7",)
    assert [s.ball for s in r.respot] == ["7"]
    out = judge(game, PLAY, f"cue>7 {SAFE} 7^ 7~chalk:out 7< 7=0.9,0.6")
    assert not out.foul
    assert out.off_table == ("7",)
    cue = judge(game, PLAY, f"cue>7 {SAFE} cue^ cue~clothing:out cue< cue=0.1,0.1")
    assert "cue_ball_off_table" in cue.codes()


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_row_5_players_things_within_the_table_are_a_foul_ball_stays_in_play(game: str) -> None:
    r = judge(game, PLAY, f"cue>7 {SAFE} 7^ 7~cue 7< 7=0.9,0.6")
    assert r.codes() == ["touched_player_object"]
    assert r.off_table == ()
    assert r.positions["7"] == (0.9, 0.6)


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_rows_7_to_10_elevated_jumps_are_legal(game: str) -> None:
    for script in (
        f"elev=35 cue^ cue^3 cue_bed cue>7 {SAFE}",  # 7: over a blocker onto the ball
        f"cue>7 cue^ cue^3 cue_bed {SAFE}",  # 8: jumps after the first contact
        f"elev=35 cue^ cue>7 cue^7 cue_bed {SAFE}",  # 9: clips the ball on and lands beyond
        f"elev=35 cue^ cue>7 cue_bed {SAFE}",
    ):  # 10: drops back on the near side
        assert not judge(game, PLAY, script).foul, script


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_rows_6_and_11_scoop_and_miscue_are_fouls(game: str) -> None:
    assert "scoop" in judge(game, PLAY, f"cue*scoop cue^ cue^3 cue>7 {SAFE}").codes()
    assert "miscue" in judge(game, PLAY, f"cue*miscue cue>7 {SAFE}").codes()


@pytest.mark.parametrize("game", PYRAMID_GAMES)
@pytest.mark.parametrize("after", [0.5, 2, 6])
def test_rows_12_13_a_hanging_ball_falling_after_the_stroke_ended_is_put_back_whatever_the_seconds(
    game: str, after: float
) -> None:
    # 003 «Зависшие шары»: «если же остановившийся в створе лузы шар падает в нее после завершения удара, то
    # этот шар не засчитывается, судья восстанавливает его на прежнее место» - no five seconds (000 §14's).
    r = judge(game, PLAY, f"cue>7 7?foot-left 7?foot-left+{after}" + call(game, "7", "foot-left"))
    assert not r.foul
    assert r.counted == ()
    assert "7" in r.positions
    assert r.respot == ()
    assert r.positions["7"][0] > 1.7  # at the pocket's mouth, where it hung
    assert "сколько бы он ни висел" in r.explain["ru"]
    assert "003: Зависшие шары" in r.explain["en"]


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_row_13_a_ball_that_stops_for_an_instant_and_drops_during_the_stroke_counts(game: str) -> None:
    # 003 «Зависшие шары»: one that stops in the jaws and falls before the stroke has ended counts; so does the
    # played ball that pauses for an instant and drops still spinning.
    r = judge(game, PLAY, "cue>7 7?foot-left 7@foot-left" + call(game, "7", "foot-left"))
    assert not r.foul
    assert r.counted == ("7",)
    assert r.next_player == 0


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_row_14_hanging_ball_falls_before_the_cue_ball_arrives_replay(game: str) -> None:
    lip = (T.half_length - R, T.half_width - R)  # hanging over the foot-left drop
    r = judge(game, f"cue=-0.5,0 7={lip[0]},{lip[1]} 3=0.2,-0.4", "7@foot-left cue>3")
    assert r.replay
    assert not r.foul
    assert r.positions["7"] == lip


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_rows_15_16_bounced_out_of_the_pocket(game: str) -> None:
    back = judge(game, PLAY, "cue>7 7#foot-left 7=1.6,0.8")  # back on the bed: in play, not pocketed
    assert not back.foul
    assert back.counted == ()
    assert back.positions["7"] == (1.6, 0.8)
    floor = judge(game, PLAY, f"cue>7 {SAFE} 7#foot-left 7^ 7!floor")
    assert not floor.foul
    assert floor.off_table == ("7",)
    assert [s.ball for s in floor.respot] == ["7"]


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_row_17_outside_interference_replay(game: str) -> None:
    r = judge(game, PLAY, "cue>7 7~spectator 7=1.0,0.5", scores=[3, 4])
    assert r.replay
    assert not r.foul
    assert r.scores == (3, 4)
    assert r.positions["7"] == (0.5, 0.2)


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_rolled_along_the_cushion_does_not_count_and_passes_the_turn(game: str) -> None:
    y = T.half_width - R
    lay = f"cue=1.0,{y - 2 * R - 0.01} 7=1.2,{y}"
    r = judge(game, lay, "cue>7 cue>7 7@foot-left" + call(game, "7", "foot-left"))
    assert not r.foul
    assert r.counted == ()
    assert r.next_player == 1
    assert [s.ball for s in r.respot] == ["7"]
    struck = judge(game, lay, "cue>7 7@foot-left" + call(game, "7", "foot-left"))
    assert struck.counted == ("7",)


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_touches_judged_by_where_they_happened(game: str) -> None:
    from physics.record import Event, EventType
    from rules.notation import record
    from rules.state import MatchState

    ref = get_referee(game)
    rec = record(PLAY, f"cue>7 {SAFE} 7^ 7~person 7< 7=0.9,0.6")
    st = MatchState.from_scenario(
        get_referee(game), {}, {b: (p[0], p[1]) for b, p in rec.initial.items()}, "t"
    )

    def with_pos(obj: str, pos: tuple[float, float, float]) -> object:
        ev = tuple(
            Event(e.t, e.type, ball=e.ball, object=obj, pos=pos) if e.type == EventType.TOUCHED else e
            for e in rec.events
        )
        return ref.judge(st, type(rec)(rec.table, rec.params, ev, rec.final, None, rec.initial, rec.shot))

    # A player leaning over the bed: within the table - a foul, the ball stays in play.
    lean = with_pos("person", (0.6, 0.5, 0.25))
    assert lean.codes() == ["touched_player_object"]  # type: ignore[attr-defined]
    assert lean.off_table == ()  # type: ignore[attr-defined]
    # Chalk on the floor beside the table: beyond it - jumped, no foul.
    floor = with_pos("chalk", (2.3, 0.0, -0.7))
    assert not floor.foul  # type: ignore[attr-defined]
    assert floor.off_table == ("7",)  # type: ignore[attr-defined]
    # The frame below the rail is part of the table wherever it is met.
    frame = with_pos("frame", (2.0, 0.0, -0.05))
    assert not frame.foul  # type: ignore[attr-defined]
    assert frame.off_table == ()  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["russian-pyramid", "pyramid-8", "moscow-pyramid"])
def test_hanging_cue_ball_falling_after_the_stroke_is_put_back_without_penalty(game: str) -> None:
    r = judge(game, PLAY, f"cue>7 {SAFE} cue?foot-right cue?foot-right+7")
    assert not r.foul
    assert "cue" in r.positions
    assert r.counted == ()
    assert r.in_hand is None
    assert r.positions["cue"][0] > 1.7


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_push_through_a_close_ball(game: str) -> None:
    lay = "cue=0,0 7=0.070,0 3=0.2,-0.4"  # 2 mm between the balls
    # At 4 m/s the cue ball crosses 2 mm in 0.5 ms: the tip (on the ball ~1 ms) pushes both balls.
    assert "push_shot" in judge(game, lay, f"cue* t=0.0005 cue>7 {SAFE}").codes()
    # A close ball may be played at any angle without a push (003): contact after the tip has left.
    assert "push_shot" not in judge(game, lay, f"cue* t=0.002 cue>7 {SAFE}").codes()
    # Frozen balls are judged by the 45° rule instead.
    frozen = judge(game, "cue=0,0 7=0.068,0 3=0.2,-0.4", f"dir=60 cue* t=0.0001 cue>7 {SAFE} cue=0.1,0.2")
    assert "push_shot" not in frozen.codes()
    assert "frozen_ball_angle" not in frozen.codes()


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_jumped_ball_that_then_drops_into_a_pocket_is_jumped_not_pocketed(game: str) -> None:
    st, r = judge_st(game, PLAY, "cue>7 7^ 7~person 7< 7@foot-left" + call(game, "7", "foot-left"))
    assert r.counted == ()
    assert r.off_table == ("7",)
    assert [s.ball for s in r.respot] == ["7"]
    assert st.apply(r).where("7") == ["table"]
