"""The replay's timeline: a bar of the stroke with a tick for every event, a cursor, click or drag to scrub.

The bar is anchored to the bottom centre of the window and sized to its width, so it keeps its place at
any size and aspect; the legend names each tick colour in the interface's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scenes.core.i18n import tr
from scenes.replay import TICK_ORDER, Tick

TICK_COLOURS: dict[str, tuple[float, float, float, float]] = {
    "strike": (1.0, 1.0, 1.0, 1.0),
    "contact": (1.0, 0.85, 0.2, 1.0),
    "cushion": (0.35, 0.85, 0.4, 1.0),
    "pot": (0.95, 0.3, 0.25, 1.0),
    "jump": (0.4, 0.75, 1.0, 1.0),
    "off": (0.9, 0.4, 0.95, 1.0),
    "line": (0.6, 0.6, 0.6, 1.0),
}
BAR_Z = 0.16  # above the bottom edge (aspect2d units), over the help line
BAR_H = 0.035
LEGEND_SCALE = 0.032


class Timeline:
    """The bar, its ticks and cursor under ``base.a2dBottomCenter``; ``frac_at(x)`` maps a mouse x to 0..1."""

    def __init__(self, base: Any, ticks: Sequence[Tick], font: Any, lang: str) -> None:
        from direct.gui.DirectGui import DirectFrame
        from direct.gui.OnscreenText import OnscreenText
        from panda3d.core import LineSegs

        self.base = base
        self.ticks = list(ticks)
        self.half = 0.8 * float(base.getAspectRatio())  # the bar spans 80 % of the window's width
        h = self.half
        self.frame = DirectFrame(
            parent=base.a2dBottomCenter,
            frameColor=(0.08, 0.08, 0.08, 0.75),
            frameSize=(-h - 0.01, h + 0.01, -BAR_H / 2 - 0.01, BAR_H / 2 + 0.01),
            pos=(0, 0, BAR_Z),
        )
        self.frame.setTransparency(True)
        ls = LineSegs("timeline-ticks")
        ls.setThickness(2.0)
        for tick in self.ticks:
            ls.setColor(*TICK_COLOURS[tick.kind])
            x = -h + 2 * h * tick.frac
            tall = 1.0 if tick.kind != "line" else 0.5
            ls.moveTo(x, 0, -BAR_H / 2 * tall)
            ls.drawTo(x, 0, BAR_H / 2 * tall)
        self.frame.attachNewNode(ls.create())
        self.cursor = DirectFrame(
            parent=self.frame, frameColor=(1, 1, 1, 0.9), frameSize=(-0.004, 0.004, -BAR_H, BAR_H)
        )
        kinds = [k for k in TICK_ORDER if any(t.kind == k for t in self.ticks)]
        self.legend: list[Any] = []
        x = -h
        for k in kinds:
            # On a dark plate: a green or grey name straight on the cloth could not be read.
            label = OnscreenText(
                parent=self.frame,
                text=f"■ {tr(f'timeline.{k}', lang)}",
                pos=(x, BAR_H / 2 + 0.022),
                scale=LEGEND_SCALE,
                fg=TICK_COLOURS[k],
                bg=(0.05, 0.05, 0.05, 0.8),
                shadow=(0, 0, 0, 0.9),
                font=font,
                align=0,  # TextNode.ALeft
                mayChange=True,
            )
            self.legend.append(label)
            x += LEGEND_SCALE * (label.textNode.getWidth() + 1.2)

    def set_frac(self, frac: float) -> None:
        self.cursor.setX(-self.half + 2 * self.half * min(1.0, max(0.0, frac)))

    def frac_at(self, mx: float, my: float) -> float | None:
        """The bar position (0..1) under an aspect2d point, None when the point is off the bar."""
        p = self.frame.getPos(self.base.aspect2d)
        if abs(my - p[2]) > BAR_H + 0.02 or abs(mx - p[0]) > self.half + 0.02:
            return None
        return min(1.0, max(0.0, float(mx - p[0] + self.half) / (2 * self.half)))

    def dump(self) -> list[dict[str, Any]]:
        return [{"t": t.t, "frac": t.frac, "kind": t.kind, "event": t.event} for t in self.ticks]

    def destroy(self) -> None:
        for w in self.legend:
            w.destroy()
        self.frame.destroy()
