"""The app's pure parts: ball-in-hand zones, the aiming geometry, the cue, position files, sound levels."""

from __future__ import annotations

import math
import wave
from pathlib import Path

import pytest

from physics.record import ShotParams
from physics.tables import load_table
from rules.scenarios import load_scenario
from scenes.core.practice import scenario_text, write_scenario
from scenes.cue_control import CueState, aim_hit, cue_axis, direction_to, tip_contact
from scenes.sound import KINDS, SOUND_DIR, loudness, sound_for

PYR = load_table("pyramid-12ft")
SNK = load_table("snooker-12ft")
POOL = load_table("pool-9ft")


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
    assert c.speed == 10.0
    assert c.elevation == 85.0
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
    assert sc.game == "practice"
    assert sc.table.id == "pyramid-12ft"
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
            assert w.getnchannels() == 1
            assert w.getsampwidth() == 2
            assert w.getframerate() == 44100
            assert 0.05 < w.getnframes() / 44100 < 0.5
    speeds = [0.01, 0.05, 0.3, 1.0, 3.0, 8.0, 20.0]
    gains = [loudness(s) for s in speeds]
    assert gains == sorted(gains)
    assert gains[0] == gains[1] == pytest.approx(0.15)
    assert gains[-1] == gains[-2] == pytest.approx(1.0)
    assert loudness(None) == 0.5
    assert loudness(math.nan) == 0.5


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
        (["play", "--offscreen"], '[{"do": 1}]', "actions[0].do: an action"),
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
    assert len(errors) == 1
    assert needle in errors[0]
    assert "Traceback" not in res.stderr


def test_match_hud_shows_golfs_hole_and_snookers_nomination() -> None:
    from dataclasses import replace as dc_replace

    from rules.games.golf import HOLES
    from scenes.core.match import MatchController
    from scenes.core.scoreboard import hud_text

    golf = MatchController(game="golf", names=("A", "B", "C"))
    snap = golf.snapshot()
    assert snap.golf_pocket == HOLES[0]
    assert tr_pocket(HOLES[0], "en") in hud_text(snap, "en")["required"]
    golf.state = dc_replace(golf.state, family=dc_replace(golf.state.family, holes=(2, 0, 0)))
    assert golf.snapshot().golf_pocket == HOLES[2]

    sn = MatchController(game="snooker", names=("A", "B"))
    assert not sn.needs_nomination
    sn.state = dc_replace(sn.state, ball_on="colour", is_break=False)
    assert sn.needs_nomination
    assert "Nominate a ball" in hud_text(sn.snapshot(), "en")["required"]
    sn.call_ball = "blue"
    assert "Nominated: the blue" in hud_text(sn.snapshot(), "en")["required"]
    shot = sn.declared(ShotParams("cue", 2.0, 0.0, 5.0, (0.0, 0.0)))
    assert shot.call_ball == "blue"


def tr_pocket(pocket: str, lang: str) -> str:
    from scenes.core.i18n import pocket_name

    return pocket_name(pocket, lang)
