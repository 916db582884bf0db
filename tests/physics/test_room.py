"""A ball thrown off the table stops inside the room: walls and a ceiling bound the floor
(hardening repro: a 16 m/s miscued jump once rolled 158 m across an endless floor)."""

from __future__ import annotations

from pathlib import Path

from physics.params import PhysicsParams
from physics.plan import ROOM_HALF, ROOM_HEIGHT
from physics.record import BallStatus, EventType
from physics.simulate import simulate_scenario
from rules.scenarios import load_scenario

REPRO = Path(__file__).resolve().parents[1] / "hardening" / "repro" / "ball_rolls_150m_and_spins_forever.toml"


def test_ball_flying_off_the_table_rests_on_the_floor_inside_the_walls() -> None:
    sc = load_scenario(REPRO)
    params = PhysicsParams.for_table(sc.table)
    rec = simulate_scenario(sc, params=params)
    f = rec.final["cue"]
    assert f.status == BallStatus.OFF_TABLE
    assert f.rest == "floor"
    assert f.pos is not None
    R = sc.table.ball_radius
    assert abs(f.pos[0]) <= ROOM_HALF[0] - R + 1e-3
    assert abs(f.pos[1]) <= ROOM_HALF[1] - R + 1e-3
    assert abs(f.pos[2] - (sc.table.floor_z + R)) < 1.5e-3
    assert rec.duration < params.max_stroke_seconds  # it came to rest by itself
    # It reached a wall or the ceiling on the way (the flight is 11 m long without them).
    assert any(e.object == "wall" for e in rec.of_type(EventType.TOUCHED))
    for rows in (rec.samples or {}).values():
        assert all(r[3] <= sc.table.floor_z + ROOM_HEIGHT for r in rows)
