"""What a case of each row of rules-notes §2 must show in its own shot record (pure: no Panda3D).

A case says what it teaches: its row (and topic) and, where the row could be about either, its subject
ball (``[meta] subject = "cue" | "object"``). :func:`row_problems` reads the stroke's record and lists,
in words, every part of that claim the stroke fails to show; an empty list means the case shows what its
title says. :func:`incidental_fouls` adds the one check that needs the referee: a case's ruling must not be
a foul only for a reason unrelated to its row (a miss, no cushion after the contact, a wrong ball first),
so the trainee learns the row's ruling and not a side effect. The library test runs both over every case, and
``train --generate`` and ``tools/trainer_make_cases.py`` keep only strokes that pass them.

The conditions, row by row (S is the struck ball, "the contact" S's first contact with another ball,
Y the ball it meets there; every row except 6 and 11 needs a clean strike: no miscue, no scoop):

1. The subject leaves the bed onto the rail top (or the rubber's top), touches nothing but the table,
   comes back onto the bed by itself and ends the stroke there; no ball ends off the table.
2. The subject ends the stroke at rest on the rail; no other ball leaves the table.
3. The subject ends the stroke on the floor, having left the table over a cushion, not out of a pocket
   (that is row 16); the cue ball as subject hits a ball before it leaves; an object ball as subject was
   sent by the cue ball, which stays on the table.
4. The subject touches the lamp, comes back down onto the bed and ends the stroke there.
5. The subject touches the chalk (or a person of the striker's side) while off the bed, comes back onto
   the bed by itself and ends the stroke there.
6. A scoop: the tip meets the cloth with S (scoop; the tip may slide off too, as it does under a ball
   on every table's cue: physics.tip), S is lofted and passes over a blocker before the
   contact, and the contact is not with that blocker.
7. S leaves the cloth at the strike, passes over a blocker X in the air and then first touches a ball
   Y other than X, before any cushion and without passing over Y first.
8. S meets Y first without jumping anything on the way, and after the contact passes over another ball.
9. S, in the air, meets Y first on its top (S's centre a radius or more above Y's: the clip; the physics
   names no jumped_over for a ball it touched) and first lands beyond it.
10. S, in the air, meets Y first, never passes over it, and first lands on the near side of it.
11. A miscue (the tip slides off, no scoop) and S never leaves the cloth.
12. A ball hit in the stroke stops hanging over a pocket and drops 5 s or more after the stroke ended.
13. The same, dropping within 5 s of the stroke's end.
14. A ball hangs over a pocket from before the strike, drops untouched before S meets anything, and S
    arrives at its place (within two radii) within a second of the drop.
15. A ball goes into a pocket (its centre over the hole, or out over the pocket and back) and comes back
    out onto the bed, ending the stroke there; nothing is pocketed or off the table.
16. A ball meets a pocket, flies out of it and ends on the floor; the cue ball stays on the table.
17. A ball touches an outsider (a spectator, the referee); the same stroke without the outsider (the
    case's undisturbed run, when it has one) touches nobody.
18. A double hit: the strike record gives two tip contacts or more (``cue_strike``'s ``contacts``), the
    second after S has met Y; the tip is not on S when S meets Y (that would be a push, judged as one).
19. A push: the tip is still on S when S meets Y (``rules.strike``: within the tip's contact time), S not
    frozen to Y at the start (a frozen pair is judged by its own rule), and the tip meets S only once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from physics.record import BallStatus, Event, EventType, ShotRecord
from rules.contract import FoulCode
from rules.games.snooker_over import passes_over_after_touch
from rules.interference import OUTSIDE_AGENTS
from rules.ruling import Ruling
from rules.strike import push, push_unless_frozen, tip_contacts
from scenes.core.trainer.cases import Topic

# The row of rules-notes §2 each topic illustrates.
TOPIC_ROW: dict[Topic, int] = {
    Topic.RAIL_TOP_RETURNS: 1,
    Topic.RAIL_TOP_STAYS: 2,
    Topic.OFF_FLOOR: 3,
    Topic.LAMP: 4,
    Topic.CHALK: 5,
    Topic.PERSON: 5,
    Topic.SCOOP: 6,
    Topic.JUMP: 7,
    Topic.JUMP_AFTER_CONTACT: 8,
    Topic.CLIPPED_BALL_ON: 9,
    Topic.JUMP_DROP_BACK: 10,
    Topic.MISCUE: 11,
    Topic.HANGING_AFTER_5S: 12,
    Topic.HANGING_BEFORE_5S: 13,
    Topic.HANGING_ON_ARRIVAL: 14,
    Topic.POCKET_BOUNCE_OUT: 15,
    Topic.POCKET_BOUNCE_FLOOR: 16,
    Topic.OUTSIDE_INTERFERENCE: 17,
    Topic.DOUBLE_HIT: 18,
    Topic.PUSH: 19,
}
SUBJECTS = ("cue", "object")

# Things by the table that are not the table: touching one is the row's point (4, 5, 17) or spoils a case.
TABLE_PARTS = frozenset({"rail_top", "frame"})
# Fouls that have nothing to do with any row: a case whose ruling has one teaches a side effect.
INCIDENTAL_FOULS = frozenset(
    {
        FoulCode.MISS,
        FoulCode.WRONG_BALL_FIRST,
        FoulCode.NO_RAIL,
        FoulCode.ILLEGAL_SAFETY,
        FoulCode.CUE_BALL_POCKETED,
    }
)
# Snooker's jump shot is the lesson of the rows about a cue ball jumping before or over what it meets (6, 7, 9);
# in any other row a ruling that is a foul only because the cue ball clipped the ball on and flew over it
# teaches the wrong thing, as the fouls above do.
JUMP_SHOT_ROWS = frozenset({6, 7, 9})
INCIDENTAL_JUMP = INCIDENTAL_FOULS | {FoulCode.JUMP_SHOT}
HANG_SECONDS = 5.0  # rows 12-13: 000's five seconds (003 asks only whether the stroke had ended)
ARRIVAL_WINDOW = 1.0  # row 14: s from the drop to the struck ball reaching the spot
# Row 9: a clip meets the ball on's top: the centres at least one radius apart in height (the contact
# normal 30 degrees or more above the horizontal).
CLIP_HEIGHT = 1.0


@dataclass(frozen=True)
class Claim:
    """What a case says it shows: its topic (hence its row) and, for rows about either ball, its subject."""

    topic: Topic
    subject: str | None = None  # "cue" | "object" | None (any ball)

    @property
    def row(self) -> int:
        return TOPIC_ROW[self.topic]


# --- reading a record ------------------------------------------------------------------------------------


class _Stroke:
    """The facts of a record the checks share: the struck ball, its first contact, its flights."""

    def __init__(self, record: ShotRecord) -> None:
        self.record = record
        self.events = list(record.events)
        strike = record.of_type(EventType.CUE_STRIKE)
        self.strike: Event | None = strike[0] if strike else None
        self.s = self.strike.ball if self.strike is not None and self.strike.ball else "cue"
        self.i_contact = next(
            (
                i
                for i, e in enumerate(self.events)
                if e.type == EventType.BALL_BALL and e.balls is not None and self.s in e.balls
            ),
            None,
        )
        self.contact = self.events[self.i_contact] if self.i_contact is not None else None
        self.y: str | None = None
        if self.contact is not None and self.contact.balls is not None:
            a, b = self.contact.balls
            self.y = b if a == self.s else a

    def before_contact(self) -> list[Event]:
        return self.events if self.i_contact is None else self.events[: self.i_contact]

    def after_contact(self) -> list[Event]:
        return [] if self.i_contact is None else self.events[self.i_contact + 1 :]

    def of(self, ball: str, events: Iterable[Event], *types: EventType) -> list[Event]:
        return [e for e in events if e.ball == ball and (not types or e.type in types)]

    def airborne_at_contact(self) -> bool:
        """Is S off the cloth when it meets Y (its last take-off or landing before the contact a take-off)?"""
        state = False
        for e in self.of(self.s, self.before_contact(), EventType.AIRBORNE, EventType.LANDED):
            state = e.type == EventType.AIRBORNE
        return state

    def first_landing_after_contact(self) -> Event | None:
        return next(
            (e for e in self.of(self.s, self.after_contact(), EventType.LANDED) if e.on == "bed"), None
        )

    def along(self, pos: Sequence[float]) -> float | None:
        """How far past Y's starting centre ``pos`` lies, along the line from S's start to Y's start."""
        if self.y is None:
            return None
        s0, y0 = self.record.initial.get(self.s), self.record.initial.get(self.y)
        if s0 is None or y0 is None:
            return None
        d = (y0[0] - s0[0], y0[1] - s0[1])
        n = math.hypot(*d)
        if n == 0.0:
            return None
        return ((pos[0] - y0[0]) * d[0] + (pos[1] - y0[1]) * d[1]) / n

    def clean(self) -> bool:
        return self.strike is not None and not self.strike.miscue and not self.strike.scoop

    def status(self, ball: str) -> str | None:
        f = self.record.final.get(ball)
        return None if f is None else str(f.status)

    def rest(self, ball: str) -> str | None:
        f = self.record.final.get(ball)
        return None if f is None else f.rest

    def touched(self, ball: str | None = None) -> set[str]:
        return {
            str(e.object)
            for e in self.events
            if e.type == EventType.TOUCHED and e.object and (ball is None or e.ball == ball)
        }

    def radius(self) -> float:
        r = self.record.params.get("R")
        if isinstance(r, (int, float)) and r > 0:
            return float(r)
        for p in self.record.initial.values():
            return float(p[2])
        return 0.03


def rail_top_return(record: ShotRecord, ball: str | None = None) -> bool:
    """A ball (``ball``, or any) left the bed onto the rail (the wooden rail top or the rubber's top behind
    the nose line) and came back onto the bed by itself - touching nothing but the table on the way - to end
    the stroke there."""
    for b, fin in record.final.items():
        if fin.status != BallStatus.ON_TABLE or (ball is not None and b != ball):
            continue
        out = on_rail = False
        for e in record.events:
            if e.ball != b:
                continue
            if e.type == EventType.LEFT_TABLE:
                out, on_rail = True, False
            elif e.type == EventType.TOUCHED and e.object == "rail_top":
                on_rail = True
            elif e.type == EventType.CUSHION and out:
                on_rail = True
            elif e.type == EventType.TOUCHED and e.object not in TABLE_PARTS:
                out = on_rail = False  # something else sent it back: not this row
            elif e.type == EventType.RETURNED:
                if out and on_rail:
                    return True
                out = on_rail = False
    return False


def touched_off_bed_and_returned(record: ShotRecord, ball: str, obj: Callable[[str], bool]) -> bool:
    """``ball`` touched an object (``obj(name)``) while off the bed and then came back onto it by itself."""
    out = hit = False
    for e in record.events:
        if e.ball != ball:
            continue
        if e.type == EventType.LEFT_TABLE:
            out, hit = True, False
        elif e.type == EventType.TOUCHED and e.object and obj(e.object) and out:
            hit = True
        elif e.type == EventType.RETURNED:
            if out and hit:
                return True
            out = hit = False
    return False


def thrown_back_from_hole(record: ShotRecord, ball: str | None = None) -> bool:
    """A ball met a pocket with its centre over the hole (past the drop line: the back or the sides of the
    pocket, not the jaws) and still ended on the bed: it went into the pocket and came back out (row 15)."""
    hits = [
        e
        for e in record.of_type(EventType.POCKET_JAW)
        if e.ball
        and (ball is None or e.ball == ball)
        and e.pocket
        and e.pos is not None
        and record.final.get(e.ball) is not None
        and record.final[e.ball].status == BallStatus.ON_TABLE
    ]
    if not hits:
        return False
    from physics.errors import InputError
    from physics.geometry import pocket_shapes
    from physics.tables import load_table

    try:
        shapes = pocket_shapes(load_table(record.table))
    except InputError:
        return False
    return any(
        e.pocket in shapes and e.pos is not None and shapes[e.pocket].in_well(e.pos[0], e.pos[1])
        for e in hits
    )


def bounced_out_of_pocket(record: ShotRecord, ball: str | None = None) -> bool:
    """A ball went into a pocket and came back out onto the bed: out over the pocket's edge and back, or
    thrown back off the pocket's back from over the hole."""
    jaw = {e.ball for e in record.of_type(EventType.POCKET_JAW, EventType.POCKETED) if e.ball}
    left = {e.ball for e in record.of_type(EventType.LEFT_TABLE) if e.ball}
    back = {e.ball for e in record.of_type(EventType.RETURNED) if e.ball}
    for b in jaw & left & back:
        f = record.final.get(b)
        if (ball is None or b == ball) and f is not None and f.status == BallStatus.ON_TABLE:
            return True
    return thrown_back_from_hole(record, ball)


def out_of_pocket_to_floor(record: ShotRecord, ball: str | None = None) -> str | None:
    """The ball on the floor that met a pocket (its jaws or its well) before it left the table."""
    for b, fin in record.final.items():
        if fin.status != BallStatus.OFF_TABLE or fin.rest != "floor" or (ball is not None and b != ball):
            continue
        left = next((e.t for e in record.events if e.type == EventType.LEFT_TABLE and e.ball == b), math.inf)
        if any(e.type == EventType.POCKET_JAW and e.ball == b and e.t <= left for e in record.events):
            return b
    return None


# --- the rows ---------------------------------------------------------------------------------------------


def _subjects(st: _Stroke, subject: str | None) -> list[str]:
    balls = list(st.record.final)
    if subject == "cue":
        return [st.s]
    if subject == "object":
        return [b for b in balls if b != st.s]
    return balls


def _row1(st: _Stroke, c: Claim) -> list[str]:
    if not any(rail_top_return(st.record, b) for b in _subjects(st, c.subject)):
        return [f"no {c.subject or 'ball'} goes onto the rail top and comes back onto the bed by itself"]
    return []


def _row2(st: _Stroke, c: Claim) -> list[str]:
    on_rail = [b for b in _subjects(st, c.subject) if st.status(b) == "off_table" and st.rest(b) == "rail"]
    if not on_rail:
        return [f"no {c.subject or 'ball'} ends the stroke at rest on the rail"]
    out = [b for b in st.record.off_table() if b not in on_rail]
    return [f"other balls leave the table too: {out}"] if out else []


def _row3(st: _Stroke, c: Claim) -> list[str]:
    floor = [b for b in _subjects(st, c.subject) if st.status(b) == "off_table" and st.rest(b) == "floor"]
    if not floor:
        return [f"no {c.subject or 'ball'} ends the stroke on the floor"]
    p: list[str] = []
    b = floor[0]
    if out_of_pocket_to_floor(st.record, b):
        p.append(f"{b} reaches the floor out of a pocket (that is row 16)")
    others = [x for x in st.record.off_table() if x != b]
    if others:
        p.append(f"other balls leave the table too: {others}")
    if b == st.s:
        left = next(
            (i for i, e in enumerate(st.events) if e.type == EventType.LEFT_TABLE and e.ball == b), None
        )
        if st.i_contact is None or (left is not None and left < st.i_contact):
            p.append("the cue ball leaves the table before it hits a ball")
    elif st.y is None:
        p.append("the struck ball hits no ball")
    return p


def _row4(st: _Stroke, c: Claim) -> list[str]:
    for b in _subjects(st, c.subject):
        t_lamp = next(
            (e.t for e in st.events if e.ball == b and e.type == EventType.TOUCHED and e.object == "lamp"),
            None,
        )
        if t_lamp is None:
            continue
        back = any(
            e.ball == b and e.type == EventType.LANDED and e.on == "bed" and e.t > t_lamp for e in st.events
        )
        if back and st.status(b) == "on_table":
            return []
        return [f"{b} touches the lamp but does not come back down onto the bed to stay"]
    return [f"no {c.subject or 'ball'} touches the lamp"]


def _row5(st: _Stroke, c: Claim) -> list[str]:
    want = "chalk" if c.topic == Topic.CHALK else "person"
    hit = [b for b in _subjects(st, c.subject) if want in st.touched(b)]
    if not hit:
        return [f"no {c.subject or 'ball'} touches the {want}"]
    for b in hit:
        if touched_off_bed_and_returned(st.record, b, lambda o: o == want) and st.status(b) == "on_table":
            return []
    return [f"{hit[0]} touches the {want} but does not come back onto the bed by itself to stay"]


def _row6(st: _Stroke, c: Claim) -> list[str]:
    p: list[str] = []
    if st.strike is None or not st.strike.scoop:
        p.append("the strike is not a scoop (the tip does not meet the cloth with the ball)")
    over = [e.over for e in st.of(st.s, st.before_contact(), EventType.JUMPED_OVER)]
    if not over:
        p.append("the struck ball is not lofted over a blocker before its first contact")
    elif st.y is not None and st.y in over:
        p.append(f"the struck ball comes down on the blocker {st.y}")
    return p


def _row7(st: _Stroke, c: Claim) -> list[str]:
    p: list[str] = []
    before = st.before_contact()
    if st.y is None:
        return ["the cue ball touches no ball"]
    if not st.of(st.s, before[:3], EventType.AIRBORNE):
        p.append("the cue ball does not leave the cloth at the strike")
    over = [e.over for e in st.of(st.s, before, EventType.JUMPED_OVER)]
    if not any(x != st.y for x in over):
        p.append("the cue ball passes over no blocker before its first contact")
    if st.y in over:
        p.append(f"the cue ball passes over the ball on ({st.y}) before touching it")
    cushions = st.of(st.s, before, EventType.CUSHION)
    if cushions:
        p.append(f"the cue ball hits the {cushions[0].cushion} cushion before the ball on")
    if st.of(st.s, before, EventType.TOUCHED, EventType.LEFT_TABLE):
        p.append("the cue ball leaves the bed or touches something before the ball on")
    return p


def _row8(st: _Stroke, c: Claim) -> list[str]:
    if st.y is None:
        return ["the cue ball touches no ball"]
    p: list[str] = []
    if st.of(st.s, st.before_contact(), EventType.JUMPED_OVER):
        p.append("the cue ball jumps a ball before it meets the ball on")
    if not any(e.over != st.y for e in st.of(st.s, st.after_contact(), EventType.JUMPED_OVER)):
        p.append("after the ball on the cue ball jumps over no other ball")
    return p


def _landing_side(st: _Stroke) -> float | None:
    land = st.first_landing_after_contact()
    if land is None or land.pos is None:
        return None
    return st.along(land.pos)


def _contact_height(st: _Stroke) -> float | None:
    """How far S's centre is above Y's when they meet (the contact event's place is its first ball's)."""
    c = st.contact
    if c is None or c.balls is None or st.y is None:
        return None
    y0 = st.record.initial.get(st.y)
    if c.balls[0] == st.s and c.pos is not None and y0 is not None:
        return c.pos[2] - y0[2]
    rows = st.record.samples or {}
    if st.s in rows and st.y in rows and rows[st.s] and rows[st.y]:
        a = min(rows[st.s], key=lambda r: abs(r[0] - c.t))
        b = min(rows[st.y], key=lambda r: abs(r[0] - c.t))
        return a[3] - b[3]
    return None


def _row9(st: _Stroke, c: Claim) -> list[str]:
    if st.y is None or st.contact is None:
        return ["the cue ball touches no ball"]
    p: list[str] = []
    if not st.airborne_at_contact():
        p.append("the cue ball is not in the air when it meets the ball on")
    if st.of(st.s, st.before_contact(), EventType.CUSHION):
        p.append("the cue ball hits a cushion before the ball on")
    if st.of(st.s, st.before_contact(), EventType.JUMPED_OVER):
        p.append("the cue ball passes over a ball before it meets the ball on")
    dz = _contact_height(st)
    if dz is not None and dz < CLIP_HEIGHT * st.radius():
        p.append("the cue ball meets the ball on below its top (not a clip)")
    side = _landing_side(st)
    if side is None or side <= 0.0:
        p.append("the cue ball does not land beyond the ball on")
    elif st.y is not None and not passes_over_after_touch(st.record, st.s, st.y, st.contact.t):
        # Beyond the spot where the ball stood is not over the ball: knocked away from under the cue ball, it
        # was never passed over (the snooker referee's reading of a clip, rules/games/snooker_over.py).
        p.append("the cue ball does not pass over the ball on (it is knocked away from under it)")
    return p


def _row10(st: _Stroke, c: Claim) -> list[str]:
    if st.y is None:
        return ["the cue ball touches no ball"]
    p: list[str] = []
    if not st.airborne_at_contact():
        p.append("the cue ball is not in the air when it meets the ball on")
    if st.of(st.s, st.before_contact(), EventType.CUSHION):
        p.append("the cue ball hits a cushion before the ball on")
    if st.of(st.s, st.events, EventType.JUMPED_OVER):
        p.append("the cue ball passes over a ball")
    side = _landing_side(st)
    if side is None or side >= 0.0:
        p.append("the cue ball does not come down on the near side of the ball on")
    return p


def _row11(st: _Stroke, c: Claim) -> list[str]:
    p: list[str] = []
    if st.strike is None or not st.strike.miscue or st.strike.scoop:
        p.append("the strike is not a miscue (or is a scoop as well)")
    if st.of(st.s, st.events, EventType.AIRBORNE):
        p.append("the struck ball leaves the cloth (a miscue of this row does not jump)")
    return p


def _row18(st: _Stroke, c: Claim) -> list[str]:
    p: list[str] = []
    tips = tip_contacts(st.record)
    if not tips.double:
        p.append("the tip meets the struck ball only once")
    if st.contact is None:
        p.append("the struck ball meets no ball")
        return p
    if tips.after(st.contact.t) is None:
        p.append("the tip does not meet the struck ball again after its contact with a ball")
    if push(st.record, st.y, st.contact.t) is not None:
        p.append("the tip is still on the struck ball when it meets a ball (a push, not a double hit)")
    return p


def _row19(st: _Stroke, c: Claim) -> list[str]:
    p: list[str] = []
    if st.contact is None:
        return ["the struck ball meets no ball"]
    if push(st.record, st.y, st.contact.t) is None:
        p.append("the tip is off the struck ball when it meets a ball")
    elif push_unless_frozen(st.record, st.s, st.y, st.contact.t, st.radius()) is None:
        p.append("the struck ball starts frozen to the ball it meets (its own rule, not a push)")
    if tip_contacts(st.record).double:
        p.append("the tip meets the struck ball twice as well (a double hit beside the push)")
    return p


def _hanging_drop(st: _Stroke, late: bool) -> list[str]:
    for h in st.record.of_type(EventType.HANGING):
        b = h.ball
        if b is None or h.t <= 0.0:
            continue
        if not any(e.type == EventType.BALL_BALL and e.involves(b) and e.t < h.t for e in st.events):
            continue  # not a ball of the stroke
        drops = [e for e in st.events if e.type == EventType.DROPPED and e.ball == b and e.after is not None]
        if not drops or drops[0].after is None:
            return [f"{b} hangs over the pocket but never drops"]
        after = drops[0].after
        if late and after < HANG_SECONDS:
            return [f"{b} drops {after:g} s after the stroke ended, not 5 s or more"]
        if not late and not 0.0 < after < HANG_SECONDS:
            return [f"{b} drops {after:g} s after the stroke ended, not within 5 s"]
        return []
    return ["no ball hit in the stroke stops hanging over a pocket"]


def _row12(st: _Stroke, c: Claim) -> list[str]:
    return _hanging_drop(st, late=True)


def _row13(st: _Stroke, c: Claim) -> list[str]:
    return _hanging_drop(st, late=False)


def _row14(st: _Stroke, c: Claim) -> list[str]:
    hung = [e for e in st.record.of_type(EventType.HANGING) if e.ball and e.t <= 0.0 and e.ball != st.s]
    if not hung:
        return ["no ball hangs over a pocket at the strike"]
    h = hung[0]
    b = str(h.ball)
    drop = next((e for e in st.events if e.type == EventType.POCKETED and e.ball == b), None)
    if drop is None:
        return [f"the hanging {b} does not drop"]
    p: list[str] = []
    if any(
        e.t < drop.t and e.type in (EventType.BALL_BALL, EventType.CUSHION) and e.involves(b)
        for e in st.events
    ):
        p.append(f"{b} is touched before it drops")
    if st.contact is not None and st.contact.t <= drop.t:
        p.append("the struck ball meets a ball before the hanging one drops")
    spot = h.pos
    if spot is None:
        p.append("the hanging ball's place is not recorded")
        return p
    R = st.radius()
    if not _reaches(st, spot, drop.t, drop.t + ARRIVAL_WINDOW, 2.0 * R):
        p.append(f"the struck ball does not reach the empty place within {ARRIVAL_WINDOW:g} s of the drop")
    return p


def _reaches(st: _Stroke, spot: Sequence[float], t0: float, t1: float, dist: float) -> bool:
    """Does S come within ``dist`` of ``spot`` between t0 and t1 (its samples, else its events' places)?"""
    rows = (st.record.samples or {}).get(st.s)
    if rows:
        return any(t0 <= r[0] <= t1 and math.hypot(r[1] - spot[0], r[2] - spot[1]) <= dist for r in rows)
    return any(
        t0 <= e.t <= t1 and e.pos is not None and math.hypot(e.pos[0] - spot[0], e.pos[1] - spot[1]) <= dist
        for e in st.of(st.s, st.events)
    )


def _row15(st: _Stroke, c: Claim) -> list[str]:
    subjects = _subjects(st, c.subject)
    if not any(bounced_out_of_pocket(st.record, b) for b in subjects):
        return [f"no {c.subject or 'ball'} goes into a pocket and comes back out onto the bed"]
    if st.record.pocketed():
        return [f"balls are pocketed as well: {st.record.pocketed()}"]
    return []


def _row16(st: _Stroke, c: Claim) -> list[str]:
    b = next((x for x in _subjects(st, c.subject) if out_of_pocket_to_floor(st.record, x)), None)
    if b is None:
        return [f"no {c.subject or 'ball'} flies out of a pocket onto the floor"]
    p: list[str] = []
    if b != st.s and st.status(st.s) != "on_table":
        p.append("the cue ball does not stay on the table")
    others = [x for x in st.record.off_table() if x != b]
    if others:
        p.append(f"other balls leave the table too: {others}")
    return p


def _row17(st: _Stroke, c: Claim, undisturbed: ShotRecord | None = None) -> list[str]:
    if not st.touched() & OUTSIDE_AGENTS:
        return ["no ball touches an outsider (a spectator, the referee)"]
    if undisturbed is not None and _Stroke(undisturbed).touched() & (OUTSIDE_AGENTS | {"person"}):
        return ["the undisturbed run still touches someone"]
    return []


_ROWS: dict[int, Callable[[_Stroke, Claim], list[str]]] = {
    1: _row1,
    2: _row2,
    3: _row3,
    4: _row4,
    5: _row5,
    6: _row6,
    7: _row7,
    8: _row8,
    9: _row9,
    10: _row10,
    11: _row11,
    12: _row12,
    13: _row13,
    14: _row14,
    15: _row15,
    16: _row16,
    18: _row18,
    19: _row19,
}
OFF_TABLE_ROWS = frozenset({2, 3, 16})
# A ball on its way to the floor may meet the floor and the room's walls: part of rows 3 and 16.
ROOM = frozenset({"floor", "wall"})
OWN_TOUCH: dict[int, frozenset[str]] = {
    3: ROOM,
    4: frozenset({"lamp"}),
    5: frozenset({"chalk", "person"}),
    16: ROOM,
    17: OUTSIDE_AGENTS,
}


def _purity(st: _Stroke, c: Claim) -> list[str]:
    """What any case must not show besides its row: a faulty strike, balls off the table, other touches."""
    p: list[str] = []
    row = c.row
    if row not in (6, 11) and st.strike is not None and not st.clean():
        p.append("the strike is a miscue or a scoop (the case would teach that too)")
    if row not in OFF_TABLE_ROWS and st.record.off_table():
        p.append(f"balls end the stroke off the table: {st.record.off_table()}")
    if row in OFF_TABLE_ROWS and c.subject == "object" and st.status(st.s) != "on_table":
        p.append("the cue ball does not stay on the table")
    allowed = TABLE_PARTS | OWN_TOUCH.get(row, frozenset())
    if row == 5:
        allowed = TABLE_PARTS | {"chalk" if c.topic == Topic.CHALK else "person"}
    stray = st.touched() - allowed
    if stray:
        p.append(f"balls touch {sorted(stray)} as well")
    return p


def row_problems(claim: Claim, record: ShotRecord, undisturbed: ShotRecord | None = None) -> list[str]:
    """Every part of the claim the stroke does not show (empty: the case shows what its title says)."""
    st = _Stroke(record)
    if claim.subject is not None and claim.subject not in SUBJECTS:
        return [f"unknown subject {claim.subject!r}"]
    if claim.row == 17:
        found = _row17(st, claim, undisturbed)
    else:
        found = _ROWS[claim.row](st, claim)
    return found + _purity(st, claim)


def incidental_fouls(rulings: Mapping[str, Ruling], row: int | None = None) -> list[str]:
    """Rulings that are fouls only for a reason no row is about (each as ``game: code``).

    A stroke draws one penalty however many rules it breaks, so an unrelated foul beside the row's own (a
    miss by a cue ball that hops straight off the table) leaves the lesson as it is; a ruling that is a
    foul *only* because of one (no cushion after a rail-top return that is itself in play) teaches the
    wrong thing, and the case is spoiled.
    """
    out: list[str] = []
    for g, r in rulings.items():
        codes = [f.code for f in r.fouls]
        unrelated = INCIDENTAL_FOULS if row is None or row in JUMP_SHOT_ROWS else INCIDENTAL_JUMP
        if codes and all(c in unrelated for c in codes):
            out += [f"{g}: {c}" for c in codes]
    return out


def case_claim(case: Any) -> Claim:
    """The claim of a library case (``scenes.core.trainer.cases.Case``)."""
    return Claim(case.topic, getattr(case, "subject", None))


def case_problems(case: Any, record: ShotRecord, rulings: Mapping[str, Ruling] | None = None) -> list[str]:
    """Row problems of a case's stroke plus, given its rulings, the incidental fouls."""
    undisturbed = case.scenario.undisturbed_record() if case.scenario.is_recorded else None
    p = row_problems(case_claim(case), record, undisturbed)
    if rulings is not None:
        p += [f"incidental foul {x}" for x in incidental_fouls(rulings, TOPIC_ROW.get(case.topic))]
    return p
