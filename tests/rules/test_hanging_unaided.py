"""rules-notes §2 row 14 outside the Russian games: a hanging object ball that drops by itself before
the cue ball reaches it. Pool (000: Самопроизвольное перемещение шаров; WPA 1.7, BCA 3.31) and golf
restore the position and replay the stroke; snooker replaces the balls and replays (WPBSA S3 R9(b)),
a foul of the stroke itself (the cue ball lost) still stands. A ball that starts away from a pocket's
lip is not a hanging ball, whatever the log says."""

from __future__ import annotations

import pytest

from physics.tables import load_table
from rules.notation import record
from rules.registry import get_referee
from tests.rules.util import state_for

POOL = load_table("pool-9ft")
SNK = load_table("snooker-12ft")


def _lip(table: object, pocket: str) -> str:
    t = table
    cx, cy = t.pockets[pocket].centre  # type: ignore[attr-defined]
    ax, ay = t.pockets[pocket].axis  # type: ignore[attr-defined]
    R = t.ball_radius  # type: ignore[attr-defined]
    return f"{cx - ax * 1.2 * R:.4f},{cy - ay * 1.2 * R:.4f}"  # just inside the mouth, on the drop edge


def _judge(game: str, table: object, layout: str, script: str) -> object:
    rec = record(layout, script, table=table.id)  # type: ignore[attr-defined]
    return get_referee(game).judge(state_for(game, rec, **{"break": False}), rec)


@pytest.mark.parametrize(
    "game,balls",
    [
        ("pool-8-ball", ("1", "2")),
        ("pool-9-ball", ("1", "2")),
        ("straight-pool", ("1", "2")),
        ("golf", ("2", "1")),
    ],
)
def test_pool_and_golf_replay_a_hanging_ball_that_falls_before_the_cue_ball(
    game: str, balls: tuple[str, str]
) -> None:
    on, hanging = balls
    layout = f"cue=-0.6,0 {on}=0.3,0.1 {hanging}={_lip(POOL, 'foot-left')}"
    r = _judge(game, POOL, layout, f"{hanging}@foot-left cue>{on}")
    assert r.replay  # type: ignore[attr-defined]
    assert not r.foul  # type: ignore[attr-defined]
    assert r.positions[hanging] == pytest.approx(tuple(float(v) for v in _lip(POOL, "foot-left").split(",")))  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["pool-8-ball", "pool-9-ball"])
def test_a_ball_away_from_the_pockets_is_not_a_hanging_ball(game: str) -> None:
    r = _judge(game, POOL, "cue=-0.6,0 1=0.3,0.1 2=0.0,-0.3", "2@foot-left cue>1")
    assert not r.replay  # type: ignore[attr-defined]


def test_snooker_replaces_the_balls_and_replays() -> None:
    layout = f"cue=-1.2,0.1 red2=0.5,0.2 red1={_lip(SNK, 'foot-left')}"
    r = _judge("snooker", SNK, layout, "red1@foot-left cue>red2")
    assert r.replay  # type: ignore[attr-defined]
    assert not r.foul  # type: ignore[attr-defined]


def test_snooker_a_foul_of_the_stroke_itself_still_stands() -> None:
    layout = f"cue=-1.2,0.1 red2=0.5,0.2 red1={_lip(SNK, 'foot-left')}"
    r = _judge("snooker", SNK, layout, "red1@foot-left cue>red2 cue@foot-right")
    assert not r.replay  # type: ignore[attr-defined]
    assert r.foul  # type: ignore[attr-defined]
