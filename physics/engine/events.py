"""The stroke's event log: one emitter per event type, each recording the ball's position as it is when
the event is emitted (docs/formats.md §Events; the definitions are in the package's docstring)."""

from __future__ import annotations

from dataclasses import replace

from physics.engine.state import Balls
from physics.record import Event, EventType


class EventLog:
    """Events in the order they were found (the causal order of events at one instant)."""

    def __init__(self, balls: Balls) -> None:
        self.balls = balls
        self.events: list[Event] = []

    def _add(self, event: Event) -> None:
        self.events.append(event)

    def cue_strike(
        self, i: int, miscue: bool, scoop: bool, speed: float, contact_times: tuple[float, ...] = ()
    ) -> None:
        """``contact_times``: the tip's later contacts with the ball, in s after the first (docs/formats.md §Events); the
        event's ``contacts`` counts the first one too."""
        b = self.balls
        self._add(
            Event(
                0.0,
                EventType.CUE_STRIKE,
                ball=b.ids[i],
                miscue=miscue,
                scoop=scoop,
                contacts=1 + len(contact_times),
                contact_times=tuple(round(t, 6) for t in contact_times),
                speed=round(speed, 6),
                pos=b.at(i),
            )
        )

    def tip_again(self, t: float) -> None:
        """The tip met the struck ball again at ``t`` (s after the strike): one more contact on the stroke's
        ``cue_strike`` event (a double hit: the ``contacts`` and ``contact_times`` of docs/formats.md §Events)."""
        for k, e in enumerate(self.events):
            if e.type == EventType.CUE_STRIKE:
                later = (*(e.contact_times or ()), round(t - e.t, 6))
                self.events[k] = replace(e, contacts=1 + len(later), contact_times=later)
                return

    def ball_ball(
        self, t: float, a: int, b: int, speed: float, at: tuple[float, float, float] | None = None
    ) -> None:
        """``at``: ball ``a``'s position where the arrays do not hold it yet (a run of pushes)."""
        ids = self.balls.ids
        pos = self.balls.at(a) if at is None else (round(at[0], 6), round(at[1], 6), round(at[2], 6))
        self._add(Event(t, EventType.BALL_BALL, balls=(ids[a], ids[b]), speed=round(speed, 6), pos=pos))

    def cushion(self, t: float, i: int, cushion: str | None, speed: float | None = None) -> None:
        b = self.balls
        s = None if speed is None else round(speed, 6)
        self._add(Event(t, EventType.CUSHION, ball=b.ids[i], cushion=cushion, speed=s, pos=b.at(i)))

    def pocket_jaw(self, t: float, i: int, pocket: str | None) -> None:
        b = self.balls
        self._add(Event(t, EventType.POCKET_JAW, ball=b.ids[i], pocket=pocket, pos=b.at(i)))

    def pocketed(self, t: float, i: int, pocket: str) -> None:
        b = self.balls
        self._add(Event(t, EventType.POCKETED, ball=b.ids[i], pocket=pocket, pos=b.at(i)))

    def airborne(self, t: float, i: int, speed: float) -> None:
        b = self.balls
        self._add(Event(t, EventType.AIRBORNE, ball=b.ids[i], speed=round(speed, 6), pos=b.at(i)))

    def landed(self, t: float, i: int, on: str, speed: float | None = None) -> None:
        b = self.balls
        s = None if speed is None else round(speed, 6)
        self._add(Event(t, EventType.LANDED, ball=b.ids[i], on=on, speed=s, pos=b.at(i)))

    def touched(self, t: float, i: int, obj: str) -> None:
        b = self.balls
        self._add(Event(t, EventType.TOUCHED, ball=b.ids[i], object=obj, pos=b.at(i)))

    def jumped_over(self, t: float, flier: int, other: int) -> None:
        b = self.balls
        self._add(Event(t, EventType.JUMPED_OVER, ball=b.ids[flier], over=b.ids[other], pos=b.at(flier)))

    def line_crossed(self, t: float, i: int, line: str, at: tuple[float, float, float]) -> None:
        self._add(Event(t, EventType.LINE_CROSSED, ball=self.balls.ids[i], line=line, pos=at))

    def left_table(self, t: float, i: int) -> None:
        b = self.balls
        self._add(Event(t, EventType.LEFT_TABLE, ball=b.ids[i], pos=b.at(i)))

    def returned(self, t: float, i: int) -> None:
        b = self.balls
        self._add(Event(t, EventType.RETURNED, ball=b.ids[i], pos=b.at(i)))

    def rest(self, t: float, i: int, at: tuple[float, float, float] | None = None) -> None:
        b = self.balls
        pos = b.at(i) if at is None else (round(at[0], 6), round(at[1], 6), round(at[2], 6))
        self._add(Event(t, EventType.REST, ball=b.ids[i], pos=pos))

    def hanging(self, t: float, i: int, pocket: str) -> None:
        b = self.balls
        self._add(Event(t, EventType.HANGING, ball=b.ids[i], pocket=pocket, pos=b.at(i)))

    def off_table(self, t: float, i: int, rest: str) -> None:
        b = self.balls
        self._add(Event(t, EventType.OFF_TABLE, ball=b.ids[i], rest=rest, pos=b.at(i)))

    def finished(self) -> list[Event]:
        """The log in time order (stable: events at one instant keep their causal order), times as floats."""
        out = [e if type(e.t) is float else replace(e, t=float(e.t)) for e in self.events]
        out.sort(key=lambda e: e.t)
        return out
