"""Property: after any pool ruling every ball is in exactly one place and no ball is counted twice."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.registry import get_referee
from tests.rules.test_pool_support import check_all_decisions, random_case


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(["pool-8-ball", "pool-9-ball", "straight-pool"]))
def test_every_ball_in_one_place_after_any_pool_ruling(data: st.DataObject, game: str) -> None:
    state, rec = random_case(data.draw, game)
    ruling = get_referee(game).judge(state, rec)
    check_all_decisions(state, ruling)
    again = get_referee(game).judge(state, rec)
    assert again.to_dict() == ruling.to_dict()  # deterministic
