"""Property: after any snooker ruling every ball is in exactly one place and no ball is counted twice."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.registry import get_referee
from tests.rules.test_pool_support import check_all_decisions, random_case


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(["snooker", "american-snooker"]))
def test_every_ball_in_one_place_after_any_snooker_ruling(data: st.DataObject, game: str) -> None:
    state, rec = random_case(data.draw, game)
    ruling = get_referee(game).judge(state, rec)
    check_all_decisions(state, ruling)
    assert all(p >= 0 for p in ruling.points)  # snooker never takes points away
    assert ruling.to_dict() == get_referee(game).judge(state, rec).to_dict()
