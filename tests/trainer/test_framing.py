"""The trainer's framing (scenes.core.trainer.framing) on library strokes, without a window: the side view of a
jump holds the struck ball at 80 px or more in a 1280x720 window, the follow view goes down to a ball on the
floor, the jaws view sits close on the hanging ball, and the replay slows around the deciding moment."""

from __future__ import annotations

import math

import pytest

from physics.tables import load_table
from scenes.core.settings import Settings
from scenes.core.trainer.cases import Case, load_library, record_for
from scenes.core.trainer.framing import MIN_BALL_PX, SLOW, Director, ball_px, held_samples
from scenes.core.trainer.rows import TOPIC_ROW

LIBRARY = {c.id: c for c in load_library()}
SETTINGS = Settings()
VFOV, ASPECT = (
    30.0,
    16 / 9,
)  # Panda3D's default lens in a 1280x720 window (the window keeps the vertical field)


def director(case: Case) -> Director:
    record = held_samples(record_for(case, SETTINGS, sample_hz=120.0))
    return Director(case.topic, record, load_table(record.table), VFOV, ASPECT, case.subject)


JUMPS = [c for c in LIBRARY.values() if TOPIC_ROW[c.topic] in (6, 7, 8, 9, 10, 11)]


@pytest.mark.parametrize("case", JUMPS, ids=[c.id for c in JUMPS])
def test_side_view_at_ball_height_with_big_balls(case: Case) -> None:
    d = director(case)
    assert d.kind == "side"
    R = d.spec.ball_radius
    t = d.moment.t if d.moment is not None else 0.1
    v = d.at(t)
    # At ball height: the eye within a ball's height of the cloth (outside the bed: just over the rail).
    assert v.eye[2] <= max(2.0 * R, d.spec.rail_height + 0.12)
    # Across the stroke's line, level with it.
    shot = d.record.shot
    assert shot is not None
    u = (math.cos(math.radians(shot.direction)), math.sin(math.radians(shot.direction)))
    view = (v.look[0] - v.eye[0], v.look[1] - v.eye[1])
    assert abs(view[0] * u[0] + view[1] * u[1]) < 1e-6 * max(1.0, math.hypot(*view))
    # The ball of interest at the moment is 80 px or more across at 1280x720 (a pinhole camera of the lens).
    px = ball_px(d.ball_depth(t), R, VFOV)
    assert px >= 80.0, px
    # ...and on screen: within the horizontal field of view.
    b = d.track.at(t)
    off = (b[0] - v.look[0]) * u[0] + (b[1] - v.look[1]) * u[1]
    assert abs(off) <= d.distance * math.tan(math.radians(VFOV) / 2) * ASPECT


def test_the_issue_s_jump_is_framed_from_the_blocker_to_the_ball_on() -> None:
    d = director(LIBRARY["pyramid-jump-over-blocker"])
    lo, hi = d.span
    start = d.track.start
    on = d.track_of("7").start
    assert lo <= 0.0
    assert hi >= math.dist(start[:2], on[:2])
    assert ball_px(d.distance, d.spec.ball_radius, VFOV) >= MIN_BALL_PX - 1e-9


def test_follow_goes_down_to_the_floor() -> None:
    case = LIBRARY["pyramid-object-ball-to-floor"]
    d = director(case)
    assert d.kind == "follow"
    assert d.ball == "7"
    end = d.record.duration
    ball = d.track.at(end)
    assert ball[2] < 0.0  # on the floor
    v = d.at(end)
    assert v.eye[2] > ball[2]
    assert math.dist(v.eye, ball) < 1.5
    # The ball is in front of the eye, inside the vertical field of view.
    d = [v.look[k] - v.eye[k] for k in range(3)]
    b = [ball[k] - v.eye[k] for k in range(3)]
    cos = sum(x * y for x, y in zip(d, b, strict=True)) / (math.hypot(*d) * math.hypot(*b))
    assert math.degrees(math.acos(cos)) < VFOV / 2


def test_jaws_view_is_close_on_the_hanging_ball() -> None:
    d = director(LIBRARY["pool-hanging-after-5s"])
    assert d.kind == "jaws"
    hang = next(e.pos for e in d.record.events if e.type == "hanging")
    v = d.at(d.record.duration)
    assert v.look == hang
    assert math.dist(v.eye, hang) < 0.6
    # The held replay shows the ball at the lip before it drops.
    assert math.dist(d.track.at(d.moment.t - 0.01), hang) < 1e-9


def test_slow_motion_around_the_deciding_moment() -> None:
    d = director(LIBRARY["pyramid-lamp"])
    assert d.moment is not None
    assert d.slow(d.moment.t) == SLOW
    assert d.slow(d.moment.t + 2.0) == 1.0
    # It eases in: monotone from far before to the moment.
    ts = [d.moment.t - 0.6 + 0.02 * k for k in range(31)]
    fs = [d.slow(t) for t in ts]
    assert all(a >= b - 1e-12 for a, b in zip(fs, fs[1:], strict=False) if ts[0] < d.moment.t)


def _segment_hits_box(
    a: tuple[float, ...], b: tuple[float, ...], lo: tuple[float, ...], hi: tuple[float, ...]
) -> bool:
    """Does the segment a-b pass through the axis-aligned box (slab test)?"""
    t0, t1 = 0.0, 1.0
    for k in range(3):
        d = b[k] - a[k]
        if abs(d) < 1e-12:
            if not lo[k] <= a[k] <= hi[k]:
                return False
            continue
        u, v = (lo[k] - a[k]) / d, (hi[k] - a[k]) / d
        t0, t1 = max(t0, min(u, v)), min(t1, max(u, v))
        if t0 > t1:
            return False
    return True


PEOPLE = [c for c in LIBRARY.values() if any(o.kind == "person" for o in c.scenario.objects)]


@pytest.mark.parametrize("case", PEOPLE, ids=[c.id for c in PEOPLE])
def test_the_person_a_ball_touches_does_not_hide_it(case: Case) -> None:
    """At the deciding moment of a case with a person by the table, nobody stands between the camera and the
    ball (the follow view looked from beyond the ball, through the person's body)."""
    from physics.objects import PERSON_SIZE

    d = director(case)
    s = d.spec
    t = d.moment.t if d.moment is not None else 0.2
    v = d.at(t)
    xo = s.half_length + s.cushion_width + s.rail_width
    yo = s.half_width + s.cushion_width + s.rail_width
    w, dep, hgt = PERSON_SIZE
    for o in case.scenario.objects:
        if o.kind != "person":
            continue
        x, y = o.at[0], o.at[1]
        along_x = abs(y) - yo >= abs(x) - xo
        hx, hy = (w / 2, dep / 2) if along_x else (dep / 2, w / 2)
        lo, hi = (x - hx, y - hy, s.floor_z), (x + hx, y + hy, s.floor_z + hgt)
        ball = d.track.at(t)
        assert not _segment_hits_box(v.eye, ball, lo, hi), (case.id, v.eye, ball)
