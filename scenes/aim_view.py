"""Draws the aiming aids of :mod:`scenes.core.aim_aids` on the table, and the controller the screens use.

Lines are drawn in pixels scaled with the window's height (2 px at 720 lines, 6 px at 4K), so they stay
visible at every resolution, always on top of the cloth and balls but under the HUD.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from physics.errors import InputError
from scenes.core.aim_aids import AimLevel, AimPrediction, end_positions, predict, trajectory_paths

Colour = tuple[float, float, float, float]
CUE_LINE: Colour = (1.0, 1.0, 1.0, 0.9)
AIM_AXIS: Colour = (0.7, 0.7, 0.7, 0.6)
OBJECT_LINE: Colour = (1.0, 0.85, 0.2, 0.95)
AFTER_LINE: Colour = (0.35, 0.9, 1.0, 0.95)
PREVIEW_CUE: Colour = (1.0, 1.0, 1.0, 0.55)
PREVIEW_OTHER: Colour = (1.0, 0.75, 0.25, 0.55)
PREVIEW_END: Colour = (1.0, 1.0, 1.0, 0.35)
RECOMPUTE_S = 0.05  # the prediction follows a moving aim at most this often (it takes ~5-20 ms)
PREVIEW_DELAY_S = 0.3  # the full preview starts once the aim has rested this long


def line_px(window_height: int) -> float:
    """Line thickness in pixels for a window ``window_height`` pixels high."""
    return max(2.0, window_height / 360.0)


def _ring(ls: Any, x: float, y: float, z: float, r: float, n: int = 32) -> None:
    ls.moveTo(x + r, y, z)
    for k in range(1, n + 1):
        a = 2 * math.pi * k / n
        ls.drawTo(x + r * math.cos(a), y + r * math.sin(a), z)


def _polyline(ls: Any, pts: Sequence[tuple[float, float]], z: float) -> None:
    if len(pts) < 2:
        return
    ls.moveTo(pts[0][0], pts[0][1], z)
    for p in pts[1:]:
        ls.drawTo(p[0], p[1], z)


class AimView:
    """The aids' nodes under the table view's root: the prediction's lines and the full preview."""

    def __init__(self, base: Any, parent: Any, ball_radius: float) -> None:
        self.base = base
        self.R = ball_radius
        self.aids = parent.attachNewNode("aim-aids")
        self.preview = parent.attachNewNode("trajectory-preview")
        for np_ in (self.aids, self.preview):
            np_.setLightOff()
            np_.setTransparency(True)
            np_.setDepthWrite(False)  # the lines never hide each other; a ball in front of a line does
            np_.setBin("fixed", 5)

    def px(self) -> float:
        win = getattr(self.base, "win", None)
        return line_px(int(win.getYSize()) if win is not None else 720)

    def draw(self, pred: AimPrediction | None, level: AimLevel, aim_deg: float) -> None:
        from panda3d.core import LineSegs

        self.aids.node().removeAllChildren()
        if pred is None or level == AimLevel.OFF:
            return
        z = self.R
        ls = LineSegs("aim")
        ls.setThickness(self.px())
        if abs(pred.squirt_deg) >= 0.05:
            # The cue's own line, beside the cue ball's squirted one: the difference is the squirt.
            a = math.radians(aim_deg)
            ls.setColor(*AIM_AXIS)
            ls.moveTo(pred.start[0], pred.start[1], z)
            ls.drawTo(pred.start[0] + 0.5 * math.cos(a), pred.start[1] + 0.5 * math.sin(a), z)
        ls.setColor(*CUE_LINE)
        _polyline(ls, pred.cue_path, z)
        if pred.ghost is not None:
            _ring(ls, pred.ghost[0], pred.ghost[1], z, self.R)
        if level.at_least(AimLevel.OBJECT) and pred.object_path:
            ls.setColor(*OBJECT_LINE)
            _polyline(ls, pred.object_path, z)
        if level.at_least(AimLevel.PATH) and pred.after_path:
            ls.setColor(*AFTER_LINE)
            _polyline(ls, pred.after_path, z)
        self.aids.attachNewNode(ls.create())

    def clear(self) -> None:
        self.aids.node().removeAllChildren()

    def draw_preview(
        self,
        paths: Mapping[str, Sequence[tuple[float, float, float]]],
        ends: Mapping[str, tuple[float, float, float]],
        cue_ball: str = "cue",
    ) -> None:
        """The stroke simulated ahead: every moving ball's path, and a ghost ring where it comes to rest."""
        from panda3d.core import LineSegs

        self.preview.node().removeAllChildren()
        ls = LineSegs("preview")
        ls.setThickness(max(1.5, self.px() * 0.75))
        for ball, pts in paths.items():
            if len(pts) < 2:
                continue
            ls.setColor(*(PREVIEW_CUE if ball == cue_ball else PREVIEW_OTHER))
            ls.moveTo(*pts[0])
            for p in pts[1:]:
                ls.drawTo(*p)
        ls.setColor(*PREVIEW_END)
        for x, y, z in ends.values():
            _ring(ls, x, y, z, self.R)
            _ring(ls, x, y, z, self.R * 0.6)
        self.preview.attachNewNode(ls.create())

    def clear_preview(self) -> None:
        self.preview.node().removeAllChildren()

    def destroy(self) -> None:
        self.aids.removeNode()
        self.preview.removeNode()


class AimAssist:
    """The screens' aiming aids: the level (from settings, cycled by a key), the prediction kept up to date
    with the aim, and the full preview simulated in the physics worker once the aim rests."""

    def __init__(self, match: Any, view: AimView, executor: Any, level: str, cap: AimLevel) -> None:
        self.match = match
        self.view = view
        self.executor = executor
        self.cap = cap
        self.level = min_level(AimLevel(level), cap)
        self.prediction: AimPrediction | None = None
        self._key: Any = None
        self._computed_at = 0.0
        self._preview_key: Any = None
        self._preview_due = 0.0
        self._preview_job: tuple[Any, Any] | None = None
        self.preview_shown: dict[str, Any] = {}
        self._params: Any = None

    def cycle(self) -> AimLevel:
        """The next level (off after preview), never above what the settings allow."""
        nxt = self.level.next()
        if not self.cap.at_least(nxt):
            nxt = AimLevel.OFF
        self.level = nxt
        self._key = None
        self.clear()
        return nxt

    def params(self) -> Any:
        if self._params is None:
            self._params = self.match.physics_params()
        return self._params

    def update(self, shot: Any, positions: Mapping[str, tuple[float, float]], visible: bool) -> None:
        """Redraw the aids for ``shot`` (a ShotParams) from ``positions``; hidden while not aiming."""
        if not visible or self.level == AimLevel.OFF:
            self.view.clear()
            self.clear_preview()
            return
        key = (shot, tuple(sorted(positions.items())), self.level)
        now = time.monotonic()
        if key != self._key and now - self._computed_at >= RECOMPUTE_S:
            self._key = key
            self._computed_at = now
            self.prediction = predict(self.match.spec, self.params(), positions, shot, self.level)
            self.view.draw(self.prediction, self.level, shot.direction)
        if self.level == AimLevel.PREVIEW:
            self._preview(shot, positions)
        else:
            self.clear_preview()

    def _preview(self, shot: Any, positions: Mapping[str, tuple[float, float]]) -> None:
        key = (shot, tuple(sorted(positions.items())))
        now = time.monotonic()
        if self._preview_job is not None and self._preview_job[1].done():
            job_key, job = self._preview_job
            self._preview_job = None
            if job_key == key and not job.cancelled():
                try:
                    self.show_record(job.result(), shot.ball)
                except InputError:  # a layout the physics refuses to simulate: no preview, the aim stays
                    self.clear_preview()
        if key != self._preview_key:
            self._preview_key = key
            self._preview_due = now + PREVIEW_DELAY_S
            self.view.clear_preview()
            self.preview_shown = {}
            return
        if self._preview_due and now >= self._preview_due and self._preview_job is None:
            self._preview_due = 0.0
            fn, args, kwargs = self.match.simulate_job(shot, dict(positions))
            self._preview_job = (key, self.executor.submit(fn, *args, **kwargs))

    def show_record(self, record: Any, cue_ball: str) -> dict[str, Any]:
        """Draw a simulated stroke as the preview; returns what was drawn (paths and end positions)."""
        paths = trajectory_paths(record)
        ends = {b: p for b, p in end_positions(record).items() if b in paths}
        self.view.draw_preview(paths, ends, cue_ball)
        self.preview_shown = {"paths": paths, "ends": ends}
        return self.preview_shown

    def clear_preview(self) -> None:
        if self._preview_job is not None:
            self._preview_job[1].cancel()
            self._preview_job = None
        self._preview_key = None
        if self.preview_shown:
            self.view.clear_preview()
            self.preview_shown = {}

    def clear(self) -> None:
        self.view.clear()
        self.clear_preview()
        self._key = None

    def destroy(self) -> None:
        self.clear()
        self.view.destroy()


def min_level(a: AimLevel, b: AimLevel) -> AimLevel:
    return a if b.at_least(a) else b
