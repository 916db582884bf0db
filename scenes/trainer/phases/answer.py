"""The answer phase: the case's questions one at a time in the panel beside the replay; an option picked with
the mouse or its number, confirmed with OK or Enter. Every answer is stored as it is given (``store.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scenes.core.i18n import tr

if TYPE_CHECKING:
    from scenes.trainer.screen import TrainerScreen


class AnswerPhase:
    """The question shown (the screen's ``q_index``), the options picked and their buttons."""

    def __init__(self, screen: TrainerScreen) -> None:
        self.screen = screen
        self.selected: set[str] = set()
        self.option_buttons: list[tuple[str, Any]] = []

    def show(self) -> None:
        s = self.screen
        assert s.run is not None
        if s.q_index >= len(s.run.questions):
            s.verdict.show()
            return
        s.phase = "answer"
        s.layout.apply()
        for w in s.widgets:
            w.destroy()
        s.widgets = []
        s.watch.top_lines()
        q = s.run.questions[s.q_index]
        self.selected = set()
        n = len(q.options)
        canvas = s.layout.frame(0.2 + 0.075 * n + 0.3)
        self.option_buttons = []
        if canvas is None:
            return
        lang = s.lang
        width = s.layout.rect()[1] - s.layout.rect()[0] - 0.1
        s.label(
            f"{s.q_index + 1}. {q.prompt(lang)}",
            (0.0, -0.06),
            0.042,
            parent=canvas,
            align="left",
            wrap=width / 0.042,
            store=s.panel_widgets,
        )
        for i, o in enumerate(q.options):
            chosen = o.key in self.selected
            b = s.button(
                f"{i + 1}) {o.label(lang)}",
                (0.02, -0.2 - 0.075 * i),
                self.toggle,
                [o.key],
                0.034,
                parent=canvas,
                colour=(0.75, 0.55, 0.1, 1) if chosen else (0.2, 0.2, 0.25, 1),
                store=s.panel_widgets,
                align="left",
            )
            self.option_buttons.append((o.key, b))
        s.button(
            tr("trainer.screen.ok", lang),
            (0.3, -0.25 - 0.075 * n),
            self.confirm,
            scale=0.05,
            parent=canvas,
            store=s.panel_widgets,
        )
        if s.exam.late:
            s.label(
                tr("trainer.screen.time_up", lang),
                (0.0, -0.35 - 0.075 * n),
                0.032,
                parent=canvas,
                align="left",
                colour=(1, 0.4, 0.3, 1),
                store=s.panel_widgets,
            )

    def toggle(self, key: str) -> None:
        s = self.screen
        assert s.run is not None
        q = s.run.questions[s.q_index]
        if not q.multi:
            self.selected = {key}
        elif key in self.selected:
            self.selected.discard(key)
        elif key == "none":
            self.selected = {"none"}
        else:
            self.selected = (self.selected - {"none"}) | {key}
        for k, b in self.option_buttons:
            b["frameColor"] = (0.75, 0.55, 0.1, 1) if k in self.selected else (0.2, 0.2, 0.25, 1)

    def toggle_number(self, k: int) -> None:
        s = self.screen
        if s.phase == "answer" and s.run is not None:
            q = s.run.questions[s.q_index]
            if k <= len(q.options):
                self.toggle(q.options[k - 1].key)

    def confirm(self) -> None:
        s = self.screen
        if s.phase != "answer" or not self.selected or s.run is None or s.session is None:
            return
        q = s.run.questions[s.q_index]
        s.exam.check_time()
        ok = s.session.answer(s.index, s.run, q, frozenset(self.selected), late=s.exam.late)
        if not ok and not s.exam_mode and s.run not in s.missed:
            s.missed.append(s.run)
        s.q_index += 1
        self.show()
