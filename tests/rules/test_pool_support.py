"""Shared helpers for the pool, snooker and golf rule tests (no tests here)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from physics.record import BallId
from rules.registry import get_referee
from rules.ruling import InHand, Ruling
from rules.state import MatchState

Point = tuple[float, float]


def state(game: str, balls: dict[BallId, Point], players: int = 2, **kw: Any) -> MatchState:
    """A state in mid-frame (not a break) unless ``is_break``/``phase`` say otherwise."""
    ref = get_referee(game)
    family = ref.state_type.from_extra(kw.pop("extra", {}), players, "test")
    base: dict[str, Any] = dict(
        game=game,
        rules=ref,
        players=tuple(f"P{i}" for i in range(players)),
        balls=dict(balls),
        in_hand=None,
        is_break=False,
        phase="play",
        scores=(0,) * players,
        frames_won=(0,) * players,
        shelves=((),) * players,
        owed=(0,) * players,
        fouls_in_row=(0,) * players,
        family=family,
        warnings=family.implied_warnings(),  # as a scenario file's [state] implies them
    )
    base.update(kw)
    st = MatchState(**base)
    return replace(st, out=st.missing_balls(ref.ball_set(players)))


def check_places(st: MatchState, ruling: Ruling, decision: str | None = None) -> MatchState:
    """After the ruling every ball is in exactly one place and no ball is counted twice."""
    assert len(ruling.counted) == len(set(ruling.counted)), ruling.counted
    nxt = st.apply(ruling, decision)
    ref = get_referee(st.game)
    for b in ref.ball_set(st.n_players):
        where = nxt.where(b)
        assert len(where) == 1, (b, where, ruling.to_dict())
    for b, p in nxt.balls.items():
        assert abs(p[0]) <= ref.table.half_length, (b, p)
        assert abs(p[1]) <= ref.table.half_width, (b, p)
    if nxt.in_hand is not None:
        assert nxt.cue not in nxt.balls
    assert all(isinstance(x, InHand) for x in ([nxt.in_hand] if nxt.in_hand else []))
    return nxt


# --- random strokes for the property tests -----------------------------------------------------
POCKETS = ("head-left", "head-right", "middle-left", "middle-right", "foot-left", "foot-right")
CUSHIONS = ("head", "foot", "left-head", "left-foot", "right-head", "right-foot")
LEAVES = (
    "{b}!floor",
    "{b}!rail",
    "{b}~lamp {b}<",
    "{b}~chalk {b}<",
    "{b}~rail_top {b}<",
    "{b}~person {b}<",
    "{b}#{p} {b}!floor",
)


def grid(table_id: str, balls: list[BallId]) -> dict[BallId, Point]:
    """Non-overlapping positions on the bed, one per ball, in a fixed grid."""
    from physics.tables import load_table

    t = load_table(table_id)
    cols, rows = 8, 5
    out: dict[BallId, Point] = {}
    for i, b in enumerate(balls):
        cx, cy = i % cols, (i // cols) % rows
        x = -t.half_length * 0.85 + cx * (t.length * 0.85 / (cols - 1))
        y = -t.half_width * 0.7 + cy * (t.width * 0.7 / (rows - 1))
        out[b] = (round(x, 4), round(y, 4))
    return out


def random_case(draw: Any, game: str, players: int = 2) -> tuple[MatchState, Any]:
    """A random state of ``game`` and a random stroke on it (a hypothesis ``draw``)."""
    from hypothesis import strategies as st_

    from rules.notation import record as make_record

    ref = get_referee(game)
    table_id = ref.table_id
    every = [b for b in ref.ball_set(players) if b != "cue"]
    on_bed = draw(st_.lists(st_.sampled_from(every), min_size=1, max_size=len(every), unique=True))
    pos = grid(table_id, ["cue", *on_bed])
    others = [b for b in every if b not in on_bed]
    to_play = draw(st_.integers(0, players - 1))
    kw: dict[str, Any] = {
        "to_play": to_play,
        "fouls_in_row": tuple(draw(st_.integers(0, 2)) for _ in range(players)),
        "scores": tuple(draw(st_.integers(-20, 80)) for _ in range(players)),
    }
    extra: dict[str, Any] = {}
    shelves: list[tuple[BallId, ...]] = [() for _ in range(players)]
    if game == "straight-pool":
        shelves[0] = tuple(others)
    elif game == "golf":
        for b in others:
            shelves[int(b) - 1] = (b,)
        mine = str(to_play + 1)
        if mine not in on_bed:
            on_bed.append(mine)
            pos = grid(table_id, ["cue", *on_bed])
            shelves[to_play] = ()
        holes = [draw(st_.integers(0, 5)) for _ in range(players)]
        extra = {"holes": holes, "opening": draw(st_.booleans())}
    elif game in ("snooker", "american-snooker"):
        kw["ball_on"] = draw(st_.sampled_from([None, "red", "colour", "yellow", "pink", "black"]))
        extra = {
            "free_ball_for": draw(st_.integers(-1, players - 1)),
            "misses": draw(st_.integers(0, 2)),
            "miss_by": draw(st_.integers(-1, players - 1)),
        }
    elif game == "pool-8-ball":
        extra = {"groups": draw(st_.sampled_from([["", ""], ["solids", "stripes"], ["stripes", "solids"]]))}
    kw["is_break"] = draw(st_.booleans())
    kw["phase"] = "break" if kw["is_break"] else "play"
    kw["shelves"] = tuple(shelves)
    in_hand = draw(st_.sampled_from([None, ref.break_in_hand]))
    balls = {b: p for b, p in pos.items() if not (in_hand is not None and b == "cue")}
    st = state(game, balls, players=players, in_hand=in_hand, extra=extra, **kw)

    everyone = ["cue", *on_bed]
    toks: list[str] = []
    strike = draw(st_.sampled_from(["", "cue*", "cue*scoop", "cue*miscue", "cue* cue*"]))
    if strike:
        toks.append(strike)
    if draw(st_.booleans()):
        toks += ["cue^", f"cue^{draw(st_.sampled_from(on_bed))}", "cue_bed"]
    if draw(st_.integers(0, 4)) > 0:
        toks.append(f"cue>{draw(st_.sampled_from(on_bed))}")
    for b in draw(st_.lists(st_.sampled_from(everyone), max_size=4, unique=True)):
        toks.append(f"{b}|{draw(st_.sampled_from(CUSHIONS))}")
    gone = draw(st_.lists(st_.sampled_from(everyone), max_size=4, unique=True))
    for b in gone:
        kind = draw(st_.integers(0, 3))
        p = draw(st_.sampled_from(POCKETS))
        if kind <= 1:
            toks.append(f"{b}@{p}")
        elif kind == 2:
            toks.append(draw(st_.sampled_from(LEAVES)).format(b=b, p=p))
        else:
            toks += [f"{b}?{p}", f"{b}?{p}+{draw(st_.sampled_from([1, 4.9, 5, 8]))}"]
    if draw(st_.booleans()):
        toks.append(f"call={draw(st_.sampled_from(everyone))}@{draw(st_.sampled_from(POCKETS))}")
    rec = make_record(" ".join(f"{b}={x},{y}" for b, (x, y) in pos.items()), " ".join(toks), table=table_id)
    return st, rec


def check_all_decisions(st: MatchState, ruling: Ruling) -> None:
    decisions: list[str | None] = [None]
    for o in ruling.options:
        decisions.append("lag:0" if o == "lag" else o)
    for d in decisions:
        if d == "make_offender_replay" and (ruling.out_of_play or ruling.credit or ruling.from_shelf):
            # The position is restored; MatchState.apply still books out_of_play/credit (a core request,
            # pinned by test_replay_restores_balls_the_stroke_took_away). Check what it does restore.
            nxt = st.apply(ruling, d)
            assert nxt.balls == st.balls
            assert nxt.to_play == ruling.striker
            assert nxt.in_hand == st.in_hand
            continue
        check_places(st, ruling, d)
    assert len(ruling.scores) == st.n_players
    assert all(isinstance(x, int) for x in ruling.scores)
    assert 0 <= ruling.next_player < st.n_players
