"""The watch phase and the replay behind every phase of a case: the stroke replayed with the camera that goes
where the decision is (``scenes/core/trainer/framing.py``'s :class:`Director`) and automatic slow motion around the
deciding moment; the case's header and the replay clock above it; the replay controls (pause, speed, step,
replay - limited in an exam - and the cameras)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from physics.tables import load_table
from scenes.core.i18n import game_name, has_text, key_labels, key_name, number, tr
from scenes.core.trainer.framing import Director, held_samples
from scenes.screens.views import BALL_STYLE, make_camera, make_replay, make_table_view

if TYPE_CHECKING:
    from scenes.trainer.screen import TrainerScreen

SPEEDS = (1.0, 0.25, 0.125, 0.0625)
CAMERAS = ("decision", "top", "side", "follow", "orbit", "player", "free")


def camera_label(mode: str, lang: str) -> str:
    """The camera's name in the clock line («камера: решающий момент»)."""
    key = f"trainer.cam.{mode}"
    return tr("trainer.screen.camera", lang, mode=tr(key, lang) if has_text(key) else mode)


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


class WatchPhase:
    """The case's table view, camera, replay and director, and the controls of the replay."""

    def __init__(self, screen: TrainerScreen) -> None:
        self.screen = screen
        self.view: Any = None
        self.camera: Any = None
        self.player: Any = None
        self.director: Director | None = None
        self.cam_mode = "decision"
        self.paused = False
        self.speed_index = 0
        self.clock: Any = None  # the replay clock's label, made with the header

    # --- the case's table and replay ---------------------------------------------------------------------
    def build_view(self) -> None:
        s = self.screen
        assert s.run is not None
        self.drop_view()
        rec = s.run.record
        spec = load_table(rec.table)
        balls = sorted(set(rec.initial) | set(rec.final))
        self.view = make_table_view(s.base, s.root3d, spec, balls, BALL_STYLE[spec.id], s.settings)
        for i, o in enumerate(s.run.case.scenario.objects):
            self.view.add_object(o, i)
        self.camera = make_camera(s.base, self.view, spec)
        # A recorded stroke has no ball samples: the replay holds each ball where its events put it.
        rec = held_samples(rec)
        self.player = make_replay(rec, self.view)
        self.director = Director(
            s.run.case.topic,
            rec,
            spec,
            s.layout.fov0[1],
            s.layout.aspect(),
            getattr(s.run.case, "subject", None),
        )
        self.cam_mode = "decision"
        self.speed_index = 0
        self.player.set_speed(SPEEDS[self.speed_index])
        self.paused = False
        self.aim_camera(snap=True)

    def aim_camera(self, snap: bool = False) -> None:
        if self.camera is None or self.player is None or self.director is None:
            return
        if self.cam_mode == "decision":
            share = self.screen.layout.view_share()
            v = self.director.at(self.player.t, self.screen.layout.aspect() * share)
            self.camera.rig.set_view(v.eye, v.look, snap=snap)
        elif self.cam_mode in ("follow", "side", "top"):
            # The rig's own views keep the case's ball (or a ball that left the table) in the picture.
            self.camera.follow_ball = self.director.ball
            self.camera.track(self.player)

    def drop_view(self) -> None:
        if self.view is not None:
            self.view.destroy()
            self.view = None
        if self.camera is not None:
            self.camera.destroy()
            self.camera = None
        self.player = None
        self.director = None

    def advance(self, dt: float) -> None:
        """One frame of the replay (the screen's task): the clock, the camera, the clock line."""
        s = self.screen
        if self.player is not None:
            slow = self.slow_factor()
            if not self.paused and not self.player.finished:
                self.player.advance(dt * slow)
            if self.camera is not None:
                self.aim_camera()
                self.camera.update(dt)
            if s.phase in ("watch", "answer") and self.clock is not None:
                self.tick_clock(slow)

    def slow_factor(self) -> float:
        if self.director is None or self.player is None:
            return 1.0
        return self.director.slow(self.player.t)

    def highlight(self, moment: Any) -> None:
        """The replay paused at the deciding moment, the ball and the place ringed."""
        if self.view is None or self.player is None:
            return
        # A hair before the moment: a ball that drops at it is still there to ring.
        self.player.seek(max(0.0, moment.t - 1e-3))
        self.paused = True
        if moment.ball is not None:
            self.view.highlight(moment.ball, key="moment-ball")
        if moment.pos is not None:
            self.view.highlight(moment.pos, colour=(1.0, 0.2, 0.2, 1.0), key="moment-place")
        self.aim_camera(snap=True)

    def to_moment(self) -> None:
        """The replay paused a hair before the deciding moment (a script's ``trainer_moment``)."""
        assert self.director is not None and self.director.moment is not None
        self.player.seek(max(0.0, self.director.moment.t - 1e-3))
        self.paused = True
        self.aim_camera(snap=True)

    # --- the header and the clock --------------------------------------------------------------------------
    def header(self) -> str:
        s = self.screen
        assert s.run is not None and s.session is not None
        if s.disk_note:
            return self.case_header() + "\n" + s.disk_note
        return self.case_header()

    def case_header(self) -> str:
        s = self.screen
        assert s.run is not None and s.session is not None
        if s.exam_mode:
            return tr(
                "trainer.screen.exam_case",
                s.lang,
                i=s.index + 1,
                cases=len(s.session.items),
                game=game_name(s.run.item.game, s.lang),
            )
        return tr(
            "trainer.screen.case",
            s.lang,
            i=s.index + 1,
            cases=len(s.session.items),
            title=s.run.case.title[s.lang],
            game=game_name(s.run.item.game, s.lang),
        )

    def top_lines(self) -> float:
        """The case's header (wrapped to the 3D view) and the replay clock under it; returns the y below."""
        from panda3d.core import TextNode

        s = self.screen
        scale, wrap = 0.045, self.header_wrap()
        text = self.header()
        tn = TextNode("measure")
        tn.setFont(s.font)
        tn.setWordwrap(wrap)
        tn.setText(text)
        left = 0.06 - self.screen.layout.aspect()  # in the window at 4:3 too (it was placed for 16:9)
        s.label(text, (left, 0.92), scale, align="left", wrap=wrap)
        y = 0.92 - tn.getNumRows() * scale * 1.2 - 0.01
        self.clock = s.label("", (left, y), 0.038, align="left")
        return float(y - 0.07)

    def header_wrap(self) -> float:
        """The header's width in its own text units: the 3D view's part of the window."""
        share = self.screen.layout.view_share()
        return (2.0 * self.screen.layout.aspect() * share - 0.15) / 0.045

    def tick_clock(self, slow: float) -> None:
        assert self.player is not None
        s = self.screen
        lang = s.lang
        t, d = (tr("unit.seconds", lang, v=v) for v in (self.player.t, self.player.duration))
        text = f"{tr('replay.time', lang, t=t, d=d)} ×{number(SPEEDS[self.speed_index] * slow, lang)}"
        if slow < 1.0:
            text += f"  ({tr('trainer.screen.slow', lang)})"
        text += "  " + camera_label(self.cam_mode, lang)
        if s.exam_mode and s.session is not None:
            text += "  " + s.exam.clock_text()
        self.clock["text"] = text

    # --- the watch phase -----------------------------------------------------------------------------------
    def show(self) -> None:
        s = self.screen
        assert s.run is not None and s.session is not None
        s.phase = "watch"
        s.layout.apply()
        s.clear()
        lang = s.lang
        c = s.settings.controls
        self.top_lines()
        s.label(
            watch_hint(c, lang),
            (0, -0.93),
            0.032,
            wrap=90,
        )
        s.button(tr("trainer.screen.answer", lang), (s.layout.aspect() - 0.33, -0.8), s.answer.show)

    # --- the replay controls -------------------------------------------------------------------------------
    def pause(self) -> None:
        self.paused = not self.paused

    def speed(self, step: int) -> None:
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + step))
        if self.player is not None:
            self.player.set_speed(SPEEDS[self.speed_index])

    def step(self) -> None:
        if self.player is not None:
            self.paused = True
            self.player.step(1)

    def replay(self) -> None:
        s = self.screen
        if self.player is None:
            return
        if s.exam_mode:
            if s.exam.replays_left <= 0:
                if self.clock is not None:
                    self.clock["text"] = tr("trainer.text.no_replays", s.lang)
                return
            s.exam.replays_left -= 1
        self.player.seek(0.0)
        self.paused = False

    def camera_next(self) -> None:
        if self.camera is None:
            return
        self.cam_mode = CAMERAS[(CAMERAS.index(self.cam_mode) + 1) % len(CAMERAS)]
        if self.cam_mode != "decision":
            self.camera.set_mode(self.cam_mode)
        self.aim_camera()

    def set_camera(self, mode: str) -> None:
        if self.camera is None or mode not in CAMERAS:
            return
        self.cam_mode = mode
        if mode != "decision":
            self.camera.set_mode(mode)
        self.aim_camera(snap=True)
