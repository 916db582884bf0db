"""Replay of a stroke: any camera, pause, 1, 1/4, 1/8, 1/16 speed, scrubbing, step by frame, a timeline
with a tick for every event (click or drag it to scrub), and the stroke exported as a video.

The recording is the stroke the physics simulated ahead; nothing is re-simulated for the screen (the
video export simulates it again in a child process: the physics is deterministic). Leaving the screen
returns to where it came from (the match or practice exactly as it was, or the match archive).
"""

from __future__ import annotations

from typing import Any

from scenes.core.i18n import key_labels, tr
from scenes.core.script import ScriptRefused
from scenes.fonts import ui_font
from scenes.replay import timeline_ticks
from scenes.screens import Screen
from scenes.screens.timeline import Timeline
from scenes.screens.views import (
    BALL_STYLE,
    KeyPoller,
    make_band_bars,
    make_camera,
    make_replay,
    make_table_view,
    place_band_bars,
)

SPEEDS = (1.0, 0.25, 0.125, 0.0625)
SCRUB_RATE = 0.5  # seconds of the stroke per second with a scrub key held
# A dark card behind the replay's texts: white letters over the lit cloth and rails were hard to read.
HINT_BACKING = (0.0, 0.0, 0.0, 0.55)


class ReplayScreen(Screen):
    name = "replay"

    def enter(self, record: Any = None, note: str = "", **_: Any) -> None:
        match = self.ctx.shared.get("match")
        if record is None:
            # While the next player decides, the stroke being decided is the pending one.
            shown = None if match is None else (match.pending or match.last)
            if shown is None:
                raise RuntimeError("replay: no stroke to replay")
            record = shown.record
        self.record = record
        self.return_to = str(self.ctx.shared.get("return_to", "menu"))
        from physics.tables import load_table

        spec = load_table(record.table)
        self.spec = spec
        balls = sorted(set(record.initial) | set(record.final))
        self.view = make_table_view(
            self.base, self.root3d, spec, balls, BALL_STYLE[spec.id], self.ctx.settings
        )
        self.camera = make_camera(self.base, self.view, spec)
        self.band_bars = make_band_bars(self.base)
        self.camera.set_mode("orbit")
        self.player = make_replay(record, self.view)
        self._keep_the_shot_in_frame(record)
        self.speed_index = 0
        self.paused = False
        self.keys = KeyPoller(self.base)
        self.sound_index = 0
        font = ui_font(self.base.loader)
        from direct.gui.OnscreenText import OnscreenText
        from panda3d.core import TextNode

        c = self.ctx.settings.controls
        labels = key_labels(c, self.lang)
        self.info = self.own(
            OnscreenText(
                parent=self.base.a2dTopLeft,
                pos=(0.05, -0.08),
                scale=0.05,
                align=TextNode.ALeft,
                fg=(1, 1, 1, 1),
                shadow=(0, 0, 0, 0.8),
                bg=HINT_BACKING,
                font=font,
                mayChange=True,
            )
        )
        self.help = self.own(
            OnscreenText(
                parent=self.base.a2dBottomCenter,
                pos=(0, 0.04),
                scale=0.035,
                fg=(0.9, 0.9, 0.9, 1),
                font=font,
                shadow=(0, 0, 0, 0.8),
                bg=HINT_BACKING,
                text=tr(
                    "replay.help",
                    self.lang,
                    pause=labels.pause,
                    slower=labels.slower,
                    faster=labels.faster,
                    step=labels.step,
                    camera=labels.camera_next,
                    menu=labels.menu,
                    export=labels.export_video,
                ),
            )
        )
        self._bind_keys(c)
        from direct.gui.DirectGui import DirectButton

        self.export_button = self.own(
            DirectButton(
                parent=self.base.a2dTopRight,
                text=f"{tr('replay.export', self.lang)} ({labels.export_video})",
                text_font=font,
                scale=0.045,
                pos=(-0.35, 0, -0.1),
                command=self.export_video,
                pad=(0.4, 0.2),
                frameColor=(0.16, 0.35, 0.2, 1),
                text_fg=(1, 1, 1, 1),
                relief=1,
            )
        )
        self.timeline = self.own(
            Timeline(self.base, timeline_ticks(record.events, self.player.duration), font, self.lang)
        )
        self.accept("mouse1", self._mouse_down)
        self.accept("mouse1-up", self._mouse_up)
        self.scrubbing = False
        self.export: Any = None
        self.export_note = note
        self.player.set_speed(SPEEDS[0])
        self.add_task(self._update, "update")

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        if self.paused:
            self.player.pause()
        else:
            if self.player.finished:
                self.seek(0.0)
            self.player.resume()

    def slower(self) -> None:
        self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)
        self.player.set_speed(self.speed)

    def faster(self) -> None:
        self.speed_index = max(0, self.speed_index - 1)
        self.player.set_speed(self.speed)

    def step(self) -> None:
        """One frame of the recording forward, paused."""
        self.paused = True
        self.player.step(1)
        self.sound_index = len(self.player.events_until(self.player.t))

    def seek(self, t: float) -> None:
        self.player.seek(t)
        self.sound_index = len(self.player.events_until(self.player.t))

    def restart(self) -> None:
        self.seek(0.0)
        self.paused = False
        self.player.resume()

    def back(self) -> None:
        assert self.ctx.manager is not None
        if self.return_to in ("play", "practice") and self.ctx.shared.get("match") is not None:
            self.ctx.manager.switch(self.return_to, resume=True)
        elif self.return_to == "archive":
            self.ctx.manager.switch("archive", match_id=self.ctx.shared.get("archive_match"))
        else:
            self.ctx.manager.switch("menu")

    def ready(self) -> bool:
        return (self.paused or self.player.finished) and self.export is None

    # --- the timeline -----------------------------------------------------------------------------
    def _mouse_down(self) -> None:
        m = self.keys.aspect2d_mouse()
        if m is not None and self.timeline.frac_at(*m) is not None:
            self.scrubbing = True
            self._scrub_to(self.timeline.frac_at(*m))

    def _mouse_up(self) -> None:
        self.scrubbing = False

    def _scrub_to(self, frac: float | None) -> None:
        if frac is None:
            return
        self.paused = True
        self.player.pause()
        self.seek(frac * self.player.duration)

    # --- the video ----------------------------------------------------------------------------------
    def export_video(self, path: str | None = None, **options: Any) -> None:
        """Export the stroke as an MP4 (slow motion, the current camera) in the data folder's videos/."""
        from pathlib import Path

        from scenes.video import ExportJob

        if self.export is not None:
            return
        folder = Path(self.ctx.settings.data_dir()) / "videos"
        n = 1
        while (folder / f"stroke-{n}.mp4").exists():
            n += 1
        out = Path(path) if path else folder / f"stroke-{n}.mp4"
        camera = self.camera.mode if self.camera.mode in ("side", "top", "player", "follow") else "side"
        try:
            self.export = ExportJob(self.record, self.ctx.settings, out, camera=camera, **options)
        except (OSError, ValueError) as exc:
            self.export_note = tr("replay.export_failed", self.lang, why=str(exc))

    def _poll_export(self) -> None:
        job = self.export
        if job is None:
            return
        if not job.poll():
            self.export_note = tr("replay.exporting", self.lang, pct=int(100 * job.progress))
            return
        self.export = None
        if job.error:
            self.export_note = tr("replay.export_failed", self.lang, why=job.error)
        else:
            self.export_note = tr("replay.exported", self.lang, path=str(job.out))
        self.last_export = job.out

    def _update(self, task: Any) -> Any:
        from direct.task import Task

        dt = min(self.base.clock.getDt(), 0.25)
        c = self.ctx.settings.controls
        scrub = self.keys.down(c.aim_right) - self.keys.down(c.aim_left)
        mouse = self.keys.aspect2d_mouse()
        if self.scrubbing and mouse is not None:
            self._scrub_to(self.timeline.frac_at(mouse[0], self.timeline.frame.getPos(self.base.aspect2d)[2]))
        elif scrub:
            self.paused = True
            self.player.pause()
            self.seek(max(0.0, self.player.t + scrub * SCRUB_RATE * dt))
        elif not self.paused and not self.player.finished:
            self.player.advance(dt)
            events = self.player.events_until(self.player.t)
            while self.sound_index < len(events):
                if self.ctx.sound is not None:
                    self.ctx.sound.play_event(events[self.sound_index])
                self.sound_index += 1
        self._keep_table_clear()
        place_band_bars(self.band_bars, self.camera.rig)
        self.camera.track(self.player)
        self.camera.update(dt)
        state = (
            tr("status.paused", self.lang)
            if self.paused
            else tr("status.replay", self.lang, speed=_speed_text(self.speed))
        )
        clock = tr(
            "replay.time",
            self.lang,
            t=tr("unit.seconds", self.lang, v=self.player.t),
            d=tr("unit.seconds", self.lang, v=self.player.duration),
        )
        self.timeline.set_frac(self.player.t / self.player.duration if self.player.duration > 0 else 0.0)
        self._poll_export()
        note = f"\n{self.export_note}" if self.export_note else ""
        self.info.setText(f"{tr('replay.title', self.lang)}\n{state}   {clock}{note}")
        return Task.cont

    def script_action(self, a: dict[str, Any]) -> bool:
        do = a["do"]
        if do == "pause":
            self.toggle_pause()
        elif do == "slower":
            self.slower()
        elif do == "faster":
            self.faster()
        elif do == "step":
            self.step()
        elif do == "seek":
            self.seek(float(a["t"]))
        elif do == "camera":
            self.camera.set_mode(str(a["mode"]))
        elif do == "back":
            self.back()
        elif do == "scrub":
            # A click on the timeline at this fraction of its length (the mouse path's own function).
            self._scrub_to(float(a["frac"]))
        elif do == "export":
            opts = {k: a[k] for k in ("speed", "fps", "size", "quality") if k in a}
            self.export_video(a.get("path"), **opts)
        else:
            raise ScriptRefused("an action of the replay screen")
        return True

    def _bind_keys(self, c: Any) -> None:
        self.accept(c.pause, self.toggle_pause)
        self.accept(c.slower, self.slower)
        self.accept(c.faster, self.faster)
        self.accept(c.step, self.step)
        self.accept(c.camera_next, self.camera.next_mode)
        self.accept(c.camera_top, self.camera.set_mode, ["top"])
        self.accept(c.menu, self.back)
        self.accept(c.replay, self.restart)
        self.accept(c.export_video, self.export_video)

    def _keep_table_clear(self) -> None:
        """The band between the texts at the top (the replay's line, the video button) and the timeline and key
        hints at the bottom: the top and broadcast views frame the table there (as the play screen does)."""
        from scenes.screens.views import a2d_box

        key = (
            round(float(self.base.getAspectRatio()), 4),
            bool(self.info.getText()),
            self.export_button.isHidden(),
        )
        if key == getattr(self, "_free_key", None):
            return
        self._free_key = key
        top, bottom = 1.0, -1.0
        for node in (self.info, self.export_button):
            box = a2d_box(self.base, node)
            if box is not None and not node.isHidden():
                top = min(top, box[1])
        for node in (self.timeline.frame, self.help):
            box = a2d_box(self.base, node)
            if box is not None:
                bottom = max(bottom, box[3])
        self.camera.rig.set_free(-1.0, 1.0, bottom + 0.02, top - 0.02)

    def _keep_the_shot_in_frame(self, record: Any) -> None:
        """The orbit and player views of the replay keep the struck ball (from its start) and its first contact
        (both balls where they met) in the picture, looking from behind the stroke; the orbit's default view of
        the table's middle lost them (issue 26 §3)."""
        import math

        ball = record.shot.ball if record.shot is not None else "cue"
        start = record.initial.get(ball)
        if start is None:
            return
        self.camera.follow_stroke(ball)
        keep = [(float(start[0]), float(start[1]), float(start[2]))]
        first = record.first_contact(ball)
        if first is not None and first.balls is not None:
            for b in first.balls:
                st = self.player.p.state_at(b, first.t)
                if st is not None:
                    keep.append((float(st.pos[0]), float(st.pos[1]), float(st.pos[2])))
        self.camera.keep = keep
        if record.shot is not None:
            # From behind the ball along the stroke, a little raised: the direction the shot went.
            self.camera.rig.yaw = (record.shot.direction + 180.0) % 360.0
            self.camera.rig.pitch = 35.0
        elif len(keep) > 1:
            self.camera.rig.yaw = math.degrees(math.atan2(keep[0][1] - keep[1][1], keep[0][0] - keep[1][0]))
        self.camera.rig.set_aim(record.shot.direction if record.shot is not None else 0.0)
        self.camera.track(self.player)
        self.camera.rig.snap()

    def dump(self) -> dict[str, Any]:
        return {
            "screen": self.name,
            "t": self.player.t,
            "speed": self.speed,
            "paused": self.paused,
            "duration": self.player.duration,
            "info": self.info.getText(),
            "ticks": self.timeline.dump(),
            "export": None if self.export is None else str(self.export.out),
            "exported": str(getattr(self, "last_export", "") or ""),
        }

    def exit(self) -> None:
        if getattr(self, "export", None) is not None:
            self.export.cancel()
        bars = getattr(self, "band_bars", None)
        if bars is not None:
            bars.removeNode()
        for name in ("camera", "view"):
            part = getattr(self, name, None)
            if part is not None:
                part.destroy()
        super().exit()


def _speed_text(speed: float) -> str:
    return {1.0: "1", 0.25: "¼", 0.125: "⅛", 0.0625: "1/16"}.get(speed, f"{speed:g}")
