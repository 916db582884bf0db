"""Screens are states in a registry: each owns its root nodes, tasks and event handlers.

``Screen.enter`` builds, ``Screen.exit`` removes everything the screen made (nodes under its two
roots, tasks added through ``add_task``, events accepted through ``accept``), so switching screens
never leaks. Screens are imported lazily by name, so a screen another package provides (the
trainer) costs nothing until it is opened.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# name -> "module:Class"; imported only when the screen is opened.
SCREENS: dict[str, str] = {
    "menu": "scenes.screens.menu:MenuScreen",
    "play": "scenes.screens.play:PlayScreen",
    "practice": "scenes.screens.play:PracticeScreen",
    "replay": "scenes.screens.replay:ReplayScreen",
    "trainer": "scenes.trainer.screen:TrainerScreen",
    "archive": "scenes.screens.library:ArchiveScreen",
    "drills": "scenes.screens.library:DrillsScreen",
}


@dataclass
class AppContext:
    """What every screen gets: the ShowBase (passed, never a builtin), settings, the screen manager."""

    base: Any
    settings: Any
    offscreen: bool = False
    manager: ScreenManager | None = None
    sound: Any = None
    physics: Any = (
        None  # strokes simulated ahead: scenes.core.worker.PhysicsWorker (a worker process in the app)
    )
    shared: dict[str, Any] = field(default_factory=dict)  # e.g. the match to return to after a replay

    @property
    def lang(self) -> str:
        return str(self.settings.lang)


class Screen:
    """Base of every screen: owns ``root2d`` (under aspect2d), ``root3d`` (under render), tasks and events."""

    name = "screen"

    def __init__(self, ctx: AppContext) -> None:
        from direct.showbase.DirectObject import DirectObject

        self.ctx = ctx
        self.base = ctx.base
        self._events = DirectObject()
        self._tasks: list[str] = []
        self.root2d = self.base.aspect2d.attachNewNode(f"{self.name}-2d")
        self.root3d = self.base.render.attachNewNode(f"{self.name}-3d")
        self._destroyables: list[Any] = []

    @property
    def lang(self) -> str:
        return self.ctx.lang

    def enter(self, **kwargs: Any) -> None:
        """Build the screen. Subclasses override."""

    def accept(self, event: str, fn: Callable[..., Any], extra: list[Any] | None = None) -> None:
        self._events.accept(event, fn, extra or [])

    def add_task(self, fn: Callable[..., Any], name: str, sort: int = 0) -> None:
        full = f"{self.name}-{name}-{id(self)}"
        self.base.taskMgr.add(fn, full, sort=sort)
        self._tasks.append(full)

    def own(self, obj: Any) -> Any:
        """Register a DirectGUI widget or any object with ``destroy()`` to be destroyed on exit."""
        self._destroyables.append(obj)
        return obj

    def dump(self) -> dict[str, Any]:
        """What the screen shows, for a script's ``dump`` (screens with more to say override it): its name and
        every text drawn on its 2D root, top to bottom."""
        from panda3d.core import TextNode

        texts: list[tuple[float, str]] = []
        for np_ in self.root2d.findAllMatches("**/+TextNode"):
            node = np_.node()
            if isinstance(node, TextNode) and not np_.isHidden() and node.getText():
                texts.append((-np_.getZ(self.root2d), node.getText()))
        return {"screen": self.name, "texts": [t for _, t in sorted(texts, key=lambda v: v[0])]}

    def exit(self) -> None:
        self._events.ignoreAll()
        for t in self._tasks:
            self.base.taskMgr.remove(t)
        self._tasks.clear()
        for obj in reversed(self._destroyables):
            obj.destroy()  # DirectGUI takes a second destroy of a child its parent destroyed
        self._destroyables.clear()
        self.root2d.removeNode()
        self.root3d.removeNode()


def screen_class(name: str) -> type[Screen]:
    """The screen class registered as ``name`` (imported now)."""
    if name not in SCREENS:
        raise KeyError(f"unknown screen {name!r}; known: {', '.join(SCREENS)}")
    module, cls = SCREENS[name].split(":")
    return getattr(importlib.import_module(module), cls)  # type: ignore[no-any-return]


class ScreenManager:
    """Holds the current screen; ``switch`` exits it and enters the next."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        ctx.manager = self
        self.current: Screen | None = None
        self.history: list[str] = []

    def switch(self, name: str, **kwargs: Any) -> Screen:
        cls = screen_class(name)  # an unknown or missing screen leaves the current one open
        if self.current is not None:
            self.current.exit()
            self.current = None
        screen = cls(self.ctx)
        self.current = screen
        self.history.append(name)
        try:
            screen.enter(**kwargs)
        except BaseException as exc:
            # A screen that failed half-way must not leave nodes, tasks or handlers behind.
            self.current = None
            try:
                screen.exit()
            except Exception as cleanup:  # a half-built screen may miss attributes: the first error goes on
                exc.add_note(f"its clean-up failed too: {type(cleanup).__name__}: {cleanup}")
            raise
        return screen

    def close(self) -> None:
        if self.current is not None:
            self.current.exit()
            self.current = None
