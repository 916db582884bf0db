"""The main menu: game and its table, players and their names, match length, language, practice, trainer, quit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from physics.limits import MAX_NAME, MAX_PLAYERS
from physics.tables import load_table
from rules.registry import game_ids, get_referee
from scenes.core.i18n import display_names, game_name, tr
from scenes.fonts import ui_font
from scenes.screens import Screen


def match_games() -> tuple[str, ...]:
    """The games the menu offers: the registry's, asked each time (a game registered later is offered too)."""
    return game_ids()


def clip_name(text: str) -> str:
    """A typed name as the match keeps it: printable characters only, trimmed, at most MAX_NAME of them
    (the autosave reads back exactly what the menu lets through)."""
    return "".join(c for c in text if c.isprintable()).strip()[:MAX_NAME].strip()


class MenuScreen(Screen):
    name = "menu"

    def enter(self, **kwargs: Any) -> None:
        s = self.ctx.settings
        choice = self.ctx.shared.setdefault(
            "menu",
            {
                "game": s.game.default if s.game.default in match_games() else match_games()[0],
                "names": list(s.players.names),
                "frames_to_win": s.game.frames_to_win,
            },
        )
        self.choice = choice
        self.base.setBackgroundColor(0.05, 0.07, 0.06, 1)
        self._build()
        self.accept(s.controls.menu, self.quit)

    # --- widgets -----------------------------------------------------------------------------
    def _build(self) -> None:
        from direct.gui.DirectGui import DirectButton, DirectEntry, DirectFrame, DirectLabel

        for w in getattr(self, "_widgets", []):
            w.destroy()
        self._widgets: list[Any] = []
        font = ui_font(self.base.loader)
        bold = ui_font(self.base.loader, bold=True)
        lang = self.lang

        def label(text: str, pos: tuple[float, float], scale: float = 0.06, f: Any = font, **kw: Any) -> Any:
            kw.setdefault("text_fg", (1, 1, 1, 1))
            w = DirectLabel(
                parent=self.root2d,
                text=text,
                text_font=f,
                scale=scale,
                pos=(pos[0], 0, pos[1]),
                frameColor=(0, 0, 0, 0),
                **kw,
            )
            self._widgets.append(w)
            return w

        def button(
            text: str, pos: tuple[float, float], cmd: Any, args: list[Any] | None = None, scale: float = 0.06
        ) -> Any:
            w = DirectButton(
                parent=self.root2d,
                text=text,
                text_font=font,
                scale=scale,
                pos=(pos[0], 0, pos[1]),
                command=cmd,
                extraArgs=args or [],
                pad=(0.4, 0.2),
                frameColor=(0.16, 0.35, 0.2, 1),
                text_fg=(1, 1, 1, 1),
                relief=1,
            )
            self._widgets.append(w)
            return w

        self._widgets.append(
            DirectFrame(parent=self.root2d, frameColor=(0, 0, 0, 0.35), frameSize=(-1.0, 1.0, -0.92, 0.92))
        )
        label(tr("menu.title", lang), (0, 0.78), 0.11, bold)
        label(tr("menu.game", lang), (-0.6, 0.58))
        button("<", (-0.62, 0.46), self._cycle_game, [-1])
        self.game_label = label(game_name(self.choice["game"], lang), (0.0, 0.45), 0.065)
        button(">", (0.62, 0.46), self._cycle_game, [1])
        # The table: the game's own, or another it is played on (golf: the snooker tables, 000 «Гольф»).
        self.table_label = label(self._table_text(), (0.0, 0.385), 0.045, text_fg=(0.8, 0.9, 0.8, 1))
        if len(self._tables()) > 1:
            button("<", (-0.42, 0.395), self._cycle_table, [-1], scale=0.045)
            button(">", (0.42, 0.395), self._cycle_table, [1], scale=0.045)

        label(tr("menu.players", lang), (-0.6, 0.30))
        button(tr("menu.less", lang), (-0.18, 0.31), self._players, [-1])
        button(tr("menu.more", lang), (-0.04, 0.31), self._players, [1])
        self.entries: list[Any] = []
        # Default names follow the language («Игрок 1» / "Player 1"); typed names stay as typed.
        names = self.choice["names"] = list(display_names(self.choice["names"], lang))
        for i, n in enumerate(names):
            col, row = divmod(i, 4)
            e = DirectEntry(
                parent=self.root2d,
                initialText=n,
                entryFont=font,
                scale=0.05,
                width=12,
                pos=(-0.7 + col * 0.75, 0, 0.18 - row * 0.09),
                numLines=1,
                focus=0,
                command=self._name_entered,
                extraArgs=[i],
                focusOutCommand=self._sync_names,
            )
            e.guiItem.setMaxChars(MAX_NAME)
            self._widgets.append(e)
            self.entries.append(e)

        y = 0.18 - 4 * 0.09 - 0.02
        button(tr("menu.less", lang), (-0.65, y), self._frames, [-1])
        self.frames_label = label(tr("menu.frames", lang, n=self.choice["frames_to_win"]), (-0.2, y - 0.015))
        button(tr("menu.more", lang), (0.25, y), self._frames, [1])
        button(tr("menu.language", lang), (0.62, y), self.toggle_language)

        self.start_button = button(tr("menu.start", lang), (0, -0.42), self.start_match, scale=0.075)
        button(tr("menu.practice", lang), (-0.55, -0.58), self.start_practice)
        button(tr("menu.drills", lang), (0.0, -0.58), self.start_drills)
        button(tr("menu.trainer", lang), (0.55, -0.58), self.start_trainer)
        button(tr("menu.archive", lang), (-0.3, -0.72), self.open_archive)
        button(tr("menu.quit", lang), (0.3, -0.72), self.quit)
        note = self.ctx.shared.get("menu_note")
        if note:
            self.note = label(str(note), (0, -0.84), 0.04, text_wordwrap=40, text_fg=(1, 0.75, 0.4, 1))

    def exit(self) -> None:
        for w in getattr(self, "_widgets", []):
            w.destroy()
        self._widgets = []
        super().exit()

    # --- actions -------------------------------------------------------------------------------
    def _cycle_game(self, step: int) -> None:
        games = match_games()
        i = games.index(self.choice["game"]) if self.choice["game"] in games else 0
        self.choice["game"] = games[(i + step) % len(games)]
        self.choice["table"] = self._tables()[0]
        self._sync_names()
        self._build()  # the table's arrows come and go with the game

    def _tables(self) -> tuple[str, ...]:
        return tuple(get_referee(self.choice["game"]).tables())

    def _table_text(self) -> str:
        tables = self._tables()
        table = self.choice.get("table")
        if table not in tables:
            table = self.choice["table"] = tables[0]
        return tr("menu.table", self.lang, name=load_table(table).name["ru" if self.lang == "ru" else "en"])

    def _cycle_table(self, step: int) -> None:
        tables = self._tables()
        i = tables.index(self.choice["table"]) if self.choice.get("table") in tables else 0
        self.choice["table"] = tables[(i + step) % len(tables)]
        self.table_label["text"] = self._table_text()

    def _sync_names(self) -> None:
        self.choice["names"] = [
            clip_name(e.get()) or tr("menu.player_n", self.lang, n=i + 1) for i, e in enumerate(self.entries)
        ]

    def _name_entered(self, text: str, index: int) -> None:
        self._sync_names()

    def _players(self, step: int) -> None:
        self._sync_names()
        names = self.choice["names"]
        if step > 0 and len(names) < MAX_PLAYERS:
            names.append(tr("menu.player_n", self.lang, n=len(names) + 1))
        elif step < 0 and len(names) > 1:
            names.pop()
        self._build()

    def _frames(self, step: int) -> None:
        self.choice["frames_to_win"] = max(1, min(25, self.choice["frames_to_win"] + step))
        self.frames_label["text"] = tr("menu.frames", self.lang, n=self.choice["frames_to_win"])

    def toggle_language(self) -> None:
        self._sync_names()
        s = self.ctx.settings
        new = "en" if s.lang == "ru" else "ru"
        self.ctx.settings = replace(s, language=replace(s.language, ui=new))
        self._build()

    def start_match(self) -> None:
        self._sync_names()
        self._open(
            "play",
            game=self.choice["game"],
            table=self.choice.get("table"),
            names=tuple(self.choice["names"]),
            frames_to_win=self.choice["frames_to_win"],
        )

    def start_practice(self) -> None:
        self._open("practice")

    def start_drills(self) -> None:
        self._open("drills")

    def open_archive(self) -> None:
        self._open("archive")

    def start_trainer(self) -> None:
        self._open("trainer")

    def _open(self, screen: str, **kwargs: Any) -> None:
        """Switch screens; if the next one cannot open (bad input, no free place for the cue ball), say why
        here."""
        from physics.errors import InputError
        from scenes.core.match import Unavailable

        assert self.ctx.manager is not None
        try:
            self.ctx.manager.switch(screen, **kwargs)
        except (Unavailable, InputError) as exc:
            self.ctx.shared["menu_note"] = exc.line() if isinstance(exc, InputError) else str(exc)
            self.ctx.manager.switch("menu")

    def quit(self) -> None:
        app = self.ctx.shared.get("app")
        if app is not None:
            app.quit(0)
