"""Outside interference under snooker (rules-notes §2 row 17).

WPBSA S3 R15: a ball disturbed by anyone but the striker is put where the referee judges it would have come
to rest, with no penalty and no replay; what the striker did stands. The referee's judgement is the same
stroke without the outsider (``judge(..., undisturbed=...)``). Without it the snooker referee cannot judge
and restores and replays. American snooker plays by 000 «Вмешательство постороннего»: always a replay.

Strokes are hand-built with :mod:`rules.notation` (tokens 0.1 s apart, so an undisturbed script that shares
the actual one's first tokens shares their times); the library case is a simulated stroke.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from physics.errors import InputError
from physics.record import BallStatus, ShotRecord
from physics.tables import load_table
from rules.interference import disturbed_balls, referee_view
from rules.notation import layout, record
from rules.registry import get_referee
from rules.ruling import InHand, Ruling
from rules.scenarios import load_scenario, parse_scenario
from rules.state import MatchState
from tests.rules.test_pool_support import check_places, state

T = "snooker-12ft"
TABLE = load_table(T)
R = TABLE.ball_radius
COLOURS = "yellow=yellow green=green brown=brown blue=blue pink=pink black=black"
MID = "cue=-0.5,0.3 red1=0.5,0.2 red2=0.6,-0.3 " + COLOURS
ROOT = Path(__file__).resolve().parents[2]
CASE = ROOT / "assets" / "cases" / "snooker-outside-interference.toml"


def judge(
    actual: str, undisturbed: str | None, balls: str = MID, game: str = "snooker", **kw: object
) -> tuple[MatchState, Ruling]:
    table = T if game == "snooker" else "snooker-10ft"
    st = state(game, layout(balls, table), **kw)  # type: ignore[arg-type]
    und = record(balls, undisturbed, table=table) if undisturbed is not None else None
    ruling = get_referee(game).judge(st, record(balls, actual, table=table), und)
    check_places(st, ruling)
    return st, ruling


def note(r: Ruling) -> dict[str, str]:
    (w,) = [w for w in r.warnings if w.code == "outside_interference"]
    assert w.rule == "WPBSA S3 R15"
    return dict(w.explain)


# --- no undisturbed run: the referee cannot judge, so the stroke is replayed ----------------------------
def test_without_undisturbed_run_the_stroke_is_replayed_and_says_why() -> None:
    st, r = judge("cue>red1 red1~spectator red1=0.3,0.2", None)
    assert r.replay
    assert not r.foul
    assert r.points == (0, 0)
    assert r.next_player == 0
    assert dict(r.positions) == dict(st.balls)
    ex = note(r)
    assert "no undisturbed run" in ex["en"]
    assert "без расчёта" in ex["ru"]


# --- with the undisturbed run: where the ball would have come to rest --------------------------------------
def test_ball_that_would_have_been_potted_is_potted() -> None:
    # The spectator stops red1 on its way into the foot-left pocket: S3 R15 with S2 R7 - a pot, 1 point, the
    # striker goes on to a colour. No penalty for the disturbance, no replay.
    _, r = judge("cue>red1 red1~spectator red1=0.3,0.2", "cue>red1 red1|foot red1@foot-left")
    assert not r.replay
    assert not r.foul
    assert r.counted == ("red1",)
    assert r.points == (1, 0)
    assert r.next_player == 0
    assert r.ball_on == "colour"
    assert "red1" not in r.positions
    assert "red1" in r.out_of_play
    ex = note(r)
    assert "potted" in ex["en"]
    assert "забит" in ex["ru"]
    assert "foot-left" in ex["en"]


def test_ball_is_placed_where_it_would_have_stopped() -> None:
    # Actually red1 is knocked into a pocket by the spectator; undisturbed it would have stopped on the bed.
    _, r = judge("cue>red1 red1~spectator red1@foot-right", "cue>red1 red1|foot red1=1.2,0.5")
    assert not r.foul
    assert not r.replay
    assert r.counted == ()
    assert r.points == (0, 0)
    assert r.positions["red1"] == pytest.approx((1.2, 0.5), abs=1e-9)
    assert [(x.ball, x.at) for x in r.respot] == [("red1", pytest.approx((1.2, 0.5), abs=1e-9))]
    assert r.next_player == 1  # nothing potted: the turn passes as after any stroke without a pot


def test_moved_on_the_bed_is_listed_with_the_respots() -> None:
    _, r = judge("cue>red1 red1~spectator red1=0.3,0.2", "cue>red1 red1=0.9,0.4")
    assert r.positions["red1"] == pytest.approx((0.9, 0.4))
    assert [x.ball for x in r.respot] == ["red1"]
    # A disturbed ball that ends where it would have ended anyway is not respotted.
    _, same = judge("cue>red1 red1~spectator red1=0.9,0.4", "cue>red1 red1=0.9,0.4")
    assert same.respot == ()
    assert same.positions["red1"] == pytest.approx((0.9, 0.4))


def test_cue_ball_the_spectator_saved_from_the_floor_is_forced_off() -> None:
    # Row 5's flight with a spectator instead of the player's side: it would have come to rest on the floor
    # (S2 R14), so it is a foul - value of the ball on (red, 1) raised to the minimum of 4 (S3 R10).
    _, r = judge("cue>red1 cue^ cue- cue~spectator cue< cue_bed cue=-0.8,0.7", "cue>red1 cue^ cue- cue!floor")
    assert r.foul
    assert r.codes() == ["cue_ball_off_table"]
    assert r.points == (0, 4)
    assert r.off_table == ("cue",)
    assert r.in_hand == InHand.D
    assert r.next_player == 1
    assert "cue" not in r.positions
    assert "WPBSA S3 R15" in r.fouls[0].explain["en"]
    assert "WPBSA S3 R15" in r.fouls[0].explain["ru"]


def test_red_that_would_have_left_the_table_is_forced_off_and_stays_off() -> None:
    _, r = judge("cue>red1 red1^ red1~spectator red1< red1=1.0,0.6", "cue>red1 red1^ red1!floor")
    assert r.codes() == ["ball_off_table"]
    assert r.points == (0, 4)
    assert r.off_table == ("red1",)
    assert "red1" in r.out_of_play
    assert "red1" not in r.positions
    assert r.respot == ()


def test_cue_ball_that_would_have_gone_in_off() -> None:
    _, r = judge("cue>red1 cue~spectator cue=0.1,0.5", "cue>red1 cue|foot cue@foot-left")
    assert r.codes() == ["cue_ball_pocketed"]
    assert r.points == (0, 4)
    assert r.in_hand == InHand.D


def test_colour_not_on_that_would_have_been_potted_is_a_foul_and_respotted() -> None:
    _, r = judge("cue>red1 red1>pink pink~spectator pink=0.9,0.3", "cue>red1 red1>pink pink@foot-left")
    # the pink is worth 6
    assert r.codes() == ["ball_not_on_potted"]
    assert r.points == (0, 6)
    assert [(x.ball, x.at) for x in r.respot] == [("pink", TABLE.spot("pink"))]


def test_the_strikers_own_foul_before_the_touch_still_counts() -> None:
    # The cue ball met the pink first (a foul of the striker, 6 points); the spectator then stopped red1,
    # which would have dropped in. The pot does not count after a foul, the red stays down (S3 R7).
    _, r = judge(
        "cue>pink cue>red1 red1~spectator red1=0.3,0.2", "cue>pink cue>red1 red1|foot red1@foot-left"
    )
    assert r.codes() == ["wrong_ball_first"]
    assert r.points == (0, 6)
    assert r.counted == ()
    assert "red1" in r.out_of_play
    assert "red1" not in r.positions
    assert not r.replay


def test_a_foul_the_outsider_caused_does_not_count() -> None:
    # The spectator deflects the cue ball before it reaches red1, and it then meets the pink first. Without him
    # it would have struck red1 and potted it: no foul, the red counts.
    _, r = judge("cue^ cue~spectator cue>pink pink|foot", "cue^ cue>red1 red1@foot-left")
    assert not r.foul
    assert r.counted == ("red1",)
    assert r.points == (1, 0)
    assert r.next_player == 0
    assert r.positions["pink"] == pytest.approx(TABLE.spot("pink"))


def test_balls_the_disturbed_ball_would_have_moved_go_with_it() -> None:
    # Undisturbed, red1 would have knocked red2 in; the spectator stopped red1 before that. Both are judged
    # from the undisturbed run: red2 potted (1 point), red1 where it would have stopped.
    _, r = judge(
        "cue>red1 red1~spectator red1=0.3,0.2", "cue>red1 red1|foot red1>red2 red2@foot-right red1=0.8,0.1"
    )
    assert sorted(r.counted) == ["red2"]
    assert r.points == (1, 0)
    assert r.positions["red1"] == pytest.approx((0.8, 0.1))
    assert "red2" not in r.positions


def test_balls_the_disturbed_ball_hit_after_the_touch_go_where_they_would_have_been() -> None:
    # Deflected by the spectator, red1 runs into the blue and knocks it into a pocket; undisturbed it would
    # have stopped short and the blue would never have moved: the blue stays on its spot, no foul.
    _, r = judge("cue>red1 red1~spectator red1>blue blue@middle-left red1=0.1,0.2", "cue>red1 red1=0.7,0.2")
    assert not r.foul
    assert r.counted == ()
    assert r.positions["blue"] == pytest.approx(TABLE.spot("blue"))
    assert r.positions["red1"] == pytest.approx((0.7, 0.2))


def test_disturbed_set_grows_through_both_runs_from_the_touch_on() -> None:
    balls = MID
    actual = record(balls, "cue>red2 cue>red1 red1~spectator red1>blue", table=T)
    und = record(balls, "cue>red2 cue>red1 red1>pink", table=T)
    # cue and red2 met before the touch: not disturbed; blue (actual) and pink (undisturbed) after it: disturbed.
    assert disturbed_balls(actual, und, {"red1"}, 0.3) == {"red1", "blue", "pink"}
    view, agent, t0, moved = referee_view(actual, und)
    assert agent == "spectator"
    assert t0 == pytest.approx(0.3)
    assert set(moved) == {"red1", "blue", "pink"}
    assert not any(e.object == "spectator" for e in view.events)
    assert [e.balls for e in view.events if e.type == "ball_ball"] == [
        ("cue", "red2"),
        ("cue", "red1"),
        ("red1", "pink"),
    ]


def test_an_occupied_place_from_a_hand_made_run_is_moved_aside() -> None:
    # The undisturbed run puts red1 where red2 actually rests: it goes to the nearest free point on the bed.
    _, r = judge("cue>red1 red1~spectator red1=0.3,0.2", "cue>red1 red1=0.6,-0.29")
    p = r.positions["red1"]
    others = [q for b, q in r.positions.items() if b != "red1"]
    assert min(math.dist(p, q) for q in others) >= 2 * R - 1e-12
    assert math.dist(p, (0.6, -0.29)) <= 2 * R + R / 4  # the search steps a quarter radius


@pytest.mark.parametrize(
    "script",
    [
        "cue>red1 red1@foot-left",
        "cue>pink pink|foot",
        "cue>red1 cue@head-left",
        "cue|foot",
        "cue>red1 red1>black black@foot-left",
        "cue>red1 red1|foot red1>red2 red2@middle-right",
    ],
)
def test_a_touch_that_changed_nothing_leaves_the_ruling_as_without_it(script: str) -> None:
    # The spectator brushes red1 as it stops, and it would have stopped there anyway: the ruling is the
    # stroke's own, with the S3 R15 announcement added.
    st = state("snooker", layout(MID, T))
    plain = get_referee("snooker").judge(st, record(MID, script, table=T))
    _, r = judge(script + " red1~spectator", script)
    for name in (
        "foul",
        "counted",
        "points",
        "scores",
        "off_table",
        "respot",
        "next_player",
        "in_hand",
        "out_of_play",
        "ball_on",
        "positions",
    ):
        assert getattr(r, name) == getattr(plain, name), name
    assert r.codes() == plain.codes()
    assert note(r)


def test_same_input_same_ruling_bit_for_bit() -> None:
    a = judge("cue>red1 red1~spectator red1=0.3,0.2", "cue>red1 red1|foot red1=1.1,0.3")[1].to_dict()
    b = judge("cue>red1 red1~spectator red1=0.3,0.2", "cue>red1 red1|foot red1=1.1,0.3")[1].to_dict()
    assert a == b


# --- American snooker: 000 «Вмешательство постороннего» ----------------------------------------------------
def test_american_snooker_restores_and_replays_even_with_the_undisturbed_run() -> None:
    balls = (
        "cue=-0.5,0.3 red1=0.5,0.2 red2=0.6,-0.3 yellow=-0.83,-0.23 green=-0.83,0.23 brown=-0.83,0 "
        "blue=0,0 pink=0.71,0 black=1.0,0"
    )
    st, r = judge(
        "cue>red1 red1~spectator red1=0.3,0.2",
        "cue>red1 red1|foot red1@foot-left",
        balls=balls,
        game="american-snooker",
    )
    assert r.replay
    assert not r.foul
    assert r.counted == ()
    assert dict(r.positions) == dict(st.balls)
    (w,) = r.warnings
    assert w.rule == "000: Вмешательство постороннего"
    assert "replayed" in w.explain["en"]


# --- the scenario's [undisturbed] and the library case ------------------------------------------------------
def test_library_case_carries_the_undisturbed_run_and_it_decides() -> None:
    sc = load_scenario(CASE)
    und = sc.undisturbed_record()
    assert isinstance(und, ShotRecord)
    assert und.final["cue"].status == BallStatus.OFF_TABLE
    assert und.final["cue"].rest == "floor"
    assert not any(e.object in ("person", "spectator") for e in und.events)
    from physics.cli import recorded_record
    from physics.params import PhysicsParams

    actual = recorded_record(sc, PhysicsParams.for_table(sc.table))
    assert actual.final["cue"].status == BallStatus.ON_TABLE  # the spectator sent it back onto the bed
    st = MatchState.from_scenario(get_referee("snooker"), sc.state, sc.balls, sc.path)
    ref = get_referee("snooker")
    judged = ref.judge(st, actual, und)
    # The cue ball meets the top of red1 in the air and flies on over it: a jump shot as well (WPBSA: over
    # any part of a ball, touching it or not), one penalty.
    assert judged.codes() == ["jump_shot", "cue_ball_off_table"]
    assert judged.in_hand == InHand.D
    assert judged.points == (0, 4)
    assert ref.judge(st, actual).replay


def test_stored_undisturbed_run_is_the_physics_without_the_spectator() -> None:
    """The physics, run again on the case's stroke with nobody by the table, still sends the cue ball off."""
    from physics.simulate import simulate
    from scenes.core.settings import Settings
    from scenes.core.trainer.cases import physics_params

    sc = load_scenario(CASE)
    assert sc.shot is not None
    settings = Settings()  # the tool simulates with the default settings
    rec = simulate(
        sc.table, sc.balls, sc.shot, physics_params(sc.table, settings), (), settings.lamp_position
    )
    und = sc.undisturbed_record()
    assert und is not None
    assert rec.final["cue"].status == und.final["cue"].status == BallStatus.OFF_TABLE
    assert rec.final["red1"].status == BallStatus.ON_TABLE
    assert math.dist(rec.final["red1"].pos[:2], und.final["red1"].pos[:2]) < 0.01  # type: ignore[index]


@pytest.mark.parametrize(
    ("patch", "key"),
    [
        ('[[undisturbed.events]]\nt = -1.0\ntype = "rest"\nball = "cue"\n', "undisturbed.events[0].t"),
        ('[[undisturbed.events]]\nt = 0.1\ntype = "nope"\n', "undisturbed.events[0].type"),
        ("[undisturbed]\nevents = 3\n", "undisturbed.events"),
        (
            '[[undisturbed.events]]\nt = 0.1\ntype = "rest"\nball = "cue"\n[undisturbed.final.red7]\n'
            'status = "on_table"\n',
            "undisturbed.final.red7",
        ),
    ],
)
def test_bad_undisturbed_table_is_one_input_error(patch: str, key: str) -> None:
    import tomllib

    base = (
        'game = "snooker"\n[balls]\ncue = [0.0, 0.0]\nred1 = [0.5, 0.2]\n'
        '[[events]]\nt = 0.0\ntype = "cue_strike"\nball = "cue"\n'
    )
    with pytest.raises(InputError) as err:
        parse_scenario(tomllib.loads(base + patch), "case.toml")
    assert err.value.file == "case.toml"
    assert err.value.key == key


def test_undisturbed_needs_a_recorded_stroke() -> None:
    import tomllib

    text = 'game = "snooker"\n[balls]\ncue = [0.0, 0.0]\n[[undisturbed.events]]\nt = 0.1\ntype = "rest"\n'
    with pytest.raises(InputError) as err:
        parse_scenario(tomllib.loads(text), "case.toml")
    assert err.value.key == "undisturbed"


def test_the_referee_command_passes_the_undisturbed_run() -> None:
    """``main.py referee`` on the library case rules as the trainer does: S3 R15, not a replay."""
    from rules.cli import judge_scenario

    sc = load_scenario(CASE)
    assert sc.is_recorded
    assert sc.recorded_final is not None
    rec = ShotRecord(
        table=sc.table.id,
        params={},
        events=tuple(sc.recorded_events or ()),
        final=dict(sc.recorded_final),
        shot=sc.shot,
        initial={b: (x, y, sc.table.ball_radius) for b, (x, y) in sc.balls.items()},
    )
    _, r = judge_scenario(sc, rec)
    assert r.foul
    assert r.codes() == ["jump_shot", "cue_ball_off_table"]
    assert r.next_player == 1
