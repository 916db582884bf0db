"""The verdict teaches: each answer against its own question, the weighted score, the rule quoted from the
rule texts (its Russian source, found word for word in the text it cites) with its meaning in both
languages, for every topic under every rulebook of the library."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.core.settings import Settings
from scenes.core.trainer.cases import load_library, record_for, rule_all
from scenes.core.trainer.questions import NONE_FACTOR, WEIGHTS, Kind, family, questions_for, weight_of
from scenes.core.trainer.quotes import SOURCES, all_quotes, quotes_for
from scenes.core.trainer.verdict import answer_lines, case_score, teaching, verdict_text

LIBRARY = load_library()
SETTINGS = Settings()
RULES_DIR = Path("/work/shared/rules-source")


def test_weights_put_what_a_referee_must_get_right_first() -> None:
    assert WEIGHTS[Kind.LEGAL] == WEIGHTS[Kind.NEXT] > WEIGHTS[Kind.COUNTED] == WEIGHTS[Kind.RESPOT]
    assert WEIGHTS[Kind.RESPOT] > WEIGHTS[Kind.OFF_TABLE]
    assert weight_of("counted", ["none"]) == pytest.approx(WEIGHTS[Kind.COUNTED] * NONE_FACTOR)
    assert weight_of("counted", ["7"]) == WEIGHTS[Kind.COUNTED]


def test_each_answer_is_shown_against_its_own_question() -> None:
    case = next(c for c in LIBRARY if c.id == "pyramid-object-ball-to-floor")
    record = record_for(case, SETTINGS)
    rulings = rule_all(case, record)
    qs = questions_for(case, "russian-pyramid", record, rulings["russian-pyramid"])
    wrong = {q.kind.value: ([next(k for k in q.keys() if frozenset({k}) != q.correct)], False) for q in qs}
    wrong["legal"] = (sorted(qs[0].correct), True)
    lines = answer_lines(qs, wrong, "en")
    assert [a.question for a in lines] == [q.prompt("en") for q in qs]
    assert lines[0].ok
    assert lines[0].given == lines[0].right
    assert not lines[1].ok
    assert lines[1].given != lines[1].right
    got, possible = case_score(lines)
    assert got == pytest.approx(lines[0].weight)
    assert possible == pytest.approx(sum(q.weight for q in qs))
    teach = teaching(case, "russian-pyramid", rulings["russian-pyramid"], {}, "en")
    text = "\n".join(verdict_text(lines, teach, "en"))
    for a in lines:
        assert a.question in text
        assert f"your answer: {a.given}" in text
    assert f"right: {lines[1].right}" in text
    assert "General rules [003] «Выскочившие шары»" in text
    # An English verdict quotes the project's translation, marked, and gives the Russian original too.
    assert "Balls are jumped when" in text
    assert "the project's own translation" in text
    assert "«Выскочившими считаются шары" in text


def _norm(s: str) -> str:
    return " ".join(s.replace("\u00a0", " ").split())


@pytest.mark.skipif(not RULES_DIR.exists(), reason="the rule texts are not on this machine")
def test_quotes_are_the_rule_texts_word_for_word() -> None:
    texts = {k: _norm((RULES_DIR / v).read_text(encoding="utf-8")) for k, v in SOURCES.items()}
    for q in all_quotes():
        if q.text is None:
            # no text covers it: the reference the referee cites
            assert q.source is None, q.id
            assert q.refs, q.id
            continue
        assert q.source in texts, q.id
        for part in q.text.split("[...]"):
            # The source as written (its own line breaks and hyphens aside).
            assert _norm(part).strip(" .") in texts[q.source], (q.id, part[:60])


def test_every_topic_under_every_rulebook_quotes_its_rule_in_both_languages() -> None:
    for c in LIBRARY:
        for g in c.games:
            qs = quotes_for(c.topic.value, g, family(g))
            assert qs, (c.id, g)
            assert all(q.meaning("en") and q.meaning("ru") and q.meaning("en") != q.meaning("ru") for q in qs)


def test_the_ruling_line_names_fouls_and_who_plays_as_the_trainee_reads_them() -> None:
    """No foul code ("ball_touched") in the verdict: the fouls by name, and who plays next as the question
    asks it (the striker or the opponent)."""
    from scenes.core.stats import foul_name
    from scenes.core.trainer.questions import summary_line

    case = next(c for c in LIBRARY if c.id == "snooker-person")
    ruling = rule_all(case, record_for(case, SETTINGS))["snooker"]
    for lang in ("en", "ru"):
        line = summary_line(ruling, lang)
        assert all(f.code not in line for f in ruling.fouls), line
        assert foul_name(ruling.fouls[0].code, lang) in line
    assert "the opponent plays" in summary_line(ruling, "en")
    assert "бьёт соперник" in summary_line(ruling, "ru")


@pytest.mark.slow
def test_the_rule_quoted_first_is_the_one_the_ruling_cites() -> None:
    """Every case of the library under every rulebook: a ruling with fouls is quoted first from a section its
    fouls cite (the snooker person case quoted 'forced off' for a touching foul), every foul's section has its
    quote, and a quote of one family's rules never stands in another's verdict (pool quoted 003's lamp rule)."""
    for c in LIBRARY:
        record = record_for(c, SETTINGS)
        for g, ruling in rule_all(c, record).items():
            refs = [f.rule for f in ruling.fouls]
            qs = quotes_for(c.topic.value, g, family(g), refs, [f.code for f in ruling.fouls])
            assert qs, (c.id, g)
            for q in qs:
                assert not q.families or family(g) in q.families or g in q.games, (c.id, g, q.id)
            if not refs:
                continue
            cited = [ref for ref in refs if not any(ref.startswith(r) for q in qs for r in q.refs if r)]
            assert not cited, (c.id, g, cited)
            assert any(ref.startswith(r) for ref in refs for r in qs[0].refs if r), (c.id, g, qs[0].id, refs)
