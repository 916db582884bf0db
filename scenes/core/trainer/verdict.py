"""What the trainee is told after a case (pure: the text, the 3D panel and the exam report all draw it).

- each answer against its own question: the question, the answer given, the right one, and its weight;
- the referee's ruling with its explanation;
- the rule it rests on, quoted: the Russian source text and what it means in the interface language;
- how the other rulebooks of the table rule the same stroke, each with the meaning of its rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.ruling import Ruling
from scenes.core.i18n import game_name, number, tr
from scenes.core.trainer.questions import Question, explanation, family, free_ball_line, summary_line
from scenes.core.trainer.quotes import Quote, quotes_for, ruling_codes, ruling_refs
from scenes.core.trainer.store import DEFAULT_PROFILE


def trainee_name(name: str, lang: str) -> str:
    """A trainee as the screens name him: the profile nobody named reads «гость» / "guest"."""
    return tr("trainer.guest", lang) if name == DEFAULT_PROFILE else name


@dataclass(frozen=True)
class AnswerLine:
    """One question of a case with the answer given and the right one."""

    kind: str
    question: str
    given: str
    right: str
    ok: bool
    weight: float

    def mark(self) -> str:
        return "✓" if self.ok else "✗"

    def text(self, n: int, lang: str) -> str:
        return f"{n}. {self.question} {self.mark()} {tr('trainer.verdict.your', lang)}: {self.given}" + (
            "" if self.ok else f" — {tr('trainer.verdict.right', lang)}: {self.right}"
        )


def answer_lines(
    questions: Sequence[Question], answered: Mapping[str, tuple[Sequence[str], bool]], lang: str
) -> list[AnswerLine]:
    """Each question against the answer given (``answered``: kind -> (keys, correct))."""
    out: list[AnswerLine] = []
    for q in questions:
        got = answered.get(q.kind.value)
        if got is None:
            given, ok = tr("trainer.verdict.no_answer", lang), False
        else:
            keys = [k for k in got[0] if k in q.keys()]
            given, ok = (
                (q.describe(keys, lang) if keys else tr("trainer.verdict.no_answer", lang)),
                bool(got[1]),
            )
        out.append(AnswerLine(q.kind.value, q.prompt(lang), given, q.describe(q.correct, lang), ok, q.weight))
    return out


def case_score(lines: Sequence[AnswerLine]) -> tuple[float, float]:
    """(weighted points earned, weighted points possible)."""
    return sum(a.weight for a in lines if a.ok), sum(a.weight for a in lines)


@dataclass(frozen=True)
class QuoteLine:
    cite: str
    text: str | None  # the passage in the verdict's language: the Russian source, or our English translation
    meaning: str
    original: str | None = None  # the Russian source when ``text`` is the project's translation of it

    def translated(self) -> bool:
        return self.original is not None


@dataclass(frozen=True)
class OtherLine:
    game: str
    name: str
    summary: str
    rule: str | None  # the meaning of the rule it rests on (the first quote)


@dataclass(frozen=True)
class Teaching:
    game: str
    summary: str
    explanation: tuple[str, ...]
    quotes: tuple[QuoteLine, ...]
    others: tuple[OtherLine, ...]


def _quotes(case: Any, game: str, ruling: Ruling) -> list[Quote]:
    return quotes_for(case.topic.value, game, family(game), ruling_refs(ruling), ruling_codes(ruling))


def teaching(case: Any, game: str, ruling: Ruling, others: Mapping[str, Ruling], lang: str) -> Teaching:
    qs = [
        QuoteLine(
            q.cite(lang),
            q.quoted(lang),
            q.meaning(lang),
            q.text if q.quoted(lang) != q.text else None,
        )
        for q in _quotes(case, game, ruling)
    ]
    other_lines = []
    mine = {q.id for q in _quotes(case, game, ruling)}
    for g, r in others.items():
        # Another rulebook's rule is shown only where it is not the one just quoted.
        oq = [q for q in _quotes(case, g, r) if q.id not in mine]
        other_lines.append(
            OtherLine(g, game_name(g, lang), summary_line(r, lang), oq[0].meaning(lang) if oq else None)
        )
    fb = free_ball_line(ruling, lang)
    return Teaching(
        game=game,
        summary=summary_line(ruling, lang),
        explanation=tuple(explanation(case, game, ruling, lang)) + ((fb,) if fb else ()),
        quotes=tuple(qs),
        others=tuple(other_lines),
    )


def verdict_text(lines: Sequence[AnswerLine], teach: Teaching, lang: str, width: int = 0) -> list[str]:
    """The whole verdict as text lines (the terminal trainer; the 3D panel lays the same parts out)."""
    out = [f"{tr('trainer.verdict.answers', lang)}:"]
    out += ["  " + a.text(i, lang) for i, a in enumerate(lines, 1)]
    got, possible = case_score(lines)
    if possible:
        out.append(
            f"  {tr('trainer.verdict.score', lang)}: {number(got, lang, 1, trim=False)}/"
            f"{number(possible, lang, 1, trim=False)} ({number(100.0 * got / possible, lang, 0)} %)"
        )
    out.append(f"{tr('trainer.verdict.ruling', lang)} ({game_name(teach.game, lang)}): {teach.summary}")
    out += ["  " + x for x in teach.explanation]
    for q in teach.quotes:
        out.append(f"{tr('trainer.verdict.rule', lang)}: {q.cite}" + (f" — «{q.text}»" if q.text else ""))
        if q.original is not None:
            # The terminal has no key to press: the Russian original follows the translation.
            out.append(
                f"  ({tr('trainer.verdict.translation', lang)}) {tr('trainer.verdict.original', lang)}: «{q.original}»"
            )
        out.append(f"  {tr('trainer.verdict.meaning', lang)}: {q.meaning}")
    if teach.others:
        out.append(f"{tr('trainer.verdict.others', lang)}:")
        for o in teach.others:
            out.append(f"  {o.name}: {o.summary}")
            if o.rule:
                out.append(f"    {o.rule}")
    return out
