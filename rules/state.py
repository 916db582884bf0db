"""The match state before a stroke: an immutable :class:`MatchState`; ``apply(ruling)`` gives the next one.

Every ball of the game is always in exactly one place (tested as a property):

- ``balls``: on the bed, ``{ball: (x, y)}``;
- the cue ball in hand (``in_hand`` is not None and ``cue`` is not in ``balls``);
- ``shelves[p]``: credited to player ``p`` (the balls he pocketed, for shelf games his score);
- ``out``: out of play by rule (balls counted in a points game, pool's jumped object balls, ...).

Undo is a stack of snapshots: every state keeps the states before it in ``history``; ``undo()`` pops.

``[state]`` keys of a scenario file (all optional; :meth:`MatchState.from_scenario` validates them):

=================  ==========================================================================
``players``        list of names (2 by default; golf takes 2..8)
``to_play``        index of the striker (int)
``scores``         list of ints, one per player
``frames_won``     list of ints, one per player
``frames_to_win``  int >= 1
``breaker``        index of the player who broke this frame
``break``          bool: this stroke is the opening break (default: a fresh frame - every ball of
                   the game on the bed - and no other state key given)
``in_hand``        "house" | "d" | "behind-head-string" | "anywhere" | "none"; default: in hand
                   where the game plays from hand if the cue ball is not in ``[balls]``, else none
``cue``            the ball the striker plays with (Американка: any ball)
``shelves``        list (one per player) of lists of ball ids credited to that player
``owed``           list of ints: penalty balls owed («долг»)
``fouls_in_row``   list of ints: consecutive fouls of each player
``phase``          game phase: "break", "play", "70:70" (pyramid), "respotted-black" (snooker)
``ball_on``        snooker: the ball on ("red", a colour name)
``last_counted``   the last object ball counted (71: the 70:70 rule respots it)
``extra``          a table of the game family's values (each game documents its keys); read into
                   the family's frozen state (:class:`rules.contract.FamilyState`)
``warnings``       list of the referee's standing warnings: ``{ code = "third_miss", player = 0 }``
                   (codes: :class:`rules.contract.WarningCode`); default: what ``extra``'s counters
                   imply (two misses in a row imply the third-miss warning...)
``touching``       snooker: the ball the referee has announced as touching the cue ball (a ball on the
                   bed within 1 mm of touching it, docs/formats.md); default: the referee announces what the
                   position shows (``Referee.touching_ball``)
=================  ==========================================================================

Balls of the game that are neither on the bed, in hand, nor on a shelf are ``out``.

The state never looks a game up: it is built from the game's rules (:class:`rules.contract.GameRules`,
a ``Referee``) and keeps them (``rules``) for the next frame.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from physics.errors import InputError
from physics.limits import MAX_SCORE, check_name
from physics.record import BallId
from physics.tables import load_table
from rules.contract import (
    Choose,
    Decision,
    FamilyState,
    GameRules,
    InHand,
    LagWinner,
    Option,
    Phase,
    PickBall,
    Point,
    RefereeWarning,
    WarningCode,
    decision_text,
    parse_decision,
)
from rules.frozen import freeze
from rules.ruling import Ruling

STATE_KEYS = (
    "players",
    "to_play",
    "scores",
    "frames_won",
    "frames_to_win",
    "breaker",
    "break",
    "in_hand",
    "cue",
    "shelves",
    "owed",
    "fouls_in_row",
    "phase",
    "ball_on",
    "last_counted",
    "extra",
    "warnings",
    "touching",
)


def scenario_players(rules: GameRules, state: Mapping[str, Any]) -> int:
    """How many players a scenario's ``[state]`` describes: ``players``, else as many as ``scores`` has
    (within the game's range: golf), else the game's fewest."""
    players = state.get("players")
    if isinstance(players, list) and players:
        return len(players)
    lo, hi = rules.player_range
    scores = state.get("scores")
    if lo < hi and isinstance(scores, list) and lo <= len(scores) <= hi:
        return len(scores)
    return lo


def scenario_balls(rules: GameRules, state: Mapping[str, Any]) -> tuple[BallId, ...]:
    """The balls a scenario of this game may place: the one rule ``simulate`` and ``referee`` share."""
    return rules.ball_set(scenario_players(rules, state))


def _players(ref: GameRules, state: Mapping[str, Any], file: str) -> tuple[str, ...]:
    """``state.players`` (names within physics.limits), or as many "Player N" as the state implies."""
    players_raw = state.get("players")
    if players_raw is None:
        return tuple(f"Player {i + 1}" for i in range(scenario_players(ref, state)))
    if not isinstance(players_raw, list):
        raise InputError(file, "state.players", "a list of player names")
    return tuple(check_name(file, f"state.players[{i}]", p) for i, p in enumerate(players_raw))


def _shelves(
    ref: GameRules,
    state: Mapping[str, Any],
    balls: Mapping[BallId, Point],
    ball_set: Sequence[BallId],
    n: int,
    file: str,
) -> tuple[tuple[BallId, ...], ...]:
    """``state.shelves``: one list per player of balls of the game, each once, none on the bed."""
    shelves_raw = state.get("shelves")
    shelves: tuple[tuple[BallId, ...], ...] = ((),) * n
    if shelves_raw is not None:
        if (
            not isinstance(shelves_raw, list)
            or len(shelves_raw) != n
            or not all(isinstance(s, list) and all(isinstance(b, str) for b in s) for s in shelves_raw)
        ):
            raise InputError(file, "state.shelves", f"a list of {n} lists of ball ids")
        seen: set[str] = set()
        for s in shelves_raw:
            for b in s:
                if (
                    b not in ball_set
                    or b in balls
                    or b in seen
                    or b == ref.cue_ball
                    and not ref.cue_may_be_credited
                ):
                    raise InputError(
                        file,
                        "state.shelves",
                        f"ball ids of {ref.id}, each once, none of them on the bed (got {b!r})",
                    )
                seen.add(b)
        shelves = tuple(tuple(s) for s in shelves_raw)
    return shelves


def _cue(
    ref: GameRules,
    state: Mapping[str, Any],
    balls: Mapping[BallId, Point],
    ball_set: Sequence[BallId],
    shelves: tuple[tuple[BallId, ...], ...],
    file: str,
) -> BallId:
    """``state.cue``: the ball the striker plays with (Американка: any ball of the game not on a shelf)."""
    cue = state.get("cue", ref.cue_ball)
    if "cue" not in state and ref.any_ball_cue and cue not in balls and balls and not state.get("break"):
        # Американка after the break: the usual cue ball may be on a shelf; any ball on the bed will do.
        cue = sorted(balls, key=lambda b: (len(b), b))[0]
    if not isinstance(cue, str) or cue not in ball_set or (cue != ref.cue_ball and not ref.any_ball_cue):
        raise InputError(
            file,
            "state.cue",
            f"the ball the striker plays with ({ref.cue_ball}"
            + (" or any ball of the game" if ref.any_ball_cue else "")
            + ")",
        )
    on_shelf = {b for s in shelves for b in s}
    if cue in on_shelf:
        raise InputError(file, "state.cue", "a ball on the bed or in hand, not one on a shelf")
    return str(cue)


def _break_and_hand(
    ref: GameRules,
    state: Mapping[str, Any],
    balls: Mapping[BallId, Point],
    ball_set: Sequence[BallId],
    cue: BallId,
    file: str,
) -> tuple[bool, InHand | None, str]:
    """``state.break``, ``state.in_hand`` and ``state.phase``, each defaulting from the others."""
    phase = state.get("phase")
    fresh = not state and all(b in balls for b in ball_set)
    is_break = state.get("break", fresh if phase is None else phase == "break")
    if not isinstance(is_break, bool):
        raise InputError(file, "state.break", "true or false")
    if "in_hand" in state:
        ih = state["in_hand"]
        allowed = [str(x) for x in InHand] + ["none"]
        if ih not in allowed:
            raise InputError(file, "state.in_hand", f"one of {', '.join(allowed)}")
        in_hand = None if ih == "none" else InHand(ih)
    else:
        in_hand = ref.break_in_hand if (is_break or cue not in balls) else None
    if in_hand is None and cue not in balls:
        raise InputError(file, f"balls.{cue}", "the cue ball placed on the bed (or state.in_hand set)")
    if phase is None:
        phase = Phase.BREAK if is_break else Phase.PLAY
    if not isinstance(phase, str) or phase not in {str(p) for p in ref.phases}:
        raise InputError(file, "state.phase", f"one of {', '.join(sorted(str(p) for p in ref.phases))}")
    return is_break, in_hand, phase


def _warnings(file: str, raw: Any, n: int) -> tuple[RefereeWarning, ...]:
    codes = [str(c) for c in WarningCode]
    if not isinstance(raw, list):
        raise InputError(file, "state.warnings", '[{ code = "...", player = 0 }, ...]')
    out: list[RefereeWarning] = []
    for i, w in enumerate(raw):
        key = f"state.warnings[{i}]"
        if not isinstance(w, dict) or set(w) - {"code", "player"} or w.get("code") not in codes:
            raise InputError(file, key, f"{{ code = one of {', '.join(codes)}, player = index }}")
        p = w.get("player", 0)
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < n:
            raise InputError(file, f"{key}.player", f"a player index 0..{n - 1}")
        out.append(RefereeWarning(WarningCode(w["code"]), p))
    return tuple(out)


def _touching(
    ref: GameRules,
    state: Mapping[str, Any],
    balls: Mapping[BallId, Point],
    cue: BallId,
    in_hand: InHand | None,
    file: str,
) -> BallId | None:
    """``state.touching``: a ball on the bed touching the cue ball (within 1 mm: scenario files keep 0.1 mm)."""
    if "touching" not in state:
        return None
    v = state["touching"]
    what = "a ball on the bed touching the cue ball (within 1 mm)"
    if not isinstance(v, str) or v not in balls or v == cue or in_hand is not None or cue not in balls:
        raise InputError(file, "state.touching", what + ", with the cue ball on the bed")
    r = load_table(ref.table_played).ball_radius
    (x0, y0), (x1, y1) = balls[cue], balls[v]
    if math.hypot(x1 - x0, y1 - y0) > 2 * r + 0.001:
        raise InputError(file, "state.touching", what + f": {v} stands apart from it")
    return v


@dataclass(frozen=True)
class MatchState:
    """A match between ``players`` at one moment: who plays, the scores, where every ball is."""

    game: str
    players: tuple[str, ...]
    balls: Mapping[BallId, Point]
    rules: GameRules | None = field(default=None, compare=False, repr=False)
    to_play: int = 0
    scores: tuple[int, ...] = (0, 0)
    frames_won: tuple[int, ...] = (0, 0)
    frames_to_win: int = 1
    breaker: int = 0
    is_break: bool = True
    in_hand: InHand | None = InHand.HOUSE
    cue: BallId = "cue"
    shelves: tuple[tuple[BallId, ...], ...] = ((), ())
    out: tuple[BallId, ...] = ()
    owed: tuple[int, ...] = (0, 0)
    fouls_in_row: tuple[int, ...] = (0, 0)
    phase: Phase = Phase.BREAK
    ball_on: str | None = None
    last_counted: BallId | None = None
    frame_over: bool = False
    winner: int | None = None
    match_over: bool = False
    needs_lag: bool = False
    frame_no: int = 1
    family: FamilyState = field(default_factory=FamilyState)
    warnings: tuple[RefereeWarning, ...] = ()
    touching: BallId | None = None  # the ball the referee announced as touching the cue ball (snooker)
    history: tuple[MatchState, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "balls", freeze(self.balls))
        object.__setattr__(self, "phase", Phase(self.phase))
        if self.rules is not None and self.rules.id != self.game:
            raise ValueError(f"state of {self.game} built with the rules of {self.rules.id}")

    @property
    def extra(self) -> Mapping[str, Any]:
        """The family state in its plain form (``[state.extra]`` of scenario files)."""
        return freeze(self.family.to_extra())

    def warned(self, code: WarningCode, player: int | None = None) -> bool:
        """Has the referee given this warning (to ``player``, default the striker) and not lifted it?"""
        p = self.to_play if player is None else player
        return any(w.code == code and w.player == p for w in self.warnings)

    def warn(self, code: WarningCode, player: int | None = None) -> MatchState:
        """The state with the warning given (a placement outside the house...); no stroke is played."""
        p = self.to_play if player is None else player
        if self.warned(code, p):
            return self
        return replace(
            self, warnings=self.warnings + (RefereeWarning(code, p),), history=self.history + (self,)
        )

    def the_rules(self) -> GameRules:
        if self.rules is None:
            raise ValueError(f"a state of {self.game} built without its rules")
        return self.rules

    # --- construction -----------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: GameRules,
        players: Sequence[str] = ("Player 1", "Player 2"),
        frames_to_win: int = 1,
        layout: Mapping[BallId, Point] | None = None,
        breaker: int = 0,
    ) -> MatchState:
        """A fresh match: the game's rack (or ``layout``), ``breaker`` to play from hand."""
        ref = rules
        n = len(players)
        lo, hi = ref.player_range
        if not lo <= n <= hi:
            raise InputError("match", "players", f"{lo}..{hi} players for {ref.id}")
        if frames_to_win < 1:
            raise InputError("match", "frames_to_win", "an integer >= 1")
        for i, name in enumerate(players):
            check_name("match", f"players[{i}]", name)
        rack = dict(layout) if layout is not None else ref.rack(n)
        in_hand = ref.break_in_hand if ref.cue_ball not in rack else None
        st = cls(
            game=ref.id,
            players=tuple(players),
            balls=rack,
            rules=ref,
            to_play=breaker,
            scores=(0,) * n,
            frames_won=(0,) * n,
            frames_to_win=frames_to_win,
            breaker=breaker,
            is_break=True,
            in_hand=in_hand,
            cue=ref.cue_ball,
            shelves=((),) * n,
            owed=(0,) * n,
            fouls_in_row=(0,) * n,
            phase=Phase.BREAK,
            family=ref.state_type.initial(n),
        )
        return replace(st, out=st.missing_balls(ref.ball_set(n)))

    @classmethod
    def from_scenario(
        cls,
        rules: GameRules,
        state: Mapping[str, Any],
        balls: Mapping[BallId, Point],
        file: str = "<scenario>",
    ) -> MatchState:
        """Build the state a scenario's ``[state]`` table describes (keys in the module docstring)."""
        ref = rules
        game_id = ref.id
        for k in state:
            if k not in STATE_KEYS:
                raise InputError(file, f"state.{k}", f"a known key ({', '.join(STATE_KEYS)})")
        players = _players(ref, state, file)
        n = len(players)
        lo, hi = ref.player_range
        if not lo <= n <= hi:
            raise InputError(file, "state.players", f"{lo}..{hi} players for {game_id}")
        ball_set = ref.ball_set(n)
        for b in balls:
            if b not in ball_set:
                raise InputError(file, f"balls.{b}", f"a ball of {game_id}: {', '.join(ball_set)}")

        def ints(key: str, default: int, lo_v: int | None = 0) -> tuple[int, ...]:
            v = state.get(key)
            if v is None:
                return (default,) * n
            # The autosave's bounds (physics.limits): a state read here may be saved and read back there.
            lo = -MAX_SCORE if lo_v is None else lo_v
            if (
                not isinstance(v, list)
                or len(v) != n
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
                or any(not lo <= x <= MAX_SCORE for x in v)
            ):
                raise InputError(file, f"state.{key}", f"a list of {n} integers from {lo} to {MAX_SCORE}")
            return tuple(v)

        def index(key: str, default: int) -> int:
            v = state.get(key, default)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
                raise InputError(file, f"state.{key}", f"a player index 0..{n - 1}")
            return v

        to_play = index("to_play", 0)
        breaker = index("breaker", to_play)
        frames_won = ints("frames_won", 0)
        ftw = state.get("frames_to_win", max(1, max(frames_won) + 1))
        if not isinstance(ftw, int) or isinstance(ftw, bool) or ftw < 1 or max(frames_won) >= ftw:
            raise InputError(file, "state.frames_to_win", "an integer >= 1 and above every frames_won")

        shelves = _shelves(ref, state, balls, ball_set, n, file)
        scores = ints("scores", 0, lo_v=None if ref.negative_scores else 0)
        if "scores" not in state and ref.shelf_game:
            scores = tuple(len(s) for s in shelves)
        owed = ints("owed", 0)
        fouls_in_row = ints("fouls_in_row", 0)

        cue = _cue(ref, state, balls, ball_set, shelves, file)
        is_break, in_hand, phase = _break_and_hand(ref, state, balls, ball_set, cue, file)
        # A cue ball in hand that [balls] places is where the striker put it: that is part of the stroke
        # (the record's initial position), so before the stroke it is in hand, not on the bed.
        balls = {b: p for b, p in balls.items() if not (in_hand is not None and b == cue)}
        ball_on = state.get("ball_on")
        if ball_on is not None and not isinstance(ball_on, str):
            raise InputError(file, "state.ball_on", "a ball or colour name")
        last = state.get("last_counted")
        if last is not None and (not isinstance(last, str) or last not in ball_set):
            raise InputError(file, "state.last_counted", f"a ball of {game_id}")
        extra_raw = state.get("extra", {})
        if not isinstance(extra_raw, dict):
            raise InputError(file, "state.extra", "a table")
        family = ref.state_type.from_extra(extra_raw, n, file)
        warnings = _warnings(file, state["warnings"], n) if "warnings" in state else family.implied_warnings()
        touching = _touching(ref, state, balls, cue, in_hand, file)

        st = cls(
            game=ref.id,
            players=players,
            balls=dict(balls),
            rules=ref,
            to_play=to_play,
            scores=scores,
            frames_won=frames_won,
            frames_to_win=ftw,
            breaker=breaker,
            is_break=is_break,
            in_hand=in_hand,
            cue=cue,
            shelves=shelves,
            owed=owed,
            fouls_in_row=fouls_in_row,
            phase=Phase(phase),
            ball_on=ball_on,
            last_counted=last,
            family=family,
            warnings=warnings,
            touching=touching,
        )
        return replace(st, out=st.missing_balls(ball_set))

    def missing_balls(self, ball_set: Sequence[BallId]) -> tuple[BallId, ...]:
        """Balls of the game that are nowhere else: out of play."""
        placed = set(self.balls) | {b for s in self.shelves for b in s} | set(self.out)
        if self.in_hand is not None:
            placed.add(self.cue)
        return tuple(self.out) + tuple(b for b in ball_set if b not in placed)

    # --- queries ----------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.players)

    def opponent(self, player: int | None = None) -> int:
        p = self.to_play if player is None else player
        return (p + 1) % self.n_players

    def where(self, ball: BallId) -> list[str]:
        """Every place ``ball`` is (the invariant says exactly one)."""
        out: list[str] = []
        if ball in self.balls:
            out.append("table")
        if self.in_hand is not None and ball == self.cue:
            out.append("hand")
        out += [f"shelf{p}" for p, s in enumerate(self.shelves) if ball in s]
        out += ["out"] * self.out.count(ball)
        return out

    # --- transitions ------------------------------------------------------------------------
    def apply(self, ruling: Ruling, decision: Decision | str | None = None) -> MatchState:
        """Carry a ruling out. ``decision``: the next player's choice (:data:`rules.contract.Decision`; a
        string is read by :func:`rules.contract.parse_decision`: ``"play_on"``, a ball id, ``"lag:<p>"``)."""
        hist = self.history + (self,)
        dec = parse_decision(decision) if isinstance(decision, str) else decision
        self._check_decision(ruling, dec)
        if ruling.replay:
            return replace(self, history=hist)

        balls = dict(ruling.positions)
        shelves = [list(s) for s in self.shelves]
        for b in ruling.from_shelf:
            for s in shelves:
                if b in s:
                    s.remove(b)
        for p, bs in ruling.credit.items():
            shelves[p] += list(bs)
        out = list(self.out) + [b for b in ruling.out_of_play if b not in self.out]
        scores = tuple(ruling.scores)
        to_play = ruling.next_player
        in_hand = ruling.in_hand
        cue = ruling.cue
        if ruling.choice is not None:
            pick = (
                dec.ball
                if isinstance(dec, PickBall)
                else (ruling.choice.among[0] if ruling.choice.among else None)
            )
            if pick is not None:
                balls.pop(pick, None)
                if ruling.choice.credit_to is not None:
                    shelves[ruling.choice.credit_to].append(pick)
                else:
                    out.append(pick)
        if isinstance(dec, Choose) and dec.option == Option.PLAY_ON:
            to_play = ruling.striker
        elif isinstance(dec, Choose) and dec.option == Option.MAKE_OFFENDER_REPLAY:
            # Every ball goes back where it was before the stroke; only the penalty stands.
            balls = dict(self.balls)
            shelves = [list(s) for s in self.shelves]
            out = list(self.out)
            to_play = ruling.striker
            in_hand = self.in_hand
            cue = self.cue
        elif isinstance(dec, Choose) and dec.option in ruling.alternatives:
            alt = ruling.alternatives[dec.option]
            balls, in_hand = dict(alt.positions), alt.in_hand
        elif isinstance(dec, LagWinner):
            to_play = dec.player
        fouls_in_row = list(self.fouls_in_row)
        fouls_in_row[ruling.striker] = fouls_in_row[ruling.striker] + 1 if ruling.foul else 0
        frames_won = list(self.frames_won)
        match_over = False
        if ruling.frame_over and ruling.winner is not None:
            frames_won[ruling.winner] += 1
            match_over = frames_won[ruling.winner] >= self.frames_to_win
        # A ball out of play that the ruling puts on the bed is back in play (golf: the next player's ball
        # is spotted when his turn comes).
        out = [b for b in out if b not in balls]
        last = self.last_counted
        for b in ruling.counted:
            if b != cue:
                last = b
        return replace(
            self,
            balls=balls,
            to_play=to_play,
            scores=scores,
            frames_won=tuple(frames_won),
            is_break=False,
            in_hand=in_hand,
            cue=cue,
            shelves=tuple(tuple(s) for s in shelves),
            out=tuple(out),
            owed=tuple(ruling.owed) if ruling.owed else self.owed,
            fouls_in_row=tuple(fouls_in_row),
            phase=ruling.phase,
            ball_on=ruling.ball_on,
            last_counted=last,
            frame_over=ruling.frame_over,
            winner=ruling.winner,
            match_over=match_over,
            needs_lag=False,
            family=ruling.family if ruling.family is not None else self.family,
            warnings=ruling.standing,
            touching=None,  # the referee looks at the new position (Referee.touching_ball)
            history=hist,
        )

    def _check_decision(self, ruling: Ruling, dec: Decision | None) -> None:
        if dec is None:
            return
        ok = (
            (isinstance(dec, Choose) and dec.option in ruling.options and dec.option != Option.LAG)
            or (isinstance(dec, PickBall) and ruling.choice is not None and dec.ball in ruling.choice.among)
            or (isinstance(dec, LagWinner) and Option.LAG in ruling.options)
        )
        if not ok:
            allowed = [str(o) for o in ruling.options] + (list(ruling.choice.among) if ruling.choice else [])
            raise InputError("decision", decision_text(dec), f"one of {', '.join(allowed) or 'no decision'}")
        if isinstance(dec, LagWinner) and not 0 <= dec.player < self.n_players:
            raise InputError("decision", decision_text(dec), f"lag:<player index 0..{self.n_players - 1}>")

    def next_frame(self, lag_winner: int | None = None) -> MatchState:
        """Rack the next frame. Breaks alternate (003: Общие правила, розыгрыш начального удара); before the
        deciding frame the lag is played again, so its winner must be given then (``needs_lag``)."""
        if self.match_over:
            raise InputError("match", "next_frame", "a match that is not over")
        ref = self.the_rules()
        n = self.n_players
        decider = all(w == self.frames_to_win - 1 for w in self.frames_won) and self.frames_to_win > 1
        if decider and lag_winner is None:
            return replace(self, needs_lag=True, history=self.history + (self,))
        breaker = lag_winner if lag_winner is not None else (self.breaker + 1) % n
        fresh = MatchState.new(ref, self.players, self.frames_to_win, breaker=breaker)
        return replace(
            fresh,
            frames_won=self.frames_won,
            frame_no=self.frame_no + 1,
            history=self.history + (self,),
        )

    def undo(self) -> MatchState:
        """The state before the last ``apply``/``next_frame`` (the snapshot stack)."""
        if not self.history:
            raise InputError("match", "undo", "a stroke to undo")
        return self.history[-1]

    def snapshot(self) -> dict[str, Any]:
        """A plain dict for the HUD and saved matches (``touching`` only when the referee announced one)."""
        d: dict[str, Any] = {
            "game": self.game,
            "table": self.rules.table_played if self.rules is not None else None,
            "players": list(self.players),
            "to_play": self.to_play,
            "scores": list(self.scores),
            "frames_won": list(self.frames_won),
            "frames_to_win": self.frames_to_win,
            "breaker": self.breaker,
            "break": self.is_break,
            "in_hand": str(self.in_hand) if self.in_hand else None,
            "cue": self.cue,
            "balls": {b: [p[0], p[1]] for b, p in self.balls.items()},
            "shelves": [list(s) for s in self.shelves],
            "out": list(self.out),
            "owed": list(self.owed),
            "fouls_in_row": list(self.fouls_in_row),
            "phase": str(self.phase),
            "ball_on": self.ball_on,
            "last_counted": self.last_counted,
            "frame_over": self.frame_over,
            "winner": self.winner,
            "match_over": self.match_over,
            "needs_lag": self.needs_lag,
            "frame_no": self.frame_no,
            "extra": dict(self.extra),
            "warnings": [w.to_dict() for w in self.warnings],
        }
        if self.touching is not None:
            d["touching"] = self.touching
        return d
