"""Procedural textures: ball sets, cloth, wood and floor, made with numpy and loaded into Panda3D textures.

Ball textures are equirectangular (u = longitude / 2π from +x anticlockwise, v = latitude from the south pole),
matching :meth:`scenes.geom_mesh.MeshBuilder.sphere`. Every texture is a pure function of its arguments, so two
runs draw the same pixels (determinism: the same scenario renders to the same PNG bit for bit).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path

import numpy as np
from panda3d.core import (
    DynamicTextFont,
    Filename,
    PNMImage,
    PNMTextMaker,
    SamplerState,
    TextNode,
    TextProperties,
    Texture,
)

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
BALL_TEX_W, BALL_TEX_H = 512, 256


class BallStyle(StrEnum):
    PYRAMID = "pyramid"
    POOL = "pool"
    SNOOKER = "snooker"


RGB = tuple[float, float, float]

IVORY: RGB = (0.93, 0.89, 0.78)
CUE_WHITE: RGB = (0.97, 0.97, 0.95)
DOT_RED: RGB = (0.80, 0.08, 0.08)
# WPA colours by number (1-8; 9-15 repeat 1-7 as stripes).
POOL_COLOURS: dict[int, RGB] = {
    1: (0.98, 0.78, 0.05),
    2: (0.05, 0.22, 0.70),
    3: (0.85, 0.08, 0.08),
    4: (0.35, 0.10, 0.55),
    5: (0.98, 0.45, 0.05),
    6: (0.02, 0.45, 0.18),
    7: (0.50, 0.08, 0.10),
    8: (0.04, 0.04, 0.04),
}
SNOOKER_COLOURS: dict[str, RGB] = {
    "red": (0.78, 0.04, 0.05),
    "yellow": (0.98, 0.85, 0.10),
    "green": (0.05, 0.45, 0.20),
    "brown": (0.40, 0.20, 0.08),
    "blue": (0.05, 0.20, 0.75),
    "pink": (0.98, 0.55, 0.65),
    "black": (0.03, 0.03, 0.03),
    "cue": CUE_WHITE,
}

SNOOKER_VALUE_COLOURS: dict[int, str] = {
    1: "red",
    2: "yellow",
    3: "green",
    4: "brown",
    5: "blue",
    6: "pink",
    7: "black",
}


@dataclass(frozen=True)
class BallLook:
    """What a ball looks like: base colour, optional stripe, optional number label and marker dots."""

    base: RGB
    stripe: RGB | None = None
    label: str = ""
    label_disc: bool = False  # pool: the number sits on a white disc
    dots: bool = False  # small red dots on six axes so the cue ball's spin is visible


def ball_look(ball: str, style: BallStyle | str) -> BallLook:
    """The look of ball ``ball`` (a ball id: docs/formats.md §Names) in a ball set."""
    style = BallStyle(style)
    if style == BallStyle.SNOOKER:
        if ball.startswith("red"):
            return BallLook(SNOOKER_COLOURS["red"])
        if ball in SNOOKER_COLOURS:
            return BallLook(SNOOKER_COLOURS[ball])
        if ball.isdigit():
            # Golf on a snooker table (000 «Гольф»): the snooker ball of that value (red 1 ... black 7; an
            # eighth player gets a red too), its number on a white disc so a player tells them apart.
            colour = SNOOKER_VALUE_COLOURS.get(int(ball), "red")
            return BallLook(SNOOKER_COLOURS[colour], label=ball, label_disc=True)
        return BallLook(_numbered_fallback(ball))
    if ball == "cue":
        return BallLook(CUE_WHITE, dots=True)
    if style == BallStyle.PYRAMID:
        return BallLook(IVORY, label=ball if ball.isdigit() else "")
    if ball.isdigit():
        n = int(ball)
        if 1 <= n <= 8:
            return BallLook(POOL_COLOURS[n], label=ball, label_disc=True)
        if 9 <= n <= 15:
            return BallLook(CUE_WHITE, stripe=POOL_COLOURS[n - 8], label=ball, label_disc=True)
    return BallLook(_numbered_fallback(ball))


def _numbered_fallback(ball: str) -> RGB:
    # A ball id the set has no colour for (a snooker red on a pool table, say): a neutral grey, still drawn.
    return (0.6, 0.6, 0.6)


@cache
def _font() -> DynamicTextFont | None:
    for name in ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"):
        path = FONT_DIR / name
        if path.exists():
            return DynamicTextFont(Filename.fromOsSpecific(str(path)))
    default = TextProperties.getDefaultFont()
    return default if isinstance(default, DynamicTextFont) else None


@cache
def glyph_mask(label: str, size: int = 96) -> np.ndarray:
    """Coverage of ``label`` drawn centred in a size×size square: float array, 1 = ink, row 0 at the top."""
    font = _font()
    if font is None or not label:
        return np.zeros((size, size), dtype=np.float32)
    maker = PNMTextMaker(font)
    maker.setPixelSize(size * (0.62 if len(label) == 1 else 0.52))
    maker.setAlign(TextNode.ACenter)
    maker.setFg((1, 1, 1, 1))
    img = PNMImage(size, size, 1)
    img.fill(0)
    # The baseline sits a bit below the centre so digits (no descenders) look centred.
    maker.generateInto(label, img, size // 2, int(size * 0.70))
    out = np.zeros((size, size), dtype=np.float32)
    for y in range(size):
        for x in range(size):
            out[y, x] = img.getGray(x, y)
    return out


def ball_image(look: BallLook, width: int = BALL_TEX_W, height: int = BALL_TEX_H) -> np.ndarray:
    """RGB float image (height×width×3, row 0 = south pole) of a ball in the sphere's UV layout."""
    lon = (np.arange(width) + 0.5) / width * 2 * np.pi
    lat = (np.arange(height) + 0.5) / height * np.pi - np.pi / 2
    lon_g, lat_g = np.meshgrid(lon, lat)
    n = np.stack([np.cos(lat_g) * np.cos(lon_g), np.cos(lat_g) * np.sin(lon_g), np.sin(lat_g)], axis=-1)
    img = np.empty((height, width, 3), dtype=np.float32)
    img[:] = look.base
    if look.stripe is not None:
        # A pool stripe covers the middle half of the ball's height (|z| < R/2).
        band = np.abs(n[..., 2]) < 0.5
        img[band] = look.stripe
    if look.dots:
        for axis in np.eye(3).tolist() + (-np.eye(3)).tolist():
            img[(n @ np.array(axis)) > np.cos(0.09)] = DOT_RED
    if look.label:
        mask = glyph_mask(look.label)
        for centre_lon in (0.0, np.pi):  # two labels, back to back, as on real balls
            d = np.array([np.cos(centre_lon), np.sin(centre_lon), 0.0])
            east = np.array([-np.sin(centre_lon), np.cos(centre_lon), 0.0])
            north = np.array([0.0, 0.0, 1.0])
            cosang = n @ d
            front = cosang > 0.2
            # Gnomonic projection onto the plane touching the ball at d: straight glyph strokes stay straight.
            with np.errstate(divide="ignore", invalid="ignore"):
                pe = np.where(front, (n @ east) / cosang, 9.0)
                pn = np.where(front, (n @ north) / cosang, 9.0)
            # Numbers large enough to read from the player's view: a pool ball's white disc is about 40 % of
            # the ball's width, a pyramid ball's number stands alone a little larger.
            disc_r = 0.42
            if look.label_disc:
                img[(pe**2 + pn**2) < disc_r**2] = CUE_WHITE
            half = disc_r * (0.8 if look.label_disc else 1.1)
            size = mask.shape[0]
            inside = (np.abs(pe) < half) & (np.abs(pn) < half)
            gx = ((pe + half) / (2 * half) * (size - 1)).clip(0, size - 1).astype(int)
            gy = ((half - pn) / (2 * half) * (size - 1)).clip(0, size - 1).astype(int)
            ink = np.where(inside, mask[gy, gx], 0.0)[..., None]
            img = img * (1 - ink) + np.array([0.05, 0.05, 0.05], dtype=np.float32) * ink
    return img


def texture_from_array(name: str, rgb: np.ndarray, wrap: bool = True, mipmap: bool = True) -> Texture:
    """A Panda3D texture from an RGB float array (rows bottom-up, as Panda3D stores them)."""
    h, w, _ = rgb.shape
    data = (np.clip(rgb, 0.0, 1.0) * 255 + 0.5).astype(np.uint8)
    tex = Texture(name)
    tex.setup2dTexture(w, h, Texture.T_unsigned_byte, Texture.F_rgb8)
    tex.setRamImageAs(data.tobytes(), "RGB")
    mode = SamplerState.WM_repeat if wrap else SamplerState.WM_clamp
    tex.setWrapU(mode)
    tex.setWrapV(mode)
    tex.setMagfilter(SamplerState.FT_linear)
    tex.setMinfilter(SamplerState.FT_linear_mipmap_linear if mipmap else SamplerState.FT_linear)
    return tex


@cache
def ball_texture(ball: str, style: str) -> Texture:
    return texture_from_array(f"ball-{style}-{ball}", ball_image(ball_look(ball, style)), wrap=True)


def _noise(shape: tuple[int, int], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).random(shape, dtype=np.float32)


@cache
def cloth_texture(size: int = 128) -> Texture:
    """Worsted cloth: a fine, faint weave noise around 1 (the colour comes from the vertex colour)."""
    n = _noise((size, size), 7)
    weave = 0.94 + 0.06 * n
    return texture_from_array("cloth", np.repeat(weave[..., None], 3, axis=2))


@cache
def wood_texture(size: int = 256) -> Texture:
    """Wood grain running along u: long dark/light bands with slow waviness, as on a lacquered rail."""
    u = np.linspace(0, 1, size, endpoint=False)
    v = np.linspace(0, 1, size, endpoint=False)
    uu, vv = np.meshgrid(u, v)
    rng = np.random.default_rng(11)
    phase = rng.random(8) * 2 * np.pi
    wave = sum(np.sin(2 * np.pi * (k + 1) * uu + phase[k]) * 0.012 / (k + 1) for k in range(4))
    rings = np.sin((vv + wave) * 2 * np.pi * 9) * 0.5 + 0.5
    fine = _noise((size, size), 12) * 0.08
    shade = 0.80 + 0.16 * rings**3 + fine
    return texture_from_array("wood", np.repeat(shade[..., None], 3, axis=2))


@cache
def floor_texture(size: int = 256) -> Texture:
    """Floor boards: eight rows of planks a tile (a tile is 1.2 m: planks 15 cm wide), each row's joint at its own
    place, each plank a shade of its own, with a fine grain along it and a dark seam between rows."""
    img = np.zeros((size, size), dtype=np.float32)
    rows = 8
    rng = np.random.default_rng(21)
    step = size // rows
    cols = np.arange(size)
    grain = np.sin(np.linspace(0, 2 * np.pi * 5, size))[None, :] * 0.02
    for k in range(rows):
        band = slice(k * step, (k + 1) * step)
        joint = int(rng.integers(0, size))
        # Two planks per row per tile, the second starting at the joint.
        second = ((cols - joint) % size) < size // 2
        a, b = 0.74 + 0.24 * rng.random(2)
        img[band, :] = np.where(second, a, b)[None, :]
        img[band, :] += grain * (1 + rng.random())
        img[k * step, :] = 0.42
        img[band, joint % size] = 0.42
        img[band, (joint + size // 2) % size] = 0.42
    img *= 0.9 + 0.1 * _noise((size, size), 22)
    return texture_from_array("floor", np.repeat(img[..., None], 3, axis=2))


@cache
def net_texture(size: int = 64) -> Texture:
    """A pocket net's knotted mesh: cords on two diagonals (1 on a cord, dark between), one mesh per tile."""
    u = (np.arange(size) + 0.5) / size
    uu, vv = np.meshgrid(u, u)
    d1 = np.abs(((uu + vv) % 1.0) - 0.5)
    d2 = np.abs(((uu - vv) % 1.0) - 0.5)
    cord = np.clip(1.0 - np.minimum(d1, d2) / 0.06, 0.0, 1.0)
    shade = 0.12 + 0.88 * cord
    return texture_from_array("net", np.repeat(shade[..., None], 3, axis=2))


@cache
def shadow_texture(size: int = 64) -> Texture:
    """A soft round blob (alpha) for the contact shadow under a ball."""
    r = np.hypot(*np.meshgrid(np.linspace(-1, 1, size), np.linspace(-1, 1, size)))
    # Dense under the ball and fading out past its rim, as the umbra and penumbra of a lamp overhead.
    alpha = np.clip(1.0 - r, 0.0, 1.0) ** 0.6
    data = np.zeros((size, size, 4), dtype=np.uint8)
    data[..., 3] = (alpha * 255).astype(np.uint8)
    tex = Texture("shadow")
    tex.setup2dTexture(size, size, Texture.T_unsigned_byte, Texture.F_rgba8)
    tex.setRamImageAs(data.tobytes(), "RGBA")
    tex.setWrapU(SamplerState.WM_clamp)
    tex.setWrapV(SamplerState.WM_clamp)
    return tex


_SRGB: dict[str, Texture] = {}


def srgb_texture(tex: Texture) -> Texture:
    """The same pixels marked as sRGB, so the PBR shader samples them in linear light (the fixed-function path
    keeps the plain texture). One copy per texture."""
    name = tex.getName()
    out = _SRGB.get(name)
    if out is None:
        out = tex.makeCopy()
        out.setName(f"{name}-srgb")
        fmt = tex.getFormat()
        out.setFormat(Texture.F_srgb_alpha if fmt == Texture.F_rgba8 else Texture.F_srgb)
        _SRGB[name] = out
    return out
