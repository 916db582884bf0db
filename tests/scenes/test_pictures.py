"""Pictures of every table in the player's, top and side views, looked at for what a player would notice.

The pictures come from ``scenes.gallery`` in a fresh process: with high quality and no display it draws with
real shaders through headless OpenGL (EGL), and under Xvfb through a real X connection. What is checked are
measurable properties, not exact pixels:

- a ball shows a highlight (its brightest pixel well above its body's median) and a shadow (the cloth right
  beside where it touches the bed darker than the cloth a few radii away);
- pockets read as round dark holes from above: dark at the centre and about as wide one way as the other;
- no background shows through the scene anywhere (the buffer is cleared to magenta, which no surface is);
- the low quality (software renderer) still draws every table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from statistics import median
from typing import Any

import pytest
from panda3d.core import Filename, PNMImage

from tests.scenes.test_window_e2e import xvfb as xvfb_display  # noqa: F401 (a fixture, used by name)

ROOT = Path(__file__).resolve().parents[2]
TABLES = ("pyramid-12ft", "pool-9ft", "snooker-12ft", "snooker-10ft")
VIEWS = ("player", "top", "side")
SIZE = "256x144"

pytestmark = pytest.mark.slow  # renders every table at both qualities


def _gallery(
    out: Path,
    quality: str,
    env_extra: dict[str, str],
    views: tuple[str, ...] = VIEWS,
    tables: tuple[str, ...] = TABLES,
) -> Any:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(env_extra)
    cmd = [sys.executable, "-m", "scenes.gallery", str(out), "--size", SIZE, "--quality", quality]
    cmd += ["--views", *views, "--tables", *tables, "--probe"]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads((out / "gallery.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def high(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    out = tmp_path_factory.mktemp("gallery-high")
    data = _gallery(out, "high", {})
    if not any(p["quality"] == "high" for p in data["pictures"].values()):
        pytest.skip(f"no OpenGL with shaders here ({data['renderer']}): the high quality cannot be drawn")
    return out, data


def _image(out: Path, name: str) -> PNMImage:
    img = PNMImage()
    assert img.read(Filename.fromOsSpecific(str(out / name))), name
    return img


def _lum(img: PNMImage, x: float, y: float) -> float:
    xi = min(max(int(x), 0), img.getXSize() - 1)
    yi = min(max(int(y), 0), img.getYSize() - 1)
    r, g, b = img.getXel(xi, yi)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _magenta(img: PNMImage) -> int:
    n = 0
    for y in range(0, img.getYSize(), 2):
        for x in range(img.getXSize()):
            r, g, b = img.getXel(x, y)
            if r > 0.5 and b > 0.5 and g < 0.25:
                n += 1
    return n


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("view", VIEWS)
def test_no_background_shows_through_the_scene(high: tuple[Path, Any], table: str, view: str) -> None:
    out, _ = high
    assert _magenta(_image(out, f"{table}-{view}.png")) == 0


@pytest.mark.parametrize("table", TABLES)
def test_the_cue_ball_shows_a_highlight_and_a_shadow(high: tuple[Path, Any], table: str) -> None:
    _check_highlight_and_shadow(*high, table)


def _check_highlight_and_shadow(out: Path, data: Any, table: str) -> None:
    name = f"{table}-player.png"
    info = data["pictures"][name]
    img = _image(out, name)
    (cx, cy), (_, ty), (bx, by) = info["balls"]["cue"], info["ball_tops"]["cue"], info["ball_bottoms"]["cue"]
    r_px = abs(by - ty) / 2
    assert r_px > 6, "the player's view shows the cue ball large enough to look at"
    body = [
        _lum(img, cx + dx * r_px * 0.8, cy + dy * r_px * 0.8)
        for dx in (-0.6, -0.3, 0.0, 0.3, 0.6)
        for dy in (-0.6, -0.3, 0.0, 0.3, 0.6)
    ]
    peak = max(
        _lum(img, x, y) for x in range(int(cx - r_px), int(cx + r_px) + 1) for y in range(int(ty), int(cy))
    )
    assert peak > median(body) + 0.12, (peak, median(body))
    # The shadow: the cloth just below the ball's outline, where it touches the bed (the lamp is over the table,
    # so the shadow lies under the ball), against the cloth a few radii to either side.
    below = [
        _lum(img, x, y)
        for x in range(int(bx - 0.6 * r_px), int(bx + 0.6 * r_px) + 1)
        for y in range(int(by) + 1, int(by + r_px) + 1)
    ]
    far = median(_lum(img, bx + s * k * r_px, by + 0.5 * r_px) for s in (-1, 1) for k in (3.5, 4.5))
    # Measured here: 0.81-0.94 of the open cloth (several bulbs soften it, as under a real lamp).
    assert min(below) < 0.95 * far, (min(below), far)


# The pool and snooker wells are the physics' rectangular drop boxes until the plan view of physics/geometry
# (issue 13) gives the round pockets to draw from; the pyramid's already read round.
SQUARE_WELLS = pytest.mark.xfail(strict=True, reason="square wells until the geometry plan view lands")


@pytest.mark.parametrize(
    "table",
    [
        "pyramid-12ft",
        pytest.param("pool-9ft", marks=SQUARE_WELLS),
        pytest.param("snooker-12ft", marks=SQUARE_WELLS),
        pytest.param("snooker-10ft", marks=SQUARE_WELLS),
    ],
)
def test_pockets_read_as_round_dark_holes_from_above(high: tuple[Path, Any], table: str) -> None:
    out, data = high
    name = f"{table}-top.png"
    info = data["pictures"][name]
    img = _image(out, name)
    w = img.getXSize()
    for pid, centre in info["pockets"].items():
        assert centre is not None, pid
        x, y = centre
        assert _lum(img, x, y) < 0.06, pid
        # Walk out from the centre in eight directions until the hole ends: about the same reach each way
        # along the two axes of the picture (a round hole, not a slot or a square).
        reach = {}
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            k = 0
            while k < w // 8 and _lum(img, x + dx * k, y + dy * k) < 0.08:
                k += 1
            reach[(dx, dy)] = k
        across = (reach[(1, 0)] + reach[(-1, 0)], reach[(0, 1)] + reach[(0, -1)])
        assert min(across) >= 3, (pid, reach)
        assert max(across) <= 1.8 * min(across), (pid, reach)


def test_the_side_view_is_at_ball_height_and_close(high: tuple[Path, Any]) -> None:
    _, data = high
    for table in TABLES:
        info = data["pictures"][f"{table}-side.png"]
        (_, ty), (_, by) = info["ball_tops"]["cue"], info["ball_bottoms"]["cue"]
        h = int(SIZE.split("x")[1])
        # A ball is a tenth of the picture high (40 px of a 1080p picture would be 4 %) and near its middle.
        assert abs(by - ty) > 0.08 * h, table
        assert 0.3 * h < (ty + by) / 2 < 0.7 * h, table


def test_low_quality_draws_every_table_with_the_software_renderer(tmp_path: Path) -> None:
    data = _gallery(tmp_path, "low", {}, views=("top",))
    for name, info in data["pictures"].items():
        assert info["quality"] == "low"
        img = _image(tmp_path, name)
        assert _magenta(img) == 0, name
        # Cloth green in the middle of the table.
        r, g, b = img.getXel(img.getXSize() // 2 + 9, img.getYSize() // 2 + 7)
        assert g > r + 0.1 and g > b + 0.05, (name, (r, g, b))


@pytest.mark.window
def test_high_quality_in_a_real_x_display(xvfb_display: str, tmp_path: Path) -> None:  # noqa: F811
    """Through Xvfb (GLX) instead of EGL: one table, the same properties."""
    data = _gallery(tmp_path, "high", {"DISPLAY": xvfb_display}, ("player", "top"), ("pyramid-12ft",))
    if not any(p["quality"] == "high" for p in data["pictures"].values()):
        pytest.skip(f"no OpenGL with shaders under Xvfb here ({data['renderer']})")
    for name in data["pictures"]:
        assert _magenta(_image(tmp_path, name)) == 0, name
    _check_highlight_and_shadow(tmp_path, data, "pyramid-12ft")
