"""The moment that decides a call, and the camera made for watching it (pure: no Panda3D).

The verdict screen pauses the replay at the deciding moment and rings the ball and the place: the
contact with the lamp, the landing on the rail top, the pass over a ball, the strike itself for a
miscue or a scoop, the drop of a hanging ball.
"""

from __future__ import annotations

from dataclasses import dataclass

from physics.record import Event, EventType, ShotRecord
from scenes.trainer.cases import Topic


@dataclass(frozen=True)
class Moment:
    t: float
    ball: str | None
    pos: tuple[float, float, float] | None
    event: Event
    en: str
    ru: str

    def label(self, lang: str) -> str:
        return self.en if lang == "en" else self.ru


# What to look for first, per topic: (event type, extra test, en, ru).
_WANTED: dict[Topic, tuple[tuple[EventType, str | None, str, str], ...]] = {
    Topic.JUMP: (
        (EventType.JUMPED_OVER, None, "the cue ball passes over the blocker", "биток пролетает над шаром"),
    ),
    Topic.SCOOP: (
        (EventType.CUE_STRIKE, "scoop", "the tip digs under the ball", "наклейка подцепляет шар снизу"),
    ),
    Topic.MISCUE: (
        (EventType.CUE_STRIKE, "miscue", "the tip slides off the ball", "наклейка соскальзывает (кикс)"),
    ),
    Topic.JUMP_AFTER_CONTACT: (
        (EventType.BALL_BALL, None, "first contact, before the jump", "первое касание до прыжка"),
        (EventType.JUMPED_OVER, None, "the jump over another ball", "прыжок через другой шар"),
    ),
    Topic.CLIPPED_BALL_ON: (
        (
            EventType.JUMPED_OVER,
            None,
            "the cue ball goes over the ball on",
            "биток проходит над прицельным шаром",
        ),
    ),
    Topic.JUMP_DROP_BACK: ((EventType.BALL_BALL, None, "the contact in the air", "касание в воздухе"),),
    Topic.OFF_FLOOR: ((EventType.LEFT_TABLE, None, "the ball leaves the table", "шар покидает стол"),),
    Topic.RAIL_TOP_STAYS: (
        (EventType.LANDED, "rail", "the ball lands on the rail", "шар приземляется на борт"),
        (EventType.LEFT_TABLE, None, "the ball leaves the bed", "шар покидает поле"),
    ),
    Topic.RAIL_TOP_RETURNS: (
        (EventType.TOUCHED, "rail_top", "the ball runs on the rail top", "шар на верху борта"),
    ),
    Topic.LAMP: ((EventType.TOUCHED, "lamp", "the ball hits the lamp", "шар ударяет светильник"),),
    Topic.CHALK: ((EventType.TOUCHED, "chalk", "the ball touches the chalk", "шар задевает мел"),),
    Topic.PERSON: ((EventType.TOUCHED, "person", "the ball touches the person", "шар задевает человека"),),
    Topic.POCKET_BOUNCE_OUT: (
        (EventType.RETURNED, None, "the ball comes back out of the pocket", "шар выскакивает из лузы"),
        (EventType.POCKET_JAW, None, "the ball meets the pocket", "шар в створе лузы"),
    ),
    Topic.POCKET_BOUNCE_FLOOR: (
        (EventType.LEFT_TABLE, None, "the ball leaves over the pocket", "шар вылетает через лузу"),
    ),
    Topic.HANGING_BEFORE_5S: ((EventType.DROPPED, None, "the hanging ball drops", "зависший шар падает"),),
    Topic.HANGING_AFTER_5S: ((EventType.DROPPED, None, "the hanging ball drops", "зависший шар падает"),),
    Topic.HANGING_ON_ARRIVAL: (
        (
            EventType.POCKETED,
            None,
            "the hanging ball drops before the contact",
            "зависший шар падает до касания",
        ),
    ),
    Topic.OUTSIDE_INTERFERENCE: (
        (EventType.TOUCHED, "spectator", "the ball touches a spectator", "шар задевает зрителя"),
    ),
}


def _matches(e: Event, et: EventType, extra: str | None) -> bool:
    if e.type != et:
        return False
    if extra is None:
        return True
    if et == EventType.CUE_STRIKE:
        return bool(getattr(e, extra))
    if et == EventType.TOUCHED:
        return e.object == extra
    if et == EventType.LANDED:
        return e.on == extra
    return True


def _pos(record: ShotRecord, e: Event) -> tuple[float, float, float] | None:
    if e.pos is not None:
        return e.pos
    ball = e.ball or (e.balls[0] if e.balls else None)
    if ball is None or not record.samples or ball not in record.samples:
        return None
    rows = record.samples[ball]
    best = min(rows, key=lambda r: abs(r[0] - e.t), default=None)
    return (best[1], best[2], best[3]) if best is not None else None


def deciding_moment(topic: Topic, record: ShotRecord) -> Moment | None:
    """The first event that decides a case of this topic (None when the stroke has none of them)."""
    for et, extra, en, ru in _WANTED[topic]:
        for e in record.events:
            if _matches(e, et, extra):
                ball = e.ball or (e.balls[0] if e.balls else None)
                return Moment(e.t, ball, _pos(record, e), e, en, ru)
    return None


def camera_for(topic: Topic) -> str:
    """The camera preset made for the call: side view at ball height for jumps, top view for balls leaving
    the table and hanging balls, follow the ball for the lamp, chalk and person (they happen off the bed)."""
    if topic in (
        Topic.JUMP,
        Topic.SCOOP,
        Topic.JUMP_AFTER_CONTACT,
        Topic.CLIPPED_BALL_ON,
        Topic.JUMP_DROP_BACK,
        Topic.MISCUE,
    ):
        return "side"
    if topic in (Topic.LAMP, Topic.CHALK, Topic.PERSON, Topic.RAIL_TOP_RETURNS):
        return "follow"
    return "top"
