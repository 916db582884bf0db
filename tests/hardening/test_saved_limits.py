"""One set of limits for writing and reading (issue 17 §1): nothing the app writes is refused when read
back, and the autosave reader checks what a saved match means, not only its types.

Before: a 250-letter player name (menu, scenario [state], script) was saved after a stroke and then
refused by ``play --resume``; a saved match with a ball deleted, two balls in one place, a negative
snooker score or a finished match without a winner was resumed as if nothing were wrong.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from physics.errors import InputError
from physics.limits import MAX_NAME
from rules.registry import get_referee
from rules.scenarios import parse_scenario
from rules.state import MatchState
from scenes.core.autosave import load_match, save_match
from scenes.core.settings import parse_settings

LONG = "Щ" * 250


def test_a_long_name_in_a_scenario_state_is_refused_when_read(tmp_path: Path) -> None:
    sc = parse_scenario(
        {"game": "russian-pyramid", "balls": {"cue": [-0.9, 0.0]}, "state": {"players": [LONG, "B"]}},
        "s.toml",
    )
    with pytest.raises(InputError) as exc:
        MatchState.from_scenario(get_referee(sc.game), sc.state, sc.balls, "s.toml")
    assert exc.value.key == "state.players[0]"
    assert str(MAX_NAME) in exc.value.expected


def test_a_long_name_never_reaches_a_new_match() -> None:
    with pytest.raises(InputError) as exc:
        MatchState.new(get_referee("russian-pyramid"), (LONG, "B"))
    assert exc.value.key == "players[0]"


def test_settings_names_keep_to_the_same_limit() -> None:
    parse_settings({"players": {"names": ["Щ" * MAX_NAME]}})
    with pytest.raises(InputError):
        parse_settings({"players": {"names": ["Щ" * (MAX_NAME + 1)]}})


def test_the_longest_name_allowed_is_saved_and_resumed(tmp_path: Path) -> None:
    st = MatchState.new(get_referee("russian-pyramid"), ("Щ" * MAX_NAME, "Ж" * MAX_NAME))
    save_match(tmp_path / "m.json", st, 1)
    back, _ = load_match(tmp_path / "m.json")
    assert back.players == st.players


def test_the_menu_keeps_names_to_the_limit() -> None:
    from scenes.screens.menu import clip_name

    assert clip_name(LONG) == "Щ" * MAX_NAME
    assert clip_name("  Аня \t") == "Аня"
    assert clip_name("a\x07b") == "ab"


# --- the autosave reader checks meaning ----------------------------------------------------------------


def _saved(tmp_path: Path, game: str = "russian-pyramid", **changes: object) -> tuple[Path, dict]:
    st = MatchState.new(get_referee(game), ("A", "B"))
    st = replace(st, is_break=False, phase="play", **changes)  # type: ignore[arg-type]
    p = tmp_path / "match.json"
    save_match(p, st, 3)
    return p, json.loads(p.read_text("utf-8"))


def _refused(p: Path, doc: dict, key: str) -> InputError:
    p.write_text(json.dumps(doc), "utf-8")
    before = p.read_bytes()
    with pytest.raises(InputError) as exc:
        load_match(p)
    assert exc.value.key == key, exc.value
    assert p.read_bytes() == before
    return exc.value


def test_a_ball_missing_from_a_saved_match_is_refused(tmp_path: Path) -> None:
    p, doc = _saved(tmp_path)
    del doc["payload"]["balls"]["7"]
    _refused(p, doc, "payload.balls")


def test_a_ball_in_two_places_is_refused(tmp_path: Path) -> None:
    p, doc = _saved(tmp_path)
    doc["payload"]["out"] = ["7"]
    _refused(p, doc, "payload.out")


def test_two_balls_in_one_place_are_refused(tmp_path: Path) -> None:
    p, doc = _saved(tmp_path)
    balls = doc["payload"]["balls"]
    balls["7"] = list(balls["8"])
    later = [b for b in balls if b in ("7", "8")][-1]
    e = _refused(p, doc, f"payload.balls.{later}")
    assert "clear of ball" in e.expected


def test_a_negative_score_where_the_rules_never_give_one_is_refused(tmp_path: Path) -> None:
    p, doc = _saved(tmp_path, game="snooker")
    doc["payload"]["scores"] = [-4, 10]
    _refused(p, doc, "payload.scores")


def test_a_negative_score_where_the_rules_give_one_is_kept(tmp_path: Path) -> None:
    # Russian pyramid 71 and 14.1 take a point off the striker for a foul: -1 after an opening foul.
    for game in ("russian-pyramid", "straight-pool"):
        p, doc = _saved(tmp_path, game=game)
        doc["payload"]["scores"] = [-1, 0]
        p.write_text(json.dumps(doc), "utf-8")
        assert load_match(p)[0].scores == (-1, 0)


def test_a_finished_match_without_a_winner_is_refused(tmp_path: Path) -> None:
    p, doc = _saved(tmp_path)
    doc["payload"].update(match_over=True, frame_over=True, winner=None)
    _refused(p, doc, "payload.winner")


def test_a_finished_match_whose_winner_has_not_won_enough_frames_is_refused(tmp_path: Path) -> None:
    p, doc = _saved(tmp_path)
    doc["payload"].update(match_over=True, frame_over=True, winner=0, frames_won=[0, 0])
    _refused(p, doc, "payload.frames_won")


def test_a_match_over_but_frame_not_over_is_refused(tmp_path: Path) -> None:
    p, doc = _saved(tmp_path)
    doc["payload"].update(match_over=True, frame_over=False, winner=0, frames_won=[1, 0])
    _refused(p, doc, "payload.frame_over")


def test_a_finished_match_resumes(tmp_path: Path) -> None:
    p, doc = _saved(tmp_path)
    doc["payload"].update(match_over=True, frame_over=True, winner=1, frames_won=[0, 1])
    p.write_text(json.dumps(doc), "utf-8")
    st, _ = load_match(p)
    assert st.match_over
    assert st.winner == 1


def test_a_ball_frozen_to_a_cushion_is_saved_and_resumed(tmp_path: Path) -> None:
    """A ball resting against a cushion has its centre R cos(theta) from the nose line, nearer than R: the
    autosave reader once refused the position the physics and the scenario files both accept."""
    import math

    from physics.tables import load_table

    spec = load_table("pyramid-12ft")
    y = spec.half_width - spec.ball_radius * math.cos(spec.contact_angle)
    st = MatchState.new(get_referee("russian-pyramid"), ("A", "B"))
    st = replace(st, balls={**st.balls, "7": (0.0, y)}, is_break=False, phase="play")
    save_match(tmp_path / "m.json", st, 1)
    assert load_match(tmp_path / "m.json")[0].balls["7"] == (0.0, y)


@pytest.mark.parametrize(
    "game", ["snooker", "american-snooker", "russian-pyramid", "pool-8-ball", "pool-9-ball"]
)
def test_every_fresh_rack_has_no_two_balls_in_one_place(game: str) -> None:
    """American snooker's rack once stood the black 2.1 mm inside red13, so a fresh match's autosave was
    refused on resume."""
    import math

    from rules.registry import get_referee

    ref = get_referee(game)
    rack = ref.rack(ref.player_range[0])
    R = ref.table.ball_radius
    names = list(rack)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert math.dist(rack[a], rack[b]) >= 2 * R - 1e-9, (a, b)


# --- a ball the physics leaves in a pocket's mouth ----------------------------------------------------------

# Rest places the physics produced beyond the nose lines (campaign seeds 139, 154, 158): in a pocket's mouth,
# clear of its jaws. 52 of 300 random strokes left a ball in such a place.
IN_MOUTHS = [
    ("pyramid-12ft", "russian-pyramid", (0.006728, 0.870416)),
    ("pool-9ft", "pool-8-ball", (-0.003279, -0.613748)),
    ("pool-9ft", "pool-8-ball", (-1.226175, -0.609223)),
]


@pytest.mark.parametrize(("table", "game", "at"), IN_MOUTHS)
def test_a_ball_resting_in_a_pocket_mouth_is_saved_and_read_back(
    tmp_path: Path, table: str, game: str, at: tuple[float, float]
) -> None:
    """F5 writes what the physics left; the position once could not be loaded (|y| <= the nose bound)."""
    from physics.record import ShotParams
    from rules.scenarios import load_scenario
    from scenes.core.practice import write_scenario

    p = tmp_path / "position.toml"
    cue = (-0.5, 0.0)
    write_scenario(p, {"cue": cue, "1": at}, table, ShotParams(cue_speed=1.0))
    assert load_scenario(p).balls["1"] == at
    from rules.registry import get_referee

    st = MatchState.new(get_referee(game), ("A", "B"))
    rest = {b: xy for b, xy in st.balls.items() if b != "1"}
    st = replace(st, balls={**rest, "1": at}, is_break=False, phase="play")
    save_match(tmp_path / "m.json", st, 1)
    assert load_match(tmp_path / "m.json")[0].balls["1"] == at


@pytest.mark.parametrize(
    ("at", "why"),
    [
        ((0.5, 0.885), "inside the left cushion's rubber"),
        ((1.76, 0.86), "past the foot-left pocket's drop"),
        ((0.0, 0.905), "past the left middle pocket's drop"),
    ],
)
def test_a_ball_inside_a_cushion_or_over_a_hole_is_refused(
    tmp_path: Path, at: tuple[float, float], why: str
) -> None:
    from rules.scenarios import load_scenario

    p = tmp_path / "bad.toml"
    p.write_text(f'table = "pyramid-12ft"\n[balls]\ncue = [-0.5, 0.0]\n"1" = [{at[0]}, {at[1]}]\n', "utf-8")
    with pytest.raises(InputError) as exc:
        load_scenario(p)
    assert exc.value.key == "balls.1", why


def _state(game: str, balls: dict[str, list[float]], **state: object) -> MatchState:
    sc = parse_scenario({"game": game, "balls": balls, "state": state}, "s.toml")
    return MatchState.from_scenario(get_referee(sc.game), sc.state, sc.balls, "s.toml")


@pytest.mark.parametrize(
    ("game", "balls", "scores"),
    [
        (
            "golf",
            {"cue": [-0.2, 0.1], "1": [0.7, -0.3], "2": [-0.6, -0.3]},
            [-5, 0],
        ),  # golf never goes below 0
        ("snooker", {"cue": [-1.2, 0.1], "black": [1.2, 0.0]}, [0, -4]),
        ("russian-pyramid", {"cue": [-0.9, 0.0], "1": [0.6, 0.0]}, [10**6 + 1, 0]),  # above MAX_SCORE
        ("russian-pyramid", {"cue": [-0.9, 0.0], "1": [0.6, 0.0]}, [-(10**6) - 1, 0]),
    ],
)
def test_a_scenario_state_keeps_to_the_scores_the_autosave_takes(
    game: str, balls: dict[str, list[float]], scores: list[int]
) -> None:
    """Before: ``referee`` took golf at -5 and a score of 10**18 from a scenario's [state] (the autosave
    reader refuses both) and printed 'Scores: [-4, 0]'."""
    with pytest.raises(InputError) as exc:
        _state(game, balls, scores=scores)
    assert exc.value.key == "state.scores", exc.value


def test_a_negative_score_stays_where_the_rules_give_one() -> None:
    st = _state("russian-pyramid", {"cue": [-0.9, 0.0], "1": [0.6, 0.0]}, scores=[-6, 12])
    assert st.scores == (-6, 12)
