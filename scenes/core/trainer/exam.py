"""Exam mode: N cases across the topics, limited replays, a time limit per case, a pass mark, a report.

``python main.py train --exam [--game G] [--cases N]`` (and the exam screen of the 3D trainer). The cases
are drawn by :func:`scenes.core.trainer.session.exam_plan`; nothing is said about an answer until the end. The
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
from scenes.core.i18n import game_name, ntr, number, tr
from scenes.core.trainer.cases import Topic
from scenes.core.trainer.verdict import AnswerLine, Teaching, answer_lines, case_score, teaching, trainee_name


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


def _topic(key: str, lang: str) -> str:
    try:
        return Topic(key).label(lang)
    except ValueError:
        return key


def report_rules(cases: int, rules: ExamRules, lang: str) -> str:
    """The exam's conditions as the report states them (cases, time and replays per case)."""
    return tr(
        "trainer.report.rules",
        lang,
        cases=ntr("trainer.n_cases", cases, lang),
        s=rules.seconds_per_case,
        replays=ntr("trainer.n_replays", rules.replays, lang),
    )


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
    times: dict[int, float] = {}
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
    pictures: Mapping[int, Any] | None = None,
) -> Path:
    """Write the exam report as one self-contained HTML file; returns its path. ``pictures``: case index ->
    its deciding moment (``report_pictures.MomentPicture``), embedded as a data URI under the case's title."""
    e = html.escape
    cases = report_cases(session, lang, rules.seconds_per_case)
    game = session.row.game
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8"><title>{e(tr("trainer.report.title", lang))}</title>',
        "<style>body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:60em;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;width:100%;margin:.5em 0}td,th{border:1px solid #bbb;padding:.25em .5em;"
        "vertical-align:top;text-align:left}.ok{color:#176b2c}.bad{color:#a11}.verdict{font-size:1.4em;"
        "font-weight:bold}blockquote{margin:.3em 1em;padding:.3em .8em;border-left:3px solid #999;background:#f5f5f5}"
        "h2{border-bottom:1px solid #ccc}@media print{h2{page-break-before:auto}}</style></head><body>",
        f"<h1>{e(tr('trainer.report.title', lang))}</h1>",
        "<table>",
        f"<tr><th>{e(tr('trainer.report.trainee', lang))}</th><td>{e(trainee_name(trainee, lang))}</td></tr>",
        f"<tr><th>{e(tr('trainer.report.date', lang))}</th><td>{e(date)}</td></tr>",
        f"<tr><th>{e(tr('trainer.report.rulebook', lang))}</th><td>{e(game_name(game, lang) if game else tr('trainer.mixed', lang))}</td></tr>",
        f"<tr><th>{e(tr('trainer.report.score', lang))}</th><td>{number(result.points, lang, 1, trim=False)} / "
        f"{number(result.possible, lang, 1, trim=False)} ({number(result.percent, lang, 1, trim=False)} %)</td></tr>",
        f"<tr><th>{e(tr('trainer.report.pass', lang))}</th><td>{number(rules.pass_mark, lang)} %</td></tr>",
        "</table>",
        f'<p class="verdict {"ok" if result.passed else "bad"}">'
        f"{e(tr('trainer.exam.passed' if result.passed else 'trainer.exam.failed', lang))}</p>",
        f"<p>{e(report_rules(len(cases), rules, lang))}</p>",
        _score_table(tr("trainer.by_topic", lang), [(_topic(k, lang), v) for k, v in result.by_topic]),
        _score_table(tr("trainer.by_game", lang), [(game_name(k, lang), v) for k, v in result.by_game]),
    ]
    for i, c in enumerate(cases, 1):
        got, possible = case_score(c.lines)
        parts.append(
            f"<h2>{e(tr('trainer.report.case', lang, i=i))}: {e(c.title)} — {e(game_name(c.game, lang))} "
            f"({number(got, lang, 1, trim=False)}/{number(possible, lang, 1, trim=False)})</h2>"
        )
        pic = (pictures or {}).get(i - 1)
        if pic is not None:
            parts.append(_figure(pic, lang))
        if c.late:
            parts.append(f'<p class="bad">{e(tr("trainer.report.late", lang))}</p>')
        parts.append(
            f"<table><tr><th>{e(tr('trainer.report.question', lang))}</th><th>{e(tr('trainer.report.answer', lang))}</th>"
            f"<th>{e(tr('trainer.report.right', lang))}</th></tr>"
        )
        for a in c.lines:
            cls = "ok" if a.ok else "bad"
            parts.append(
                f'<tr><td>{e(a.question)}</td><td class="{cls}">{e(a.mark())} {e(a.given)}</td>'
                f"<td>{e(a.right)}</td></tr>"
            )
        parts.append("</table>")
        parts.append(f"<p><b>{e(tr('trainer.report.ruling', lang))}:</b> {e(c.teach.summary)}</p>")
        parts += [f"<p>{e(x)}</p>" for x in c.teach.explanation]
        for q in c.teach.quotes:
            parts.append(f"<p><b>{e(tr('trainer.report.rule', lang))}:</b> {e(q.cite)}</p>")
            if q.text and q.original is not None:
                # English: the project's translation, marked, and the Russian original under it.
                parts.append(f'<blockquote lang="en">{e(q.text)}</blockquote>')
                parts.append(f"<p><i>{e(tr('trainer.verdict.translation', lang))}</i></p>")
                parts.append(f'<blockquote lang="ru">{e(q.original)}</blockquote>')
            elif q.text:
                parts.append(f'<blockquote lang="ru">{e(q.text)}</blockquote>')
            parts.append(f"<p>{e(q.meaning)}</p>")
        if c.teach.others:
            parts.append(f"<p><b>{e(tr('trainer.report.others', lang))}:</b></p><ul>")
            parts += [f"<li>{e(o.name)}: {e(o.summary)}</li>" for o in c.teach.others]
            parts.append("</ul>")
    parts.append("</body></html>")
    text = "\n".join(parts) + "\n"
    atomic_text(path, "report", lambda f: f.write(text), make_folder=True)
    return path


def _figure(pic: Any, lang: str) -> str:
    """The deciding moment's picture with its caption: what happens and when («0,42 с после удара»)."""
    import base64

    e = html.escape
    what = tr(f"trainer.moment.{pic.what}", lang) if pic.what else tr("trainer.report.stroke_end", lang)
    caption = tr("trainer.report.moment", lang, what=what, t=float(pic.t))
    data = base64.b64encode(pic.png).decode("ascii")
    return (
        f'<figure><img src="data:image/png;base64,{data}" alt="{e(caption)}" style="max-width:100%">'
        f"<figcaption>{e(caption)}</figcaption></figure>"
    )


def _score_table(title: str, rows: Sequence[tuple[str, float]]) -> str:
    e = html.escape
    body = "".join(f"<tr><td>{e(k)}</td><td>{v:.0f} %</td></tr>" for k, v in rows)
    return f"<h3>{e(title)}</h3><table>{body}</table>"


def report_path(data_dir: Path, exam_id: int, trainee: str, date: str) -> Path:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in trainee)[:40] or "trainee"
    return data_dir / "reports" / f"exam-{exam_id}-{safe}-{date[:10]}.html"


def finish(
    session: Any,
    exam_id: int,
    rules: ExamRules,
    trainee: str,
    data_dir: Path,
    lang: str,
    date: str,
    pictures: Mapping[int, Any] | None = None,
) -> tuple[ExamResult, Path]:
    """Score the exam and store the result, then write its report (with the cases' ``pictures`` when given);
    returns both. The result is stored first: the report is a view of it, so a report the disk refuses
    (WriteError) loses no score."""
    result = store_result(session, exam_id, rules)
    report = write_exam_report(session, exam_id, rules, trainee, data_dir, lang, date, result, pictures)
    return result, report


def store_result(session: Any, exam_id: int, rules: ExamRules) -> ExamResult:
    """The exam's score and verdict, stored (the exam is finished from here on, whatever its report does)."""
    result = result_of(session, rules.pass_mark)
    session.store.finish_exam(exam_id, result.percent, result.passed, None)
    return result


def write_exam_report(
    session: Any,
    exam_id: int,
    rules: ExamRules,
    trainee: str,
    data_dir: Path,
    lang: str,
    date: str,
    result: ExamResult,
    pictures: Mapping[int, Any] | None = None,
) -> Path:
    """Write the report of a stored result and note where it is; WriteError when the disk refuses."""
    path = write_report(
        report_path(data_dir, exam_id, trainee, date), session, result, rules, trainee, date, lang, pictures
    )
    session.store.set_report(exam_id, str(path))
    return path


def summary(result: ExamResult, lang: str) -> Mapping[str, Any]:
    return {"percent": round(result.percent, 1), "passed": result.passed, "pass_mark": result.pass_mark}
