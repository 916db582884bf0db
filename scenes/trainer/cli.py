"""``python main.py train --text | --generate N | --history``: the trainer without a window."""

from __future__ import annotations

import sys
from typing import Any, TextIO, cast

from scenes.i18n import game_name
from scenes.terminal import SafeText
from scenes.trainer.cases import load_library, user_cases_dir
from scenes.trainer.session import Session
from scenes.trainer.store import Store, default_path
from scenes.trainer.text import run_text_session, topic_title


def _stdin_reader() -> Any:
    def read() -> str | None:
        line = sys.stdin.readline()
        return None if line == "" else line.rstrip("\n")

    return read


def train_text_command(args: Any, settings: Any, out: TextIO | None = None) -> int:
    out = cast(TextIO, SafeText(out or sys.stdout))
    lang = settings.lang
    if getattr(args, "generate", None) is not None:
        from scenes.trainer.generate import generate_command

        return generate_command(args, settings, out)
    history = bool(getattr(args, "history", False))
    with Store(default_path(settings.data_dir()), readonly=history) as store:
        store.warn = lambda waiting, why: _disk_warning(waiting, why, lang, out)
        if history:
            print_history(store, lang, out)
            return 0
        library = load_library(extra=[user_cases_dir(settings)])
        n = args.cases if getattr(args, "cases", None) is not None else settings.trainer.session_length
        session, resumed = Session.resume_or_start(
            store, library, settings, args.game, args.topic, n, int(args.seed or 0)
        )
        run_text_session(session, lang, _stdin_reader(), out, resumed=resumed)
    return 0


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


def print_history(store: Store, lang: str, out: TextIO) -> None:
    en = lang == "en"
    sessions = store.sessions()
    if not sessions:
        print("No answers yet." if en else "Ответов пока нет.", file=out)
        return
    print("Sessions:" if en else "Сессии:", file=out)
    for s in sessions:
        right, asked = store.session_score(s.id)
        pct = 100.0 * right / asked if asked else 0.0
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
        print(f"  #{s.id} {s.created}  {game} / {topic}: {right}/{asked} ({pct:.0f} %), {state}", file=out)
    print("By topic:" if en else "По темам:", file=out)
    for p in store.progress("topic"):
        print(f"  {_topic(p.key, lang)}: {p.correct}/{p.answered} ({100 * p.ratio:.0f} %)", file=out)
    print("By rulebook:" if en else "По правилам:", file=out)
    for p in store.progress("game"):
        print(f"  {game_name(p.key, lang)}: {p.correct}/{p.answered} ({100 * p.ratio:.0f} %)", file=out)
    weak = store.weak_topics()
    if weak:
        print(
            ("Weak topics: " if en else "Слабые темы: ")
            + ", ".join(f"{_topic(p.key, lang)} ({100 * p.ratio:.0f} %)" for p in weak),
            file=out,
        )


def _topic(key: str, lang: str) -> str:
    return topic_title(key, lang)
