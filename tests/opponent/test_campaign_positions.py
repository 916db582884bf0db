"""The computer never fails on a position the campaign generator draws (issue 24 §5), and a small tournament
plays through (slow: each stroke is a search of tens of simulated strokes)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from main import run
from physics.errors import InputError
from rules.registry import game_ids, games_for_table, get_referee
from rules.state import MatchState
from scenes.core.opponent.levels import level
from scenes.core.opponent.player import choose, decide
from scenes.core.turns import decision_of, offered_options
from tests.hardening.strategies import draw_stroke
from tests.opponent.helpers import check_legal

POSITIONS = 50


def campaign_state(seed: int) -> MatchState | None:
    """The campaign's layout ``seed`` as a position of one of the games its table is played on, the cue ball
    on the table or (every third seed) in hand anywhere the game's zone allows."""
    stroke = draw_stroke(seed)
    games = games_for_table(stroke.table)
    ref = get_referee(games[seed % len(games)], stroke.table)
    ball_set = ref.ball_set(2)
    balls = {b: p for b, p in stroke.balls.items() if b in ball_set}
    raw: dict[str, object] = {"break": False}
    if seed % 3 == 0:
        raw["in_hand"] = "anywhere"
        balls.pop(ref.cue_ball, None)
    try:
        return MatchState.from_scenario(ref, raw, balls, f"campaign seed {seed}")
    except InputError:
        return None  # a layout this game cannot hold (golf's balls, a missing cue ball): not a position of it


@pytest.mark.slow
def test_every_campaign_position_gets_a_legal_judged_stroke() -> None:
    played = 0
    for seed in range(POSITIONS):
        state = campaign_state(seed)
        if state is None:
            continue
        plan = choose(state, level(1 + seed % 5), seed=seed)
        check_legal(state, plan)
        played += 1
    assert played >= POSITIONS * 0.6


@pytest.mark.slow
def test_a_small_tournament_plays_through(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    argv = ["--lang", "en", "autoplay", "pool-9-ball", "--levels", "5", "1", "--frames", "2", "--seed", "7"]
    assert run([*argv, "--json", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(":")[0] for ln in lines[:2]] == ["Frame 1 of 2", "Frame 2 of 2"]
    d = json.loads(out.read_text(encoding="utf-8"))
    assert d["game"] == "pool-9-ball"
    assert d["levels"] == [5, 1]
    assert len(d["frames"]) == 2
    assert sum(d["wins"]) == sum(1 for f in d["frames"] if f["winner"] is not None)
    assert all(f["strokes"] > 0 and len(f["fouls"]) == 2 for f in d["frames"])
    assert 0.0 < d["think_s"]["median"] <= d["think_s"]["max"]


@pytest.mark.slow
@pytest.mark.parametrize("game", game_ids())
def test_every_game_opens_with_legal_judged_strokes(game: str) -> None:
    """The break and the first strokes of every game in the registry: each stroke's call and placement legal,
    each decision one the window offers."""
    ref = get_referee(game)
    state = MatchState.new(ref, tuple(str(i) for i in range(ref.player_range[0])))
    for k in range(4):
        if state.frame_over:
            break
        plan = choose(state, level(2 + 2 * (k % 2)), seed=k)
        _record, ruling = check_legal(state, plan)
        choice = decide(state, ruling, level(4))
        assert choice is None or choice in offered_options(ruling, state.n_players)
        state = replace(state.apply(ruling, decision_of(choice)), history=())
