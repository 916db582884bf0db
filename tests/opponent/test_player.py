"""The computer player chooses legal, judged strokes, the same for the same seed (issue 24 §1, §5)."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from pathlib import Path

import pytest

from main import run
from physics.record import BallStatus, ShotParams
from rules.contract import InHand
from rules.registry import get_referee
from rules.state import MatchState
from scenes.core.opponent.autoplay import play_frame
from scenes.core.opponent.levels import level
from scenes.core.opponent.player import TIP_LIMIT, choose, decide, perform
from scenes.core.turns import offered_options
from tests.opponent.helpers import after_break, check_legal


def _open_nine(in_hand: InHand | None = None) -> MatchState:
    """9-ball with the 1 ball near the foot-left pocket and the cue ball in the middle of the table."""
    ref = get_referee("pool-9-ball")
    balls = {"1": (1.0, 0.45), "9": (0.4, -0.3), "cue": (0.2, 0.2)}
    raw: dict[str, object] = {"break": False}
    if in_hand is not None:
        raw["in_hand"] = str(in_hand)
        balls.pop("cue")
    return MatchState.from_scenario(ref, raw, balls)


def _same(a: object, b: object) -> bool:
    return replace(a, think_s=0.0, cpu_s=0.0) == replace(b, think_s=0.0, cpu_s=0.0)  # type: ignore[type-var]


def test_the_same_seed_gives_the_same_stroke() -> None:
    state = _open_nine()
    assert _same(choose(state, level(3), seed=4), choose(state, level(3), seed=4))


def test_an_easy_pot_is_played_as_a_pot_and_goes_in_without_noise() -> None:
    state = _open_nine()
    plan = choose(state, level(5), seed=0)
    assert plan.intent == "pot"
    record, ruling = check_legal(state, plan)
    assert record.final["1"].status == BallStatus.POCKETED
    assert not ruling.foul


@pytest.mark.parametrize("zone", [InHand.ANYWHERE, InHand.BEHIND_HEAD_STRING])
def test_the_ball_in_hand_is_placed_where_the_referee_allows(zone: InHand) -> None:
    state = _open_nine(zone)
    plan = choose(state, level(2), seed=1)
    check_legal(state, plan)


@pytest.mark.parametrize("game", ["russian-pyramid", "snooker", "american"])
def test_after_the_break_the_call_and_the_struck_ball_are_legal(game: str) -> None:
    ref = get_referee(game)
    state = MatchState.new(ref)
    plan = choose(state, level(1), seed=0)
    assert plan.intent == "break"
    check_legal(state, plan)
    nxt = after_break(game, plan, state)
    if not nxt.frame_over:
        check_legal(nxt, choose(nxt, level(1), seed=0))


def test_the_noise_is_the_levels_and_the_seeds() -> None:
    shot = ShotParams(cue_speed=2.0, direction=10.0, elevation=2.0, tip=(0.0, 0.7))
    a = perform(shot, level(1), random.Random(5))
    assert a == perform(shot, level(1), random.Random(5))
    assert a != shot
    assert a.elevation >= shot.elevation
    assert math.hypot(*a.tip) <= TIP_LIMIT + 1e-12
    spread1 = [abs(perform(shot, level(1), random.Random(i)).direction - 10.0) for i in range(200)]
    spread5 = [abs(perform(shot, level(5), random.Random(i)).direction - 10.0) for i in range(200)]
    assert sum(spread5) < sum(spread1)


def test_a_decision_after_a_foul_is_one_the_window_offers() -> None:
    """Snooker: a foul leaves the next player play-on or the offender's replay; the choice is one of those."""
    ref = get_referee("snooker")
    balls = {"cue": (-0.5, 0.0), "red1": (1.0, 0.3), "black": (0.0, 0.0)}
    state = MatchState.from_scenario(ref, {"break": False}, balls)
    record = __import__("physics.simulate", fromlist=["simulate"]).simulate(
        ref.table, balls, ShotParams(cue_speed=2.0, direction=0.0)
    )
    ruling = ref.judge(state, record)
    assert ruling.foul
    assert ruling.options
    choice = decide(state, ruling, level(5))
    assert choice in offered_options(ruling, 2)


def test_a_frame_played_twice_from_one_seed_is_the_same() -> None:
    lv = (level(2), level(1))
    a = play_frame("pool-9-ball", lv, seed=3, max_strokes=4)
    b = play_frame("pool-9-ball", lv, seed=3, max_strokes=4)
    assert replace(a, think_s=(), cpu_s=()) == replace(b, think_s=(), cpu_s=())


def test_suggest_prints_the_stroke_and_its_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "nine.toml"
    f.write_text(
        'game = "pool-9-ball"\n[balls]\ncue = [0.2, 0.2]\n1 = [1.0, 0.45]\n9 = [0.4, -0.3]\n[state]\nbreak = false\n',
        encoding="utf-8",
    )
    assert run(["--lang", "en", "suggest", str(f), "--level", "4"]) == 0
    assert "Intent: a pot" in capsys.readouterr().out
    assert run(["suggest", str(f), "--json", "-", "--seed", "2"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d) == {"shot", "place", "intent", "think_s"}
    assert d["place"] is None
    assert ShotParams.from_dict(d["shot"]).ball == "cue"


def test_the_window_can_run_it_in_a_worker_process() -> None:
    """Everything ``choose`` takes and gives pickles (the window submits it to its physics worker)."""
    import pickle

    state = _open_nine(InHand.ANYWHERE)
    args = pickle.loads(pickle.dumps((state, level(2), 5)))
    plan = choose(*args)
    again = pickle.loads(pickle.dumps(plan))
    assert _same(again, choose(state, level(2), 5))
