"""Rulings the two rule texts decide (issue 12 §1), each test citing the section it is written from."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

from main import run
from physics.errors import InputError
from physics.objects import SceneObject
from physics.record import BallFinal, BallStatus, Event, EventType, ShotParams, ShotRecord
from physics.simulate import simulate
from physics.tables import TABLE_IDS, load_table
from rules import filters as F
from rules.contract import CallKind, InHand, WarningCode
from rules.notation import layout, record
from rules.registry import get_referee
from rules.scenarios import parse_scenario
from rules.state import MatchState
from tests.rules.test_pool_support import state

PYR = load_table("pyramid-12ft")
PLAY = "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4"


def _judge(
    game: str, balls: str, script: str, table: str = "pyramid-12ft", objects=(), undisturbed=None, **st
):
    ref = get_referee(game)
    rec = record(balls, script, table=table)
    s = MatchState.from_scenario(ref, st, {b: (p[0], p[1]) for b, p in rec.initial.items()}, "t")
    return ref.judge(s, rec, undisturbed, objects)


# --- 000 «Шар на борту» and every rule about a ball frozen to a cushion: one definition ----------------
@pytest.mark.parametrize("table_id", TABLE_IDS)
def test_a_ball_touching_a_cushion_nose_is_frozen_on_every_table(table_id: str) -> None:
    t = load_table(table_id)
    reach = t.cushion_reach
    assert reach == pytest.approx(t.ball_radius * math.cos(t.contact_angle))
    # The physics' own contact distance is the same number (physics/engine.py: rc = R cos(contact angle)).
    from physics.params import PhysicsParams

    assert t.ball_radius * math.cos(PhysicsParams.for_table(t).contact_angle) == pytest.approx(reach)
    for cid, c in t.cushions.items():
        mid = ((c.start[0] + c.end[0]) / 2, (c.start[1] + c.end[1]) / 2)
        p = (mid[0] + c.normal[0] * reach, mid[1] + c.normal[1] * reach)
        assert F.frozen_to_cushion(t, p) == [cid], (table_id, cid)
        away = (mid[0] + c.normal[0] * (reach + 0.0015), mid[1] + c.normal[1] * (reach + 0.0015))
        assert F.frozen_to_cushion(t, away) == [], (table_id, cid)
    # The scenario loader accepts a ball exactly there and refuses one nearer the nose.
    x = t.half_length - reach
    parse_scenario({"table": table_id, "balls": {"cue": [x, 0.0]}}, "f.toml")
    with pytest.raises(InputError):
        parse_scenario({"table": table_id, "balls": {"cue": [x + 1e-4, 0.0]}}, "f.toml")


@pytest.mark.parametrize("table_id", TABLE_IDS)
def test_the_physics_leaves_a_frozen_ball_where_the_referee_sees_it_frozen(table_id: str) -> None:
    t = load_table(table_id)
    ball = "1" if "1" in t.equipment else "red1"
    x = t.half_length - t.cushion_reach
    rec = simulate(t, {"cue": (-0.5, 0.0), ball: (x, 0.3)}, ShotParams(cue_speed=0.3, direction=180.0))
    end = F.final_xy(rec, ball)
    assert end is not None
    assert F.frozen_to_cushion(t, end) == ["foot"]


def test_a_frozen_ball_on_the_snooker_table_is_seen_frozen() -> None:
    """Regression: with R instead of R cos(theta) a ball touching the nose of the snooker table (2.2 mm nearer
    than R) was not frozen, and American snooker counted a frozen red pushed into its own cushion as a rail."""
    t = load_table("snooker-10ft")
    x = t.half_length - t.cushion_reach
    balls = f"cue=0.6,0 red1={x},0 yellow=yellow green=green brown=brown blue=blue pink=pink black=black"
    st = state("american-snooker", layout(balls, "snooker-10ft"))
    r = get_referee("american-snooker").judge(st, record(balls, "cue>red1 red1|foot", table="snooker-10ft"))
    assert r.codes() == [
        "no_rail"
    ]  # 000 «Американский снукер», правила игры: a ball to a cushion after contact


# --- 003 «Зависшие шары» ----------------------------------------------------------------------------------
def _hang_record(after: float | None, rests: bool = True) -> ShotRecord:
    t = PYR
    hang = (t.half_length - t.ball_radius * 0.3 * 0.7, t.half_width - t.ball_radius * 0.3 * 0.7)
    ev = [
        Event(0.0, EventType.CUE_STRIKE, ball="cue", miscue=False, scoop=False),
        Event(0.5, EventType.BALL_BALL, balls=("cue", "7")),
        Event(1.8, EventType.HANGING, ball="7", pocket="foot-left", pos=(hang[0], hang[1], t.ball_radius)),
    ]
    if rests:
        ev += [Event(1.8, EventType.REST, ball="7"), Event(2.4, EventType.REST, ball="cue")]
    ev.append(Event(3.0, EventType.DROPPED, ball="7", pocket="foot-left", after=after))
    final = {
        "cue": BallFinal(BallStatus.ON_TABLE, (0.6, 0.3, t.ball_radius)),
        "7": BallFinal(BallStatus.POCKETED, pocket="foot-left"),
    }
    init = {"cue": (-0.5, 0.0, t.ball_radius), "7": (0.5, 0.2, t.ball_radius)}
    return ShotRecord("pyramid-12ft", {}, tuple(ev), final, initial=init, duration=3.0)


@pytest.mark.parametrize("game", ["russian-pyramid", "moscow-pyramid", "pyramid-8"])
def test_hanging_ball_falling_after_the_stroke_ended_is_put_back_from_the_records_own_times(
    game: str,
) -> None:
    # 003: «Если же остановившийся в створе лузы шар падает в нее после завершения удара, то этот шар не
    # засчитывается, судья восстанавливает его на прежнее место». The stroke ended at 2.4 s (the cue ball's rest);
    # the 7 fell at 3.0 s: after the end - whatever the seconds, without an ``after`` in the record.
    ref = get_referee(game)
    st = MatchState.from_scenario(ref, {"break": False}, {"cue": (-0.5, 0.0), "7": (0.5, 0.2)})
    rec = _hang_record(None)
    r = ref.judge(st, replace(rec, shot=ShotParams(call_ball="7", call_pocket="foot-left")))
    assert not r.foul
    assert r.counted == ()
    assert r.positions["7"][0] > 1.7
    # The same fall 0.6 s after the end as the record states it: put back all the same.
    assert ref.judge(st, _hang_record(0.6)).counted == ()


def test_a_ball_that_never_came_to_rest_falls_during_the_stroke_and_counts() -> None:
    # 003: «...играемый прицельный шар кратковременно останавливается в створе лузы, а затем, сохраняя инерцию
    # вращения, падает в нее, то он засчитывается» - a ball still spinning is moving (003: Начало и завершение).
    ref = get_referee("pyramid-8")
    st = MatchState.from_scenario(ref, {"break": False}, {"cue": (-0.5, 0.0), "7": (0.5, 0.2)})
    rec = _hang_record(None, rests=False)
    rec = replace(rec, events=tuple(e for e in rec.events if e.type != EventType.HANGING))
    r = ref.judge(st, rec)
    assert r.counted == ("7",)
    assert r.next_player == 0


def test_pool_and_golf_keep_five_seconds() -> None:
    # 000 (general pool rules) «Самопроизвольное перемещение шаров»: still five seconds or more, then falls: put back.
    balls = "cue=-0.5,0 1=0.5,0.2 3=0.2,-0.4"
    early = _judge("pool-9-ball", balls, "cue>1 1?foot-left 1?foot-left+2", "pool-9ft", **{"break": False})
    late = _judge("pool-9-ball", balls, "cue>1 1?foot-left 1?foot-left+6", "pool-9ft", **{"break": False})
    assert early.counted == ("1",)
    assert late.counted == ()


# --- 003 «Вмешательство соперника», 000 §17 ---------------------------------------------------------------
def _undisturbed_7_pocketed(balls: str) -> ShotRecord:
    """The same stroke without the opponent: the 7 runs on into the foot-left pocket."""
    return record(balls, "cue>7 7|foot 7@foot-left")


def test_71_the_opponent_who_stops_a_ball_on_its_way_to_a_pocket_is_penalised_and_the_ball_counts() -> None:
    # 003: «Если соперник играющего коснется, сместит или остановит какой-либо шар, то он штрафуется ... Если при
    # этом соперник задержит играемый шар, движущийся в сторону лузы, то этот шар считается сыгранным и играющий
    # производит следующий удар»; 000 «Русская пирамида», «Штрафы»: −5 from the offender, +5 to the other.
    balls = "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4"
    script = "cue>7 7|foot 7~opponent 7=1.5,0.7 call=7@foot-left"
    r = _judge("russian-pyramid", balls, script, undisturbed=_undisturbed_7_pocketed(balls), scores=[10, 20])
    assert not r.foul
    assert r.counted == ("7",)
    assert r.next_player == 0
    assert [(f.code, f.by) for f in r.fouls] == [("opponent_interference", 1)]
    assert r.scores == (10 + 7 + 5, 20 - 5)
    assert "003: Вмешательство соперника" in r.explain["ru"]
    assert "шёл в лузу" in r.explain["ru"]
    # Without the undisturbed run the record decides (issue 25): the 7's path from the foot cushion to where it
    # was stopped runs back up the table, through no pocket's mouth - it stays where it stopped.
    plain = _judge("russian-pyramid", balls, script, scores=[10, 20])
    assert plain.counted == ()
    assert plain.scores == (15, 15)
    assert plain.positions["7"] == (1.5, 0.7)
    assert "no pocket's mouth" in plain.explain["en"]
    assert plain.next_player == 1  # «игра продолжается на общих основаниях»: nothing counted, the turn passes


def test_shelf_games_the_opponent_pays_a_ball_and_his_chalk_is_his() -> None:
    # 003 «Вмешательство соперника» under Moscow pyramid: the penalty is a ball off the offender's shelf (000:
    # «Штрафы за нарушения»). The chalk on the rail is the opponent's ([[objects]] owner = "opponent").
    balls = "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4"
    chalk = (SceneObject("chalk", (PYR.half_length + 0.03, 0.2, 0.0), owner="opponent"),)
    r = _judge(
        "moscow-pyramid",
        balls,
        "cue>7 7|foot 7|left-foot 7~chalk",
        objects=chalk,
        shelves=[["1"], ["2", "5"]],
    )
    assert not r.foul
    assert r.from_shelf == ("5",)
    assert r.scores == (1, 1)
    assert "5" in [x.ball for x in r.respot]
    assert [f.by for f in r.fouls] == [1]
    # The same chalk, the striker's: a touch of his own thing within the table is his foul (003: Штрафы (4)).
    mine = _judge(
        "moscow-pyramid",
        balls,
        "cue>7 7|foot 7|left-foot 7~chalk",
        objects=(replace(chalk[0], owner="striker"),),
        shelves=[["1"], ["2", "5"]],
    )
    assert mine.foul
    assert mine.fouls[0].by is None
    # A spectator's chalk: outside interference - the position is restored and the stroke replayed.
    outside = _judge(
        "moscow-pyramid", balls, "cue>7 7~chalk", objects=(replace(chalk[0], owner="spectator"),)
    )
    assert outside.replay
    assert not outside.foul


def test_a_jumped_ball_touching_the_opponent_beyond_the_table_is_no_foul() -> None:
    # 003 «Выскочившие шары»: «Не считается нарушением, если выскочивший шар задевает за пределами стола что-либо
    # у игрока или соперника» - the ball is a jumped ball, respotted, nobody penalised.
    r = _judge("pyramid-8", PLAY, "cue>7 7|foot 7|left-foot 7^ 7~opponent:out 7!floor")
    assert not r.foul
    assert not r.fouls
    assert r.off_table == ("7",)


def test_pool_the_opponents_touch_gives_the_striker_ball_in_hand() -> None:
    # 000 (general pool rules) «Вмешательство в игру соперника»: «смещение любого шара во время игры соперника»
    # is a foul; the striker is the one the foul serves: cue ball in hand anywhere (8-ball, 9-ball).
    balls = "cue=-0.5,0 1=0.5,0.2 3=0.2,-0.4"
    r = _judge("pool-9-ball", balls, "cue>1 1|foot 3~opponent", "pool-9ft", **{"break": False})
    assert not r.foul
    assert r.next_player == 0
    assert r.in_hand == InHand.ANYWHERE
    assert r.fouls[0].by == 1
    golf = _judge(
        "golf", "cue=-0.5,0 1=0.5,0.2", "cue>1 1|foot 1~opponent", "pool-9ft", extra={"opening": False}
    )
    assert golf.points == (1, 3)  # 000 «Гольф»: one for the stroke; three for the opponent's foul
    snk = "cue=-0.5,0.3 red1=0.5,0.2 yellow=yellow green=green brown=brown blue=blue pink=pink black=black"
    intl = _judge("snooker", snk, "cue>red1 red1~opponent", "snooker-12ft")
    assert (
        intl.replay
    )  # WPBSA S3 R15: disturbed "other than by the striker" - with no undisturbed run, replayed
    us = _judge("american-snooker", snk, "cue>red1 red1|foot red1~opponent", "snooker-10ft")
    assert not us.foul
    assert us.points == (7, 0)
    assert us.next_player == 0


# --- 000 «Свободный шар», «Снукер (маска)» ------------------------------------------------------------
COLOURS = "yellow=yellow green=green brown=brown pink=pink black=black"


def test_free_ball_and_ball_on_potted_together_score_only_the_ball_on() -> None:
    # 000 «Свободный шар»: «Если сыгран и свободный и очередной, то засчитывается стоимость только лишь очередного
    # шара». Red on, the blue nominated as the free ball: blue and a red down score 1, not 2.
    balls = "cue=-0.5,0 blue=-0.3,0 red1=0.2,0 red2=0.5,0.4 " + COLOURS
    st = state("snooker", layout(balls, "snooker-12ft"), to_play=1, extra={"free_ball_for": 1})
    rec = record(
        balls, "cue>blue blue@foot-left blue>red1 red1@foot-right call=blue@foot-left", table="snooker-12ft"
    )
    r = get_referee("snooker").judge(st, rec)
    assert not r.foul
    assert set(r.counted) == {"blue", "red1"}
    assert r.points == (0, 1)
    assert "WPBSA" in r.explain["en"]
    assert "score both" in r.explain["en"]
    assert "засчитываются оба" in r.explain["ru"]
    assert [x.ball for x in r.respot] == ["blue"]  # a potted free ball is respotted


def test_no_snooker_when_a_ball_on_can_be_hit_directly() -> None:
    """000 «Снукер (маска)»: «Если прямой удар возможен хотя бы по одному из очередных шаров, то снукера нет». The
    blue hides half the red (WPBSA's both-edges test would call it a snooker); under 000 there is no free ball."""
    R = load_table("snooker-12ft").ball_radius
    balls = f"cue=-0.5,0 blue=0.0,{-1.5 * R} red1=0.3,0 " + COLOURS
    r = _judge("snooker", balls, "cue|head", "snooker-12ft")  # a miss: a foul
    assert r.foul
    assert r.extra["free_ball_for"] == -1
    assert "Снукера нет" in r.explain["ru"]
    assert "синий закрывает его часть" in r.explain["ru"]
    full = "cue=-0.5,0 blue=-0.2,0 red1=0.3,0 " + COLOURS
    f = _judge("snooker", full, "cue|head", "snooker-12ft")
    assert f.extra["free_ball_for"] == 1
    assert "мешает синий" in f.explain["ru"]
    assert "the effective snooker" in f.explain["en"]


# --- referee warnings as match state -----------------------------------------------------------------
def test_snooker_third_miss_needs_the_warning_in_the_state() -> None:
    # WPBSA S3 R14: after a second miss the referee warns; only a warned player loses the frame by a third.
    open_view = "cue=-0.5,0 red1=0.2,0.4 blue=blue " + COLOURS
    two = _judge(
        "snooker", open_view, "cue>pink pink|foot", "snooker-12ft", extra={"misses": 1, "miss_by": 0}
    )
    assert [(w.code, w.player) for w in two.standing] == [(WarningCode.THIRD_MISS, 0)]
    assert not two.frame_over
    unwarned = _judge(
        "snooker",
        open_view,
        "cue>pink pink|foot",
        "snooker-12ft",
        extra={"misses": 2, "miss_by": 0},
        warnings=[],
    )
    # warned now, not yet punished
    assert not unwarned.frame_over
    assert unwarned.standing
    warned = _judge(
        "snooker",
        open_view,
        "cue>pink pink|foot",
        "snooker-12ft",
        extra={"misses": 2, "miss_by": 0},
        warnings=[{"code": "third_miss", "player": 0}],
    )
    assert warned.frame_over
    assert warned.winner == 1
    assert "three_misses" in warned.codes()
    hit = _judge(
        "snooker",
        open_view,
        "cue>red1 red1|foot",
        "snooker-12ft",
        extra={"misses": 2, "miss_by": 0},
        warnings=[{"code": "third_miss", "player": 0}],
    )
    # a fair stroke ends the run of misses and the warning
    assert not hit.foul
    assert not hit.standing


def test_71_stalemate_only_after_the_warning() -> None:
    # 000 «Русская пирамида», «Патовая позиция»: «После второго нарушения подряд должно последовать предупреждение
    # со стороны судьи» - the third foul of each stalls the frame only if both were warned.
    second = _judge("russian-pyramid", PLAY, "cue|foot", extra={"quiet_fouls": [1, 2]}, scores=[20, 20])
    assert WarningCode.STALEMATE in [w.code for w in second.standing]
    both = [{"code": "stalemate", "player": 0}, {"code": "stalemate", "player": 1}]
    third = _judge(
        "russian-pyramid", PLAY, "cue|foot", extra={"quiet_fouls": [2, 3]}, scores=[20, 20], warnings=both
    )
    assert third.scores == (70, 70)
    assert "stalemate" in [w.code for w in third.warnings]
    none = _judge(
        "russian-pyramid", PLAY, "cue|foot", extra={"quiet_fouls": [2, 3]}, scores=[20, 20], warnings=[]
    )
    assert none.scores != (70, 70)


def test_placing_the_cue_ball_outside_the_house_is_warned_then_penalised() -> None:
    # 003 «Начальный удар», в: «если игрок непреднамеренно располагает биток вне дома, то судья должен предупредить
    # его об этом. Если же, несмотря на предупреждение судьи, игрок вновь располагает биток вне дома ... то он
    # штрафуется».
    from scenes.core.match import MatchController
    from scenes.core.scoreboard import hud_text

    m = MatchController(game="pyramid-8", names=("A", "B"), lang="en")
    assert m.state is not None
    assert m.in_hand == "house"
    assert not m.place_cue(0.0, 0.0)  # outside the house: refused, and the referee warns
    assert m.state.warned(WarningCode.OUTSIDE_HOUSE, 0)
    assert "outside the house" in hud_text(m.snapshot(), "en")["call"]
    assert get_referee("pyramid-8").required(m.state).warnings[0].code == WarningCode.OUTSIDE_HOUSE
    snap = m.state.snapshot()
    assert snap["warnings"] == [{"code": "outside_house", "player": 0}]
    assert get_referee("pyramid-8").required(m.state).call == CallKind.NONE


# --- explanations ------------------------------------------------------------------------------------
def test_pool_ball_on_the_floor_is_not_said_to_have_come_back() -> None:
    balls = "cue=-0.5,0 1=0.5,0.2 3=0.2,-0.4"
    r = _judge("pool-8-ball", balls, "cue>1 1^ 1~floor 1!floor", "pool-9ft", **{"break": False})
    assert "came back" not in r.explain["en"]
    assert "вернувшись" not in r.explain["ru"]
    assert "on the floor" in r.explain["en"]
    lamp = _judge("pool-8-ball", balls, "cue>1 1^ 1~lamp 1<", "pool-9ft", **{"break": False})
    assert "came back" in lamp.explain["en"]


def test_things_a_ball_touches_are_named_as_each_language_says_them() -> None:
    """ "touched a person", never "touched the a person"; «задел стену», never «задел wall» (every object the
    physics can name, physics/plan/parts.py, and every person's thing or outsider the referee knows)."""
    balls = "cue=-0.5,0 1=0.5,0.2 3=0.2,-0.4"
    person = _judge("pool-8-ball", balls, "cue>1 cue^ cue~person:out cue<", "pool-9ft", **{"break": False})
    assert "touched a person" in person.explain["en"]
    assert "the a " not in person.explain["en"]
    assert "задел человека" in person.explain["ru"]
    wall = _judge("pool-8-ball", balls, "cue>1 1^ 1~wall 1!floor", "pool-9ft", **{"break": False})
    assert "touched the wall" in wall.explain["en"]
    assert "задел стену" in wall.explain["ru"]
    sn = "cue=-0.5,0 red1=0.3,0.4 " + COLOURS
    snook = _judge("snooker", sn, "cue>red1 cue^ cue~person:out cue<", "snooker-12ft")
    assert "touched a person" in snook.explain["en"]
    assert "задел человека" in snook.explain["ru"]
    chalk = _judge("russian-pyramid", PLAY, "cue>7 cue^ cue~chalk cue< 7|foot", **{"break": False})
    assert "a player's chalk" in chalk.explain["en"]
    assert "(мел)" in chalk.explain["ru"]
    from physics.plan.parts import SURFACE_KINDS
    from rules.base import PLAYER_OBJECTS
    from rules.interference import OUTSIDE_AGENTS
    from rules.names import object_en, object_ru

    for obj in {*SURFACE_KINDS, *PLAYER_OBJECTS, *OUTSIDE_AGENTS} - {"bed"}:
        assert "_" not in object_en(obj), obj
        assert object_ru(obj) != obj, obj
        assert object_ru(obj, "acc"), obj


def test_one_blocking_ball_blocks_the_way() -> None:
    """The free-ball note agrees with the number of balls that block (000 «Снукер (маска)»)."""
    full = "cue=-0.5,0 blue=-0.2,0 red1=0.3,0 " + COLOURS
    f = _judge("snooker", full, "cue|head", "snooker-12ft")
    assert "the blue blocks the way" in f.explain["en"]
    assert "мешает синий" in f.explain["ru"]


def test_american_snooker_in_off_cites_its_own_section() -> None:
    balls = "cue=-0.5,0.3 red1=0.5,0.2 " + COLOURS + " blue=blue"
    r = _judge("american-snooker", balls, "cue>red1 red1|foot cue@head-left", "snooker-10ft")
    f = [x for x in r.fouls if x.code == "cue_ball_pocketed"][0]
    assert f.rule == "000: Американский снукер, Выскакивание за борт или падение в лузу битка"


RAW = (
    "red1",
    "red2",
    "ball cue",
    "шар cue",
    "шар red",
    "шар pink",
    "foot-left",
    "rail_top",
    "Ball 7",
    "ball 7 ",
)


@pytest.mark.slow
def test_explanations_name_balls_as_the_language_does() -> None:
    """No raw ids in what a trainee reads: every ruling of the case library, in both languages."""
    from scenes.core.settings import Settings
    from scenes.core.trainer.cases import load_library, record_for, rule_all

    for case in load_library():
        rec = record_for(case, Settings())
        for game, ruling in rule_all(case, rec).items():
            for lang in ("en", "ru"):
                text = ruling.explain[lang] + " ".join(f.explain[lang] for f in ruling.fouls)
                for raw in RAW:
                    assert raw not in text, (case.id, game, lang, raw, text)
                # No doubled article, no id with an underscore, no English word left in a Russian sentence.
                assert not re.search(r"\bthe (a|an|the) ", text), (case.id, game, text)
                assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), (case.id, game, text)
                if lang == "ru":
                    assert not re.search(r"[а-яё]+ [a-z]{3,}", text), (case.id, game, text)


# --- referee --all-games; one rule for ball ids ---------------------------------------------------------
def test_all_games_judges_what_it_can_and_says_why_not_for_the_rest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    case = Path(__file__).resolve().parents[2] / "assets" / "cases" / "pool-lamp.toml"
    assert run(["--lang", "en", "referee", str(case), "--all-games", "--json", "-"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d["rulings"]) == {"pool-8-ball", "pool-9-ball", "straight-pool"}
    assert set(d["not_judged"]) | set(d["rulings"]) == set(__import__("rules.registry").registry.game_ids())
    assert "pool-9ft" in d["not_judged"]["snooker"]
    assert "does not play with" in d["not_judged"]["golf"]
    assert run(["--lang", "ru", "referee", str(case), "--all-games"]) == 0
    out = capsys.readouterr().out
    assert out.count("Не судится по правилам") == len(d["not_judged"])


def test_simulate_and_referee_take_the_same_balls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A pink on the pool table: the game's ball set (the table's, for practice) decides, for both commands."""
    for game in ("pool-8-ball", "practice"):
        f = tmp_path / f"{game}.toml"
        f.write_text(
            f'game = "{game}"\ntable = "pool-9ft"\n[balls]\ncue = [-0.5, 0.0]\npink = [0.5, 0.0]\n'
            "[shot]\ncue_speed = 1.0\n",
            encoding="utf-8",
        )
        for cmd in ("simulate", "referee"):
            assert run([cmd, str(f)]) == 2
            err = capsys.readouterr().err
            assert "balls.pink" in err
            assert len(err.strip().splitlines()) == 1
