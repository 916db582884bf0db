"""The history phase: the trainee's sessions and exams, the progress by topic and rulebook, and its plot."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scenes.core.i18n import tr

if TYPE_CHECKING:
    from scenes.trainer.screen import TrainerScreen


class HistoryPhase:
    """The history page; ``plot_path`` is the plot it drew last."""

    def __init__(self, screen: TrainerScreen) -> None:
        self.screen = screen
        self.plot_path: str | None = None

    def show(self) -> None:
        import io

        from direct.gui.OnscreenImage import OnscreenImage
        from panda3d.core import Filename, Texture

        from scenes.core.trainer.cli import print_history
        from scenes.core.trainer.plots import plot_progress

        s = self.screen
        s.phase = "history"
        s.layout.restore()
        s.clear()
        buf = io.StringIO()
        print_history(s.store, s.lang, buf, s.profile_id)
        s.label(buf.getvalue(), (-1.72, 0.9), 0.034, align="left", wrap=30)
        path = plot_progress(
            s.store,
            s.profile_id,
            s.settings.data_dir() / f"progress-{s.profile_id}.png",
            s.lang,
        )
        tex = Texture("progress")
        tex.read(Filename.fromOsSpecific(str(path)))
        img = OnscreenImage(image=tex, pos=(0.62, 0, 0.0), scale=(1.1, 1, 1.1 * 540 / 1280), parent=s.root2d)
        s.widgets.append(img)
        self.plot_path = str(path)
        s.button(tr("trainer.screen.back", s.lang), (0, -0.9), s.pick.show)
