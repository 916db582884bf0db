"""Text forms of a shot record and rulings for the terminal, in Russian or English (settings choose)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from physics.record import BallStatus, Event, ShotRecord
from rules.ruling import Ruling

_L: dict[str, dict[str, str]] = {
    "record": {"en": "Shot record", "ru": "Запись удара"},
    "table": {"en": "table", "ru": "стол"},
    "duration": {"en": "duration", "ru": "длительность"},
    "events": {"en": "Events", "ru": "События"},
    "final": {"en": "Final position", "ru": "Итоговая позиция"},
    "ruling": {"en": "Ruling", "ru": "Решение судьи"},
    "game": {"en": "game", "ru": "игра"},
    "foul": {"en": "Foul", "ru": "Нарушение"},
    "no_foul": {"en": "No foul", "ru": "Нарушений нет"},
    "counted": {"en": "Counted", "ru": "Засчитаны"},
    "points": {"en": "Points", "ru": "Очки за удар"},
    "scores": {"en": "Scores", "ru": "Счёт"},
    "off_table": {"en": "Off the table", "ru": "Выскочили"},
    "respot": {"en": "Respot", "ru": "Выставить"},
    "next": {"en": "Next to play", "ru": "Следующий удар"},
    "in_hand": {"en": "in hand", "ru": "с руки"},
    "options": {"en": "Options", "ru": "Варианты"},
    "frame_over": {"en": "Frame over, winner", "ru": "Партия окончена, победитель"},
    "warnings": {"en": "Announcements", "ru": "Предупреждения"},
    "match_over": {"en": "Match over", "ru": "Встреча окончена"},
    "replay": {"en": "Replay: the stroke is taken again", "ru": "Удар повторяется"},
    "choice": {"en": "Choice", "ru": "Выбор"},
    "summary": {"en": "Summary", "ru": "Итог"},
    "none": {"en": "none", "ru": "нет"},
    "player": {"en": "player", "ru": "игрок"},
    "compare": {
        "en": "The same stroke under every rulebook that can take it",
        "ru": "Один удар по правилам всех игр, которые его допускают",
    },
    "col_game": {"en": "game", "ru": "игра"},
    "col_foul": {"en": "foul", "ru": "нарушение"},
    "col_counted": {"en": "counted", "ru": "засчитаны"},
    "col_off": {"en": "off table", "ru": "выскочили"},
    "col_next": {"en": "next", "ru": "далее"},
    "games": {"en": "Games", "ru": "Игры"},
}

_OPTIONS = {
    "play_on": {"en": "play on (the offender plays again)", "ru": "«играй дальше» (нарушитель бьёт снова)"},
    "make_offender_replay": {"en": "make the offender replay", "ru": "заставить нарушителя переиграть"},
    "remove_ball": {"en": "choose the ball to come off", "ru": "указать шар, снимаемый со стола"},
    "lag": {"en": "lag for the next stroke", "ru": "розыгрыш права удара"},
}

_STATUS = {
    "on_table": {"en": "on the table", "ru": "на столе"},
    "pocketed": {"en": "pocketed", "ru": "в лузе"},
    "off_table": {"en": "off the table", "ru": "за бортом"},
}


_HAND = {
    "house": {"en": "from the house", "ru": "из дома"},
    "d": {"en": "in the D", "ru": "из полукруга «D»"},
    "behind-head-string": {"en": "behind the head string", "ru": "из-за линии дома"},
    "anywhere": {"en": "anywhere on the table", "ru": "в любом месте стола"},
}


def game_name(game: str, lang: str) -> str:
    """``id (name)`` of a registered game; the bare id for anything else."""
    from rules.registry import get_referee  # lazy: the registry imports every game module

    try:
        return f"{game} — {get_referee(game).names[lang]}"
    except (KeyError, ValueError):
        return game


def t(key: str, lang: str) -> str:
    return _L[key][lang if lang in ("en", "ru") else "en"]


def event_line(e: Event) -> str:
    d = e.to_dict()
    rest = " ".join(f"{k}={v}" for k, v in d.items() if k not in ("t", "type"))
    return f"{e.t:7.3f}  {e.type:<13} {rest}"


def format_record(record: ShotRecord, lang: str) -> str:
    lines = [
        f"{t('record', lang)}: {t('table', lang)} {record.table}, {t('duration', lang)} {record.duration:.2f} s"
    ]
    lines.append(f"{t('events', lang)}:")
    lines += ["  " + event_line(e) for e in record.events]
    lines.append(f"{t('final', lang)}:")
    for b, f in record.final.items():
        where = _STATUS[str(f.status)][lang if lang in ("en", "ru") else "en"]
        extra = ""
        if f.status == BallStatus.POCKETED and f.pocket:
            extra = f" ({f.pocket})"
        elif f.pos is not None:
            extra = f" ({f.pos[0]:+.3f}, {f.pos[1]:+.3f})" + (f" {f.rest}" if f.rest else "")
        lines.append(f"  {b:>6}: {where}{extra}")
    return "\n".join(lines)


def _name(players: Sequence[str], p: int | None) -> str:
    if p is None:
        return "-"
    return players[p] if 0 <= p < len(players) else str(p)


def format_ruling(r: Ruling, players: Sequence[str], lang: str) -> str:
    lg = lang if lang in ("en", "ru") else "en"
    none = t("none", lang)
    lines = [f"{t('ruling', lang)} ({t('game', lang)} {game_name(r.game, lg)}):"]
    if r.replay:
        lines.append(f"  {t('replay', lang)}")
        for w in r.warnings:
            lines.append(f"  [{w.rule}] {w.explain[lg]}")
        return "\n".join(lines)
    if r.foul:
        for f in r.fouls:
            lines.append(f"  {t('foul', lang)}: {f.code} [{f.rule}] {f.explain[lg]}")
    else:
        lines.append(f"  {t('no_foul', lang)}")
    lines.append(f"  {t('counted', lang)}: {', '.join(r.counted) or none}")
    lines.append(f"  {t('points', lang)}: {list(r.points)}   {t('scores', lang)}: {list(r.scores)}")
    lines.append(f"  {t('off_table', lang)}: {', '.join(r.off_table) or none}")
    if r.respot:
        lines.append(
            f"  {t('respot', lang)}: "
            + ", ".join(f"{x.ball} @ ({x.at[0]:+.4f}, {x.at[1]:+.4f})" for x in r.respot)
        )
    nxt = _name(players, r.next_player)
    hand = f", {t('in_hand', lang)}: {_HAND[str(r.in_hand)][lg]}" if r.in_hand else ""
    lines.append(f"  {t('next', lang)}: {nxt}{hand}")
    if r.options:
        lines.append(
            f"  {t('options', lang)}: "
            + "; ".join(_OPTIONS.get(str(o), {}).get(lg, str(o)) for o in r.options)
        )
    if r.choice is not None:
        lines.append(f"  {t('choice', lang)}: {_name(players, r.choice.by)} -> {', '.join(r.choice.among)}")
    for w in r.warnings:
        lines.append(f"  {t('warnings', lang)}: [{w.rule}] {w.explain[lg]}")
    if r.frame_over:
        lines.append(
            f"  {t('frame_over', lang)}: {_name(players, r.winner)}"
            + (f" - {t('match_over', lang)}" if r.match_over else "")
        )
    if r.explain:
        lines.append(f"  {t('summary', lang)}: {r.explain.get(lg, '')}")
    return "\n".join(lines)


def format_comparison(rulings: Mapping[str, Ruling], players: Sequence[str], lang: str) -> str:
    """The same stroke judged by several games, side by side."""
    head = [
        t("col_game", lang),
        t("col_foul", lang),
        t("col_counted", lang),
        t("col_off", lang),
        t("col_next", lang),
    ]
    rows = [head]
    for gid, r in rulings.items():
        if r.replay:
            foul = "replay" if lang != "ru" else "повтор удара"
        else:
            foul = ", ".join(r.codes()) or "-"
        nxt = _name(players, r.next_player) + (f" ({r.in_hand})" if r.in_hand else "")
        rows.append([gid, foul, ", ".join(r.counted) or "-", ", ".join(r.off_table) or "-", nxt])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    out = [t("compare", lang) + ":"]
    for i, row in enumerate(rows):
        out.append("  " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
        if i == 0:
            out.append("  " + "-+-".join("-" * w for w in widths))
    return "\n".join(out)
