"""The statistics panel of a match: shown at the end of a frame and of the match, and on the stats key.

At the end of the match it also keeps the match in the archive (scenes.core.archive), once.
"""

from __future__ import annotations

from typing import Any

from scenes.core.i18n import tr
from scenes.core.stats import stats_text


class StatsPanel:
    def __init__(self, base: Any, font: Any, lang: str) -> None:
        from direct.gui.OnscreenText import OnscreenText
        from panda3d.core import TextNode

        self.lang = lang
        self.node = OnscreenText(
            parent=base.aspect2d,
            pos=(0, 0.45),
            scale=0.042,
            fg=(1, 1, 1, 1),
            bg=(0, 0, 0, 0.75),
            shadow=(0, 0, 0, 0.9),
            font=font,
            align=TextNode.ACenter,
            mayChange=True,
        )
        self.node.setBin("fixed", 30)
        self.node.hide()
        self.frame: int | None = None
        self.saved_match: int | None = None

    @property
    def shown(self) -> bool:
        return not self.node.isHidden()

    def show(self, match: Any, frame: int | None) -> None:
        """The statistics of ``frame`` (1-based), or of the whole match when None."""
        self.frame = frame
        self.node.setText(stats_text(match.log, match.names, self.lang, frame))
        self.node.show()

    def hide(self) -> None:
        self.node.hide()

    def toggle(self, match: Any) -> None:
        """The stats key: the frame's figures so far (the match's once it is over), in every phase; before the
        first stroke is carried out (the first choice still open) they are the frame's zeros, not nothing."""
        if self.shown:
            self.hide()
        elif match.state is not None:
            st = match.state
            frame = match.log[-1].frame if match.log else sum(int(f) for f in st.frames_won) + 1
            self.show(match, None if st.match_over else frame)

    def after_stroke(self, match: Any, ruling: dict[str, Any]) -> str:
        """Show the frame's figures when a stroke ended a frame, the match's when it ended the match (and
        archive it); returns a status line for the HUD ('' when nothing happened)."""
        if match.state is None or not ruling.get("frame_over") or not match.log:
            return ""
        if match.state.match_over:
            self.show(match, None)
            return self._archive(match)
        self.show(match, match.log[-1].frame)
        return ""

    def _archive(self, match: Any) -> str:
        if self.saved_match is not None or match.settings is None:
            return ""
        from physics.errors import InputError
        from scenes.core.archive import Archive

        try:
            with Archive.open(match.settings) as arch:
                self.saved_match = arch.save_match(match.state, match.log)
        except InputError as exc:
            return exc.line()
        return tr("archive.saved", self.lang)

    def text(self) -> str:
        return str(self.node.getText()) if self.shown else ""

    def destroy(self) -> None:
        self.node.destroy()
