"""The 3D view beside the panel and between the text rows: no panel or line covers the replay (issue 26 §3).
While the panel is open the view is drawn in the window's left part; collapsed (``tab``), the view takes the
whole width and a tab opens the panel again. Either way the view's rows stop short of the case's header and
clock above it and the key hint and the answer button below it, so no text stands over any camera's picture
(the director's and the rig's), and balls keep the size they have in the whole window."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from scenes.core.i18n import tr

if TYPE_CHECKING:
    from scenes.trainer.screen import TrainerScreen

PANEL = 0.36  # the share of the window's width the panel takes when open


class PanelLayout:
    """The view's share of the window and the scrolled panel frame (answer and verdict phases)."""

    def __init__(self, screen: TrainerScreen) -> None:
        self.screen = screen
        self.open = True
        self.scroller: Any = None
        lens = screen.base.camLens
        self.fov0 = (float(lens.getFov()[0]), float(lens.getFov()[1]))
        self.aspect0 = float(lens.getAspectRatio())

    def aspect(self) -> float:
        base = self.screen.base
        return float(base.getAspectRatio()) if base.win is not None else self.aspect0

    def rect(self) -> tuple[float, float, float, float]:
        """The panel's rectangle in aspect2d units (left, right, bottom, top)."""
        a = self.aspect()
        return (a * (1.0 - 2.0 * PANEL), a, -1.0, 1.0)

    def view_share(self) -> float:
        """The share of the window's width the 3D view has now."""
        return 1.0 - PANEL if self.shown() else 1.0

    def rows(self) -> tuple[float, float]:
        """The 3D view's bottom and top as shares of the window's height: clear of the screen's text and buttons
        over the view's columns (the header and clock at the top, the hint and the answer button at the
        bottom); the whole height when none stands there or they would leave the view under a third."""
        from scenes.screens.views import a2d_box

        s = self.screen
        right = self.aspect() * (2.0 * self.view_share() - 1.0)
        bottom, top = -1.0, 1.0
        for w in s.widgets + s.panel_widgets:
            box = None if w.isHidden() else a2d_box(s.base, w)
            if box is None or box[0] >= right:
                continue
            if box[1] + box[3] > 0:
                top = min(top, box[1] - 0.01)
            else:
                bottom = max(bottom, box[3] + 0.01)
        if top - bottom < 0.66:
            return (0.0, 1.0)
        return ((bottom + 1.0) / 2.0, (top + 1.0) / 2.0)

    def apply(self) -> None:
        """The 3D view's part of the window (the part left of the open panel, between the text rows). The lens
        keeps the scale it has over the whole height (balls keep their size on screen, the director's framing
        its width): the rows under the text are left out of the picture, never drawn under it."""
        base = self.screen.base
        share = self.view_share()
        b, t = self.rows()
        dr = base.cam.node().getDisplayRegion(0)
        if abs(dr.getRight() - share) > 1e-6 or abs(dr.getBottom() - b) > 1e-6 or abs(dr.getTop() - t) > 1e-6:
            dr.setDimensions(0.0, share, b, t)
        tan_v = math.tan(math.radians(self.fov0[1]) / 2.0)
        vfov = math.degrees(2.0 * math.atan(tan_v * (t - b)))
        hfov = math.degrees(2.0 * math.atan(tan_v * self.aspect() * share))
        lens = base.camLens
        if abs(lens.getFov()[0] - hfov) > 1e-4 or abs(lens.getFov()[1] - vfov) > 1e-4:
            lens.setFov(hfov, vfov)

    def shown(self) -> bool:
        return self.open and self.screen.phase in ("answer", "verdict")

    def restore(self) -> None:
        base = self.screen.base
        base.cam.node().getDisplayRegion(0).setDimensions(0.0, 1.0, 0.0, 1.0)
        base.camLens.setFov(*self.fov0)

    def toggle(self) -> None:
        if self.screen.phase not in ("answer", "verdict"):
            return
        self.open = not self.open
        self.apply()
        self.redraw()

    def redraw(self) -> None:
        s = self.screen
        if s.phase == "answer":
            s.answer.show()
        elif s.phase == "verdict":
            s.verdict.panel()

    def frame(self, height: float) -> Any:
        """The open panel (a scrolled frame on the right) or, collapsed, the tab that opens it."""
        from direct.gui.DirectGui import DirectFrame, DirectScrolledFrame

        s = self.screen
        for w in s.panel_widgets:
            w.destroy()
        s.panel_widgets = []
        left, right, bottom, top = self.rect()
        if not self.open:
            s.button(
                "◂ "
                + tr(
                    "trainer.screen.verdict" if s.phase == "verdict" else "trainer.screen.answer",
                    s.lang,
                ),
                (right - 0.2, 0.85),
                s.toggle_panel,
                scale=0.04,
                store=s.panel_widgets,
            )
            return None
        w = right - left
        back = DirectFrame(
            parent=s.root2d, frameColor=(0.02, 0.03, 0.03, 0.92), frameSize=(left, right, bottom, top)
        )
        s.panel_widgets.append(back)
        frame = DirectScrolledFrame(
            parent=s.root2d,
            frameSize=(left, right, bottom + 0.12, top - 0.02),
            canvasSize=(0, w - 0.06, -max(height, 1.86), 0),
            frameColor=(0, 0, 0, 0),
            scrollBarWidth=0.04,
            verticalScroll_frameColor=(0.2, 0.2, 0.2, 0.8),
            horizontalScroll_frameSize=(0, 0, 0, 0),
        )
        frame.getCanvas().setPos(left + 0.02, 0, top - 0.04)
        s.panel_widgets.append(frame)
        s.button("▸", (right - 0.06, -0.94), s.toggle_panel, scale=0.045, store=s.panel_widgets)
        self.scroller = frame
        return frame.getCanvas()

    def scroll(self, step: int) -> None:
        sc = self.scroller
        if sc is None or self.screen.phase not in ("answer", "verdict"):
            return
        bar = sc.verticalScroll
        bar["value"] = min(1.0, max(0.0, bar["value"] - 0.1 * step))

    def pixels(self) -> tuple[float, float] | None:
        """The panel's left and right edges in window pixels (None when it is not shown)."""
        if not self.shown():
            return None
        w = self.screen.base.win.getXSize()
        left, right, _b, _t2 = self.rect()
        a = self.aspect()
        return ((left / a + 1) / 2 * w, (right / a + 1) / 2 * w)
