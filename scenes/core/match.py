"""A hot-seat match (or a practice table) as the window sees it: positions, state, strokes, rulings.

No Panda3D here: the controller simulates a stroke ahead with the physics, asks the referee for a
ruling, and after the playback applies it (balls leave the table, respots, who plays next, scores).
It never decides a ruling itself, and knows no game: where the ball in hand may go, what must be called
and what the HUD says is required all come from the game's referee (``rules.base.Referee``: ``may_place``,
``required``), every number it shows from the :class:`rules.ruling.Ruling` or the match state.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from physics.errors import InputError
from physics.record import BallStatus, ShotParams, ShotRecord
from physics.scenario import PRACTICE
from physics.tables import TableSpec, load_table
from rules.contract import CallKind, Option, Phase, Required, parse_decision
from rules.ruling import Ruling
from scenes.core.i18n import game_name, tr
from scenes.core.scoreboard import FoulLine, HudSnapshot, LastCall, PlayerLine
from scenes.core.stats import StrokeLog
from scenes.core.turns import ACCEPT as ACCEPT  # the screens import it from here
from scenes.core.turns import break_gain, offered_options

Positions = dict[str, tuple[float, float]]
PRACTICE_TABLE = "pyramid-12ft"  # practice opens on the pyramid table (practice takes any table)


class Unavailable(RuntimeError):
    """The physics or the referee package is not importable (yet): the window says so, never fakes it."""


def placement_allowed(spec: TableSpec, x: float, y: float, others: Mapping[str, tuple[float, float]]) -> bool:
    """A ball centre at (x, y) lies on the bed and overlaps no other ball (practice moves any ball so)."""
    R, reach = spec.ball_radius, spec.cushion_reach  # touching a cushion is on the bed
    if not (math.isfinite(x) and math.isfinite(y)):
        return False
    if abs(x) > spec.half_length - reach or abs(y) > spec.half_width - reach:
        return False
    return all(math.hypot(x - ox, y - oy) >= 2 * R for ox, oy in others.values())


def free_spot(
    spec: TableSpec, ok: Callable[[float, float], bool], start: tuple[float, float]
) -> tuple[float, float]:
    """``start`` if ``ok`` there, else the nearest point on a half-radius grid around it where it is."""
    if ok(*start):
        return start
    step = spec.ball_radius / 2
    best: tuple[float, tuple[float, float]] | None = None
    nx = int(spec.length / step)
    ny = int(spec.width / step)
    for i in range(-nx, nx + 1):
        for j in range(-ny, ny + 1):
            p = (start[0] + i * step, start[1] + j * step)
            d = math.hypot(i, j)
            if (best is None or d < best[0]) and ok(*p):
                best = (d, p)
    if best is None:
        raise Unavailable("no free place for the cue ball")
    return best[1]


@dataclass(frozen=True)
class StrokeResult:
    record: ShotRecord
    ruling: Ruling | None  # None in practice and for a lag stroke
    before: Positions
    state_before: Any

    @property
    def ruling_json(self) -> dict[str, Any]:
        """The ruling in its JSON shape (docs/formats.md §Ruling) (for saving; read the :class:`Ruling` itself otherwise)."""
        return self.ruling.to_dict() if self.ruling is not None else {}


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
    save_warning: str | None = None  # shown while the autosave fails (a full disk); the last good save stays
    log: list[StrokeLog] = field(default_factory=list)  # every carried-out stroke of the match (statistics)
    title: str | None = None  # shown instead of the game's name (a drill's title)
    table: str | None = None  # the table played on: the game's own by default (golf: a snooker table too)

    def __post_init__(self) -> None:
        from rules.registry import games_for_table, get_referee
        from rules.state import MatchState

        if self.game != PRACTICE:
            self.referee = get_referee(self.game, self.table)
            self.spec: TableSpec = self.referee.table
            self.state = MatchState.new(self.referee, self.names, self.frames_to_win)
            self.positions = dict(self.state.balls)
            self.ensure_cue_ball()
        else:
            self.spec = load_table(PRACTICE_TABLE)
            if not self.positions:
                self.positions = self.rack(get_referee(games_for_table(self.spec.id)[0]))

    def rack(self, referee: Any) -> Positions:
        """Practice's opening layout: the rack of the first game played on the table, the cue ball on the
        head spot (or the nearest free place)."""
        layout = {b: (float(p[0]), float(p[1])) for b, p in referee.rack(2).items()}
        if "cue" not in layout:
            head = self.spec.spots.get("head-spot", (-self.spec.length / 4, 0.0))
            layout["cue"] = free_spot(
                self.spec, lambda x, y: placement_allowed(self.spec, x, y, layout), head
            )
        return layout

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

    def required(self) -> Required:
        """What the player at the table must do next, as the referee says (nothing in practice)."""
        if self.state is None:
            return Required()
        req: Required = self.referee.required(self.state)
        return req

    @property
    def needs_call(self) -> bool:
        """The player must call ball and pocket before this stroke (71's opening break counts without one)."""
        return self.required().call == CallKind.BALL_AND_POCKET

    @property
    def needs_nomination(self) -> bool:
        """Snooker: a colour (after a red) or a free ball must be nominated; the call's ball carries it."""
        return self.required().call in (CallKind.COLOUR, CallKind.FREE_BALL)

    def golf_pocket(self) -> str | None:
        """The pocket the player at the table must play next (golf's order of holes), if the game has one."""
        return self.required().pocket

    def _others(self, ball: str) -> Positions:
        return {b: p for b, p in self.positions.items() if b != ball}

    def may_place(self, x: float, y: float) -> bool:
        """The referee allows the ball in hand at (x, y) (practice: anywhere on the bed, overlapping nothing)."""
        others = self._others(self.cue_ball)
        if self.state is None:
            return placement_allowed(self.spec, x, y, others)
        return bool(self.referee.may_place(self.state, x, y, others).ok)

    def place_cue(self, x: float, y: float) -> bool:
        """Move the ball in hand to (x, y) if the referee allows it there; False (and nothing moves) if not.

        A place the referee warns about (003: the cue ball put outside the house) is refused and the warning
        goes into the match state: playing from there anyway would then be a foul."""
        if self.in_hand is None and not self.is_practice:
            return False
        others = self._others(self.cue_ball)
        if self.state is not None:
            verdict = self.referee.may_place(self.state, x, y, others)
            if not verdict.ok:
                if verdict.warning is not None:
                    self.state = self.state.warn(verdict.warning)
                return False
        elif not placement_allowed(self.spec, x, y, others):
            return False
        self.positions[self.cue_ball] = (x, y)
        return True

    def move_ball(self, ball: str, x: float, y: float) -> bool:
        """Practice: put any ball anywhere on the bed where it overlaps nothing."""
        if not self.is_practice or not placement_allowed(self.spec, x, y, self._others(ball)):
            return False
        self.positions[ball] = (x, y)
        return True

    def ensure_cue_ball(self) -> None:
        """A ball in hand starts on a legal spot of its zone (the player then moves it)."""
        cue = self.cue_ball
        if cue in self.positions:
            return
        others = self._others(cue)
        if self.state is None:
            start = self.spec.spots.get("head-spot", (-self.spec.length / 4, 0.0))
            self.positions[cue] = free_spot(
                self.spec, lambda x, y: placement_allowed(self.spec, x, y, others), start
            )
            return
        state, ref = self.state, self.referee
        self.positions[cue] = free_spot(
            self.spec, lambda x, y: bool(ref.may_place(state, x, y, others).ok), ref.hand_spot(state, others)
        )

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
        from physics.simulate import simulate

        layout = dict(self.positions if positions is None else positions)
        if self.settings is None:
            return simulate, (self.spec, layout, shot), {"sample_hz": 120.0}
        ph = self.settings.physics
        return (
            simulate,
            (self.spec, layout, shot),
            {
                "params": self.physics_params(),
                "lamp": self.settings.lamp_position,
                "sample_hz": float(ph.sample_hz),
            },
        )

    def physics_params(self) -> Any:
        """The physical parameters of this table with the settings' overrides (what every stroke uses)."""
        from physics.params import PhysicsParams

        if self.settings is None:
            return PhysicsParams.for_table(self.spec, {})
        ph = self.settings.physics
        return PhysicsParams.for_table(
            self.spec, ph.overrides, substep_hz=ph.substep_hz, max_stroke_seconds=ph.max_stroke_seconds
        )

    def simulate(self, shot: ShotParams, positions: Positions | None = None) -> ShotRecord:
        """The stroke simulated to rest by the physics, with samples for the playback (here, blocking)."""
        fn, args, kwargs = self.simulate_job(shot, positions)
        return fn(*args, **kwargs)

    def judge(self, record: ShotRecord) -> StrokeResult:
        """The referee's ruling on a simulated stroke from the current position; kept pending until :meth:`apply`."""
        ruling = self.referee.judge(self.state, record) if self.referee is not None else None
        result = StrokeResult(record, ruling, dict(self.positions), self.state)
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
        return offered_options(self.pending.ruling, len(self.names))

    def option_labels(self) -> tuple[str, ...]:
        """Each option as the HUD words it: who plays next and from where, read from the state the option leads
        to (``MatchState.apply`` with that decision), so the words name the player then marked at the table."""
        from scenes.core.i18n import option_name, option_outcome, zone_name

        if self.pending is None or self.pending.ruling is None or self.state is None:
            return ()
        r = self.pending.ruling
        out: list[str] = []
        for o in self.options:
            try:
                ahead = self.state.apply(r, None if o == ACCEPT else parse_decision(o))
            except (InputError, ValueError):  # a pick the state refuses alone (a ball to take off)
                out.append(option_name(o, self.lang))
                continue
            if ahead.frame_over or o.startswith("lag:") or (r.choice is not None and o in r.choice.among):
                out.append(option_name(o, self.lang))
                continue
            zone = zone_name(str(ahead.in_hand), self.lang) if ahead.in_hand is not None else None
            out.append(option_outcome(o, ahead.players[ahead.to_play], zone, self.lang))
        return tuple(out)

    def apply(self, decision: str | None = None, seconds: float = 0.0) -> None:
        """After the playback: carry the pending ruling out (``MatchState.apply``) and take the new layout.

        ``seconds``: how long the striker was at the table before the strike (for the statistics)."""
        result = self.pending
        if result is None:
            return
        self.history.append((dict(self.positions), self.state, self.last, self.current_break))
        self._trim_history()
        if self.state is not None and result.ruling is not None:
            r = result.ruling
            striker = r.striker
            frame = sum(int(f) for f in self.state.frames_won) + 1
            opening = str(self.state.phase) == str(Phase.BREAK)
            self.state = self.state.apply(r, parse_decision(decision) if decision is not None else None)
            if not r.foul and striker < len(r.points):
                # The striker's visit goes on (or ended with this stroke): what it gained counts to the break.
                brk = self.current_break + break_gain(r)
            else:
                brk = 0
            self.current_break = brk if self.state.to_play == striker else 0
            record = replace(result.record, samples=None).to_dict()
            self.log.append(StrokeLog.from_ruling(frame, result.ruling_json, brk, seconds, record, opening))
            if self.state.frame_over and not self.state.match_over and not self.state.needs_lag:
                self.state = self.state.next_frame()
                self.current_break = 0
            self.positions = dict(self.state.balls)
        else:
            # Practice: a pocketed or jumped cue ball comes back on the head spot (ensure_cue_ball below).
            self.positions = final_positions(result.record)
        self.last = result
        self.pending = None
        self.call_ball = self.call_pocket = None
        if self.state is None or not self.state.match_over:
            self.ensure_cue_ball()
        self.save()

    def save(self) -> None:
        """Autosave the match (atomic: a kill at any moment leaves the previous or the new save whole)."""
        if self.autosave is None or self.state is None:
            return
        from physics.files import WriteError
        from scenes.core.autosave import save_document, save_match

        self.saved_strokes += 1
        # Beside it, what the window adds to the referee's state: the current break and the stroke log.
        view = {"current_break": self.current_break, "log": [s.to_dict() for s in self.log]}
        try:
            save_match(self.autosave, self.state, self.saved_strokes)
            save_document(play_save_path(self.autosave), "play", view, self.saved_strokes)
        except WriteError as exc:
            self.save_warning = tr("status.autosave_failed", self.lang, why=exc.reason)
        else:
            self.save_warning = None

    @classmethod
    def from_autosave(cls, path: str, lang: str = "ru", settings: Any = None) -> MatchController:
        """Resume a saved match (InputError, file untouched, when the save is not one of ours)."""
        from scenes.core.autosave import load_match

        state, strokes = load_match(path)
        m = cls(
            game=state.game,
            table=state.the_rules().table_played,
            names=tuple(state.players),
            frames_to_win=state.frames_to_win,
            lang=lang,
            settings=settings,
            autosave=path,
            saved_strokes=strokes,
        )
        m.state = state
        m.positions = dict(state.balls)
        m._resume_view()
        if not state.match_over:
            m.ensure_cue_ball()
        return m

    def _resume_view(self) -> None:
        """The current break and the stroke log from the save beside the match's (a missing one, or one left
        by another stroke than the match file's, resumes with neither; a damaged one is one InputError line)."""
        from scenes.core.autosave import load_document

        assert self.autosave is not None
        path = play_save_path(self.autosave)
        if not path.exists():
            return
        view, strokes = load_document(path, "play")
        if strokes != self.saved_strokes:
            return
        brk, log = view.get("current_break"), view.get("log")
        if not (isinstance(brk, int) and 0 <= brk <= 10000) or not isinstance(log, list):
            raise InputError(str(path), "payload", "current_break (0..10000) and log (a list)")
        try:
            self.log = [StrokeLog.from_dict(d) for d in log]
        except (TypeError, ValueError, KeyError) as exc:
            raise InputError(str(path), "payload.log", f"stroke entries as saved ({exc})") from None
        n = len(self.names)
        for i, entry in enumerate(self.log):
            if not 0 <= entry.player < n:  # the statistics screen indexes the players by it
                raise InputError(str(path), f"payload.log[{i}].player", f"a player of this match, 0..{n - 1}")
        self.current_break = brk

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
            p is not None and p.ruling is not None and Option.LAG in p.ruling.options and len(self.names) == 2
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
        return StrokeResult(record, None, dict(self.positions), self.state)

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
                others = self._others(run.ball)
                head = self.spec.lines["head-string"]
                self.positions[run.ball] = free_spot(
                    self.spec,
                    lambda x, y: x < head and placement_allowed(self.spec, x, y, others),
                    self.positions[run.ball],
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
        assert run is not None
        assert run.result is not None
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
        from rules.names import warning_text

        if self.save_warning:
            status = f"{status}\n{self.save_warning}" if status else self.save_warning
        st = self.state
        last = None
        shown = self.pending if self.pending is not None and self.pending.ruling is not None else self.last
        r = shown.ruling if shown is not None else None
        scores = tuple(st.scores) if st is not None else ()
        if r is not None and shown is self.pending:
            scores = tuple(r.scores)
        if r is not None:
            fouls = tuple(
                FoulLine(
                    str(f.code),
                    f.rule,
                    f.explain["ru"],
                    f.explain["en"],
                    str(f.family) if f.family is not None else None,
                    f.world,
                )
                for f in r.fouls
            )
            last = LastCall(r.foul, fouls, tuple(r.counted), tuple(r.points))
        if st is None:
            return HudSnapshot(
                game_name=self.title or game_name(self.game, self.lang),
                players=(),
                practice=True,
                status=status,
            )
        # While a ruling waits for a choice, the player who must choose is the one at the table.
        decider = int(r.next_player) if r is not None and shown is self.pending else int(st.to_play)
        players = tuple(
            PlayerLine(
                name=n,
                score=int(scores[i]),
                frames=int(st.frames_won[i]),
                owed=int(st.owed[i]) if i < len(st.owed) else 0,
                at_table=(i == decider),
            )
            for i, n in enumerate(st.players)
        )
        # While the choice is open the requirement is the one the ruling leads to (as carried out with no option
        # chosen), not the one of the state before the stroke.
        ahead = st
        if r is not None and shown is self.pending:
            try:
                ahead = st.apply(r, None)
            except (
                InputError,
                ValueError,
            ):  # a ruling that cannot stand without a choice: the state as it is
                ahead = st
        req: Required = self.referee.required(ahead)
        in_hand = None if ahead.in_hand is None else str(ahead.in_hand)
        # The next frame is racked at once, so the frame's winner comes from the ruling that ended it.
        frame_winner = (
            st.players[r.winner] if r is not None and r.frame_over and r.winner is not None else None
        )
        match_winner = st.players[st.winner] if st.match_over and st.winner is not None else None
        notes = [w.explain[self.lang] for w in (r.warnings if r is not None else ())]
        notes += [warning_text(w, st.players, self.lang) for w in req.warnings]
        return HudSnapshot(
            game_name=game_name(self.game, self.lang),
            players=players,
            frames_to_win=int(st.frames_to_win),
            current_break=self.current_break,
            ball_on=req.ball_on,
            needs_call=req.call == CallKind.BALL_AND_POCKET,
            nominate=req.call in (CallKind.COLOUR, CallKind.FREE_BALL),
            call_ball=self.call_ball,
            call_pocket=self.call_pocket,
            golf_pocket=req.pocket,
            last=last,
            options=self.options,
            option_labels=self.option_labels(),
            in_hand=in_hand,
            touching=req.touching,
            frame_winner=frame_winner,
            match_winner=match_winner,
            status=status,
            notes=tuple(dict.fromkeys(n for n in notes if n)),
        )


def play_save_path(autosave: str) -> Path:
    """The window's own save beside a match autosave (``match-autosave.json`` -> ``match-autosave.play.json``)."""
    p = Path(autosave)
    return p.with_name(p.stem + ".play" + p.suffix)


def final_positions(record: ShotRecord) -> Positions:
    """Balls on the bed after a stroke with no referee (practice): the record's final state."""
    out: Positions = {}
    for ball, final in record.final.items():
        if final.status == BallStatus.ON_TABLE and final.pos is not None:
            out[ball] = (float(final.pos[0]), float(final.pos[1]))
    return out
