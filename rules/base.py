"""The referee base class: ``judge(state, record) -> Ruling`` built from hooks each game overrides.

How a game is written (see ``rules/games/russian.py`` for complete examples)::

    @register
    class EightBall(Referee):
        id = "pool-8-ball"; table_id = "pool-9ft"; aliases = ("8-ball",)
        names = {"en": "8-ball", "ru": "Восьмёрка"}
        family = Family.POOL                           # the rulebook family (trainer, HUD)
        balls = ("cue", "1", ..., "15")
        break_in_hand = InHand.BEHIND_HEAD_STRING
        fixtures = frozenset({"rail_top", "frame"})     # a ball may touch these and come back in play
        state_type = PoolState                          # the family's frozen match progress

        def rack_spec(self, n): return Rack(rows=...)   # what is racked; physics lays it out

        def check_fouls(self, s: Stroke, d: Draft) -> None: ...   # d.fouls.append(self.foul(...))
        def count(self, s, d): ...        # d.counted
        def score(self, s, d): ...        # d.points / d.scores (default: copies state scores)
        def place(self, s, d): ...        # d.positions / d.respot / d.out_of_play (default below)
        def hand_over(self, s, d): ...    # d.next_player / d.in_hand / d.options
        def end_frame(self, s, d): ...    # d.frame_over / d.winner

``judge`` runs: ``stroke()`` (facts from the record, once) → ``undisturb()`` (only with an undisturbed
outcome, below) → ``replay_reason()`` (no-penalty replays) →
``check_fouls`` → ``count`` → ``score`` → ``place`` → ``hand_over`` → ``end_frame`` → ``explain`` →
a frozen :class:`Ruling`. The :class:`Draft` is the only mutable object and never leaves ``judge``.

:class:`Stroke` precomputes what every game asks: the striker, the struck ball, the first ball it
touched, the balls pocketed by the stroke (without hanging balls that dropped too late), balls off the
table under this game's idea of the table (``fixtures``: what a ball may touch and still come back in
play - the lamp is a fixture in Russian billiards, not in pool), touches of players' things.

A game declares everything the rest of the program asks of it: its id and names, its table(s), its ball
set and rack, its family, whether strokes are called (``calls``), where the ball in hand may go
(:meth:`Referee.may_place`) and what the player at the table must do next (:meth:`Referee.required`). The
registry (``rules/registry.py``) is the only list of games.

Outside interference. A rulebook that restores the position and replays the stroke needs nothing but the
record. One that puts a disturbed ball where it would have come to rest (WPBSA S3 R15) needs to know where
that is, and only physics can say: the caller may pass ``judge(..., undisturbed=record)``, the same stroke
simulated without the outsider (a trainer case stores it as ``[undisturbed]``). ``rules/`` never runs the
physics itself. Without it such a rulebook cannot judge the disturbed ball and falls back to a replay.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import ClassVar

from physics.errors import InputError
from physics.objects import SceneObject
from physics.racks import Rack, initial_layout
from physics.record import BallFinal, BallId, BallStatus, Event, EventType, ShotRecord
from physics.tables import TableSpec, load_table
from rules import filters as F
from rules.contract import (
    CallKind,
    Family,
    FamilyState,
    NoteCode,
    Option,
    Phase,
    RefereeWarning,
    Required,
    WarningCode,
)
from rules.interference import OUTSIDE_AGENTS, free_point, referee_view
from rules.names import ball_en, ball_ru, balls_list, capital
from rules.ruling import Alternative, Choice, Foul, FoulCode, InHand, Note, Point, Respot, Ruling, Text
from rules.sources import cite_text
from rules.state import MatchState
from rules.strike import tip_contacts

# Things a flying ball may meet. Which of them keep the ball in play is each game's ``fixtures``. A person's
# things are someone's (``owner``): the striker's by default, the opponent's (``opponent``, or an
# [[objects]] entry with owner = "opponent"), or an outsider's (OUTSIDE_AGENTS, owner spectator/referee).
PLAYER_OBJECTS = frozenset({"chalk", "cue", "hand", "clothing", "bridge", "person", "player", "opponent"})
# The touched object a scenario's [[objects]] kind makes (physics/geometry.py names the bodies so).
_OBJECT_KIND = {"chalk": "chalk", "person": "person", "cue": "cue-on-rail"}
# With no position on the event, where such a touch most likely was: chalk, cue, bridge and hand are on
# or over the table; a person's body and clothes stand beside it.
_WITHIN_BY_DEFAULT = frozenset(
    {"chalk", "cue", "hand", "bridge", "rail_top", "frame", "lamp", "bracket", "pocket", "opponent"}
)


def text(en: str, ru: str) -> Text:
    return {"en": en, "ru": ru}


@dataclass(frozen=True)
class Placement:
    """Whether the ball in hand may stand at a point, and if not, why (``en``/``ru``) and whether the
    referee warns the player (003: a cue ball placed outside the house is warned about before it counts)."""

    ok: bool
    why: Text = field(default_factory=dict)
    warning: WarningCode | None = None


def touch_owners(record: ShotRecord, objects: Sequence[SceneObject]) -> tuple[str | None, ...]:
    """Whose thing each event of ``record`` touched, aligned with ``record.events``: ``"striker"``,
    ``"opponent"``, an outside agent (``"spectator"``, ``"referee"``, ``"outsider"``, ``"wind"``), or None (not
    a touch of a person's thing: the rail top, the lamp, the floor...). A touch of an [[objects]] entry's kind
    takes the owner of the entry nearest to it."""
    out: list[str | None] = []
    for e in record.events:
        obj = e.object
        if e.type != EventType.TOUCHED or obj is None:
            out.append(None)
        elif obj in OUTSIDE_AGENTS:
            out.append(obj)
        elif obj == "opponent":
            out.append("opponent")
        elif obj in _OBJECT_KIND and any(o.kind == _OBJECT_KIND[obj] for o in objects):
            mine = [o for o in objects if o.kind == _OBJECT_KIND[obj]]
            if e.pos is not None:
                p = e.pos
                mine.sort(key=lambda o: (o.at[0] - p[0]) ** 2 + (o.at[1] - p[1]) ** 2)
            out.append(mine[0].owner)
        else:
            out.append("striker" if obj in PLAYER_OBJECTS else None)
    return tuple(out)


@dataclass(frozen=True)
class Interference:
    """A disturbance judged from the undisturbed outcome (WPBSA S3 R15; 003 «Вмешательство соперника»).

    ``balls`` were put where the undisturbed stroke says they would have come to rest (the ball the outsider
    touched and every ball whose motion that changed); ``t`` is the first touch; ``actual`` is the stroke as it
    happened, while :attr:`Stroke.record` becomes the referee's view of it (see ``rules/games/snooker.py``).
    """

    agent: str
    t: float
    balls: tuple[BallId, ...]
    actual: ShotRecord


@dataclass(frozen=True)
class Stroke:
    """Facts of one stroke every game's hooks read (computed once per ``judge``)."""

    state: MatchState
    record: ShotRecord
    table: TableSpec
    striker: int
    cue: BallId  # the cue ball (Американка: the ball the tip met)
    first: BallId | None  # the first ball the cue ball touched
    first_t: float | None
    pocketed: tuple[BallId, ...]  # dropped during the stroke (in order), late drops excluded
    restored: Mapping[BallId, Point]  # hanging balls that dropped after the stroke: put back
    jumped: tuple[BallId, ...]  # off the table under this game's fixtures
    touched_within: tuple[tuple[BallId, str], ...]  # (ball, object): players' things within the table
    outside_agent: str | None  # an outsider set a ball moving
    strikes: int  # tip contacts (rules.strike: every cue_strike's ``contacts``; 2+ = double hit)
    miscue: bool
    scoop: bool
    struck: BallId = ""  # the ball the tip met (a foul when it is not the cue ball)
    interference: Interference | None = None  # set by ``undisturb`` when an undisturbed outcome was used
    # (ball, object, inside the table's outline) the opponent touched or stopped (003 «Вмешательство соперника»)
    opponent_touches: tuple[tuple[BallId, str, bool], ...] = ()
    objects: tuple[SceneObject, ...] = ()  # the scenario's [[objects]] (their owners)
    owners: tuple[str | None, ...] = ()  # touch_owners(record, objects)
    stop_note: Text | None = None  # how the referee decided where a ball the opponent stopped was going

    @property
    def opponent(self) -> int:
        return self.state.opponent(self.striker)

    @property
    def initial(self) -> dict[BallId, Point]:
        return {b: (p[0], p[1]) for b, p in self.record.initial.items()} or dict(self.state.balls)

    def final_positions(self) -> dict[BallId, Point]:
        """Balls resting on the bed after the stroke (jumped ones excluded), hanging balls restored."""
        out: dict[BallId, Point] = {}
        for b, f in self.record.final.items():
            if f.status == BallStatus.ON_TABLE and b not in self.jumped:
                p = F.final_xy(self.record, b)
                if p is not None:
                    out[b] = p
        for b, p in self.restored.items():
            out[b] = p
        return out


@dataclass
class Draft:
    """The ruling under construction (mutable; only inside ``Referee.judge``)."""

    scores: list[int]
    positions: dict[BallId, Point]
    next_player: int
    cue: BallId
    owed: list[int]
    phase: Phase
    ball_on: str | None
    family: FamilyState
    fouls: list[Foul] = field(default_factory=list)
    counted: list[BallId] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    off_table: list[BallId] = field(default_factory=list)
    respot: list[Respot] = field(default_factory=list)
    in_hand: InHand | None = None
    options: list[Option] = field(default_factory=list)
    frame_over: bool = False
    winner: int | None = None
    credit: dict[int, list[BallId]] = field(default_factory=dict)
    from_shelf: list[BallId] = field(default_factory=list)
    out_of_play: list[BallId] = field(default_factory=list)
    choice: Choice | None = None
    warnings: list[Note] = field(default_factory=list)
    others: list[Foul] = field(default_factory=list)  # fouls by someone other than the striker (Foul.by)
    standing: list[RefereeWarning] = field(default_factory=list)  # warnings in force after the stroke
    alternatives: dict[Option, Alternative] = field(default_factory=dict)
    worth: int = 0  # snooker: the highest penalty of the stroke's fouls
    notes: list[Text] = field(default_factory=list)  # sentences for the summary

    @property
    def foul(self) -> bool:
        return bool(self.fouls)

    def has(self, code: FoulCode) -> bool:
        return any(f.code == code for f in self.fouls)

    def lift(self, code: WarningCode, player: int) -> None:
        self.standing = [w for w in self.standing if not (w.code == code and w.player == player)]

    def warn(self, code: WarningCode, player: int) -> None:
        if not any(w.code == code and w.player == player for w in self.standing):
            self.standing.append(RefereeWarning(code, player))


class Referee:
    """One game's rulebook. Subclasses declare the class attributes and override hooks."""

    id: ClassVar[str]
    names: ClassVar[Mapping[str, str]]
    table_id: ClassVar[str]  # the game's own table (docs/formats.md §Names)
    other_tables: ClassVar[tuple[str, ...]] = ()  # other tables the game may be played on
    family: ClassVar[Family]
    calls: ClassVar[bool] = False  # ball and pocket are called before every stroke
    aliases: ClassVar[tuple[str, ...]] = ()
    balls: ClassVar[tuple[BallId, ...]] = ()
    cue_ball: ClassVar[BallId] = "cue"
    any_ball_cue: ClassVar[bool] = False  # Американка: any ball may be struck
    cue_may_be_credited: ClassVar[bool] = False  # Американка: the striking ball can be pocketed and counted
    shelf_game: ClassVar[bool] = False  # the score is the number of balls on the shelf
    negative_scores: ClassVar[bool] = False  # a foul can take a score below 0 (71, Moscow, 14.1)
    player_range: ClassVar[tuple[int, int]] = (2, 2)
    break_in_hand: ClassVar[InHand | None] = InHand.HOUSE
    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.BREAK, Phase.PLAY})
    fixtures: ClassVar[frozenset[str]] = frozenset({"rail_top", "frame", "bracket", "pocket"})
    # 000 (general pool rules): a hanging ball still this long after the stroke, then falling, is put back.
    hanging_seconds: ClassVar[float] = 5.0
    # 003 «Зависшие шары» (and WPBSA S3 R9): a hanging ball that falls after the stroke has ended is put back,
    # whatever the seconds; the five seconds are then not asked.
    hanging_until_end: ClassVar[bool] = False
    # WPBSA S3 R15: a ball disturbed by anyone but the striker - the opponent too - is outside interference.
    opponent_is_outsider: ClassVar[bool] = False
    state_type: ClassVar[type[FamilyState]] = FamilyState
    # The international rules (WPBSA, WPA) govern the game, so verdicts cite them beside the Russian text
    # (rules.sources); 000's American snooker is a game of its own.
    world_rules: ClassVar[bool] = True

    def __init__(self, table: str | None = None) -> None:
        """A referee for one table: the game's own by default, or another it is played on (``tables()``)."""
        tid = self.table_id if table is None else table
        if tid not in self.tables():
            raise InputError("table", tid, f"a table {self.id} is played on: {', '.join(self.tables())}")
        self.table_played = tid

    # --- declarations -----------------------------------------------------------------------
    @cached_property
    def table(self) -> TableSpec:
        """The table this referee's match is played on (``table_played``)."""
        return load_table(self.table_played)

    @classmethod
    def tables(cls) -> tuple[str, ...]:
        """The tables the game is played on, its own first."""
        return (cls.table_id, *cls.other_tables)

    def ball_set(self, n_players: int) -> tuple[BallId, ...]:
        return self.balls

    def rack_spec(self, n_players: int) -> Rack:
        """What a fresh frame racks (the cue ball left out when it starts in hand)."""
        raise NotImplementedError

    def rack(self, n_players: int) -> dict[BallId, Point]:
        """The layout of a fresh frame on the game's table."""
        return initial_layout(self.rack_spec(n_players), self.table)

    @property
    def source_family(self) -> Family | None:
        """The family whose texts this referee cites (None for a referee that declares none)."""
        return getattr(self, "family", None)

    def foul(self, code: FoulCode, rule: str, en: str, ru: str) -> Foul:
        return Foul(code, rule, text(en, ru))

    # --- before the stroke: placing the ball in hand, what is required --------------------------
    def in_hand_area(self, zone: InHand, others: Mapping[BallId, Point]) -> Placement | None:
        """``None`` when ``zone`` is this game's business to refine (the house); see :meth:`may_place`."""
        return None

    def may_place(self, state: MatchState, x: float, y: float, others: Mapping[BallId, Point]) -> Placement:
        """May the striker put the ball in hand at (x, y), with the other balls at ``others``?

        On the bed, overlapping no ball, inside the zone the state names (a ball's position is its
        centre; docs/formats.md's in_hand zones). Games refine the zone (the house's rules: :meth:`place_in_zone`)."""
        t = self.table
        r, reach = t.ball_radius, t.cushion_reach  # a ball may be put down touching a cushion
        if (
            not (math.isfinite(x) and math.isfinite(y))
            or abs(x) > t.half_length - reach
            or abs(y) > t.half_width - reach
        ):
            return Placement(False, text("not on the bed", "вне игрового поля"))
        for b, (ox, oy) in others.items():
            if math.hypot(x - ox, y - oy) < 2 * r:
                return Placement(False, text(f"it would overlap {ball_en(b)}", f"мешает {ball_ru(b)}"))
        zone = state.in_hand
        if zone is None or zone == InHand.ANYWHERE:
            return Placement(True)
        return self.place_in_zone(state, zone, x, y, others)

    def place_in_zone(
        self, state: MatchState, zone: InHand, x: float, y: float, others: Mapping[BallId, Point]
    ) -> Placement:
        t = self.table
        head = t.lines["head-string"]
        if zone == InHand.BEHIND_HEAD_STRING:
            ok = x < head  # 000 «Дом и передняя линия»: the string is not part of the kitchen
            return Placement(ok, {} if ok else text("behind the head string", "за передней линией"))
        if zone == InHand.D:
            ok = x <= head and math.hypot(x - head, y) <= (t.d_radius or 0.0)
            return Placement(ok, {} if ok else text("on or inside the D", "на линии или внутри «D»"))
        ok = x < head
        return Placement(ok, {} if ok else text("in the house", "в доме"))

    def hand_spot(self, state: MatchState, others: Mapping[BallId, Point]) -> Point:
        """Where the ball in hand starts before the player moves it: the middle of its zone."""
        t = self.table
        head = t.lines["head-string"]
        if state.in_hand == InHand.D:
            return (head - (t.d_radius or 0.0) / 2, 0.0)
        if state.in_hand in (InHand.BEHIND_HEAD_STRING, InHand.HOUSE):
            return ((head - t.half_length) / 2, 0.0)
        return t.spots.get("head-spot", (head, 0.0))

    def required(self, state: MatchState) -> Required:
        """What the player at the table must do next (the HUD shows it)."""
        return Required(
            ball_on=self.ball_on(state),
            call=self.call_needed(state),
            in_hand=state.in_hand,
            warnings=tuple(w for w in state.warnings if w.player == state.to_play),
            touching=self.touching_ball(state),
        )

    def touching_ball(self, state: MatchState) -> BallId | None:
        """The ball the referee announces as touching the cue ball before the stroke (snooker), or None."""
        return None

    def ball_on(self, state: MatchState) -> tuple[str, ...]:
        """Balls (or a group) the cue ball must meet first; empty when any object ball will do."""
        return ()

    def call_needed(self, state: MatchState) -> CallKind:
        return CallKind.BALL_AND_POCKET if self.calls and not state.is_break else CallKind.NONE

    # --- the template -----------------------------------------------------------------------
    def judge(
        self,
        state: MatchState,
        record: ShotRecord,
        undisturbed: ShotRecord | None = None,
        objects: Sequence[SceneObject] = (),
    ) -> Ruling:
        """``undisturbed``: optional, the same stroke without an outsider's or the opponent's interference
        (module docstring); ``objects``: the scenario's ``[[objects]]``, whose each one is (``owner``)."""
        s = self.stroke(state, record, objects)
        if undisturbed is not None and s.outside_agent is not None:
            s = self.undisturb(s, undisturbed)
        elif undisturbed is not None and s.opponent_touches:
            # 003 «Вмешательство соперника»: the referee restores the position as exactly as he can - the
            # undisturbed run says where the balls the opponent disturbed would have come to rest.
            s = self.as_undisturbed(s, undisturbed, self.opponent_events(s))
        elif s.opponent_touches:
            s = self.stopped_from_record(s)
        d = Draft(
            scores=list(state.scores),
            positions={},
            next_player=s.striker,
            cue=state.cue,
            owed=list(state.owed),
            phase=Phase.PLAY if state.phase == Phase.BREAK else state.phase,
            ball_on=state.ball_on,
            family=state.family,
            points=[0] * state.n_players,
            standing=list(state.warnings),
        )
        reason = self.replay_reason(s)
        if reason is not None:
            return self.replay_ruling(s, d, reason)
        self.check_fouls(s, d)
        self.count(s, d)
        self.score(s, d)
        if s.opponent_touches:
            self.opponent_interfered(s, d)
        self.place(s, d)
        self.hand_over(s, d)
        if s.opponent_touches:
            self.after_interference(s, d)
        self.end_frame(s, d)
        return self.freeze(s, d)

    def opponent_events(self, s: Stroke) -> list[Event]:
        return [e for e, o in zip(s.record.events, s.owners, strict=True) if o == "opponent"]

    def outside_events(self, s: Stroke) -> list[Event]:
        return [e for e, o in zip(s.record.events, s.owners, strict=True) if o in OUTSIDE_AGENTS]

    def as_undisturbed(self, s: Stroke, undisturbed: ShotRecord, touches: Sequence[Event]) -> Stroke:
        """The stroke judged with the balls ``touches`` disturbed where the undisturbed run puts them."""
        view, agent, t0, moved = referee_view(s.record, undisturbed, touches)
        # A place taken by a ball that was not disturbed (an undisturbed run made by hand) is moved aside.
        fixed: dict[BallId, BallFinal] = {}
        placed = {
            b: p
            for b in view.final
            if b not in moved
            and (p := F.final_xy(view, b)) is not None
            and view.final[b].status == BallStatus.ON_TABLE
        }
        for b in moved:
            f = view.final.get(b)
            p = F.final_xy(view, b) if f is not None and f.status == BallStatus.ON_TABLE else None
            if p is None:
                continue
            q = free_point(self.table, p, placed)
            placed[b] = q
            if q != p:
                fixed[b] = BallFinal(BallStatus.ON_TABLE, (q[0], q[1], self.table.ball_radius))
        if fixed:
            view = replace(view, final={**view.final, **fixed})
        judged = self.stroke(s.state, view, s.objects)
        return replace(
            judged,
            outside_agent=agent if s.outside_agent is not None else None,
            opponent_touches=s.opponent_touches,
            interference=Interference(agent=agent, t=t0, balls=moved, actual=s.record),
        )

    def stopped_from_record(self, s: Stroke) -> Stroke:
        """The opponent stopped a ball and no undisturbed run was given: the stroke as the rulebook judges it
        from the record alone (003: a ball stopped on its way to a pocket counts). Default: as it happened."""
        return s

    def opponent_interfered(self, s: Stroke, d: Draft) -> None:
        """The opponent touched or stopped a ball (after ``score``): record his foul and its penalty."""

    def after_interference(self, s: Stroke, d: Draft) -> None:
        """Who plays after the opponent's interference (after ``hand_over``); default: as the stroke says."""

    def stroke(self, state: MatchState, record: ShotRecord, objects: Sequence[SceneObject] = ()) -> Stroke:
        table = self.table
        owners = touch_owners(record, objects)
        struck = F.struck_ball(record, state.cue)
        cue = struck if self.any_ball_cue else state.cue
        fc = F.first_contact(record, cue)
        late = self.late_drops(record)
        restored: dict[BallId, Point] = {}
        for b in late:
            p = F.hanging_position(record, b) or F.initial_xy(record, b)
            if p is not None:
                restored[b] = p
        jumped: list[BallId] = []
        within: list[tuple[BallId, str]] = []
        by_opponent: list[tuple[BallId, str, bool]] = []
        agent: str | None = None
        for e, owner in zip(record.events, owners, strict=True):
            if e.type != EventType.TOUCHED or e.ball is None or e.object is None:
                continue
            if owner in OUTSIDE_AGENTS or (owner == "opponent" and self.opponent_is_outsider):
                agent = agent or (owner if e.object in _OBJECT_KIND else e.object)
                continue
            # A fixture is part of the table wherever it was met (a frame's apron lies beyond the rail top).
            inside = e.object in self.fixtures or self.within_table(e.object, e.pos)
            if owner == "opponent":
                by_opponent.append((e.ball, e.object, inside))
                if inside:
                    continue  # the opponent touched or stopped it on the table: interference, not a jumped ball
            elif e.object in PLAYER_OBJECTS and inside:
                within.append((e.ball, e.object))
            if self.touch_jumps(e.object, inside) and e.ball not in jumped:
                jumped.append(e.ball)
        for b, f in record.final.items():
            if f.status == BallStatus.OFF_TABLE and b not in jumped:
                jumped.append(b)
        # A ball that left the bed and is "on_table" again without a `returned` is trusted to the physics.
        # A jumped ball that then dropped into a pocket is still a jumped ball, not a pocketed one.
        pocketed = tuple(b for b in F.pocketed_order(record) if b not in restored and b not in jumped)
        strikes = F.select(record.events, F.by_type(EventType.CUE_STRIKE))
        return Stroke(
            state=state,
            record=record,
            table=table,
            striker=state.to_play,
            cue=cue,
            first=F.other(fc, cue) if fc is not None else None,
            first_t=fc.t if fc is not None else None,
            pocketed=pocketed,
            restored=restored,
            jumped=tuple(jumped),
            touched_within=tuple(within),
            outside_agent=agent,
            strikes=tip_contacts(record).count,
            miscue=any(bool(e.miscue) for e in strikes),
            scoop=any(bool(e.scoop) for e in strikes),
            struck=struck,
            opponent_touches=tuple(by_opponent),
            objects=tuple(objects),
            owners=owners,
        )

    def late_drops(self, record: ShotRecord) -> dict[BallId, float]:
        """Hanging balls that dropped too late to count, ``{ball: seconds after the stroke ended}``: after the
        stroke ended (``hanging_until_end``), or ``hanging_seconds`` or more after it."""
        if not self.hanging_until_end:
            return F.late_drops(record, self.hanging_seconds)
        return {
            e.ball: e.after or 0.0
            for e in F.select(record.events, F.by_type(EventType.DROPPED))
            if e.ball is not None and F.fell_after_stroke(record, e)
        }

    def touch_jumps(self, obj: str, inside: bool) -> bool:
        """Does touching ``obj`` make a ball jumped even if it comes back? (003: Выскочившие шары: anything
        beyond the table does; within it a fixture or a player's thing leaves it in play.) Pool overrides."""
        return not inside or (obj not in self.fixtures and obj not in PLAYER_OBJECTS)

    def within_table(self, obj: str, pos: tuple[float, float, float] | None) -> bool:
        """Is a touch at ``pos`` within the table's outline (bed, cushions, rail tops)?"""
        if pos is None:
            return obj in _WITHIN_BY_DEFAULT
        t = self.table
        margin = t.cushion_width + t.rail_width
        return (
            abs(pos[0]) <= t.half_length + margin
            and abs(pos[1]) <= t.half_width + margin
            and pos[2] >= t.floor_z + 0.05
        )

    def fell_unaided(self, s: Stroke) -> BallId | None:
        """An object ball that fell into a pocket before anything touched it: a hanging ball dropping by
        itself during the stroke (every rulebook restores the position and replays the stroke). Only a
        ball that started on a pocket's lip (centre within two radii of the pocket's centre) can hang; a
        log written by hand may leave out the contacts of a chain through a rack."""
        t = self.table
        for b in s.pocketed:
            e = F.first(s.record.events, F.by_type(EventType.POCKETED), F.by_ball(b))
            if b == s.cue or e is None or F.contacted(s.record, b, until=e.t + 1e-9):
                continue
            p0 = s.record.initial.get(b)
            if p0 is not None and any(
                (p0[0] - pk.centre[0]) ** 2 + (p0[1] - pk.centre[1]) ** 2 < (2 * t.ball_radius) ** 2
                for pk in t.pockets.values()
            ):
                return b
        return None

    def fell_unaided_note(self, s: Stroke, rule: str) -> Note | None:
        """The replay note for :meth:`fell_unaided` under ``rule`` (the rulebook's own section), or None."""
        b = self.fell_unaided(s)
        if b is None:
            return None
        return Note(
            NoteCode.HANGING_BALL_FELL,
            rule,
            text(
                f"{capital(ball_en(b))} fell into the pocket by itself before the cue ball reached it: the balls are put back "
                "and the stroke is replayed with no penalty.",
                f"{capital(ball_ru(b))} сам упал в лузу до соударения с битком: шары возвращаются на свои места, удар "
                "повторяется без штрафа.",
            ),
        )

    # --- hooks (override what differs) ----------------------------------------------------
    def undisturb(self, s: Stroke, undisturbed: ShotRecord) -> Stroke:
        """The stroke as the referee judges it when an outsider disturbed balls and the undisturbed outcome is
        known. Default: unchanged - the rulebook restores the position and replays (``replay_reason``)."""
        return s

    def replay_reason(self, s: Stroke) -> Note | None:
        """A stroke replayed with no penalty and the position restored, or None."""
        return None

    def check_fouls(self, s: Stroke, d: Draft) -> None:
        raise NotImplementedError

    def count(self, s: Stroke, d: Draft) -> None:
        raise NotImplementedError

    def score(self, s: Stroke, d: Draft) -> None:
        d.scores = [sc + p for sc, p in zip(d.scores, d.points, strict=True)]

    def place(self, s: Stroke, d: Draft) -> None:
        """Default: balls stay where they stopped; the game adds respots."""
        d.positions = s.final_positions()
        d.off_table = list(s.jumped)

    def hand_over(self, s: Stroke, d: Draft) -> None:
        d.next_player = s.striker if (d.counted and not d.foul) else s.opponent

    def end_frame(self, s: Stroke, d: Draft) -> None:
        pass

    def explain(self, s: Stroke, d: Draft) -> Text:
        """The summary: fouls, counted balls, who plays - from the draft, in both languages."""
        en: list[str] = []
        ru: list[str] = []
        for f in d.fouls:
            # The rule texts by their own titles and sections (rules.sources), not by file names.
            en.append(
                f"Foul ({cite_text(f.rule, self.source_family, 'en', self.world_rules)}): {f.explain['en'].rstrip('.')}."
            )
            ru.append(
                f"Нарушение ({cite_text(f.rule, self.source_family, 'ru', self.world_rules)}): {f.explain['ru'].rstrip('.')}."
            )
        for n in d.notes:
            en.append(n["en"])
            ru.append(n["ru"])
        if d.counted:
            en.append(f"Counted: {balls_list(d.counted, 'en')}.")
            ru.append(f"Засчитаны: {balls_list(d.counted, 'ru')}.")
        nxt = s.state.players[d.next_player]
        en.append(f"Next: {nxt}" + (f", in hand {_IN_HAND_EN[d.in_hand]}" if d.in_hand else "") + ".")
        ru.append(
            f"Следующий удар: {nxt}" + (f", с руки ({_IN_HAND_RU[d.in_hand]})" if d.in_hand else "") + "."
        )
        if d.frame_over and d.winner is not None:
            en.append(f"Frame over: {s.state.players[d.winner]} wins.")
            ru.append(f"Партия окончена: победил {s.state.players[d.winner]}.")
        return text(" ".join(en), " ".join(ru))

    # --- assembling -------------------------------------------------------------------------
    def replay_ruling(self, s: Stroke, d: Draft, reason: Note) -> Ruling:
        st = s.state
        return Ruling(
            foul=False,
            fouls=(),
            counted=(),
            points=(0,) * st.n_players,
            scores=st.scores,
            off_table=(),
            respot=(),
            next_player=s.striker,
            in_hand=st.in_hand,
            options=(),
            frame_over=False,
            winner=None,
            striker=s.striker,
            positions=dict(st.balls),
            cue=st.cue,
            owed=st.owed,
            replay=True,
            warnings=(replace(reason, family=self.source_family, world=self.world_rules),),
            phase=st.phase,
            ball_on=st.ball_on,
            family=st.family,
            standing=st.warnings,
            game=self.id,
            explain=text(
                f"Replay ({cite_text(reason.rule, self.source_family, 'en', self.world_rules)}): {reason.explain['en']}",
                f"Удар повторяется ({cite_text(reason.rule, self.source_family, 'ru', self.world_rules)}): {reason.explain['ru']}",
            ),
        )

    def freeze(self, s: Stroke, d: Draft) -> Ruling:
        fam = self.source_family
        return Ruling(
            foul=d.foul,
            fouls=tuple(replace(f, family=fam, world=self.world_rules) for f in (*d.fouls, *d.others)),
            counted=tuple(d.counted),
            points=tuple(d.points),
            scores=tuple(d.scores),
            off_table=tuple(d.off_table),
            respot=tuple(d.respot),
            next_player=d.next_player,
            in_hand=d.in_hand,
            options=tuple(d.options),
            frame_over=d.frame_over,
            winner=d.winner,
            striker=s.striker,
            positions=dict(d.positions),
            cue=d.cue,
            credit={p: tuple(b) for p, b in d.credit.items() if b},
            from_shelf=tuple(d.from_shelf),
            out_of_play=tuple(d.out_of_play),
            owed=tuple(d.owed),
            choice=d.choice,
            replay=False,
            warnings=tuple(replace(w, family=fam, world=self.world_rules) for w in d.warnings),
            phase=d.phase,
            ball_on=d.ball_on,
            family=d.family,
            standing=tuple(d.standing),
            alternatives=dict(d.alternatives),
            explain=self.explain(s, d),
            game=self.id,
            match_over=d.frame_over
            and d.winner is not None
            and s.state.frames_won[d.winner] + 1 >= s.state.frames_to_win,
        )


_IN_HAND_EN = {
    InHand.HOUSE: "in the house",
    InHand.D: "in the D",
    InHand.BEHIND_HEAD_STRING: "behind the head string",
    InHand.ANYWHERE: "anywhere on the table",
    None: "",
}
_IN_HAND_RU = {
    InHand.HOUSE: "из дома",
    InHand.D: "из полукруга «D»",
    InHand.BEHIND_HEAD_STRING: "за линией дома",
    InHand.ANYWHERE: "в любом месте стола",
    None: "",
}
