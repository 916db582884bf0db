"""Computer against computer, headless: every stroke chosen, played with its level's errors, simulated,
judged and carried out as in a match (``MatchState.apply``), frame after frame.

Each frame is a one-frame match between the two levels (player 0 plays ``levels[0]``); the break alternates.
Everything random comes from one seed: the same seed gives the same frames stroke for stroke.

A lag is not played here: when a ruling leaves who plays next to a lag (Russian 71 at 70:70,
``000: Игра при счете 70:70``) its winner is drawn from the seeded random source, an even chance, as two
players of equal lag would have it. A frame still open after ``max_strokes`` strokes is left undecided.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from physics.params import PhysicsParams
from physics.simulate import simulate
from rules.registry import get_referee
from rules.state import MatchState
from scenes.core.opponent.levels import Level
from scenes.core.opponent.player import choose, decide, layout_for, perform
from scenes.core.turns import decision_of, offered_options

MAX_STROKES = 300  # a frame this long is left undecided (two safety players can trade safeties for ever)


@dataclass(frozen=True)
class FrameResult:
    winner: int | None
    scores: tuple[int, ...]
    strokes: int
    fouls: tuple[int, ...]
    think_s: tuple[tuple[int, float], ...]  # (player, seconds) of every stroke
    cpu_s: tuple[tuple[int, float], ...] = ()  # (player, CPU seconds) of the same thinking
    potted: tuple[int, ...] = (0, 0)  # balls each player counted (for the README's pot figures)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "strokes": self.strokes,
            "fouls": list(self.fouls),
        }


@dataclass
class Tournament:
    game: str
    levels: tuple[int, int]
    frames: list[FrameResult] = field(default_factory=list)

    @property
    def wins(self) -> list[int]:
        return [sum(1 for f in self.frames if f.winner == i) for i in range(2)]

    def to_dict(self) -> dict[str, Any]:
        """The ``autoplay`` JSON (docs/formats.md)."""
        think = [t for f in self.frames for _, t in f.think_s]
        each = [[t for f in self.frames for p, t in f.think_s if p == i] for i in range(2)]
        return {
            "game": self.game,
            "levels": list(self.levels),
            "frames": [f.to_dict() for f in self.frames],
            "wins": self.wins,
            "think_s": {
                "median": round(statistics.median(think), 3) if think else 0.0,
                "max": round(max(think), 3) if think else 0.0,
                # An extension of the contract's shape (docs/formats.md): the same figures for each player's level.
                "by_player": [_figures(ts) for ts in each],
            },
            # An extension: the same thinking in CPU seconds (a shared machine inflates the wall clock).
            "cpu_s": {
                "by_player": [
                    _figures([t for f in self.frames for p, t in f.cpu_s if p == i]) for i in range(2)
                ],
            },
        }


def _figures(times: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(times), 3) if times else 0.0,
        "max": round(max(times), 3) if times else 0.0,
    }


def play_frame(
    game: str,
    levels: tuple[Level, Level],
    seed: int,
    breaker: int = 0,
    params: PhysicsParams | None = None,
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
    max_strokes: int = MAX_STROKES,
) -> FrameResult:
    """One frame of ``game`` between ``levels[0]`` (player 0) and ``levels[1]``, ``breaker`` breaking."""
    ref = get_referee(game)
    p = params or PhysicsParams.for_table(ref.table)
    state = MatchState.new(ref, ("1", "2"), 1, breaker=breaker)
    rng = random.Random(f"{seed}:frame")
    fouls, potted = [0, 0], [0, 0]
    think: list[tuple[int, float]] = []
    cpu: list[tuple[int, float]] = []
    strokes = 0
    while not state.frame_over and strokes < max_strokes:
        me = state.to_play
        plan = choose(state, levels[me], seed=rng.getrandbits(32), params=p, lamp=lamp)
        think.append((me, plan.think_s))
        cpu.append((me, plan.cpu_s))
        shot = perform(plan.shot, levels[me], rng)
        record = simulate(ref.table, layout_for(state, plan.place), shot, p, (), lamp)
        ruling = ref.judge(state, record)
        strokes += 1
        if ruling.foul:
            fouls[ruling.striker] += 1
        else:
            potted[ruling.striker] += len(ruling.counted)
        options = offered_options(ruling, state.n_players)
        decider = ruling.choice.by if ruling.choice is not None else ruling.next_player
        choice = decide(state, ruling, levels[decider]) if options else None
        if choice is None and any(o.startswith("lag:") for o in options):
            choice = f"lag:{rng.randrange(state.n_players)}"  # module docstring: the lag is not played
        # The state keeps every earlier state for undo; a frame played here never undoes.
        state = replace(state.apply(ruling, decision_of(choice)), history=())
    return FrameResult(
        state.winner if state.frame_over else None,
        tuple(state.scores),
        strokes,
        tuple(fouls),
        tuple(think),
        tuple(cpu),
        tuple(potted),
    )


def autoplay(
    game: str,
    levels: tuple[Level, Level],
    frames: int,
    seed: int = 0,
    params: PhysicsParams | None = None,
    lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
    progress: Callable[[int, FrameResult], None] | None = None,
) -> Tournament:
    """``frames`` frames of ``game`` between the two levels; ``progress(i, frame)`` after each."""
    ref = get_referee(game)
    t = Tournament(ref.id, (levels[0].number, levels[1].number))
    for i in range(frames):
        f = play_frame(ref.id, levels, seed * 100003 + i, breaker=i % 2, params=params, lamp=lamp)
        t.frames.append(f)
        if progress is not None:
            progress(i, f)
    return t
