"""The typed contract between the referee, the match state and the scenes.

- Closed vocabularies as enums: :class:`InHand`, :class:`Option`, :class:`FoulCode`, :class:`NoteCode`,
  :class:`Phase`, :class:`Family`, :class:`CallKind`, :class:`WarningCode`. They are ``StrEnum``: their
  values are the strings of the ruling JSON and of scenario files (docs/formats.md), so old files read as before.
- :class:`FamilyState`: a game family's progress (snooker's free ball, golf's holes...), a frozen dataclass
  per family; its plain form (:meth:`FamilyState.to_extra`) is the ``extra`` of scenario files and rulings.
- :data:`Decision`: what the next player chose after a ruling, one typed union.
- :class:`RefereeWarning`: a warning the referee has given and that the rules later use (match state).
- :class:`Required`: what the player at the table must do next, for the HUD.
- :class:`GameRules`: what :class:`rules.state.MatchState` needs from a game's rules (a ``Referee``
  provides it), so the state never imports the registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, ClassVar, Protocol, Self

from physics.errors import InputError
from physics.record import BallId, PocketId

Point = tuple[float, float]
Text = Mapping[str, str]  # {"en": ..., "ru": ...}


class InHand(StrEnum):
    """Where the incoming striker may place the cue ball (docs/formats.md §Ruling's closed set)."""

    HOUSE = "house"
    D = "d"
    BEHIND_HEAD_STRING = "behind-head-string"
    ANYWHERE = "anywhere"


class Option(StrEnum):
    """What the next player may choose instead of the default (docs/formats.md §Ruling ``options``)."""

    PLAY_ON = "play_on"  # «играй дальше»: the offender must play the next stroke
    MAKE_OFFENDER_REPLAY = "make_offender_replay"  # restore the position, the offender plays again
    REMOVE_BALL = "remove_ball"  # pick a ball to come off (see Ruling.choice)
    LAG = "lag"  # who plays next is decided by a lag (70:70, deciding frame)
    SPOT_OBJECT_BALL = (
        "spot_object_ball"  # golf rule 4: the object ball on the foot spot, play from the house
    )
    CUE_BALL_ON_HEAD_SPOT = "cue_ball_on_head_spot"  # golf rule 4: the cue ball on the head spot


class FoulCode(StrEnum):
    """Every foul code the referee gives (stable: published in rulings and case files)."""

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
    CUE_BALL_OUTSIDE_HOUSE = (
        "cue_ball_outside_house"  # from hand: played from outside the house after a warning
    )
    ILLEGAL_SAFETY = "illegal_safety"  # отыгрыш without its required result
    WRONG_BALL_FIRST = "wrong_ball_first"  # first contact not with a legal ball (pool, snooker)
    NO_RAIL = "no_rail"  # no ball to a cushion after contact (pool)
    JUMP_SHOT = "jump_shot"  # snooker's jump shot
    PUSH_SHOT = "push_shot"
    OPPONENT_INTERFERENCE = "opponent_interference"  # the opponent touched or stopped a ball: his foul
    # pool
    ILLEGAL_BREAK = "illegal_break"
    BREAKING_VIOLATION = "breaking_violation"
    THREE_FOULS = "three_consecutive_fouls"
    CUE_BALL_MISPLACED = "cue_ball_misplaced"
    BEHIND_STRING_FIRST = "ball_behind_head_string_first"
    EIGHT_EARLY = "eight_ball_early"
    EIGHT_WRONG_POCKET = "eight_ball_wrong_pocket"
    EIGHT_ON_FOUL = "eight_ball_on_foul"
    EIGHT_OFF_TABLE = "eight_ball_off_table"
    # snooker
    BALL_NOT_ON_POTTED = "ball_not_on_potted"
    FREE_BALL_SNOOKER = "snookered_behind_free_ball"
    NO_NOMINATION = "no_colour_nominated"
    REDS_IN_SUCCESSION = "reds_in_successive_strokes"
    NON_WHITE_CUE_BALL = "non_white_cue_ball"
    THREE_MISSES = "three_misses"
    CUE_BALL_OUTSIDE_D = "cue_ball_outside_d"
    # golf
    OPENING_SHORT = "opening_short_of_foot_cushion"
    WRONG_POCKET = "wrong_pocket"


class NoteCode(StrEnum):
    """Codes of the referee's announcements (``Ruling.warnings``)."""

    OUTSIDE_INTERFERENCE = "outside_interference"
    OPPONENT_INTERFERENCE = "opponent_interference"
    HANGING_BALL_FELL = "hanging_ball_fell"
    NOT_OUT_OF_HOUSE = "not_out_of_house"
    REFEREE_ERROR = "referee_error"
    SECOND_FOUL_IN_ROW = "second_foul_in_row"
    SEVENTY_ALL = "seventy_all"
    STALEMATE = "stalemate"
    FOUL_AND_MISS = "foul_and_miss"
    THIRD_MISS_WARNING = "third_miss_warning"
    SECOND_FOUL_WARNING = "second_foul_warning"


class Phase(StrEnum):
    """Where a frame stands."""

    BREAK = "break"
    PLAY = "play"
    SEVENTY = "70:70"  # Russian 71 (000: Игра при счете 70:70)
    RESPOTTED_BLACK = "respotted-black"  # snooker: the black respotted on a tie


class Family(StrEnum):
    """Rulebook families (the columns of rules-notes §2)."""

    RUSSIAN = "ru"
    POOL = "wpa"
    SNOOKER = "snooker"
    GOLF = "golf"


class CallKind(StrEnum):
    """What the striker must declare before the stroke."""

    NONE = "none"
    BALL_AND_POCKET = "ball_and_pocket"  # 71, 14.1, the called pyramid games
    COLOUR = "colour"  # snooker: the colour after a red
    FREE_BALL = "free_ball"  # snooker: the ball nominated as a free ball


class WarningCode(StrEnum):
    """Warnings a referee gives that the rules then depend on (kept in the match state)."""

    THIRD_MISS = "third_miss"  # snooker: after two misses, a third loses the frame (WPBSA S3 R14)
    STALEMATE = "stalemate"  # 71: after the second deliberate foul in a row (000: Патовая позиция)
    OUTSIDE_HOUSE = (
        "outside_house"  # from hand the cue ball was placed outside the house (003: Начальный удар, в)
    )


WARNING_RULES: dict[WarningCode, str] = {
    WarningCode.THIRD_MISS: "WPBSA S3 R14",
    WarningCode.STALEMATE: "000: Русская пирамида, Патовая позиция",
    WarningCode.OUTSIDE_HOUSE: "003: Начальный удар (с руки из дома), в",
}


@dataclass(frozen=True)
class RefereeWarning:
    """A warning given to ``player`` (what a later stroke is judged against)."""

    code: WarningCode
    player: int

    @property
    def rule(self) -> str:
        return WARNING_RULES[self.code]

    def to_dict(self) -> dict[str, Any]:
        return {"code": str(self.code), "player": self.player}


@dataclass(frozen=True)
class Choose:
    """The next player takes one of the ruling's options."""

    option: Option


@dataclass(frozen=True)
class PickBall:
    """The next player picks a ball of the ruling's choice (Moscow pyramid: which ball comes off)."""

    ball: BallId


@dataclass(frozen=True)
class LagWinner:
    """The lag the ruling asked for was won by ``player``."""

    player: int


Decision = Choose | PickBall | LagWinner


def parse_decision(text: str) -> Decision:
    """A decision as the command line, the window and saved files write it: an option's value,
    ``lag:<player>`` or a ball id."""
    if text in {o.value for o in Option}:
        return Choose(Option(text))
    if text.startswith("lag:"):
        rest = text[4:]
        if not rest.isdigit():
            raise InputError("decision", text, "lag:<player index>")
        return LagWinner(int(rest))
    return PickBall(text)


def decision_text(d: Decision) -> str:
    if isinstance(d, Choose):
        return str(d.option)
    if isinstance(d, LagWinner):
        return f"lag:{d.player}"
    return d.ball


@dataclass(frozen=True)
class Required:
    """What the player at the table must do before the next stroke (the HUD draws it).

    ``ball_on``: ball ids or a group (``red``, ``colour``, ``solids``, ``stripes``, ``any``) the cue ball must
    meet first; ``call``: what must be declared; ``pocket``: golf's hole; ``in_hand``: where the cue ball
    goes; ``warnings``: the referee's standing warnings to this player; ``touching``: the ball the referee
    announces as touching the cue ball (snooker: play away from it)."""

    ball_on: tuple[str, ...] = ()
    call: CallKind = CallKind.NONE
    pocket: PocketId | None = None
    in_hand: InHand | None = None
    warnings: tuple[RefereeWarning, ...] = ()
    touching: BallId | None = None


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


@dataclass(frozen=True)
class FamilyState:
    """A family's match progress. Subclasses add fields and read them in :meth:`read`."""

    @classmethod
    def initial(cls, n_players: int) -> Self:
        return cls()

    @classmethod
    def read(cls, key: str, value: Any, n_players: int, file: str) -> Any:
        """One ``[state.extra]`` value checked and typed (raise InputError naming ``state.extra.<key>``)."""
        raise InputError(file, f"state.extra.{key}", "a known key")

    @classmethod
    def from_extra(cls, raw: Mapping[str, Any], n_players: int, file: str) -> Self:
        names = [f.name for f in fields(cls)]
        values: dict[str, Any] = {}
        for k, v in raw.items():
            if k not in names:
                raise InputError(file, f"state.extra.{k}", f"one of {', '.join(names) or 'no keys'}")
            values[k] = cls.read(k, v, n_players, file)
        return replace(cls.initial(n_players), **values)

    def to_extra(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def implied_warnings(self) -> tuple[RefereeWarning, ...]:
        """Warnings a file written before warnings were kept in ``[state]`` implies by its counters (the
        referee gave them at the count the counter shows)."""
        return ()


def int_list(file: str, key: str, v: Any, n: int | None, lo: int = 0) -> tuple[int, ...]:
    """A ``[state.extra]`` list of ints (``n`` of them when given), each ``>= lo``."""
    if (
        not isinstance(v, (list, tuple))
        or (n is not None and len(v) != n)
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= lo for x in v)
    ):
        count = f"{n} " if n is not None else ""
        raise InputError(file, f"state.extra.{key}", f"a list of {count}integers >= {lo}")
    return tuple(v)


def player_index(file: str, key: str, v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < -1:
        raise InputError(file, f"state.extra.{key}", "a player index, or -1 for none")
    return v


def flag(file: str, key: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise InputError(file, f"state.extra.{key}", "true or false")
    return v


class GameRules(Protocol):
    """What the match state asks of a game's rules (``rules.base.Referee`` provides all of it)."""

    id: ClassVar[str]
    cue_ball: ClassVar[BallId]
    any_ball_cue: ClassVar[bool]
    cue_may_be_credited: ClassVar[bool]
    shelf_game: ClassVar[bool]
    negative_scores: ClassVar[bool]  # a foul can take a score below 0
    player_range: ClassVar[tuple[int, int]]
    break_in_hand: ClassVar[InHand | None]
    phases: ClassVar[frozenset[Phase]]
    state_type: ClassVar[type[FamilyState]]
    table_played: str  # the table id of the match (the game's own, or another it is played on)

    def ball_set(self, n_players: int) -> tuple[BallId, ...]: ...

    def rack(self, n_players: int) -> dict[BallId, Point]: ...
