"""``python main.py suggest FILE`` and ``python main.py autoplay GAME``: the computer player on the command line.

The player is ``scenes/core/opponent`` (no window); this module reads the files, prints the texts in the
interface's language (the gettext catalogs) and writes the JSON of docs/formats.md.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from physics.errors import InputError
from physics.files import write_out
from physics.params import PhysicsParams
from physics.scenario import PRACTICE
from physics.tables import TableSpec
from rules.registry import get_referee
from rules.scenarios import load_scenario
from rules.state import MatchState
from scenes.core.i18n import ball_name, game_name, pocket_name, tr
from scenes.core.opponent.autoplay import FrameResult, autoplay
from scenes.core.opponent.levels import level
from scenes.core.opponent.player import Plan, choose

INTENTS = ("pot", "bank", "combination", "safety", "escape", "break")


def physics_params(spec: TableSpec, settings: Any) -> PhysicsParams:
    """The table's parameters with the settings' overrides, as every stroke of a match uses them."""
    if settings is None:
        return PhysicsParams.for_table(spec, {})
    ph = settings.physics
    return PhysicsParams.for_table(
        spec, ph.overrides, substep_hz=ph.substep_hz, max_stroke_seconds=ph.max_stroke_seconds
    )


def suggest_command(args: Any, settings: Any) -> int:
    scenario = load_scenario(args.file)
    if scenario.game == PRACTICE:
        raise InputError(scenario.path, "game", "a game with a referee (the computer plays to its rules)")
    ref = get_referee(scenario.game, scenario.table.id)
    state = MatchState.from_scenario(ref, scenario.state, scenario.balls, scenario.path)
    lv = level(args.level)
    lamp = settings.lamp_position if settings is not None else (0.0, 0.0, 1.0)
    plan = choose(state, lv, args.seed, physics_params(ref.table, settings), lamp, scenario.objects)
    if args.json is not None:
        write_out(args.json, "--json", lambda fp: json.dump(plan.to_dict(), fp, indent=2, ensure_ascii=False))
        return 0
    print(format_plan(plan, lv.number, settings.lang if settings is not None else "en"))
    return 0


def format_plan(plan: Plan, level_no: int, lang: str) -> str:
    s = plan.shot
    lines = [
        tr(
            "opponent.stroke",
            lang,
            ball=ball_name(s.ball, lang),
            speed=float(s.cue_speed),
            direction=float(s.direction),
            elevation=float(s.elevation),
            side=float(s.tip[0]),
            height=float(s.tip[1]),
        )
    ]
    if plan.place is not None:
        lines.append(tr("opponent.place", lang, x=float(plan.place[0]), y=float(plan.place[1])))
    if s.call_ball is not None and s.call_pocket is not None:
        lines.append(
            tr(
                "opponent.call",
                lang,
                ball=ball_name(s.call_ball, lang),
                pocket=pocket_name(s.call_pocket, lang),
            )
        )
    elif s.call_ball is not None:
        lines.append(tr("opponent.nominate", lang, ball=ball_name(s.call_ball, lang)))
    intent = plan.intent if plan.intent in INTENTS else "pot"
    lines.append(tr(f"opponent.intent.{intent}", lang))
    lines.append(tr("opponent.think", lang, level=level_no, seconds=float(plan.think_s)))
    return "\n".join(lines)


def autoplay_command(args: Any, settings: Any) -> int:
    ref = get_referee(args.game)
    a, b = (level(n) for n in args.levels)
    lang = settings.lang if settings is not None else "en"
    lamp = settings.lamp_position if settings is not None else (0.0, 0.0, 1.0)
    out: IO[str] = sys.stderr if args.json == "-" else sys.stdout

    def progress(i: int, f: FrameResult) -> None:
        won = (
            tr("opponent.frame_won", lang, level=(a, b)[f.winner].number)
            if f.winner is not None
            else tr("opponent.frame_undecided", lang)
        )
        print(
            tr(
                "opponent.frame",
                lang,
                i=i + 1,
                n=args.frames,
                won=won,
                scores=":".join(str(x) for x in f.scores),
                strokes=f.strokes,
                fouls="/".join(str(x) for x in f.fouls),
            ),
            file=out,
            flush=True,
        )

    t = autoplay(ref.id, (a, b), args.frames, args.seed, physics_params(ref.table, settings), lamp, progress)
    d = t.to_dict()
    print(
        tr(
            "opponent.wins",
            lang,
            game=game_name(ref.id, lang),
            a=a.number,
            b=b.number,
            w0=d["wins"][0],
            w1=d["wins"][1],
            median=float(d["think_s"]["median"]),
            worst=float(d["think_s"]["max"]),
        ),
        file=out,
    )
    if args.json is not None:
        write_out(args.json, "--json", lambda fp: json.dump(d, fp, indent=2, ensure_ascii=False))
    return 0


def format_think_bench(d: dict[str, Any], lang: str) -> str:
    return tr(
        "bench.opponent",
        lang,
        level=d["level"],
        median=float(d["median_s"]),
        worst=float(d["max_s"]),
        cpu_median=float(d["median_cpu_s"]),
        cpu_worst=float(d["max_cpu_s"]),
        count=d["positions"],
    )
