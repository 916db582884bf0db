"""``python main.py referee FILE`` and ``python main.py games`` (main.py dispatches here).

The scenario's ``[state]`` builds the match state (:meth:`MatchState.from_scenario`); the shot record
comes from the physics (or the file's recorded events). ``--all-games`` judges the same record under
every game whose rules can take the stroke (its table, its balls), so rulebooks can be compared on one
stroke, and says in one line for each other game why it cannot.
"""

from __future__ import annotations

import sys
from typing import Any

from physics.errors import InputError
from physics.files import write_out
from physics.record import ShotRecord
from physics.scenario import Scenario
from rules.names import balls_list
from rules.registry import game_ids, games, get_referee
from rules.report import format_comparison, format_record, format_ruling, t
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


def referee_command(
    scenario: Scenario,
    record: ShotRecord,
    json_path: str | None = None,
    all_games: bool = False,
    lang: str = "ru",
) -> int:
    out: dict[str, Any] = {}  # the record's JSON with the rulings after it (ShotRecord.write_json)
    text: list[str] = [format_record(record, lang)]
    if scenario.game == "practice" and not all_games:
        raise InputError(
            scenario.path, "game", "a game with a referee (practice has none; or use --all-games)"
        )
    players: tuple[str, ...] = ("Player 1", "Player 2")
    if scenario.game != "practice":
        state, ruling = judge_scenario(scenario, record)
        players = state.players
        out["ruling"] = ruling.to_dict()
        text.append(format_ruling(ruling, players, lang))
    if all_games:
        rulings: dict[str, Ruling] = {}
        refused: dict[str, dict[str, str]] = {}
        for gid in game_ids():
            reason = why_not(scenario, gid)
            if reason is None:
                try:
                    rulings[gid] = judge_scenario(scenario, record, gid)[1]
                    continue
                except InputError as exc:
                    reason = {
                        "en": f"its match state does not fit: {exc.key}: {exc.expected}",
                        "ru": f"состояние партии не подходит: {exc.key}: {exc.expected}",
                    }
            refused[gid] = reason
        out["rulings"] = {g: r.to_dict() for g, r in rulings.items()}
        out["not_judged"] = {g: r["en"] for g, r in refused.items()}
        text.append(format_comparison(rulings, players, lang))
        lg = "ru" if lang == "ru" else "en"
        head = "Не судится по правилам" if lg == "ru" else "Not judged under"
        text.append("\n".join(f"  {head} {g}: {r[lg]}" for g, r in refused.items()))
    if json_path is not None:
        write_out(json_path, "--json", lambda fp: record.write_json(fp, indent=2, extra=out))
        if json_path == "-":
            return 0
    print("\n\n".join(text))
    return 0


def why_not(scenario: Scenario, game: str) -> dict[str, str] | None:
    """Why ``game``'s rules cannot take the scenario's stroke (``{en, ru}``), or None when they can: the game
    is played on another table, or the layout has a ball the game does not play with."""
    ref = get_referee(game)
    if scenario.table.id not in ref.tables():
        return {
            "en": f"it is played on {', '.join(ref.tables())}, the stroke on {scenario.table.id}",
            "ru": f"в неё играют на столе {', '.join(ref.tables())}, а удар сыгран на {scenario.table.id}",
        }
    portable = {k: v for k, v in scenario.state.items() if k in _PORTABLE}
    allowed = set(scenario_balls(ref, portable if scenario.game != game else scenario.state))
    alien = [b for b in scenario.balls if b not in allowed]
    if alien:
        return {
            "en": f"the layout has {balls_list(alien, 'en')}, which it does not play with",
            "ru": f"в раскладке есть то, чем в неё не играют: {balls_list(alien, 'ru')}",
        }
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
