"""The terminal trainer: describes a stroke from its event log in words, asks, scores, explains.

Works with answers piped on stdin: every answer is stored the moment it is read, and at end of input the
session is left to resume (``python main.py train --text`` again). After each case the verdict shows every
answer against its question, the ruling, the rule quoted (source and meaning) and the other rulebooks; the
score is the weighted one (``questions.WEIGHTS``). ``--exam`` runs an exam (``exam.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TextIO

from physics.record import Event, EventType, ShotRecord
from scenes.i18n import game_name, pocket_name
from scenes.trainer.cases import Case, Topic
from scenes.trainer.exam import ExamRules
from scenes.trainer.questions import Question, ball_name
from scenes.trainer.session import CaseRun, Session
from scenes.trainer.verdict import answer_lines, teaching, verdict_text

_CUSHIONS = {
    "head": ("the head cushion", "короткий борт дома"),
    "foot": ("the foot cushion", "задний короткий борт"),
    "left-head": ("the left cushion (head half)", "левый борт (половина дома)"),
    "left-foot": ("the left cushion (foot half)", "левый борт (дальняя половина)"),
    "right-head": ("the right cushion (head half)", "правый борт (половина дома)"),
    "right-foot": ("the right cushion (foot half)", "правый борт (дальняя половина)"),
}
_OBJECTS = {
    "rail_top": ("the rail top", "верх борта"),
    "frame": ("the table frame", "раму стола"),
    "lamp": ("the lamp", "светильник"),
    "chalk": ("the chalk on the rail", "мел на борту"),
    "person": ("a person by the table", "человека у стола"),
    "floor": ("the floor", "пол"),
    "cue": ("a cue", "кий"),
    "cue-on-rail": ("a cue lying on the rail", "кий на борту"),
    "bed": ("the bed", "игровое поле"),
    "rail": ("the rail", "борт"),
    "wall": ("a wall of the room", "стену комнаты"),
}
# Named for every table: the head string is the house line in pyramid and the baulk line in snooker.
_LINES = {
    "head-string": ("the head string (house / baulk line)", "линию дома (переднюю)"),
    "centre-line": ("the centre line", "среднюю линию"),
    "foot-string": ("the foot string", "заднюю линию"),
}


def _pick(table: Mapping[str, tuple[str, str]], key: str | None, lang: str) -> str:
    en, ru = table.get(key or "", (key or "?", key or "?"))
    return en if lang == "en" else ru


def describe_event(e: Event, lang: str) -> str | None:
    """One event in words, or None for events not worth a line (a ball coming to rest on the bed)."""
    en = lang == "en"
    b = ball_name(e.ball, lang) if e.ball else ""
    t = e.type
    if t == EventType.CUE_STRIKE:
        extra = []
        if e.miscue:
            extra.append("miscue: the tip slid off" if en else "кикс: наклейка соскользнула")
        if e.scoop:
            extra.append(
                "scoop: tip under the ball, cue raised" if en else "подцепка: удар под шар приподнятым кием"
            )
        s = f"the cue strikes the {b}" if en else f"кий бьёт {b}"
        return s + (f" ({'; '.join(extra)})" if extra else "")
    if t == EventType.BALL_BALL and e.balls:
        a, c = (ball_name(x, lang) for x in e.balls)
        return f"{a} hits {c}" if en else f"{a} ударяет {c}"
    if t == EventType.CUSHION:
        return (
            f"{b} hits {_pick(_CUSHIONS, e.cushion, lang)}"
            if en
            else f"{b} — удар о {_pick(_CUSHIONS, e.cushion, lang)}"
        )
    if t == EventType.POCKET_JAW:
        return (
            f"{b} touches the jaw of the {pocket_name(e.pocket or '', lang)} pocket"
            if en
            else f"{b} задевает губку лузы: {pocket_name(e.pocket or '', lang)}"
        )
    if t == EventType.POCKETED:
        return (
            f"{b} drops into the {pocket_name(e.pocket or '', lang)} pocket"
            if en
            else f"{b} падает в лузу: {pocket_name(e.pocket or '', lang)}"
        )
    if t == EventType.AIRBORNE:
        return f"{b} leaves the cloth (airborne)" if en else f"{b} отрывается от сукна"
    if t == EventType.LANDED:
        return (
            f"{b} lands on {_pick(_OBJECTS, e.on, lang)}"
            if en
            else f"{b} приземляется: {_pick(_OBJECTS, e.on, lang)}"
        )
    if t == EventType.TOUCHED:
        return (
            f"{b} touches {_pick(_OBJECTS, e.object, lang)}"
            if en
            else f"{b} касается: {_pick(_OBJECTS, e.object, lang)}"
        )
    if t == EventType.JUMPED_OVER:
        o = ball_name(e.over or "", lang)
        return f"{b} passes over {o} in the air" if en else f"{b} пролетает над шаром: {o}"
    if t == EventType.LINE_CROSSED:
        return (
            f"{b} crosses {_pick(_LINES, e.line, lang)}"
            if en
            else f"{b} пересекает {_pick(_LINES, e.line, lang)}"
        )
    if t == EventType.LEFT_TABLE:
        return f"{b} leaves the playing surface" if en else f"{b} вылетает за пределы игрового поля"
    if t == EventType.RETURNED:
        return f"{b} comes back onto the bed by itself" if en else f"{b} сам возвращается на игровое поле"
    if t == EventType.OFF_TABLE:
        return (
            f"{b} ends the stroke off the table, on {_pick(_OBJECTS, e.rest, lang)}"
            if en
            else f"{b} остаётся вне стола: {_pick(_OBJECTS, e.rest, lang)}"
        )
    if t == EventType.HANGING:
        return (
            f"{b} stops hanging over the edge of a pocket"
            if en
            else f"{b} останавливается, зависнув над лузой"
        )
    if t == EventType.DROPPED:
        after = f"{e.after:.1f}" if e.after is not None else "?"
        return (
            f"{b} falls into the pocket {after} s after the stroke ended"
            if en
            else f"{b} падает в лузу через {after} с после завершения удара"
        )
    return None


def describe_stroke(case: Case, record: ShotRecord, lang: str) -> list[str]:
    """The stroke in words: the position, what the player did, then the event log in time order."""
    en = lang == "en"
    sc = case.scenario
    lines = [
        ("Position: " if en else "Позиция: ")
        + "; ".join(f"{ball_name(b, lang)} ({x:+.2f}, {y:+.2f})" for b, (x, y) in sc.balls.items())
    ]
    s = sc.shot or record.shot
    if s is not None:
        tip_r, tip_u = s.tip
        lines.append(
            (
                f"Stroke: {ball_name(s.ball, lang)}, cue {s.cue_speed:.2f} m/s at {s.direction:.1f}°, "
                f"elevation {s.elevation:.1f}°, tip {tip_r:+.2f} right / {tip_u:+.2f} up"
            )
            if en
            else (
                f"Удар: {ball_name(s.ball, lang)}, кий {s.cue_speed:.2f} м/с, направление {s.direction:.1f}°, "
                f"наклон кия {s.elevation:.1f}°, точка удара {tip_r:+.2f} вправо / {tip_u:+.2f} вверх"
            )
        )
    for o in sc.objects:
        lines.append(
            f"By the table: {_pick(_OBJECTS, o.kind, lang)} at ({o.at[0]:+.2f}, {o.at[1]:+.2f}, {o.at[2]:+.2f})"
            if en
            else f"У стола: {_pick(_OBJECTS, o.kind, lang)} в точке ({o.at[0]:+.2f}, {o.at[1]:+.2f}, {o.at[2]:+.2f})"
        )
    last = ""
    unit = "s" if en else "с"
    events = list(record.events)
    for i, e in enumerate(events):
        # A landing on the bed followed at once by a take-off is one bounce.
        if (
            e.type == EventType.AIRBORNE
            and i > 0
            and events[i - 1].type == EventType.LANDED
            and events[i - 1].ball == e.ball
            and events[i - 1].on == "bed"
            and abs(events[i - 1].t - e.t) < 1e-3
        ):
            continue
        text = describe_event(e, lang)
        if (
            e.type == EventType.LANDED
            and e.on == "bed"
            and i + 1 < len(events)
            and events[i + 1].type == EventType.AIRBORNE
            and events[i + 1].ball == e.ball
            and abs(events[i + 1].t - e.t) < 1e-3
        ):
            b = ball_name(e.ball or "", lang)
            text = f"{b} bounces on the bed" if en else f"{b} отскакивает от сукна"
        if text is None or text == last:
            continue
        last = text
        lines.append(f"  {e.t:6.2f} {unit}  {text}")
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
    en = lang == "en"
    print(
        f"\n{n}. {q.prompt(lang)}"
        + ((" (several numbers allowed)" if en else " (можно несколько номеров)") if q.multi else ""),
        file=out,
    )
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
        print(
            (
                f"   Type option numbers 1..{len(q.options)}"
                if en
                else f"   Введите номера вариантов 1..{len(q.options)}"
            )
            + ("" if q.multi else (" (one)" if en else " (один)"))
            + ("; r shows the stroke again" if en else "; r - показать удар ещё раз"),
            file=out,
        )


def show_verdict(
    run: CaseRun, lang: str, out: TextIO, answered: Mapping[str, tuple[list[str], bool]]
) -> None:
    """Each answer against its own question, the ruling, the rule quoted, the other rulebooks."""
    lines = answer_lines(run.questions, answered, lang)
    teach = teaching(run.case, run.item.game, run.ruling, run.others, lang)
    print("", file=out)
    for line in verdict_text(lines, teach, lang):
        print(line, file=out)
    summary = (run.ruling.get("explain") or {}).get(lang)
    if summary and not run.ruling.get("fouls"):  # a foul's own text already says it
        print("  " + str(summary), file=out)


def _ended(lang: str, out: TextIO, exam: bool = False) -> None:
    en = lang == "en"
    cmd = "python main.py train --text" + (" --exam" if exam else "")
    print(
        "\n"
        + (
            f"Input ended: the session is saved; run `{cmd}` to resume."
            if en
            else f"Ввод закончился: сессия сохранена; продолжить: `{cmd}`."
        ),
        file=out,
    )


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
    en = lang == "en"
    total = len(session.items)
    start = session.position()
    head = f"Session {session.id}: {total} cases" if en else f"Сессия {session.id}: случаев — {total}"
    if resumed:
        head += f", resumed at case {start + 1}" if en else f", продолжение с случая {start + 1}"
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
                print("   " + ("Right." if en else "Верно."), file=out)
            else:
                print(
                    "   "
                    + ("Wrong. The answer: " if en else "Неверно. Правильно: ")
                    + q.describe(q.correct, lang),
                    file=out,
                )
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
) -> bool:
    """An exam in the terminal: no verdict until the end; ``r`` shows a stroke again up to ``rules.replays``
    times; answers after ``rules.seconds_per_case`` score nothing. Returns False when input ended."""
    en = lang == "en"
    total = len(session.items)
    print(
        (
            f"Exam {session.id}: {total} cases, {rules.seconds_per_case:g} s and {rules.replays} replays per case, "
            f"pass mark {rules.pass_mark:g} %"
            if en
            else f"Экзамен {session.id}: случаев {total}, на случай {rules.seconds_per_case:g} с и повторов "
            f"{rules.replays}, проходной балл {rules.pass_mark:g} %"
        )
        + ((", resumed" if en else ", продолжение") if resumed else ""),
        file=out,
    )
    for index in session.pending():
        run = session.run(index)
        session.shown(index)
        done = session.answered(index)
        _describe(run, index, total, lang, out)
        left = [rules.replays]

        def again(run: CaseRun = run, index: int = index, left: list[int] = left) -> bool:
            if left[0] <= 0:
                print("   " + ("No replays left for this case." if en else "Повторов больше нет."), file=out)
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
                print(
                    "   "
                    + (
                        f"Time is up for this case ({spent:.0f} s): the answer scores nothing."
                        if en
                        else f"Время на случай вышло ({spent:.0f} с): ответ не засчитывается."
                    ),
                    file=out,
                )
            session.answer(index, run, q, ans, late=late)
    return True


def print_score(session: Session, lang: str, out: TextIO) -> None:
    en = lang == "en"
    right, asked = session.score()
    got, possible = session.points()
    pct = 100.0 * got / possible if possible else 0.0
    print(
        "\n"
        + (
            f"Score: {got:.1f}/{possible:.1f} weighted points ({pct:.0f} %); {right} of {asked} answers right"
            if en
            else f"Результат: {got:.1f}/{possible:.1f} взвешенных баллов ({pct:.0f} %); верных ответов {right} из {asked}"
        ),
        file=out,
    )
    for key, title in (
        ("topic", "By topic" if en else "По темам"),
        ("game", "By rulebook" if en else "По правилам"),
    ):
        rows = session.by(key)
        if len(rows) > 1 or key == "topic":
            print(
                f"{title}: "
                + ", ".join(
                    f"{topic_title(p.key, lang) if key == 'topic' else game_name(p.key, lang)} {100 * p.score:.0f} %"
                    for p in rows
                ),
                file=out,
            )
    weak = session.weak_topics()
    if weak:
        print(
            ("Weak topics: " if en else "Слабые темы: ")
            + ", ".join(f"{topic_title(p.key, lang)} ({100 * p.score:.0f} %)" for p in weak),
            file=out,
        )


def topic_title(key: str, lang: str) -> str:
    try:
        return Topic(key).title(lang)
    except ValueError:
        return key
