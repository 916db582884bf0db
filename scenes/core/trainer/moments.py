"""The moment that decides a call, and the camera made for watching it (pure: no Panda3D).

The verdict screen pauses the replay at the deciding moment and rings the ball and the place: the
contact with the lamp, the landing on the rail top, the pass over a ball, the strike itself for a
miscue or a scoop, the drop of a hanging ball, the tip meeting the cue ball again in a double hit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from physics.record import Event, EventType, ShotRecord
from rules.strike import tip_contacts
from scenes.core.i18n import tr
from scenes.core.trainer.cases import Topic


@dataclass(frozen=True)
class Moment:
    t: float
    ball: str | None
    pos: tuple[float, float, float] | None
    event: Event
    what: str  # the catalog's name of the moment (``trainer.moment.<what>``)

    def label(self, lang: str) -> str:
        return tr(f"trainer.moment.{self.what}", lang)


# What to look for first, per topic: (event type, extra test, the moment's name in the catalogs).
_WANTED: dict[Topic, tuple[tuple[EventType, str | None, str], ...]] = {
    Topic.JUMP: ((EventType.JUMPED_OVER, None, "over_blocker"),),
    Topic.SCOOP: ((EventType.CUE_STRIKE, "scoop", "scoop"),),
    Topic.MISCUE: ((EventType.CUE_STRIKE, "miscue", "miscue"),),
    Topic.JUMP_AFTER_CONTACT: (
        (EventType.BALL_BALL, None, "contact_before_jump"),
        (EventType.JUMPED_OVER, None, "jump_over_other"),
    ),
    Topic.CLIPPED_BALL_ON: ((EventType.JUMPED_OVER, None, "over_ball_on"),),
    Topic.JUMP_DROP_BACK: ((EventType.BALL_BALL, None, "contact_in_air"),),
    Topic.OFF_FLOOR: ((EventType.LEFT_TABLE, None, "leaves_table"),),
    Topic.RAIL_TOP_STAYS: (
        (EventType.LANDED, "rail", "lands_on_rail"),
        (EventType.LEFT_TABLE, None, "leaves_bed"),
    ),
    Topic.RAIL_TOP_RETURNS: ((EventType.TOUCHED, "rail_top", "on_rail_top"),),
    Topic.LAMP: ((EventType.TOUCHED, "lamp", "lamp"),),
    Topic.CHALK: ((EventType.TOUCHED, "chalk", "chalk"),),
    Topic.PERSON: ((EventType.TOUCHED, "person", "person"),),
    Topic.POCKET_BOUNCE_OUT: (
        (EventType.RETURNED, None, "out_of_pocket"),
        (EventType.POCKET_JAW, None, "meets_pocket"),
    ),
    Topic.POCKET_BOUNCE_FLOOR: ((EventType.LEFT_TABLE, None, "over_pocket"),),
    Topic.HANGING_BEFORE_5S: ((EventType.DROPPED, None, "hanging_drops"),),
    Topic.HANGING_AFTER_5S: ((EventType.DROPPED, None, "hanging_drops"),),
    Topic.HANGING_ON_ARRIVAL: ((EventType.POCKETED, None, "drops_before_contact"),),
    Topic.OUTSIDE_INTERFERENCE: ((EventType.TOUCHED, "spectator", "spectator"),),
    # The strike first; deciding_moment moves it to the tip's second contact.
    Topic.DOUBLE_HIT: ((EventType.CUE_STRIKE, None, "second_tip_contact"),),
    # The cue ball meeting the ball on while the tip is still on it.
    Topic.PUSH: ((EventType.BALL_BALL, None, "push_contact"),),
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


def _second_tip_contact(record: ShotRecord) -> Moment | None:
    """A double hit is decided when the tip meets the cue ball again (``cue_strike``'s later contacts)."""
    tips = tip_contacts(record)
    strike = next((e for e in record.events if e.type == EventType.CUE_STRIKE), None)
    if strike is None or not tips.double or len(tips.times) < 2:
        return None
    t = tips.times[1]
    ball = strike.ball or "cue"
    at = replace(strike, t=t, pos=None, ball=ball)
    return Moment(t, ball, _pos(record, at), strike, "second_tip_contact")


def deciding_moment(topic: Topic, record: ShotRecord) -> Moment | None:
    """The first event that decides a case of this topic (None when the stroke has none of them)."""
    if topic == Topic.DOUBLE_HIT:
        return _second_tip_contact(record)
    for et, extra, what in _WANTED[topic]:
        for e in record.events:
            if _matches(e, et, extra):
                ball = e.ball or (e.balls[0] if e.balls else None)
                return Moment(e.t, ball, _pos(record, e), e, what)
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
        Topic.DOUBLE_HIT,
        Topic.PUSH,
    ):
        return "side"
    if topic in (Topic.LAMP, Topic.CHALK, Topic.PERSON, Topic.RAIL_TOP_RETURNS):
        return "follow"
    return "top"
