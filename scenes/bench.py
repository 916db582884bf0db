"""Frame-time benchmark (``python main.py bench``): physics and scene update shares of a 60 Hz frame.

A pool break with all 16 balls is simulated, then played back frame by frame on an offscreen table view:

- physics: the stroke is simulated ahead (docs/architecture.md), so its cost per shown frame is the simulation time divided
  by the number of 60 Hz frames the stroke spans;
- scene: per frame, the replay sets the 16 ball transforms (and their shadows), the camera rig glides, and Panda3D
  traverses the scene graph (its cull pass, timed through a display-region cull callback);
- draw: the rest of the frame (vertex processing and rasterising), reported separately with the renderer that did
  it: on the software renderer (no display) it is CPU work a GPU does, so it is not part of the bar.

The bar is physics + scene < half a frame (8.33 ms). Times are this thread's CPU time (``time.thread_time``):
on a machine shared with other work a wall clock counts their time too, while a frame's own cost is what the
bar is about (the wall-clock figures are reported beside them).
"""

from __future__ import annotations

import math
import time
from typing import Any

FRAME_MS = 1000.0 / 60.0
BREAK_SPEED = 8.0  # m/s at the cue: a firm pool break (docs/physics.md §Cues: break 11-13)


def _break_stroke() -> tuple[Any, dict[str, tuple[float, float]], Any]:
    from physics.racks import BENCH_POOL, initial_layout
    from physics.record import ShotParams
    from physics.tables import load_table

    spec = load_table("pool-9ft")
    layout = initial_layout(BENCH_POOL, spec, seed=1)
    cue = layout["cue"]
    apex = layout["1"] if "1" in layout else spec.spots["foot-spot"]
    direction = math.degrees(math.atan2(apex[1] - cue[1], apex[0] - cue[0]))
    return spec, layout, ShotParams(ball="cue", cue_speed=BREAK_SPEED, direction=direction, elevation=2.0)


def _moving(record: Any, t: float) -> int:
    """How many balls move at t (from the samples: speed above 1 mm/s)."""
    n = 0
    for rows in (record.samples or {}).values():
        for row in rows:
            if row[0] >= t:
                if math.hypot(row[4], row[5], row[6]) > 1e-3:
                    n += 1
                break
    return n


def frame_bench(settings: Any, base: Any = None, frames: int = 120) -> dict[str, Any]:
    """Measure the figures above; ``base`` reuses a ShowBase (tests), else an offscreen one is made and destroyed.

    Returns milliseconds per frame and shares of a 60 Hz frame; ``ok`` is the bar.
    """
    from panda3d.core import NodePath, PythonCallbackObject

    from physics.params import PhysicsParams
    from physics.simulate import simulate
    from scenes.camera import CameraMode, CameraRig
    from scenes.render import OffscreenShot, is_software, make_offscreen_base
    from scenes.replay import ReplayPlayer
    from scenes.table_view import TableView

    spec, layout, shot = _break_stroke()
    params = PhysicsParams.for_table(
        spec,
        settings.physics.overrides,
        substep_hz=settings.physics.substep_hz,
        max_stroke_seconds=settings.physics.max_stroke_seconds,
    )
    t0, w0 = time.thread_time(), time.perf_counter()
    record = simulate(spec, layout, shot, params=params, lamp=settings.lamp_position, sample_hz=60.0)
    sim_s, sim_wall = time.thread_time() - t0, time.perf_counter() - w0
    stroke_frames = max(1, math.ceil(record.duration * 60.0))
    physics_ms = sim_s * 1000.0 / stroke_frames

    own = base is None
    if own:
        base = make_offscreen_base((320, 180))
    scene = NodePath("bench-scene")
    view = TableView(
        scene, spec, list(layout), "pool", lamp=settings.lamp_position, software=is_software(base)
    )
    shot_buf = OffscreenShot(base, scene, (320, 180))
    try:
        player = ReplayPlayer(record, view)
        rig = CameraRig(shot_buf.camera, spec)
        rig.set_mode(CameraMode.ORBIT, target=layout["cue"], yaw=200.0, pitch=35.0, distance=2.4, snap=True)
        cull_s = [0.0]

        def timed_cull(cbdata: Any) -> None:
            # Panda3D's own cull traversal, timed: the "render traversal" part of the scene update.
            a = time.thread_time()
            cbdata.upcall()
            cull_s[0] += time.thread_time() - a

        shot_buf.region.setCullCallback(PythonCallbackObject(timed_cull))
        shot_buf.render()  # first frame: textures and geometry go to the renderer once
        cull_s[0] = 0.0
        n = min(frames, stroke_frames)
        update_s = render_s = 0.0
        moving = 0
        w0 = time.perf_counter()
        for _ in range(n):
            a = time.thread_time()
            player.update(1.0 / 60.0)
            cue = player.state_at("cue", player.t)
            rig.set_target(cue.pos)
            rig.update(1.0 / 60.0)
            b = time.thread_time()
            base.graphicsEngine.renderFrame()
            c = time.thread_time()
            update_s += b - a
            render_s += c - b
            moving += _moving(record, player.t)
        frame_wall_ms = (time.perf_counter() - w0) * 1000.0 / n
        cull_ms = cull_s[0] * 1000.0 / n
        scene_ms = update_s * 1000.0 / n + cull_ms
        draw_ms = render_s * 1000.0 / n - cull_ms
        share = (physics_ms + scene_ms) / FRAME_MS
        return {
            "renderer": base.pipe.getType().getName(),
            "balls": len(layout),
            "mean_moving_balls": round(moving / n, 2),
            "frames_measured": n,
            "stroke_seconds": round(record.duration, 3),
            "physics_ms_per_frame": round(physics_ms, 3),
            "scene_update_ms": round(scene_ms, 3),
            "cull_traversal_ms": round(cull_ms, 3),
            "draw_ms": round(draw_ms, 3),
            "physics_share": round(physics_ms / FRAME_MS, 4),
            "scene_share": round(scene_ms / FRAME_MS, 4),
            "physics_plus_scene_share": round(share, 4),
            "ok": share < 0.5,
            "clock": "thread CPU time",
            "wall_physics_ms_per_frame": round(sim_wall * 1000.0 / stroke_frames, 3),
            "wall_frame_ms": round(frame_wall_ms, 3),
        }
    finally:
        shot_buf.close()
        view.destroy()
        scene.removeNode()
        if own:
            base.destroy()


def format_frame_bench(r: dict[str, Any], lang: str = "en") -> str:
    """The frame figures as text lines in the UI language (for ``bench`` without ``--json``)."""
    from scenes.core.i18n import tr

    return "\n".join(
        [
            tr(
                "bench.frame.title",
                lang,
                renderer=r["renderer"],
                balls=r["balls"],
                moving=r["mean_moving_balls"],
            ),
            tr(
                "bench.frame.physics",
                lang,
                ms=f"{r['physics_ms_per_frame']:.2f}",
                share=f"{100 * r['physics_share']:.1f}",
            ),
            tr(
                "bench.frame.scene",
                lang,
                ms=f"{r['scene_update_ms']:.2f}",
                share=f"{100 * r['scene_share']:.1f}",
                cull=f"{r['cull_traversal_ms']:.2f}",
            ),
            tr(
                "bench.frame.sum_within" if r["ok"] else "bench.frame.sum_over",
                lang,
                share=f"{100 * r['physics_plus_scene_share']:.1f}",
            ),
            tr("bench.frame.draw", lang, ms=f"{r['draw_ms']:.2f}"),
        ]
    )


QUALITY_SIZES = ((640, 360), (1280, 720), (1920, 1080))


def _timed_frames(base: Any, shot: Any, frames: int) -> list[float]:
    """Wall milliseconds of each frame: rendered and finished (the image read back, so the GPU's or the
    software rasteriser's work is inside the time)."""
    out = []
    for _ in range(frames):
        a = time.perf_counter()
        if shot.shading is not None:
            base.taskMgr.step()
        else:
            base.graphicsEngine.renderFrame()
        base.graphicsEngine.syncFrame()
        out.append((time.perf_counter() - a) * 1000.0)
    return out


def quality_bench(
    settings: Any, sizes: tuple[tuple[int, int], ...] = QUALITY_SIZES, frames: int = 12
) -> dict[str, Any]:
    """Frame time of the pool table with 16 balls in the player's view at both qualities and each size.

    One ShowBase on the OpenGL pipe this process can have (an X display when there is one, else headless EGL);
    the median of ``frames`` frames after three warm-up frames (shaders compiled, shadow maps made).
    """
    import statistics

    from panda3d.core import NodePath

    from scenes.camera import CameraMode, CameraRig
    from scenes.render import OffscreenShot, make_offscreen_base
    from scenes.table_view import TableView

    spec, layout, shot_params = _break_stroke()
    base = make_offscreen_base((64, 64), quality="high")
    out: dict[str, Any] = {"renderer": base.win.getGsg().getDriverRenderer(), "results": []}
    try:
        for quality in ("low", "high"):
            for size in sizes:
                scene = NodePath("quality-bench")
                shot = OffscreenShot(base, scene, size, quality=quality)
                view = TableView(scene, spec, list(layout), "pool", lamp=settings.lamp_position)
                for b, (x, y) in layout.items():
                    view.set_ball_state(b, (x, y, spec.ball_radius))
                rig = CameraRig(shot.camera, spec, smooth_time=0.0)
                rig.set_mode(CameraMode.PLAYER, target=(*layout["cue"], spec.ball_radius), aim=0.0, snap=True)
                try:
                    _timed_frames(base, shot, 3)
                    n = max(3, frames if size[0] < 1900 else frames // 2)
                    times = _timed_frames(base, shot, n)
                    out["results"].append(
                        {
                            "quality": view.quality,
                            "size": f"{size[0]}x{size[1]}",
                            "frames": n,
                            "median_ms": round(statistics.median(times), 1),
                            "fps": round(1000.0 / statistics.median(times), 1),
                        }
                    )
                finally:
                    shot.close()
                    view.destroy()
                    scene.removeNode()
    finally:
        base.destroy()
    return out


def quality_bench_in_process(settings_path: str | None = None, timeout: float = 900.0) -> dict[str, Any]:
    """:func:`quality_bench` in a fresh process (a process holds one ShowBase; the frame bench has its own)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    cmd = [sys.executable, "-m", "scenes.bench"]
    if settings_path:
        cmd += ["--settings", settings_path]
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return dict(json.loads(proc.stdout))


def format_quality_bench(r: dict[str, Any], lang: str = "en") -> str:
    from scenes.core.i18n import tr

    if "error" in r:
        return tr("bench.quality.error", lang, error=r["error"])
    lines = [tr("bench.quality.title", lang, renderer=r["renderer"])]
    for row in r["results"]:
        quality = tr(f"quality.{row['quality']}", lang)
        lines.append(
            tr(
                "bench.quality.row",
                lang,
                quality=f"{quality:>8}",
                size=f"{row['size']:>10}",
                ms=f"{row['median_ms']:8.1f}",
                fps=f"{row['fps']:.1f}",
            )
        )
    return "\n".join(lines)


if __name__ == "__main__":
    import argparse
    import json as _json

    from scenes.core.settings import load_settings

    _p = argparse.ArgumentParser(prog="python -m scenes.bench")
    _p.add_argument("--settings")
    _p.add_argument("--frames", type=int, default=12)
    _a = _p.parse_args()
    print(_json.dumps(quality_bench(load_settings(_a.settings), frames=_a.frames)))
