"""What the referee decides about one stroke: a frozen :class:`Ruling` (design.md "JSON of a ruling").

The fields of design.md are kept exactly (``foul``, ``fouls``, ``counted``, ``points``, ``scores``,
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
- ``phase``/``ball_on``/``extra``: game progress carried into the next state (``"70:70"``, snooker's
  ball on, pool's groups...). ``extra`` is merged into ``MatchState.extra``.
- ``explain``: one-paragraph summary in both languages.
- ``match_over``: the frame's winner has now won the match (frames to a set number of wins).

Foul codes: :class:`FoulCode` lists the codes the core and the Russian games use; other games may
add their own codes as plain strings (``Foul.code`` is ``FoulCode | str``), stable once published.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from physics.record import BallId

Point = tuple[float, float]
Text = Mapping[str, str]  # {"en": ..., "ru": ...}


class InHand(StrEnum):
    """Where the incoming striker may place the cue ball (design.md's closed set)."""

    HOUSE = "house"
    D = "d"
    BEHIND_HEAD_STRING = "behind-head-string"
    ANYWHERE = "anywhere"


class Option(StrEnum):
    """What the next player may choose instead of the default (design.md ``options``)."""

    PLAY_ON = "play_on"  # «играй дальше»: the offender must play the next stroke
    MAKE_OFFENDER_REPLAY = "make_offender_replay"  # restore the position, the offender plays again
    REMOVE_BALL = "remove_ball"  # pick a ball to come off (see Ruling.choice)
    LAG = "lag"  # who plays next is decided by a lag (70:70, deciding frame)


class FoulCode(StrEnum):
    """Stable foul codes. The text/section each one cites is on the Foul itself."""

    MISS = "miss"  # the cue ball touched no object ball
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"  # the cue ball jumped the table
    CUE_BALL_POCKETED = "cue_ball_pocketed"
    BALL_OFF_TABLE = "ball_off_table"  # an object ball off the table (where that is a foul)
    TOUCHED_PLAYER_OBJECT = "touched_player_object"  # a ball touched a player's things within the table
    BALL_TOUCHED = "ball_touched"  # a ball on the bed touched by cue, hand, clothes...
    MISCUE = "miscue"  # кикс: not a clean strike with the tip
    SCOOP = "scoop"  # подцепка: tip under the ball, cue elevated
    DOUBLE_HIT = "double_hit"
    WRONG_BALL_STRUCK = "wrong_ball_struck"  # the cue struck a ball other than the cue ball
    FROZEN_BALL_ANGLE = "frozen_ball_angle"  # cue ball frozen to an object ball played under 45°
    HOUSE_BALL_FIRST = "house_ball_first"  # from hand: hit a ball in the house before leaving it
    CUE_BALL_OUTSIDE_HOUSE = "cue_ball_outside_house"  # from hand: cue ball placed outside the house
    ILLEGAL_SAFETY = "illegal_safety"  # отыгрыш without its required result
    WRONG_BALL_FIRST = "wrong_ball_first"  # first contact not with a legal ball (pool, snooker)
    NO_RAIL = "no_rail"  # no ball to a cushion after contact (pool)
    JUMP_SHOT = "jump_shot"  # snooker's jump shot
    PUSH_SHOT = "push_shot"
    OPPONENT_INTERFERENCE = "opponent_interference"


@dataclass(frozen=True, slots=True)
class Foul:
    """One broken rule: a stable code, the rule cited (``"003: Выскочившие шары"``) and why, in en/ru."""

    code: FoulCode | str
    rule: str
    explain: Text

    def to_dict(self) -> dict[str, Any]:
        return {"code": str(self.code), "rule": self.rule, "explain": dict(self.explain)}


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

    code: str
    rule: str
    explain: Text

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "rule": self.rule, "explain": dict(self.explain)}


@dataclass(frozen=True, slots=True)
class Choice:
    """A pick the next player must make: ``by`` chooses one of ``among``; it goes to ``credit_to``'s shelf."""

    kind: str  # "remove_ball"
    by: int
    among: tuple[BallId, ...]
    credit_to: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "by": self.by, "among": list(self.among), "credit_to": self.credit_to}


@dataclass(frozen=True)
class Ruling:
    """The referee's decision on one stroke. Never moves a ball: says what to do (design.md)."""

    foul: bool
    fouls: tuple[Foul, ...]
    counted: tuple[BallId, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    off_table: tuple[BallId, ...]
    respot: tuple[Respot, ...]
    next_player: int
    in_hand: InHand | None
    options: tuple[str, ...]
    frame_over: bool
    winner: int | None
    # --- extensions (see the module docstring) ---
    striker: int = 0
    positions: Mapping[BallId, Point] = field(default_factory=dict)
    cue: BallId = "cue"
    credit: Mapping[int, tuple[BallId, ...]] = field(default_factory=dict)
    from_shelf: tuple[BallId, ...] = ()
    out_of_play: tuple[BallId, ...] = ()
    owed: tuple[int, ...] = ()
    choice: Choice | None = None
    replay: bool = False
    warnings: tuple[Note, ...] = ()
    phase: str = "play"
    ball_on: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    explain: Text = field(default_factory=dict)
    game: str = ""
    match_over: bool = False  # this frame's winner has won the match

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
                "phase": self.phase,
                "ball_on": self.ball_on,
                "positions": {b: [round(p[0], 6), round(p[1], 6)] for b, p in self.positions.items()},
                "explain": dict(self.explain),
                "match_over": self.match_over,
            }
        )
        if self.extra:
            d["extra"] = dict(self.extra)
        return d

    def codes(self) -> list[str]:
        """The foul codes, for quick checks in tests and reports."""
        return [str(f.code) for f in self.fouls]
