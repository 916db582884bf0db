"""``python main.py referee FILE`` for a person, in Russian and in English: balls, fouls, games, tables, areas,
options and players named in the language (issue 15 §2), nothing of the other language; ``--json`` is the
contract's, byte for byte whatever the language (docs/formats.md §Ruling)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from main import run
from tests.trainer.test_texts import other_language, raw_ids

CASES = Path(__file__).resolve().parents[2] / "assets" / "cases"
# A foul with an outsider's touch (an announcement), a stroke every pool game and golf can take.
FILES = ("snooker-outside-interference.toml", "golf-chalk.toml")


def _referee(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert run(list(args)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", FILES)
def test_the_referee_speaks_russian_with_names(capsys: pytest.CaptureFixture[str], name: str) -> None:
    text = _referee(capsys, "--lang", "ru", "referee", str(CASES / name), "--all-games")
    assert other_language(text, "ru") == [], text
    assert raw_ids(text) == []
    # the default names in the language
    assert "Player" not in text
    assert "Игрок 2" in text
    assert "Решение судьи" in text
    assert "биток" in text
    assert "Нарушение: биток за бортом" in text
    assert (
        "Не судится по правилам: Пирамида 8 шаров — в неё играют на столе «Русская пирамида, 12 футов»"
        in text
    )
    if name.startswith("snooker"):
        # The cue ball meets the top of the red in the air and flies on over it: a jump shot too (WPBSA).
        assert "Снукер | удар с перескоком, биток за бортом" in text
        assert "с руки в полукруге «D»" in text
        assert "Предупреждения: [WPBSA, раздел 3, правило 15]" in text


@pytest.mark.parametrize("name", FILES)
def test_the_referee_speaks_english_with_names(capsys: pytest.CaptureFixture[str], name: str) -> None:
    text = _referee(capsys, "--lang", "en", "referee", str(CASES / name), "--all-games")
    assert other_language(text, "en") == [], text
    assert raw_ids(text) == []
    assert "Player 2" in text
    assert "the cue ball" in text
    assert "Foul: cue ball off the table" in text
    assert "Not judged under Pyramid, 8 balls: it is played on the “Russian pyramid, 12 ft” table" in text


def test_the_json_is_the_same_in_either_language(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = str(CASES / "golf-chalk.toml")
    ru = _referee(capsys, "--lang", "ru", "referee", f, "--all-games", "--json", "-")
    en = _referee(capsys, "--lang", "en", "referee", f, "--all-games", "--json", "-")
    assert ru == en
    d = json.loads(ru)
    # The contract's words: codes, ids and the English reasons (docs/formats.md §Ruling), not the person's text.
    assert d["ruling"]["fouls"][0]["code"] == "cue_ball_off_table"
    assert d["ruling"]["off_table"] == ["cue"]
    assert d["not_judged"]["snooker"] == "it is played on snooker-12ft, the stroke on pool-9ft"
    # The JSON to a file, the text to the terminal.
    out = tmp_path / "r.json"
    text = _referee(capsys, "--lang", "ru", "referee", f, "--json", str(out))
    assert json.loads(out.read_text(encoding="utf-8"))["ruling"] == d["ruling"]
    assert "Решение судьи (Гольф)" in text
    assert not re.search(r"\bcue\b", text)


def test_a_practice_stroke_is_judged_only_under_every_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "practice.toml"
    f.write_text(
        'game = "practice"\ntable = "pool-9ft"\n[balls]\ncue = [-0.6, 0.0]\n7 = [0.5, 0.1]\n'
        "[shot]\ncue_speed = 3.0\ndirection = 8.0\n",
        encoding="utf-8",
    )
    assert run(["--lang", "ru", "referee", str(f)]) == 2
    assert "--all-games" in capsys.readouterr().err
    text = _referee(capsys, "--lang", "ru", "referee", str(f), "--all-games")
    assert other_language(text, "ru") == []
    assert raw_ids(text) == []
    assert "Пул «восьмёрка»" in text
    assert "Гольф — в раскладке есть то, чем в неё не играют: шар 7" in text
