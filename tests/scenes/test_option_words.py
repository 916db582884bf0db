"""Issue 26 §4: every option after a ruling is worded for who plays next and from where, in both languages, and
the player marked at the table once the option is taken is the one its words name (English "play on" used to
read as the incoming player's, while the option makes the offender play again)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.notation import record
from scenes.core.i18n import tr
from scenes.core.match import ACCEPT, MatchController
from scenes.core.scoreboard import hud_text

NAMES = ("Анна", "Борис")


def _snooker_foul(lang: str) -> MatchController:
    """A foul on the snooker break: the cue ball from the D hits the brown first (4 away)."""
    m = MatchController(game="snooker", names=NAMES, lang=lang)
    balls = " ".join(f"{b}={x},{y}" for b, (x, y) in m.state.balls.items()) + " cue=-1.1,0.1"
    m.judge(record(balls, "cue>brown brown|foot", table="snooker-12ft"))
    return m


def _pyramid_foul(lang: str) -> MatchController:
    m = MatchController(game="russian-pyramid", names=NAMES, lang=lang)
    m.state = replace(m.state, phase="play", to_play=0, in_hand=None)
    m.judge(record("cue=-0.5,0 5=0.5,0.2 3=0.2,-0.4", "cue|head"))
    return m


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("make", [_snooker_foul, _pyramid_foul])
def test_each_option_names_the_player_then_marked_at_the_table(lang: str, make: object) -> None:
    m = make(lang)  # type: ignore[operator]
    assert m.pending is not None
    assert m.pending.ruling.foul
    options = m.options
    assert "play_on" in options
    assert options[-1] == ACCEPT
    labels = m.option_labels()
    assert len(labels) == len(options)
    call = hud_text(m.snapshot(), lang)["call"]
    striker = m.pending.ruling.striker
    for i, (option, label) in enumerate(zip(options, labels, strict=True)):
        assert f"{i + 1}) {label}" in call
        taken = make(lang)  # type: ignore[operator]
        taken.apply(None if option == ACCEPT else option)
        marked = [p.name for p in taken.snapshot().players if p.at_table]
        assert len(marked) == 1, (option, label)
        assert marked[0] in label, (option, label)
        other = NAMES[1 - NAMES.index(marked[0])]
        assert other not in label, (option, label)
        # play on and the replay keep the offender at the table; leaving the options hands it over.
        assert (NAMES.index(marked[0]) == striker) == (option != ACCEPT), option
        # From where: the cue ball in hand names its zone, else the balls stay as they lie.
        where = (
            tr("option.where.table", lang)
            if taken.state.in_hand is None
            else tr("option.where.hand", lang, zone=tr(f"zone.{taken.state.in_hand}", lang))
        )
        assert where in label, (option, label)


def test_the_english_play_on_says_the_same_player_plays_again() -> None:
    assert "again" in tr("option.play_on", "en")
    assert "again" in tr("option.hud.play_on", "en")
    assert "дальше" in tr("option.play_on", "ru")
