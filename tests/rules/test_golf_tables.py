"""Golf on a snooker table (000 «Гольф»: "usually played on snooker tables with snooker balls"): the registry
offers it there, a scenario and a match on snooker-12ft are simulated and judged end to end, and the rules
read the spots of the table played on (the object ball on the black spot, the cue ball on the blue)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from physics.errors import InputError
from physics.record import ShotParams
from physics.simulate import simulate
from physics.tables import load_table
from rules.cli import games_command
from rules.games.golf import HOLES
from rules.registry import games_for_table, get_referee
from rules.ruling import FoulCode
from rules.scenarios import parse_scenario
from rules.state import MatchState

ROOT = Path(__file__).resolve().parents[2]
SNK = load_table("snooker-12ft")


def test_golf_is_offered_on_both_snooker_tables(capsys: pytest.CaptureFixture[str]) -> None:
    golf = get_referee("golf")
    assert golf.tables() == ("pool-9ft", "snooker-12ft", "snooker-10ft")
    for t in ("snooker-12ft", "snooker-10ft"):
        assert "golf" in games_for_table(t)
        assert get_referee("golf", t).table.id == t
    assert get_referee("golf").table.id == "pool-9ft"  # its own table stays the default
    assert games_command("en") == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("golf "))
    assert "pool-9ft" in line
    assert "snooker-12ft" in line
    assert "snooker-10ft" in line
    with pytest.raises(InputError) as exc:
        get_referee("snooker", "pool-9ft")
    assert exc.value.file == "table"
    assert "snooker-12ft" in exc.value.expected


def test_a_golf_match_on_the_snooker_table_starts_on_its_spots() -> None:
    ref = get_referee("golf", "snooker-12ft")
    st = MatchState.new(ref, ("A", "B", "C"))
    # 000 «Начальная стадия игры»: the object ball on the back spot (the black spot), the cue ball on the centre.
    assert st.balls["1"] == SNK.spot("black") == SNK.spot("foot-spot")
    assert st.balls["cue"] == SNK.spot("centre-spot")
    assert st.snapshot()["table"] == "snooker-12ft"
    # The opening stroke: ball 1 driven to the top cushion, as 000 requires; then a short one is a foul.
    rec = simulate(SNK, dict(st.balls), ShotParams(ball="cue", cue_speed=2.0, direction=0.0))
    assert rec.table == "snooker-12ft"
    r = ref.judge(st, rec)
    assert not r.foul
    assert r.next_player == 0
    assert r.scores == (1, 0, 0)
    short = simulate(SNK, dict(st.balls), ShotParams(ball="cue", cue_speed=0.7, direction=0.0))
    r2 = ref.judge(st, short)
    assert FoulCode.OPENING_SHORT in r2.codes()
    assert r2.scores == (4, 0, 0)
    # The balls go back to the starting position: on this table's spots.
    after = st.apply(r2)
    assert after.balls["1"] == SNK.spot("black")
    assert after.balls["cue"] == SNK.spot("centre-spot")


def test_golf_holes_ball_one_in_the_first_hole_of_the_snooker_table() -> None:
    ref = get_referee("golf", "snooker-12ft")
    hl, hw = SNK.half_length, SNK.half_width
    balls = {"cue": (hl - 0.45, -hw + 0.45), "1": (hl - 0.2, -hw + 0.2)}
    st = MatchState.from_scenario(ref, {"extra": {"opening": False}}, balls, "t")
    rec = simulate(SNK, balls, ShotParams(ball="cue", cue_speed=1.5, direction=-45.0))
    assert rec.final["1"].pocket == HOLES[0] == "foot-right"
    r = ref.judge(st, rec)
    assert not r.foul
    assert r.counted == ("1",)
    assert list(st.apply(r).extra["holes"]) == [1, 0]


SCENARIO = """
title = "golf on the snooker table"
game = "golf"
table = "snooker-12ft"

[balls]
cue = [0.0, 0.0]
"1" = [1.4605, 0.0]

[shot]
cue_speed = 2.0
direction = 0.0
"""


def test_a_golf_scenario_on_snooker_12ft_through_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "golf.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    for cmd in ("simulate", "referee"):
        out = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), cmd, str(path), "--json", "-"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert data["table"] == "snooker-12ft"
        assert {e["type"] for e in data["events"]} >= {"cue_strike", "ball_ball", "cushion"}
    assert data["ruling"]["foul"] is False
    assert data["ruling"]["scores"] == [1, 0]
    # A game not played on that table: one line naming the file and the key, exit 2.
    bad = tmp_path / "bad.toml"
    bad.write_text(SCENARIO.replace('game = "golf"', 'game = "pool-9-ball"'), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "referee", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 2
    assert "table" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_a_scenario_places_golf_balls_on_the_snooker_table() -> None:
    sc = parse_scenario(
        {"game": "golf", "table": "snooker-12ft", "balls": {"cue": [0, 0], "1": [1, 0], "2": [0.5, 0.3]}},
        "g.toml",
    )
    assert sc.table.id == "snooker-12ft"
    assert set(sc.balls) == {"cue", "1", "2"}
    with pytest.raises(InputError) as exc:
        parse_scenario(
            {"game": "golf", "table": "snooker-12ft", "balls": {"cue": [0, 0], "red1": [1, 0]}}, "g"
        )
    assert exc.value.key == "balls.red1"
