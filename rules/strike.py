"""The strike as the record tells it: every tip contact, and whether the tip was still on the cue ball when it
met an object ball (a push), for every rulebook's double-hit and push fouls.

docs/formats.md's ``cue_strike`` carries ``contacts`` (how many times the tip met the ball; more than one is a
double hit) and ``contact_times`` (seconds after the first contact). A record without them had one contact.
``contact_times`` lists the later contacts; a list that also gives the first (as many times as contacts, the
first 0) is read the same way.

The record gives when each contact began, not how long it lasted: the tip stays on the ball about a
millisecond (docs/physics.md §Cues: ~1 ms, 0.8 ms at break speed), so the tip is taken to be on the ball from each
contact's start for :data:`TIP_CONTACT_S`. A push is the tip on the cue ball when the cue ball meets the
object ball (003 «Удар по битку»: «пропих ... затягивает время контакта наклейки кия с битком и
проталкивает одновременно биток и прицельный шар»; 000 «Пропих (в снукере)» (1); 000 «Запрет двойных
ударов»: «наклейка касается битка в то время, как биток касается ... прицельного шара»).
"""

from __future__ import annotations

from dataclasses import dataclass

from physics.record import BallId, EventType, ShotRecord
from rules import filters as F

TIP_CONTACT_S = (
    0.001  # how long the tip stays on the ball (docs/physics.md §Cues: ~1 ms, 0.8 ms at break speed)
)


@dataclass(frozen=True)
class TipContacts:
    """When the tip met the struck ball (s from the record's start), and how many times in all (a record may
    give the count without every time)."""

    times: tuple[float, ...]
    count: int

    @property
    def double(self) -> bool:
        return self.count >= 2

    def on_ball_at(self, t: float) -> float | None:
        """The start of the tip contact still on the ball at ``t``, or None."""
        for tk in self.times:
            if tk - 1e-9 <= t < tk + TIP_CONTACT_S:
                return tk
        return None

    def after(self, t: float) -> float | None:
        """The first tip contact that began after ``t`` (the tip meeting the ball again once it had met an
        object ball), or None."""
        for tk in self.times:
            if tk > t + 1e-9:
                return tk
        return None


def tip_contacts(record: ShotRecord) -> TipContacts:
    """Every tip contact of the record's ``cue_strike`` events."""
    times: list[float] = []
    count = 0
    for e in F.select(record.events, F.by_type(EventType.CUE_STRIKE)):
        later = tuple(e.contact_times or ())
        n = e.contacts if e.contacts is not None else 1 + len(later)
        if later and len(later) == n and later[0] == 0.0:
            later = later[1:]  # the list gave the first contact too
        times += [e.t] + [e.t + x for x in later]
        count += max(n, 1 + len(later))
    return TipContacts(tuple(sorted(times)), count)


@dataclass(frozen=True)
class Push:
    """The tip was on the cue ball (from ``tip_t``) when it met ``ball`` at ``t``."""

    ball: BallId
    t: float
    tip_t: float

    @property
    def ms(self) -> float:
        """How long after the tip's contact began the balls met, in ms."""
        return 1000.0 * (self.t - self.tip_t)


def push(record: ShotRecord, first: BallId | None, first_t: float | None) -> Push | None:
    """The tip still on the cue ball when it met its first object ball, or None."""
    if first is None or first_t is None:
        return None
    tk = tip_contacts(record).on_ball_at(first_t)
    return Push(first, first_t, tk) if tk is not None else None


def push_unless_frozen(
    record: ShotRecord,
    cue: BallId,
    first: BallId | None,
    first_t: float | None,
    radius: float,
) -> Push | None:
    """:func:`push`, except where the cue ball started frozen to the ball it met: a frozen ball is met the
    instant the tip strikes, so the texts judge that stroke by its own rule (003's 45°, WPA's "any normal
    stroke", snooker's touching ball), not as a push."""
    p0, p1 = F.initial_xy(record, cue), F.initial_xy(record, first) if first is not None else None
    if p0 is not None and p1 is not None and F.dist(p0, p1) <= 2 * radius + F.FROZEN_TOL:
        return None
    return push(record, first, first_t)
