"""What the referee decides about one stroke: a frozen :class:`Ruling` (docs/formats.md §Ruling).

The contract's fields (docs/formats.md §Ruling) are kept exactly (``foul``, ``fouls``, ``counted``, ``points``, ``scores``,
``off_table``, ``respot``, ``next_player``, ``in_hand``, ``options``, ``frame_over``, ``winner``);
everything else is an extension that :meth:`MatchState.apply` (``rules/state.py``) needs to carry the
ruling out without looking at the shot record again:

- ``positions``: every ball on the bed once the ruling is carried out (final rest positions, respots,
  minus balls removed); a ball in hand is not on the bed and not listed.
- ``cue``: the ball the striker plays with next (Американка lets any ball be the cue ball).
- ``credit``: balls that go to a player's shelf: ``{player: (ball, ...)}`` (the counted balls of shelf
  games, the ball removed for an in-off in Moscow pyramid...).
- ``from_shelf``: balls taken back from a shelf (a penalty ball) - they are also in ``respot``.
- ``out_of_play``: balls that leave the game for good by rule (pool's jumped object balls, snooker's reds,
  the pyramid balls counted in a points game).
- ``owed``: penalty balls each player owes after this ruling (Американка/Moscow/8: «долг»).
- ``choice``: a pick the next player must make before play resumes (Moscow: which ball comes off).
- ``replay``: the stroke does not count at all: the position is restored and it is played again
  (outside interference, a hanging ball that dropped by itself, a break that never left the house).
- ``warnings``: things the referee must announce (second foul in a row, ...), ``{en, ru}`` texts.
- ``standing``: the referee's warnings in force after this stroke (:class:`rules.contract.RefereeWarning`:
  the third-miss warning, the stalemate warning...): they become the next state's ``warnings``.
- ``phase``/``ball_on``/``family``: game progress carried into the next state (``70:70``, snooker's
  ball on, pool's groups...); ``family`` is the game family's typed state, and its plain form is the JSON
  ``extra`` (the key scenario files and old rulings use).
- ``alternatives``: for an option that sets the table up differently (golf's rule 4), the table it gives.
- ``explain``: one-paragraph summary in both languages.
- ``match_over``: the frame's winner has now won the match (frames to a set number of wins).

Each foul and announcement also carries ``source`` in its JSON (``rules.sources.cite``): the rule texts it
cites by their own titles and sections, the passage quoted in Russian with the project's English translation,
and for snooker and pool the international rule (WPBSA, WPA) beside it and whether they agree.

Codes are enums (``rules/contract.py``): :class:`FoulCode` for fouls, :class:`NoteCode` for
announcements; their values are the published strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from physics.record import BallId
from rules.contract import (
    Family,
    FamilyState,
    FoulCode,
    InHand,
    NoteCode,
    Option,
    Phase,
    Point,
    RefereeWarning,
    Text,
)
from rules.frozen import FrozenMap, freeze
from rules.sources import cite

__all__ = [
    "Alternative",
    "Choice",
    "Foul",
    "FoulCode",
    "InHand",
    "Note",
    "NoteCode",
    "Option",
    "Phase",
    "Point",
    "Respot",
    "Ruling",
    "Text",
]


def _text(t: Text) -> FrozenMap[str, str]:
    return freeze(t)


@dataclass(frozen=True, slots=True)
class Foul:
    """One broken rule: a stable code, the rule cited (``"003: Выскочившие шары"``) and why, in en/ru."""

    code: FoulCode
    rule: str
    explain: Text
    by: int | None = None  # who fouled when it is not the striker (the opponent's interference)
    family: Family | None = None  # the rulebook family judging: names the sources (``rules.sources``)
    world: bool = True  # the international rule is cited beside the Russian text (not for 000's own games)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", FoulCode(self.code))
        object.__setattr__(self, "explain", _text(self.explain))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"code": str(self.code), "rule": self.rule, "explain": dict(self.explain)}
        if self.by is not None:
            d["by"] = self.by
        if self.family is not None:
            d["source"] = cite(self.rule, self.family, self.world)
        return d


@dataclass(frozen=True, slots=True)
class Respot:
    """Put ``ball`` back on the bed with its centre at ``at`` (x, y)."""

    ball: BallId
    at: Point

    def to_dict(self) -> dict[str, Any]:
        return {"ball": self.ball, "at": [round(self.at[0], 6), round(self.at[1], 6)]}


@dataclass(frozen=True, slots=True)
class Note:
    """A referee's announcement (warning) with the rule it comes from."""

    code: NoteCode
    rule: str
    explain: Text
    family: Family | None = None  # the rulebook family judging: names the sources (``rules.sources``)
    world: bool = True  # the international rule is cited beside the Russian text (not for 000's own games)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", NoteCode(self.code))
        object.__setattr__(self, "explain", _text(self.explain))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"code": str(self.code), "rule": self.rule, "explain": dict(self.explain)}
        if self.family is not None:
            d["source"] = cite(self.rule, self.family, self.world)
        return d


@dataclass(frozen=True, slots=True)
class Choice:
    """A pick the next player must make: ``by`` chooses one of ``among``; it goes to ``credit_to``'s shelf."""

    kind: Option  # Option.REMOVE_BALL
    by: int
    among: tuple[BallId, ...]
    credit_to: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "by": self.by, "among": list(self.among), "credit_to": self.credit_to}


@dataclass(frozen=True, slots=True)
class Alternative:
    """The table an option sets up instead of the ruling's own: the balls on the bed and where the cue
    ball is in hand (golf's rule 4)."""

    positions: Mapping[BallId, Point]
    in_hand: InHand | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "positions", freeze(self.positions))

    def to_dict(self) -> dict[str, Any]:
        return {
            "positions": {b: [round(p[0], 6), round(p[1], 6)] for b, p in self.positions.items()},
            "in_hand": str(self.in_hand) if self.in_hand is not None else None,
        }


@dataclass(frozen=True)
class Ruling:
    """The referee's decision on one stroke. Never moves a ball: says what to do (docs/architecture.md §A stroke's path).

    ``foul`` is the striker's; ``fouls`` lists his and, with ``by`` set, anyone else's (the opponent who
    interfered)."""

    foul: bool
    fouls: tuple[Foul, ...]
    counted: tuple[BallId, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    off_table: tuple[BallId, ...]
    respot: tuple[Respot, ...]
    next_player: int
    in_hand: InHand | None
    options: tuple[Option, ...]
    frame_over: bool
    winner: int | None
    # --- extensions (see the module docstring) ---
    striker: int = 0
    positions: Mapping[BallId, Point] = field(default_factory=FrozenMap)
    cue: BallId = "cue"
    credit: Mapping[int, tuple[BallId, ...]] = field(default_factory=FrozenMap)
    from_shelf: tuple[BallId, ...] = ()
    out_of_play: tuple[BallId, ...] = ()
    owed: tuple[int, ...] = ()
    choice: Choice | None = None
    replay: bool = False
    warnings: tuple[Note, ...] = ()
    phase: Phase = Phase.PLAY
    ball_on: str | None = None
    family: FamilyState | None = None
    explain: Text = field(default_factory=FrozenMap)
    game: str = ""
    match_over: bool = False  # this frame's winner has won the match
    standing: tuple[RefereeWarning, ...] = ()
    alternatives: Mapping[Option, Alternative] = field(default_factory=FrozenMap)

    def __post_init__(self) -> None:
        for name in ("positions", "credit", "explain", "alternatives"):
            object.__setattr__(self, name, freeze(getattr(self, name)))
        object.__setattr__(self, "phase", Phase(self.phase))
        object.__setattr__(self, "options", tuple(Option(o) for o in self.options))

    @property
    def extra(self) -> Mapping[str, Any]:
        """The family state in its plain form (the JSON ``extra``; empty when the game keeps none)."""
        return freeze(self.family.to_extra()) if self.family is not None else FrozenMap()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "foul": self.foul,
            "fouls": [f.to_dict() for f in self.fouls],
            "counted": list(self.counted),
            "points": list(self.points),
            "scores": list(self.scores),
            "off_table": list(self.off_table),
            "respot": [r.to_dict() for r in self.respot],
            "next_player": self.next_player,
            "in_hand": str(self.in_hand) if self.in_hand is not None else None,
            "options": [str(o) for o in self.options],
            "frame_over": self.frame_over,
            "winner": self.winner,
        }
        d.update(
            {
                "game": self.game,
                "striker": self.striker,
                "cue": self.cue,
                "credit": {str(p): list(b) for p, b in self.credit.items()},
                "from_shelf": list(self.from_shelf),
                "out_of_play": list(self.out_of_play),
                "owed": list(self.owed),
                "choice": self.choice.to_dict() if self.choice is not None else None,
                "replay": self.replay,
                "warnings": [w.to_dict() for w in self.warnings],
                "phase": str(self.phase),
                "ball_on": self.ball_on,
                "positions": {b: [round(p[0], 6), round(p[1], 6)] for b, p in self.positions.items()},
                "explain": dict(self.explain),
                "match_over": self.match_over,
                "standing_warnings": [w.to_dict() for w in self.standing],
            }
        )
        if self.alternatives:
            d["alternatives"] = {str(o): a.to_dict() for o, a in self.alternatives.items()}
        if self.extra:
            d["extra"] = dict(self.extra)
        return d

    def codes(self) -> list[str]:
        """The foul codes, for quick checks in tests and reports."""
        return [str(f.code) for f in self.fouls]
