"""Pictures of every table in the player's, top and side views: the README's screenshots and the picture tests.

``python -m scenes.gallery OUT_DIR [--size WxH] [--quality high|low] [--tables ...] [--views ...]`` draws a
practice position on each table (the cue ball, the ball it is aimed at, a few more, a rack where the game has
one) and writes ``<table>-<view>.png`` plus ``gallery.json``: for each picture, where every ball's centre and
its top and bottom landed in pixels and the pockets' centres, so tests can look at measurable properties of the
picture (a highlight on the ball, its shadow on the cloth, round dark pockets, no background showing through)
without comparing exact pixels. ``make screenshots`` runs it for the README.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from panda3d.core import Filename, NodePath

TABLE_IDS = ("pyramid-12ft", "pool-9ft", "snooker-12ft", "snooker-10ft")
VIEWS = ("player", "top", "side", "broadcast")
# A colour no surface of the scene has: any pixel of it is background seen through a hole in the scene.
PROBE_BACKGROUND = (1.0, 0.0, 1.0, 1.0)


def _layout(table_id: str, spec: Any) -> dict[str, tuple[float, float]]:
    """A practice position: cue ball in the head half, the aimed ball towards a foot corner, a few others."""
    R = spec.ball_radius
    hl, hw = spec.half_length, spec.half_width
    if table_id.startswith("snooker"):
        balls = {
            "cue": (-0.55 * hl, 0.18 * hw),
            "red1": (0.35 * hl, 0.30 * hw),
            "black": (spec.spots.get("foot-spot", (0.8 * hl, 0.0))[0], 0.0),
            "pink": (0.50 * hl, 0.0),
            "blue": (0.0, 0.0),
            "yellow": (-0.62 * hl, -0.33 * hw),
            "red2": (0.58 * hl, 0.04 * hw),
            "red3": (0.58 * hl + 2.05 * R, 0.04 * hw + 1.1 * R),
            "red4": (0.58 * hl + 2.05 * R, 0.04 * hw - 1.1 * R),
        }
    elif table_id.startswith("pool"):
        balls = {
            "cue": (-0.50 * hl, 0.20 * hw),
            "9": (0.30 * hl, 0.28 * hw),
            "1": (0.55 * hl, -0.10 * hw),
            "5": (0.05 * hl, -0.45 * hw),
            "8": (0.70 * hl, 0.45 * hw),
            "12": (-0.15 * hl, 0.55 * hw),
            "3": (0.62 * hl, 0.02 * hw),
        }
    else:
        balls = {
            "cue": (-0.52 * hl, 0.22 * hw),
            "7": (0.32 * hl, 0.30 * hw),
            "1": (0.50 * hl, -0.12 * hw),
            "11": (0.05 * hl, -0.42 * hw),
            "4": (0.70 * hl, 0.40 * hw),
            "15": (0.62 * hl, 0.0),
            "9": (0.62 * hl + 1.75 * R, 1.01 * R),
        }
    return balls


def _aimed(table_id: str) -> str:
    return {"pyramid-12ft": "7", "pool-9ft": "9"}.get(table_id, "red1")


def _place_cue(scene: NodePath, spec: Any, balls: dict[str, tuple[float, float]], aim: float) -> NodePath:
    """The cue behind the cue ball as the play screen draws it (``scenes.cue_control.still_cue``)."""
    from scenes.cue_control import CueState, still_cue

    return still_cue(scene, spec, balls, "cue", CueState(aim, 2.0, 4.0), 0.04)


def draw_table(
    base: Any, table_id: str, view: str, size: tuple[int, int], quality: str, background: Any = None
) -> tuple[Any, dict[str, Any]]:
    """One picture and what the tests need to know about it."""
    from physics.tables import load_table
    from scenes.camera import CameraMode, CameraRig
    from scenes.render import OffscreenShot, is_software
    from scenes.table_view import TableView, default_ball_style

    spec = load_table(table_id)
    balls = _layout(table_id, spec)
    R = spec.ball_radius
    scene = NodePath("gallery-scene")
    shot = OffscreenShot(base, scene, size, quality=quality)
    if background is not None:
        shot.set_background(background)
    tv = TableView(scene, spec, list(balls), default_ball_style(table_id), software=is_software(base))
    try:
        for b, (x, y) in balls.items():
            tv.set_ball_state(b, (x, y, R))
        rig = CameraRig(shot.camera, spec, smooth_time=0.0)
        cue, aimed = balls["cue"], balls[_aimed(table_id)]
        aim = math.degrees(math.atan2(aimed[1] - cue[1], aimed[0] - cue[0]))
        if view == "player":
            rig.set_mode(CameraMode.PLAYER, target=(*cue, R), aim=aim)
            a = math.radians(aim)
            shaft = (cue[0] - 0.3 * math.cos(a), cue[1] - 0.3 * math.sin(a), R + 0.03)
            rig.frame([(*cue, 0.0), (*cue, 2 * R), (*aimed, R), shaft], margin=0.12)
            _place_cue(scene, spec, balls, aim)
        elif view == "side":
            rig.set_mode(CameraMode.SIDE, target=(*cue, R))
        else:
            rig.set_mode(CameraMode(view))
        rig.snap()
        image = shot.render()
        info = {
            "table": table_id,
            "view": view,
            "quality": tv.quality,
            "size": list(size),
            "balls": {b: shot.project((x, y, R)) for b, (x, y) in balls.items()},
            "ball_tops": {b: shot.project((x, y, 2 * R)) for b, (x, y) in balls.items()},
            "ball_bottoms": {b: shot.project((x, y, 0.0)) for b, (x, y) in balls.items()},
            "pockets": {pid: shot.project((*p.hole_centre, -0.01)) for pid, p in tv.pockets.items()},
            "pocket_radius": {pid: p.hole_radius for pid, p in tv.pockets.items()},
            "pocket_axis": {pid: _image_axis(shot, p.hole_centre, p.axis) for pid, p in tv.pockets.items()},
            # The centre of each pocket's rim, at the rail top where the rim is (a top view sees the corners'
            # rims a little off their holes' centres).
            "pocket_rims": {
                pid: shot.project((*p.hole_centre, spec.rail_height)) for pid, p in tv.pockets.items()
            },
            "eye": [float(v) for v in rig.eye],
        }
        return image, info
    finally:
        shot.close()
        tv.destroy()
        scene.removeNode()


def _image_axis(shot: Any, centre: tuple[float, float], axis: tuple[float, float]) -> list[float] | None:
    """The pocket's axis (from the bed into the pocket) as a unit vector in the picture."""
    a = shot.project((centre[0], centre[1], -0.01))
    b = shot.project((centre[0] + 0.05 * axis[0], centre[1] + 0.05 * axis[1], -0.01))
    if a is None or b is None:
        return None
    d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return [(b[0] - a[0]) / d, (b[1] - a[1]) / d]


def render_gallery(
    out_dir: Path,
    size: tuple[int, int],
    quality: str = "high",
    tables: tuple[str, ...] = TABLE_IDS,
    views: tuple[str, ...] = VIEWS,
    probe: bool = False,
    write_json: bool = True,
) -> dict[str, Any]:
    """Draw every (table, view) into ``out_dir``; returns (and writes) the gallery.json contents."""
    from scenes.render import make_offscreen_base

    out_dir.mkdir(parents=True, exist_ok=True)
    base = make_offscreen_base((64, 64), quality=quality)
    pictures: dict[str, Any] = {}
    try:
        for table_id in tables:
            for view in views:
                image, info = draw_table(
                    base, table_id, view, size, quality, PROBE_BACKGROUND if probe else None
                )
                name = f"{table_id}-{view}.png"
                image.write(Filename.fromOsSpecific(str(out_dir / name)))
                pictures[name] = info
        renderer = base.win.getGsg().getDriverRenderer() if base.win.getGsg() else "software"
    finally:
        base.destroy()
    data = {"renderer": renderer, "pictures": pictures}
    if write_json:
        (out_dir / "gallery.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return data


def main(argv: list[str]) -> int:
    from scenes.render import parse_size

    p = argparse.ArgumentParser(prog="python -m scenes.gallery", description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--size", default="960x540")
    p.add_argument("--quality", choices=("high", "low"), default="high")
    p.add_argument("--tables", nargs="*", default=list(TABLE_IDS), choices=TABLE_IDS)
    p.add_argument("--views", nargs="*", default=list(VIEWS), choices=VIEWS)
    p.add_argument("--probe", action="store_true", help="magenta background, to find holes in the scene")
    p.add_argument("--no-json", action="store_true", help="only the pictures (the README's)")
    a = p.parse_args(argv)
    data = render_gallery(
        Path(a.out), parse_size(a.size), a.quality, tuple(a.tables), tuple(a.views), a.probe, not a.no_json
    )
    for name in data["pictures"]:
        print(Path(a.out) / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
