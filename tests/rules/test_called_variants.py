"""003's called (заказная) variants of Moscow pyramid and Pyramid 8, fast and not (issue 12 §2).

003: Штрафы (13) names «Московская пирамида — быстрая и заказная» and «Пирамида 8 шаров — быстрая и
заказная». Calling is the 71-point game's (000: Русская пирамида, «Заказ»): a ball and a pocket before every
stroke; when the called ball goes into the called pocket, every ball the stroke pockets counts; an uncalled
ball is respotted (000: Русская пирамида, «Выставление шаров»: «не заказанные ... выставляются») and the turn
passes. An illegal отыгрыш is punished in every called variant (003: Штрафы (13)), by 003's (I)/(II).
"""

from __future__ import annotations

import pytest

from physics.tables import load_table
from rules.cli import games_command
from rules.contract import CallKind, Family, InHand
from rules.notation import record
from rules.registry import game_ids, get_referee
from rules.scenarios import parse_scenario
from rules.state import MatchState
from tests.rules.util import judge

T = load_table("pyramid-12ft")
PLAY = "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4"
BACK_CUSHION = (T.half_length - T.cushion_reach, 0.0)  # frozen to the back cushion
BACK_SPOT = (0.8875, 0.0)  # Pyramid 8: the back spot
CALLED = ("moscow-pyramid-called", "moscow-pyramid-called-fast", "pyramid-8-called", "pyramid-8-called-fast")
BASE = {
    "moscow-pyramid-called": "moscow-pyramid",
    "moscow-pyramid-called-fast": "moscow-pyramid-fast",
    "pyramid-8-called": "pyramid-8",
    "pyramid-8-called-fast": "pyramid-8-fast",
}


def test_the_four_called_variants_are_registered_and_listed(capsys: pytest.CaptureFixture[str]) -> None:
    for gid in CALLED:
        ref = get_referee(gid)
        base = get_referee(BASE[gid])
        assert ref.calls
        assert not base.calls
        assert ref.family == Family.RUSSIAN
        assert ref.table_id == "pyramid-12ft"
        # One small class on top of its game: it declares who it is, that strokes are called, and (fast) the
        # fast game's rules - nothing else.
        declared = {k for k in vars(type(ref)) if not k.startswith("_")}
        assert declared <= {"id", "aliases", "names", "calls", "call_rule", "fast", "safety"}, declared
        # 003 «Штрафы» (13): every called variant asks the fast games' отыгрыш.
        assert ref.fast == base.fast
        assert ref.safety == "fast"
        assert "заказная" in ref.names["ru"]
        assert "called" in ref.names["en"]
        sc = parse_scenario({"game": gid, "balls": {"cue": [-1.0, 0.0], "7": [0.5, 0.2]}}, "f.toml")
        assert sc.table.id == "pyramid-12ft"
    ids = game_ids()
    assert ids.index("moscow-pyramid-called") == ids.index("moscow-pyramid-fast") + 1
    assert games_command("ru") == 0
    out = capsys.readouterr().out
    assert all(gid in out for gid in CALLED)
    assert "Пирамида 8 шаров, быстрая заказная" in out


def test_the_menu_and_the_trainer_offer_them() -> None:
    from scenes.core.trainer.cases import load_library
    from scenes.screens.menu import match_games

    assert set(CALLED) <= set(match_games())
    offered = {g for c in load_library() for g in c.games}
    assert set(CALLED) <= offered


@pytest.mark.parametrize("game", CALLED)
def test_the_called_ball_in_the_called_pocket_counts_with_every_ball_the_stroke_pockets(game: str) -> None:
    # 000: Русская пирамида, «Заказ»: «При правильном сыгрывании заказанного шара все шары ... засчитываются».
    r = judge(game, PLAY, "cue>7 7@foot-left 7>3 3@middle-right call=7@foot-left")
    assert not r.foul
    assert set(r.counted) == {"7", "3"}
    assert r.next_player == 0
    assert r.scores == (2, 0)
    assert get_referee(game).required(MatchState.new(get_referee(game))).call == CallKind.NONE  # the break


@pytest.mark.parametrize("game", CALLED)
def test_an_uncalled_ball_is_respotted_without_a_penalty_and_the_turn_passes(game: str) -> None:
    r = judge(game, PLAY, "cue>7 7@foot-left 7|foot 7|left-foot")
    assert not r.foul
    assert r.counted == ()
    assert r.next_player == 1
    assert r.scores == (0, 0)
    spot = BACK_CUSHION if game.startswith("moscow") else BACK_SPOT
    assert [x.ball for x in r.respot] == ["7"]
    assert r.respot[0].at == pytest.approx(spot, abs=1e-6)
    assert "не заказаны" in r.explain["ru"]
    assert "No ball and pocket were called" in r.explain["en"]
    # The wrong pocket is no call at all.
    w = judge(game, PLAY, "cue>7 7@foot-right 7|foot 7|left-foot call=7@foot-left")
    assert not w.foul
    assert w.counted == ()
    assert w.next_player == 1
    assert "заказанную лузу" in w.explain["ru"]
    assert "шар 7" in w.explain["ru"]


@pytest.mark.parametrize("game", CALLED)
def test_the_break_from_hand_counts_without_a_call(game: str) -> None:
    # 003: Начальный удар - the balls a legal break pockets count; no call is asked for on it.
    ref = get_referee(game)
    st = MatchState.new(ref)
    apex = st.balls["4"]
    layout = {"cue": (-1.2, 0.0), **st.balls}
    rec = record(layout, "cue:head-string cue>4 4>9 9@foot-left 9|foot 4|foot 4|left-foot 2:centre-line")
    r = ref.judge(MatchState.from_scenario(ref, {"break": True, "in_hand": "house"}, layout), rec)
    assert apex == pytest.approx((0.8875, 0.0))
    assert not r.foul
    assert r.counted == ("9",)
    assert r.next_player == 0


def test_the_called_moscow_in_off_counts_when_called() -> None:
    # 000: Московская пирамида, «Ведение игры»: the cue ball off an object ball is a pocketed ball.
    r = judge("moscow-pyramid-called", PLAY, "cue>7 7|foot 7|left-foot cue@head-left call=cue@head-left")
    assert not r.foul
    assert "cue" in r.counted
    assert r.choice is not None
    uncalled = judge("moscow-pyramid-called", PLAY, "cue>7 7|foot 7|left-foot cue@head-left")
    assert not uncalled.foul
    assert uncalled.counted == ()
    assert uncalled.in_hand == InHand.HOUSE


@pytest.mark.parametrize("game", ["moscow-pyramid-called-fast", "pyramid-8-called-fast"])
def test_the_fast_called_games_punish_an_illegal_safety(game: str) -> None:
    # 003: Штрафы (13) and «Для быстрых видов игр ... правила отыгрыша»: no ball over the centre line and
    # no two cushions after the hit.
    r = judge(game, PLAY, "cue>7 7|foot")
    assert r.codes() == ["illegal_safety"]
    assert r.next_player == 1
    ok = judge(game, PLAY, "cue>7 7|foot 7|left-foot")
    assert not ok.foul


@pytest.mark.parametrize("game", ["moscow-pyramid-called", "pyramid-8-called"])
def test_the_plain_called_games_punish_an_illegal_safety(game: str) -> None:
    """003 «Штрафы» (13) punishes an illegal отыгрыш in «"Московская пирамида" - быстрая и заказная,
    "Пирамида 8 шаров" - быстрая и заказная»: the plain called games too, by the only conditions 003 gives
    (I)/(II) (changed from "no отыгрыш asked" on re-reading (13), issue 25)."""
    r = judge(game, PLAY, "cue>7 7|foot")
    assert r.codes() == ["illegal_safety"]
    assert r.next_player == 1
    assert r.fouls[0].rule == "003: Штрафы (13); 003: Отыгрыш в быстрых видах игр"
    assert not judge(game, PLAY, "cue>7 7|foot 7|left-foot").foul
    assert judge(game, PLAY, "cue|foot").codes() == ["miss"]


def test_the_plain_71_asks_no_safety() -> None:
    # 003 «Штрафы» (13) names «"Русская пирамида" - быстрая» only.
    assert not judge("russian-pyramid", PLAY, "cue>7 7|foot").foul


def test_pyramid_8_called_cue_ball_in_a_pocket_is_still_a_foul() -> None:
    # 003: Штрафы (12): «При падении битка в лузу ("Русская пирамида", "Пирамида 8 шаров")».
    r = judge("pyramid-8-called", PLAY, "cue>7 7@foot-left cue@head-left call=7@foot-left")
    assert r.codes() == ["cue_ball_pocketed"]
    assert r.counted == ()
