"""The desktop app: engine configuration, the screen manager, the offscreen demo and scripted input.

``run_app`` is what ``main.py`` calls for the window commands. Panda3D is configured with
``loadPrcFileData`` before the ShowBase exists (window title and size, multisampling, sync; offscreen:
an offscreen buffer, and the software renderer when there is no display). Screens get the ShowBase
passed to them; nothing is injected into builtins by us.

Scripted input (for the end-to-end test and the offscreen demo): ``BILLIARDS_SCRIPT=FILE.json`` holds a
list of actions (``{"do": "start", "game": "russian-pyramid"}``, ``{"do": "shoot"}``, ...) fed one by one
through the same code paths the keys and mouse use; see :class:`ScriptRunner`. Every action is checked
when the file is read (scenes/core/script.py).
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from physics.errors import InputError
from scenes.core.i18n import tr
from scenes.core.script import ScriptRefused, load_script
from scenes.core.worker import PhysicsWorker
from scenes.look import NO_WINDOW, Shading, pbr_supported, slow_high_quality_hint
from scenes.screens import AppContext, ScreenManager

SCRIPT_ENV = "BILLIARDS_SCRIPT"
DEFAULT_SHOT_PATH = Path("out") / "play.png"


def configure_panda(settings: Any, offscreen: bool, size: tuple[int, int] | None = None) -> None:
    """Engine configuration; must run before the ShowBase is created."""
    from panda3d.core import loadPrcFileData

    w, h = size or (settings.display.width, settings.display.height)
    high = settings.display.quality == "high"
    headless = offscreen and not os.environ.get("DISPLAY") and high
    software = offscreen and not os.environ.get("DISPLAY") and not high
    # High quality anti-aliases in its own multisampled scene buffer (scenes.look); the window needs none.
    msaa = 0 if software or high else int(settings.display.msaa)
    lines = [
        f"window-title {tr('app.title', settings.lang)}",
        f"win-size {w} {h}",
        f"fullscreen {'#t' if settings.display.fullscreen and not offscreen else '#f'}",
        f"framebuffer-multisample {'#t' if msaa else '#f'}",
        f"multisamples {msaa}",
        f"sync-video {'#f' if offscreen else '#t'}",
        f"clock-mode {os.environ.get('BILLIARDS_CLOCK') or ('normal' if offscreen else 'limited')}",
        f"clock-frame-rate {settings.display.fps}",
        "notify-level warning",
        "default-directnotify-level warning",
        "text-encoding utf8",
        "print-pipe-types false",
    ]
    if offscreen:
        # Containers without input devices would print an error line per device directory otherwise.
        lines += ["window-type offscreen", "notify-level-device fatal"]
    if software:
        lines.append("load-display p3tinydisplay")
    if headless:
        # Real shaders with no display at all (EGL); the software renderer stays the fallback.
        lines += ["load-display p3headlessgl", "aux-display p3tinydisplay", "notify-level-egldisplay fatal"]
    if offscreen or not settings.sound.enabled:
        # No audio device is needed offscreen; the null manager accepts every call silently.
        lines.append("audio-library-name null")
    loadPrcFileData("billiards-app", "\n".join(lines))


def open_base(offscreen: bool, quality: str = "low") -> Any:
    """The ShowBase with its window (or offscreen buffer). Without a display the software renderer's
    offscreen pipe is chosen directly, so no X11 connection is even attempted (high quality first tries
    headless OpenGL)."""
    from direct.showbase.ShowBase import ShowBase

    if offscreen and not os.environ.get("DISPLAY") and quality == "high":
        try:
            base = ShowBase(windowType="offscreen")
            base.disableMouse()
            return base
        except Exception as exc:
            if str(exc) != NO_WINDOW:
                raise
            # no EGL device here: draw the low picture with the software renderer
    if offscreen and not os.environ.get("DISPLAY"):
        from panda3d.core import GraphicsPipeSelection

        sel = GraphicsPipeSelection.getGlobalPtr()
        sel.loadAuxModules()
        types = [sel.getPipeType(i) for i in range(sel.getNumPipeTypes())]
        tiny = [t for t in types if t.getName() == "TinyOffscreenGraphicsPipe"]
        if tiny:
            base = ShowBase(windowType="none")
            base.pipe = sel.makePipe(tiny[0])
            base.openMainWindow(type="offscreen")
            base.disableMouse()
            return base
    base = ShowBase(windowType="offscreen" if offscreen else None)
    base.disableMouse()
    return base


def physics_executor() -> PhysicsWorker:
    """One worker process for the physics. The renderer holds the GIL through each frame, so a thread
    would crawl; a process computes the stroke at full speed while the window keeps drawing. Spawned,
    not forked: a fork would copy the graphics context and the audio device of the running window.

    The worker dies with the app however the app dies (:func:`die_with_parent`); multiprocessing's resource
    tracker then sees its last pipe close and exits too. A worker killed on its own is replaced and its
    job run again (scenes.core.worker)."""
    import multiprocessing

    def pool() -> Executor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        )

    return PhysicsWorker(pool)


def die_with_parent(parent: int) -> None:
    """Worker initializer: end this process when ``parent`` ends, even by SIGKILL (nothing runs in the parent
    then). Linux: the kernel's parent-death signal, set on the thread that spawned the worker (the app's main
    thread, which lives as long as the app). Elsewhere: a thread that watches the parent's pid."""
    import signal
    import threading
    import time

    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    else:

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(0)

        threading.Thread(target=watch, name="die-with-parent", daemon=True).start()
    if os.getppid() != parent:
        os._exit(0)  # the parent died before the signal was set


class App:
    """One window: the context, the screen manager and the optional script."""

    def __init__(self, base: Any, settings: Any, offscreen: bool) -> None:
        from scenes.sound import SoundBank

        self.base = base
        # Panda3D's default near plane is 1 m: the cue stick and a player's-view camera live closer than that.
        if getattr(base, "camLens", None) is not None:
            base.camLens.setNearFar(0.02, 60.0)
        self.shading: Any = None
        if settings.display.quality == "high" and pbr_supported(base):
            self.shading = Shading(base, base.render, base.win, base.cam, msaa=int(settings.display.msaa))
            hint = None if offscreen else slow_high_quality_hint(base, settings.lang)
            if hint:
                print(hint, file=sys.stderr)
        elif settings.display.msaa and not (offscreen and not os.environ.get("DISPLAY")):
            # The multisample framebuffer asked for in configure_panda is used only where this is set.
            from panda3d.core import AntialiasAttrib

            base.render.setAntialias(AntialiasAttrib.MMultisample)
        self.ctx = AppContext(base=base, settings=settings, offscreen=offscreen)
        self.ctx.sound = SoundBank(base, settings)
        self.ctx.physics = physics_executor()
        self.manager = ScreenManager(self.ctx)
        self.ctx.shared["app"] = self
        self.exit_code = 0
        self.done = False
        self.failure: InputError | None = None  # raised once the window is closed (main.py: one line, exit 2)
        self.messages: list[str] = []

    def start(self, command: str, args: Any) -> None:
        if command == "train":
            self.manager.switch("trainer", args=args)
        elif command == "drill":
            self.manager.switch("drills")
        elif getattr(args, "scenario", None):
            self.manager.switch("practice", scenario=args.scenario)
        elif getattr(args, "game", None) == "practice":
            self.manager.switch("practice")
        elif getattr(args, "resume", False):
            self.manager.switch("play", resume_saved=True)
        elif getattr(args, "game", None):
            self.manager.switch("play", game=args.game)
        else:
            self.manager.switch("menu")

    def quit(self, code: int = 0) -> None:
        self.exit_code = code
        self.done = True

    def fail(self, exc: InputError) -> None:
        """Stop on bad input found while running (a script action the app cannot carry out)."""
        self.failure = exc
        self.quit(2)

    def close(self) -> None:
        self.manager.close()
        if self.shading is not None:
            self.shading.close()
        self.ctx.physics.shutdown(wait=True, cancel_futures=True)


@dataclass
class ScriptRunner:
    """Feeds scripted actions to the app, one at a time; an action may wait (``wait_rest``, ``frames``)."""

    app: App
    actions: list[dict[str, Any]]
    index: int = 0
    wait_frames: int = 0
    waited: float = 0.0
    log: list[str] = field(default_factory=list)
    file: str = SCRIPT_ENV

    def step(self, dt: float) -> bool:
        """Run what can run this frame; False when the script has finished. An action the app cannot carry
        out is the script file's InputError naming it (``actions[3].ball``)."""
        if self.index >= len(self.actions):
            return False
        action = self.actions[self.index]
        if self.wait_frames > 0:
            self.wait_frames -= 1
            return True
        try:
            done = self._do(action, dt)
        except ScriptRefused as exc:
            key = f"actions[{self.index}]" + (f".{exc.key}" if exc.key else "")
            raise InputError(self.file, key, exc.expected) from None
        if not done:
            return True
        self.index += 1
        self.waited = 0.0
        return self.index < len(self.actions)

    def _screen(self) -> Any:
        return self.app.manager.current

    def _do(self, a: dict[str, Any], dt: float) -> bool:
        """Perform ``a``; False means "not yet, call again next frame"."""
        do = a.get("do")
        screen = self._screen()
        if do == "menu":
            self.app.manager.switch("menu")
        elif do == "start":
            names = a.get("players")
            self.app.manager.switch(
                "play",
                game=a.get("game"),
                table=a.get("table"),
                names=tuple(names) if names else None,
                frames_to_win=a.get("frames_to_win"),
            )
        elif do == "practice":
            self.app.manager.switch("practice", scenario=a.get("scenario"), drill=a.get("drill"))
        elif do == "replay":
            self.app.manager.switch("replay")
        elif do == "key":
            self.app.base.messenger.send(str(a["key"]))
        elif do == "frames":
            self.wait_frames = int(a.get("n", 1))
        elif do in ("wait_rest", "wait"):
            self.waited += dt
            timeout = float(a.get("timeout", 120.0))
            if self.waited > timeout:
                raise ScriptRefused(
                    f"the app ready within {timeout:g} s (it was still on the "
                    f"{getattr(screen, 'name', None)} screen, phase {getattr(screen, 'phase', None)})",
                    "timeout",
                )
            return bool(screen is not None and getattr(screen, "ready", lambda: True)())
        elif do == "screenshot":
            path = Path(a.get("path") or DEFAULT_SHOT_PATH)
            save_screenshot(self.app.base, path)
            self.log.append(str(path))
        elif do == "dump":
            path = Path(a["path"])
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(
                json.dumps(screen.dump() if screen is not None else {}, ensure_ascii=False, indent=1),
                encoding="utf-8",
            )
        elif do == "quit":
            self.app.quit(int(a.get("code", 0)))
        elif screen is not None and hasattr(screen, "script_action"):
            return bool(screen.script_action(a))
        else:
            raise ScriptRefused(f"an action of the {getattr(screen, 'name', None)} screen")
        return True


def save_screenshot(base: Any, path: Path) -> Path:
    """Render the current frame and write it as an image (PNG by the file's extension)."""
    from panda3d.core import PNMImage

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(
            str(path), "--out", f"a PNG file in a folder that can be made ({exc.strerror})"
        ) from None
    base.graphicsEngine.renderFrame()
    base.graphicsEngine.renderFrame()
    img = PNMImage()
    if not base.win.getScreenshot(img):
        raise RuntimeError("could not read the window's frame buffer")
    if path.is_dir():
        raise InputError(str(path), "--out", "a PNG file that can be written (not a folder)")
    from scenes.render import write_png

    write_png(img, path)
    return path


def demo_script(game: str, out: Path) -> list[dict[str, Any]]:
    """The offscreen ``play`` demo: menu, a match, one real stroke (the break) played back, a screenshot."""
    return [
        {"do": "menu"},
        {"do": "frames", "n": 2},
        {"do": "start", "game": game},
        {"do": "frames", "n": 2},
        {"do": "aim_at_rack"},
        {"do": "power", "speed": 7.0},
        {"do": "shoot"},
        {"do": "speed", "x": 8.0},
        {"do": "wait_rest", "timeout": 300},
        {"do": "camera", "mode": "player", "snap": True},
        {"do": "frames", "n": 2},
        {"do": "screenshot", "path": str(out)},
        {"do": "quit"},
    ]


def _quit_on_sigterm(app: App) -> None:
    """SIGTERM (a logout, `kill`) ends the app's loop as closing the window does, so the worker is shut down
    and its semaphores released; the default action ended the process with them leaked to the resource
    tracker (which warned at the exit)."""
    import signal

    signal.signal(signal.SIGTERM, lambda signum, frame: app.quit(128 + signum))


def run_app(command: str, args: Any, settings: Any, offscreen: bool) -> int:
    """Open the window (or an offscreen buffer), run until quit; returns the exit code."""
    # Bad input fails before any window opens: one line, exit 2 (main.py prints InputError).
    game = getattr(args, "game", None)
    if command == "play" and game is not None:
        from physics.scenario import PRACTICE
        from rules.registry import game_ids

        ids = (PRACTICE, *game_ids())
        if game not in ids:
            raise InputError("--game", game, f"a game id: {', '.join(ids)}")
    if command == "play" and getattr(args, "scenario", None):
        from rules.scenarios import load_scenario

        load_scenario(args.scenario)
    if command == "play" and getattr(args, "resume", False):
        from scenes.core.autosave import load_match

        saved = settings.data_dir() / "match-autosave.json"
        if not saved.exists():
            raise InputError(str(saved), "file", "a match saved after a stroke (start one with `play` first)")
        load_match(saved)  # a damaged save is one line and exit 2, before any window opens
        from scenes.core.match import MatchController

        # The save and the window's companion beside it, read as the window will resume them (a stroke
        # log naming a player the match has not is one line too, not a window that fails later).
        MatchController.from_autosave(str(saved), settings.lang, settings)
    script_path = os.environ.get(SCRIPT_ENV)
    script = load_script(script_path) if script_path else None
    out = Path(getattr(args, "out", None) or DEFAULT_SHOT_PATH)
    if out.is_dir():  # bad input fails before any window opens
        raise InputError(str(out), "--out", "a PNG file path, not a folder")
    if offscreen and command in ("train", "drill") and script is None:
        # Offscreen, the trainer (its first case) or the drills screen is drawn and left as a picture.
        script = [
            {"do": "frames", "n": 10},
            {"do": "screenshot", "path": str(Path("out") / f"{command}.png")},
            {"do": "quit"},
        ]
    if offscreen and command == "play" and script is None and not getattr(args, "resume", False):
        game = getattr(args, "game", None) or settings.game.default
        if game == "practice":
            game = settings.game.default if settings.game.default != "practice" else "russian-pyramid"
        script = demo_script(game, out)
    if offscreen and command == "play" and script is None:
        # Resumed offscreen: draw the saved match as it stands and leave a picture of it.
        script = [
            {"do": "frames", "n": 2},
            {"do": "camera", "mode": "player", "snap": True},
            {"do": "frames", "n": 2},
            {"do": "screenshot", "path": str(out)},
            {"do": "quit"},
        ]

    configure_panda(settings, offscreen)
    base = open_base(offscreen, settings.display.quality)
    app = App(base, settings, offscreen)
    runner = ScriptRunner(app, script, file=script_path or "demo") if script else None
    if runner is None:
        app.start(command, args)
    elif command in ("train", "drill") or getattr(args, "resume", False):
        app.start(command, args)

    def tick(task: Any) -> Any:
        from direct.task import Task

        if runner is not None and not app.done:
            try:
                more = runner.step(base.clock.getDt())
            except InputError as exc:  # raised again below, after the window and the worker are closed
                app.fail(exc)
                return Task.done
            if not more and not app.done:
                app.quit(0)
        if app.done:
            return Task.done
        return Task.cont

    base.taskMgr.add(tick, "app-tick", sort=-50)
    # Closing the window ends the loop below (ShowBase would call sys.exit() from inside a task).
    base.userExit = lambda: app.quit(0)
    _quit_on_sigterm(app)
    # Run the loop ourselves so quitting returns an exit code instead of calling sys.exit().
    try:
        while not app.done:
            base.taskMgr.step()
            if base.win is not None and not offscreen and base.win.isClosed():
                app.quit(0)
    finally:
        # Whatever stopped the loop, the physics worker is shut down with the window (an error in a task
        # used to leave it and its semaphores to the interpreter's exit).
        app.close()
        base.destroy()
    if app.failure is not None:
        raise app.failure
    if runner is not None:
        for path in runner.log:
            print(tr("demo.saved", settings.lang, path=path))
    sys.stdout.flush()
    return app.exit_code
