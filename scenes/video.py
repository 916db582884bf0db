"""A stroke rendered offscreen to a video: ``python main.py render FILE --video OUT.mp4``.

``OUT.mp4`` is H.264 (yuv420p, plays everywhere), ``OUT.gif`` and ``OUT.webp`` are animations for sharing.
The stroke is the scenario's own (simulated now, or recorded in the file); every frame is the recording
played back at ``--speed`` (0.25 = four times slower than life) at ``--fps`` frames per second of video,
seen from ``--camera`` (``side`` follows the struck ball across the table at ball height, ``top`` shows the
whole table, ``player`` stands where the player stood, ``follow`` trails the struck ball). A progress bar
goes to stderr.

Encoding is PyAV's: its wheel brings its own FFmpeg (libx264, gif, libwebp), frames go from the render
buffer's RAM image to the encoder without a subprocess or a temporary file (see the commit that added it
for the measurement against imageio-ffmpeg).
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from physics.errors import InputError
from physics.files import atomic_path

VIDEO_CAMERAS = ("side", "top", "player", "follow")
FORMATS = {".mp4": "libx264", ".gif": "gif", ".webp": "libwebp_anim"}
SPEED_RANGE = (0.01, 4.0)
FPS_RANGE = (5, 120)
MAX_FRAMES = 20000  # ~11 minutes at 30 fps: a slow-motion break fits, a typo in --speed does not
TAIL_S = 0.5  # of video after the last ball stops, so the end position can be seen


@dataclass(frozen=True)
class VideoPlan:
    """How many frames of which moments: frame k shows the stroke at ``min(k * step, duration)``."""

    frames: int
    step: float  # seconds of the stroke per frame
    fps: int
    duration: float

    def t(self, k: int) -> float:
        return min(self.duration, k * self.step)


def plan(duration: float, speed: float, fps: int) -> VideoPlan:
    """Frames for a stroke of ``duration`` seconds at ``speed`` (1 = real time) and ``fps``."""
    step = speed / fps
    frames = int(math.ceil(duration / step)) + 1 + int(round(TAIL_S * fps))
    return VideoPlan(frames, step, fps, duration)


def check_video_args(out: Path, speed: float, fps: int) -> str:
    """The encoder for ``out``; InputError (one line, exit 2) for a bad path or number."""
    codec = FORMATS.get(out.suffix.lower())
    if codec is None:
        raise InputError("--video", str(out), f"a path ending in {', '.join(FORMATS)}")
    if not out.parent.exists():
        raise InputError("--video", str(out), f"a path in an existing folder ({out.parent} does not exist)")
    if out.is_dir():
        raise InputError("--video", str(out), "a video file path, not a folder")
    if not (math.isfinite(speed) and SPEED_RANGE[0] <= speed <= SPEED_RANGE[1]):
        raise InputError("--speed", str(speed), f"a playback rate from {SPEED_RANGE[0]} to {SPEED_RANGE[1]}")
    if not FPS_RANGE[0] <= fps <= FPS_RANGE[1]:
        raise InputError("--fps", str(fps), f"a frame rate from {FPS_RANGE[0]} to {FPS_RANGE[1]}")
    return codec


class Encoder:
    """Frames (H x W x 3 uint8 arrays) into a video file with PyAV."""

    def __init__(self, path: Path, codec: str, size: tuple[int, int], fps: int) -> None:
        import av

        self.container = av.open(str(path), mode="w")
        w, h = size
        stream = self.container.add_stream(codec, rate=fps)
        # A codec name typed as str may name any kind of stream; every one in FORMATS is a video codec.
        if not isinstance(stream, av.VideoStream):
            raise TypeError(f"codec {codec!r} makes a {type(stream).__name__}, not a video stream")
        self.stream = stream
        self.stream.width, self.stream.height = w, h
        if codec == "libx264":
            self.stream.pix_fmt = "yuv420p"  # what every player decodes
            self.stream.options = {"crf": "20", "preset": "veryfast"}
        elif codec == "gif":
            self.stream.pix_fmt = "rgb8"
        else:
            self.stream.pix_fmt = "yuv420p"
            self.stream.options = {"loop": "0", "quality": "80"}
        self.frames = 0

    def write(self, rgb: Any) -> None:
        import av

        frame = av.VideoFrame.from_ndarray(rgb, format="rgb24")
        for packet in self.stream.encode(frame):
            self.container.mux(packet)
        self.frames += 1

    def close(self) -> None:
        for packet in self.stream.encode():
            self.container.mux(packet)
        self.container.close()

    def abandon(self) -> None:
        """Close without flushing the encoder: after a failed write (a full disk) FFmpeg crashes when asked to
        mux what it still holds. The file is partial; the caller removes it."""
        self.container.close()


def progress_bar(done: int, total: int, width: int = 30) -> str:
    filled = int(width * done / max(1, total))
    return f"[{'#' * filled}{'-' * (width - filled)}] {100 * done // max(1, total):3d}% {done}/{total}"


def render_video(
    base: Any,
    scenario: Any,
    record: Any,
    out: Path,
    camera: str,
    size: tuple[int, int],
    speed: float,
    fps: int,
    lamp: tuple[float, float, float] = (0.0, 0.0, 1.0),
    progress: Callable[[int, int], None] | None = None,
    quality: str = "low",
) -> VideoPlan:
    """Render ``record`` (a ShotRecord with samples) of ``scenario`` to ``out``; returns the plan it followed."""
    from panda3d.core import NodePath

    from scenes.render import OffscreenShot, is_software
    from scenes.replay import ReplayPlayer
    from scenes.table_view import TableView, default_ball_style

    codec = FORMATS[out.suffix.lower()]
    scene = NodePath("video-scene")
    balls = list(dict.fromkeys([*scenario.balls, *(record.samples or {})]))
    # The shot first: its shading marks the scene high, and the table is built for the quality it is drawn at.
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
    player = ReplayPlayer(record, view)
    p = plan(player.duration, speed, fps)
    if p.frames > MAX_FRAMES:
        raise InputError(
            "--speed", str(speed), f"a rate giving at most {MAX_FRAMES} frames (this: {p.frames})"
        )
    struck = scenario.shot.ball if scenario.shot is not None else "cue"
    # Into a temporary file beside ``out``, renamed onto it when the last frame is in: a kill, Ctrl-C, a
    # full disk or a cancelled export leaves an older ``out`` as it was (physics.files.atomic_path).
    try:
        with atomic_path(out, "--video") as tmp:
            enc = Encoder(tmp, codec, size, fps)
            _encode(shot, view, player, p, scenario, enc, camera, struck, size, progress)
    finally:
        shot.close()
        view.destroy()
        scene.removeNode()
    return p


def _encode(
    shot: Any,
    view: Any,
    player: Any,
    p: VideoPlan,
    scenario: Any,
    enc: Encoder,
    camera: str,
    struck: str,
    size: tuple[int, int],
    progress: Callable[[int, int], None] | None,
) -> None:
    """Every frame of plan ``p`` drawn and encoded; the encoder closed whatever happens (its file is then
    renamed into place or removed by the caller)."""
    import numpy as np

    from scenes.camera import CameraMode, CameraRig
    from scenes.render import place_camera

    fps = p.fps
    try:
        rig = CameraRig(shot.camera, scenario.table, smooth_time=0.0 if camera in ("top", "player") else 0.4)
        place_camera(rig, "side" if camera == "follow" else camera, scenario, player.states_at(0.0), view)
        if camera == "follow":
            aim = scenario.shot.direction if scenario.shot is not None else 0.0
            rig.set_mode(CameraMode.FOLLOW, target=player.state_at(struck, 0.0).pos, aim=aim, snap=True)
        for k in range(p.frames):
            player.seek(p.t(k))
            if camera in ("side", "follow"):
                rig.set_target(player.state_at(struck, player.t).pos)
                rig.update(1.0 / fps)
            if shot.shading is not None:
                shot.base.taskMgr.step()  # simplepbr updates its inputs from a task, then draws
            else:
                shot.base.graphicsEngine.renderFrame()
            tex = shot.texture
            data = np.frombuffer(bytes(tex.getRamImageAs("RGB")), dtype=np.uint8)
            img = data.reshape(tex.getYSize(), tex.getXSize(), 3)[::-1, : size[0]][-size[1] :]
            enc.write(np.ascontiguousarray(img[: size[1], : size[0]]))
            if progress is not None:
                progress(k + 1, p.frames)
    except BaseException:
        enc.abandon()
        raise
    enc.close()


def video_command(args: Any, settings: Any) -> int:
    """``render FILE --video OUT [--speed S] [--fps N] [--camera C] [--size WxH]`` (main.py)."""
    from rules.scenarios import load_scenario
    from scenes.render import make_offscreen_base, parse_size, stroke_record

    size = parse_size(str(args.size))
    if size[0] % 2 or size[1] % 2:
        raise InputError("--size", str(args.size), "even width and height (H.264 needs them)")
    out = Path(args.video)
    speed, fps = float(args.speed), int(args.fps)
    check_video_args(out, speed, fps)
    camera = str(args.camera)
    if camera not in VIDEO_CAMERAS:
        raise InputError("--camera", camera, f"one of {', '.join(VIDEO_CAMERAS)}")
    scenario = load_scenario(args.file)
    if scenario.is_recorded or scenario.shot is None:
        raise InputError(args.file, "shot", "a [shot] to simulate (a video needs the sampled stroke)")
    record = stroke_record(scenario, settings)
    if record is None:
        raise InputError(args.file, "shot", "a stroke the physics can simulate")
    tty = sys.stderr.isatty()

    def show(done: int, total: int) -> None:
        if tty or done == total or done % max(1, total // 10) == 0:
            end = "\n" if done == total else ("\r" if tty else "\n")
            print(f"render: {progress_bar(done, total)}", end=end, file=sys.stderr, flush=True)

    quality = getattr(args, "quality", None) or settings.display.quality
    _stop_on_sigterm()
    base = make_offscreen_base((64, 64), quality=quality)
    try:
        render_video(
            base, scenario, record, out, camera, size, speed, fps, settings.lamp_position, show, quality
        )
    finally:
        base.destroy()
    print(str(out))
    return 0


def _stop_on_sigterm() -> None:
    """SIGTERM (the window cancelling an export, a shutdown) unwinds like Ctrl-C: the temporary video is
    removed and the old file kept, where the default action would end the process on the spot."""
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)


class ExportJob:
    """A stroke exported to a video in the background (the window stays responsive): the stroke is written as
    a scenario (positions before, the shot, the table) and rendered by ``main.py render --video`` in a child
    process; the physics is deterministic, so it simulates the very stroke that was played."""

    def __init__(
        self,
        record: Any,
        settings: Any,
        out: Path,
        camera: str = "side",
        speed: float = 0.25,
        fps: int = 30,
        size: str = "960x540",
        quality: str | None = None,
    ) -> None:
        from scenes.core.practice import write_scenario

        if record.shot is None:
            raise ValueError("the stroke has no shot to simulate")
        import tempfile

        self.out = out
        out.parent.mkdir(parents=True, exist_ok=True)
        # The stroke's scenario is the child's input, not a result: it lives in a folder of its own that
        # goes when the export ends, however it ends (no stray .toml beside the video).
        self._folder = Path(tempfile.mkdtemp(prefix="billiards3d-export-"))
        self.scenario = self._folder / f"{out.stem}.toml"
        positions = {b: (float(p[0]), float(p[1])) for b, p in record.initial.items()}
        main = Path(__file__).resolve().parent.parent / "main.py"
        cmd = [sys.executable, str(main)]
        if getattr(settings, "path", None) and Path(settings.path).exists():
            cmd += ["--settings", str(settings.path)]
        cmd += ["render", str(self.scenario), "--video", str(out), "--speed", str(speed), "--fps", str(fps)]
        cmd += ["--camera", camera if camera in VIDEO_CAMERAS else "side", "--size", size]
        if quality is not None:  # else the settings' [display] quality, as the window draws
            cmd += ["--quality", quality]
        try:
            write_scenario(self.scenario, positions, record.table, record.shot, title=out.stem)
            self.proc = subprocess.Popen(
                cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, bufsize=1
            )
        except BaseException:
            self._clean()
            raise
        self.progress = 0.0
        self.error: str | None = None
        self._tail = ""
        import threading

        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        import re

        assert self.proc.stderr is not None
        for chunk in iter(lambda: self.proc.stderr.read(64) if self.proc.stderr else "", ""):
            self._tail = (self._tail + chunk)[-400:]
            m = re.findall(r"(\d+)/(\d+)", self._tail)
            if m:
                done, total = m[-1]
                self.progress = int(done) / max(1, int(total))

    def poll(self) -> bool:
        """True once the child has finished (``error`` says why if it failed)."""
        code = self.proc.poll()
        if code is None:
            return False
        self._reader.join(timeout=1.0)
        self._clean()
        if code != 0:
            lines = [ln for ln in self._tail.replace("\r", "\n").splitlines() if ln and "render:" not in ln]
            self.error = lines[-1] if lines else f"exit {code}"
        return True

    def cancel(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:  # it did not stop when asked
                self.proc.kill()
                self.proc.wait()
        self._clean()

    def _clean(self) -> None:
        import shutil

        shutil.rmtree(self._folder, ignore_errors=True)
