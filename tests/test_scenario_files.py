"""Scenario files (docs/formats.md §Scenario files): bad input names the file, the key and what was expected."""

from __future__ import annotations

import pytest

from physics.errors import InputError
from rules.scenarios import parse_scenario

GOOD = {
    "game": "russian-pyramid",
    "balls": {"cue": [-0.9, 0.0], "7": [0.4, 0.1]},
    "shot": {
        "cue_speed": 3.5,
        "direction": 0.0,
        "elevation": 30.0,
        "tip": [0.0, 0.25],
        "call": {"ball": "7", "pocket": "foot-left"},
    },
}


def _with(**changes: object) -> dict:
    d = {k: (dict(v) if isinstance(v, dict) else v) for k, v in GOOD.items()}
    for path, value in changes.items():
        section, _, key = path.partition("__")
        if key:
            d[section] = dict(d[section])
            d[section][key] = value
        else:
            d[section] = value
    return d


def test_good_scenario_parses() -> None:
    s = parse_scenario(GOOD, "good.toml")
    assert s.table.id == "pyramid-12ft"
    assert s.shot is not None
    assert s.shot.call_pocket == "foot-left"
    assert s.shot.elevation == 30.0
    assert s.shot.cue == "playing"  # the playing cue unless the file names another
    jump = parse_scenario(_with(shot__cue="jump"), "jump.toml")
    assert jump.shot is not None
    assert jump.shot.cue == "jump"


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (_with(balls={"cue": [0.0, 0.0], "7": [0.05, 0.0]}), "balls.7"),  # overlapping
        (_with(balls={"cue": [1.9, 0.0]}), "balls.cue"),  # off the bed
        (_with(balls={"cue": [0.0, 0.0], "99": [0.5, 0.0]}), "balls.99"),  # unknown ball
        (_with(game="chess"), "game"),
        (_with(table="carom-10ft"), "table"),
        (_with(shot__cue_speed=-1.0), "shot.cue_speed"),
        (_with(shot__elevation=95.0), "shot.elevation"),
        (_with(shot__tip=[0.9, 0.9]), "shot.tip"),
        (_with(shot__call={"ball": "7", "pocket": "corner"}), "shot.call.pocket"),
        (_with(shot__ball="3"), "shot.ball"),
        (_with(shot__cue="masse"), "shot.cue"),
        (_with(shot__cue=1), "shot.cue"),
        (_with(shot__cue_speed=float("nan")), "shot.cue_speed"),
        (_with(balls={"cue": ["a", 0.0]}), "balls.cue[0]"),
    ],
)
def test_bad_scenarios_name_the_key(data: dict, key: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_scenario(data, "case.toml")
    assert exc.value.key == key, exc.value
    assert exc.value.file == "case.toml"


def test_frozen_balls_are_not_overlapping() -> None:
    R = 0.034
    parse_scenario({"balls": {"cue": [0.0, 0.0], "1": [2 * R, 0.0]}}, "f.toml")


def test_ball_frozen_to_a_cushion_is_on_the_bed() -> None:
    # The nose is above the centre, so a frozen ball's centre is R*cos(theta) from the nose line (pool: 27.45 mm).
    s = parse_scenario({"table": "pool-9ft", "balls": {"cue": [-0.6, 0.2], "1": [0.2, 0.607546]}}, "f.toml")
    assert s.balls["1"][1] > s.table.half_width - s.table.ball_radius


def test_the_games_a_file_may_name_come_from_the_catalog_passed_in() -> None:
    """No catalog is installed behind the loader's back: with the registry imported (rules.scenarios above),
    physics' own loader, given no catalog, still knows only ``practice`` (issue 27 §2)."""
    from physics import scenario
    from rules.registry import CATALOG

    with pytest.raises(InputError) as exc:
        scenario.parse_scenario(GOOD, "f.toml")
    assert exc.value.key == "game"
    assert scenario.parse_scenario(GOOD, "f.toml", CATALOG).game == "russian-pyramid"
