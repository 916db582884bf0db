"""The row checks (scenes.core.trainer.rows) on hand-written event logs: for each row, a stroke that shows it
passes, and the near miss a real search turned up (a jump that clears both balls and comes back off the
cushion, a clip that never touches, a drop-back that lands beyond) is named for what it lacks."""

from __future__ import annotations

from typing import Any

import pytest

from physics.record import BallFinal, BallStatus, Event, EventType, ShotRecord
from rules.ruling import Foul, FoulCode, Ruling
from scenes.core.trainer.cases import LAST_ROW, Topic
from scenes.core.trainer.rows import TOPIC_ROW, Claim, incidental_fouls, row_problems

R = 0.034
ON_BED = ("on_table", None)


def rec(
    events: list[dict[str, Any]],
    final: dict[str, Any] | None = None,
    initial: dict[str, tuple[float, float]] | None = None,
    strike: dict[str, Any] | None = None,
) -> ShotRecord:
    initial = initial or {"cue": (-0.6, 0.0), "7": (0.15, 0.0), "2": (-0.38, 0.0)}
    fin: dict[str, BallFinal] = {
        b: BallFinal(BallStatus.ON_TABLE, (x, y, R)) for b, (x, y) in initial.items()
    }
    for b, f in (final or {}).items():
        fin[b] = BallFinal(BallStatus(f[0]), None, rest=f[1])
    first = {"type": "cue_strike", "ball": "cue", "miscue": False, "scoop": False, "t": 0.0, **(strike or {})}
    evs = [first, *events]
    return ShotRecord(
        table="pyramid-12ft",
        params={"R": R},
        events=tuple(Event.from_dict(e) for e in evs),
        final=fin,
        initial={b: (x, y, R) for b, (x, y) in initial.items()},
    )


def ev(t: float, type: str, **kw: Any) -> dict[str, Any]:
    return {"t": t, "type": type, **kw}


def problems(topic: Topic, r: ShotRecord, subject: str | None = None) -> list[str]:
    return row_problems(Claim(topic, subject), r)


# --- row 7 --------------------------------------------------------------------------------------------
JUMP_GOOD = [
    ev(0.0, "airborne", ball="cue"),
    ev(0.09, "jumped_over", ball="cue", over="2"),
    ev(0.2, "landed", ball="cue", on="bed", pos=[-0.1, 0.0, R]),
    ev(0.4, "ball_ball", balls=["cue", "7"], pos=[0.08, 0.0, R]),
    ev(1.5, "cushion", ball="7", cushion="foot"),
]
# The case the issue found: both balls cleared, the foot cushion, then the target from behind.
JUMP_FROM_BEHIND = [
    ev(0.0, "airborne", ball="cue"),
    ev(0.089, "jumped_over", ball="cue", over="2"),
    ev(0.244, "jumped_over", ball="cue", over="7"),
    ev(0.356, "landed", ball="cue", on="bed", pos=[0.6, 0.0, R]),
    ev(0.696, "cushion", ball="cue", cushion="foot"),
    ev(1.408, "ball_ball", balls=["cue", "7"], pos=[0.22, 0.0, R]),
]


def test_row7_jump_onto_the_ball() -> None:
    assert problems(Topic.JUMP, rec(JUMP_GOOD)) == []


def test_row7_rejects_the_jump_that_strikes_from_behind() -> None:
    p = problems(Topic.JUMP, rec(JUMP_FROM_BEHIND))
    assert any("passes over the ball on (7)" in x for x in p)
    assert any("foot cushion before the ball on" in x for x in p)


def test_row7_needs_a_blocker_and_a_clean_strike() -> None:
    no_blocker = [e for e in JUMP_GOOD if e["type"] != "jumped_over"]
    assert any("no blocker" in x for x in problems(Topic.JUMP, rec(no_blocker)))
    scooped = rec(JUMP_GOOD)
    scooped = ShotRecord(
        **{
            **scooped.__dict__,
            "events": (Event(0.0, EventType.CUE_STRIKE, ball="cue", scoop=True, miscue=False),)
            + scooped.events[1:],
        }
    )
    assert any("scoop" in x for x in problems(Topic.JUMP, scooped))


# --- rows 8-10 ------------------------------------------------------------------------------------------


def test_row8_jump_after_the_contact() -> None:
    good = [
        ev(0.1, "ball_ball", balls=["cue", "7"], pos=[0.1, 0.0, R]),
        ev(0.11, "airborne", ball="cue"),
        ev(0.2, "jumped_over", ball="cue", over="2"),
    ]
    assert problems(Topic.JUMP_AFTER_CONTACT, rec(good)) == []
    before = [ev(0.05, "airborne", ball="cue"), ev(0.06, "jumped_over", ball="cue", over="2"), *good]
    assert any("before it meets the ball on" in x for x in problems(Topic.JUMP_AFTER_CONTACT, rec(before)))


def _in_air_contact(z: float, land_x: float) -> list[dict[str, Any]]:
    return [
        ev(0.0, "airborne", ball="cue"),
        ev(0.17, "ball_ball", balls=["cue", "7"], pos=[0.12, 0.0, z]),
        ev(0.33, "landed", ball="cue", on="bed", pos=[land_x, 0.0, R]),
        ev(0.9, "cushion", ball="7", cushion="foot"),
    ]


def test_row9_clip_on_top_and_land_beyond() -> None:
    assert problems(Topic.CLIPPED_BALL_ON, rec(_in_air_contact(3 * R, 0.4))) == []
    low = problems(Topic.CLIPPED_BALL_ON, rec(_in_air_contact(1.2 * R, 0.4)))
    assert any("not a clip" in x for x in low)
    short = problems(Topic.CLIPPED_BALL_ON, rec(_in_air_contact(3 * R, 0.0)))
    assert any("land beyond" in x for x in short)


def test_row10_drop_back_on_the_near_side() -> None:
    assert problems(Topic.JUMP_DROP_BACK, rec(_in_air_contact(1.3 * R, 0.0))) == []
    beyond = problems(Topic.JUMP_DROP_BACK, rec(_in_air_contact(3 * R, 0.4)))
    assert any("near side" in x for x in beyond)
    rolled = [ev(0.1, "ball_ball", balls=["cue", "7"], pos=[0.12, 0.0, R])]
    assert any("not in the air" in x for x in problems(Topic.JUMP_DROP_BACK, rec(rolled)))


# --- strikes: rows 6 and 11 ------------------------------------------------------------------------------


def _strike(scoop: bool, miscue: bool, rest: list[dict[str, Any]]) -> ShotRecord:
    r = rec(rest)
    return ShotRecord(
        **{
            **r.__dict__,
            "events": (Event(0.0, EventType.CUE_STRIKE, ball="cue", scoop=scoop, miscue=miscue),)
            + r.events[1:],
        }
    )


def test_row6_scoop_over_a_blocker() -> None:
    over = [ev(0.0, "airborne", ball="cue"), ev(0.09, "jumped_over", ball="cue", over="2")]
    good = [*over, ev(0.4, "ball_ball", balls=["cue", "7"])]
    assert problems(Topic.SCOOP, _strike(True, False, good)) == []
    into_blocker = [ev(0.0, "airborne", ball="cue"), ev(0.06, "ball_ball", balls=["cue", "2"])]
    assert any("not lofted" in x for x in problems(Topic.SCOOP, _strike(True, False, into_blocker)))
    assert any("not a scoop" in x for x in problems(Topic.SCOOP, _strike(False, False, good)))
    # Under the ball the tip slides off as well: a scoop that is also a miscue still shows row 6.
    assert problems(Topic.SCOOP, _strike(True, True, good)) == []


def test_row11_miscue_without_a_jump() -> None:
    flat = [ev(0.3, "ball_ball", balls=["cue", "7"])]
    assert problems(Topic.MISCUE, _strike(False, True, flat)) == []
    hop = [ev(0.0, "airborne", ball="cue"), *flat]
    assert any("leaves the cloth" in x for x in problems(Topic.MISCUE, _strike(False, True, hop)))


# --- off the table: rows 1-5, 15, 16 --------------------------------------------------------------------


def test_row1_rail_top_and_back() -> None:
    out = [
        ev(0.1, "ball_ball", balls=["cue", "7"]),
        ev(0.2, "left_table", ball="7"),
        ev(0.3, "touched", ball="7", object="rail_top"),
        ev(0.5, "returned", ball="7"),
    ]
    assert problems(Topic.RAIL_TOP_RETURNS, rec(out), "object") == []
    assert problems(Topic.RAIL_TOP_RETURNS, rec(out), "cue")  # the claim names the cue ball: not shown
    lamp = [*out[:2], ev(0.3, "touched", ball="7", object="lamp"), out[3]]
    assert problems(Topic.RAIL_TOP_RETURNS, rec(lamp), "object")


def test_rows_2_and_3_where_the_ball_rests() -> None:
    hit = [ev(0.1, "ball_ball", balls=["cue", "7"]), ev(0.2, "left_table", ball="7")]
    assert problems(Topic.RAIL_TOP_STAYS, rec(hit, {"7": ("off_table", "rail")}), "object") == []
    assert problems(Topic.OFF_FLOOR, rec(hit, {"7": ("off_table", "floor")}), "object") == []
    floor_too = rec(hit, {"7": ("off_table", "rail"), "2": ("off_table", "floor")})
    assert any("other balls" in x for x in problems(Topic.RAIL_TOP_STAYS, floor_too, "object"))
    # The cue ball as subject must hit a ball before it flies off.
    early = [ev(0.1, "left_table", ball="cue"), ev(0.3, "ball_ball", balls=["cue", "7"])]
    p = problems(Topic.OFF_FLOOR, rec(early, {"cue": ("off_table", "floor")}), "cue")
    assert any("before it hits a ball" in x for x in p)
    # Out of a pocket onto the floor is row 16, not row 3.
    jaw = [
        ev(0.1, "ball_ball", balls=["cue", "7"]),
        ev(0.15, "pocket_jaw", ball="7", pocket="foot-left"),
        hit[1],
    ]
    assert any(
        "row 16" in x for x in problems(Topic.OFF_FLOOR, rec(jaw, {"7": ("off_table", "floor")}), "object")
    )
    assert problems(Topic.POCKET_BOUNCE_FLOOR, rec(jaw, {"7": ("off_table", "floor")}), "object") == []


def test_rows_4_and_5_touch_and_return() -> None:
    lamp = [
        ev(0.0, "airborne", ball="cue"),
        ev(0.3, "touched", ball="cue", object="lamp"),
        ev(0.7, "landed", ball="cue", on="bed"),
        ev(0.9, "ball_ball", balls=["cue", "7"]),
    ]
    assert problems(Topic.LAMP, rec(lamp), "cue") == []
    assert problems(Topic.LAMP, rec(lamp, {"cue": ("off_table", "floor")}), "cue")
    chalk = [
        ev(0.1, "ball_ball", balls=["cue", "7"]),
        ev(0.2, "left_table", ball="cue"),
        ev(0.25, "touched", ball="cue", object="chalk"),
        ev(0.5, "returned", ball="cue"),
    ]
    assert problems(Topic.CHALK, rec(chalk)) == []
    stayed_out = rec(chalk[:3], {"cue": ("off_table", "floor")})
    assert any("does not come back" in x for x in problems(Topic.CHALK, stayed_out))
    assert any("no ball touches the person" in x for x in problems(Topic.PERSON, rec(chalk)))


# --- hanging balls: rows 12-14 -----------------------------------------------------------------------


def _hang(after: float) -> list[dict[str, Any]]:
    return [
        ev(0.5, "ball_ball", balls=["cue", "7"]),
        ev(2.1, "hanging", ball="7", pocket="foot-left", pos=[1.74, 0.85, R]),
        ev(2.4, "rest", ball="cue"),
        ev(2.4 + after, "dropped", ball="7", pocket="foot-left", after=after),
    ]


def test_rows_12_and_13_the_five_seconds() -> None:
    assert problems(Topic.HANGING_AFTER_5S, rec(_hang(7.0), {"7": ("pocketed", None)})) == []
    assert problems(Topic.HANGING_BEFORE_5S, rec(_hang(2.0), {"7": ("pocketed", None)})) == []
    assert problems(Topic.HANGING_AFTER_5S, rec(_hang(2.0), {"7": ("pocketed", None)}))
    assert problems(Topic.HANGING_BEFORE_5S, rec(_hang(7.0), {"7": ("pocketed", None)}))


def test_row14_drops_as_the_cue_ball_arrives() -> None:
    spot = [1.74, 0.85, R]
    base = [ev(0.0, "hanging", ball="7", pocket="foot-left", pos=spot)]
    arrive = [
        *base,
        ev(0.6, "pocketed", ball="7", pocket="foot-left"),
        ev(0.78, "cushion", ball="cue", cushion="left-foot", pos=[1.73, 0.84, R]),
    ]
    assert problems(Topic.HANGING_ON_ARRIVAL, rec(arrive, {"7": ("pocketed", None)})) == []
    # The cue ball still far off a second after the drop: the ball fell by itself, not as it arrived.
    late = [
        *base,
        ev(0.6, "pocketed", ball="7", pocket="foot-left"),
        ev(2.5, "cushion", ball="cue", cushion="left-foot", pos=[1.73, 0.84, R]),
    ]
    assert any(
        "does not reach" in x
        for x in problems(Topic.HANGING_ON_ARRIVAL, rec(late, {"7": ("pocketed", None)}))
    )
    hit = [*base, ev(0.5, "ball_ball", balls=["cue", "7"]), *arrive[1:]]
    assert problems(Topic.HANGING_ON_ARRIVAL, rec(hit, {"7": ("pocketed", None)}))


def test_row17_outsider() -> None:
    touch = [
        ev(0.1, "left_table", ball="cue"),
        ev(0.2, "touched", ball="cue", object="spectator"),
        ev(0.5, "returned", ball="cue"),
    ]
    assert problems(Topic.OUTSIDE_INTERFERENCE, rec(touch)) == []
    player = [touch[0], ev(0.2, "touched", ball="cue", object="person"), touch[2]]
    assert problems(Topic.OUTSIDE_INTERFERENCE, rec(player))


@pytest.mark.parametrize("topic", list(Topic))
def test_every_topic_has_a_row(topic: Topic) -> None:
    assert 1 <= TOPIC_ROW[topic] <= LAST_ROW


def test_row18_double_hit() -> None:
    """The slow stroke into a ball 5 mm ahead: the balls meet at 9 ms, the tip catches the cue ball at 18 ms."""
    meet = [ev(0.009, "ball_ball", balls=["cue", "7"])]
    twice = {"contacts": 2, "contact_times": [0.018]}
    assert problems(Topic.DOUBLE_HIT, rec(meet, strike=twice)) == []
    assert any("only once" in x for x in problems(Topic.DOUBLE_HIT, rec(meet)))
    # Both contacts before the balls meet: no second contact after the contact.
    early = {"contacts": 2, "contact_times": [0.004]}
    assert any("again after" in x for x in problems(Topic.DOUBLE_HIT, rec(meet, strike=early)))
    # The tip still on the cue ball (within its ~1 ms) when the balls meet: a push.
    pushed = [ev(0.0005, "ball_ball", balls=["cue", "7"])]
    assert any("push" in x for x in problems(Topic.DOUBLE_HIT, rec(pushed, strike=twice)))


def test_row19_push() -> None:
    """The cue ball 1.5 mm from the ball on, struck at 5 m/s: the balls meet 0.3 ms into the tip's contact."""
    near = {"cue": (-0.4, 0.0), "7": (-0.4 + 2 * R + 0.0015, 0.0)}
    meet = [ev(0.0003, "ball_ball", balls=["cue", "7"])]
    assert problems(Topic.PUSH, rec(meet, initial=near)) == []
    late = [ev(0.003, "ball_ball", balls=["cue", "7"])]
    assert any("off the struck ball" in x for x in problems(Topic.PUSH, rec(late, initial=near)))
    frozen = {"cue": (-0.4, 0.0), "7": (-0.4 + 2 * R + 0.0002, 0.0)}
    assert any("frozen" in x for x in problems(Topic.PUSH, rec(meet, initial=frozen)))
    twice = {"contacts": 2, "contact_times": [0.01]}
    assert any("twice" in x for x in problems(Topic.PUSH, rec(meet, initial=near, strike=twice)))


def test_incidental_fouls_are_named() -> None:
    def fouls(*codes: FoulCode) -> Ruling:
        return Ruling(
            foul=True,
            fouls=tuple(Foul(c, "WPA 8-ball", {"en": "", "ru": ""}) for c in codes),
            counted=(),
            points=(0, 0),
            scores=(0, 0),
            off_table=(),
            respot=(),
            next_player=1,
            in_hand=None,
            options=(),
            frame_over=False,
            winner=None,
        )

    rulings = {
        "pool-8-ball": fouls(FoulCode.NO_RAIL),
        "pool-9-ball": fouls(FoulCode.SCOOP),
        # Beside the row's own foul an unrelated one changes nothing: one penalty per stroke.
        "straight-pool": fouls(FoulCode.CUE_BALL_OFF_TABLE, FoulCode.MISS),
    }
    assert incidental_fouls(rulings) == ["pool-8-ball: no_rail"]


def test_the_incidental_fouls_are_the_referees_codes() -> None:
    """Foul codes are the contract's enum everywhere (issue 12 §4), the row checks' too."""
    from rules.contract import FoulCode
    from scenes.core.trainer.rows import INCIDENTAL_FOULS

    assert INCIDENTAL_FOULS
    assert all(isinstance(c, FoulCode) for c in INCIDENTAL_FOULS)
