"""The score phase: the session's weighted score, per topic and per rulebook; an exam's result and report;
variations of the missed cases offered for practice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scenes.core.i18n import game_name, ntr, tr
from scenes.core.trainer.cases import Topic, load_library, user_cases_dir

if TYPE_CHECKING:
    from scenes.trainer.screen import TrainerScreen


class ScorePhase:
    """The end of a session (the missed cases are the screen's ``missed``)."""

    def __init__(self, screen: TrainerScreen) -> None:
        self.screen = screen

    def show(self) -> None:
        s = self.screen
        assert s.session is not None
        s.phase = "score"
        s.watch.drop_view()
        s.layout.restore()
        s.clear()
        lang = s.lang
        got, possible = s.session.points()
        pct = 100.0 * got / possible if possible else 0.0
        s.label(
            tr("trainer.screen.exam_done" if s.exam_mode else "trainer.screen.done", lang), (0, 0.7), 0.08
        )
        s.label(tr("trainer.screen.score", lang, g=got, p=possible, pc=pct), (0, 0.55), 0.055)
        if s.exam_mode and s.exam.exam_id is not None:
            s.exam.finish()
        y = 0.3
        for key, title in (("topic", tr("trainer.by_topic", lang)), ("game", tr("trainer.by_game", lang))):
            rows = s.session.by(key)
            text = ", ".join(
                f"{Topic(p.key).label(lang) if key == 'topic' else game_name(p.key, lang)} {100 * p.score:.0f} %"
                for p in rows
            )
            s.label(f"{title}: {text}", (0, y), 0.04, wrap=70)
            y -= 0.18
        # Variations vary a simulated stroke: a recorded one (a hanging ball, an outsider) has none.
        s.missed = [
            r for r in s.missed if r.case.scenario.shot is not None and not r.case.scenario.is_recorded
        ]
        if s.missed and int(s.settings.trainer.variations) > 0:
            s.button(tr("trainer.screen.variations", lang), (0, -0.3), s.make_variations, scale=0.05)
        s.button(tr("trainer.screen.back", lang), (0, -0.45), s.pick.show)

    def make_variations(self) -> int:
        from scenes.core.trainer.generate import variations

        s = self.screen
        n = 0
        for r in s.missed:
            n += len(
                variations(
                    r.case,
                    r.item.game,
                    int(s.settings.trainer.variations),
                    0,
                    user_cases_dir(s.settings),
                    s.settings,
                )
            )
        s.library = load_library(extra=[user_cases_dir(s.settings)])
        s.missed = []
        s.label(ntr("trainer.screen.made", n, s.lang), (0, -0.2), 0.04)
        return n
