"""Issue 25 §3: the sources a verdict rests on, named by their own headings (not "000"/"003", which are file
names), the passage quoted in Russian with the project's English translation, and for snooker and pool the
international rule beside it, saying whether the two agree (rules/sources.py; the ruling JSON's ``source``)."""

from __future__ import annotations

import tomllib

from rules.contract import Family
from rules.sources import QUOTES_FILE, cite, cite_text
from tests.rules.util import judge


def test_each_text_is_named_by_its_heading() -> None:
    [s003] = cite("003: Выскочившие шары", Family.RUSSIAN)
    assert s003["title"]["ru"] == "Общие правила"
    assert s003["section"] == "Выскочившие шары"
    [snk] = cite("000: Международный снукер, Соприкасающиеся шары", Family.SNOOKER)
    assert snk["title"]["ru"] == "Международный (или английский) снукер"
    assert snk["section"] == "Соприкасающиеся шары"
    # A section of 000 without a part is in the general rules of the family that cites it.
    assert cite("000: Выскочившие шары", Family.POOL)[0]["title"]["ru"] == "Общие правила пула"
    assert (
        cite("000: 7. Выскочившие шары", Family.RUSSIAN)[0]["title"]["ru"]
        == "Общие правила русского бильярда"
    )


def test_snooker_and_pool_cite_the_international_rule_and_say_whether_it_agrees() -> None:
    [touch] = cite("000: Международный снукер, Соприкасающиеся шары", Family.SNOOKER)
    assert touch["international"]["rule"] == "WPBSA S3 R8"
    assert touch["international"]["agrees"] is True
    [snookered] = cite("000: Международный снукер, Снукер (маска)", Family.SNOOKER)
    assert snookered["international"]["agrees"] is False
    assert "WPBSA" in snookered["international"]["note"]["en"]
    [jump] = cite("000: Правильный перескок", Family.POOL)
    assert jump["international"]["agrees"] is False
    # Russian billiards has no international rule beside it.
    assert "international" not in cite("003: Выскочившие шары", Family.RUSSIAN)[0]


def test_every_quote_has_an_english_translation() -> None:
    # (tests/trainer/test_verdict.py finds every quote word for word in the text it cites.)
    raw = tomllib.loads(QUOTES_FILE.read_text(encoding="utf-8"))["quote"]
    for q in raw:
        if q.get("text"):
            assert q.get("text_en"), q["id"]  # every quoted passage has the project's English translation
    [src] = cite("000: Международный снукер, Соприкасающиеся шары", Family.SNOOKER)
    assert src["quote"]["ru"].startswith("Если биток касается другого шара")
    assert src["quote"]["en"].startswith("If the cue ball touches")
    assert "translation" in src["quote"]["en_is"]


def test_the_ruling_json_extends_each_foul_with_its_source() -> None:
    r = judge("russian-pyramid", "cue=-0.5,0 7=0.5,0.2 3=0.2,-0.4", "cue|foot")
    d = r.to_dict()["fouls"][0]
    # the contract's fields, unchanged
    assert d["rule"] == "003: Штрафы (1)"
    assert d["code"] == "miss"
    assert d["source"][0]["title"]["en"] == "General rules"
    assert d["source"][0]["quote"]["ru"]
    # The explanation names the text by its heading.
    assert "Общие правила [003], «Штрафы (1)»" in r.explain["ru"]
    assert "General rules [003]" in r.explain["en"]


def test_cite_text_reads_in_both_languages() -> None:
    rule = "000: Международный снукер, Соприкасающиеся шары"
    assert cite_text(rule, Family.SNOOKER, "en").endswith("WPBSA S3 R8: agrees")
    assert cite_text(rule, Family.SNOOKER, "ru").endswith("WPBSA S3 R8: то же")


def test_american_snooker_is_000s_own_game_without_wpbsa_beside_it() -> None:
    from rules.notation import layout, record
    from rules.registry import get_referee
    from rules.state import MatchState

    balls = "cue=-0.5,0.3 red1=0.5,0.2 yellow=yellow green=green brown=brown blue=blue pink=pink black=black"
    for game, intl in (("snooker", True), ("american-snooker", False)):
        ref = get_referee(game)
        table = ref.table_id
        st = MatchState.from_scenario(ref, {"ball_on": "red"}, layout(balls, table), "t")
        r = ref.judge(st, record(balls, "cue|head", table=table))
        src = r.to_dict()["fouls"][0]["source"][0]
        assert ("international" in src) is intl, game
