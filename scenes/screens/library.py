"""The match archive and the drills screen: lists of buttons from the progress store and the drill library.

Archive: the finished matches (newest first) → a match's strokes → a stroke replayed (simulated again in
the physics worker from its layout and shot; the replay screen says if the events differ from the stored
ones). Drills: the library by family, each with its attempts and success rate → the drill opened on the
practice table, judged after every stroke.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scenes.core.i18n import ball_name, display_names, game_name, tr
from scenes.core.script import ScriptRefused
from scenes.fonts import ui_font
from scenes.screens import Screen

PAGE = 10  # rows per page


class ListScreen(Screen):
    """A title, a page of buttons (one per row), More… and Back."""

    def _list(self, title: str, rows: list[tuple[str, Callable[[], None]]], back: Callable[[], None]) -> None:
        from direct.gui.DirectGui import DirectButton, DirectLabel

        for w in getattr(self, "_widgets", []):
            w.destroy()
        self._widgets: list[Any] = []
        self.rows = rows
        font = ui_font(self.base.loader)
        self.base.setBackgroundColor(0.05, 0.07, 0.06, 1)
        self._widgets.append(
            DirectLabel(
                parent=self.root2d,
                text=title,
                text_font=ui_font(self.base.loader, bold=True),
                scale=0.07,
                pos=(0, 0, 0.82),
                frameColor=(0, 0, 0, 0),
                text_fg=(1, 1, 1, 1),
                text_wordwrap=30,
            )
        )
        page = getattr(self, "page", 0)
        shown = rows[page * PAGE : (page + 1) * PAGE]

        def button(
            text: str, y: float, cmd: Callable[[], None], x: float = 0.0, scale: float = 0.045
        ) -> None:
            self._widgets.append(
                DirectButton(
                    parent=self.root2d,
                    text=text,
                    text_font=font,
                    scale=scale,
                    pos=(x, 0, y),
                    command=cmd,
                    pad=(0.4, 0.2),
                    frameColor=(0.16, 0.35, 0.2, 1),
                    text_fg=(1, 1, 1, 1),
                    relief=1,
                )
            )

        for i, (text, cmd) in enumerate(shown):
            button(text, 0.66 - i * 0.125, cmd)
        if (page + 1) * PAGE < len(rows):
            button(tr("library.more", self.lang), -0.62, self._next_page, x=0.45, scale=0.05)
        button(tr("library.back", self.lang), -0.62, back, x=-0.45, scale=0.05)

    def _next_page(self) -> None:
        self.page = getattr(self, "page", 0) + 1
        self._render()

    def _render(self) -> None:
        """Subclasses build their list here."""

    def to_menu(self) -> None:
        assert self.ctx.manager is not None
        self.ctx.manager.switch("menu")

    def choose(self, index: int) -> None:
        """The row ``index`` (of all rows) as if its button were clicked (the script's path)."""
        self.rows[index][1]()

    def dump(self) -> dict[str, Any]:
        return {"screen": self.name, "rows": [text for text, _ in self.rows]}

    def exit(self) -> None:
        for w in getattr(self, "_widgets", []):
            w.destroy()
        self._widgets = []
        super().exit()

    def script_action(self, a: dict[str, Any]) -> bool:
        if a["do"] == "choose":
            index = int(a["index"])
            if not 0 <= index < len(self.rows):
                raise ScriptRefused(f"a row of the {self.name} screen (0 to {len(self.rows) - 1})", "index")
            self.choose(index)
            return True
        if a["do"] == "back":
            self.to_menu()
            return True
        raise ScriptRefused(f"an action of the {self.name} screen (choose, back)")


class ArchiveScreen(ListScreen):
    name = "archive"

    def enter(self, match_id: int | None = None, **_: Any) -> None:
        from scenes.core.archive import Archive

        self.accept(self.ctx.settings.controls.menu, self.to_menu)
        with Archive.open(self.ctx.settings) as arch:
            self.matches = arch.matches()
            self.strokes = arch.strokes(match_id) if match_id is not None else []
        self.match_id = match_id
        self.job: Any = None
        self._render()
        self.add_task(self._poll, "poll")

    def _render(self) -> None:
        lang = self.lang
        if self.match_id is None:
            rows = [(self._match_line(m), self._open_match(m.id)) for m in self.matches]
            title = tr("archive.title", lang) if rows else tr("archive.empty", lang)
            self._list(title, rows, self.to_menu)
            return
        m = next(m for m in self.matches if m.id == self.match_id)
        names = display_names(m.players, lang)
        rows = [(self._stroke_line(s, names), self._replay(i)) for i, s in enumerate(self.strokes)]
        title = tr("archive.strokes_title", lang, game=game_name(m.game, lang), players=" — ".join(names))
        self._list(title, rows, self._back_to_matches)

    def _match_line(self, m: Any) -> str:
        names = display_names(m.players, self.lang)
        frames = ":".join(str(f) for f in m.frames_won)
        return tr(
            "archive.match",
            self.lang,
            date=m.finished.replace("T", " ").rstrip("Z"),
            game=game_name(m.game, self.lang),
            players=" — ".join(names),
            frames=frames,
        )

    def _stroke_line(self, s: Any, names: tuple[str, ...]) -> str:
        rj = s.ruling
        if rj.get("foul"):
            verdict = tr("hud.foul", self.lang)
        elif rj.get("counted"):
            verdict = ", ".join(ball_name(b, self.lang) for b in rj["counted"])
        else:
            verdict = tr("hud.legal", self.lang)
        name = names[s.player] if s.player < len(names) else str(s.player + 1)
        return tr("archive.stroke", self.lang, n=s.n, frame=s.frame, name=name, verdict=verdict)

    def _open_match(self, match_id: int) -> Callable[[], None]:
        def go() -> None:
            assert self.ctx.manager is not None
            self.ctx.manager.switch("archive", match_id=match_id)

        return go

    def _back_to_matches(self) -> None:
        assert self.ctx.manager is not None
        self.ctx.manager.switch("archive")

    def _replay(self, index: int) -> Callable[[], None]:
        def go() -> None:
            from scenes.core.archive import replay_record

            if self.job is None:
                self.job = self.ctx.physics.submit(replay_record, self.strokes[index], self.ctx.settings)
                self._list(tr("archive.simulating", self.lang), [], self._back_to_matches)

        return go

    def _poll(self, task: Any) -> Any:
        from direct.task import Task

        if self.job is not None and self.job.done():
            record, same = self.job.result()
            self.job = None
            assert self.ctx.manager is not None
            self.ctx.shared["return_to"] = "archive"
            self.ctx.shared["archive_match"] = self.match_id
            self.ctx.manager.switch(
                "replay", record=record, note="" if same else tr("archive.differs", self.lang)
            )
        return Task.cont

    def ready(self) -> bool:
        return self.job is None


class DrillsScreen(ListScreen):
    name = "drills"

    def enter(self, **_: Any) -> None:
        from scenes.core.archive import Archive
        from scenes.core.drills import drill_library

        self.accept(self.ctx.settings.controls.menu, self.to_menu)
        self.drills = drill_library()
        with Archive.open(self.ctx.settings) as arch:
            self.progress = arch.drill_progress()
        self._render()

    def _render(self) -> None:
        lang = self.lang
        rows = []
        for d in self.drills:
            n, ok = self.progress.get(d.id, (0, 0))
            rate = (
                tr("drill.rate", lang, ok=ok, n=n, pct=round(100 * ok / n))
                if n
                else tr("drill.untried", lang)
            )
            family = tr(f"drill.family.{d.family}", lang)
            rows.append((f"{family}: {d.title[lang]} · {rate}", self._open(d.id)))
        self._list(tr("drills.title", lang), rows, self.to_menu)

    def _open(self, drill_id: str) -> Callable[[], None]:
        def go() -> None:
            assert self.ctx.manager is not None
            self.ctx.manager.switch("practice", drill=drill_id)

        return go
