"""003 «Вмешательство соперника» with no undisturbed run (issue 25 §1): «Если при этом соперник задержит играемый
шар, движущийся в сторону лузы, то этот шар считается сыгранным и играющий производит следующий удар» - decided
from the record: the ball's velocity at the touch (samples) or its path, against the pockets' mouths, and the
call where there is one."""

from __future__ import annotations

from dataclasses import replace

from physics.record import ShotRecord
from rules.notation import record
from rules.registry import get_referee
from rules.ruling import Ruling
from rules.state import MatchState

BALLS = "cue=-0.5,0 7=0.9,0.45 3=0.2,-0.4"
# The 7 heads for the foot-left corner (its line from (0.9, 0.45) through (1.2, 0.6) meets the corner's mouth).
TOWARDS = "cue>7 7~opponent 7=1.2,0.6"


def _judge(game: str, rec: ShotRecord) -> Ruling:
    ref = get_referee(game)
    balls = {b: (p[0], p[1]) for b, p in rec.initial.items()}
    st = MatchState.from_scenario(
        ref, {"scores": [10, 20]} if ref.id == "russian-pyramid" else {}, balls, "t"
    )
    return ref.judge(st, rec)


def _with_speed(rec: ShotRecord, v: float) -> ShotRecord:
    """Samples of the 7 moving along its line at ``v`` m/s at the touch (t = 0.1 s in the script)."""
    ux, uy = 0.3 / 0.3354, 0.15 / 0.3354
    rows = ((0.1, 1.2, 0.6, 0.034, v * ux, v * uy, 0.0, 0.0, 0.0, 0.0),)
    return replace(rec, samples={"7": rows})


def test_the_path_decides_the_ball_was_going_in() -> None:
    r = _judge("russian-pyramid", record(BALLS, TOWARDS + " call=7@foot-left"))
    assert r.counted == ("7",)
    assert r.next_player == 0
    assert r.scores == (10 + 7 + 5, 20 - 5)
    assert "the path alone decides" in r.explain["en"]
    assert "створ лузы" in r.explain["ru"]


def test_the_call_decides_in_a_called_game() -> None:
    r = _judge("russian-pyramid", record(BALLS, TOWARDS + " call=7@foot-right"))
    assert r.counted == ()
    assert r.next_player == 1
    assert "the call was not" in r.explain["en"]


def test_a_ball_too_slow_to_get_there_does_not_count() -> None:
    # At 0.2 m/s a ball rolls v²/(2 mu_roll g) = 0.20 m at most (mu_roll 0.01): short of the mouth 0.64 m on.
    slow = _with_speed(record(BALLS, TOWARDS), 0.2)
    r = _judge("pyramid-8", slow)
    assert r.counted == ()
    assert "could roll only" in r.explain["en"]
    fast = _judge("pyramid-8", _with_speed(record(BALLS, TOWARDS), 1.5))
    assert fast.counted == ("7",)
    assert "m/s, the record's samples" in fast.explain["en"]


def test_a_ball_going_nowhere_near_a_pocket_does_not_count() -> None:
    r = _judge("pyramid-8", record(BALLS, "cue>7 7~opponent 7=1.2,0.3"))
    assert r.counted == ()
    assert "no pocket's mouth" in r.explain["en"]


def test_a_ball_in_the_way_stops_it() -> None:
    r = _judge("pyramid-8", record(BALLS + " 5=1.5,0.75", TOWARDS))
    assert r.counted == ()
    assert "stands in the way" in r.explain["en"]
