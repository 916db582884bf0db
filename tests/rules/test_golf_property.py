"""Property: after any golf ruling every ball is in exactly one place; every stroke costs 1 or 4."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.registry import get_referee
from tests.rules.test_pool_support import check_all_decisions, random_case


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 5))
def test_every_ball_in_one_place_after_any_golf_ruling(data: st.DataObject, players: int) -> None:
    state, rec = random_case(data.draw, "golf", players)
    ruling = get_referee("golf").judge(state, rec)
    check_all_decisions(state, ruling)
    if not ruling.replay:
        assert sorted(ruling.points) == [0] * (players - 1) + [4 if ruling.foul else 1]
