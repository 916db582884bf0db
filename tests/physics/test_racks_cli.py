"""Opening layouts for every game; the simulate command, its JSON and its errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from main import run
from physics.cli import load_or_simulate
from physics.racks import BENCH_POOL, BENCH_PYRAMID, Rack, initial_layout
from physics.tables import load_table
from rules.contract import Family
from rules.registry import CATALOG, game_ids, get_referee
from scenes.core.settings import Settings


@pytest.mark.parametrize("game", game_ids())
@pytest.mark.parametrize("seed", [None, 3])
def test_every_game_has_a_legal_opening_layout(game: str, seed: int | None) -> None:
    """Each referee's rack description, laid out by the physics on the game's table."""
    ref = get_referee(game)
    spec = ref.table
    layout = initial_layout(ref.rack_spec(ref.player_range[0]), spec, seed=seed)
    R = spec.ball_radius
    ids = list(layout)
    assert set(ids) <= set(ref.ball_set(ref.player_range[0]))
    for b, (x, y) in layout.items():
        assert abs(x) <= spec.half_length - R, b
        assert abs(y) <= spec.half_width - R, b
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            assert math.dist(layout[a], layout[b]) >= 2 * R, (a, b)
    if ref.family == Family.RUSSIAN or game in ("pool-8-ball", "straight-pool"):
        # the cue ball starts in hand
        assert len(layout) == 15
        assert "cue" not in layout
    if game == "pool-9-ball":
        assert set(layout) == set(map(str, range(1, 10)))
    if ref.family == Family.SNOOKER:
        assert sum(b.startswith("red") for b in layout) == 15
        assert "black" in layout
    if game == "golf":
        assert set(layout) == {"cue", "1"}


@pytest.mark.parametrize(("table", "rack"), [("pyramid-12ft", BENCH_PYRAMID), ("pool-9ft", BENCH_POOL)])
def test_bench_layouts_are_full_racks_with_the_cue_ball_on_the_head_spot(table: str, rack: Rack) -> None:
    spec = load_table(table)
    layout = initial_layout(rack, spec)
    assert len(layout) == 16
    assert layout["cue"] == spec.spots["head-spot"]
    assert layout["1"] == spec.spots["foot-spot"]


def _scenario(tmp_path: Path, body: str) -> str:
    p = tmp_path / "s.toml"
    p.write_text(body, encoding="utf-8")
    return str(p)


SHOT = """
game = "practice"
[balls]
cue = [-1.0, 0.0]
"1" = [0.0, 0.0]
[shot]
cue_speed = 2.0
direction = 0.0
"""


def test_simulate_writes_the_shot_record_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = _scenario(tmp_path, SHOT)
    assert run(["--lang", "en", "simulate", f, "--json", "-", "--sample-hz", "60"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["table"] == "pyramid-12ft"
    assert d["events"][0]["type"] == "cue_strike"
    assert any(e["type"] == "ball_ball" and e["balls"] == ["cue", "1"] for e in d["events"])
    assert set(d["final"]) == {"cue", "1"}
    assert "samples" in d
    assert len(d["samples"]["cue"][0]) == 10
    assert {"R", "m", "mu_slide", "mu_roll", "e_ball", "e_cushion", "e_table"} <= set(d["params"])
    assert run(["--lang", "ru", "simulate", f]) == 0
    assert "первое касание" in capsys.readouterr().out


@pytest.mark.parametrize(
    "body, key",
    [
        (SHOT.replace('"1" = [0.0, 0.0]', '"1" = [-1.0, 0.01]'), "balls.1"),
        (SHOT.replace("cue_speed = 2.0", "cue_speed = -1.0"), "shot.cue_speed"),
        (SHOT.replace("direction = 0.0", "direction = 0.0\nelevation = 95.0"), "shot.elevation"),
        (SHOT.replace("direction = 0.0", "direction = 0.0\ntip = [0.9, 0.9]"), "shot.tip"),
        (SHOT.replace('"1" = [0.0, 0.0]', '"1" = [9.0, 0.0]'), "balls.1"),
    ],
)
def test_bad_scenarios_fail_in_one_line_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, key: str
) -> None:
    f = _scenario(tmp_path, body)
    assert run(["simulate", f]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert key in err
    assert f in err


def test_bad_sample_rate_fails_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = _scenario(tmp_path, SHOT)
    assert run(["simulate", f, "--sample-hz", "0"]) == 2
    assert "--sample-hz" in capsys.readouterr().err


def test_a_recorded_stroke_is_read_not_simulated(tmp_path: Path) -> None:
    body = (
        SHOT
        + """
[[events]]
t = 0.0
type = "cue_strike"
ball = "cue"
miscue = false
scoop = false
[[events]]
t = 0.5
type = "pocketed"
ball = "1"
pocket = "foot-left"
[final.1]
status = "pocketed"
pocket = "foot-left"
"""
    )
    scenario, rec = load_or_simulate(_scenario(tmp_path, body), None, Settings(), CATALOG)
    assert scenario.is_recorded
    assert [e.type for e in rec.events] == ["cue_strike", "pocketed"]
    assert rec.final["1"].pocket == "foot-left"
    assert rec.final["cue"].pos == (-1.0, 0.0, 0.034)
