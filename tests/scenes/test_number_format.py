"""Issue 26 §4: one number format per language everywhere (``scenes.core.i18n.number`` and the catalog texts):
a Russian line never mixes a decimal point and a decimal comma, no raw float runs to six places, stored times
read as dates, and golf's requirement is one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scenes.core.i18n import date_text, number, tr
from scenes.core.scoreboard import HudSnapshot, PlayerLine, hud_text


@pytest.mark.parametrize(
    ("value", "ru", "en"),
    [
        (0.140956, "0,14", "0.14"),
        (1.0, "1", "1"),
        (0.25, "0,25", "0.25"),
        (7.7, "7,7", "7.7"),
        (-0.0001, "0", "0"),
    ],
)
def test_number_has_one_separator_per_language(value: float, ru: str, en: str) -> None:
    assert number(value, "ru") == ru
    assert number(value, "en") == en


def test_a_whole_number_in_a_fractional_russian_text_takes_the_comma() -> None:
    # The trainer's score line: nothing right yet (an int 0) out of 7.7 points.
    text = tr("trainer.screen.score", "ru", g=0, p=7.7, pc=0.0)
    assert "0,0/7,7" in text, text
    assert not re.search(r"\d\.\d", text), text
    assert "0.0/7.7" in tr("trainer.screen.score", "en", g=0, p=7.7, pc=0.0)


def test_stored_times_read_as_dates() -> None:
    assert date_text("2026-12-04T21:40:03Z", "ru") == "04.12.2026 21:40"
    assert date_text("2026-12-04T21:40:03Z", "en") == "2026-12-04 21:40"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_golf_needs_one_requirement_line(lang: str) -> None:
    snap = HudSnapshot(
        game_name="golf",
        players=(PlayerLine("A", 0, at_table=True),),
        ball_on=("1",),
        golf_pocket="foot-right",
    )
    req = hud_text(snap, lang)["required"].splitlines()
    assert len(req) == 1, req
    assert tr("pocket.foot-right", lang) in req[0], req
    assert req[0].count(tr("hud.required", lang, text="").strip()) == 1


def test_number_keeps_a_scores_zeros_when_asked() -> None:
    assert number(3.0, "ru", 1, trim=False) == "3,0"
    assert number(3.0, "en", 1, trim=False) == "3.0"
    assert number(66.66, "ru", 0) == "67"


def test_the_russian_exam_report_writes_its_numbers_with_commas(tmp_path: Path) -> None:
    """The report's score lines were f-strings with points ("3.0 / 7.7") in a Russian page of commas."""
    from scenes.core.settings import Settings
    from scenes.core.trainer import exam
    from scenes.core.trainer.cases import load_library
    from scenes.core.trainer.session import Session, exam_plan
    from scenes.core.trainer.store import Store

    recorded = [c for c in load_library() if c.scenario.is_recorded]
    store = Store(tmp_path / "t.sqlite3")
    items = exam_plan(recorded, "russian-pyramid", 2, 0)
    row = store.new_session(
        "russian-pyramid", None, 0, [(i.case_id, i.game, i.topic) for i in items], kind="exam"
    )
    session = Session(store, row, recorded, Settings())
    rules = exam.ExamRules(cases=2, seconds_per_case=60.0, replays=1, pass_mark=80.5)
    eid = store.new_exam(session.id, "russian-pyramid", 60, 1, 80.5)
    _, path = exam.finish(session, eid, rules, "Борис", tmp_path, "ru", "2026-12-02T10:00:00Z")
    body = path.read_text(encoding="utf-8").split("<body>", 1)[1]
    text = re.sub(r"<[^>]+>", " ", body)
    assert "80,5 %" in text, re.findall(r".{20}\d\.\d.{20}", text)
    assert not re.search(r"\d\.\d", text), re.findall(r".{20}\d\.\d.{20}", text)
