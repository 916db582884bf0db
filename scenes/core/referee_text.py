"""What ``python main.py referee FILE`` prints for a person, in the interface's language.

The stroke told event by event (the text trainer's words), where every ball ended, the ruling and, with
``--all-games``, every rulebook that can take the stroke side by side and why each other one cannot: balls,
fouls, games, tables, in-hand areas, options and rules named as the language names them, default player
names in that language (issue 15 §2: no raw id or code). The texts are the gettext catalogs'
(``referee.*``); the judging and the JSON (``--json``, docs/formats.md §Ruling, byte for byte) are
``rules/cli.py``'s, which this module only reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from physics.record import BallStatus, ShotRecord
from physics.scenario import Scenario
from physics.tables import TableSpec, load_table
from rules.cli import RefereeRun, Refusal, judge_command, write_json
from rules.names import balls_list
from rules.ruling import Ruling
from scenes.core.i18n import (
    ball_name,
    display_names,
    game_name,
    option_name,
    pocket_name,
    rule_name,
    tr,
    zone_name,
)


def referee_command(
    scenario: Scenario,
    record: ShotRecord,
    json_path: str | None = None,
    all_games: bool = False,
    lang: str = "ru",
) -> int:
    """Judge the stroke, write the JSON where ``--json`` says, and print the text (unless the JSON went to
    stdout)."""
    run = judge_command(scenario, record, all_games)
    if json_path is not None:
        write_json(run, record, json_path)
        if json_path == "-":
            return 0
    print(referee_text(run, record, lang))
    return 0


def referee_text(run: RefereeRun, record: ShotRecord, lang: str) -> str:
    players = display_names(run.players, lang)
    table = load_table(record.table)
    parts = [record_text(record, table, lang)]
    if run.ruling is not None:
        parts.append(ruling_text(run.ruling, players, table, record, lang))
    if run.all_games:
        parts.append(comparison_text(run.rulings, players, lang))
        if run.refused:
            parts.append(
                "\n".join(
                    "  " + tr("referee.not_judged", lang, game=game_name(g, lang), why=refusal_text(r, lang))
                    for g, r in run.refused.items()
                )
            )
    return "\n\n".join(parts)


def _names(balls: Sequence[str], lang: str) -> str:
    return ", ".join(ball_name(b, lang) for b in balls) or tr("referee.none", lang)


def _table(table_id: str, lang: str) -> str:
    return tr("referee.table_name", lang, name=load_table(table_id).name["ru" if lang == "ru" else "en"])


def record_text(record: ShotRecord, table: TableSpec, lang: str) -> str:
    """The stroke: its table and length, each event in words, where every ball ended."""
    from scenes.core.trainer.text import describe_event, thing_name

    lines = [tr("referee.record", lang, table=_table(table.id, lang), d=record.duration)]
    lines.append(tr("referee.events", lang))
    for e in record.events:
        text = describe_event(e, lang)
        if text is not None:
            lines.append(f"  {tr('trainer.text.at', lang, t=e.t)}  {text}")
    lines.append(tr("referee.final", lang))
    for b, f in record.final.items():
        x, y = (f.pos[0], f.pos[1]) if f.pos is not None else (0.0, 0.0)
        if f.status == BallStatus.POCKETED:
            where = (
                tr("referee.pocketed", lang, pocket=pocket_name(f.pocket, lang))
                if f.pocket
                else tr("referee.pocketed_somewhere", lang)
            )
        elif f.status == BallStatus.OFF_TABLE:
            where = tr(
                "referee.off_table", lang, rest=thing_name("object", f.rest or "floor", lang), x=x, y=y
            )
        else:
            where = tr("referee.on_table", lang, x=x, y=y)
        lines.append(f"  {ball_name(b, lang)}: {where}")
    return "\n".join(lines)


def _player(players: Sequence[str], p: int | None) -> str:
    if p is None:
        return "-"
    return players[p] if 0 <= p < len(players) else str(p + 1)


def _next(r: Ruling, players: Sequence[str], lang: str) -> str:
    who = _player(players, r.next_player)
    if r.in_hand is None:
        return who
    return tr("referee.next_in_hand", lang, player=who, zone=zone_name(str(r.in_hand), lang))


def _respot(r: Ruling, table: TableSpec, record: ShotRecord, lang: str) -> str:
    from scenes.core.trainer.questions import name_place, place_name

    out = []
    for x in r.respot:
        place = name_place(table, record, x.ball, x.at)
        at = f"({x.at[0]:+.3f}, {x.at[1]:+.3f})"
        where = at if place == "elsewhere" else f"{place_name(place, lang)} {at}"
        out.append(f"{ball_name(x.ball, lang)} → {where}")
    return ", ".join(out)


def _scores(values: Sequence[int]) -> str:
    return " : ".join(str(v) for v in values)


def ruling_text(r: Ruling, players: Sequence[str], table: TableSpec, record: ShotRecord, lang: str) -> str:
    """One ruling in full: the fouls (named, with the rule and why), what counts, the points and the score,
    what left the table and what is put back where, who plays next and from where, the options, the
    referee's announcements and the end of the frame."""
    from scenes.core.stats import foul_name

    lines = [tr("referee.ruling", lang, game=game_name(r.game, lang))]
    announcements = [
        tr(
            "referee.warning",
            lang,
            rule=rule_name(w.rule, lang, family=_fam(w.family), world=w.world),
            text=w.explain.get(lang, ""),
        )
        for w in r.warnings
    ]
    if r.replay:
        lines.append("  " + tr("referee.replay", lang))
        lines += ["  " + a for a in announcements]
        return "\n".join(lines)
    for f in r.fouls:
        lines.append(
            "  "
            + tr(
                "referee.foul",
                lang,
                name=foul_name(f.code, lang),
                rule=rule_name(f.rule, lang, family=_fam(f.family), world=f.world),
                text=f.explain.get(lang, ""),
            )
        )
    if not r.fouls:
        lines.append("  " + tr("referee.no_foul", lang))
    lines.append("  " + tr("referee.counted", lang, balls=_names(r.counted, lang)))
    lines.append("  " + tr("referee.points", lang, points=_scores(r.points), scores=_scores(r.scores)))
    lines.append("  " + tr("referee.off", lang, balls=_names(r.off_table, lang)))
    if r.respot:
        lines.append("  " + tr("referee.respot", lang, balls=_respot(r, table, record, lang)))
    lines.append("  " + tr("referee.next", lang, next=_next(r, players, lang)))
    if r.options:
        lines.append(
            "  "
            + tr("referee.options", lang, options="; ".join(option_name(str(o), lang) for o in r.options))
        )
    if r.choice is not None:
        lines.append(
            "  "
            + tr(
                "referee.choice",
                lang,
                player=_player(players, r.choice.by),
                balls=_names(r.choice.among, lang),
            )
        )
    lines += ["  " + tr("referee.announcement", lang, text=a) for a in announcements]
    if r.frame_over:
        key = "referee.match_over" if r.match_over else "referee.frame_over"
        lines.append("  " + tr(key, lang, player=_player(players, r.winner)))
    return "\n".join(lines)


def comparison_text(rulings: Mapping[str, Ruling], players: Sequence[str], lang: str) -> str:
    """The same stroke judged by several games, a row each: the fouls, what counts, what left the table, who
    plays next and from where."""
    from scenes.core.stats import foul_name

    head = [tr(f"referee.col.{c}", lang) for c in ("game", "foul", "counted", "off", "next")]
    rows: list[list[Any]] = [head]
    for gid, r in rulings.items():
        if r.replay:
            foul = tr("referee.replay_short", lang)
        else:
            foul = ", ".join(dict.fromkeys(foul_name(f.code, lang) for f in r.fouls)) or "-"
        counted = ", ".join(ball_name(b, lang) for b in r.counted) or "-"
        off = ", ".join(ball_name(b, lang) for b in r.off_table) or "-"
        rows.append([game_name(gid, lang), foul, counted, off, _next(r, players, lang)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    out = [tr("referee.compare", lang)]
    for i, row in enumerate(rows):
        out.append("  " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
        if i == 0:
            out.append("  " + "-+-".join("-" * w for w in widths))
    return "\n".join(out)


def refusal_text(r: Refusal, lang: str) -> str:
    """Why a game does not judge the stroke, with the tables and balls named."""
    if r.kind == "table":
        tables = tr("referee.or", lang).join(_table(t, lang) for t in r.tables)
        return tr("referee.why_table", lang, tables=tables, table=_table(r.table, lang))
    if r.kind == "balls":
        return tr("referee.why_balls", lang, balls=balls_list(r.balls, "ru" if lang == "ru" else "en"))
    return tr("referee.why_state", lang, key=r.key, expected=r.expected)


def _fam(family: object) -> str | None:
    """A foul's or note's family as ``rule_name`` takes it (None: name the texts by file)."""
    return str(family) if family is not None else None
