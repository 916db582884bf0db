"""The trainer screen (registered as ``trainer`` in ``scenes.screens.SCREENS``).

Phases: **pick** a rulebook and a topic (or mixed) → **watch** the stroke with the replay controls and the
camera preset made for the call (side view at ball height for jumps, top view for balls leaving the
table, follow the ball for the lamp, chalk, person) → **answer** the questions → **verdict**: the ruling
with its explanation and rule reference, the replay paused at the deciding moment with the ball and the
place ringed, and how the other rulebooks rule the same stroke. Every answer is stored as it is given
(``store.py``): leaving at any point and coming back resumes the session.
"""

from __future__ import annotations

from typing import Any

from physics.tables import load_table
from scenes.i18n import game_name, ui_font
from scenes.screens import Screen
from scenes.screens.views import BALL_STYLE, make_camera, make_replay, make_table_view
from scenes.trainer.cases import Topic, load_library, user_cases_dir
from scenes.trainer.moments import camera_for, deciding_moment
from scenes.trainer.questions import explanation, rule_refs, summary_line
from scenes.trainer.session import CaseRun, Session
from scenes.trainer.store import Store, default_path

SPEEDS = (1.0, 0.25, 0.125, 0.0625)

_T: dict[str, tuple[str, str]] = {
    "title": ("Referee trainer", "Тренажёр судьи"),
    "rulebook": ("Rulebook", "Правила"),
    "topic": ("Topic", "Тема"),
    "mixed": ("mixed", "смешанные"),
    "cases": ("Cases: {n}", "Случаев: {n}"),
    "start": ("Start (or resume)", "Начать (или продолжить)"),
    "back": ("Menu", "Меню"),
    "watch": (
        "Watch the stroke, then press {key} to answer. {pause} pause, {slower}/{faster} speed, "
        "{step} frame, {camera} camera, {replay} replay",
        "Посмотрите удар и нажмите {key}, чтобы ответить. {pause} пауза, {slower}/{faster} скорость, "
        "{step} кадр, {camera} камера, {replay} повтор",
    ),
    "answer": ("Answer", "Ответить"),
    "ok": ("OK", "Готово"),
    "next": ("Next case", "Следующий случай"),
    "right": ("Right", "Верно"),
    "wrong": ("Wrong — the answer: {a}", "Неверно — правильно: {a}"),
    "others": ("Other rulebooks:", "Другие правила:"),
    "score": ("Score: {r}/{a} ({p:.0f} %)", "Результат: {r}/{a} ({p:.0f} %)"),
    "weak": ("Weak topics: {t}", "Слабые темы: {t}"),
    "done": ("Session finished", "Сессия завершена"),
    "case": ("Case {i}/{n}: {title} — {game}", "Случай {i}/{n}: {title} — {game}"),
    "moment": ("Deciding moment (t = {t:.2f} s): {what}", "Решающий момент (t = {t:.2f} с): {what}"),
}


def _t(name: str, lang: str, **fmt: Any) -> str:
    en, ru = _T[name]
    s = en if lang == "en" else ru
    return s.format(**fmt) if fmt else s


class TrainerScreen(Screen):
    name = "trainer"

    def enter(self, args: Any = None, **_: Any) -> None:
        self.settings = self.ctx.settings
        self.library = load_library(extra=[user_cases_dir(self.ctx.settings)])
        self.store = Store(default_path(self.settings.data_dir()))
        self.games = sorted({g for c in self.library for g in c.games})
        self.topics = sorted({c.topic.value for c in self.library})
        self.pick_game: str | None = getattr(args, "game", None) if args is not None else None
        self.pick_topic: str | None = getattr(args, "topic", None) if args is not None else None
        n = getattr(args, "cases", None) if args is not None else None
        self.n_cases = int(n) if n else int(self.settings.trainer.session_length)
        self.seed = int(getattr(args, "seed", 0) or 0) if args is not None else 0
        self.phase = "pick"
        self.session: Session | None = None
        self.index = -1
        self.run: CaseRun | None = None
        self.q_index = 0
        self.selected: set[str] = set()
        self.results: list[str] = []
        self.view: Any = None
        self.camera: Any = None
        self.player: Any = None
        self.paused = False
        self.speed_index = 0
        self._widgets: list[Any] = []
        self.font = ui_font(self.base.loader)
        self.base.setBackgroundColor(0.05, 0.07, 0.06, 1)
        c = self.settings.controls
        self.accept(c.menu, self.back)
        self.accept(c.pause, self._pause)
        self.accept(c.slower, self._speed, [1])
        self.accept(c.faster, self._speed, [-1])
        self.accept(c.step, self._step)
        self.accept(c.replay, self._replay)
        self.accept(c.camera_next, self._camera_next)
        self.accept(c.shoot, self._advance)
        for k in range(1, 10):
            self.accept(str(k), self._toggle_number, [k])
        self.accept("enter", self._confirm)
        self.add_task(self._update, "update")
        self._show_pick()

    # --- widgets ---------------------------------------------------------------------------------------
    def _clear(self) -> None:
        for w in self._widgets:
            w.destroy()
        self._widgets = []

    def _label(
        self,
        text: str,
        pos: tuple[float, float],
        scale: float = 0.05,
        parent: Any = None,
        align: str = "center",
        wrap: float | None = None,
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
            text_fg=(1, 1, 1, 1),
            text_shadow=(0, 0, 0, 0.9),
            text_align={"center": TextNode.ACenter, "left": TextNode.ALeft}[align],
            **kw,
        )
        self._widgets.append(w)
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
    ) -> Any:
        from direct.gui.DirectGui import DirectButton

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
            relief=1,
        )
        self._widgets.append(w)
        return w

    # --- pick --------------------------------------------------------------------------------------------
    def _show_pick(self) -> None:
        from direct.gui.DirectGui import DirectFrame

        self.phase = "pick"
        self._clear()
        lang = self.lang
        self._widgets.append(
            DirectFrame(parent=self.root2d, frameColor=(0, 0, 0, 0.4), frameSize=(-1, 1, -0.8, 0.8))
        )
        self._label(_t("title", lang), (0, 0.6), 0.09)
        self._label(_t("rulebook", lang), (0, 0.4), 0.055)
        self._button("<", (-0.75, 0.29), self._cycle, ["game", -1])
        self.game_label = self._label(
            game_name(self.pick_game, lang) if self.pick_game else _t("mixed", lang), (0, 0.28), 0.055
        )
        self._button(">", (0.75, 0.29), self._cycle, ["game", 1])
        self._label(_t("topic", lang), (0, 0.12), 0.055)
        self._button("<", (-0.75, 0.01), self._cycle, ["topic", -1])
        self.topic_label = self._label(
            Topic(self.pick_topic).title(lang) if self.pick_topic else _t("mixed", lang), (0, 0.0), 0.055
        )
        self._button(">", (0.75, 0.01), self._cycle, ["topic", 1])
        self._button("−", (-0.3, -0.17), self._cases, [-1])
        self.cases_label = self._label(_t("cases", lang, n=self.n_cases), (0, -0.18), 0.055)
        self._button("+", (0.3, -0.17), self._cases, [1])
        self._button(_t("start", lang), (0, -0.4), self.start, scale=0.065)
        self._button(_t("back", lang), (0, -0.6), self.back)

    def _cycle(self, what: str, step: int) -> None:
        if what == "game":
            opts: list[str | None] = [None, *self.games]
            self.pick_game = opts[(opts.index(self.pick_game) + step) % len(opts)]
            self.game_label["text"] = (
                game_name(self.pick_game, self.lang) if self.pick_game else _t("mixed", self.lang)
            )
        else:
            topts: list[str | None] = [None, *self.topics]
            self.pick_topic = topts[(topts.index(self.pick_topic) + step) % len(topts)]
            self.topic_label["text"] = (
                Topic(self.pick_topic).title(self.lang) if self.pick_topic else _t("mixed", self.lang)
            )

    def _cases(self, step: int) -> None:
        self.n_cases = max(1, min(200, self.n_cases + step))
        self.cases_label["text"] = _t("cases", self.lang, n=self.n_cases)

    def start(self) -> None:
        self.session, _resumed = Session.resume_or_start(
            self.store, self.library, self.settings, self.pick_game, self.pick_topic, self.n_cases, self.seed
        )
        self.session.sample_hz = float(self.settings.physics.sample_hz)
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
        done = self.session.answered(self.index)
        self.q_index = next(
            (i for i, q in enumerate(self.run.questions) if q.kind.value not in done), len(self.run.questions)
        )
        self.results = []
        self._build_view()
        self._show_watch()

    def _build_view(self) -> None:
        assert self.run is not None
        self._drop_view()
        rec = self.run.record
        spec = load_table(rec.table)
        balls = sorted(set(rec.initial) | set(rec.final))
        self.view = make_table_view(self.base, self.root3d, spec, balls, BALL_STYLE[spec.id], self.settings)
        for o in self.run.case.scenario.objects:
            self.view.add_object(o)
        self.camera = make_camera(self.base, self.view, spec)
        self.camera.set_mode(camera_for(self.run.case.topic))
        self.player = make_replay(rec, self.view)
        self.speed_index = 1 if camera_for(self.run.case.topic) == "side" else 0
        self.player.set_speed(SPEEDS[self.speed_index])
        self.paused = False

    def _drop_view(self) -> None:
        if self.view is not None:
            self.view.destroy()
            self.view = None
        if self.camera is not None:
            self.camera.destroy()
            self.camera = None
        self.player = None

    def _show_watch(self) -> None:
        assert self.run is not None and self.session is not None
        self.phase = "watch"
        self._clear()
        lang = self.lang
        c = self.settings.controls
        self._label(
            _t(
                "case",
                lang,
                i=self.index + 1,
                n=len(self.session.items),
                title=self.run.case.title[lang],
                game=game_name(self.run.item.game, lang),
            ),
            (-1.25, 0.9),
            0.05,
            align="left",
        )
        self._label(
            _t(
                "watch",
                lang,
                key=c.shoot,
                pause=c.pause,
                slower=c.slower,
                faster=c.faster,
                step=c.step,
                camera=c.camera_next,
                replay=c.replay,
            ),
            (0, -0.9),
            0.035,
            wrap=60,
        )
        self._button(_t("answer", lang), (1.05, -0.75), self._show_question)
        self.clock = self._label("", (-1.25, 0.82), 0.04, align="left")

    # --- answer ------------------------------------------------------------------------------------------
    def _show_question(self) -> None:
        assert self.run is not None
        if self.q_index >= len(self.run.questions):
            self._show_verdict()
            return
        from direct.gui.DirectGui import DirectFrame

        self.phase = "answer"
        self._clear()
        lang = self.lang
        q = self.run.questions[self.q_index]
        self.selected = set()
        n = len(q.options)
        top = min(0.75, 0.1 + 0.06 * n)
        self._widgets.append(
            DirectFrame(
                parent=self.root2d,
                frameColor=(0, 0, 0, 0.55),
                frameSize=(-1.3, 1.3, top - 0.07 * n - 0.35, top + 0.15),
            )
        )
        self._label(f"{self.q_index + 1}. {q.prompt(lang)}", (0, top), 0.055)
        self.option_buttons = []
        for i, o in enumerate(q.options):
            b = self._button(
                f"{i + 1}) {o.label(lang)}",
                (0, top - 0.1 - 0.07 * i),
                self._toggle,
                [o.key],
                0.042,
                colour=(0.2, 0.2, 0.25, 1),
            )
            self.option_buttons.append((o.key, b))
        self._button(_t("ok", lang), (0, top - 0.12 - 0.07 * n), self._confirm, scale=0.055)
        if self.results:
            self._label(self.results[-1], (0, -0.85), 0.04, wrap=50)

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
        for k, b in self.option_buttons:
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
        ok = self.session.answer(self.index, self.run, q, frozenset(self.selected))
        self.results.append(
            _t("right", self.lang) if ok else _t("wrong", self.lang, a=q.describe(q.correct, self.lang))
        )
        self.q_index += 1
        self._show_question()

    # --- verdict -----------------------------------------------------------------------------------------
    def _show_verdict(self) -> None:
        assert self.run is not None
        from direct.gui.DirectGui import DirectFrame

        self.phase = "verdict"
        self._clear()
        lang = self.lang
        run = self.run
        lines = [f"{game_name(run.item.game, lang)}: {summary_line(run.ruling, lang)}"]
        lines += explanation(run.case, run.item.game, run.ruling, lang)
        refs = rule_refs(run.ruling)
        if refs:
            lines.append("; ".join(dict.fromkeys(refs)))
        moment = deciding_moment(run.case.topic, run.record)
        if moment is not None:
            lines.append(_t("moment", lang, t=moment.t, what=moment.label(lang)))
            self._highlight(moment)
        if run.others:
            lines.append(_t("others", lang))
            lines += [f"  {game_name(g, lang)}: {summary_line(r, lang)}" for g, r in run.others.items()]
        wrong = [r for r in self.results if r != _t("right", lang)]
        if wrong:
            lines.insert(0, " · ".join(wrong))
        self._widgets.append(
            DirectFrame(parent=self.root2d, frameColor=(0, 0, 0, 0.6), frameSize=(-1.35, 1.35, -0.95, -0.05))
        )
        self.verdict = self._label("\n".join(lines), (-1.3, -0.12), 0.036, align="left", wrap=72)
        self._button(_t("next", lang), (1.05, 0.85), self._next_case)

    def _highlight(self, moment: Any) -> None:
        if self.view is None or self.player is None:
            return
        self.player.seek(moment.t)
        self.paused = True
        if moment.ball is not None:
            self.view.highlight(moment.ball, key="moment-ball")
        if moment.pos is not None:
            self.view.highlight(moment.pos, colour=(1.0, 0.2, 0.2, 1.0), key="moment-place")
            if self.camera is not None and hasattr(self.camera.rig, "set_target"):
                self.camera.rig.set_target(moment.pos)

    # --- score -------------------------------------------------------------------------------------------
    def _show_score(self) -> None:
        assert self.session is not None
        self.phase = "score"
        self._drop_view()
        self._clear()
        lang = self.lang
        r, a = self.session.score()
        self._label(_t("done", lang), (0, 0.5), 0.08)
        self._label(_t("score", lang, r=r, a=a, p=100.0 * r / a if a else 0.0), (0, 0.3), 0.06)
        weak = self.session.weak_topics()
        if weak:
            self._label(
                _t(
                    "weak",
                    lang,
                    t=", ".join(f"{Topic(p.key).title(lang)} ({100 * p.ratio:.0f} %)" for p in weak),
                ),
                (0, 0.15),
                0.045,
                wrap=50,
            )
        self._button(_t("back", lang), (0, -0.3), self.back)

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
        if self.player is not None:
            self.player.seek(0.0)
            self.paused = False

    def _camera_next(self) -> None:
        if self.camera is not None:
            self.camera.next_mode()

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

    def _update(self, task: Any) -> Any:
        from direct.task import Task

        dt = min(self.base.clock.getDt(), 0.1)
        if self.player is not None:
            if not self.paused and not self.player.finished:
                self.player.advance(dt)
            if self.camera is not None:
                if self.camera.mode == "follow":
                    self.camera.track(self.player)
                self.camera.update(dt)
            if self.phase == "watch" and hasattr(self, "clock"):
                self.clock["text"] = (
                    f"t = {self.player.t:.2f} s / {self.player.duration:.2f} s ×{SPEEDS[self.speed_index]:g}"
                )
        return Task.cont

    # --- scripted input (tests, demo) ----------------------------------------------------------------------
    def script_action(self, a: dict[str, Any]) -> bool:
        do = a["do"]
        if do == "trainer_start":
            self.pick_game = a.get("game")
            self.pick_topic = a.get("topic")
            self.n_cases = int(a.get("cases", self.n_cases))
            self.seed = int(a.get("seed", 0))
            self.start()
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
        elif do == "seek" and self.player is not None:
            self.player.seek(float(a["t"]))
        elif do == "camera" and self.camera is not None:
            self.camera.set_mode(str(a["mode"]))
        else:
            raise RuntimeError(f"script: unknown action {do!r} on the trainer screen")
        return True

    def dump(self) -> dict[str, Any]:
        d: dict[str, Any] = {"screen": self.name, "phase": self.phase}
        if self.session is not None:
            r, a = self.session.score()
            d.update(session=self.session.id, index=self.index, score=[r, a])
        if self.run is not None:
            d.update(
                case=self.run.case.id,
                game=self.run.item.game,
                camera=self.camera.mode if self.camera is not None else None,
            )
        if self.phase == "verdict":
            d["verdict"] = self.verdict["text"]
        return d

    def exit(self) -> None:
        self._clear()
        self._drop_view()
        self.store.close()
        super().exit()
