"""The pick phase: the trainee (a profile, or a new one typed in), the rulebook and the topic (or mixed), the
session's length; then a practice session, an exam or the history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scenes.core.i18n import game_name, ntr, tr
from scenes.core.trainer.cases import Topic
from scenes.core.trainer.verdict import trainee_name

if TYPE_CHECKING:
    from scenes.trainer.screen import TrainerScreen


def exam_rules_text(r: Any, lang: str) -> str:
    """The exam's conditions under its button (the ``[trainer]`` settings)."""
    return tr(
        "trainer.screen.exam_rules",
        lang,
        cases=ntr("trainer.n_cases", int(r.exam_cases), lang),
        s=r.exam_seconds,
        replays=ntr("trainer.n_replays", int(r.exam_replays), lang),
        mark=r.exam_pass_mark,
    )


class PickPhase:
    """The choices of the next session; they are kept on the screen (``profile``, ``pick_game``,
    ``pick_topic``, ``n_cases``), which a script may set too."""

    def __init__(self, screen: TrainerScreen) -> None:
        self.screen = screen
        self.profile_label: Any = None
        self.game_label: Any = None
        self.topic_label: Any = None
        self.cases_label: Any = None
        self.entry: Any = None

    def show(self) -> None:
        from direct.gui.DirectGui import DirectEntry, DirectFrame

        s = self.screen
        s.phase = "pick"
        s.layout.restore()
        s.clear()
        lang = s.lang
        s.widgets.append(
            DirectFrame(parent=s.root2d, frameColor=(0, 0, 0, 0.4), frameSize=(-1.1, 1.1, -0.95, 0.9))
        )
        s.label(tr("menu.trainer", lang), (0, 0.72), 0.09)
        s.button("<", (-0.75, 0.56), self.cycle, ["profile", -1])
        self.profile_label = s.label(
            tr("trainer.trainee", lang, name=trainee_name(s.profile, lang)), (0, 0.55), 0.05
        )
        s.button(">", (0.75, 0.56), self.cycle, ["profile", 1])
        s.label(tr("trainer.screen.new_trainee", lang), (-0.55, 0.42), 0.04)
        self.entry = DirectEntry(
            parent=s.root2d,
            scale=0.045,
            pos=(-0.25, 0, 0.42),
            width=12,
            entryFont=s.font,
            command=self.new_profile,
            initialText="",
            numLines=1,
        )
        s.widgets.append(self.entry)
        s.label(tr("trainer.rulebook", lang), (0, 0.28), 0.05)
        s.button("<", (-0.75, 0.18), self.cycle, ["game", -1])
        self.game_label = s.label(
            game_name(s.pick_game, lang) if s.pick_game else tr("trainer.mixed", lang), (0, 0.17), 0.05
        )
        s.button(">", (0.75, 0.18), self.cycle, ["game", 1])
        s.label(tr("trainer.screen.topic", lang), (0, 0.04), 0.05)
        s.button("<", (-0.75, -0.06), self.cycle, ["topic", -1])
        self.topic_label = s.label(
            Topic(s.pick_topic).label(lang) if s.pick_topic else tr("trainer.mixed", lang),
            (0, -0.07),
            0.05,
        )
        s.button(">", (0.75, -0.06), self.cycle, ["topic", 1])
        s.button("−", (-0.3, -0.22), self.cases, [-1])
        self.cases_label = s.label(ntr("trainer.n_cases", s.n_cases, lang), (0, -0.23), 0.05)
        s.button("+", (0.3, -0.22), self.cases, [1])
        s.button(tr("trainer.screen.start", lang), (0, -0.4), s.start, scale=0.06)
        s.button(tr("trainer.screen.exam", lang), (-0.45, -0.58), s.start_exam, scale=0.055)
        s.button(tr("trainer.screen.history", lang), (0.45, -0.58), s.show_history, scale=0.055)
        r = s.settings.trainer
        s.label(
            exam_rules_text(r, lang),
            (0, -0.72),
            0.035,
            wrap=50,
        )
        s.button(tr("trainer.screen.menu", lang), (0, -0.86), s.back)

    def new_profile(self, text: str) -> None:
        s = self.screen
        if text.strip():
            s.profile = text.strip()[:40]
            s.profile_id = s.store.profile(s.profile)
            # A script names the trainee from any phase (the score page, the history): the label exists, and is
            # updated, only while the pick page is up (the page shows the profile when it is built again).
            if s.phase == "pick" and self.profile_label is not None:
                self.profile_label["text"] = tr(
                    "trainer.trainee", s.lang, name=trainee_name(s.profile, s.lang)
                )

    def cycle(self, what: str, step: int) -> None:
        s = self.screen
        if what == "profile":
            names = s.store.profiles()
            s.profile = (
                names[(names.index(s.profile) + step) % len(names)] if s.profile in names else names[0]
            )
            s.profile_id = s.store.profile(s.profile)
            self.profile_label["text"] = tr("trainer.trainee", s.lang, name=trainee_name(s.profile, s.lang))
        elif what == "game":
            opts: list[str | None] = [None, *s.games]
            s.pick_game = opts[(opts.index(s.pick_game) + step) % len(opts)]
            self.game_label["text"] = (
                game_name(s.pick_game, s.lang) if s.pick_game else tr("trainer.mixed", s.lang)
            )
        else:
            topts: list[str | None] = [None, *s.topics]
            s.pick_topic = topts[(topts.index(s.pick_topic) + step) % len(topts)]
            self.topic_label["text"] = (
                Topic(s.pick_topic).label(s.lang) if s.pick_topic else tr("trainer.mixed", s.lang)
            )

    def cases(self, step: int) -> None:
        s = self.screen
        s.n_cases = max(1, min(200, s.n_cases + step))
        self.cases_label["text"] = ntr("trainer.n_cases", s.n_cases, s.lang)
