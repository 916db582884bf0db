"""The app's pure parts: ball-in-hand zones, the aiming geometry, the cue, position files, sound levels."""

from __future__ import annotations

import math
import wave
from pathlib import Path

import pytest

from physics.record import ShotParams
from physics.scenario import load_scenario
from physics.tables import load_table
from scenes.cue_control import CueState, aim_hit, cue_axis, direction_to, tip_contact
from scenes.match import default_placement, house_end, placement_allowed
from scenes.practice import scenario_text, write_scenario
from scenes.sound import KINDS, SOUND_DIR, loudness, sound_for

PYR = load_table("pyramid-12ft")
SNK = load_table("snooker-12ft")
POOL = load_table("pool-9ft")


def test_house_is_strictly_behind_the_house_line() -> None:
    head = PYR.lines["head-string"]
    R = PYR.ball_radius
    assert placement_allowed(PYR, "house", head - 0.001, 0.0, {})
    # 003: the ball may not stand on the line; its position is judged by its centre.
    assert not placement_allowed(PYR, "house", head, 0.0, {})
    assert not placement_allowed(PYR, "house", head + 0.01, 0.0, {})
    # Within the bed: centre at least R from the cushion nose.
    assert placement_allowed(PYR, "house", -PYR.half_length + R, 0.0, {})
    assert not placement_allowed(PYR, "house", -PYR.half_length + R - 1e-4, 0.0, {})


def test_d_is_the_semicircle_behind_the_baulk_line() -> None:
    head = SNK.lines["head-string"]
    r = SNK.d_radius
    assert r is not None
    assert placement_allowed(SNK, "d", head - r + 1e-4, 0.0, {})
    assert not placement_allowed(SNK, "d", head - r - 1e-3, 0.0, {})
    assert placement_allowed(SNK, "d", head, r - 1e-4, {})  # the D includes the baulk line itself
    assert not placement_allowed(SNK, "d", head + 1e-3, 0.0, {})
    a = math.radians(45)
    assert placement_allowed(SNK, "d", head - r * math.cos(a) * 0.99, r * math.sin(a) * 0.99, {})
    assert not placement_allowed(SNK, "d", head - r * math.cos(a) * 1.01, r * math.sin(a) * 1.01, {})


def test_no_overlap_and_anywhere() -> None:
    R = POOL.ball_radius
    others = {"1": (0.3, 0.2)}
    assert not placement_allowed(POOL, "anywhere", 0.3 + 2 * R - 1e-4, 0.2, others)
    assert placement_allowed(POOL, "anywhere", 0.3 + 2 * R + 1e-4, 0.2, others)
    assert placement_allowed(POOL, "behind-head-string", POOL.lines["head-string"] - 0.01, 0.0, others)
    assert not placement_allowed(POOL, "anywhere", math.nan, 0.0, others)


@pytest.mark.parametrize(
    "spec,zone", [(PYR, "house"), (SNK, "d"), (POOL, "behind-head-string"), (POOL, "anywhere")]
)
def test_default_placement_is_legal_even_when_the_natural_spot_is_taken(spec: object, zone: str) -> None:
    p = default_placement(spec, zone, {})  # type: ignore[arg-type]
    assert placement_allowed(spec, zone, *p, {})  # type: ignore[arg-type]
    blocked = {"9": p}
    q = default_placement(spec, zone, blocked)  # type: ignore[arg-type]
    assert placement_allowed(spec, zone, *q, blocked)  # type: ignore[arg-type]
    assert math.hypot(q[0] - p[0], q[1] - p[1]) >= 2 * spec.ball_radius  # type: ignore[attr-defined]


def test_aim_hit_straight_ball_ghost_is_two_radii_short() -> None:
    R = PYR.ball_radius
    pos = {"cue": (-1.0, 0.0), "7": (0.0, 0.0)}
    hit = aim_hit(PYR, pos, "cue", 0.0)
    assert hit.ball == "7"
    assert hit.end == pytest.approx((-2 * R, 0.0), abs=1e-12)
    assert hit.object_dir == pytest.approx((1.0, 0.0), abs=1e-12)


def test_aim_hit_cut_angle_follows_the_line_of_centres() -> None:
    # Offset b between the aim line and the object ball's centre gives a cut angle asin(b / 2R).
    R = PYR.ball_radius
    b = R  # half-ball hit: 30 degrees
    pos = {"cue": (-1.0, 0.0), "7": (0.0, b)}
    hit = aim_hit(PYR, pos, "cue", 0.0)
    assert hit.ball == "7"
    assert hit.end[0] == pytest.approx(-math.sqrt(4 * R * R - b * b), abs=1e-12)
    cut = math.degrees(math.atan2(hit.object_dir[1], hit.object_dir[0]))  # type: ignore[index]
    assert cut == pytest.approx(30.0, abs=1e-9)


def test_aim_hit_misses_a_ball_more_than_two_radii_off_and_stops_at_the_cushion() -> None:
    R = PYR.ball_radius
    pos = {"cue": (-1.0, 0.0), "7": (0.0, 2 * R + 1e-4)}
    hit = aim_hit(PYR, pos, "cue", 0.0)
    assert hit.ball is None
    assert hit.end == pytest.approx((PYR.half_length - R, 0.0), abs=1e-12)
    diag = aim_hit(PYR, {"cue": (0.0, 0.0)}, "cue", 90.0)
    assert diag.end == pytest.approx((0.0, PYR.half_width - R), abs=1e-12)


def test_direction_and_cue_axis() -> None:
    assert direction_to((0, 0), (0, 1)) == pytest.approx(90.0)
    assert direction_to((0, 0), (-1, -1)) == pytest.approx(225.0)
    u = cue_axis(0.0, 30.0)
    assert u == pytest.approx((math.cos(math.radians(30)), 0.0, -0.5))


def test_tip_contact_on_the_ball_surface_and_offsets_follow_the_cue() -> None:
    R = 0.034
    centre = (0.0, 0.0, R)
    c = tip_contact(centre, R, CueState(direction=0.0, elevation=0.0))
    assert c == pytest.approx((-R, 0.0, R), abs=1e-12)  # a level centre hit: behind the centre
    top = tip_contact(centre, R, CueState(direction=0.0, elevation=0.0, tip=(0.0, 0.5)))
    assert top[2] == pytest.approx(R + 0.5 * R, abs=1e-12)
    right = tip_contact(centre, R, CueState(direction=90.0, elevation=0.0, tip=(0.5, 0.0)))
    # Shooting along +y, the player's right is +x.
    assert right[0] == pytest.approx(0.5 * R, abs=1e-12)
    for cue in (CueState(37.0, 3.0, 25.0, (0.3, -0.4)), CueState(200.0, 1.0, 60.0, (-0.6, 0.2))):
        p = tip_contact(centre, R, cue)
        assert math.dist(p, centre) == pytest.approx(R, abs=1e-12)


def test_cue_state_clamps_to_a_human_stroke() -> None:
    c = CueState().with_speed(99.0).with_elevation(120.0).with_tip(3.0, 4.0)
    assert c.speed == 10.0 and c.elevation == 85.0
    assert math.hypot(*c.tip) == pytest.approx(0.8)
    assert c.tip[1] / c.tip[0] == pytest.approx(4 / 3)
    assert CueState(direction=350.0).turned(20.0).direction == pytest.approx(10.0)
    shot = CueState(12.0, 4.0, 10.0, (0.1, 0.2)).shot("cue", "7", "foot-left")
    assert shot == ShotParams("cue", 4.0, 12.0, 10.0, (0.1, 0.2), "7", "foot-left")


def test_practice_position_round_trips_through_the_scenario_loader(tmp_path: Path) -> None:
    pos = {"cue": (-1.2345678, 0.1), "1": (0.8875, 0.0), "15": (0.95, 0.0345)}
    shot = ShotParams("cue", 3.5, 12.5, 7.0, (0.1, -0.2), "1", "foot-left")
    path = write_scenario(tmp_path / "p" / "pos.toml", pos, "pyramid-12ft", shot, title='Тест "1"')
    sc = load_scenario(path)
    assert sc.game == "practice" and sc.table.id == "pyramid-12ft"
    assert sc.title == {"en": 'Тест "1"', "ru": 'Тест "1"'}
    assert sc.balls == {"cue": (-1.234568, 0.1), "1": (0.8875, 0.0), "15": (0.95, 0.0345)}
    assert sc.shot == shot
    # Deterministic text: the same position writes the same bytes.
    assert scenario_text(pos, "pyramid-12ft", shot) == scenario_text(
        dict(reversed(pos.items())), "pyramid-12ft", shot
    )


def test_sound_files_are_short_mono_wavs_and_loudness_grows_with_speed() -> None:
    for kind in KINDS:
        with wave.open(str(SOUND_DIR / f"{kind}.wav")) as w:
            assert w.getnchannels() == 1 and w.getsampwidth() == 2 and w.getframerate() == 44100
            assert 0.05 < w.getnframes() / 44100 < 0.5
    speeds = [0.01, 0.05, 0.3, 1.0, 3.0, 8.0, 20.0]
    gains = [loudness(s) for s in speeds]
    assert gains == sorted(gains)
    assert gains[0] == gains[1] == pytest.approx(0.15) and gains[-1] == gains[-2] == pytest.approx(1.0)
    assert loudness(None) == 0.5 and loudness(math.nan) == 0.5


def test_sounds_are_chosen_by_event_type() -> None:
    from physics.record import Event, EventType

    assert sound_for(Event(0.0, EventType.CUE_STRIKE, ball="cue")) == "cue"
    assert sound_for(Event(0.1, EventType.BALL_BALL, balls=("cue", "1"))) == "ball"
    assert sound_for(Event(0.2, EventType.CUSHION, ball="1", cushion="foot")) == "cushion"
    assert sound_for(Event(0.3, EventType.POCKETED, ball="1", pocket="foot-left")) == "pocket"
    assert sound_for(Event(0.4, EventType.REST, ball="1")) is None


@pytest.mark.parametrize(
    "args,script,needle",
    [
        (["play", "--game", "nope"], None, "error: --game: nope: a game id"),
        (["play", "--scenario", "/nonexistent/x.toml"], None, "error: /nonexistent/x.toml: file:"),
        (["play", "--offscreen"], '[{"do": 1}]', "actions: a JSON list of"),
    ],
)
def test_bad_window_input_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], script: str | None, needle: str
) -> None:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BILLIARDS_SCRIPT")}
    if script is not None:
        (tmp_path / "s.json").write_text(script, encoding="utf-8")
        env["BILLIARDS_SCRIPT"] = str(tmp_path / "s.json")
    res = subprocess.run(
        [sys.executable, str(root / "main.py"), *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 2
    errors = [line for line in res.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and needle in errors[0]
    assert "Traceback" not in res.stderr


def test_match_hud_shows_golfs_hole_and_snookers_nomination() -> None:
    from dataclasses import replace as dc_replace

    from rules.games.golf import HOLES
    from scenes.hud import hud_text
    from scenes.match import MatchController

    golf = MatchController(game="golf", names=("A", "B", "C"))
    snap = golf.snapshot()
    assert snap.golf_pocket == HOLES[0]
    assert tr_pocket(HOLES[0], "en") in hud_text(snap, "en")["required"]
    golf.state = dc_replace(golf.state, extra={**golf.state.extra, "holes": [2, 0, 0]})
    assert golf.snapshot().golf_pocket == HOLES[2]

    sn = MatchController(game="snooker", names=("A", "B"))
    assert not sn.needs_nomination
    sn.state = dc_replace(sn.state, ball_on="colour", is_break=False)
    assert sn.needs_nomination
    assert "Nominate a ball" in hud_text(sn.snapshot(), "en")["required"]
    sn.call_ball = "blue"
    assert "Nominated: blue" in hud_text(sn.snapshot(), "en")["required"]
    shot = sn.declared(ShotParams("cue", 2.0, 0.0, 5.0, (0.0, 0.0)))
    assert shot.call_ball == "blue"


def tr_pocket(pocket: str, lang: str) -> str:
    from scenes.i18n import pocket_name

    return pocket_name(pocket, lang)


def test_house_placement_may_not_freeze_the_cue_ball_to_a_ball_in_the_house() -> None:
    R = PYR.ball_radius
    head = PYR.lines["head-string"]
    in_house = {"5": (head - 0.3, 0.0), "7": (0.5, 0.2)}  # one ball up the table: the ordinary house
    # Touching (2R apart) is allowed elsewhere, but not against a ball inside the house.
    assert placement_allowed(PYR, "anywhere", head - 0.3 + 2 * R, 0.0, in_house)
    assert not placement_allowed(PYR, "house", head - 0.3 + 2 * R, 0.0, in_house)
    assert placement_allowed(PYR, "house", head - 0.3 + 2 * R + 0.001, 0.0, in_house)
    # A ball just beyond the house line does not restrict it: touching it from inside the house is allowed.
    bx = head + R - 0.005
    assert placement_allowed(PYR, "house", bx - 2 * R - 1e-9, 0.0, {"5": (bx, 0.0)})


def test_every_object_ball_in_the_house_moves_the_house_to_the_other_end() -> None:
    """003: Начальный удар, б — with every object ball behind the house line, the cue ball is placed
    behind the foot string instead (the referee's ``RussianReferee.house`` reads it the same way)."""
    R = PYR.ball_radius
    head, foot = PYR.lines["head-string"], PYR.lines["foot-string"]
    in_house = {"1": (head - 0.30, 0.10), "2": (head - 0.50, -0.20)}
    assert house_end(PYR, in_house) == (foot, 1)
    assert not placement_allowed(PYR, "house", head - 0.10, 0.0, in_house)
    assert placement_allowed(PYR, "house", foot + 0.001, 0.0, in_house)
    assert not placement_allowed(PYR, "house", foot, 0.0, in_house)  # not on the line itself
    assert placement_allowed(PYR, "house", PYR.half_length - R, 0.0, in_house)
    p = default_placement(PYR, "house", in_house)
    assert p[0] > foot and placement_allowed(PYR, "house", *p, in_house)
    # One ball outside the house keeps the ordinary house.
    mixed = {**in_house, "3": (0.0, 0.0)}
    assert house_end(PYR, mixed) == (head, -1)
    assert placement_allowed(PYR, "house", head - 0.10, 0.3, mixed)
    assert not placement_allowed(PYR, "house", foot + 0.10, 0.0, mixed)
    # Pool's "behind the head string" never moves.
    assert placement_allowed(POOL, "behind-head-string", POOL.lines["head-string"] - 0.01, 0.0, in_house)
