"""``python main.py train --text | --exam | --generate N | --history [--plot] | --export F | --import P``.

The trainer without a window. ``--profile NAME`` picks the trainee (default ``[trainer] profile``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO, cast

from physics.errors import InputError
from scenes.core.i18n import date_text, game_name, ntr, number, tr
from scenes.core.terminal import SafeText
from scenes.core.trainer.cases import load_library, user_cases_dir
from scenes.core.trainer.session import CaseRun, Session
from scenes.core.trainer.store import Store, default_path
from scenes.core.trainer.text import run_text_exam, run_text_session, topic_title, weak_text
from scenes.core.trainer.verdict import trainee_name


def _stdin_reader() -> Any:
    def read() -> str | None:
        line = sys.stdin.readline()
        return None if line == "" else line.rstrip("\n")

    return read


def profile_name(args: Any, settings: Any) -> str:
    return str(getattr(args, "profile", None) or settings.trainer.profile)


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def train_text_command(args: Any, settings: Any, out: TextIO | None = None, read: Any = None) -> int:
    out = cast(TextIO, SafeText(out or sys.stdout))
    read = read or _stdin_reader()
    lang = settings.lang
    if getattr(args, "generate", None) is not None:
        from scenes.core.trainer.generate import generate_command

        return generate_command(args, settings, out)
    if getattr(args, "import_pack", None):
        from scenes.core.trainer.packs import import_command

        return import_command(Path(args.import_pack), args, settings, out)
    history = bool(getattr(args, "history", False))
    # The history and the export only read: they work in a read-only data folder too.
    readonly = history or bool(getattr(args, "export", None))
    with Store(default_path(settings.data_dir()), readonly=readonly) as store:
        store.warn = lambda waiting, why: _disk_warning(waiting, why, lang, out)
        name = profile_name(args, settings)
        pid = store.profile_id(name) if readonly else store.profile(name)
        if getattr(args, "export", None):
            from scenes.core.trainer.packs import export_results

            path = export_results(
                store, Path(args.export), None if getattr(args, "all_profiles", False) else pid
            )
            print(str(path), file=out)
            return 0
        if history:
            print_history(store, lang, out, pid, name)
            if getattr(args, "plot", None) is not None:
                from scenes.core.trainer.plots import plot_progress

                target = Path(args.plot) if args.plot else settings.data_dir() / "progress.png"
                path = plot_progress(store, pid, target, lang, name)
                print(tr("trainer.cli.plot", lang, path=str(path)), file=out)
            return 0
        library = load_library(extra=[user_cases_dir(settings)])
        if getattr(args, "exam", False):
            code = _exam(store, pid, library, args, settings, out, read)
            _all_saved(store)
            return code
        n = args.cases if getattr(args, "cases", None) is not None else settings.trainer.session_length
        session, resumed = Session.resume_or_start(
            store, library, settings, args.game, args.topic, n, int(args.seed or 0), pid
        )
        missed: list[CaseRun] = []
        if run_text_session(session, lang, read, out, resumed=resumed, missed=missed) and missed:
            offer_variations(missed, settings, lang, read, out)
        _all_saved(store)
    return 0


def _all_saved(store: Store) -> None:
    """The last word when the disk never took some answers: the warnings said "kept in memory", and the
    process is about to end. They are not lost for good: the session resumes at the first of them."""
    if store.flush():
        return
    waiting = store.waiting()
    store.warn = None  # closing the store tries once more, without saying it a third time
    raise InputError(
        str(store.path),
        "answers",
        f"a disk with room for them: {waiting} answers of this session are not saved; "
        "the trainer asks them again when the session is resumed",
    )


def _exam(store: Store, pid: int, library: Any, args: Any, settings: Any, out: TextIO, read: Any) -> int:
    from scenes.core.trainer import exam

    rules = exam.ExamRules.from_settings(settings.trainer, getattr(args, "cases", None))
    session, resumed = Session.resume_or_start(
        store, library, settings, args.game, None, rules.cases, int(args.seed or 0), pid, kind="exam"
    )
    row = store.exam_for(session.id)
    exam_id = (
        row.id
        if row is not None
        else store.new_exam(session.id, args.game, rules.seconds_per_case, rules.replays, rules.pass_mark)
    )
    if not run_text_exam(session, rules, settings.lang, read, out, resumed=resumed, exam_id=exam_id):
        return 0
    # The result is stored and shown before the report is written: a report the disk refuses is then one
    # line and exit 2, the score kept.
    result = exam.store_result(session, exam_id, rules)
    lang = settings.lang
    verdict = tr("trainer.exam.passed" if result.passed else "trainer.exam.failed", lang)
    print(
        "\n"
        + tr(
            "trainer.cli.exam_score",
            lang,
            got=result.points,
            possible=result.possible,
            pct=result.percent,
            mark=result.pass_mark,
            verdict=verdict,
        ),
        file=out,
    )
    for k, v in result.by_topic:
        print(f"  {topic_title(k, lang)}: {v:.0f} %", file=out)
    path = exam.write_exam_report(
        session, exam_id, rules, store.profile_name(pid), settings.data_dir(), lang, now_iso(), result
    )
    print(tr("trainer.report_path", lang, path=str(path)), file=out)
    return 0


def offer_variations(missed: list[CaseRun], settings: Any, lang: str, read: Any, out: TextIO) -> list[Path]:
    """Offer practice variations of the cases answered wrong; made on 'y' and joined to the next sessions."""
    n = int(settings.trainer.variations)
    cases = [r for r in missed if r.case.scenario.shot is not None and not r.case.scenario.is_recorded]
    if n <= 0 or not cases:
        return []
    offer = tr(
        "trainer.cli.offer",
        lang,
        each=ntr("trainer.cli.offer_each", n, lang),
        cases=ntr("trainer.cli.offer_cases", len(cases), lang),
    )
    print("\n" + offer, file=out)
    print("> ", end="", file=out, flush=True)
    line = read()
    if line is None or line.strip().lower() not in ("y", "yes", "д", "да"):
        return []
    from scenes.core.trainer.generate import variations

    written: list[Path] = []
    for r in cases:
        written += variations(r.case, r.item.game, n, 0, user_cases_dir(settings), settings)
    print(
        ntr("trainer.cli.variations_written", len(written), lang, folder=str(user_cases_dir(settings))),
        file=out,
    )
    return written


def _disk_warning(waiting: int, why: str, lang: str, out: TextIO) -> None:
    """The disk refused an answer (or took the waiting ones at last): say so where the trainee looks."""
    if waiting:
        text = tr("trainer.cli.not_saved", lang, waiting=waiting, why=why)
    else:
        text = tr("trainer.cli.saved_now", lang)
    print("   " + text, file=out, flush=True)


def _session_state(s: Any, lang: str) -> str:
    if s.finished:
        return tr("trainer.cli.finished", lang)
    return tr("trainer.cli.at_case", lang, case=s.position + 1, cases=len(s.items))


def _exam_kind(s: Any, exams: Mapping[int, Any], lang: str) -> str:
    """``экзамен сдан, `` before an exam's line (nothing before a practice session's)."""
    if s.kind != "exam":
        return ""
    e = exams.get(s.id)
    if e is None or e.passed is None:
        return tr("trainer.cli.exam", lang) + ", "
    return tr("trainer.cli.exam_passed" if e.passed else "trainer.cli.exam_failed", lang) + ", "


def print_history(
    store: Store, lang: str, out: TextIO, profile_id: int | None = None, name: str | None = None
) -> None:
    sessions = store.sessions(profile_id)
    who = name or (store.profile_name(profile_id) if profile_id is not None else None)
    if who is not None:
        print(tr("trainer.trainee", lang, name=trainee_name(who, lang)), file=out)
    if not sessions:
        print(tr("trainer.cli.no_answers", lang), file=out)
        return
    exams = {e.session_id: e for e in store.exams(profile_id)}
    print(tr("trainer.cli.sessions", lang), file=out)
    mixed = tr("trainer.mixed", lang)
    # Sessions are numbered 1, 2, 3... in the trainee's order, as the progress plot numbers them (the store's ids
    # run over every trainee); the time is written as people read it.
    for k, s in enumerate(sessions, start=1):
        got, possible = store.session_points(s.id)
        pct = 100.0 * got / possible if possible else 0.0
        game = game_name(s.game, lang) if s.game else mixed
        topic = _topic(s.topic, lang) if s.topic else mixed
        score = f"{number(got, lang, 1, trim=False)}/{number(possible, lang, 1, trim=False)} ({number(pct, lang, 0)} %)"
        print(
            f"  {k}. {date_text(s.created, lang)}  {_exam_kind(s, exams, lang)}{game} / {topic}: {score}, "
            f"{_session_state(s, lang)}",
            file=out,
        )
    print(tr("trainer.cli.by_topic_weighted", lang), file=out)
    for p in store.progress("topic", profile_id=profile_id):
        answers = ntr("trainer.cli.answers_right", p.answered, lang, right=p.correct)
        print(f"  {_topic(p.key, lang)}: {100 * p.score:.0f} % ({answers})", file=out)
    print(tr("trainer.cli.by_game_weighted", lang), file=out)
    for p in store.progress("game", profile_id=profile_id):
        print(f"  {game_name(p.key, lang)}: {100 * p.score:.0f} % ({p.correct}/{p.answered})", file=out)
    weak = store.weak_topics(profile_id=profile_id)
    if weak:
        print(weak_text(weak, lang), file=out)


def _topic(key: str, lang: str) -> str:
    return topic_title(key, lang)


def check_train_args(args: Any) -> None:
    """One clear line for options that do not go together."""
    if getattr(args, "plot", None) is not None and not getattr(args, "history", False):
        raise InputError("command line", "--plot", "used with --history")
    if getattr(args, "exam", False) and getattr(args, "topic", None):
        raise InputError("command line", "--topic", "no topic with --exam (an exam spans the topics)")
