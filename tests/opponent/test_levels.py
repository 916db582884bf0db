"""The levels are data (assets/opponent/levels.toml): the shipped file reads, a bad one is one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from main import run
from physics.errors import InputError
from scenes.core.opponent.levels import LEVELS_FILE, load_levels

GOOD = LEVELS_FILE.read_text(encoding="utf-8")


def test_the_shipped_levels_read_and_each_level_errs_less_than_the_one_below() -> None:
    levels = load_levels()
    assert sorted(levels) == [1, 2, 3, 4, 5]
    for n in range(1, 5):
        lo, hi = levels[n], levels[n + 1]
        assert hi.aim_deg < lo.aim_deg
        assert hi.speed_sd < lo.speed_sd
        assert hi.pots >= lo.pots
    assert not levels[1].position
    assert levels[5].position
    assert levels[5].reply
    assert levels[5].safeties > 0


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("aim_deg = 0.6", "aim_deg = -1", "level.1.aim_deg"),
        ("pots = 3", "pots = 2.5", "level.1.pots"),
        ("position = false", 'position = "no"', "level.1.position"),
        ("breaks = 2", "breaks = 2\nspeed = 3", "level.1.speed"),
        ("[level.5]", "[level.6]", "level.6"),
    ],
)
def test_a_bad_value_names_the_file_the_key_and_what_was_expected(
    tmp_path: Path, old: str, new: str, key: str
) -> None:
    f = tmp_path / "levels.toml"
    assert old in GOOD
    f.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_levels(f)
    assert e.value.file == str(f)
    assert e.value.key == key
    assert e.value.expected


def test_a_missing_key_is_named(tmp_path: Path) -> None:
    f = tmp_path / "levels.toml"
    f.write_text(GOOD.replace("refine = 2\n", "", 1), encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_levels(f)
    assert e.value.key == "level.4.refine"


def test_the_commands_refuse_bad_arguments_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for argv in (["suggest", "nowhere.toml", "--level", "6"], ["autoplay", "pool-9-ball", "--levels", "5"]):
        with pytest.raises(SystemExit) as e:
            run(argv)
        assert e.value.code == 2
    assert run(["autoplay", "no-such-game", "--levels", "5", "1", "--frames", "1"]) == 2
    practice = tmp_path / "p.toml"
    practice.write_text(
        'game = "practice"\ntable = "pool-9ft"\n[balls]\ncue = [0.0, 0.0]\n', encoding="utf-8"
    )
    assert run(["suggest", str(practice)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert all(line.startswith("error: ") for line in err)
    assert len(err) == 4
