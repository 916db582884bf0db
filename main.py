"""Entry point: parses the command line, loads settings.toml, starts one command.

Nothing runs at import. Exit codes: 0 ok, 2 bad input, 1 internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

MAX_SEED = 2**63 - 1  # the trainer stores the seed as an SQLite INTEGER
MAX_CASES = 200  # cases in one session, as settings' trainer.session_length
MAX_GENERATE = 1000
MAX_FRAMES = 1000  # autoplay frames in one run


def _whole(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            v = int(text) if text.strip().lstrip("+-").isascii() else None
        except ValueError:
            v = None
        if v is None or not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"a whole number from {lo} to {hi}, got {text[:24]!r}")
        return v

    return parse


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line and exit 2, like every other bad input (argparse adds the usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: command line: {message} (see `python {self.prog} --help`)\n")


def _train_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--offscreen", action="store_true")
    p.add_argument("--text", action="store_true", help="run a session in the terminal")
    p.add_argument("--game", help="rulebook (game id)")
    p.add_argument("--topic", help="topic of the session")
    p.add_argument("--cases", type=_whole(1, MAX_CASES), help="number of cases in the session")
    p.add_argument(
        "--generate",
        type=_whole(1, MAX_GENERATE),
        metavar="N",
        help="generate N new cases by varying library strokes",
    )
    p.add_argument("--category", help="with --generate: outcome category to keep")
    p.add_argument("--seed", type=_whole(0, MAX_SEED), default=0)
    p.add_argument("--out", help="with --generate: folder for the new cases")
    p.add_argument("--history", action="store_true", help="show progress by topic and rulebook")
    p.add_argument(
        "--plot", nargs="?", const="", metavar="PNG", help="with --history: draw the progress plot (to PNG)"
    )
    p.add_argument("--profile", help="the trainee (default: [trainer] profile in settings.toml)")
    p.add_argument("--exam", action="store_true", help="an exam: cases across the topics, a pass mark")
    p.add_argument("--export", metavar="FILE", help="write the trainee's results to FILE.csv or FILE.json")
    p.add_argument("--all-profiles", action="store_true", help="with --export: every trainee")
    p.add_argument(
        "--import",
        dest="import_pack",
        metavar="PACK",
        help="add a case pack (folder, .zip, .toml) or results (.json)",
    )


def _render_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file")
    p.add_argument("--out", help="the PNG to write")
    p.add_argument("--at", type=float, default=0.0, help="seconds after the strike")
    p.add_argument("--camera", choices=("top", "side", "player", "follow"), default=None)
    p.add_argument("--size", default="960x540", help="WIDTHxHEIGHT")
    p.add_argument("--quality", choices=("high", "low"), help="shading (default: settings [display] quality)")

    p.add_argument("--video", metavar="OUT", help="render the stroke to OUT.mp4 (or .gif / .webp)")
    p.add_argument(
        "--speed", type=float, default=1.0, help="with --video: playback rate (0.25 = slow motion)"
    )
    p.add_argument("--fps", type=int, default=30, help="with --video: frames per second")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="main.py", description="3D billiards simulator and referee trainer")
    p.add_argument("--settings", help="settings file (default: settings.toml beside main.py)")
    p.add_argument("--lang", choices=("ru", "en"), help="language of the texts (overrides settings)")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="open the simulator window (the default)")
    play.add_argument("--offscreen", action="store_true", help="render offscreen (no display needed)")
    play.add_argument("--game", help="start a match of this game id at once")
    play.add_argument("--scenario", help="open a scenario file in practice")
    play.add_argument("--out", help="with --offscreen: where to write the screenshot")
    play.add_argument("--resume", action="store_true", help="continue the match saved after its last stroke")

    _train_arguments(sub.add_parser("train", help="the referee trainer"))

    sim = sub.add_parser("simulate", help="simulate a scenario's stroke and print the shot record")
    sim.add_argument("file")
    sim.add_argument("--json", metavar="PATH", help="write the record as JSON to PATH (- for stdout)")
    sim.add_argument("--sample-hz", type=float, metavar="N", help="include ball states sampled at N Hz")

    ref = sub.add_parser("referee", help="simulate (or read) a stroke and judge it")
    ref.add_argument("file")
    ref.add_argument("--json", metavar="PATH", help="write record + ruling as JSON to PATH (- for stdout)")
    ref.add_argument("--all-games", action="store_true", help="judge under every game that fits the table")
    ref.add_argument("--sample-hz", type=float, metavar="N")

    _render_arguments(
        sub.add_parser(
            "render", help="draw a scenario at a moment of its stroke to a PNG, or the stroke to a video"
        )
    )

    bench = sub.add_parser("bench", help="measure simulation speed")
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--no-frame", action="store_true", help="skip the frame-time figure")
    bench.add_argument(
        "--no-opponent", action="store_true", help="skip the computer player's thinking-time figure"
    )
    bench.add_argument(
        "--pooltool",
        metavar="PYTHON",
        help="an interpreter with pooltool: time its break beside ours (default: $POOLTOOL_PYTHON)",
    )

    drill = sub.add_parser("drill", help="drills: --list, judge FILE's stroke, or open the drills screen")
    drill.add_argument("file", nargs="?", help="a drill file: simulate its [shot] and judge it")
    drill.add_argument(
        "--list", action="store_true", help="the drill library with attempts and success rates"
    )
    drill.add_argument("--offscreen", action="store_true")

    sub.add_parser("games", help="list game ids with their names")

    sug = sub.add_parser("suggest", help="the stroke the computer player would play from a scenario file")
    sug.add_argument("file")
    sug.add_argument("--level", type=_whole(1, 5), default=5, help="the computer's level, 1 to 5")
    sug.add_argument("--seed", type=_whole(0, MAX_SEED), default=0)
    sug.add_argument("--json", metavar="PATH", help="write the stroke as JSON to PATH (- for stdout)")

    auto = sub.add_parser("autoplay", help="computer against computer, headless")
    auto.add_argument("game")
    auto.add_argument(
        "--levels", nargs=2, type=_whole(1, 5), required=True, metavar=("A", "B"), help="the two levels"
    )
    auto.add_argument("--frames", type=_whole(1, MAX_FRAMES), default=10)
    auto.add_argument("--seed", type=_whole(0, MAX_SEED), default=0)
    auto.add_argument("--json", metavar="PATH", help="write the results as JSON to PATH (- for stdout)")

    val = sub.add_parser("validate", help="re-measure the physics against its published sources, with plots")
    val.add_argument(
        "--out", metavar="DIR", help="report folder (default: validation/ in the user's data folder)"
    )
    val.add_argument("--quick", action="store_true", help="fewer points per fact (CI)")
    return p


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(argv: list[str]) -> int:
    from physics.errors import InputError
    from scenes.core.settings import load_settings

    args = _parser().parse_args(argv)
    command = args.command or "play"
    try:
        settings = load_settings(args.settings)
        if args.lang:
            from dataclasses import replace

            settings = replace(settings, language=replace(settings.language, ui=args.lang))
        return _dispatch(command, args, settings)
    except InputError as exc:
        print(exc.line(), file=sys.stderr)
        return 2


def _dispatch(command: str, args: Any, settings: Any) -> int:
    if command == "simulate":
        from physics.cli import simulate_command
        from rules.registry import CATALOG  # what each game id means: physics knows no game

        return simulate_command(
            args.file, json_path=args.json, sample_hz=args.sample_hz, settings=settings, catalog=CATALOG
        )
    if command == "referee":
        from physics.cli import load_or_simulate
        from rules.registry import CATALOG
        from scenes.core.referee_text import referee_command

        scenario, record = load_or_simulate(
            args.file, sample_hz=args.sample_hz, settings=settings, catalog=CATALOG
        )
        return referee_command(
            scenario, record, json_path=args.json, all_games=args.all_games, lang=settings.lang
        )
    if command == "games":
        from rules.cli import games_command

        return games_command(settings.lang)
    if command in ("suggest", "autoplay"):
        from scenes.core.opponent.cli import autoplay_command, suggest_command

        return suggest_command(args, settings) if command == "suggest" else autoplay_command(args, settings)
    if command == "bench":
        return _bench(args, settings)
    if command == "validate":
        from scenes.core.validate import validate_command

        return validate_command(args, settings)
    if command == "render":
        if args.video:
            from scenes.video import video_command

            args.camera = args.camera or "side"
            return video_command(args, settings)
        from scenes.render import render_command

        args.camera = args.camera or "player"
        return render_command(args, settings)
    if command == "drill" and (args.list or args.file):
        from scenes.core.drills import drill_command

        return drill_command(args, settings)
    if command == "train":
        from scenes.core.trainer.cli import check_train_args

        check_train_args(args)
    if command == "train" and (
        args.text or args.generate is not None or args.history or args.export or args.import_pack
    ):
        from scenes.core.trainer.cli import train_text_command

        return train_text_command(args, settings)
    # Window commands.
    from scenes.core.i18n import tr

    offscreen = bool(getattr(args, "offscreen", False))
    if not offscreen and not has_display():
        if command == "play":
            print(tr("cli.no_display_play", settings.lang), file=sys.stderr)
            offscreen = True
        else:
            print(tr(f"cli.no_display_{command}", settings.lang), file=sys.stderr)
            return 2
    from scenes.app import run_app

    return run_app(command, args, settings, offscreen=offscreen)


def _bench(args: Any, settings: Any) -> int:
    import json

    from physics.bench import PooltoolError, add_pooltool, format_bench, format_pooltool, run_bench

    result = run_bench(settings=settings)
    try:
        add_pooltool(result, args.pooltool)
    except PooltoolError as exc:
        print(f"error: bench --pooltool: {exc}", file=sys.stderr)
        return 2
    if not args.no_frame:
        from scenes.bench import frame_bench, quality_bench_in_process

        result["frame"] = frame_bench(settings)
        result["quality"] = quality_bench_in_process(args.settings)
    if not args.no_opponent:
        from scenes.core.opponent.bench import think_bench

        result["opponent"] = think_bench()
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    print(format_bench({"physics": result["physics"]}, settings.lang))
    if "pooltool" in result:
        print(format_pooltool(result, settings.lang))
    if "frame" in result:
        from scenes.bench import format_frame_bench, format_quality_bench

        print(format_frame_bench(result["frame"], settings.lang))
        print(format_quality_bench(result["quality"], settings.lang))
    if "opponent" in result:
        from scenes.core.opponent.cli import format_think_bench

        print(format_think_bench(result["opponent"], settings.lang))
    return 0


def main() -> None:
    from scenes.core.terminal import Output, OutputRefused

    # A terminal whose encoding cannot show Cyrillic (PYTHONIOENCODING=ascii, LANG=C on an old system) gets
    # "?" for what it cannot show instead of an internal error: ids, numbers and paths stay readable.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace" if stream is sys.stdout else "backslashreplace")
    sys.stdout = Output(sys.stdout)
    try:
        code = run(sys.argv[1:])
        sys.stdout.flush()  # a full disk under `> out.json` fails here at the latest, not at the exit
    except KeyboardInterrupt:
        code = 130
    except (BrokenPipeError, OutputRefused) as exc:
        # The reader went away (`| head`) or the disk under `> out.json` is full: say so once, and keep
        # Python from failing again on the same stdout at the exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if isinstance(exc, BrokenPipeError):
            print("error: stdout: a reader for the output (the pipe was closed)", file=sys.stderr)
        else:
            print(f"error: stdout: an output that takes what is written ({exc.strerror})", file=sys.stderr)
        code = 2
    except Exception as exc:  # one line, never a traceback for the user; BILLIARDS_DEBUG=1 shows it
        if os.environ.get("BILLIARDS_DEBUG"):
            raise
        from physics.errors import printable

        print(printable(f"internal error: {type(exc).__name__}: {exc}"), file=sys.stderr)
        code = 1
    sys.exit(code)


if __name__ == "__main__":
    main()
