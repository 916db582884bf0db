"""The HUD scoreboard: draws a plain :class:`HudSnapshot` it is handed, decides nothing.

The snapshot is built by the match controller from the match state and the last ruling; the HUD
turns it into text (``hud_text``, pure, tested in both languages) and puts that text on screen in
blocks anchored to the window corners (``a2dTopLeft`` ...), so it stays readable at any size and
aspect. It redraws only when handed a snapshot that differs from the one on screen.
"""

from __future__ import annotations

from typing import Any

from scenes.core.scoreboard import HudSnapshot, hud_text
from scenes.fonts import ui_font

CALL_BOTTOM = 0.12  # the call block's last line stands this far above the bottom edge (over the help hint)
# The cue's panel takes this much of the bottom-right corner (aspect2d units, scenes.cue_control.CueView).
CUE_PANEL_WIDTH = 1.0


def call_wrap(aspect: float, scale: float) -> float:
    """Line width (in text units) of the bottom-left call block that keeps it clear of the cue's panel in the
    bottom-right corner, at any aspect ratio (800x600 is the narrowest: 4:3)."""
    free = 2.0 * aspect - CUE_PANEL_WIDTH - 0.15
    return max(16.0, min(48.0, free / (scale * 1.05)))


class Hud:
    """On-screen scoreboard. ``show(snapshot)`` redraws only when the snapshot changed."""

    SCALE = 0.045

    def __init__(self, base: Any, lang: str) -> None:
        from direct.gui.OnscreenText import OnscreenText
        from panda3d.core import TextNode

        self.lang = lang
        self.snapshot: HudSnapshot | None = None
        self.redraws = 0
        font = ui_font(base.loader)
        # A translucent card behind each block keeps the text readable over the bright lamp or cloth.
        common: dict[str, Any] = {
            "font": font,
            "scale": self.SCALE,
            "fg": (1, 1, 1, 1),
            "bg": (0, 0, 0, 0.45),
            "shadow": (0, 0, 0, 0.8),
            "mayChange": True,
        }
        self.blocks = {
            "score": OnscreenText(parent=base.a2dTopLeft, pos=(0.05, -0.08), align=TextNode.ALeft, **common),
            "required": OnscreenText(
                parent=base.a2dTopRight, pos=(-0.05, -0.08), align=TextNode.ARight, **common
            ),
            "call": OnscreenText(
                parent=base.a2dBottomLeft,
                pos=(0.05, 0.42),
                align=TextNode.ALeft,
                wordwrap=call_wrap(float(base.getAspectRatio()), self.SCALE),
                **common,
            ),
        }
        # The call's details (explanations with their rules), shown on demand just above the call: a bottom
        # panel like it, which the top and broadcast views frame the table above (never over the bed).
        self.blocks["details"] = OnscreenText(
            parent=base.a2dBottomLeft,
            pos=(0.05, 0.6),
            align=TextNode.ALeft,
            wordwrap=call_wrap(float(base.getAspectRatio()), self.SCALE),
            **common,
        )
        self.blocks["details"].hide()
        for node in self.blocks.values():
            node.setBin("fixed", 10)

    def show(self, snapshot: HudSnapshot) -> bool:
        """Draw ``snapshot``; returns True when it was redrawn (False: same as on screen)."""
        if snapshot == self.snapshot:
            return False
        self.snapshot = snapshot
        for name, text in hud_text(snapshot, self.lang).items():
            self.blocks[name].setText(text)
        self._stand_call_on_the_bottom()
        self.redraws += 1
        return True

    def _stand_call_on_the_bottom(self) -> None:
        """The call block grows upwards from just above the bottom line (the help hint), so a long call never
        runs off the window or over the hint: its first line is placed by how many lines it wraps to."""
        node = self.blocks["call"]
        rows = max(1, int(node.textNode.getNumRows())) if node.getText() else 0
        line = float(node.textNode.getLineHeight()) * self.SCALE
        node.setPos(0.05, CALL_BOTTOM + max(0, rows - 1) * line)
        # The details stand on the call's first line, growing upwards the same way.
        details = self.blocks["details"]
        more = max(1, int(details.textNode.getNumRows()))
        details.setPos(0.05, CALL_BOTTOM + (rows + more - 1) * line + 0.03)

    def toggle_details(self) -> bool:
        """Show or hide the details block; returns True when it is now shown."""
        node = self.blocks["details"]
        if node.isHidden() and node.getText():
            node.show()
            return True
        node.hide()
        return False

    def text(self) -> dict[str, str]:
        return {name: node.getText() for name, node in self.blocks.items()}

    def destroy(self) -> None:
        for node in self.blocks.values():
            node.destroy()
        self.blocks.clear()
