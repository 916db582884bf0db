"""Practice positions as scenario files (docs/formats.md §Scenario files), written by hand: the format is small and flat.

``write_scenario`` writes what ``physics.scenario.load_scenario`` reads back: a title, ``game =
"practice"``, the table, ``[balls]`` and the aimed ``[shot]``; round-tripping is tested.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from physics.files import atomic_text
from physics.record import ShotParams


def _num(x: float) -> str:
    if not math.isfinite(x):
        raise ValueError("non-finite number in a position")
    return repr(round(float(x), 6))


def _str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def scenario_text(
    positions: Mapping[str, tuple[float, float]],
    table: str,
    shot: ShotParams | None = None,
    title: str = "Practice",
    game: str = "practice",
) -> str:
    lines = [
        f"title = {{ en = {_str(title)}, ru = {_str(title)} }}",
        f"game = {_str(game)}",
        f"table = {_str(table)}",
        "",
        "[balls]",
    ]
    for ball, (x, y) in sorted(positions.items(), key=lambda kv: _ball_order(kv[0])):
        lines.append(f"{_str(ball)} = [{_num(x)}, {_num(y)}]")
    if shot is not None and shot.ball in positions:
        lines += [
            "",
            "[shot]",
            f"ball = {_str(shot.ball)}",
            f"cue_speed = {_num(shot.cue_speed)}",
            f"direction = {_num(shot.direction % 360.0 if shot.direction > 360 else shot.direction)}",
            f"elevation = {_num(shot.elevation)}",
            f"tip = [{_num(shot.tip[0])}, {_num(shot.tip[1])}]",
        ]
        if shot.cue != "playing":
            lines.append(f"cue = {_str(shot.cue)}")
        if shot.call_ball is not None and shot.call_pocket is not None:
            lines.append(f"call = {{ ball = {_str(shot.call_ball)}, pocket = {_str(shot.call_pocket)} }}")
    return "\n".join(lines) + "\n"


def _ball_order(ball: str) -> tuple[int, int, str]:
    if ball == "cue":
        return (0, 0, ball)
    if ball.isdigit():
        return (1, int(ball), ball)
    return (2, 0, ball)


def write_scenario(
    path: Path,
    positions: Mapping[str, tuple[float, float]],
    table: str,
    shot: ShotParams | None = None,
    title: str = "Practice",
) -> Path:
    """Write the position atomically (physics.files.atomic_text): a full disk is a WriteError and the file
    saved before is left whole."""
    text = scenario_text(positions, table, shot, title)
    atomic_text(path, "position", lambda f: f.write(text), make_folder=True)
    return path


def next_save_path(settings: Any) -> Path:
    """``<data dir>/positions/position-N.toml`` with the first free N (no clock: names are reproducible)."""
    folder = Path(settings.data_dir()) / "positions"
    n = 1
    while (folder / f"position-{n}.toml").exists():
        n += 1
    return folder / f"position-{n}.toml"
