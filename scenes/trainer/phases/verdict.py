"""The verdict phase, in the same panel as the questions: each answer against its question, the case's score,
the ruling with the rule quoted (the Russian source and what it means) and how the other rulebooks rule the
stroke, while the replay waits paused at the deciding moment with the ball and the place ringed. An exam
shows no verdict until its end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scenes.core.i18n import game_name, key_name, tr
from scenes.core.trainer.questions import free_ball_question, sight_lines
from scenes.core.trainer.verdict import AnswerLine, answer_lines, case_score, teaching

if TYPE_CHECKING:
    from scenes.trainer.screen import TrainerScreen


class VerdictPhase:
    """The answers judged (``lines``), what the case teaches (``teach``) and the panel's text (``text``)."""

    def __init__(self, screen: TrainerScreen) -> None:
        self.screen = screen
        self.lines: list[AnswerLine] = []
        self.teach: Any = None
        self.text = ""
        self.originals = False  # the Russian originals of translated quotes shown (the details key)

    def show(self) -> None:
        s = self.screen
        assert s.run is not None and s.session is not None
        if s.exam_mode:
            s.next_case()  # an exam says nothing until its end
            return
        s.phase = "verdict"
        s.layout.apply()
        self.lines = answer_lines(s.run.questions, s.session.answered(s.index), s.lang)
        self.teach = teaching(s.run.case, s.run.item.game, s.run.ruling, s.run.others, s.lang)
        director = s.watch.director
        moment = director.moment if director is not None else None
        if moment is not None:
            s.watch.highlight(moment)
        self.draw_sight_lines()
        for w in s.widgets:
            w.destroy()
        s.widgets = []
        y = s.watch.top_lines()
        if moment is not None:
            s.label(
                tr("trainer.screen.moment", s.lang, t=moment.t, what=moment.label(s.lang)),
                (-1.72, y),
                0.036,
                align="left",
            )
        self.panel()

    def draw_sight_lines(self) -> None:
        """The free-ball question: the lines of sight from where the cue ball comes to rest, and a ring there."""
        s = self.screen
        view = s.watch.view
        if view is None or s.run is None or free_ball_question(s.run.item.game, s.run.ruling) is None:
            return
        lines = sight_lines(s.run.ruling, s.run.case.scenario.table)
        if lines:
            view.sight_lines(lines, key="sight-lines")
            view.highlight(lines[0][0], colour=(0.3, 0.95, 0.35, 1.0), key="sight-cue")

    def blocks(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """The verdict panel's text, block by block, with its colour."""
        lang = self.screen.lang
        good, bad, plain, quote = (
            (0.55, 0.95, 0.55, 1),
            (1.0, 0.5, 0.45, 1),
            (1, 1, 1, 1),
            (0.85, 0.85, 0.7, 1),
        )
        out: list[tuple[str, tuple[float, float, float, float]]] = []
        for i, a in enumerate(self.lines, 1):
            out.append((a.text(i, lang), good if a.ok else bad))
        got, possible = case_score(self.lines)
        out.append(
            (
                tr(
                    "trainer.screen.score",
                    lang,
                    g=got,
                    p=possible,
                    pc=100.0 * got / possible if possible else 0.0,
                ),
                plain,
            )
        )
        t = self.teach
        out.append((f"{tr('trainer.verdict.ruling', lang)} ({game_name(t.game, lang)}): {t.summary}", plain))
        out += [(x, plain) for x in t.explanation]
        key = key_name(self.screen.settings.controls.details, lang)
        for q in t.quotes:
            out.append((f" {tr('trainer.verdict.rule', lang)}: {q.cite}", plain))
            if q.text:
                out.append((f"«{q.text}»", quote))
            if q.original is not None:
                # An English verdict quotes the project's translation; the Russian original is a key away.
                out.append((tr("trainer.verdict.translated", lang, key=key), plain))
                if self.originals:
                    out.append((f"«{q.original}»", quote))
            out.append((f" {tr('trainer.verdict.meaning', lang)}: {q.meaning}", plain))
        if t.others:
            out.append((tr("trainer.screen.others", lang), plain))
            for o in t.others:
                out.append((f"{o.name}: {o.summary}" + (f" — {o.rule}" if o.rule else ""), plain))
        return out

    def panel(self) -> None:
        from panda3d.core import TextNode

        s = self.screen
        blocks = self.blocks()
        left, right, _b, _t2 = s.layout.rect()
        scale = 0.03
        wrap = (right - left - 0.12) / scale
        # Lay the blocks out top to bottom: a block's height is its wrapped line count.
        heights = []
        for text, _c in blocks:
            tn = TextNode("measure")
            tn.setFont(s.font)
            tn.setWordwrap(wrap)
            tn.setText(text)
            heights.append(tn.getNumRows() * scale * 1.2 + 0.02)
        canvas = s.layout.frame(sum(heights) + 0.3)
        self.text = "\n".join(text for text, _c in blocks)
        if canvas is None:
            return
        y = -0.04
        for (text, colour), h in zip(blocks, heights, strict=True):
            s.label(
                text,
                (0.0, y),
                scale,
                parent=canvas,
                align="left",
                wrap=wrap,
                colour=colour,
                store=s.panel_widgets,
            )
            y -= h
        s.button(
            tr("trainer.screen.next", s.lang),
            (0.3, y - 0.06),
            s.next_case,
            scale=0.045,
            parent=canvas,
            store=s.panel_widgets,
        )
