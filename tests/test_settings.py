"""settings.toml: every key checked; bad values give one line naming the key, exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from physics.errors import InputError
from scenes.core.settings import load_settings, parse_settings

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_settings_load() -> None:
    s = load_settings()
    assert s.lang in ("ru", "en")
    assert s.physics.substep_hz >= 1000
    assert len(s.players.names) >= 1


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"display": {"widht": 800}}, "display.widht"),
        ({"display": {"width": "800"}}, "display.width"),
        ({"display": {"width": 10}}, "display.width"),
        ({"language": {"ui": "de"}}, "language.ui"),
        ({"physics": {"substep_hz": 100}}, "physics.substep_hz"),
        ({"physics": {"mu_slide": 5.0}}, "physics.mu_slide"),
        ({"game": {"default": "chess"}}, "game.default"),
        ({"players": {"names": []}}, "players.names"),
        ({"sound": {"enabled": 1}}, "sound.enabled"),
        ({"display": {"quality": "ultra"}}, "display.quality"),
        ({"display": {"quality": 1}}, "display.quality"),
        ({"colours": {}}, "colours"),
        ({"cue": {"pool-9-ball": "masse"}}, "cue.pool-9-ball"),
        ({"cue": {"chess": "jump"}}, "cue.chess"),
        ({"cue": {"snooker": 1}}, "cue.snooker"),
        ({"cue": "jump"}, "cue"),
    ],
)
def test_bad_values_name_the_key(data: dict, key: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_settings(data, "x.toml")
    assert exc.value.key == key
    assert exc.value.line().startswith("error: x.toml: " + key)


def test_display_quality_is_high_or_low() -> None:
    assert load_settings().display.quality == "high"
    assert parse_settings({"display": {"quality": "low"}}, "x.toml").display.quality == "low"
    with pytest.raises(InputError) as exc:
        parse_settings({"display": {"quality": "medium"}}, "x.toml")
    assert "one of high, low" in exc.value.line()


def test_each_game_starts_with_its_cue() -> None:
    s = parse_settings({"cue": {"pool-9-ball": "jump", "practice": "break"}})
    assert s.cue.for_game("pool-9-ball") == "jump"
    assert s.cue.for_game("practice") == "break"
    assert s.cue.for_game("snooker") == "playing"  # not named: the playing cue
    assert load_settings().cue.for_game("russian-pyramid") == "playing"


def test_overrides_are_collected() -> None:
    s = parse_settings({"physics": {"mu_slide": 0.25, "substep_hz": 2000}})
    assert s.physics.overrides == {"mu_slide": 0.25}
    assert s.physics.substep_hz == 2000


def test_cli_bad_settings_exit_2_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "s.toml"
    bad.write_text("[display]\nwidth = 'wide'\n", encoding="utf-8")
    r = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--settings", str(bad), "games"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "display.width" in lines[0]
    assert str(bad) in lines[0]


def test_cli_broken_toml_and_encoding_exit_2(tmp_path: Path) -> None:
    for content in (b"[display\nwidth=", b"\xff\xfe\x00bad"):
        bad = tmp_path / "s.toml"
        bad.write_bytes(content)
        r = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), "--settings", str(bad), "games"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert r.returncode == 2, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


# [controls]: a key name Panda3D sends, one action per key, none of the keys the app keeps for itself.
@pytest.mark.parametrize(
    ("controls", "key"),
    [
        ({"shoot": ""}, "controls.shoot"),
        ({"shoot": "spacebar"}, "controls.shoot"),
        ({"shoot": "A"}, "controls.shoot"),  # Panda3D sends letters lower-case: "A" never arrives
        ({"shoot": 32}, "controls.shoot"),
        ({"shoot": "e"}, "controls.shoot"),  # elevation_up is on "e" already (the default)
        ({"tip_left": "q", "aim_left": "q"}, "controls.aim_left"),
        ({"shoot": "f5"}, "controls.shoot"),  # practice: save the position
        ({"shoot": "1"}, "controls.shoot"),  # option numbers
        ({"shoot": "enter"}, "controls.shoot"),  # the trainer's confirm
        ({"shoot": "mouse1"}, "controls.shoot"),
        ({"shoott": "space"}, "controls.shoott"),
    ],
)
def test_bad_controls_name_the_key(controls: dict, key: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_settings({"controls": controls}, "x.toml")
    assert exc.value.key == key, exc.value


def test_controls_may_move_to_free_keys() -> None:
    s = parse_settings({"controls": {"shoot": "j", "elevation_up": "space", "menu": "q"}})
    assert (s.controls.shoot, s.controls.elevation_up, s.controls.menu) == ("j", "space", "q")


def test_the_shipped_controls_are_all_distinct() -> None:
    from dataclasses import astuple

    keys = astuple(load_settings().controls)
    assert len(set(keys)) == len(keys)
