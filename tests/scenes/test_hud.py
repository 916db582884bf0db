"""The HUD scoreboard: snapshot -> text in Russian and English; redraw only on a new snapshot."""

from __future__ import annotations

import pytest

from scenes.core.i18n import ball_name, game_name, rule_name, tr
from scenes.core.scoreboard import FoulLine, HudSnapshot, LastCall, PlayerLine, hud_text
from scenes.core.stats import foul_name

FOUL = FoulLine(
    "cue_ball_off_table",
    "003: Выскочившие шары",
    "Биток вылетел за пределы стола: это фол.",
    "The cue ball left the table: a foul.",
)


def _snapshot(**kw: object) -> HudSnapshot:
    base = dict(
        game_name="Russian pyramid (71)",
        players=(
            PlayerLine("Анна", 12, 1, at_table=False),
            PlayerLine("Boris", 35, 0, owed=2, at_table=True),
        ),
        frames_to_win=2,
        current_break=8,
        needs_call=True,
        call_ball="7",
        call_pocket="foot-left",
        last=LastCall(True, (FOUL,), (), (-5, 5)),
        options=("play_on", "make_offender_replay"),
        in_hand="house",
    )
    base.update(kw)
    return HudSnapshot(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_hud_text_carries_every_field(lang: str) -> None:
    t = hud_text(_snapshot(), lang)
    score = t["score"].splitlines()
    assert score[0] == "Russian pyramid (71)"
    # The player at the table is marked and both scores and frames are shown.
    assert score[1].startswith("   Анна: 12")
    assert "1/2" in score[1]
    assert score[2].startswith("▶ Boris: 35")
    assert "0/2" in score[2]
    assert tr("hud.owed", lang, n=2) in score[2]
    assert tr("hud.break", lang, n=8) in t["score"]
    call = tr("hud.call", lang, ball=ball_name("7", lang), pocket=tr("pocket.foot-left", lang))
    assert call in t["required"]
    assert tr("hud.in_hand", lang, zone=tr("zone.house", lang)) in t["required"]
    explain = FOUL.explain_ru if lang == "ru" else FOUL.explain_en
    # Compact call: the verdict, what was broken in a few words, the penalty; why and by which rule on demand.
    assert explain in t["details"]
    assert rule_name("003: Выскочившие шары", lang) in t["details"]
    assert explain not in t["call"]
    assert tr("hud.foul", lang) in t["call"]
    assert foul_name("cue_ball_off_table", lang) in t["call"]
    assert tr("hud.penalty", lang, points="Анна −5, Boris +5") in t["call"]
    with_key = hud_text(_snapshot(details_key="i"), lang)
    assert tr("hud.details_hint", lang, key="i") in with_key["call"]
    assert tr("option.play_on", lang) in t["call"]
    assert tr("option.make_offender_replay", lang) in t["call"]


def test_hud_languages_differ_and_are_cyrillic_in_russian() -> None:
    ru, en = hud_text(_snapshot(), "ru"), hud_text(_snapshot(), "en")
    assert ru["required"] != en["required"]
    assert any("\u0400" <= ch <= "\u04ff" for ch in ru["required"])
    assert not any("\u0400" <= ch <= "\u04ff" for ch in en["required"])
    assert "играй дальше" in ru["call"]
    assert "plays again" in en["call"]


def test_hud_call_missing_prompts_to_click_and_golf_pocket_shown() -> None:
    t = hud_text(
        _snapshot(
            call_ball=None, call_pocket=None, golf_pocket="middle-left", last=None, options=(), in_hand=None
        ),
        "en",
    )
    assert tr("hud.call_none", "en") in t["required"]
    assert tr("pocket.middle-left", "en") in t["required"]
    assert t["call"] == ""


def test_hud_legal_stroke_lists_counted_balls() -> None:
    t = hud_text(_snapshot(last=LastCall(False, (), ("7", "3"), (7, 0)), options=()), "ru")
    assert "без нарушений" in t["call"]
    assert "2 шара: шары 7, 3" in t["call"]


def test_every_game_has_a_name_in_both_languages() -> None:
    from physics.scenario import PRACTICE
    from rules.registry import game_ids

    for gid in (PRACTICE, *game_ids()):
        assert game_name(gid, "ru") != gid
        assert game_name(gid, "en") != gid


def test_hud_redraws_only_on_a_new_snapshot(offscreen_base: object) -> None:
    from scenes.hud import Hud

    hud = Hud(offscreen_base, "ru")
    try:
        s = _snapshot()
        assert hud.show(s) is True
        assert hud.show(_snapshot()) is False  # equal snapshot: nothing redrawn
        assert hud.redraws == 1
        assert hud.show(_snapshot(current_break=9)) is True
        assert hud.redraws == 2
        assert "Боris" not in hud.text()["score"]
        assert "Boris: 35" in hud.text()["score"]
        # Anchored to the corners: a 4:3 or 21:9 window keeps the blocks on screen.
        assert hud.blocks["score"].getParent() == offscreen_base.a2dTopLeft  # type: ignore[attr-defined]
        assert hud.blocks["call"].getParent() == offscreen_base.a2dBottomLeft  # type: ignore[attr-defined]
    finally:
        hud.destroy()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_touching_ball_is_announced(lang: str) -> None:
    """Snooker (000 «Соприкасающиеся шары»): the referee announces the ball touching the cue ball before the
    stroke; the HUD's required block says it and what it asks."""
    t = hud_text(_snapshot(touching="red3"), lang)
    assert tr("hud.touching", lang, ball=ball_name("red3", lang)) in t["required"]
    assert ("play away" if lang == "en" else "в сторону") in t["required"]
    assert (
        tr("hud.touching", lang, ball=ball_name("red3", lang)) not in hud_text(_snapshot(), lang)["required"]
    )


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_details_name_the_text_by_its_title(lang: str) -> None:
    titled = FoulLine(FOUL.code, FOUL.rule, FOUL.explain_ru, FOUL.explain_en, family="ru")
    t = hud_text(_snapshot(last=LastCall(True, (titled,), (), (-5, 5))), lang)
    assert ("General rules [003]" if lang == "en" else "Общие правила [003]") in t["details"]
