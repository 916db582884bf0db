"""Registry, MatchState construction and validation, matches (frames, breaks, the decider's lag, undo),
and the `referee` / `games` commands."""

from __future__ import annotations

import json

import pytest

from physics.errors import InputError
from rules.cli import games_command
from rules.notation import record
from rules.registry import games, get_referee
from rules.ruling import InHand
from rules.scenarios import parse_scenario
from rules.state import MatchState
from tests.rules.util import PYRAMID_GAMES, R

# docs/rules.md: every game id with its own table.
DESIGN_GAMES = {
    "russian-pyramid": "pyramid-12ft",
    "russian-pyramid-fast": "pyramid-12ft",
    "american": "pyramid-12ft",
    "american-fast": "pyramid-12ft",
    "moscow-pyramid": "pyramid-12ft",
    "moscow-pyramid-fast": "pyramid-12ft",
    "pyramid-8": "pyramid-12ft",
    "pyramid-8-fast": "pyramid-12ft",
    "pool-8-ball": "pool-9ft",
    "pool-9-ball": "pool-9ft",
    "straight-pool": "pool-9ft",
    "snooker": "snooker-12ft",
    "american-snooker": "snooker-10ft",
    "golf": "pool-9ft",
    # Added 2026-12-01 (003's called variants).
    "moscow-pyramid-called": "pyramid-12ft",
    "moscow-pyramid-called-fast": "pyramid-12ft",
    "pyramid-8-called": "pyramid-12ft",
    "pyramid-8-called-fast": "pyramid-12ft",
}


def test_every_game_id_but_practice_has_a_referee_on_its_own_table() -> None:
    registered = {gid: table for gid, _, table in games()}
    assert registered == DESIGN_GAMES
    for gid in registered:
        ref = get_referee(gid)
        assert ref.id == gid
        assert set(ref.names) == {"en", "ru"}
    assert get_referee("71").id == "russian-pyramid"
    assert get_referee("Московская").id == "moscow-pyramid"
    with pytest.raises(InputError):
        get_referee("carom")


@pytest.mark.parametrize("game", PYRAMID_GAMES)
def test_new_frame_racks_fifteen_frozen_balls_with_the_cue_ball_in_hand(game: str) -> None:
    st = MatchState.new(get_referee(game), ("A", "B"), frames_to_win=2)
    assert len(st.balls) == 15
    assert "cue" not in st.balls
    assert st.in_hand == InHand.HOUSE
    assert st.is_break
    assert st.balls["4"] == pytest.approx((0.8875, 0.0))
    xs = sorted({round(p[0], 6) for p in st.balls.values()})
    assert len(xs) == 5
    assert xs[1] - xs[0] == pytest.approx(3**0.5 * R, abs=1e-4)
    pts = list(st.balls.values())
    gaps = [((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for i, a in enumerate(pts) for b in pts[i + 1 :]]
    assert min(gaps) >= 2 * R
    assert min(gaps) < 2 * R + 1e-4


@pytest.mark.parametrize(
    ("state", "key"),
    [
        ({"to_play": 2}, "state.to_play"),
        ({"scores": [1]}, "state.scores"),
        ({"scores": ["a", 2]}, "state.scores"),
        ({"in_hand": "kitchen"}, "state.in_hand"),
        ({"shelves": [["7"], []]}, "state.shelves"),  # 7 is on the bed
        ({"shelves": [["1"], ["1"]]}, "state.shelves"),  # twice
        ({"owed": [-1, 0]}, "state.owed"),
        ({"phase": "70:70"}, "state.phase"),  # not a phase of pyramid-8
        ({"frames_won": [1, 0], "frames_to_win": 1}, "state.frames_to_win"),
        ({"cue": "7"}, "state.cue"),  # only Американка plays any ball
        ({"colour": "red"}, "state.colour"),
        ({"extra": {"quiet_fouls": [1, 1]}}, "state.extra.quiet_fouls"),
    ],
)
def test_bad_state_names_file_and_key(state: dict[str, object], key: str) -> None:
    with pytest.raises(InputError) as exc:
        MatchState.from_scenario(
            get_referee("pyramid-8"), state, {"cue": (-0.5, 0.0), "7": (0.5, 0.2)}, "case.toml"
        )
    assert exc.value.file == "case.toml"
    assert exc.value.key == key


def test_state_from_scenario_keys() -> None:
    st = MatchState.from_scenario(
        get_referee("american"),
        {
            "to_play": 1,
            "shelves": [["1", "2"], ["3"]],
            "owed": [0, 1],
            "cue": "9",
            "extra": {"spotted": ["9"]},
        },
        {"cue": (-0.5, 0.0), "7": (0.5, 0.2), "9": (0.1, 0.1)},
        "f",
    )
    assert st.to_play == 1
    assert st.scores == (2, 1)
    assert st.owed == (0, 1)
    assert st.cue == "9"
    assert st.in_hand is None
    assert not st.is_break
    assert "4" in st.out
    hand = MatchState.from_scenario(
        get_referee("russian-pyramid"),
        {"in_hand": "house", "scores": [10, 20]},
        {"cue": (-1.2, 0.0), "7": (0.5, 0.2)},
        "f",
    )
    assert hand.in_hand == InHand.HOUSE
    assert "cue" not in hand.balls
    assert hand.where("cue") == ["hand"]


def test_match_frames_alternate_breaks_and_the_decider_needs_a_lag() -> None:
    g = "pyramid-8"
    ref = get_referee(g)
    shelf = ["1", "2", "4", "5", "6", "8", "10"]
    lay = {"cue": (-0.5, 0.0), "7": (0.5, 0.2), "3": (0.2, -0.4)}
    frames: list[int] = [0, 0]
    breaker = 0
    for frame in range(3):
        w = frame % 2  # A, B, A: 1:0, 1:1, then A wins the decider 2:1
        pre = MatchState.from_scenario(
            get_referee(g),
            {
                "shelves": [shelf, []] if w == 0 else [[], shelf],
                "to_play": w,
                "frames_won": frames,
                "frames_to_win": 2,
                "breaker": breaker,
            },
            lay,
            "m",
        )
        r = ref.judge(pre, record(lay, "cue>7 7@foot-left"))
        assert r.frame_over
        assert r.winner == w
        assert r.match_over is (frame == 2)
        after = pre.apply(r)
        frames = list(after.frames_won)
        if frame == 2:
            assert after.match_over
            assert after.frames_won == (2, 1)
            with pytest.raises(InputError):
                after.next_frame()
            break
        nxt = after.next_frame()
        if frame == 1:  # 1:1 - before the deciding frame the lag is played again
            assert nxt.needs_lag
            assert nxt.undo() is after
            nxt = after.next_frame(lag_winner=1)
            assert nxt.breaker == 1
        else:  # breaks alternate
            assert nxt.breaker == 1
            assert nxt.to_play == 1
        assert nxt.is_break
        assert len(nxt.balls) == 15
        assert nxt.frames_won == after.frames_won
        assert nxt.shelves == ((), ())
        assert nxt.scores == (0, 0)
        assert nxt.frame_no == 2
        breaker = nxt.breaker


def test_undo_is_a_snapshot_stack() -> None:
    st = MatchState.new(get_referee("russian-pyramid"))
    rec = record(dict(st.balls, cue=(-1.2, 0.0)), "cue:head-string cue>4 4>5 5@foot-left")
    a = st.apply(get_referee("russian-pyramid").judge(st, rec))
    assert a.scores == (5, 0)
    assert a.undo() == st
    assert a.undo().scores == (0, 0)
    with pytest.raises(InputError):
        st.undo()


def test_bad_decision_is_an_input_error() -> None:
    st = MatchState.from_scenario(
        get_referee("russian-pyramid"), {}, {"cue": (-0.5, 0.0), "7": (0.5, 0.2)}, "f"
    )
    r = get_referee("russian-pyramid").judge(st, record("cue=-0.5,0 7=0.5,0.2", "cue|foot"))
    with pytest.raises(InputError):
        st.apply(r, "make_offender_replay")


LAMP_CASE = """
game = "russian-pyramid"
[balls]
cue = [-0.5, 0.0]
"7" = [0.5, 0.2]
[shot]
call = { ball = "7", pocket = "foot-left" }
[state]
scores = [12, 30]
"""


def _lamp_record():  # type: ignore[no-untyped-def]
    return record(
        "cue=-0.5,0 7=0.5,0.2", "cue>7 7^ 7~lamp 7< 7_bed 7|foot 7|left-foot 7=1.0,0.4 call=7@foot-left"
    )


def test_referee_command_text_and_json(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    import tomllib

    from scenes.core.referee_text import (
        referee_command,
    )  # the command: rules/cli.py's judging and JSON, its text

    sc = parse_scenario(tomllib.loads(LAMP_CASE), "lamp.toml")
    assert referee_command(sc, _lamp_record(), json_path="-", all_games=False, lang="en") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ruling"]["foul"] is False
    assert out["ruling"]["scores"] == [12, 30]
    assert out["ruling"]["next_player"] == 1
    assert out["events"][0]["type"] == "cue_strike"
    path = tmp_path / "r.json"
    assert referee_command(sc, _lamp_record(), json_path=str(path), all_games=True, lang="ru") == 0
    text = capsys.readouterr().out
    # games by name, not id
    assert "Решение судьи" in text
    assert "Пирамида 8 шаров, быстрая" in text
    # Every other game says in one line why it does not judge this stroke.
    assert "Не судится по правилам: Пул «восьмёрка» — в неё играют на столе «Пул, 9 футов»" in text
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data["rulings"]) == {g for g, _, t in games() if t == "pyramid-12ft"}
    # The same lamp bounce is in play in every Russian game.
    assert all(not r["foul"] and r["off_table"] == [] for r in data["rulings"].values())


def test_games_command_lists_ids_with_both_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert games_command("ru") == 0
    out = capsys.readouterr().out
    assert "russian-pyramid" in out
    assert "Русская пирамида" in out
    assert "Russian pyramid" in out
    assert "practice" not in out


def test_american_without_the_coloured_ball_on_the_bed_plays_any_ball() -> None:
    st = MatchState.from_scenario(
        get_referee("american"), {"shelves": [["cue"], []]}, {"7": (0.5, 0.2), "9": (0.1, 0.1)}, "f"
    )
    assert st.in_hand is None
    assert st.cue in ("7", "9")
    assert st.where("cue") == ["shelf0"]
    r = get_referee("american").judge(st, record("7=0.5,0.2 9=0.1,0.1", "9* 9>7 7@foot-left"))
    assert not r.foul
    assert r.counted == ("7",)
    assert r.scores == (2, 0)
