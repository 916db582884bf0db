"""``python main.py train --text | --exam | --generate N | --history [--plot] | --export F | --import P``.

The trainer without a window. ``--profile NAME`` picks the trainee (default ``[trainer] profile``).
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO, cast

from physics.errors import InputError
from scenes.i18n import game_name
from scenes.terminal import SafeText
from scenes.trainer.cases import load_library, user_cases_dir
from scenes.trainer.session import CaseRun, Session
from scenes.trainer.store import Store, default_path
from scenes.trainer.text import run_text_exam, run_text_session, topic_title


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
        from scenes.trainer.generate import generate_command

        return generate_command(args, settings, out)
    if getattr(args, "import_pack", None):
        from scenes.trainer.packs import import_command

        return import_command(Path(args.import_pack), args, settings, out)
    history = bool(getattr(args, "history", False))
    # The history and the export only read: they work in a read-only data folder too.
    readonly = history or bool(getattr(args, "export", None))
    with Store(default_path(settings.data_dir()), readonly=readonly) as store:
        store.warn = lambda waiting, why: _disk_warning(waiting, why, lang, out)
        name = profile_name(args, settings)
        pid = store.profile_id(name) if readonly else store.profile(name)
        if getattr(args, "export", None):
            from scenes.trainer.packs import export_results

            path = export_results(
                store, Path(args.export), None if getattr(args, "all_profiles", False) else pid
            )
            print(str(path), file=out)
            return 0
        if history:
            print_history(store, lang, out, pid, name)
            if getattr(args, "plot", None) is not None:
                from scenes.trainer.plots import plot_progress

                target = Path(args.plot) if args.plot else settings.data_dir() / "progress.png"
                path = plot_progress(store, pid, target, lang, name)
                print(("Progress plot: " if lang == "en" else "График прогресса: ") + str(path), file=out)
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
    from scenes.trainer import exam

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
    if not run_text_exam(session, rules, settings.lang, read, out, resumed=resumed):
        return 0
    result, path = exam.finish(
        session, exam_id, rules, store.profile_name(pid), settings.data_dir(), settings.lang, now_iso()
    )
    en = settings.lang == "en"
    verdict = ("PASSED" if en else "СДАН") if result.passed else ("NOT PASSED" if en else "НЕ СДАН")
    print(
        "\n"
        + (
            f"Exam score: {result.points:.1f}/{result.possible:.1f} ({result.percent:.1f} %), pass mark "
            f"{result.pass_mark:g} %: {verdict}"
            if en
            else f"Результат экзамена: {result.points:.1f}/{result.possible:.1f} ({result.percent:.1f} %), проходной "
            f"балл {result.pass_mark:g} %: {verdict}"
        ),
        file=out,
    )
    for k, v in result.by_topic:
        print(f"  {topic_title(k, settings.lang)}: {v:.0f} %", file=out)
    print(("Report: " if en else "Протокол: ") + str(path), file=out)
    return 0


def offer_variations(missed: list[CaseRun], settings: Any, lang: str, read: Any, out: TextIO) -> list[Path]:
    """Offer practice variations of the cases answered wrong; made on 'y' and joined to the next sessions."""
    n = int(settings.trainer.variations)
    cases = [r for r in missed if r.case.scenario.shot is not None and not r.case.scenario.is_recorded]
    if n <= 0 or not cases:
        return []
    en = lang == "en"
    print(
        "\n"
        + (
            f"Make {n} variations of each of the {len(cases)} missed cases for practice? They come first in "
            "your next session. [y/N]"
            if en
            else f"Сделать по {n} вариации каждого из {len(cases)} случаев с ошибками? Они будут первыми в "
            "следующей сессии. [y/N] (д/Н)"
        ),
        file=out,
    )
    print("> ", end="", file=out, flush=True)
    line = read()
    if line is None or line.strip().lower() not in ("y", "yes", "д", "да"):
        return []
    from scenes.trainer.generate import variations

    written: list[Path] = []
    for r in cases:
        written += variations(r.case, r.item.game, n, 0, user_cases_dir(settings), settings)
    print(
        (
            f"{len(written)} variations written to {user_cases_dir(settings)}"
            if en
            else f"Вариаций записано: {len(written)}"
        ),
        file=out,
    )
    return written


def _disk_warning(waiting: int, why: str, lang: str, out: TextIO) -> None:
    """The disk refused an answer (or took the waiting ones at last): say so where the trainee looks."""
    en = lang == "en"
    if waiting:
        text = (
            f"   Warning: the answer was not saved ({why}); {waiting} kept in memory, saved as soon as the disk allows"
            if en
            else f"   Внимание: ответ не сохранён ({why}); в памяти ответов: {waiting}, они будут сохранены, как только диск позволит"
        )
    else:
        text = "   The waiting answers are saved now." if en else "   Ожидавшие ответы сохранены."
    print(text, file=out, flush=True)


def print_history(
    store: Store, lang: str, out: TextIO, profile_id: int | None = None, name: str | None = None
) -> None:
    en = lang == "en"
    sessions = store.sessions(profile_id)
    who = name or (store.profile_name(profile_id) if profile_id is not None else None)
    if who is not None:
        print(("Trainee: " if en else "Стажёр: ") + who, file=out)
    if not sessions:
        print("No answers yet." if en else "Ответов пока нет.", file=out)
        return
    exams = {e.session_id: e for e in store.exams(profile_id)}
    print("Sessions:" if en else "Сессии:", file=out)
    for s in sessions:
        got, possible = store.session_points(s.id)
        pct = 100.0 * got / possible if possible else 0.0
        state = (
            ("finished" if en else "завершена")
            if s.finished
            else (
                f"at case {s.position + 1}/{len(s.items)}"
                if en
                else f"на случае {s.position + 1}/{len(s.items)}"
            )
        )
        game = game_name(s.game, lang) if s.game else ("mixed" if en else "смешанные")
        topic = _topic(s.topic, lang) if s.topic else ("mixed" if en else "смешанные")
        kind = ""
        if s.kind == "exam":
            e = exams.get(s.id)
            mark = "" if e is None or e.passed is None else (" passed" if e.passed else " not passed")
            if not en and mark:
                mark = " сдан" if e is not None and e.passed else " не сдан"
            kind = ("exam" if en else "экзамен") + mark + ", "
        print(
            f"  #{s.id} {s.created}  {kind}{game} / {topic}: {got:.1f}/{possible:.1f} ({pct:.0f} %), {state}",
            file=out,
        )
    print("By topic (weighted):" if en else "По темам (взвешенно):", file=out)
    for p in store.progress("topic", profile_id=profile_id):
        print(
            f"  {_topic(p.key, lang)}: {100 * p.score:.0f} % ({p.correct}/{p.answered} answers)"
            if en
            else f"  {_topic(p.key, lang)}: {100 * p.score:.0f} % (верно {p.correct} из {p.answered})",
            file=out,
        )
    print("By rulebook (weighted):" if en else "По правилам (взвешенно):", file=out)
    for p in store.progress("game", profile_id=profile_id):
        print(f"  {game_name(p.key, lang)}: {100 * p.score:.0f} % ({p.correct}/{p.answered})", file=out)
    weak = store.weak_topics(profile_id=profile_id)
    if weak:
        print(
            ("Weak topics: " if en else "Слабые темы: ")
            + ", ".join(f"{_topic(p.key, lang)} ({100 * p.score:.0f} %)" for p in weak),
            file=out,
        )


def _topic(key: str, lang: str) -> str:
    return topic_title(key, lang)


def check_train_args(args: Any) -> None:
    """One clear line for options that do not go together."""
    if getattr(args, "plot", None) is not None and not getattr(args, "history", False):
        raise InputError("command line", "--plot", "used with --history")
    if getattr(args, "exam", False) and getattr(args, "topic", None):
        raise InputError("command line", "--topic", "no topic with --exam (an exam spans the topics)")
