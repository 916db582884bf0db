"""An ordinary draw shot is legal in every game: the referee on strokes the physics simulated.

Every draw played at the window's default 5 degrees used to be called a scoop. A scoop is the tip meeting
the cloth with the ball (physics.tip, docs/strike.md); a draw whose tip stays clear of the cloth is not one,
whatever the elevation.
"""

from __future__ import annotations

import math

import pytest

from physics.record import ShotParams
from physics.simulate import simulate
from physics.tables import load_table
from rules.registry import game_ids, get_referee
from rules.state import MatchState


def _straight_pot(game: str, tip_b: float, elevation: float) -> tuple[MatchState, object, str]:
    ref = get_referee(game)
    table = ref.tables()[0]
    spec = load_table(table)
    balls = ref.ball_set(2)
    target = next(b for b in sorted(balls) if b.startswith("red")) if "red1" in balls else "1"
    hl, hw = spec.half_length, spec.half_width
    # Straight in along the foot-left corner's diagonal: the object ball 0.35 m out, the cue ball 0.4 m behind.
    ob = (hl - 0.35, hw - 0.35)
    cb = (ob[0] - 0.4 / math.sqrt(2.0), ob[1] - 0.4 / math.sqrt(2.0))
    layout = {"cue": cb, target: ob}
    shot = ShotParams(
        ball="cue",
        cue_speed=1.6,
        direction=45.0,
        elevation=elevation,
        tip=(0.0, tip_b),
        call_ball=target,
        call_pocket="foot-left",
    )
    rec = simulate(table, layout, shot)
    st = MatchState.from_scenario(ref, {}, layout, "test")
    return st, rec, target


@pytest.mark.parametrize("elevation", [5.0, 8.0, 12.0, 20.0])
@pytest.mark.parametrize("tip_b", [-0.4, -0.5])
@pytest.mark.parametrize("game", game_ids())
def test_a_draw_is_never_a_scoop(game: str, tip_b: float, elevation: float) -> None:
    st, rec, _ = _straight_pot(game, tip_b, elevation)
    strike = rec.events[0]  # type: ignore[attr-defined]
    assert strike.scoop is False
    assert strike.miscue is False
    ruling = get_referee(game).judge(st, rec)  # type: ignore[arg-type]
    assert "scoop" not in ruling.codes(), ruling.codes()
    assert "miscue" not in ruling.codes(), ruling.codes()


@pytest.mark.parametrize("elevation", [5.0, 8.0, 12.0])
@pytest.mark.parametrize("game", ["russian-pyramid", "pool-9-ball", "snooker"])
def test_a_straight_pot_with_draw_counts(game: str, elevation: float) -> None:
    """The cases the scoop call broke: a straight pot with 0.4-0.5 R of draw at 5, 8 and 12 degrees."""
    for tip_b in (-0.4, -0.5):
        st, rec, target = _straight_pot(game, tip_b, elevation)
        ruling = get_referee(game).judge(st, rec)  # type: ignore[arg-type]
        assert not ruling.foul, (tip_b, ruling.codes())
        assert target in rec.pocketed(), tip_b  # type: ignore[attr-defined]
