"""Отыгрыш: the fast variants' centre-line / two-cushion rule with its pocket-zone exceptions (003),
Американка's three ways (000), and the fast break that counts balls falling after the cue ball leaves
the house (003: Начальный удар)."""

from __future__ import annotations

import pytest

from physics.tables import load_table
from rules.registry import get_referee
from tests.rules.util import R, judge

T = load_table("pyramid-12ft")
FAST = ("russian-pyramid-fast", "moscow-pyramid-fast", "pyramid-8-fast")
SLOW = ("russian-pyramid", "moscow-pyramid", "pyramid-8")
PLAY = "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4"


def codes(game: str, script: str, layout: str = PLAY) -> list[str]:
    return judge(game, layout, script).codes()


@pytest.mark.parametrize("game", FAST)
@pytest.mark.parametrize(
    ("script", "legal"),
    [
        ("cue>7", False),  # nothing after the hit
        ("cue>7 7|foot", False),  # one cushion only
        ("cue>7 7|foot 7|foot", False),  # the same cushion twice
        ("cue>7 7|foot 7|left-foot", True),  # (II a) one ball, two cushions
        ("cue>7 7|foot cue|left-head", True),  # (II b) two balls, two cushions
        ("cue>7 7:centre-line", True),  # (I) a ball crosses the centre line
        ("cue|right-head cue>7 7|foot", False),  # a cushion before the hit does not count
    ],
)
def test_fast_safety(game: str, script: str, legal: bool) -> None:
    assert ("illegal_safety" not in codes(game, script)) is legal


@pytest.mark.parametrize("game", SLOW)
def test_no_safety_rule_in_the_ordinary_games(game: str) -> None:
    assert codes(game, "cue>7") == []


@pytest.mark.parametrize("game", FAST)
def test_fast_safety_frozen_cushion_ball(game: str) -> None:
    y = T.half_width - R
    lay = f"cue=0.5,{y - 0.3} 7=0.5,{y} 3=0.2,-0.4"
    # Hitting a ball frozen to a cushion does not touch that cushion, nor does the cue ball bouncing off it.
    assert "illegal_safety" in codes(game, "cue>7 7|left-foot", lay)
    assert "illegal_safety" in codes(game, "cue>7 7|left-foot cue|right-foot", lay)  # one real cushion only
    assert "illegal_safety" not in codes(game, "cue>7 7|left-foot cue|right-foot 7|foot", lay)
    # A ball driven onto a ball frozen to a cushion after the hit counts as touching that cushion.
    lay2 = f"cue=-0.5,0 7=0.2,0.3 3=0.5,{y}"
    assert "illegal_safety" not in codes(game, "cue>7 7|foot 7>3", lay2)
    assert "illegal_safety" in codes(game, "cue>3 3|left-foot", lay2)


def _front_of(pocket: str, dist: float, off_axis_deg: float = 0.0) -> str:
    """A final position ``dist`` from the middle of a pocket's mouth, ``off_axis_deg`` off its axis."""
    import math

    pk = T.pockets[pocket]
    back = pk.mouth / 2 if pk.corner else 0.0
    ex, ey = pk.centre[0] - pk.axis[0] * back, pk.centre[1] - pk.axis[1] * back
    a = math.atan2(-pk.axis[1], -pk.axis[0]) + math.radians(off_axis_deg)
    return f"7={ex + dist * math.cos(a):.5f},{ey + dist * math.sin(a):.5f}"


@pytest.mark.parametrize("game", FAST + ("american",))
@pytest.mark.parametrize(
    ("script", "exempt"),
    [
        ("cue>7 7#foot-left 7=1.5,0.6", True),  # touched the jaw
        ("cue>7 7|foot:0.06 7=1.5,0.3", True),  # cushion within 68 mm of the jaw
        ("cue>7 7|foot:0.08 7=1.5,0.3", False),  # 80 mm: outside the pocket zone
        ("cue>7 " + _front_of("foot-left", 0.130), True),  # stopped 130 mm in front of a corner's mouth
        ("cue>7 " + _front_of("foot-left", 0.142), False),  # 142 mm: beyond two diameters
        ("cue>7 " + _front_of("middle-left", 0.120, 30.0), True),  # 30° off a middle pocket's axis
        ("cue>7 " + _front_of("middle-left", 0.120, 55.0), False),  # 55°: outside the pocket's sector
    ],
)
def test_pocket_zone_exceptions(game: str, script: str, exempt: bool) -> None:
    assert ("illegal_safety" not in codes(game, script)) is exempt


@pytest.mark.parametrize("game", ["american", "american-fast"])
@pytest.mark.parametrize(
    ("script", "legal"),
    [
        ("cue>7", False),
        ("cue>7 7|foot", False),
        ("cue>7 7|foot 7|left-foot", True),  # (3) off one cushion to a second
        ("cue>7 7|foot 7>3 3|right-foot", True),  # (3) off one cushion, drives another to a second
        ("cue>7 7|foot cue|left-head", False),  # two balls, one cushion each: not in 000
        ("cue:centre-line cue>7 7:centre-line", True),  # (2) two balls across the centre line
        ("cue>3 3:centre-line 3|foot", False),  # (1) 3 starts at +x: crossing takes it to the head half
        ("cue>3 3:centre-line 3|head", True),  # (1) across the centre line to the far short cushion
    ],
)
def test_american_safety(game: str, script: str, legal: bool) -> None:
    lay = "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4"
    assert ("illegal_safety" not in codes(game, script, lay)) is legal


def test_fast_break_counts_balls_falling_after_the_cue_ball_comes_into_play() -> None:
    lay = "cue=-1.3,0 2=-1.0,0.6 7=0.5,0.2 3=0.2,-0.4"
    # The cue ball comes into play by crossing the house line or by meeting a ball outside the house.
    fast = judge(
        "pyramid-8-fast", lay, "cue:head-string cue>7 7@foot-left 7>3 3@middle-right", in_hand="house"
    )
    assert fast.counted == ("7", "3")
    assert not fast.foul
    via_contact = judge("pyramid-8-fast", lay, "cue>7 7>2 2@head-left", in_hand="house")
    assert via_contact.counted == ("2",)
    # A ball in the house struck before the cue ball left it is a foul, and nothing counts.
    foul = judge("pyramid-8-fast", lay, "cue>2 2@head-left cue:head-string", in_hand="house")
    assert foul.codes() == ["house_ball_first"]
    assert foul.counted == ()
    slow = judge("pyramid-8", lay, "cue:head-string cue>7 7>2 2@head-left", in_hand="house")
    assert slow.counted == ("2",)
    assert get_referee("pyramid-8").fast is False
