"""A hot-seat match (or a practice table) as the window sees it: positions, state, strokes, rulings.

No Panda3D here: the controller simulates a stroke ahead with the physics, asks the referee for a
ruling, and after the playback applies it (balls leave the table, respots, who plays next, scores).
It never decides a ruling itself: every number it shows comes from the ruling or the match state.
The ruling is read through its design.md JSON shape (``to_dict()``), the fixed contract, so the
window does not depend on the referee's internal classes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from physics.record import BallStatus, ShotParams, ShotRecord
from physics.tables import GAME_TABLES, TableSpec, load_table
from rules.placement import house_zone
from scenes.hud import FoulLine, HudSnapshot, LastCall, PlayerLine
from scenes.i18n import game_name

Positions = dict[str, tuple[float, float]]

# Zones where the cue ball may be placed from hand (design.md ``in_hand``).
ZONES = ("house", "d", "behind-head-string", "anywhere")
# Closer than this to another ball counts as touching it ("frozen"), m.
FROZEN_GAP = 0.0005
# Games whose rules need the ball and pocket called before each stroke (000: Русская пирамида).
CALLED_GAMES = ("russian-pyramid", "russian-pyramid-fast", "straight-pool")


class Unavailable(RuntimeError):
    """The physics or the referee package is not importable (yet): the window says so, never fakes it."""


def placement_allowed(
    spec: TableSpec,
    zone: str | None,
    x: float,
    y: float,
    others: Mapping[str, tuple[float, float]],
) -> bool:
    """True when a ball centre at (x, y) is a legal place for the cue ball in hand in ``zone``.

    The ball must lie on the bed, overlap no other ball, and have its centre strictly inside the zone:
    003 judges a ball's position by its centre and forbids placing it on the house line itself. When
    every object ball is in the house, the house moves to the other end (see :func:`house_end`).
    """
    R = spec.ball_radius
    if not (math.isfinite(x) and math.isfinite(y)):
        return False
    if abs(x) > spec.half_length - R or abs(y) > spec.half_width - R:
        return False
    head = spec.lines.get("head-string", -spec.length / 4)
    line, sign = house_end(spec, others) if zone == "house" else (head, -1)
    for ox, oy in others.values():
        d = math.hypot(x - ox, y - oy)
        if d < 2 * R:
            return False
        # 003 (игра с руки): in the house the cue ball may not be placed frozen to a ball that is in the house.
        if zone == "house" and sign * ox > sign * line and d < 2 * R + FROZEN_GAP:
            return False
    if zone is None or zone == "anywhere":
        return True
    if zone == "house":
        return sign * x > sign * line
    if zone == "behind-head-string":
        return x < head
    if zone == "d":
        radius = spec.d_radius or 0.292
        return x <= head and math.hypot(x - head, y) <= radius
    return False


def house_end(spec: TableSpec, others: Mapping[str, tuple[float, float]]) -> tuple[float, float]:
    """(line x, sign) of the house the cue ball is placed in: the house is where sign * x > sign * line.

    The referee's own reading (``rules.placement.house_zone``): behind the head string, or behind the
    foot string when every object ball stands in the house (003: Начальный удар, б)."""
    line, sign = house_zone(spec, others.values())
    return spec.lines[line], sign


def default_placement(
    spec: TableSpec,
    zone: str | None,
    others: Mapping[str, tuple[float, float]],
) -> tuple[float, float]:
    """A legal spot for the cue ball in ``zone``: the zone's natural spot, else the nearest free point on a grid."""
    head = spec.lines.get("head-string", -spec.length / 4)
    R = spec.ball_radius
    if zone == "d":
        start = (head - (spec.d_radius or 0.292) / 2, 0.0)
    elif zone == "house":
        line, sign = house_end(spec, others)
        start = ((line + sign * spec.half_length) / 2, 0.0)
    elif zone == "behind-head-string":
        start = ((head - spec.half_length) / 2, 0.0)
    else:
        start = spec.spots.get("head-spot", (head, 0.0))
    if placement_allowed(spec, zone, *start, others):
        return start
    step = R / 2
    best: tuple[float, tuple[float, float]] | None = None
    nx = int(spec.length / step)
    ny = int(spec.width / step)
    for i in range(-nx, nx + 1):
        for j in range(-ny, ny + 1):
            p = (start[0] + i * step, start[1] + j * step)
            d = math.hypot(i, j)
            if (best is None or d < best[0]) and placement_allowed(spec, zone, *p, others):
                best = (d, p)
    if best is None:
        raise Unavailable("no free place for the cue ball")
    return best[1]


def ruling_dict(ruling: Any) -> dict[str, Any]:
    """The ruling in design.md's JSON shape, whatever object the referee returned."""
    if ruling is None:
        return {}
    if isinstance(ruling, Mapping):
        d = dict(ruling)
    elif hasattr(ruling, "to_dict"):
        d = ruling.to_dict()
    else:
        import dataclasses

        d = dataclasses.asdict(ruling)
    if "ruling" in d and isinstance(d["ruling"], Mapping):
        d = dict(d["ruling"])
    return d


@dataclass(frozen=True)
class StrokeResult:
    record: ShotRecord
    ruling: Any  # the referee's object (None in practice)
    ruling_json: dict[str, Any]  # its design.md JSON shape
    before: Positions
    state_before: Any


# Undo snapshots that keep their stroke's samples (a sampled record is some megabytes).
HISTORY_WITH_SAMPLES = 3
# Undo depth: the snapshots kept at all. Each keeps its stroke's events (~20 KB), so an unbounded stack grew
# a long practice session by that much a stroke (the 500-stroke soak, traced).
HISTORY_MAX = 200


@dataclass
class LagRun:
    """A lag being played before the deciding frame (rules.lag): one stroke per player, in turn.

    Player ``i`` lags ``balls[i]`` on the half ``SIDES[i]``; the second stroke is simulated with the
    first ball at rest where it stopped (the real strokes are simultaneous; see rules/lag.py)."""

    balls: tuple[str, str]
    index: int = 0
    records: list[ShotRecord] = field(default_factory=list)
    result: Any = None  # rules.lag.LagResult of the last completed lag
    # A lag inside a frame (Russian 71 at 70:70, 000: Игра при счете 70:70): the ruling waiting for the
    # lag's winner and the frame's layout, both put back once the lag is decided.
    resume: tuple[StrokeResult, Positions] | None = None

    SIDES = (1, -1)

    @property
    def ball(self) -> str:
        return self.balls[self.index]

    @property
    def side(self) -> int:
        return self.SIDES[self.index]


@dataclass
class MatchController:
    """The stroke/ruling cycle for one hot-seat match, or a practice table (``game == "practice"``).

    In a match the referee's :class:`rules.state.MatchState` is the single source of where the balls
    are (``state.balls``), who plays and the scores; the controller only adds the cue ball the player
    is placing from hand. Practice keeps its own positions and an undo stack of them.
    """

    game: str
    names: tuple[str, ...]
    frames_to_win: int = 1
    lang: str = "ru"
    settings: Any = None
    positions: Positions = field(default_factory=dict)
    state: Any = None
    last: StrokeResult | None = None
    pending: StrokeResult | None = None
    history: list[tuple[Positions, Any, StrokeResult | None, int]] = field(default_factory=list)
    call_ball: str | None = None
    call_pocket: str | None = None
    referee: Any = None
    current_break: int = 0  # points of the player at the table in this visit (a display sum of rulings)
    autosave: str | None = None  # a match in progress is saved here atomically after every stroke
    saved_strokes: int = 0
    lag_run: LagRun | None = None  # the decider's lag, while it is played on the table

    def __post_init__(self) -> None:
        self.spec: TableSpec = load_table(GAME_TABLES[self.game])
        if self.game != "practice":
            try:
                from rules.registry import get_referee
                from rules.state import MatchState
            except ImportError as exc:
                raise Unavailable(f"rules: {exc}") from None
            self.referee = get_referee(self.game)
            self.state = MatchState.new(self.game, self.names, self.frames_to_win)
            self.positions = dict(self.state.balls)
            self.ensure_cue_ball()
        elif not self.positions:
            self.positions = self.rack()

    def rack(self) -> Positions:
        """Practice's opening layout: the physics' pyramid rack with the cue ball in the house."""
        try:
            from physics.racks import initial_layout
        except ImportError as exc:
            raise Unavailable(f"physics.racks: {exc}") from None
        layout = initial_layout("russian-pyramid", self.spec, 2)
        return {b: (float(p[0]), float(p[1])) for b, p in dict(layout).items()}

    @property
    def is_practice(self) -> bool:
        return self.state is None

    @property
    def to_play(self) -> int:
        return int(self.state.to_play) if self.state is not None else 0

    @property
    def cue_ball(self) -> str:
        """The ball the striker plays with (Американка: any ball; the state says which)."""
        return str(self.state.cue) if self.state is not None else "cue"

    @property
    def in_hand(self) -> str | None:
        """Where the cue ball must be placed before the next stroke (the state's ``in_hand``)."""
        if self.state is None:
            return None
        v = self.state.in_hand
        return str(v) if v is not None else None

    @property
    def needs_call(self) -> bool:
        """The player must call ball and pocket before this stroke (71's opening break counts without one)."""
        if self.state is None:
            return False
        flag = getattr(self.referee, "calls", None)
        calls = flag if isinstance(flag, bool) else self.game in CALLED_GAMES
        return calls and not self.state.is_break

    @property
    def needs_nomination(self) -> bool:
        """Snooker: a colour (after a red) or a free ball must be nominated; the call's ball carries it."""
        st = self.state
        if st is None or self.game not in ("snooker", "american-snooker"):
            return False
        return st.ball_on == "colour" or dict(st.extra).get("free_ball_for", -1) == st.to_play

    def golf_pocket(self) -> str | None:
        """Golf: the pocket the player at the table must play next (the referee's order of holes)."""
        if self.state is None or self.game != "golf":
            return None
        from rules.games.golf import HOLES

        holes = dict(self.state.extra).get("holes")
        if not isinstance(holes, list) or self.state.to_play >= len(holes):
            return None
        return HOLES[min(int(holes[self.state.to_play]), len(HOLES) - 1)]

    def _others(self, ball: str) -> Positions:
        return {b: p for b, p in self.positions.items() if b != ball}

    def place_cue(self, x: float, y: float) -> bool:
        """Move the ball in hand to (x, y) if its zone allows it there; False (and nothing moves) if not."""
        if self.in_hand is None and not self.is_practice:
            return False
        if not placement_allowed(self.spec, self.in_hand, x, y, self._others(self.cue_ball)):
            return False
        self.positions[self.cue_ball] = (x, y)
        return True

    def move_ball(self, ball: str, x: float, y: float) -> bool:
        """Practice: put any ball anywhere on the bed where it overlaps nothing."""
        if not self.is_practice or not placement_allowed(self.spec, "anywhere", x, y, self._others(ball)):
            return False
        self.positions[ball] = (x, y)
        return True

    def ensure_cue_ball(self) -> None:
        """A ball in hand starts on a legal spot of its zone (the player then moves it)."""
        cue = self.cue_ball
        if cue not in self.positions:
            zone = self.in_hand or "anywhere"
            self.positions[cue] = default_placement(self.spec, zone, self._others(cue))

    # --- the stroke --------------------------------------------------------------------------
    def declared(self, shot: ShotParams) -> ShotParams:
        """The shot with what the player declared on the table (the call) attached."""
        if self.state is not None and (self.call_ball or self.call_pocket):
            shot = replace(shot, call_ball=self.call_ball, call_pocket=self.call_pocket)
        return shot

    def simulate_job(
        self,
        shot: ShotParams,
        positions: Positions | None = None,
    ) -> tuple[Callable[..., ShotRecord], tuple[Any, ...], dict[str, Any]]:
        """``(function, args, kwargs)`` that simulate the stroke: plain picklable data, so the window can run
        the physics in a worker process while it keeps drawing (a thread would fight the renderer for the GIL)."""
        try:
            from physics.params import PhysicsParams
            from physics.simulate import simulate
        except ImportError as exc:
            raise Unavailable(f"physics.simulate: {exc}") from None
        layout = dict(self.positions if positions is None else positions)
        if self.settings is None:
            return simulate, (self.spec, layout, shot), {"sample_hz": 120.0}
        ph = self.settings.physics
        params = PhysicsParams.for_table(
            self.spec, ph.overrides, substep_hz=ph.substep_hz, max_stroke_seconds=ph.max_stroke_seconds
        )
        return (
            simulate,
            (self.spec, layout, shot),
            {"params": params, "lamp": self.settings.lamp_position, "sample_hz": float(ph.sample_hz)},
        )

    def simulate(self, shot: ShotParams, positions: Positions | None = None) -> ShotRecord:
        """The stroke simulated to rest by the physics, with samples for the playback (here, blocking)."""
        fn, args, kwargs = self.simulate_job(shot, positions)
        return fn(*args, **kwargs)

    def judge(self, record: ShotRecord) -> StrokeResult:
        """The referee's ruling on a simulated stroke from the current position; kept pending until :meth:`apply`."""
        ruling = self.referee.judge(self.state, record) if self.referee is not None else None
        result = StrokeResult(record, ruling, ruling_dict(ruling), dict(self.positions), self.state)
        self.pending = result
        return result

    def stroke(self, shot: ShotParams) -> StrokeResult:
        """Simulate ``shot`` (with the call entered on the table) and judge it; applied later by :meth:`apply`."""
        return self.judge(self.simulate(self.declared(shot)))

    @property
    def options(self) -> tuple[str, ...]:
        """What the next player must or may choose before play goes on (from the pending ruling)."""
        if self.pending is None or self.pending.ruling is None:
            return ()
        rj = self.pending.ruling_json
        opts: list[str] = []
        for o in rj.get("options") or []:
            if o == "lag":
                # The lag's winner is entered by the players (they play it on the table themselves).
                opts += [f"lag:{i}" for i in range(len(self.names))]
            elif o != "remove_ball":
                opts.append(str(o))
        choice = rj.get("choice")
        if choice:
            opts += [str(b) for b in choice.get("among", [])]
        return tuple(opts)

    def apply(self, decision: str | None = None) -> None:
        """After the playback: carry the pending ruling out (``MatchState.apply``) and take the new layout."""
        result = self.pending
        if result is None:
            return
        self.history.append((dict(self.positions), self.state, self.last, self.current_break))
        self._trim_history()
        if self.state is not None and result.ruling is not None:
            rj = result.ruling_json
            striker = int(rj.get("striker", self.state.to_play))
            self.state = self.state.apply(result.ruling, decision)
            points = rj.get("points") or []
            if self.state.to_play == striker and not rj.get("foul") and striker < len(points):
                self.current_break += max(0, int(points[striker]))
            else:
                self.current_break = 0
            if self.state.frame_over and not self.state.match_over and not self.state.needs_lag:
                self.state = self.state.next_frame()
                self.current_break = 0
            self.positions = dict(self.state.balls)
        else:
            self.positions = final_positions(result.record)
            if "cue" not in self.positions:
                # Practice: a pocketed or jumped cue ball comes back to the house to play on.
                self.positions["cue"] = default_placement(self.spec, "house", self._others("cue"))
        self.last = result
        self.pending = None
        self.call_ball = self.call_pocket = None
        if self.state is not None and not self.state.match_over:
            self.ensure_cue_ball()
        self.save()

    def save(self) -> None:
        """Autosave the match (atomic: a kill at any moment leaves the previous or the new save whole)."""
        if self.autosave is None or self.state is None:
            return
        from scenes.autosave import save_match

        self.saved_strokes += 1
        save_match(self.autosave, self.state, self.saved_strokes)

    @classmethod
    def from_autosave(cls, path: str, lang: str = "ru", settings: Any = None) -> MatchController:
        """Resume a saved match (InputError, file untouched, when the save is not one of ours)."""
        from scenes.autosave import load_match

        state, strokes = load_match(path)
        m = cls(
            game=state.game,
            names=tuple(state.players),
            frames_to_win=state.frames_to_win,
            lang=lang,
            settings=settings,
            autosave=path,
            saved_strokes=strokes,
        )
        m.state = state
        m.positions = dict(state.balls)
        if not state.match_over:
            m.ensure_cue_ball()
        return m

    def _trim_history(self) -> None:
        """Keep undo cheap over long sessions: at most HISTORY_MAX strokes can be undone, and only the
        newest snapshots keep their stroke's sampled record (for replaying after an undo); older ones keep
        the events and final state only."""
        if len(self.history) > HISTORY_MAX:
            del self.history[: len(self.history) - HISTORY_MAX]
        for i in range(max(0, len(self.history) - HISTORY_WITH_SAMPLES)):
            positions, state, last, brk = self.history[i]
            if last is not None and last.record.samples is not None:
                slim = replace(last, record=replace(last.record, samples=None))
                self.history[i] = (positions, state, slim, brk)

    def lag(self, winner: int) -> None:
        """The decider's lag was won by ``winner``: rack the deciding frame with them to break."""
        if self.state is not None and self.state.needs_lag:
            self.state = self.state.next_frame(lag_winner=winner)
            self.positions = dict(self.state.balls)
            self.ensure_cue_ball()
            self.save()
        self.lag_run = None

    # --- the lag played on the table ---------------------------------------------------------
    @property
    def can_play_lag(self) -> bool:
        """The decider's lag is played on the table by two players (golf's larger fields enter it)."""
        return self.state is not None and self.state.needs_lag and len(self.names) == 2

    @property
    def ruling_needs_lag(self) -> bool:
        """The pending ruling leaves who plays next to a lag (Russian 71 at 70:70), and two players can
        play it on the table; more players enter its winner as before."""
        p = self.pending
        return (
            p is not None
            and p.ruling is not None
            and "lag" in (p.ruling_json.get("options") or [])
            and len(self.names) == 2
        )

    def start_lag(self) -> LagRun:
        """Clear the table and give player 1 their lag ball in the house on their half."""
        from rules.lag import lag_spot

        if self.lag_run is None:
            others = [b for b in self.referee.ball_set(len(self.names)) if b != self.cue_ball]
            self.lag_run = LagRun((self.cue_ball, others[0]))
            if self.ruling_needs_lag:
                # Mid-frame the lag is played on a cleared table; the frame's balls wait aside.
                assert self.pending is not None
                self.lag_run.resume = (self.pending, dict(self.positions))
        run = self.lag_run
        run.index, run.records = 0, []
        self.pending = None
        self.positions = {run.ball: lag_spot(self.spec, run.side)}
        return run

    def lag_record(self, record: ShotRecord) -> StrokeResult:
        """A lag stroke for the playback: no ruling (the referee judges frames, the lag is judged apart)."""
        return StrokeResult(record, None, {}, dict(self.positions), self.state)

    def lag_stroke(self, record: ShotRecord) -> Any:
        """Take one lag stroke; returns the ``rules.lag.LagResult`` once both players have lagged."""
        from rules.lag import LagBall, judge_lag, lag_spot

        run = self.lag_run
        assert run is not None
        run.records.append(record)
        self.positions = final_positions(record)
        if run.index == 0:
            run.index = 1
            self.positions[run.ball] = lag_spot(self.spec, run.side)
            if any(
                math.hypot(p[0] - self.positions[run.ball][0], p[1] - self.positions[run.ball][1])
                < 2 * self.spec.ball_radius
                for b, p in self.positions.items()
                if b != run.ball
            ):
                # The first ball stopped on the second's spot (it crossed, so it lost): start beside it.
                self.positions[run.ball] = default_placement(
                    self.spec, "behind-head-string", self._others(run.ball)
                )
            return None
        # Each ball is judged by its own stroke: if the second ball reaches the first, it has crossed
        # onto the other half and lost already, so the first ball's own rest is the fair measure.
        balls = [LagBall(i, run.balls[i], LagRun.SIDES[i], run.records[i]) for i in range(2)]
        run.result = judge_lag(self.spec, self.game, balls)
        return run.result

    def finish_lag(self) -> None:
        """After the verdict: rack the decider with the winner to break, or play the lag again."""
        run = self.lag_run
        assert run is not None and run.result is not None
        if run.result.winner is None:
            self.start_lag()
        elif run.resume is not None:
            # 70:70: back to the frame; the ruling is carried out with the lag's winner to play.
            self.pending, self.positions = run.resume[0], dict(run.resume[1])
            self.lag_run = None
            self.apply(f"lag:{run.result.winner}")
        else:
            self.lag(run.result.winner)

    def undo(self) -> bool:
        """Back to the position before the last applied stroke (a snapshot stack)."""
        if not self.history:
            return False
        self.positions, self.state, self.last, self.current_break = self.history.pop()
        self.pending = None
        return True

    # --- what the HUD shows ------------------------------------------------------------------
    def snapshot(self, status: str = "") -> HudSnapshot:
        """What the HUD draws. While a ruling waits for the next player's choice, its call and its
        scores are shown (the options change who plays and from where, not the points)."""
        st = self.state
        last = None
        shown = self.pending if self.pending is not None and self.pending.ruling_json else self.last
        scores = tuple(st.scores) if st is not None else ()
        if shown is not None and shown is self.pending and shown.ruling_json.get("scores") is not None:
            scores = tuple(shown.ruling_json["scores"])
        if shown is not None and shown.ruling_json:
            rj = shown.ruling_json
            fouls = tuple(
                FoulLine(
                    str(f.get("code", "")),
                    str(f.get("rule", "")),
                    str((f.get("explain") or {}).get("ru", "")),
                    str((f.get("explain") or {}).get("en", "")),
                )
                for f in rj.get("fouls") or []
            )
            last = LastCall(
                bool(rj.get("foul")),
                fouls,
                tuple(str(b) for b in rj.get("counted") or []),
                tuple(int(p) for p in rj.get("points") or []),
            )
        if st is None:
            return HudSnapshot(
                game_name=game_name(self.game, self.lang), players=(), practice=True, status=status
            )
        players = tuple(
            PlayerLine(
                name=n,
                score=int(scores[i]),
                frames=int(st.frames_won[i]),
                owed=int(st.owed[i]) if i < len(st.owed) else 0,
                at_table=(i == st.to_play),
            )
            for i, n in enumerate(st.players)
        )
        ball_on = (str(st.ball_on),) if st.ball_on else ()
        golf = self.golf_pocket()
        # The next frame is racked at once, so the frame's winner comes from the ruling that ended it.
        frame_winner = None
        if (
            shown is not None
            and shown.ruling_json.get("frame_over")
            and isinstance(shown.ruling_json.get("winner"), int)
        ):
            frame_winner = st.players[int(shown.ruling_json["winner"])]
        match_winner = st.players[st.winner] if st.match_over and st.winner is not None else None
        notes = tuple(
            str((w.get("explain") or {}).get(self.lang, ""))
            for w in ((shown.ruling_json.get("warnings") or []) if shown else [])
        )
        return HudSnapshot(
            game_name=game_name(self.game, self.lang),
            players=players,
            frames_to_win=int(st.frames_to_win),
            current_break=self.current_break,
            ball_on=ball_on,
            needs_call=self.needs_call,
            nominate=self.needs_nomination,
            call_ball=self.call_ball,
            call_pocket=self.call_pocket,
            golf_pocket=golf,
            last=last,
            options=self.options,
            in_hand=self.in_hand,
            frame_winner=frame_winner,
            match_winner=match_winner,
            status=status,
            notes=tuple(n for n in notes if n),
        )


def final_positions(record: ShotRecord) -> Positions:
    """Balls on the bed after a stroke with no referee (practice): the record's final state."""
    out: Positions = {}
    for ball, final in record.final.items():
        if final.status == BallStatus.ON_TABLE and final.pos is not None:
            out[ball] = (float(final.pos[0]), float(final.pos[1]))
    return out
