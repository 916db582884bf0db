"""Property: after any ruling every ball is in exactly one place - on the bed, in hand, credited to a
player, or out of play by rule - no ball is counted twice, and shelf games' scores are their shelves."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from physics.record import CUSHION_IDS, POCKET_IDS
from rules.notation import record
from rules.registry import get_referee
from rules.state import MatchState
from tests.rules.util import PYRAMID_GAMES

OBJECTS = [str(i) for i in range(1, 16)]
GRID = [(round(-1.6 + 0.1 * i, 3), round(-0.8 + 0.1 * j, 3)) for i in range(33) for j in range(17)]
HOUSE_GRID = [p for p in GRID if p[0] < -0.95]
OBJS = ("rail_top", "lamp", "chalk", "person", "floor", "cue", "clothing", "spectator")


@st.composite
def situations(draw: st.DrawFn) -> tuple[str, MatchState, str, str]:
    game = draw(st.sampled_from(PYRAMID_GAMES))
    ref = get_referee(game)
    on_table = draw(st.lists(st.sampled_from(OBJECTS), min_size=1, max_size=15, unique=True))
    cells = draw(st.lists(st.sampled_from(GRID), min_size=len(on_table), max_size=len(on_table), unique=True))
    in_hand = draw(st.booleans())
    cue_at = draw(st.sampled_from(HOUSE_GRID if in_hand else GRID).filter(lambda p: p not in cells))
    layout = {b: p for b, p in zip(on_table, cells, strict=True)}
    layout["cue"] = cue_at
    rest = [b for b in OBJECTS if b not in layout]
    where = draw(st.lists(st.sampled_from([0, 1, 2]), min_size=len(rest), max_size=len(rest)))
    shelves = [[b for b, w in zip(rest, where, strict=True) if w == k] for k in (0, 1)]
    state: dict[str, object] = {
        "shelves": shelves,
        "to_play": draw(st.sampled_from([0, 1])),
        "owed": [draw(st.integers(0, 2)), draw(st.integers(0, 2))],
        "in_hand": "house" if in_hand else "none",
    }
    if ref.points_game:
        state["scores"] = [draw(st.integers(0, 70)), draw(st.integers(0, 70))]
        state["extra"] = {"quiet_fouls": [draw(st.integers(0, 3)), draw(st.integers(0, 3))]}
    balls = list(layout)
    # Mostly a few balls, so one ball meets several events (pocketed after a touch, jumped and respotted...).
    ball = st.one_of(st.sampled_from(balls[-3:]), st.sampled_from(balls))
    tokens = st.one_of(
        st.builds(lambda a, b: f"{a}>{b}", ball, ball).filter(lambda s: s.split(">")[0] != s.split(">")[1]),
        st.builds(lambda a, p: f"{a}@{p}", ball, st.sampled_from(POCKET_IDS)),
        st.builds(lambda a, c: f"{a}|{c}", ball, st.sampled_from(CUSHION_IDS)),
        st.builds(lambda a, o: f"{a}~{o}", ball, st.sampled_from(OBJS)),
        st.builds(lambda a: f"{a}^", ball),
        st.builds(lambda a: f"{a}<", ball),
        st.builds(lambda a, r: f"{a}!{r}", ball, st.sampled_from(["floor", "rail"])),
        st.builds(
            lambda a, ln: f"{a}:{ln}", ball, st.sampled_from(["centre-line", "head-string", "foot-string"])
        ),
        st.builds(lambda a, p, t: f"{a}?{p}+{t}", ball, st.sampled_from(POCKET_IDS), st.sampled_from([1, 6])),
        st.builds(lambda a, c: f"{a}={c[0]},{c[1]}", ball, st.sampled_from(GRID)),
    )
    script = draw(st.lists(tokens, max_size=10))
    strike = draw(st.sampled_from(["", "cue* ", "cue*miscue ", f"{draw(ball)}* "]))
    call = draw(st.sampled_from(["", f" call={draw(ball)}@{draw(st.sampled_from(POCKET_IDS))}"]))
    lay = " ".join(f"{b}={x},{y}" for b, (x, y) in layout.items())
    ms = MatchState.from_scenario(get_referee(game), state, layout, "prop")
    return game, ms, lay, strike + " ".join(script) + call


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations(), st.randoms(use_true_random=False))
def test_every_ball_in_exactly_one_place_after_any_ruling(sit: tuple[str, MatchState, str, str], rnd) -> None:  # type: ignore[no-untyped-def]
    game, state, lay, script = sit
    ref = get_referee(game)
    balls = ref.ball_set(2)
    for b in balls:
        assert len(state.where(b)) == 1, (b, state.where(b))
    rec = record(lay, script)
    ruling = ref.judge(state, rec)
    json.dumps(ruling.to_dict(), allow_nan=False)
    assert len(ruling.counted) == len(set(ruling.counted))
    decisions: list[str | None] = [None] + list(ruling.options)
    if ruling.choice is not None:
        decisions += list(ruling.choice.among)
    decisions = [d for d in decisions if d not in ("lag", "remove_ball")] + (
        ["lag:1"] if "lag" in ruling.options else []
    )
    decision = rnd.choice(decisions)
    nxt = state.apply(ruling, decision)
    for b in balls:
        assert len(nxt.where(b)) == 1, (b, nxt.where(b), script, ruling.to_dict())
    assert len(set(nxt.balls)) == len(nxt.balls)
    credited = [b for s in nxt.shelves for b in s]
    assert len(credited) == len(set(credited))
    if ref.shelf_game:
        assert list(nxt.scores) == [len(s) for s in nxt.shelves], (script, ruling.to_dict())
    for b, p in ruling.positions.items():
        for c, q in ruling.positions.items():
            if b < c and any(r.ball in (b, c) for r in ruling.respot):
                assert (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= (2 * 0.034) ** 2 - 1e-9, (b, c)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations(), st.data())
def test_a_second_stroke_from_the_state_a_ruling_left(
    sit: tuple[str, MatchState, str, str], data: st.DataObject
) -> None:
    game, state, lay, script = sit
    ref = get_referee(game)
    r1 = ref.judge(state, record(lay, script))
    for sp in r1.respot:  # respotted balls lie on the bed
        reach = ref.table.cushion_reach  # a respotted ball may touch a cushion
        assert abs(sp.at[0]) <= 1.775 - reach + 1e-9
        assert abs(sp.at[1]) <= 0.8875 - reach + 1e-9
    s1 = state.apply(r1, r1.choice.among[0] if r1.choice and r1.choice.among else None)
    layout2 = dict(s1.balls)
    if s1.in_hand is not None:
        free = [
            p
            for p in HOUSE_GRID
            if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= 0.0047 for q in layout2.values())
        ]
        layout2[s1.cue] = data.draw(st.sampled_from(free))
    if s1.cue not in layout2 or s1.frame_over:
        return
    names = list(layout2)
    ball = st.sampled_from(names)
    tokens = st.one_of(
        st.builds(lambda a, b: f"{a}>{b}", ball, ball).filter(lambda s: s.split(">")[0] != s.split(">")[1]),
        st.builds(lambda a, p: f"{a}@{p}", ball, st.sampled_from(POCKET_IDS)),
        st.builds(lambda a, c: f"{a}|{c}", ball, st.sampled_from(CUSHION_IDS)),
        st.builds(lambda a, r: f"{a}!{r}", ball, st.sampled_from(["floor", "rail"])),
    )
    script2 = f"{s1.cue}* " + " ".join(data.draw(st.lists(tokens, max_size=8)))
    lay2 = " ".join(f"{b}={x},{y}" for b, (x, y) in layout2.items())
    r2 = ref.judge(s1, record(lay2, script2))
    s2 = s1.apply(r2, r2.choice.among[0] if r2.choice and r2.choice.among else None)
    for b in ref.ball_set(2):
        assert len(s2.where(b)) == 1, (b, s2.where(b), script, script2)
    assert s2.undo() is s1
    assert s1.undo() is state
