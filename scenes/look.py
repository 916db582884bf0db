"""How the 3D scene is shaded: the ``[display] quality`` levels, the physically based pipeline and its room.

Two levels:

- ``high``: physically based shading with panda3d-simplepbr (metal/roughness materials, image-based light from
  the room, shadow maps from the lamp's spotlights, a filmic tone curve, multisampled anti-aliasing). Chosen
  over Panda3D's shader generator after measuring here: the generator's Cg shaders do not compile on the
  headless EGL pipe ("The profile is not supported") and give Phong highlights with no reflections; simplepbr
  0.12.0 renders both headless and under Xvfb (0.13.1 crashed with a segmentation fault in the same scenes).
- ``low``: fixed-function vertex lighting, no shaders: what the software renderer (p3tinydisplay) can draw, and
  the cheap path for software OpenGL.

The room the balls reflect is an analytic light field (dim walls, the cloth below, the lamp's bright undersides
above), so its prefiltered environment map and irradiance are computed once per table in numpy, in well under
a second, instead of simplepbr's per-texel Python filter (minutes at this size).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import numpy as np
from panda3d.core import (
    GeomNode,
    LVector3,
    Material,
    NodePath,
    PTA_uchar,
    SamplerState,
    Texture,
)

ENV_SIZE = 32  # texels along a face of the sharpest reflection level
ENV_LEVELS = 6  # 32, 16, 8, 4, 2, 1: roughness 0 .. 1
MSAA: Literal[4] = 4
# The sample counts simplepbr's Pipeline takes, by value.
MSAA_SAMPLES: dict[int, Literal[0, 2, 4, 8, 16]] = {0: 0, 2: 2, 4: 4, 8: 8, 16: 16}
# What ShowBase raises (a plain Exception) when no display or EGL device gives it a window: the one failure
# that falls back to the software renderer; any other is an error.
NO_WINDOW = "Could not open window."

Box = tuple[tuple[float, float, float], tuple[float, float, float]]


def srgb_to_linear(c: float) -> float:
    """The shader works in linear light; colours here are written as sRGB (what a colour picker shows)."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def linear_colour(rgba: Sequence[float]) -> tuple[float, float, float, float]:
    return (
        srgb_to_linear(rgba[0]),
        srgb_to_linear(rgba[1]),
        srgb_to_linear(rgba[2]),
        rgba[3] if len(rgba) > 3 else 1.0,
    )


def linearise_vertex_colours(np_: NodePath) -> None:
    """Turn every vertex colour of ``np_`` and under it from sRGB to linear, in place (the meshes are written in
    sRGB). ``np_`` itself may be the mesh (a cue, an object added later): ``**/+GeomNode`` finds only those below."""
    found = list(np_.findAllMatches("**/+GeomNode"))
    own = [np_] if isinstance(np_.node(), GeomNode) and np_ not in found else []
    for gnp in own + found:
        node = gnp.node()
        for i in range(node.getNumGeoms()):
            vdata = node.modifyGeom(i).modifyVertexData()
            fmt = vdata.getFormat()
            col = fmt.getColumn("color")
            if col is None or vdata.getNumRows() == 0:
                continue
            arr_index = fmt.getArrayWith("color")
            array = vdata.modifyArray(arr_index)
            stride = fmt.getArray(arr_index).getStride() // 4
            start = col.getStart() // 4
            data = np.frombuffer(memoryview(array), dtype=np.float32).reshape(-1, stride)
            rgb = data[:, start : start + 3]
            data[:, start : start + 3] = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


@dataclass(frozen=True)
class Finish:
    """A surface's physically based finish (glTF metal/roughness)."""

    roughness: float
    metallic: float = 0.0
    emission: tuple[float, float, float] = (0.0, 0.0, 0.0)


# Measured-looking finishes: a clear-coated phenolic ball is near mirror-smooth, worsted cloth fully rough, a
# varnished rail in between; the pocket irons are metal.
FINISHES: dict[str, Finish] = {
    "ball": Finish(0.13),
    "cloth": Finish(0.92),
    "cushion": Finish(0.85),
    "varnish": Finish(0.30),
    "leather": Finish(0.55),
    "rubber": Finish(0.6),
    "liner": Finish(0.9),  # the pockets' leather or rubber lining: matte, it must read as a dark hole
    "metal": Finish(0.28, 1.0),
    "chrome": Finish(0.12, 1.0),
    "floor": Finish(0.45),
    "wall": Finish(0.9),
    "shade": Finish(0.45),
    "net": Finish(0.95),
    "cue": Finish(0.25),
    "diffuser": Finish(0.9, 0.0, (5.0, 4.7, 4.1)),
}


def pbr_material(name: str) -> Material:
    """A material for the PBR shader: base colour white (the vertex colours and textures carry the colour)."""
    f = FINISHES[name]
    mat = Material(name)
    mat.setBaseColor((1, 1, 1, 1))
    mat.setRoughness(f.roughness)
    mat.setMetallic(f.metallic)
    if any(f.emission):
        mat.setEmission((*f.emission, 1.0))
    return mat


def pbr_supported(base: Any) -> bool:
    """True when ``base`` can run the high path (simplepbr, a dependency): an OpenGL pipe with GLSL."""
    if "Tiny" in base.pipe.getType().getName():
        return False
    gsg = base.win.getGsg() if base.win is not None else None
    return gsg is None or bool(gsg.getSupportsBasicShaders())


class _OwnTasks:
    """Hands simplepbr's per-frame task to the task manager under a name of our own, so closing one pipeline
    removes only its task (simplepbr names every pipeline's task the same)."""

    def __init__(self, taskmgr: Any, tag: str) -> None:
        self.taskmgr = taskmgr
        self.tag = tag
        self.tasks: list[Any] = []

    def add(self, fn: Any, name: str, sort: int = 0) -> Any:
        task = self.taskmgr.add(fn, f"{name}-{self.tag}", sort=sort)
        self.tasks.append(task)
        return task

    def remove_all(self) -> None:
        for task in self.tasks:
            self.taskmgr.remove(task)
        self.tasks.clear()


class Shading:
    """The high-quality pipeline over one output: simplepbr on ``render_node`` drawn by ``camera`` into
    ``window`` (a window or an offscreen buffer). Frames must be driven by the task manager
    (``taskMgr.step()``): simplepbr sets the camera position for the reflections from a task."""

    def __init__(
        self,
        base: Any,
        render_node: NodePath,
        window: Any,
        camera: NodePath,
        msaa: int = MSAA,
        exposure: float = 1.0,
    ) -> None:
        import simplepbr

        self.base = base
        self.render_node = render_node
        render_node.setTag(SHADING_TAG, "high")
        self._tasks = _OwnTasks(base.taskMgr, f"{id(self):x}")
        self.pipeline = simplepbr.init(
            render_node=render_node,
            window=window,
            camera_node=camera,
            taskmgr=self._tasks,
            msaa_samples=MSAA_SAMPLES.get(msaa, MSAA),
            max_lights=4,  # the most bulbs a lamp has is three
            enable_shadows=True,
            shadow_bias=0.00025,
            use_emission_maps=True,
            exposure=exposure,
        )

    def close(self) -> None:
        self._tasks.remove_all()
        self.pipeline._filtermgr.cleanup()
        if not self.render_node.isEmpty():
            self.render_node.clearTag(SHADING_TAG)
            self.render_node.clearShader()


# ---------------------------------------------------------------------------------------------- the room


@dataclass(frozen=True)
class RoomLight:
    """What the analytic room is made of (table frame, metres, linear colours)."""

    half_length: float  # the cloth's half extents
    half_width: float
    rail_out: float  # from the cloth's edge to the outside of the rail
    floor_z: float
    room_half: tuple[float, float]
    room_height: float
    lamps: tuple[Box, ...]  # the glowing undersides, as (lo, hi) boxes whose bottom face emits
    cloth: tuple[float, float, float]
    glow: float = 10.0  # radiance of a lamp's diffuser
    # Irradiance on the bed from the lamp's even light from above (a broad source within FILL_CONE of the
    # zenith), in the irradiance only: a shade's inside and diffuser light the whole table, not just under a bulb.
    fill: float = 0.0
    # A uniform radiance from every direction, in the irradiance only: the lamp's light bounced round the room
    # (off the lit cloth, the walls, the ceiling), which is what lights the room's own surfaces.
    bounce: float = 0.0


def _face_dirs(size: int) -> np.ndarray:
    """Directions of every texel of a cube map, shape (6, size, size, 3), in the texel order simplepbr's shader
    samples (face +x, -x, +y, -y, +z, -z; rows from the top of each face)."""
    idx = (np.arange(size) + 0.5) / size * 2 - 1
    ycoord = -idx[:, None] * np.ones((1, size))  # rows
    xcoord = idx[None, :] * np.ones((size, 1))  # columns
    one = np.ones_like(xcoord)
    faces = [
        (one, ycoord, -xcoord),
        (-one, ycoord, xcoord),
        (xcoord, one, -ycoord),
        (xcoord, -one, ycoord),
        (xcoord, ycoord, one),
        (-xcoord, ycoord, -one),
    ]
    d = np.stack([np.stack(f, axis=-1) for f in faces])
    unit: np.ndarray = d / np.linalg.norm(d, axis=-1, keepdims=True)
    return unit


def room_radiance(room: RoomLight, d: np.ndarray, lamps: bool = True) -> np.ndarray:
    """Radiance seen from a ball on the cloth looking along unit directions ``d`` (..., 3). Without ``lamps``
    the lamp's glow is left out: the irradiance is the light bounced round the room, the lamp's own light comes
    from the spotlights."""
    out = np.zeros(d.shape[:-1] + (3,), dtype=np.float64)
    dz = d[..., 2]
    # Walls, ceiling and floor of the room box, from the table's centre: dim, warmer low down.
    hx, hy = room.room_half
    with np.errstate(divide="ignore", invalid="ignore"):
        tx = np.where(np.abs(d[..., 0]) > 1e-9, hx / np.abs(d[..., 0]), np.inf)
        ty = np.where(np.abs(d[..., 1]) > 1e-9, hy / np.abs(d[..., 1]), np.inf)
        t_up = np.where(dz > 1e-9, (room.floor_z + room.room_height) / dz, np.inf)
        t_down = np.where(dz < -1e-9, room.floor_z / dz, np.inf)
    t_wall = np.minimum(tx, ty)
    wall_z = dz * t_wall
    wall = np.clip(0.035 + 0.02 * np.exp(-((wall_z - 0.2) ** 2) / 0.5), 0, 1)
    out[:] = (wall * 1.0)[..., None] * np.array([1.0, 0.82, 0.62])
    ceiling = t_up < t_wall
    out[ceiling] = np.array([0.012, 0.011, 0.010])
    floor = t_down < t_wall
    out[floor] = np.array([0.05, 0.032, 0.02])
    # Below the horizon, near: the lit cloth, then the wooden rail around it.
    below = dz < -1e-6
    t_cloth = np.where(below, -0.03 / np.where(below, dz, -1.0), 0.0)  # the cloth from a ball centre's height
    px, py = d[..., 0] * t_cloth, d[..., 1] * t_cloth
    on_cloth = (np.abs(px) < room.half_length) & (np.abs(py) < room.half_width) & below
    # The cloth under the lamp sends back about its albedo times the lamp's irradiance over pi; in the
    # irradiance (lamps=False) less, as the nine spherical harmonics would bleed the bright floor upwards.
    out[on_cloth] = np.array(room.cloth) * (1.1 if lamps else 0.4)
    on_rail = (
        ~on_cloth
        & below
        & (np.abs(px) < room.half_length + room.rail_out)
        & (np.abs(py) < room.half_width + room.rail_out)
    )
    out[on_rail] = np.array([0.16, 0.055, 0.02])
    # Above: each lamp's glowing underside, with a soft rim so the filtered levels blend.
    for (x0, y0, z0), (x1, y1, _z1) in room.lamps if lamps else ():
        above = dz > 1e-6
        t = np.where(above, z0 / np.where(above, dz, 1.0), 0.0)
        lx, ly = d[..., 0] * t, d[..., 1] * t
        edge = 0.03
        inside = np.clip((np.minimum(lx - x0, x1 - lx) + edge) / (2 * edge), 0, 1) * np.clip(
            (np.minimum(ly - y0, y1 - ly) + edge) / (2 * edge), 0, 1
        )
        inside = np.where(above, inside, 0.0)
        out += inside[..., None] * room.glow * np.array([1.0, 0.95, 0.85])
    return out


def _ggx_samples(n_samples: int) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(n_samples)
    u = i / n_samples
    # Van der Corput radical inverse in base 2.
    bits = np.zeros(n_samples)
    denom = 1.0
    k = i.copy()
    while np.any(k):
        denom *= 2
        bits += (k % 2) / denom
        k //= 2
    return u, bits


def _prefilter(room: RoomLight, size: int, roughness: float, n_samples: int) -> np.ndarray:
    """One level of the prefiltered reflection map: the room convolved with a GGX lobe (normal = view)."""
    n = _face_dirs(size).reshape(-1, 3)
    if roughness < 1e-3:
        return room_radiance(room, n).reshape(6, size, size, 3)
    a = roughness * roughness
    u, v = _ggx_samples(n_samples)
    phi = 2 * np.pi * u
    cos_t = np.sqrt((1 - v) / (1 + (a * a - 1) * v))
    sin_t = np.sqrt(1 - cos_t**2)
    up = np.where(np.abs(n[:, 2:3]) < 0.999, np.array([[0, 0, 1.0]]), np.array([[1.0, 0, 0]]))
    tan = np.cross(up, n)
    tan /= np.linalg.norm(tan, axis=1, keepdims=True)
    bit = np.cross(n, tan)
    h = (
        tan[:, None, :] * (np.cos(phi) * sin_t)[None, :, None]
        + bit[:, None, :] * (np.sin(phi) * sin_t)[None, :, None]
        + n[:, None, :] * cos_t[None, :, None]
    )
    vdh = np.sum(h * n[:, None, :], axis=-1, keepdims=True)
    light = 2 * vdh * h - n[:, None, :]
    ndl = np.clip(np.sum(light * n[:, None, :], axis=-1), 0, None)
    rad = room_radiance(room, light)
    out: np.ndarray = np.sum(rad * ndl[..., None], axis=1) / np.maximum(
        np.sum(ndl, axis=1, keepdims=True), 1e-9
    )
    return out.reshape(6, size, size, 3)


FILL_CONE = math.radians(60.0)  # half-angle round the zenith of the lamp's even light (RoomLight.fill)


def _sh_coefficients(room: RoomLight, size: int = 16) -> list[tuple[float, float, float]]:
    """Irradiance as 9 spherical-harmonic coefficients, cosine lobe folded in (simplepbr's convention)."""
    d = _face_dirs(size).reshape(-1, 3)
    idx = (np.arange(size) + 0.5) / size * 2 - 1
    xx, yy = np.meshgrid(idx, idx)
    solid = (4.0 / size**2) / (1 + xx**2 + yy**2) ** 1.5
    w = np.tile(solid.reshape(-1), 6)
    rad = room_radiance(room, d, lamps=False)
    if room.fill > 0:
        # A uniform radiance L over the cone gives pi L sin^2(cone) on a surface facing up.
        fill = room.fill / (math.pi * math.sin(FILL_CONE) ** 2)
        rad = rad + np.where(d[:, 2:3] > math.cos(FILL_CONE), fill * np.array([[1.0, 0.97, 0.9]]), 0.0)
    rad = rad + room.bounce * np.array([[1.0, 0.96, 0.9]])
    col = rad * w[:, None]
    x, y, z = d[:, 0], d[:, 1], d[:, 2]
    basis = [
        0.282095 * np.ones_like(x),
        0.488603 * x,
        0.488603 * z,
        0.488603 * y,
        1.092548 * x * z,
        1.092548 * y * z,
        1.092548 * y * x,
        0.315392 * (3 * z * z - 1),
        0.546274 * (x * x - y * y),
    ]
    bands = (math.pi, 2.094395, 2.094395, 2.094395, 0.785398, 0.785398, 0.785398, 0.785398, 0.785398)
    out = []
    for b, k in zip(basis, bands, strict=True):
        c = np.sum(col * b[:, None], axis=0) * k
        out.append((float(c[0]), float(c[1]), float(c[2])))
    return out


@cache
def room_env_map(room: RoomLight) -> Any:
    """A simplepbr ``EnvMap`` of the room: prefiltered reflection levels and irradiance, built in numpy."""
    from simplepbr import EnvMap

    cube = Texture("room-env")
    cube.setupCubeMap(1, Texture.T_unsigned_byte, Texture.F_rgb)
    env = EnvMap(cube, skip_prepare=True)
    filtered = env.filtered_env_map
    filtered.setupCubeMap(ENV_SIZE, Texture.T_float, Texture.F_rgb32)
    filtered.setMagfilter(SamplerState.FT_linear)
    filtered.setMinfilter(SamplerState.FT_linear_mipmap_linear)
    for level in range(ENV_LEVELS):
        size = max(1, ENV_SIZE >> level)
        rough = level / (ENV_LEVELS - 1)
        img = _prefilter(room, size, rough, 48 if level else 1)
        data = np.ascontiguousarray(img[..., ::-1], dtype=np.float32)  # the RAM image is BGR
        pta = PTA_uchar.emptyArray(data.nbytes)
        memoryview(pta)[:] = data.tobytes()
        filtered.setRamMipmapImage(level, pta)
    for i, c in enumerate(_sh_coefficients(room)):
        env.sh_coefficients[i] = LVector3(*c)
    env.is_prepared.setResult(env)
    return env


def apply_room(np_: NodePath, room: RoomLight) -> None:
    """Make ``np_``'s subtree reflect and be lit by ``room`` (overrides the pipeline's empty room)."""
    env = room_env_map(room)
    np_.setShaderInput("sh_coeffs", env.sh_coefficients)
    np_.setShaderInput("filtered_env_map", env.filtered_env_map)
    np_.setShaderInput("max_reflection_lod", float(ENV_LEVELS - 1))


SHADING_TAG = "billiards-shading"


def shading_of(np_: NodePath) -> str:
    """The quality the scene above ``np_`` is shaded at: ``high`` under a :class:`Shading`, else ``low``."""
    return "high" if np_.getNetTag(SHADING_TAG) == "high" else "low"


SOFTWARE_GL = ("llvmpipe", "softpipe", "swrast", "software rasterizer")


def slow_high_quality_hint(base: Any, lang: str) -> str | None:
    """One line for a window drawn at high quality by a software rasteriser, else None."""
    gsg = base.win.getGsg() if base.win is not None else None
    renderer = str(gsg.getDriverRenderer()) if gsg is not None else ""
    if not any(name in renderer.lower() for name in SOFTWARE_GL):
        return None
    from scenes.core.i18n import tr

    return tr("cli.slow_high", lang, renderer=renderer.split(" (")[0])
