"""``python main.py referee FILE`` (the judging and its JSON) and ``python main.py games``.

The scenario's ``[state]`` builds the match state (:meth:`MatchState.from_scenario`); the shot record
comes from the physics (or the file's recorded events). ``--all-games`` judges the same record under
every game whose rules can take the stroke (its table, its balls), so rulebooks can be compared on one
stroke, and says for each other game why it cannot (a :class:`Refusal`). What ``referee`` prints for a
person, in the interface's language with every ball, foul, game and table named, is
``scenes/core/referee_text.py``'s (the texts are the gettext catalogs', which the referee does not read).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from physics.errors import InputError
from physics.files import write_out
from physics.record import BallId, ShotRecord
from physics.scenario import Scenario
from rules.names import balls_list
from rules.registry import game_ids, games, get_referee
from rules.report import t
from rules.ruling import Ruling
from rules.state import MatchState, scenario_balls

# Keys of [state] that mean the same in every game; the rest belong to the scenario's own game.
_PORTABLE = ("players", "to_play", "frames_won", "frames_to_win", "breaker", "break")


def judge_scenario(
    scenario: Scenario, record: ShotRecord, game: str | None = None
) -> tuple[MatchState, Ruling]:
    """Judge ``record`` by ``game`` (the scenario's game by default) from the scenario's ``[state]``."""
    gid = game or scenario.game
    ref = get_referee(gid, scenario.table.id)
    raw = dict(scenario.state)
    same = scenario.game != "practice" and get_referee(scenario.game).id == ref.id
    if same:
        state = MatchState.from_scenario(ref, raw, scenario.balls, scenario.path)
    else:
        try:
            state = MatchState.from_scenario(
                ref, {k: v for k, v in raw.items() if k in _PORTABLE}, scenario.balls, scenario.path
            )
        except InputError:
            # The scenario's match (golf's three players...) does not fit this game: judge a fresh one.
            state = MatchState.from_scenario(ref, {}, scenario.balls, scenario.path)
    # A recorded stroke with an outsider's touch may carry the same stroke without it ([undisturbed]):
    # the rulebooks that put a disturbed ball where it would have stopped need it (WPBSA S3 R15).
    undisturbed = scenario.undisturbed_record() if scenario.is_recorded else None
    return state, ref.judge(state, record, undisturbed, scenario.objects)


@dataclass(frozen=True)
class Refusal:
    """Why a game's rules cannot take a stroke: the game is played on other ``tables`` than the stroke's
    ``table``; the layout has ``balls`` the game does not play with; or the scenario's match state does not
    fit it (``key``, ``expected``: the InputError's)."""

    kind: Literal["table", "balls", "state"]
    tables: tuple[str, ...] = ()
    table: str = ""
    balls: tuple[BallId, ...] = ()
    key: str = ""
    expected: str = ""

    @property
    def en(self) -> str:
        """The reason in English, as the JSON's ``not_judged`` gives it."""
        if self.kind == "table":
            return f"it is played on {', '.join(self.tables)}, the stroke on {self.table}"
        if self.kind == "balls":
            return f"the layout has {balls_list(self.balls, 'en')}, which it does not play with"
        return f"its match state does not fit: {self.key}: {self.expected}"


@dataclass(frozen=True)
class RefereeRun:
    """What ``referee`` found: the ruling under the scenario's own game (None for practice) and, with
    ``--all-games``, the ruling of every game that can take the stroke and why each other one cannot."""

    players: tuple[str, ...]
    ruling: Ruling | None
    all_games: bool = False
    rulings: Mapping[str, Ruling] = field(default_factory=dict)
    refused: Mapping[str, Refusal] = field(default_factory=dict)

    def json_extra(self) -> dict[str, Any]:
        """The keys written after the shot record's JSON (docs/formats.md: ``ruling``; ``rulings``, ``not_judged``)."""
        out: dict[str, Any] = {}
        if self.ruling is not None:
            out["ruling"] = self.ruling.to_dict()
        if self.all_games:
            out["rulings"] = {g: r.to_dict() for g, r in self.rulings.items()}
            out["not_judged"] = {g: r.en for g, r in self.refused.items()}
        return out


def judge_command(scenario: Scenario, record: ShotRecord, all_games: bool = False) -> RefereeRun:
    """Judge the stroke as ``referee`` does: by the scenario's game and, ``all_games``, by every game."""
    if scenario.game == "practice" and not all_games:
        raise InputError(
            scenario.path, "game", "a game with a referee (practice has none; or use --all-games)"
        )
    players: tuple[str, ...] = ("Player 1", "Player 2")
    ruling = None
    if scenario.game != "practice":
        state, ruling = judge_scenario(scenario, record)
        players = state.players
    if not all_games:
        return RefereeRun(players, ruling)
    rulings: dict[str, Ruling] = {}
    refused: dict[str, Refusal] = {}
    for gid in game_ids():
        reason = why_not(scenario, gid)
        if reason is None:
            try:
                rulings[gid] = judge_scenario(scenario, record, gid)[1]
                continue
            except InputError as exc:
                reason = Refusal("state", key=exc.key, expected=exc.expected)
        refused[gid] = reason
    return RefereeRun(players, ruling, True, rulings, refused)


def write_json(run: RefereeRun, record: ShotRecord, json_path: str) -> None:
    """``--json PATH``: the shot record's JSON with the rulings after it (``-``: stdout)."""
    write_out(json_path, "--json", lambda fp: record.write_json(fp, indent=2, extra=run.json_extra()))


def why_not(scenario: Scenario, game: str) -> Refusal | None:
    """Why ``game``'s rules cannot take the scenario's stroke, or None when they can: the game is played on
    another table, or the layout has a ball the game does not play with."""
    ref = get_referee(game)
    if scenario.table.id not in ref.tables():
        return Refusal("table", tables=tuple(ref.tables()), table=scenario.table.id)
    portable = {k: v for k, v in scenario.state.items() if k in _PORTABLE}
    allowed = set(scenario_balls(ref, portable if scenario.game != game else scenario.state))
    alien = [b for b in scenario.balls if b not in allowed]
    if alien:
        return Refusal("balls", balls=tuple(alien))
    return None


def games_command(lang: str = "ru") -> int:
    rows = games()
    print(f"{t('games', lang)}:")
    w = max(len(g) for g, _, _ in rows)
    for gid, names, _ in rows:
        first, second = (names["ru"], names["en"]) if lang == "ru" else (names["en"], names["ru"])
        # Its own table first, then any other it is played on (golf: the snooker tables too).
        print(f"  {gid.ljust(w)}  {first} / {second}  [{', '.join(get_referee(gid).tables())}]")
    sys.stdout.flush()
    return 0
