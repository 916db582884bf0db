"""The trainer speaks one language at a time: every text from the gettext catalogs, no raw ids, and nothing of
the other language (issue 15 §2 for the trainer): a text session, the history and the exam report in Russian
and in English; every key the trainer builds from a name (topics, places, moments, quotes...) is in the
catalogs; every rule the trainer cites reads in both languages."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from physics.tables import TABLE_IDS
from rules.contract import FoulCode, InHand, NoteCode, Option
from rules.registry import game_ids
from scenes.core.i18n import (
    _KEY_NAMES,
    LANGS,
    catalog_problems,
    code_problems,
    has_text,
    key_name,
    rule_name,
    tr,
)
from scenes.core.settings import Settings
from scenes.core.trainer import exam, moments
from scenes.core.trainer.cases import Case, Topic, load_library, record_for, rule_all
from scenes.core.trainer.cli import print_history
from scenes.core.trainer.questions import LEGAL_NOTES, PLACES, family, questions_for
from scenes.core.trainer.quotes import all_quotes
from scenes.core.trainer.session import Session
from scenes.core.trainer.store import Store
from scenes.core.trainer.text import describe_stroke, run_text_exam, run_text_session
from scenes.core.trainer.verdict import answer_lines, teaching, verdict_text
from scenes.trainer.screen import CAMERAS, camera_label

SETTINGS = Settings()
LIBRARY = load_library()
CYRILLIC = re.compile("[\u0400-\u04ff]")
# A reference to a world rulebook keeps its identifiers and its English title beside the Russian one
# («WPBSA, раздел 2, определения: забитый шар (pot)»): it is a citation, as «…» quotes the Russian source.
# It runs to the end of its bracket or sentence, with its own parentheses: «исключение (a)/(c) (jump shot,
# exception (a)/(c))».
WORLD_REF = re.compile(r"\b(?:WPA|WPBSA|BCA)\b(?:(?!\.\s)[^()\[\]\n;]|\((?:[^()\n]|\([^()\n]*\))*\))*")
KEY_LABELS = {key_name(k, "ru") for k in _KEY_NAMES}
# Strokes recorded in the case files (nothing to simulate): hanging balls and outsiders, every family.
RECORDED = (
    "snooker-outside-interference",
    "snooker10-hanging-drops-on-arrival",
    "golf-hanging-before-5s",
    "pool-outside-interference",
    "pyramid-hanging-after-5s",
)


def _ids() -> set[str]:
    """Ids and codes that would be raw on screen: games, tables, topics, in-hand areas, places, foul and
    announcement codes, options (the ones an English word could be are left to the Russian check)."""
    ids = set(game_ids()) | set(TABLE_IDS) | {t.value for t in Topic} | {h.value for h in InHand}
    ids |= set(PLACES) | {c.value for c in FoulCode} | {c.value for c in NoteCode} | {o.value for o in Option}
    return {i for i in ids if re.search(r"[_\-]", i)}


IDS = _ids()


def raw_ids(text: str) -> list[str]:
    found = [w for w in re.findall(r"[a-z0-9]+(?:[_\-][a-z0-9]+)+", text) if w in IDS]
    return found + re.findall(r"\bred\d+\b", text)


def other_language(text: str, lang: str) -> list[str]:
    """What ``text`` says in the other language: English lines with Cyrillic outside «…» (the Russian source
    quoted), or Russian with Latin words outside «…» and world-rulebook references."""
    text = re.sub(r"«[^»]*»", "", text)
    if lang == "en":
        return [line for line in text.splitlines() if CYRILLIC.search(line)]
    # A key is named by the label printed on it (Tab, Esc).
    return [w for w in re.findall(r"[A-Za-z]{2,}", WORLD_REF.sub("", text)) if w not in KEY_LABELS]


TRAINEE = {"ru": "Анна", "en": "Anna"}  # a name the trainee typed is shown as typed


def _reader(answers: Iterator[str]) -> object:
    return lambda: next(answers, None)


def _answers() -> Iterator[str]:
    # Option 1 throughout (some right, some wrong: the verdict then shows the right answers too), and a
    # word that is no answer once (the retyping hint).
    yield "x"
    while True:
        yield "1"


def _texts(cases: Sequence[Case], lang: str, data: Path) -> str:
    """A practice session, the history and an exam with its report, as a trainee in ``lang`` reads them."""
    out = io.StringIO()
    with Store(data / "trainer.sqlite") as store:
        pid = store.profile(TRAINEE[lang])
        session = Session.start(store, cases, SETTINGS, None, None, len(cases), 1, pid)
        assert run_text_session(session, lang, _reader(_answers()), out)  # type: ignore[arg-type]
        print_history(store, lang, out, pid, TRAINEE[lang])
        rules = exam.ExamRules(cases=2, seconds_per_case=600.0, replays=1, pass_mark=80.0)
        ex = Session.start(store, cases, SETTINGS, None, None, rules.cases, 2, pid, kind="exam")
        exam_id = store.new_exam(ex.id, None, rules.seconds_per_case, rules.replays, rules.pass_mark)
        assert run_text_exam(ex, rules, lang, _reader(_answers()), out)  # type: ignore[arg-type]
        _result, report = exam.finish(ex, exam_id, rules, TRAINEE[lang], data, lang, "2026-01-01T00:00:00Z")
    # The report's page: its text (the Russian source is quoted as such, <blockquote lang="ru">).
    page = report.read_text(encoding="utf-8")
    page = re.sub(r'<style>.*?</style>|<blockquote lang="ru">.*?</blockquote>', " ", page, flags=re.S)
    return out.getvalue() + "\n" + html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("lang", LANGS)
def test_a_session_history_and_exam_speak_one_language_with_no_raw_ids(lang: str, tmp_path: Path) -> None:
    cases = [c for c in LIBRARY if c.id in RECORDED]
    assert len(cases) == len(RECORDED)
    text = _texts(cases, lang, tmp_path)
    assert other_language(text, lang) == []
    assert raw_ids(text) == []
    # The words a trainee needs are there, in the language asked for.
    if lang == "ru":
        assert "Решение судьи" in text
        assert "Слабые темы" in text
        assert "Введите номера вариантов" in text
        # the count agrees with its noun
        assert "Сессия 1: 5 случаев" in text
        assert "2 случая" in text
        assert "WPBSA, раздел 3, правило 15" in text
    else:
        assert "Referee's ruling" in text
        assert "Weak topics" in text
        assert "Type option numbers" in text
        assert "Session 1: 5 cases" in text
        assert "WPBSA Section 3, Rule 15" in text


def test_the_checks_catch_the_other_language_and_raw_ids() -> None:
    assert other_language("Решение судьи: фол", "en")
    assert other_language("правило: foul", "ru")
    assert not other_language("Rule: 003 «Выскочившие шары»", "en")
    assert not other_language("[WPBSA, раздел 2, определения: забитый шар (pot)]", "ru")
    assert not other_language("[WPBSA, раздел 2: исключение (a)/(c) (jump shot, exception (a)/(c))]", "ru")
    assert other_language("(WPBSA S3 R15). The ball", "ru") == ["The", "ball"]
    assert raw_ids("next: cue_ball_off_table (behind-head-string), red7") == [
        "cue_ball_off_table",
        "behind-head-string",
        "red7",
    ]


@pytest.mark.slow
def test_every_case_of_the_library_reads_in_either_language() -> None:
    """The stroke told, the questions and their options, the deciding moment and the verdict of every case
    under every rulebook of it, in both languages (the right answers shown: nothing answered)."""
    for c in LIBRARY:
        record = record_for(c, SETTINGS)
        rulings = rule_all(c, record)
        moment = moments.deciding_moment(c.topic, record)
        for g, r in rulings.items():
            qs = questions_for(c, g, record, r)
            others = {k: v for k, v in rulings.items() if k != g}
            for lang in LANGS:
                parts = verdict_text(answer_lines(qs, {}, lang), teaching(c, g, r, others, lang), lang)
                parts += describe_stroke(c, record, lang)
                parts += [o.label(lang) for q in qs for o in q.options]
                parts += [moment.label(lang)] if moment is not None else []
                text = "\n".join(parts)
                assert other_language(text, lang) == [], (c.id, g, lang)
                assert raw_ids(text) == [], (c.id, g, lang)


def test_every_name_the_trainer_builds_a_key_from_is_in_the_catalogs() -> None:
    keys = [f"trainer.topic.{t.value}" for t in Topic]
    keys += [f"trainer.place.{p}" for p in PLACES]
    keys += [f"trainer.in_hand.{h.value}" for h in InHand] + ["trainer.in_hand.none"]
    keys += [f"trainer.moment.{what}" for wanted in moments._WANTED.values() for _e, _x, what in wanted]
    keys += [f"trainer.legal.{t.value}.{fam}" for t, fam in LEGAL_NOTES]
    keys += [f"trainer.quote.{q.id}" for q in all_quotes()]
    keys += [f"trainer.ball.{c}" for c in ("yellow", "green", "brown", "blue", "pink", "black")]
    keys += [
        f"trainer.cushion.{c}" for c in ("head", "foot", "left-head", "left-foot", "right-head", "right-foot")
    ]
    keys += [f"trainer.object.{o}" for o in ("rail_top", "lamp", "chalk", "person", "floor", "rail", "bed")]
    keys += [f"trainer.line.{x}" for x in ("head-string", "centre-line", "foot-string")]
    keys += [f"trainer.cam.{m}" for m in CAMERAS]
    assert [k for k in keys if not has_text(k)] == []
    assert set(moments._WANTED) == set(Topic)  # every topic has its deciding moment named
    for lang in LANGS:
        assert all(tr(k, lang) for k in keys)
        for m in CAMERAS:
            assert bool(CYRILLIC.search(camera_label(m, lang))) == (lang == "ru"), m


def test_every_rule_the_trainer_cites_reads_in_both_languages() -> None:
    """The legal notes' references and the quotes without a source text: named by the catalogs (a bare
    section number, "WPA 8.3", needs no words)."""
    refs = set(LEGAL_NOTES.values()) | {q.refs[0] for q in all_quotes() if q.text is None and q.refs}
    for ref in sorted(refs):
        if not re.search(r"[A-Za-z]{3,}", re.sub(r"\b(WPA|WPBSA|BCA)\b", "", ref)) and ":" not in ref:
            continue  # identifiers only
        en, ru = rule_name(ref, "en", strict=True), rule_name(ref, "ru", strict=True)
        assert en != ru or ref[:3].isdigit(), ref
        assert not other_language(en, "en"), en
    for q in all_quotes():
        for lang in LANGS:
            cite = q.cite(lang)
            assert cite, (q.id, cite)
            assert not other_language(cite, lang), (q.id, cite)


def test_the_catalogs_and_the_code_agree(tmp_path: Path) -> None:
    assert catalog_problems() == []
    assert code_problems() == []
    # A key the code asks for that no catalog has is named with its place.
    bad = tmp_path / "bad.py"
    bad.write_text(
        'tr("trainer.no.such.text", lang)\nntr(f"trainer.nothing.{x}", 2, lang)\n', encoding="utf-8"
    )
    problems = code_problems([bad])
    assert any("trainer.no.such.text: in no catalog" in p for p in problems), problems
    assert any("no text starts with 'trainer.nothing.'" in p for p in problems), problems


def test_a_case_title_of_each_language_in_the_variations() -> None:
    """A generated variation is titled in both languages from the catalogs."""
    assert tr("trainer.gen.variation", "en", title="Lamp", k=2) == "Lamp (variation 2)"
    assert tr("trainer.gen.variation", "ru", title="Светильник", k=2) == "Светильник (вариант 2)"
    assert family("snooker") == "snooker"
