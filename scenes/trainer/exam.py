"""Exam mode: N cases across the topics, limited replays, a time limit per case, a pass mark, a report.

``python main.py train --exam [--game G] [--cases N]`` (and the exam screen of the 3D trainer). The cases
are drawn by :func:`scenes.trainer.session.exam_plan`; nothing is said about an answer until the end. The
score is the weighted one of practice (``questions.WEIGHTS``); an answer given after the case's time ran out
scores nothing. The trainee passes with at least ``pass_mark`` percent. The report (HTML, one file the
trainee can keep or print) lists each case with the answers given and the right ones, the ruling and the
rule it rests on, the score per topic and rulebook, and the verdict.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from physics.files import atomic_text
from scenes.i18n import game_name
from scenes.trainer.cases import Topic
from scenes.trainer.verdict import AnswerLine, Teaching, answer_lines, case_score, teaching


@dataclass(frozen=True)
class ExamRules:
    cases: int
    seconds_per_case: float
    replays: int
    pass_mark: float  # percent of the weighted points

    @classmethod
    def from_settings(cls, trainer: Any, cases: int | None = None) -> ExamRules:
        return cls(
            cases=int(cases if cases is not None else trainer.exam_cases),
            seconds_per_case=float(trainer.exam_seconds),
            replays=int(trainer.exam_replays),
            pass_mark=float(trainer.exam_pass_mark),
        )


@dataclass(frozen=True)
class ExamResult:
    points: float
    possible: float
    pass_mark: float
    by_topic: tuple[tuple[str, float], ...]  # (topic, percent)
    by_game: tuple[tuple[str, float], ...]

    @property
    def percent(self) -> float:
        return 100.0 * self.points / self.possible if self.possible else 0.0

    @property
    def passed(self) -> bool:
        return self.possible > 0 and self.percent >= self.pass_mark - 1e-9


def result_of(session: Any, pass_mark: float) -> ExamResult:
    got, possible = session.points()
    return ExamResult(
        got,
        possible,
        pass_mark,
        tuple((p.key, 100.0 * p.score) for p in session.by("topic")),
        tuple((p.key, 100.0 * p.score) for p in session.by("game")),
    )


T: dict[str, tuple[str, str]] = {
    "title": ("Referee trainer: exam report", "Тренажёр судьи: протокол экзамена"),
    "trainee": ("Trainee", "Стажёр"),
    "date": ("Date", "Дата"),
    "rulebook": ("Rulebook", "Правила"),
    "mixed": ("mixed", "смешанные"),
    "score": ("Score", "Результат"),
    "pass": ("Pass mark", "Проходной балл"),
    "passed": ("PASSED", "СДАН"),
    "failed": ("NOT PASSED", "НЕ СДАН"),
    "rules": (
        "{n} cases, {s:g} s per case, {r} replays per case; answers after the time scored nothing.",
        "Случаев: {n}; на случай {s:g} с, повторов {r}; ответы после истечения времени не засчитаны.",
    ),
    "case": ("Case {i}", "Случай {i}"),
    "late": ("answered after the time ran out", "ответ после истечения времени"),
    "by_topic": ("By topic", "По темам"),
    "by_game": ("By rulebook", "По правилам"),
    "question": ("Question", "Вопрос"),
    "answer": ("Your answer", "Ваш ответ"),
    "right": ("Right answer", "Правильный ответ"),
    "ruling": ("Ruling", "Решение"),
    "rule": ("Rule", "Правило"),
    "others": ("Other rulebooks", "Другие правила"),
}


def _t(key: str, lang: str, **kw: Any) -> str:
    en, ru = T[key]
    s = en if lang == "en" else ru
    return s.format(**kw) if kw else s


def _topic(key: str, lang: str) -> str:
    try:
        return Topic(key).title(lang)
    except ValueError:
        return key


@dataclass(frozen=True)
class ReportCase:
    title: str
    game: str
    lines: tuple[AnswerLine, ...]
    teach: Teaching
    late: bool


def report_cases(session: Any, lang: str, limit: float | None) -> list[ReportCase]:
    """Every case of the session with its answers and ruling (the records are the session's own)."""
    out: list[ReportCase] = []
    times = {}
    for r in session.store.answer_rows(session.id):
        times[r.item] = max(times.get(r.item, 0.0), r.seconds or 0.0)
    for i in range(len(session.items)):
        run = session.run(i)
        lines = answer_lines(run.questions, session.answered(i), lang)
        teach = teaching(run.case, run.item.game, run.ruling, run.others, lang)
        late = limit is not None and times.get(i, 0.0) > limit
        out.append(ReportCase(run.case.title[lang], run.item.game, tuple(lines), teach, late))
    return out


def write_report(
    path: Path,
    session: Any,
    result: ExamResult,
    rules: ExamRules,
    trainee: str,
    date: str,
    lang: str,
) -> Path:
    """Write the exam report as one self-contained HTML file; returns its path."""
    e = html.escape
    cases = report_cases(session, lang, rules.seconds_per_case)
    game = session.row.game
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8"><title>{e(_t("title", lang))}</title>',
        "<style>body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:60em;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;width:100%;margin:.5em 0}td,th{border:1px solid #bbb;padding:.25em .5em;"
        "vertical-align:top;text-align:left}.ok{color:#176b2c}.bad{color:#a11}.verdict{font-size:1.4em;"
        "font-weight:bold}blockquote{margin:.3em 1em;padding:.3em .8em;border-left:3px solid #999;background:#f5f5f5}"
        "h2{border-bottom:1px solid #ccc}@media print{h2{page-break-before:auto}}</style></head><body>",
        f"<h1>{e(_t('title', lang))}</h1>",
        "<table>",
        f"<tr><th>{e(_t('trainee', lang))}</th><td>{e(trainee)}</td></tr>",
        f"<tr><th>{e(_t('date', lang))}</th><td>{e(date)}</td></tr>",
        f"<tr><th>{e(_t('rulebook', lang))}</th><td>{e(game_name(game, lang) if game else _t('mixed', lang))}</td></tr>",
        f"<tr><th>{e(_t('score', lang))}</th><td>{result.points:.1f} / {result.possible:.1f} "
        f"({result.percent:.1f} %)</td></tr>",
        f"<tr><th>{e(_t('pass', lang))}</th><td>{rules.pass_mark:g} %</td></tr>",
        "</table>",
        f'<p class="verdict {"ok" if result.passed else "bad"}">'
        f"{e(_t('passed' if result.passed else 'failed', lang))}</p>",
        f"<p>{e(_t('rules', lang, n=len(cases), s=rules.seconds_per_case, r=rules.replays))}</p>",
        _score_table(_t("by_topic", lang), [(_topic(k, lang), v) for k, v in result.by_topic]),
        _score_table(_t("by_game", lang), [(game_name(k, lang), v) for k, v in result.by_game]),
    ]
    for i, c in enumerate(cases, 1):
        got, possible = case_score(c.lines)
        parts.append(
            f"<h2>{e(_t('case', lang, i=i))}: {e(c.title)} — {e(game_name(c.game, lang))} "
            f"({got:.1f}/{possible:.1f})</h2>"
        )
        if c.late:
            parts.append(f'<p class="bad">{e(_t("late", lang))}</p>')
        parts.append(
            f"<table><tr><th>{e(_t('question', lang))}</th><th>{e(_t('answer', lang))}</th>"
            f"<th>{e(_t('right', lang))}</th></tr>"
        )
        for a in c.lines:
            cls = "ok" if a.ok else "bad"
            parts.append(
                f'<tr><td>{e(a.question)}</td><td class="{cls}">{e(a.mark())} {e(a.given)}</td>'
                f"<td>{e(a.right)}</td></tr>"
            )
        parts.append("</table>")
        parts.append(f"<p><b>{e(_t('ruling', lang))}:</b> {e(c.teach.summary)}</p>")
        parts += [f"<p>{e(x)}</p>" for x in c.teach.explanation]
        for q in c.teach.quotes:
            parts.append(f"<p><b>{e(_t('rule', lang))}:</b> {e(q.cite)}</p>")
            if q.text:
                parts.append(f'<blockquote lang="ru">{e(q.text)}</blockquote>')
            parts.append(f"<p>{e(q.meaning)}</p>")
        if c.teach.others:
            parts.append(f"<p><b>{e(_t('others', lang))}:</b></p><ul>")
            parts += [f"<li>{e(o.name)}: {e(o.summary)}</li>" for o in c.teach.others]
            parts.append("</ul>")
    parts.append("</body></html>")
    text = "\n".join(parts) + "\n"
    atomic_text(path, "report", lambda f: f.write(text), make_folder=True)
    return path


def _score_table(title: str, rows: Sequence[tuple[str, float]]) -> str:
    e = html.escape
    body = "".join(f"<tr><td>{e(k)}</td><td>{v:.0f} %</td></tr>" for k, v in rows)
    return f"<h3>{e(title)}</h3><table>{body}</table>"


def report_path(data_dir: Path, exam_id: int, trainee: str, date: str) -> Path:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in trainee)[:40] or "trainee"
    return data_dir / "reports" / f"exam-{exam_id}-{safe}-{date[:10]}.html"


def finish(
    session: Any, exam_id: int, rules: ExamRules, trainee: str, data_dir: Path, lang: str, date: str
) -> tuple[ExamResult, Path]:
    """Score the exam, write its report, store the result; returns both."""
    result = result_of(session, rules.pass_mark)
    path = write_report(
        report_path(data_dir, exam_id, trainee, date), session, result, rules, trainee, date, lang
    )
    session.store.finish_exam(exam_id, result.percent, result.passed, str(path))
    return result, path


def summary(result: ExamResult, lang: str) -> Mapping[str, Any]:
    return {"percent": round(result.percent, 1), "passed": result.passed, "pass_mark": result.pass_mark}
