"""``python main.py render FILE --out PNG [--at T] [--camera top|side|player] [--size WxH]``.

Loads the scenario, simulates its stroke (or takes its recorded one), and draws the moment ``T`` to a PNG in an
offscreen buffer. With no display at all Panda3D's software renderer (``p3tinydisplay``) draws it; with a display
the OpenGL pipe renders into an offscreen buffer. The engine is configured with ``loadPrcFileData`` before the
ShowBase exists, and the ShowBase is passed around explicitly (no injected builtins).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from panda3d.core import Camera, NodePath, PerspectiveLens, PNMImage, Texture, loadPrcFileData

from physics.errors import InputError
from physics.files import atomic_bytes
from physics.record import ShotRecord
from physics.scenario import Scenario
from rules.scenarios import load_scenario
from scenes.camera import CameraMode, CameraRig
from scenes.look import NO_WINDOW, Shading, pbr_supported
from scenes.replay import ReplayPlayer
from scenes.table_view import BallState, TableView, default_ball_style

SIZE_RE = re.compile(r"^(\d{2,5})x(\d{2,5})$")
MIN_SIZE, MAX_SIZE = 64, 4096
BACKGROUND = (0.05, 0.045, 0.04, 1.0)


def _display_present() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def configure_offscreen(
    size: tuple[int, int] = (320, 240), software: bool | None = None, headless: bool = False
) -> None:
    """Set the engine up for offscreen rendering; call before creating the ShowBase.

    ``software=None`` picks the OpenGL pipe when a display exists and the software renderer otherwise;
    ``headless`` asks for OpenGL without any display (EGL, ``p3headlessgl``), the software renderer staying the
    fallback.
    """
    if software is None:
        software = not _display_present() and not headless
    display = "p3tinydisplay" if software else ("p3headlessgl" if headless else "pandagl")
    loadPrcFileData(
        "billiards-offscreen",
        "\n".join(
            [
                "window-type offscreen",
                f"load-display {display}",
                "aux-display p3tinydisplay",
                f"win-size {size[0]} {size[1]}",
                "audio-library-name null",
                "sync-video false",
                "print-pipe-types false",
                "framebuffer-multisample false",
                # The X11 probe of the software pipe complains when there is no display; that is expected here.
                "notify-level-x11display fatal",
                "notify-level-device fatal",
                "notify-level-display error",
                # EGL prints a harmless line about the default display before it finds the device.
                "notify-level-egldisplay fatal",
                "model-cache-dir",
            ]
        ),
    )


def make_offscreen_base(
    size: tuple[int, int] = (320, 240), software: bool | None = None, quality: str = "low"
) -> Any:
    """A ShowBase with an offscreen main buffer (no window; with the software renderer no display either).

    ``quality="high"`` needs shaders: without a display it asks for headless OpenGL (EGL) and falls back to the
    software renderer (then the picture is the low one) when that cannot start.
    """
    headless = quality == "high" and not _display_present() and software is not True
    if software is None:
        software = not _display_present() and not headless
    configure_offscreen(size, software, headless)
    from direct.showbase.ShowBase import ShowBase

    if headless:
        try:
            return ShowBase(windowType="offscreen")
        except Exception as exc:
            if str(exc) != NO_WINDOW:
                raise
            # no EGL device: the software renderer still draws the low picture
            loadPrcFileData("billiards-offscreen-fallback", "load-display p3tinydisplay")
            software = True
    if software:
        from panda3d.core import GraphicsPipeSelection

        # Pick the software renderer's offscreen pipe directly, so no X11 connection is even attempted.
        sel = GraphicsPipeSelection.getGlobalPtr()
        sel.loadAuxModules()
        for i in range(sel.getNumPipeTypes()):
            if sel.getPipeType(i).getName() == "TinyOffscreenGraphicsPipe":
                base = ShowBase(windowType="none")
                base.pipe = sel.makePipe(sel.getPipeType(i))
                base.openMainWindow(type="offscreen")
                return base
    return ShowBase(windowType="offscreen")


def is_software(base: Any) -> bool:
    """True when ``base`` renders with the software pipe (p3tinydisplay)."""
    return "Tiny" in base.pipe.getType().getName()


class OffscreenShot:
    """An offscreen colour buffer with its own camera, rendering one scene graph to an image.

    Several can share one ShowBase; ``close()`` releases the buffer.
    """

    def __init__(
        self, base: Any, scene: NodePath, size: tuple[int, int], fov: float = 50.0, quality: str = "low"
    ) -> None:
        self.base = base
        self.size = size
        self.shading: Any = None
        self.texture = Texture("offscreen-shot")
        self.buffer = base.win.makeTextureBuffer("offscreen-shot", size[0], size[1], self.texture, True)
        if self.buffer is None:
            raise RuntimeError("could not create an offscreen buffer")
        self.buffer.setClearColor(BACKGROUND)
        self.lens = PerspectiveLens()
        self.lens.setFov(fov)
        self.lens.setAspectRatio(size[0] / size[1])
        self.lens.setNearFar(0.05, 30.0)
        cam = Camera("offscreen-cam", self.lens)
        self.camera = scene.attachNewNode(cam)
        self.region = self.buffer.makeDisplayRegion()
        self.region.setCamera(self.camera)
        if quality == "high" and pbr_supported(base):
            self.shading = Shading(base, scene, self.buffer, self.camera)

    def set_background(self, colour: tuple[float, float, float, float]) -> None:
        """The colour of pixels nothing is drawn on (the room encloses the scene, so normally none)."""
        self.buffer.setClearColor(colour)

    def render(self) -> PNMImage:
        if self.shading is not None:
            # simplepbr updates its inputs from a task; shadow maps are drawn from the frame after they appear.
            self.base.taskMgr.step()
            self.base.taskMgr.step()
        else:
            self.base.graphicsEngine.renderFrame()
        img = PNMImage()
        if not self.texture.store(img):
            raise RuntimeError("the offscreen buffer gave no image")
        return img

    def project(self, point: tuple[float, float, float]) -> tuple[float, float] | None:
        """Pixel (x from the left, y from the top) where a point of the scene lands, or None if off screen."""
        from panda3d.core import Point2, Point3

        p = self.camera.getRelativePoint(self.camera.getParent(), Point3(*point))
        film = Point2()
        if not self.lens.project(p, film):
            return None
        return ((film.x + 1) / 2 * self.size[0], (1 - film.y) / 2 * self.size[1])

    def close(self) -> None:
        if self.shading is not None:
            self.shading.close()
            self.shading = None
        self.base.graphicsEngine.removeWindow(self.buffer)
        self.camera.removeNode()


def parse_size(text: str) -> tuple[int, int]:
    m = SIZE_RE.match(text.strip())
    if not m or not all(MIN_SIZE <= int(v) <= MAX_SIZE for v in m.groups()):
        raise InputError(
            "--size", text, f"WIDTHxHEIGHT in pixels, each {MIN_SIZE}..{MAX_SIZE} (e.g. 960x540)"
        )
    return int(m.group(1)), int(m.group(2))


def stroke_record(scenario: Scenario, settings: Any) -> ShotRecord | None:
    """The stroke to draw: recorded in the file, or simulated now; None if there is no stroke."""
    s = scenario.table
    initial = {b: (x, y, s.ball_radius) for b, (x, y) in scenario.balls.items()}
    if scenario.is_recorded:
        events = scenario.recorded_events or ()
        return ShotRecord(
            table=s.id,
            params={"R": s.ball_radius},
            events=tuple(events),
            final=dict(scenario.recorded_final or {}),
            samples=None,
            initial=initial,
            shot=scenario.shot,
            duration=max([e.t for e in events] + [0.0]),
        )
    if scenario.shot is None:
        return None
    from physics.params import PhysicsParams
    from physics.simulate import simulate

    params = PhysicsParams.for_table(
        s,
        settings.physics.overrides,
        substep_hz=settings.physics.substep_hz,
        max_stroke_seconds=settings.physics.max_stroke_seconds,
    )
    return simulate(
        s,
        dict(scenario.balls),
        scenario.shot,
        params=params,
        objects=scenario.objects,
        lamp=settings.lamp_position,
        sample_hz=settings.physics.sample_hz,
    )


def scene_states(
    scenario: Scenario, record: ShotRecord | None, t: float, view: TableView | None = None
) -> tuple[dict[str, BallState], ReplayPlayer | None]:
    """Ball states at ``t``: from the record's playback, or the initial layout without a stroke."""
    if record is None:
        R = scenario.table.ball_radius
        return {b: BallState((x, y, R)) for b, (x, y) in scenario.balls.items()}, None
    player = ReplayPlayer(record, view)
    player.seek(t)
    return player.states_at(player.t), player


def place_camera(
    rig: CameraRig,
    camera: str,
    scenario: Scenario,
    states: dict[str, BallState],
    view: TableView,
    focus: str | None = None,
) -> None:
    """Point the rig for ``top``, ``side`` (at ball height, on the struck ball where it is at that moment) or
    ``player`` (where the player stood: behind the struck ball's starting place, along the stroke). ``focus``:
    the ball the side view stands on instead of the struck one (a moment that is another ball's)."""
    shot = scenario.shot
    ball = shot.ball if shot is not None else ("cue" if "cue" in states else next(iter(states)))
    if focus is not None and focus in states and camera == "side":
        ball = focus
    st = states.get(ball) or next(iter(states.values()))
    if camera == "player" and ball in scenario.balls:
        x, y = scenario.balls[ball]
        st = BallState((x, y, scenario.table.ball_radius))
    view.set_lamp_visible(camera != "top")
    if camera == "top":
        rig.set_mode(CameraMode.TOP)
        # A ball off the table (on the floor, the rail, by a wall) is part of the picture.
        s = scenario.table
        off = [
            b.pos
            for b in states.values()
            if b.visible and (abs(b.pos[0]) > s.half_length or abs(b.pos[1]) > s.half_width)
        ]
        if off:
            rig.frame(off)
        rig.snap()
    elif camera == "side":
        rig.set_mode(CameraMode.SIDE, target=st.pos, snap=True)
    else:
        if shot is not None:
            aim = shot.direction
        else:
            # No stroke: look from the ball towards the table's centre.
            aim = math.degrees(math.atan2(-st.pos[1], -st.pos[0])) if math.hypot(*st.pos[:2]) > 1e-6 else 0.0
        rig.set_mode(CameraMode.PLAYER, target=st.pos, aim=aim)
        # Framed as a player sees the shot: the cue ball and the ball it is aimed at (or the cushion).
        from scenes.cue_control import aim_hit

        R = scenario.table.ball_radius
        hit = aim_hit(scenario.table, dict(scenario.balls), ball, aim) if ball in scenario.balls else None
        if hit is not None:
            far = scenario.balls.get(hit.ball, hit.end) if hit.ball else hit.end
            a = math.radians(aim)
            # The near part of the cue's shaft too, as the player sees it down the cue (the play screen's framing).
            shaft = (st.pos[0] - 0.3 * math.cos(a), st.pos[1] - 0.3 * math.sin(a), R + 0.03)
            rig.frame(
                [(st.pos[0], st.pos[1], 0.0), (st.pos[0], st.pos[1], 2 * R), (far[0], far[1], R), shaft], 0.15
            )
        rig.snap()


@dataclass(frozen=True)
class Drawn:
    """A rendered moment: the image, and where each visible ball's centre landed in it (pixels from top-left)."""

    image: PNMImage
    balls: dict[str, tuple[float, float] | None]
    states: dict[str, BallState]


def draw_scenario(
    base: Any,
    scenario: Scenario,
    record: ShotRecord | None,
    t: float,
    camera: str,
    size: tuple[int, int],
    lamp: tuple[float, float, float] = (0.0, 0.0, 1.0),
    quality: str = "low",
    focus: str | None = None,
    mark: Sequence[float] | None = None,
) -> Drawn:
    """Render one moment of a scenario with a fresh scene (nothing is left behind afterwards). ``focus``: the
    ball the side view stands on; ``mark``: a point (x, y[, z]) ringed on the table (where the moment is)."""
    scene = NodePath("render-scene")
    balls = list(scenario.balls)
    if record is not None and record.samples:
        balls += [b for b in record.samples if b not in balls]
    shot = OffscreenShot(base, scene, size, quality=quality)
    view = TableView(
        scene,
        scenario.table,
        balls,
        default_ball_style(scenario.table.id),
        lamp=lamp,
        objects=scenario.objects,
        software=is_software(base),
    )
    try:
        states, _ = scene_states(scenario, record, t, view)
        view.set_balls(states)
        rig = CameraRig(shot.camera, scenario.table, smooth_time=0.0)
        place_camera(rig, camera, scenario, states, view, focus)
        if focus is not None and focus in states and states[focus].visible:
            view.highlight(focus, (1.0, 0.85, 0.1, 1.0), key="moment-ball")
        elif mark is not None:
            view.highlight(mark, (1.0, 0.85, 0.1, 1.0), key="moment-point")
        sc = scenario.shot
        if camera == "player" and sc is not None and t <= 0.0 and sc.ball in scenario.balls:
            # Before the strike the player's view shows the cue as the player holds it for this shot.
            from scenes.cue_control import CueState, still_cue

            still_cue(
                scene,
                scenario.table,
                dict(scenario.balls),
                sc.ball,
                CueState(sc.direction, sc.cue_speed, sc.elevation, sc.tip),
            )
        image = shot.render()
        where = {b: shot.project(s.pos) for b, s in states.items() if s.visible}
        return Drawn(image, where, states)
    finally:
        shot.close()
        view.destroy()
        scene.removeNode()


def write_png(img: PNMImage, path: Path, key: str = "--out") -> None:
    """The picture to ``path`` as a PNG, atomically (physics.files): a full disk is one line naming the file,
    and the old picture stays. Panda3D writing in place left an empty file and only printed its error."""
    from panda3d.core import StringStream

    encoded = StringStream()
    if not img.write(encoded, "picture.png"):
        raise RuntimeError("Panda3D could not encode the picture as PNG")
    atomic_bytes(path, key, bytes(encoded.getData()))


def render_command(args: Any, settings: Any) -> int:
    """The ``render`` command (main.py): exit 0, or an :class:`InputError` for bad input (exit 2)."""
    size = parse_size(str(args.size))
    t = args.at
    if t is None:
        t = 0.0
    if not isinstance(t, (int, float)) or not math.isfinite(t) or t < 0:
        raise InputError("--at", str(t), "a time in seconds >= 0")
    if args.out is None:
        raise InputError("--out", "", "a PNG path to write (or --video OUT.mp4 for the whole stroke)")
    if args.camera == "follow":
        raise InputError("--camera", "follow", "top, side or player for a picture (follow is for --video)")
    out = Path(args.out)
    if out.suffix.lower() != ".png":
        raise InputError("--out", str(out), "a path ending in .png")
    if not out.parent.exists():
        raise InputError("--out", str(out), f"a path in an existing folder ({out.parent} does not exist)")
    scenario = load_scenario(args.file)
    record = stroke_record(scenario, settings)
    quality = getattr(args, "quality", None) or settings.display.quality
    base = make_offscreen_base((64, 64), quality=quality)
    try:
        img = draw_scenario(
            base, scenario, record, float(t), args.camera, size, settings.lamp_position, quality
        ).image
        write_png(img, out)
    finally:
        base.destroy()
    print(str(out))
    return 0
