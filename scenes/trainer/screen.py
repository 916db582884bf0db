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

from physics.tables import load_table
from scenes.i18n import game_name, has_text, key_labels, key_name, ntr, tr, ui_font
from scenes.screens import Screen
from scenes.screens.views import BALL_STYLE, make_camera, make_replay, make_table_view
from scenes.script import ScriptRefused
from scenes.trainer.cases import Topic, load_library, user_cases_dir
from scenes.trainer.framing import Director, held_samples
from scenes.trainer.session import CaseRun, Session
from scenes.trainer.store import Store, default_path
from scenes.trainer.verdict import AnswerLine, answer_lines, case_score, teaching, trainee_name

SPEEDS = (1.0, 0.25, 0.125, 0.0625)
PANEL = 0.36  # the share of the window's width the panel takes when open
CAMERAS = ("decision", "top", "side", "follow", "orbit", "player", "free")


def camera_label(mode: str, lang: str) -> str:
    """The camera's name in the clock line («камера: решающий момент»)."""
    key = f"trainer.cam.{mode}"
    return tr("trainer.screen.camera", lang, mode=tr(key, lang) if has_text(key) else mode)


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


def watch_hint(controls: Any, lang: str) -> str:
    """The keys of the watching phase, each by its label in the language («пробел», "Space", "Tab")."""
    k = key_labels(controls, lang)
    return tr(
        "trainer.screen.watch",
        lang,
        key=k.shoot,
        pause=k.pause,
        slower=k.slower,
        faster=k.faster,
        step=k.step,
        camera=k.camera_next,
        replay=k.replay,
        tab=key_name("tab", lang),
    )


class TrainerScreen(Screen):
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
        self.exam_id: int | None = None
        self.index = -1
        self.run: CaseRun | None = None
        self.q_index = 0
        self.selected: set[str] = set()
        self.view: Any = None
        self.camera: Any = None
        self.player: Any = None
        self.director: Director | None = None
        self.cam_mode = "decision"
        self.paused = False
        self.speed_index = 0
        self.panel_open = True
        self.lines: list[AnswerLine] = []
        self.missed: list[CaseRun] = []
        self.replays_left = 0
        self.late = False
        self.result_text = ""
        self._widgets: list[Any] = []
        self._panel_widgets: list[Any] = []
        self.font = ui_font(self.base.loader)
        self.base.setBackgroundColor(0.05, 0.07, 0.06, 1)
        lens = self.base.camLens
        self._fov0 = (float(lens.getFov()[0]), float(lens.getFov()[1]))
        self._aspect0 = float(lens.getAspectRatio())
        c = self.settings.controls
        self.accept(c.menu, self.back)
        self.accept(c.pause, self._pause)
        self.accept(c.slower, self._speed, [1])
        self.accept(c.faster, self._speed, [-1])
        self.accept(c.step, self._step)
        self.accept(c.replay, self._replay)
        self.accept(c.camera_next, self._camera_next)
        self.accept(c.shoot, self._advance)
        self.accept("tab", self.toggle_panel)
        self.accept(c.power_up, self._scroll, [1])
        self.accept(c.power_down, self._scroll, [-1])
        for k in range(1, 10):
            self.accept(str(k), self._toggle_number, [k])
        self.accept("enter", self._confirm)
        self.add_task(self._update, "update")
        self._show_pick()
        if self.exam_mode:
            self.start_exam()  # train --exam: straight into the exam

    # --- widgets ---------------------------------------------------------------------------------------
    def _clear(self) -> None:
        for w in self._widgets + self._panel_widgets:
            w.destroy()
        self._widgets, self._panel_widgets = [], []

    def _label(
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
        (self._widgets if store is None else store).append(w)
        return w

    def _button(
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
        (self._widgets if store is None else store).append(w)
        return w

    # --- layout: the 3D view beside the panel ----------------------------------------------------------
    def _aspect(self) -> float:
        return float(self.base.getAspectRatio()) if self.base.win is not None else self._aspect0

    def panel_rect(self) -> tuple[float, float, float, float]:
        """The panel's rectangle in aspect2d units (left, right, bottom, top)."""
        a = self._aspect()
        return (a * (1.0 - 2.0 * PANEL), a, -1.0, 1.0)

    def _layout(self) -> None:
        """The 3D view's share of the window (all of it, or the part left of the open panel), with the
        vertical field of view unchanged so balls keep their size on screen."""
        share = 1.0 - PANEL if self._panel_shown() else 1.0
        dr = self.base.cam.node().getDisplayRegion(0)
        if abs(dr.getRight() - share) > 1e-6:
            dr.setDimensions(0.0, share, 0.0, 1.0)
        vfov = self._fov0[1]
        aspect = self._aspect() * share
        hfov = math.degrees(2.0 * math.atan(math.tan(math.radians(vfov) / 2.0) * aspect))
        lens = self.base.camLens
        if abs(lens.getFov()[0] - hfov) > 1e-4 or abs(lens.getFov()[1] - vfov) > 1e-4:
            lens.setFov(hfov, vfov)

    def _panel_shown(self) -> bool:
        return self.panel_open and self.phase in ("answer", "verdict")

    def _restore_layout(self) -> None:
        self.base.cam.node().getDisplayRegion(0).setDimensions(0.0, 1.0, 0.0, 1.0)
        self.base.camLens.setFov(*self._fov0)

    def toggle_panel(self) -> None:
        if self.phase not in ("answer", "verdict"):
            return
        self.panel_open = not self.panel_open
        self._layout()
        self._draw_panel()

    def _draw_panel(self) -> None:
        if self.phase == "answer":
            self._show_question()
        elif self.phase == "verdict":
            self._verdict_panel()

    def _panel_frame(self, height: float) -> Any:
        """The open panel (a scrolled frame on the right) or, collapsed, the tab that opens it."""
        from direct.gui.DirectGui import DirectFrame, DirectScrolledFrame

        for w in self._panel_widgets:
            w.destroy()
        self._panel_widgets = []
        left, right, bottom, top = self.panel_rect()
        if not self.panel_open:
            self._button(
                "◂ "
                + tr(
                    "trainer.screen.verdict" if self.phase == "verdict" else "trainer.screen.answer",
                    self.lang,
                ),
                (right - 0.2, 0.85),
                self.toggle_panel,
                scale=0.04,
                store=self._panel_widgets,
            )
            return None
        w = right - left
        back = DirectFrame(
            parent=self.root2d, frameColor=(0.02, 0.03, 0.03, 0.92), frameSize=(left, right, bottom, top)
        )
        self._panel_widgets.append(back)
        frame = DirectScrolledFrame(
            parent=self.root2d,
            frameSize=(left, right, bottom + 0.12, top - 0.02),
            canvasSize=(0, w - 0.06, -max(height, 1.86), 0),
            frameColor=(0, 0, 0, 0),
            scrollBarWidth=0.04,
            verticalScroll_frameColor=(0.2, 0.2, 0.2, 0.8),
            horizontalScroll_frameSize=(0, 0, 0, 0),
        )
        frame.getCanvas().setPos(left + 0.02, 0, top - 0.04)
        self._panel_widgets.append(frame)
        self._button("▸", (right - 0.06, -0.94), self.toggle_panel, scale=0.045, store=self._panel_widgets)
        self.scroller = frame
        return frame.getCanvas()

    def _scroll(self, step: int) -> None:
        sc = getattr(self, "scroller", None)
        if sc is None or self.phase not in ("answer", "verdict"):
            return
        bar = sc.verticalScroll
        bar["value"] = min(1.0, max(0.0, bar["value"] - 0.1 * step))

    # --- pick --------------------------------------------------------------------------------------------
    def _show_pick(self) -> None:
        from direct.gui.DirectGui import DirectEntry, DirectFrame

        self.phase = "pick"
        self._restore_layout()
        self._clear()
        lang = self.lang
        self._widgets.append(
            DirectFrame(parent=self.root2d, frameColor=(0, 0, 0, 0.4), frameSize=(-1.1, 1.1, -0.95, 0.9))
        )
        self._label(tr("menu.trainer", lang), (0, 0.72), 0.09)
        self._button("<", (-0.75, 0.56), self._cycle, ["profile", -1])
        self.profile_label = self._label(
            tr("trainer.trainee", lang, name=trainee_name(self.profile, lang)), (0, 0.55), 0.05
        )
        self._button(">", (0.75, 0.56), self._cycle, ["profile", 1])
        self._label(tr("trainer.screen.new_trainee", lang), (-0.55, 0.42), 0.04)
        self.entry = DirectEntry(
            parent=self.root2d,
            scale=0.045,
            pos=(-0.25, 0, 0.42),
            width=12,
            entryFont=self.font,
            command=self._new_profile,
            initialText="",
            numLines=1,
        )
        self._widgets.append(self.entry)
        self._label(tr("trainer.rulebook", lang), (0, 0.28), 0.05)
        self._button("<", (-0.75, 0.18), self._cycle, ["game", -1])
        self.game_label = self._label(
            game_name(self.pick_game, lang) if self.pick_game else tr("trainer.mixed", lang), (0, 0.17), 0.05
        )
        self._button(">", (0.75, 0.18), self._cycle, ["game", 1])
        self._label(tr("trainer.screen.topic", lang), (0, 0.04), 0.05)
        self._button("<", (-0.75, -0.06), self._cycle, ["topic", -1])
        self.topic_label = self._label(
            Topic(self.pick_topic).title(lang) if self.pick_topic else tr("trainer.mixed", lang),
            (0, -0.07),
            0.05,
        )
        self._button(">", (0.75, -0.06), self._cycle, ["topic", 1])
        self._button("−", (-0.3, -0.22), self._cases, [-1])
        self.cases_label = self._label(ntr("trainer.n_cases", self.n_cases, lang), (0, -0.23), 0.05)
        self._button("+", (0.3, -0.22), self._cases, [1])
        self._button(tr("trainer.screen.start", lang), (0, -0.4), self.start, scale=0.06)
        self._button(tr("trainer.screen.exam", lang), (-0.45, -0.58), self.start_exam, scale=0.055)
        self._button(tr("trainer.screen.history", lang), (0.45, -0.58), self.show_history, scale=0.055)
        r = self.settings.trainer
        self._label(
            exam_rules_text(r, lang),
            (0, -0.72),
            0.035,
            wrap=50,
        )
        self._button(tr("trainer.screen.menu", lang), (0, -0.86), self.back)

    def _new_profile(self, text: str) -> None:
        if text.strip():
            self.profile = text.strip()[:40]
            self.profile_id = self.store.profile(self.profile)
            self.profile_label["text"] = tr(
                "trainer.trainee", self.lang, name=trainee_name(self.profile, self.lang)
            )

    def _cycle(self, what: str, step: int) -> None:
        if what == "profile":
            names = self.store.profiles()
            self.profile = (
                names[(names.index(self.profile) + step) % len(names)] if self.profile in names else names[0]
            )
            self.profile_id = self.store.profile(self.profile)
            self.profile_label["text"] = tr(
                "trainer.trainee", self.lang, name=trainee_name(self.profile, self.lang)
            )
        elif what == "game":
            opts: list[str | None] = [None, *self.games]
            self.pick_game = opts[(opts.index(self.pick_game) + step) % len(opts)]
            self.game_label["text"] = (
                game_name(self.pick_game, self.lang) if self.pick_game else tr("trainer.mixed", self.lang)
            )
        else:
            topts: list[str | None] = [None, *self.topics]
            self.pick_topic = topts[(topts.index(self.pick_topic) + step) % len(topts)]
            self.topic_label["text"] = (
                Topic(self.pick_topic).title(self.lang) if self.pick_topic else tr("trainer.mixed", self.lang)
            )

    def _cases(self, step: int) -> None:
        self.n_cases = max(1, min(200, self.n_cases + step))
        self.cases_label["text"] = ntr("trainer.n_cases", self.n_cases, self.lang)

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
        self._begin()

    def start_exam(self) -> None:
        from scenes.trainer.exam import ExamRules

        self.exam_mode = True
        self.rules = ExamRules.from_settings(self.settings.trainer)
        self.session, _resumed = Session.resume_or_start(
            self.store,
            self.library,
            self.settings,
            self.pick_game,
            None,
            self.rules.cases,
            self.seed,
            self.profile_id,
            kind="exam",
        )
        row = self.store.exam_for(self.session.id)
        self.exam_id = (
            row.id
            if row is not None
            else self.store.new_exam(
                self.session.id,
                self.pick_game,
                self.rules.seconds_per_case,
                self.rules.replays,
                self.rules.pass_mark,
            )
        )
        self._begin()

    def _begin(self) -> None:
        assert self.session is not None
        self.session.sample_hz = float(self.settings.physics.sample_hz)
        self.missed = []
        self._next_case()

    # --- watch -------------------------------------------------------------------------------------------
    def _next_case(self) -> None:
        assert self.session is not None
        pending = list(self.session.pending())
        if not pending:
            self._show_score()
            return
        self.index = pending[0]
        self.run = self.session.run(self.index)
        self.session.shown(self.index)
        done = self.session.answered(self.index)
        self.q_index = next(
            (i for i, q in enumerate(self.run.questions) if q.kind.value not in done), len(self.run.questions)
        )
        self.replays_left = self.rules.replays if self.exam_mode else -1
        self.late = False
        self._build_view()
        self._show_watch()

    def _build_view(self) -> None:
        assert self.run is not None
        self._drop_view()
        rec = self.run.record
        spec = load_table(rec.table)
        balls = sorted(set(rec.initial) | set(rec.final))
        self.view = make_table_view(self.base, self.root3d, spec, balls, BALL_STYLE[spec.id], self.settings)
        for i, o in enumerate(self.run.case.scenario.objects):
            self.view.add_object(o, i)
        self.camera = make_camera(self.base, self.view, spec)
        # A recorded stroke has no ball samples: the replay holds each ball where its events put it.
        rec = held_samples(rec)
        self.player = make_replay(rec, self.view)
        self.director = Director(
            self.run.case.topic,
            rec,
            spec,
            self._fov0[1],
            self._aspect(),
            getattr(self.run.case, "subject", None),
        )
        self.cam_mode = "decision"
        self.speed_index = 0
        self.player.set_speed(SPEEDS[self.speed_index])
        self.paused = False
        self._aim_camera(snap=True)

    def _aim_camera(self, snap: bool = False) -> None:
        if self.camera is None or self.player is None or self.director is None:
            return
        if self.cam_mode == "decision":
            share = 1.0 - PANEL if self._panel_shown() else 1.0
            v = self.director.at(self.player.t, self._aspect() * share)
            self.camera.rig.set_view(v.eye, v.look, snap=snap)
        elif self.cam_mode == "follow":
            self.camera.follow_ball = self.director.ball
            self.camera.track(self.player)

    def _drop_view(self) -> None:
        if self.view is not None:
            self.view.destroy()
            self.view = None
        if self.camera is not None:
            self.camera.destroy()
            self.camera = None
        self.player = None
        self.director = None

    def _disk_warning(self, waiting: int, why: str) -> None:
        self.disk_note = ntr("trainer.screen.disk", waiting, self.lang, why=why) if waiting else ""

    def _header(self) -> str:
        assert self.run is not None and self.session is not None
        if self.disk_note:
            return self._case_header() + "\n" + self.disk_note
        return self._case_header()

    def _case_header(self) -> str:
        assert self.run is not None and self.session is not None
        if self.exam_mode:
            return tr(
                "trainer.screen.exam_case",
                self.lang,
                i=self.index + 1,
                cases=len(self.session.items),
                game=game_name(self.run.item.game, self.lang),
            )
        return tr(
            "trainer.screen.case",
            self.lang,
            i=self.index + 1,
            cases=len(self.session.items),
            title=self.run.case.title[self.lang],
            game=game_name(self.run.item.game, self.lang),
        )

    def _top_lines(self) -> float:
        """The case's header (wrapped to the 3D view) and the replay clock under it; returns the y below."""
        from panda3d.core import TextNode

        scale, wrap = 0.045, self._header_wrap()
        text = self._header()
        tn = TextNode("measure")
        tn.setFont(self.font)
        tn.setWordwrap(wrap)
        tn.setText(text)
        self._label(text, (-1.72, 0.92), scale, align="left", wrap=wrap)
        y = 0.92 - tn.getNumRows() * scale * 1.2 - 0.01
        self.clock = self._label("", (-1.72, y), 0.038, align="left")
        return y - 0.07

    def _header_wrap(self) -> float:
        """The header's width in its own text units: the 3D view's part of the window."""
        share = 1.0 - PANEL if self._panel_shown() else 1.0
        return (2.0 * self._aspect() * share - 0.15) / 0.045

    def _show_watch(self) -> None:
        assert self.run is not None and self.session is not None
        self.phase = "watch"
        self._layout()
        self._clear()
        lang = self.lang
        c = self.settings.controls
        self._top_lines()
        self._label(
            watch_hint(c, lang),
            (0, -0.93),
            0.032,
            wrap=90,
        )
        self._button(tr("trainer.screen.answer", lang), (1.45, -0.8), self._show_question)

    # --- answer ------------------------------------------------------------------------------------------
    def _show_question(self) -> None:
        assert self.run is not None
        if self.q_index >= len(self.run.questions):
            self._show_verdict()
            return
        self.phase = "answer"
        self._layout()
        for w in self._widgets:
            w.destroy()
        self._widgets = []
        self._top_lines()
        q = self.run.questions[self.q_index]
        self.selected = set() if not getattr(self, "_keep_selection", False) else self.selected
        self._keep_selection = False
        n = len(q.options)
        canvas = self._panel_frame(0.2 + 0.075 * n + 0.3)
        self.option_buttons = []
        if canvas is None:
            return
        lang = self.lang
        width = self.panel_rect()[1] - self.panel_rect()[0] - 0.1
        self._label(
            f"{self.q_index + 1}. {q.prompt(lang)}",
            (0.0, -0.06),
            0.042,
            parent=canvas,
            align="left",
            wrap=width / 0.042,
            store=self._panel_widgets,
        )
        for i, o in enumerate(q.options):
            chosen = o.key in self.selected
            b = self._button(
                f"{i + 1}) {o.label(lang)}",
                (0.02, -0.2 - 0.075 * i),
                self._toggle,
                [o.key],
                0.034,
                parent=canvas,
                colour=(0.75, 0.55, 0.1, 1) if chosen else (0.2, 0.2, 0.25, 1),
                store=self._panel_widgets,
                align="left",
            )
            self.option_buttons.append((o.key, b))
        self._button(
            tr("trainer.screen.ok", lang),
            (0.3, -0.25 - 0.075 * n),
            self._confirm,
            scale=0.05,
            parent=canvas,
            store=self._panel_widgets,
        )
        if self.late:
            self._label(
                tr("trainer.screen.time_up", lang),
                (0.0, -0.35 - 0.075 * n),
                0.032,
                parent=canvas,
                align="left",
                colour=(1, 0.4, 0.3, 1),
                store=self._panel_widgets,
            )

    def _toggle(self, key: str) -> None:
        assert self.run is not None
        q = self.run.questions[self.q_index]
        if not q.multi:
            self.selected = {key}
        elif key in self.selected:
            self.selected.discard(key)
        elif key == "none":
            self.selected = {"none"}
        else:
            self.selected = (self.selected - {"none"}) | {key}
        for k, b in getattr(self, "option_buttons", []):
            b["frameColor"] = (0.75, 0.55, 0.1, 1) if k in self.selected else (0.2, 0.2, 0.25, 1)

    def _toggle_number(self, k: int) -> None:
        if self.phase == "answer" and self.run is not None:
            q = self.run.questions[self.q_index]
            if k <= len(q.options):
                self._toggle(q.options[k - 1].key)

    def _confirm(self) -> None:
        if self.phase != "answer" or not self.selected or self.run is None or self.session is None:
            return
        q = self.run.questions[self.q_index]
        self._check_time()
        ok = self.session.answer(self.index, self.run, q, frozenset(self.selected), late=self.late)
        if not ok and not self.exam_mode and self.run not in self.missed:
            self.missed.append(self.run)
        self.q_index += 1
        self._show_question()

    def _check_time(self) -> None:
        if self.exam_mode and self.session is not None:
            spent = self.session.seconds(self.index) or 0.0
            self.late = self.late or spent > self.rules.seconds_per_case

    # --- verdict -----------------------------------------------------------------------------------------
    def _show_verdict(self) -> None:
        assert self.run is not None and self.session is not None
        if self.exam_mode:
            self._next_case()  # an exam says nothing until its end
            return
        self.phase = "verdict"
        self._layout()
        self.lines = answer_lines(self.run.questions, self.session.answered(self.index), self.lang)
        self.teach = teaching(self.run.case, self.run.item.game, self.run.ruling, self.run.others, self.lang)
        moment = self.director.moment if self.director is not None else None
        if moment is not None:
            self._highlight(moment)
        for w in self._widgets:
            w.destroy()
        self._widgets = []
        y = self._top_lines()
        if moment is not None:
            self._label(
                tr("trainer.screen.moment", self.lang, t=moment.t, what=moment.label(self.lang)),
                (-1.72, y),
                0.036,
                align="left",
            )
        self._verdict_panel()

    def verdict_lines(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """The verdict panel's text, block by block, with its colour."""
        lang = self.lang
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
        for q in t.quotes:
            out.append((f" {tr('trainer.verdict.rule', lang)}: {q.cite}", plain))
            if q.text:
                out.append((f"«{q.text}»", quote))
            out.append((f" {tr('trainer.verdict.meaning', lang)}: {q.meaning}", plain))
        if t.others:
            out.append((tr("trainer.screen.others", lang), plain))
            for o in t.others:
                out.append((f"{o.name}: {o.summary}" + (f" — {o.rule}" if o.rule else ""), plain))
        return out

    def _verdict_panel(self) -> None:
        from panda3d.core import TextNode

        blocks = self.verdict_lines()
        left, right, _b, _t2 = self.panel_rect()
        scale = 0.03
        wrap = (right - left - 0.12) / scale
        # Lay the blocks out top to bottom: a block's height is its wrapped line count.
        heights = []
        for text, _c in blocks:
            tn = TextNode("measure")
            tn.setFont(self.font)
            tn.setWordwrap(wrap)
            tn.setText(text)
            heights.append(tn.getNumRows() * scale * 1.2 + 0.02)
        canvas = self._panel_frame(sum(heights) + 0.3)
        self.verdict_text = "\n".join(text for text, _c in blocks)
        if canvas is None:
            return
        y = -0.04
        for (text, colour), h in zip(blocks, heights, strict=True):
            self._label(
                text,
                (0.0, y),
                scale,
                parent=canvas,
                align="left",
                wrap=wrap,
                colour=colour,
                store=self._panel_widgets,
            )
            y -= h
        self._button(
            tr("trainer.screen.next", self.lang),
            (0.3, y - 0.06),
            self._next_case,
            scale=0.045,
            parent=canvas,
            store=self._panel_widgets,
        )

    def _highlight(self, moment: Any) -> None:
        if self.view is None or self.player is None:
            return
        # A hair before the moment: a ball that drops at it is still there to ring.
        self.player.seek(max(0.0, moment.t - 1e-3))
        self.paused = True
        if moment.ball is not None:
            self.view.highlight(moment.ball, key="moment-ball")
        if moment.pos is not None:
            self.view.highlight(moment.pos, colour=(1.0, 0.2, 0.2, 1.0), key="moment-place")
        self._aim_camera(snap=True)

    # --- score -------------------------------------------------------------------------------------------
    def _show_score(self) -> None:
        assert self.session is not None
        self.phase = "score"
        self._drop_view()
        self._restore_layout()
        self._clear()
        lang = self.lang
        got, possible = self.session.points()
        pct = 100.0 * got / possible if possible else 0.0
        self._label(
            tr("trainer.screen.exam_done" if self.exam_mode else "trainer.screen.done", lang), (0, 0.7), 0.08
        )
        self._label(tr("trainer.screen.score", lang, g=got, p=possible, pc=pct), (0, 0.55), 0.055)
        if self.exam_mode and self.exam_id is not None:
            from scenes.trainer import exam
            from scenes.trainer.cli import now_iso

            result, path = exam.finish(
                self.session,
                self.exam_id,
                self.rules,
                self.profile,
                self.settings.data_dir(),
                lang,
                now_iso(),
            )
            self.result_text = tr("trainer.exam.passed" if result.passed else "trainer.exam.failed", lang)
            self._label(
                self.result_text,
                (0, 0.42),
                0.07,
                colour=(0.5, 1, 0.5, 1) if result.passed else (1, 0.5, 0.4, 1),
            )
            self._label(tr("trainer.report_path", lang, path=str(path)), (0, -0.62), 0.03, wrap=90)
            self.report = str(path)
        y = 0.3
        for key, title in (("topic", tr("trainer.by_topic", lang)), ("game", tr("trainer.by_game", lang))):
            rows = self.session.by(key)
            text = ", ".join(
                f"{Topic(p.key).title(lang) if key == 'topic' else game_name(p.key, lang)} {100 * p.score:.0f} %"
                for p in rows
            )
            self._label(f"{title}: {text}", (0, y), 0.04, wrap=70)
            y -= 0.18
        # Variations vary a simulated stroke: a recorded one (a hanging ball, an outsider) has none.
        self.missed = [
            r for r in self.missed if r.case.scenario.shot is not None and not r.case.scenario.is_recorded
        ]
        if self.missed and int(self.settings.trainer.variations) > 0:
            self._button(tr("trainer.screen.variations", lang), (0, -0.3), self.make_variations, scale=0.05)
        self._button(tr("trainer.screen.back", lang), (0, -0.45), self._show_pick)

    def make_variations(self) -> int:
        from scenes.trainer.generate import variations

        n = 0
        for r in self.missed:
            n += len(
                variations(
                    r.case,
                    r.item.game,
                    int(self.settings.trainer.variations),
                    0,
                    user_cases_dir(self.settings),
                    self.settings,
                )
            )
        self.library = load_library(extra=[user_cases_dir(self.settings)])
        self.missed = []
        self._label(ntr("trainer.screen.made", n, self.lang), (0, -0.2), 0.04)
        return n

    # --- history -----------------------------------------------------------------------------------------
    def show_history(self) -> None:
        import io

        from direct.gui.OnscreenImage import OnscreenImage
        from panda3d.core import Filename, Texture

        from scenes.trainer.cli import print_history
        from scenes.trainer.plots import plot_progress

        self.phase = "history"
        self._restore_layout()
        self._clear()
        buf = io.StringIO()
        print_history(self.store, self.lang, buf, self.profile_id)
        self._label(buf.getvalue(), (-1.72, 0.9), 0.034, align="left", wrap=30)
        path = plot_progress(
            self.store,
            self.profile_id,
            self.settings.data_dir() / f"progress-{self.profile_id}.png",
            self.lang,
        )
        tex = Texture("progress")
        tex.read(Filename.fromOsSpecific(str(path)))
        img = OnscreenImage(
            image=tex, pos=(0.62, 0, 0.0), scale=(1.1, 1, 1.1 * 540 / 1280), parent=self.root2d
        )
        self._widgets.append(img)
        self.plot_path = str(path)
        self._button(tr("trainer.screen.back", self.lang), (0, -0.9), self._show_pick)

    # --- controls ----------------------------------------------------------------------------------------
    def _pause(self) -> None:
        self.paused = not self.paused

    def _speed(self, step: int) -> None:
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + step))
        if self.player is not None:
            self.player.set_speed(SPEEDS[self.speed_index])

    def _step(self) -> None:
        if self.player is not None:
            self.paused = True
            self.player.step(1)

    def _replay(self) -> None:
        if self.player is None:
            return
        if self.exam_mode:
            if self.replays_left <= 0:
                if hasattr(self, "clock"):
                    self.clock["text"] = tr("trainer.text.no_replays", self.lang)
                return
            self.replays_left -= 1
        self.player.seek(0.0)
        self.paused = False

    def _camera_next(self) -> None:
        if self.camera is None:
            return
        self.cam_mode = CAMERAS[(CAMERAS.index(self.cam_mode) + 1) % len(CAMERAS)]
        if self.cam_mode != "decision":
            self.camera.set_mode(self.cam_mode)
        self._aim_camera()

    def set_camera(self, mode: str) -> None:
        if self.camera is None or mode not in CAMERAS:
            return
        self.cam_mode = mode
        if mode != "decision":
            self.camera.set_mode(mode)
        self._aim_camera(snap=True)

    def _advance(self) -> None:
        if self.phase == "watch":
            self._show_question()
        elif self.phase == "verdict":
            self._next_case()

    def back(self) -> None:
        assert self.ctx.manager is not None
        self.ctx.manager.switch("menu")

    def ready(self) -> bool:
        return self.phase != "watch" or self.player is None or self.player.finished or self.paused

    def slow_factor(self) -> float:
        if self.director is None or self.player is None:
            return 1.0
        return self.director.slow(self.player.t)

    def _update(self, task: Any) -> Any:
        from direct.task import Task

        dt = min(self.base.clock.getDt(), 0.1)
        if self.phase in ("watch", "answer", "verdict"):
            self._layout()
        if self.player is not None:
            slow = self.slow_factor()
            if not self.paused and not self.player.finished:
                self.player.advance(dt * slow)
            if self.camera is not None:
                self._aim_camera()
                self.camera.update(dt)
            if self.phase in ("watch", "answer") and hasattr(self, "clock"):
                self._tick_clock(slow)
        return Task.cont

    def _tick_clock(self, slow: float) -> None:
        assert self.player is not None
        lang = self.lang
        t, d = (tr("unit.seconds", lang, v=v) for v in (self.player.t, self.player.duration))
        text = f"{tr('replay.time', lang, t=t, d=d)} ×{SPEEDS[self.speed_index] * slow:g}"
        if slow < 1.0:
            text += f"  ({tr('trainer.screen.slow', lang)})"
        text += "  " + camera_label(self.cam_mode, lang)
        if self.exam_mode and self.session is not None:
            left = self.rules.seconds_per_case - (self.session.seconds(self.index) or 0.0)
            self._check_time()
            text += "  " + (
                tr("trainer.screen.time_up", lang)
                if left < 0
                else tr("trainer.screen.time_left", lang, s=left, r=max(0, self.replays_left))
            )
        self.clock["text"] = text

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

        if self.view is None or ball not in self.view.balls:
            return None
        st = self.view.ball_state(ball)
        if st is None or not st.visible:
            return None
        cam = self.base.cam
        right = self.base.render.getRelativeVector(cam, Vec3(1, 0, 0))
        right.normalize()
        R = self.view.spec.ball_radius
        c = st.pos
        a = self.project((c[0] - right.x * R, c[1] - right.y * R, c[2] - right.z * R))
        b = self.project((c[0] + right.x * R, c[1] + right.y * R, c[2] + right.z * R))
        if a is None or b is None:
            return None
        return math.dist(a, b)

    def panel_pixels(self) -> tuple[float, float] | None:
        """The panel's left and right edges in window pixels (None when it is not shown)."""
        if not self._panel_shown():
            return None
        w = self.base.win.getXSize()
        left, right, _b, _t2 = self.panel_rect()
        a = self._aspect()
        return ((left / a + 1) / 2 * w, (right / a + 1) / 2 * w)

    # --- scripted input (tests, demo) ----------------------------------------------------------------------
    def script_action(self, a: dict[str, Any]) -> bool:
        do = a["do"]
        if do == "trainer_start":
            self.pick_game = a.get("game")
            self.pick_topic = a.get("topic")
            self.n_cases = int(a.get("cases", self.n_cases))
            self.seed = int(a.get("seed", 0))
            if a.get("profile"):
                self._new_profile(str(a["profile"]))
            self.start_exam() if a.get("exam") else self.start()
        elif do == "trainer_answer":
            # Answer the current case's remaining questions: right (the referee's answers) or the first
            # wrong option.
            if self.phase == "watch":
                self._show_question()
            while self.phase == "answer" and self.run is not None:
                q = self.run.questions[self.q_index]
                if a.get("correct", True):
                    self.selected = set(q.correct)
                else:
                    self.selected = {next(k for k in q.keys() if frozenset({k}) != q.correct)}
                self._confirm()
        elif do == "trainer_next":
            self._next_case()
        elif do == "trainer_panel":
            self.toggle_panel()
        elif do == "trainer_history":
            self.show_history()
        elif do == "trainer_variations":
            self.make_variations()
        elif do == "trainer_pick":
            self._show_pick()
        elif do == "seek" and self.player is not None:
            self.player.seek(float(a["t"]))
            self._aim_camera(snap=True)
        elif do == "trainer_moment" and self.director is not None and self.director.moment is not None:
            self.player.seek(max(0.0, self.director.moment.t - 1e-3))
            self.paused = True
            self._aim_camera(snap=True)
        elif do == "camera":
            self.set_camera(str(a["mode"]))
        elif do == "pause":
            self._pause()
        elif do == "slower":
            self._speed(1)
        elif do == "faster":
            self._speed(-1)
        elif do == "step":
            self._step()
        else:
            raise ScriptRefused("an action of the trainer screen")
        return True

    def shown_texts(self) -> list[str]:
        """Every text on the screen now: labels, buttons, the clock (what a test reads for the language)."""
        from direct.gui.DirectGui import DirectButton, DirectLabel

        out = []
        for w in self._widgets + self._panel_widgets:
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
        if self.run is not None and self.phase in ("watch", "answer", "verdict"):
            d.update(
                case=self.run.case.id,
                game=self.run.item.game,
                topic=self.run.case.topic.value,
                camera=self.cam_mode,
            )
            if self.director is not None:
                d["framing"] = self.director.kind
                d["slow"] = self.slow_factor()
                d["ball"] = self.director.ball
                px = self.ball_px(self.director.ball)
                d["ball_px"] = round(px, 1) if px is not None else None
                m = self.director.moment
                if m is not None and m.pos is not None:
                    d["moment_px"] = self.project(m.pos)
            if self.player is not None:
                d["t"] = round(self.player.t, 4)
            d["panel_px"] = self.panel_pixels()
            d["replays_left"] = self.replays_left
        if self.phase == "verdict":
            d["verdict"] = self.verdict_text
            d["answers"] = [
                {"question": a.question, "given": a.given, "right": a.right, "ok": a.ok, "weight": a.weight}
                for a in self.lines
            ]
        if self.phase == "score" and self.exam_mode:
            d["result"] = self.result_text
            d["report"] = getattr(self, "report", None)
        if self.phase == "history":
            d["plot"] = getattr(self, "plot_path", None)
        return d

    def exit(self) -> None:
        self._clear()
        self._drop_view()
        self._restore_layout()
        self.store.close()
        super().exit()
