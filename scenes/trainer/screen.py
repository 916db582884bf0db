"""The trainer screen (registered as ``trainer`` in ``scenes.screens.SCREENS``).

Phases: **pick** a trainee, a rulebook and a topic (or mixed), a practice session, an exam or the history →
**watch** the stroke with the camera that goes where the decision is (``framing.py``: side view at ball
height for jumps, following the ball to where it lands for balls leaving the table, the jaws for hanging
balls) and automatic slow motion around the deciding moment → **answer** the questions in the panel beside
the replay → **verdict** in the same panel: each answer against its question, the ruling with the rule
quoted (the Russian source and what it means) and how the other rulebooks rule the stroke, the replay paused
at the deciding moment with the ball and the place ringed → **score** (weighted, per topic and rulebook;
variations of the missed cases offered). The panel never covers the replay: the 3D view is drawn in the
window's left part while the panel is open, and takes the whole window when the panel is collapsed
(``tab``). An **exam** shows no verdict until its end, limits the replays and the time per case, and writes
the report. **History** shows the progress by topic and rulebook and its plot. Every answer is stored as it
is given (``store.py``): leaving at any point and coming back resumes the session.
"""

from __future__ import annotations

import math
from typing import Any

from scenes.core.i18n import ntr
from scenes.core.script import ScriptRefused
from scenes.core.trainer.cases import load_library, user_cases_dir
from scenes.core.trainer.framing import Director
from scenes.core.trainer.session import CaseRun, Session
from scenes.core.trainer.store import Store, default_path
from scenes.fonts import ui_font
from scenes.screens import Screen
from scenes.trainer.phases.answer import AnswerPhase
from scenes.trainer.phases.exam import ExamPart
from scenes.trainer.phases.history import HistoryPhase
from scenes.trainer.phases.layout import PANEL, PanelLayout
from scenes.trainer.phases.pick import PickPhase, exam_rules_text
from scenes.trainer.phases.score import ScorePhase
from scenes.trainer.phases.verdict import VerdictPhase
from scenes.trainer.phases.watch import CAMERAS, SPEEDS, WatchPhase, camera_label, watch_hint

# The screen's helpers, importable from here as before the screen was split into its phases.
__all__ = ["CAMERAS", "PANEL", "SPEEDS", "TrainerScreen", "camera_label", "exam_rules_text", "watch_hint"]


class TrainerScreen(Screen):
    """The screen owns one part per phase (``scenes/trainer/phases/``) and what they share: the settings,
    the library and the store, the session and the case shown (``index``, ``run``, ``q_index``), the phase,
    the missed cases, and the widgets on the screen (``widgets``; ``panel_widgets`` in the panel)."""

    name = "trainer"

    def enter(self, args: Any = None, **_: Any) -> None:
        self.settings = self.ctx.settings
        self.library = load_library(extra=[user_cases_dir(self.ctx.settings)])
        self.store = Store(default_path(self.settings.data_dir()))
        self.disk_note = ""  # answers the disk refused: said in the header until it takes them
        self.store.warn = self._disk_warning
        self.profile = str(getattr(args, "profile", None) or self.settings.trainer.profile)
        self.profile_id = self.store.profile(self.profile)
        self.games = sorted({g for c in self.library for g in c.games})
        self.topics = sorted({c.topic.value for c in self.library})
        self.pick_game: str | None = getattr(args, "game", None) if args is not None else None
        self.pick_topic: str | None = getattr(args, "topic", None) if args is not None else None
        n = getattr(args, "cases", None) if args is not None else None
        self.n_cases = int(n) if n else int(self.settings.trainer.session_length)
        self.seed = int(getattr(args, "seed", 0) or 0) if args is not None else 0
        self.exam_mode = bool(getattr(args, "exam", False)) if args is not None else False
        self.phase = "pick"
        self.session: Session | None = None
        self.index = -1
        self.run: CaseRun | None = None
        self.q_index = 0
        self.missed: list[CaseRun] = []
        self.widgets: list[Any] = []
        self.panel_widgets: list[Any] = []
        self.font = ui_font(self.base.loader)
        self.base.setBackgroundColor(0.05, 0.07, 0.06, 1)
        self.layout = PanelLayout(self)
        self.pick = PickPhase(self)
        self.watch = WatchPhase(self)
        self.answer = AnswerPhase(self)
        self.verdict = VerdictPhase(self)
        self.exam = ExamPart(self)
        self.score = ScorePhase(self)
        self.history = HistoryPhase(self)
        c = self.settings.controls
        self.accept(c.menu, self.back)
        self.accept(c.pause, self.watch.pause)
        self.accept(c.slower, self.watch.speed, [1])
        self.accept(c.faster, self.watch.speed, [-1])
        self.accept(c.step, self.watch.step)
        self.accept(c.replay, self.watch.replay)
        self.accept(c.camera_next, self.watch.camera_next)
        self.accept(c.shoot, self._advance)
        self.accept("tab", self.toggle_panel)
        self.accept(c.details, self.toggle_originals)
        self.accept(c.power_up, self.layout.scroll, [1])
        self.accept(c.power_down, self.layout.scroll, [-1])
        for k in range(1, 10):
            self.accept(str(k), self.answer.toggle_number, [k])
        self.accept("enter", self.answer.confirm)
        self.add_task(self._update, "update")
        self.pick.show()
        if self.exam_mode:
            self.start_exam()  # train --exam: straight into the exam

    # --- what the parts share ------------------------------------------------------------------------------
    @property
    def view(self) -> Any:
        """The case's table view (None outside a case)."""
        return self.watch.view

    @property
    def player(self) -> Any:
        """The case's replay (None outside a case)."""
        return self.watch.player

    @property
    def director(self) -> Director | None:
        """The case's camera director (None outside a case)."""
        return self.watch.director

    def clear(self) -> None:
        for w in self.widgets + self.panel_widgets:
            w.destroy()
        self.widgets, self.panel_widgets = [], []

    def label(
        self,
        text: str,
        pos: tuple[float, float],
        scale: float = 0.05,
        parent: Any = None,
        align: str = "center",
        wrap: float | None = None,
        colour: tuple[float, ...] = (1, 1, 1, 1),
        store: list[Any] | None = None,
    ) -> Any:
        from direct.gui.DirectGui import DirectLabel
        from panda3d.core import TextNode

        kw: dict[str, Any] = {}
        if wrap is not None:
            kw["text_wordwrap"] = wrap
        w = DirectLabel(
            parent=parent or self.root2d,
            text=text,
            text_font=self.font,
            scale=scale,
            pos=(pos[0], 0, pos[1]),
            frameColor=(0, 0, 0, 0),
            text_fg=colour,
            text_shadow=(0, 0, 0, 0.9),
            text_align={"center": TextNode.ACenter, "left": TextNode.ALeft}[align],
            **kw,
        )
        (self.widgets if store is None else store).append(w)
        return w

    def button(
        self,
        text: str,
        pos: tuple[float, float],
        cmd: Any,
        args: list[Any] | None = None,
        scale: float = 0.05,
        parent: Any = None,
        colour: tuple[float, ...] = (0.16, 0.35, 0.2, 1),
        store: list[Any] | None = None,
        align: str = "center",
    ) -> Any:
        from direct.gui.DirectGui import DirectButton
        from panda3d.core import TextNode

        w = DirectButton(
            parent=parent or self.root2d,
            text=text,
            text_font=self.font,
            scale=scale,
            pos=(pos[0], 0, pos[1]),
            command=cmd,
            extraArgs=args or [],
            pad=(0.4, 0.2),
            frameColor=colour,
            text_fg=(1, 1, 1, 1),
            text_align={"center": TextNode.ACenter, "left": TextNode.ALeft}[align],
            relief=1,
        )
        (self.widgets if store is None else store).append(w)
        return w

    def _disk_warning(self, waiting: int, why: str) -> None:
        self.disk_note = ntr("trainer.screen.disk", waiting, self.lang, why=why) if waiting else ""

    # --- the panel -------------------------------------------------------------------------------------------
    def panel_rect(self) -> tuple[float, float, float, float]:
        """The panel's rectangle in aspect2d units (left, right, bottom, top)."""
        return self.layout.rect()

    def toggle_panel(self) -> None:
        self.layout.toggle()

    def toggle_originals(self) -> None:
        """The verdict: show or hide the Russian originals of the quotes an English verdict translates."""
        if self.phase == "verdict":
            self.verdict.originals = not self.verdict.originals
            self.verdict.panel()

    def panel_pixels(self) -> tuple[float, float] | None:
        """The panel's left and right edges in window pixels (None when it is not shown)."""
        return self.layout.pixels()

    # --- the session: its start, its cases one after another --------------------------------------------------
    def start(self) -> None:
        self.exam_mode = False
        self.session, _resumed = Session.resume_or_start(
            self.store,
            self.library,
            self.settings,
            self.pick_game,
            self.pick_topic,
            self.n_cases,
            self.seed,
            self.profile_id,
        )
        self.begin()

    def start_exam(self) -> None:
        self.exam.start()

    def begin(self) -> None:
        assert self.session is not None
        self.session.sample_hz = float(self.settings.physics.sample_hz)
        self.missed = []
        self.next_case()

    def next_case(self) -> None:
        assert self.session is not None
        pending = list(self.session.pending())
        if not pending:
            self.score.show()
            return
        self.index = pending[0]
        self.run = self.session.run(self.index)
        self.session.shown(self.index)
        done = self.session.answered(self.index)
        self.q_index = next(
            (i for i, q in enumerate(self.run.questions) if q.kind.value not in done), len(self.run.questions)
        )
        self.exam.new_case()
        self.watch.build_view()
        self.watch.show()

    def verdict_lines(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """The verdict panel's text, block by block, with its colour."""
        return self.verdict.blocks()

    def make_variations(self) -> int:
        return self.score.make_variations()

    def show_history(self) -> None:
        self.history.show()

    # --- controls ----------------------------------------------------------------------------------------
    def set_camera(self, mode: str) -> None:
        self.watch.set_camera(mode)

    def _advance(self) -> None:
        if self.phase == "watch":
            self.answer.show()
        elif self.phase == "verdict":
            self.next_case()

    def back(self) -> None:
        assert self.ctx.manager is not None
        self.ctx.manager.switch("menu")

    def ready(self) -> bool:
        w = self.watch
        return self.phase != "watch" or w.player is None or w.player.finished or w.paused

    def slow_factor(self) -> float:
        return self.watch.slow_factor()

    def _update(self, task: Any) -> Any:
        from direct.task import Task

        dt = min(self.base.clock.getDt(), 0.1)
        if self.phase in ("watch", "answer", "verdict"):
            self.layout.apply()
        self.watch.advance(dt)
        return Task.cont

    # --- measurements (tests) ------------------------------------------------------------------------------
    def project(self, point: tuple[float, float, float]) -> tuple[float, float] | None:
        """Window pixel (x from the left, y from the top) of a point of the scene, or None when off the view."""
        from panda3d.core import Point2, Point3

        cam = self.base.cam
        p = cam.getRelativePoint(self.base.render, Point3(*point))
        film = Point2()
        if not self.base.camLens.project(p, film):
            return None
        dr = cam.node().getDisplayRegion(0)
        w, h = self.base.win.getXSize(), self.base.win.getYSize()
        x0, x1, y0, y1 = dr.getLeft(), dr.getRight(), dr.getBottom(), dr.getTop()
        return (((film.x + 1) / 2 * (x1 - x0) + x0) * w, (1 - ((film.y + 1) / 2 * (y1 - y0) + y0)) * h)

    def ball_px(self, ball: str) -> float | None:
        """The diameter in window pixels the ball is drawn at now (its silhouette's width across the view)."""
        from panda3d.core import Vec3

        view = self.watch.view
        if view is None or ball not in view.balls:
            return None
        st = view.ball_state(ball)
        if st is None or not st.visible:
            return None
        cam = self.base.cam
        right = self.base.render.getRelativeVector(cam, Vec3(1, 0, 0))
        right.normalize()
        R = view.spec.ball_radius
        c = st.pos
        a = self.project((c[0] - right.x * R, c[1] - right.y * R, c[2] - right.z * R))
        b = self.project((c[0] + right.x * R, c[1] + right.y * R, c[2] + right.z * R))
        if a is None or b is None:
            return None
        return math.dist(a, b)

    # --- scripted input (tests, demo) ----------------------------------------------------------------------
    def script_action(self, a: dict[str, Any]) -> bool:
        do = a["do"]
        w = self.watch
        if do == "trainer_start":
            self.pick_game = a.get("game")
            self.pick_topic = a.get("topic")
            self.n_cases = int(a.get("cases", self.n_cases))
            self.seed = int(a.get("seed", 0))
            if a.get("profile"):
                self.pick.new_profile(str(a["profile"]))
            self.start_exam() if a.get("exam") else self.start()
        elif do == "trainer_answer":
            # Answer the current case's remaining questions: right (the referee's answers) or the first
            # wrong option.
            if self.phase == "watch":
                self.answer.show()
            while self.phase == "answer" and self.run is not None:
                q = self.run.questions[self.q_index]
                if a.get("correct", True):
                    self.answer.selected = set(q.correct)
                else:
                    self.answer.selected = {next(k for k in q.keys() if frozenset({k}) != q.correct)}
                self.answer.confirm()
        elif do == "trainer_next":
            self.next_case()
        elif do == "trainer_panel":
            self.toggle_panel()
        elif do == "trainer_history":
            self.show_history()
        elif do == "trainer_variations":
            self.make_variations()
        elif do == "trainer_pick":
            self.pick.show()
        elif do == "seek" and w.player is not None:
            w.player.seek(float(a["t"]))
            w.aim_camera(snap=True)
        elif do == "trainer_moment" and w.director is not None and w.director.moment is not None:
            w.to_moment()
        elif do == "camera":
            self.set_camera(str(a["mode"]))
        elif do == "pause":
            w.pause()
        elif do == "slower":
            w.speed(1)
        elif do == "faster":
            w.speed(-1)
        elif do == "step":
            w.step()
        else:
            raise ScriptRefused("an action of the trainer screen")
        return True

    def shown_texts(self) -> list[str]:
        """Every text on the screen now: labels, buttons, the clock (what a test reads for the language)."""
        from direct.gui.DirectGui import DirectButton, DirectLabel

        out = []
        for w in self.widgets + self.panel_widgets:
            if isinstance(w, (DirectLabel, DirectButton)) and not w.isEmpty():
                text = w["text"]
                if isinstance(text, str) and text.strip():
                    out.append(text)
        return out

    def dump(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "screen": self.name,
            "phase": self.phase,
            "profile": self.profile,
            "exam": self.exam_mode,
            "texts": self.shown_texts(),
            "disk": self.disk_note,
        }
        if self.session is not None:
            got, possible = self.session.points()
            r, n = self.session.score()
            d.update(
                session=self.session.id,
                index=self.index,
                score=[r, n],
                points=[round(got, 3), round(possible, 3)],
            )
        w = self.watch
        if self.run is not None and self.phase in ("watch", "answer", "verdict"):
            d.update(
                case=self.run.case.id,
                game=self.run.item.game,
                topic=self.run.case.topic.value,
                camera=w.cam_mode,
            )
            if w.director is not None:
                d["framing"] = w.director.kind
                d["slow"] = self.slow_factor()
                d["ball"] = w.director.ball
                px = self.ball_px(w.director.ball)
                d["ball_px"] = round(px, 1) if px is not None else None
                m = w.director.moment
                if m is not None and m.pos is not None:
                    d["moment_px"] = self.project(m.pos)
            if w.player is not None:
                d["t"] = round(w.player.t, 4)
            d["panel_px"] = self.panel_pixels()
            d["replays_left"] = self.exam.replays_left
        if self.phase == "verdict":
            d["verdict"] = self.verdict.text
            d["answers"] = [
                {"question": a.question, "given": a.given, "right": a.right, "ok": a.ok, "weight": a.weight}
                for a in self.verdict.lines
            ]
        if self.phase == "score" and self.exam_mode:
            d["result"] = self.exam.result_text
            d["report"] = self.exam.report
        if self.phase == "history":
            d["plot"] = self.history.plot_path
        return d

    def exit(self) -> None:
        self.clear()
        self.watch.drop_view()
        self.layout.restore()
        self.store.close()
        super().exit()
