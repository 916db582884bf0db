"""The terminal trainer: describes a stroke from its event log in words, asks, scores, explains.

Works with answers piped on stdin: every answer is stored the moment it is read, and at end of input the
session is left to resume (``python main.py train --text`` again). After each case the verdict shows every
answer against its question, the ruling, the rule quoted (source and meaning) and the other rulebooks; the
score is the weighted one (``questions.WEIGHTS``). ``--exam`` runs an exam (``exam.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

from physics.record import Event, EventType, ShotRecord
from rules.names import object_en, object_ru
from scenes.core.i18n import game_name, has_text, ntr, number, pocket_name, tr
from scenes.core.trainer.cases import Case, Topic
from scenes.core.trainer.exam import ExamRules
from scenes.core.trainer.questions import Question, ball_name
from scenes.core.trainer.session import CaseRun, Session
from scenes.core.trainer.store import Progress
from scenes.core.trainer.verdict import answer_lines, teaching, verdict_text


def thing_name(kind: str, key: str | None, lang: str) -> str:
    """A cushion, a line or something a ball met, named (``trainer.<kind>.<key>``); a thing the trainer has
    no word for is named as the referee names it."""
    if key is None:
        return "?"
    if has_text(f"trainer.{kind}.{key}"):
        return tr(f"trainer.{kind}.{key}", lang)
    return object_en(key) if lang == "en" else object_ru(key, "acc")


def _strike(e: Event, lang: str) -> str:
    extra = [tr(f"trainer.event.{k}", lang) for k in ("miscue", "scoop") if getattr(e, k)]
    s = tr("trainer.event.strike", lang, ball=ball_name(e.ball or "", lang))
    return s + (f" ({'; '.join(extra)})" if extra else "")


# Events told by one catalog text with the ball's name and, where the event has it, what it met.
_SIMPLE: dict[EventType, str] = {
    EventType.AIRBORNE: "airborne",
    EventType.LEFT_TABLE: "left",
    EventType.RETURNED: "returned",
    EventType.HANGING: "hanging",
}


def describe_event(e: Event, lang: str) -> str | None:
    """One event in words, or None for events not worth a line (a ball coming to rest on the bed)."""
    b = ball_name(e.ball, lang) if e.ball else ""
    t = e.type
    if t == EventType.CUE_STRIKE:
        return _strike(e, lang)
    if t == EventType.BALL_BALL and e.balls:
        a, c = (ball_name(x, lang) for x in e.balls)
        return tr("trainer.event.ball_ball", lang, a=a, b=c)
    if t in _SIMPLE:
        return tr(f"trainer.event.{_SIMPLE[t]}", lang, ball=b)
    if t == EventType.CUSHION:
        return tr("trainer.event.cushion", lang, ball=b, cushion=thing_name("cushion", e.cushion, lang))
    if t in (EventType.POCKET_JAW, EventType.POCKETED):
        key = "trainer.event.jaw" if t == EventType.POCKET_JAW else "trainer.event.pocketed"
        return tr(key, lang, ball=b, pocket=pocket_name(e.pocket or "", lang))
    if t == EventType.LANDED:
        return tr("trainer.event.landed", lang, ball=b, on=thing_name("object", e.on, lang))
    if t == EventType.TOUCHED:
        return tr("trainer.event.touched", lang, ball=b, obj=thing_name("object", e.object, lang))
    if t == EventType.JUMPED_OVER:
        return tr("trainer.event.jumped_over", lang, ball=b, over=ball_name(e.over or "", lang))
    if t == EventType.LINE_CROSSED:
        return tr("trainer.event.line", lang, ball=b, line=thing_name("line", e.line, lang))
    if t == EventType.OFF_TABLE:
        return tr("trainer.event.off_table", lang, ball=b, rest=thing_name("object", e.rest, lang))
    if t == EventType.DROPPED:
        after = number(e.after, lang, 1, trim=False) if e.after is not None else "?"
        return tr("trainer.event.dropped", lang, ball=b, after=after)
    return None


def _bounce(events: list[Event], i: int) -> bool:
    """A landing on the bed followed at once by a take-off (one bounce, told as one line)."""
    e = events[i]
    return (
        e.type == EventType.LANDED
        and e.on == "bed"
        and i + 1 < len(events)
        and events[i + 1].type == EventType.AIRBORNE
        and events[i + 1].ball == e.ball
        and abs(events[i + 1].t - e.t) < 1e-3
    )


def describe_stroke(case: Case, record: ShotRecord, lang: str) -> list[str]:
    """The stroke in words: the position, what the player did, then the event log in time order."""
    sc = case.scenario
    where = "; ".join(f"{ball_name(b, lang)} ({x:+.2f}, {y:+.2f})" for b, (x, y) in sc.balls.items())
    lines = [tr("trainer.text.position", lang, balls=where)]
    s = sc.shot or record.shot
    if s is not None:
        lines.append(
            tr(
                "trainer.text.stroke",
                lang,
                ball=ball_name(s.ball, lang),
                speed=s.cue_speed,
                direction=s.direction,
                elevation=s.elevation,
                right=s.tip[0],
                up=s.tip[1],
            )
        )
    for o in sc.objects:
        x, y, z = o.at
        lines.append(tr("trainer.text.object", lang, obj=thing_name("object", o.kind, lang), x=x, y=y, z=z))
    last = ""
    events = list(record.events)
    for i, e in enumerate(events):
        if e.type == EventType.AIRBORNE and i > 0 and _bounce(events, i - 1):
            continue
        text = (
            tr("trainer.event.bounce", lang, ball=ball_name(e.ball or "", lang))
            if _bounce(events, i)
            else describe_event(e, lang)
        )
        if text is None or text == last:
            continue
        last = text
        lines.append(f"  {tr('trainer.text.at', lang, t=e.t)}  {text}")
    return lines


REPLAY_WORDS = ("r", "к")  # show the stroke again (the Russian key of the same place on the keyboard)


def _ask(
    q: Question,
    n: int,
    lang: str,
    read: Callable[[], str | None],
    out: TextIO,
    replay: Callable[[], bool] | None = None,
) -> frozenset[str] | None:
    several = f" ({tr('trainer.text.several', lang)})" if q.multi else ""
    print(f"\n{n}. {q.prompt(lang)}{several}", file=out)
    for i, o in enumerate(q.options, 1):
        print(f"   {i}) {o.label(lang)}", file=out)
    while True:
        print("> ", end="", file=out, flush=True)
        line = read()
        if line is None:
            return None
        if replay is not None and line.strip().lower() in REPLAY_WORDS:
            if replay():
                print(f"\n{n}. {q.prompt(lang)}", file=out)
            continue
        ans = q.parse(line)
        if ans is not None:
            return ans
        one = "" if q.multi else f" ({tr('trainer.text.one', lang)})"
        print(
            f"   {tr('trainer.text.type_numbers', lang, last=len(q.options))}{one}; "
            + tr("trainer.text.replay_hint", lang),
            file=out,
        )


def show_verdict(
    run: CaseRun, lang: str, out: TextIO, answered: Mapping[str, tuple[list[str], bool]]
) -> None:
    """Each answer against its own question, the ruling, the rule quoted, the other rulebooks."""
    lines = answer_lines(run.questions, answered, lang)
    teach = teaching(run.case, run.item.game, run.ruling, run.others, lang)
    print("", file=out)
    # The ruling's own summary (``Ruling.explain``) is not repeated: the verdict already says all it says, the
    # players by their role (the striker, the opponent) rather than the names of the case's match.
    for line in verdict_text(lines, teach, lang):
        print(line, file=out)


def _ended(lang: str, out: TextIO, exam: bool = False) -> None:
    cmd = "python main.py train --text" + (" --exam" if exam else "")
    print("\n" + tr("trainer.text.input_ended", lang, cmd=cmd), file=out)


def _describe(run: CaseRun, index: int, total: int, lang: str, out: TextIO) -> None:
    print(f"\n=== {index + 1}/{total}: {run.case.title[lang]} — {game_name(run.item.game, lang)}", file=out)
    for line in describe_stroke(run.case, run.record, lang):
        print(line, file=out)


def run_text_session(
    session: Session,
    lang: str,
    read: Callable[[], str | None],
    out: TextIO,
    resumed: bool = False,
    missed: list[CaseRun] | None = None,
) -> bool:
    """Run the session's remaining cases; returns False when input ended (the session stays resumable).
    Cases with a wrong answer are added to ``missed`` (for the variations offered at the end)."""
    total = len(session.items)
    start = session.position()
    head = ntr("trainer.text.session", total, lang, id=session.id)
    if resumed:
        head += tr("trainer.text.resumed_at", lang, case=start + 1)
    print(head, file=out)
    for index in session.pending():
        run = session.run(index)
        session.shown(index)
        done = session.answered(index)
        _describe(run, index, total, lang, out)

        def again(run: CaseRun = run, index: int = index) -> bool:
            _describe(run, index, total, lang, out)
            return True

        for n, q in enumerate(run.questions, 1):
            if q.kind.value in done:
                continue
            ans = _ask(q, n, lang, read, out, again)
            if ans is None:
                _ended(lang, out)
                return False
            ok = session.answer(index, run, q, ans)
            if ok:
                print("   " + tr("trainer.text.right", lang), file=out)
            else:
                print("   " + tr("trainer.text.wrong", lang, answer=q.describe(q.correct, lang)), file=out)
        answered = session.answered(index)
        show_verdict(run, lang, out, answered)
        if missed is not None and not all(ok for _a, ok in answered.values()):
            missed.append(run)
    print_score(session, lang, out)
    return True


def run_text_exam(
    session: Session,
    rules: ExamRules,
    lang: str,
    read: Callable[[], str | None],
    out: TextIO,
    resumed: bool = False,
    exam_id: int | None = None,
) -> bool:
    """An exam in the terminal: no verdict until the end; ``r`` shows a stroke again up to ``rules.replays``
    times; answers after ``rules.seconds_per_case`` score nothing. Returns False when input ended."""
    total = len(session.items)
    head = tr(
        "trainer.text.exam",
        lang,
        id=exam_id if exam_id is not None else session.id,  # the number its report file is written under
        cases=ntr("trainer.n_cases", total, lang),
        s=rules.seconds_per_case,
        replays=ntr("trainer.n_replays", rules.replays, lang),
        mark=rules.pass_mark,
    )
    print(head + (tr("trainer.text.resumed", lang) if resumed else ""), file=out)
    for index in session.pending():
        run = session.run(index)
        session.shown(index)
        done = session.answered(index)
        _describe(run, index, total, lang, out)
        left = [rules.replays]

        def again(run: CaseRun = run, index: int = index, left: list[int] = left) -> bool:
            if left[0] <= 0:
                print("   " + tr("trainer.text.no_replays", lang), file=out)
                return False
            left[0] -= 1
            _describe(run, index, total, lang, out)
            return True

        for n, q in enumerate(run.questions, 1):
            if q.kind.value in done:
                continue
            ans = _ask(q, n, lang, read, out, again)
            if ans is None:
                _ended(lang, out, exam=True)
                return False
            spent = session.seconds(index) or 0.0
            late = spent > rules.seconds_per_case
            if late:
                print("   " + tr("trainer.text.time_up", lang, s=spent), file=out)
            session.answer(index, run, q, ans, late=late)
    return True


def scores_by(rows: Sequence[Progress], key: str, lang: str) -> str:
    """Weighted scores by topic or by rulebook, each named: «прыжок через шар (перескок) 80 %, ...»."""
    return ", ".join(
        f"{topic_title(p.key, lang) if key == 'topic' else game_name(p.key, lang)} {100 * p.score:.0f} %"
        for p in rows
    )


def weak_text(weak: Sequence[Progress], lang: str) -> str:
    topics = ", ".join(f"{topic_title(p.key, lang)} ({100 * p.score:.0f} %)" for p in weak)
    return tr("trainer.weak_topics", lang, topics=topics)


def print_score(session: Session, lang: str, out: TextIO) -> None:
    right, asked = session.score()
    got, possible = session.points()
    pct = 100.0 * got / possible if possible else 0.0
    print(
        "\n" + ntr("trainer.text.score", asked, lang, got=got, possible=possible, pct=pct, right=right),
        file=out,
    )
    for key in ("topic", "game"):
        rows = session.by(key)
        if len(rows) > 1 or key == "topic":
            print(f"{tr(f'trainer.by_{key}', lang)}: {scores_by(rows, key, lang)}", file=out)
    weak = session.weak_topics()
    if weak:
        print(weak_text(weak, lang), file=out)


def topic_title(key: str, lang: str) -> str:
    try:
        return Topic(key).label(lang)
    except ValueError:
        return key
