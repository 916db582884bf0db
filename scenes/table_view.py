"""The table in 3D at regulation size, built procedurally from a :class:`physics.tables.TableSpec`.

Draws what it is handed and decides nothing: the app (or the replay player) sets ball states; this module only
turns numbers into nodes. Everything sits under one ``root`` node that owns its own lights, so several views can
live in one ShowBase (tests, offscreen renders) and ``destroy()`` leaves nothing behind.

The table's furniture (cloth, cushions and jaws, pockets, rails, frame and legs) is :mod:`scenes.table_mesh`,
built from the physics' own plan of the table; this module adds the room (a parquet floor, dark walls), the lamp
with the lights that light the table (:mod:`scenes.lamps`), the balls and their shadows, and scenario objects.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from panda3d.core import (
    AmbientLight,
    ColorBlendAttrib,
    ConfigVariableString,
    Material,
    NodePath,
    Quat,
    TransparencyAttrib,
)

from physics.errors import InputError
from physics.objects import SceneObject
from physics.plan import (  # the room the physics' walls bound
    ROOM_HALF,
    ROOM_HEIGHT,
    TablePlan,
    scene_plan,
    table_plan,
)
from physics.tables import TableSpec
from scenes.figure import person
from scenes.geom_mesh import ColourT, MeshBuilder, Vec2T, Vec3T
from scenes.lamps import FILL_IRRADIANCE, build_lamp, lamp_shades, make_lights
from scenes.look import (
    RoomLight,
    apply_room,
    linear_colour,
    linearise_vertex_colours,
    pbr_material,
    shading_of,
)
from scenes.pockets import draw_bottom, draw_liner, pocket_shapes
from scenes.room import FLOOR, build_floor, build_walls
from scenes.table_mesh import HOLE, IRON, LINER, RIM, UNDERLAY_Z, TableMesh
from scenes.textures import (
    BallStyle,
    ball_texture,
    cloth_texture,
    floor_texture,
    net_texture,
    shadow_texture,
    srgb_texture,
    wood_texture,
)

# Cloth colours by table: tournament greens, a touch bluer on the pool table, the classic snooker green.
CLOTH_COLOURS: dict[str, ColourT] = {
    "pyramid-12ft": (0.06, 0.42, 0.20, 1.0),
    "pool-9ft": (0.04, 0.36, 0.22, 1.0),
    "snooker-12ft": (0.09, 0.40, 0.12, 1.0),
    "snooker-10ft": (0.09, 0.40, 0.12, 1.0),
}
TABLE_BALL_STYLES: dict[str, BallStyle] = {
    "pyramid-12ft": BallStyle.PYRAMID,
    "pool-9ft": BallStyle.POOL,
    "snooker-12ft": BallStyle.SNOOKER,
    "snooker-10ft": BallStyle.SNOOKER,
}
NET_STRING: ColourT = (0.26, 0.22, 0.18, 1.0)  # the net's cord (its texture leaves the gaps dark)
SHADE: ColourT = (0.08, 0.22, 0.12, 1.0)

# Sizes of things the physics also knows (physics.plan), used when its plan is not available.
CHALK = 0.022  # a cube of billiard chalk
PERSON = (0.45, 0.30, 1.75)  # shoulder width, depth, height
CUE_LEN, CUE_R = 1.45, 0.011  # a cue lying on a rail: length, mean radius
LAMP_SHADE = (1.4, 0.45, 0.15)  # length (x), width (y), height

# The radiance of the light bounced round the room (linear units of the shader) that lights the room's own
# surfaces: the lamp's light sent back by the cloth, the rails and the walls themselves. An estimate, set so the
# room reads and the bed under the lamp stays the brightest part: the wall at the top of the gallery's side views
# measures 0.53-0.58 of the cloth's luminance (tests/scenes/test_pictures.py holds it under 0.75).
ROOM_BOUNCE = 0.28
ROOM_AMBIENT_LOW = 0.2  # the same at low quality, added to the lamp's ambient on the room's surfaces

# Light-space depth. A ball's own shading already falls off with the lamp's angle: a large bias keeps its
# shadow map from cutting a hard self-shadow across it (the cloth's small bias is scenes.look's).
BALL_SHADOW_BIAS = 0.05
# Faces the lamp's light grazes (the cushions' noses, the pockets' liners, the rails' sides): a shadow-map texel
# (3.6 mm at the cloth) spans several millimetres of their depth, so at the cloth's bias they shade in stripes.
# 0.003 of the light's depth range is about 7 mm at the cloth's distance from a bulb.
STEEP_SHADOW_BIAS = 0.003


def _liner_bin() -> str:
    """A bin drawn right after the opaque one (sort 20), in a fixed order: the pockets' liners."""
    from panda3d.core import CullBinEnums, CullBinManager

    name = "pocket-liners"
    mgr = CullBinManager.getGlobalPtr()
    if mgr.findBin(name) < 0:
        mgr.addBin(name, CullBinEnums.BT_fixed, 21)
    return name


def uses_software_renderer() -> bool:
    """True when the engine is configured to draw with p3tinydisplay (offscreen, no display)."""
    return "tinydisplay" in ConfigVariableString("load-display").getValue()


def default_ball_style(table_id: str) -> BallStyle:
    return TABLE_BALL_STYLES.get(table_id, BallStyle.POOL)


@dataclass(frozen=True)
class BallState:
    """One ball as the view should show it (table frame, metres; quat is (w, x, y, z))."""

    pos: Vec3T
    quat: tuple[float, float, float, float] | None = None
    visible: bool = True


def physics_geometry(
    spec: TableSpec, objects: Sequence[SceneObject] = (), lamp: Vec3T | None = (0.0, 0.0, 1.0)
) -> TablePlan | None:
    """The physics' own plan of the table (``physics.plan.scene_plan``, no Bullet), so pockets, lamp and
    objects are drawn exactly where the simulation has them. None when the physics refuses these objects
    (then they are drawn from the scenario alone; the table itself still comes from the plan)."""
    try:
        return scene_plan(spec, tuple(objects), lamp)
    except InputError:
        return None


class TableView:
    """The table, room, lamp and balls of one scene.

    Args:
        parent: where ``root`` is attached (``base.render`` in the app, any node for offscreen renders).
        spec: the table to build.
        ball_ids: the balls to create (ids: docs/formats.md §Names); others can be added with :meth:`add_ball`.
        ball_style: ``pyramid``, ``pool`` or ``snooker`` (see :class:`scenes.textures.BallStyle`).
        lamp: the lamp shade's bottom centre (x, y, height above the bed), as ``Settings.lamp_position``.
        objects: scene objects of a scenario (chalk, person, cue on the rail), drawn at their ``at``.
        software: True when the software renderer (``p3tinydisplay``) draws the scene. It multiplies a lit vertex
            colour in twice (OpenGL does it once), so there every lit node gets an explicit white material and the
            colour is applied once, as OpenGL does. None (default) asks the engine config (``load-display``).
    """

    def __init__(
        self,
        parent: NodePath,
        spec: TableSpec,
        ball_ids: Iterable[str],
        ball_style: str,
        lamp: Vec3T = (0.0, 0.0, 1.0),
        objects: Iterable[SceneObject] = (),
        software: bool | None = None,
        quality: str | None = None,
    ) -> None:
        self.spec = spec
        self.software = uses_software_renderer() if software is None else software
        # High quality needs the PBR pipeline over this scene (scenes.look.Shading tags its render node).
        self.quality = "low" if self.software else (quality or shading_of(parent))
        self.high = self.quality == "high"
        self.style = BallStyle(ball_style)
        self.lamp = lamp
        self.root = parent.attachNewNode(f"table-view-{spec.id}")
        if self.software:
            self.root.setMaterial(self._material("matte"))
        objects = tuple(objects)
        self.geometry = physics_geometry(spec, objects, lamp)
        self.pockets = pocket_shapes(spec, self.geometry or table_plan(spec))
        self.mesh = TableMesh(spec, self.pockets, self.style == BallStyle.SNOOKER)
        self.lamp_box = self._lamp_box()
        self.balls: dict[str, NodePath] = {}
        self._shadows: dict[str, NodePath] = {}
        self._states: dict[str, BallState] = {}
        self._on_floor: set[str] = set()
        self._highlights: dict[str, tuple[NodePath, str | None]] = {}
        self._ball_template = self._make_ball_template()
        self._shadow_template = self._make_shadow_template()
        self.static = self.root.attachNewNode("static")
        self.table_np = self.static.attachNewNode("table")
        self._reflect_lamp: list[NodePath] = []
        self._steep: list[NodePath] = []
        self._build_room()
        self._build_table()
        self.lamp_np = self._build_lamp()
        self._lights = make_lights(self.root, spec.id, self.lamp_box, self.high)
        if not self.high:
            # Vertex lighting has no bounce: the room's share of the lamp's light, as an ambient on it alone.
            bounce = AmbientLight("room-bounce")
            bounce.setColor((ROOM_AMBIENT_LOW, ROOM_AMBIENT_LOW * 0.96, ROOM_AMBIENT_LOW * 0.9, 1))
            np_bounce = self.root.attachNewNode(bounce)
            self.room_np.setLight(np_bounce)
            self._lights.append(np_bounce)
        self.objects_np = self.root.attachNewNode("objects")
        self._finish(self.objects_np, "varnish", 0.3, 20.0)
        self.balls_np = self.root.attachNewNode("balls")
        if self.high:
            linearise_vertex_colours(self.root)
            # Flat parts reflect the dim room; the balls, small beside the lamp's distance, also its glow. What
            # the lamp lights (the table, the balls, objects on it) also takes the shade's even light from above.
            room = self.room_light()
            apply_room(self.root, replace(room, lamps=(), fill=0.0))
            # The room and the lamp's outside are lit by the light bounced round the room. Their light field
            # is seen from the room, not from a ball on the bed: below them is the floor, not the green cloth
            # (its spherical harmonics tinted the floor far from the table green).
            floor = linear_colour(FLOOR)
            below = (floor[0] * 0.3, floor[1] * 0.3, floor[2] * 0.3)
            for np_ in (self.room_np, self.lamp_np):
                apply_room(np_, replace(room, lamps=(), fill=0.0, bounce=ROOM_BOUNCE, cloth=below))
            apply_room(self.table_np, replace(room, lamps=()))
            apply_room(self.objects_np, replace(room, lamps=()))
            apply_room(self.balls_np, room)
            for np_ in self._reflect_lamp:
                apply_room(np_, self.room_light())
            # A ball's round surface would shadow itself in stripes at the cloth's small depth bias.
            self.balls_np.setShaderInput("global_shadow_bias", BALL_SHADOW_BIAS)
            for np_ in self._steep:
                np_.setShaderInput("global_shadow_bias", STEEP_SHADOW_BIAS)
        # Static geometry never moves: flattening cuts draw calls (matters on the software renderer).
        self.static.flattenStrong()
        for i, obj in enumerate(objects):
            self.add_object(obj, i)
        for bid in ball_ids:
            self.add_ball(bid)

    def room_light(self) -> RoomLight:
        """The room the balls reflect (see :mod:`scenes.look`): this table, its lamp, its cloth."""
        s = self.spec
        cloth = linear_colour(CLOTH_COLOURS.get(s.id, CLOTH_COLOURS["pool-9ft"]))
        glow = tuple(
            ((bx0, by0, bz0 + 0.04), (bx1, by1, bz1))
            for (bx0, by0, bz0), (bx1, by1, bz1) in self._glow_boxes()
        )
        return RoomLight(
            half_length=s.half_length,
            half_width=s.half_width,
            rail_out=s.cushion_width + s.rail_width,
            floor_z=s.floor_z,
            room_half=(float(ROOM_HALF[0]), float(ROOM_HALF[1])),
            room_height=float(ROOM_HEIGHT),
            lamps=glow,
            cloth=(cloth[0], cloth[1], cloth[2]),
            fill=FILL_IRRADIANCE,
        )

    def _glow_boxes(self) -> list[tuple[Vec3T, Vec3T]]:
        out: list[tuple[Vec3T, Vec3T]] = []
        for sh in lamp_shades(self.spec.id, self.lamp_box):
            x, y, z = sh.centre
            hx, hy = sh.half if sh.kind == "canopy" else (sh.radius * 0.85, sh.radius * 0.85)
            out.append(((x - hx, y - hy, z), (x + hx, y + hy, z + sh.height)))
        return out

    def _lamp_box(self) -> tuple[Vec3T, Vec3T]:
        g = self.geometry
        if g is not None and g.lamp_box is not None:
            lo, hi = g.lamp_box
            return (tuple(lo), tuple(hi))  # type: ignore[return-value]
        lx, ly, lz = self.lamp
        half_l, half_w, tall = LAMP_SHADE[0] / 2, LAMP_SHADE[1] / 2, LAMP_SHADE[2]
        return ((lx - half_l, ly - half_w, lz), (lx + half_l, ly + half_w, lz + tall))

    def _finish(self, np_: NodePath, finish: str, specular: float = 0.0, shininess: float = 1.0) -> None:
        """The surface's material: its physically based finish (high) or a vertex-lit one (low)."""
        if self.high:
            np_.setMaterial(pbr_material(finish), 1)
        else:
            np_.setMaterial(self._material(finish, specular, shininess), 1)

    def _texture(self, np_: NodePath, tex: Any) -> None:
        np_.setTexture(srgb_texture(tex) if self.high else tex, 1)

    # ------------------------------------------------------------------ public API
    def add_ball(self, ball: str) -> NodePath:
        """Create the node of ``ball`` (hidden until a state is set) and return it."""
        if ball in self.balls:
            return self.balls[ball]
        np_ = self.balls_np.attachNewNode(f"ball-{ball}")
        self._ball_template.instanceTo(np_)
        self._texture(np_, ball_texture(ball, str(self.style)))
        np_.setQuat(Quat(*_initial_quat(ball)))
        np_.hide()
        shadow = self._shadow_template.copyTo(self.balls_np)
        shadow.hide()
        self.balls[ball] = np_
        self._shadows[ball] = shadow
        return np_

    def set_ball_state(
        self, ball: str, pos: Sequence[float], quat: Sequence[float] | None = None, visible: bool = True
    ) -> None:
        """Place ``ball`` at ``pos`` (ball centre, table frame) with orientation ``quat`` = (w, x, y, z)."""
        np_ = self.balls.get(ball) or self.add_ball(ball)
        x, y, z = float(pos[0]), float(pos[1]), float(pos[2])
        np_.setPos(x, y, z)
        if quat is not None:
            np_.setQuat(Quat(float(quat[0]), float(quat[1]), float(quat[2]), float(quat[3])))
        shadow = self._shadows[ball]
        if visible:
            np_.show()
            surface = self.surface_z(x, y)
            height = z - surface - self.spec.ball_radius
            if height < 1.0 and z > surface - 0.5 * self.spec.ball_radius:
                # A contact shadow: grows and fades as the ball rises (jumps, balls in flight).
                grow = 1.0 + 1.5 * max(height, 0.0)
                shadow.setPos(x, y, surface + 0.0012)
                shadow.setScale(grow)
                shadow.setAlphaScale(max(0.0, 0.9 * (1.0 - height)))
                shadow.show()
            else:
                shadow.hide()
        else:
            np_.hide()
            shadow.hide()
        q = (float(quat[0]), float(quat[1]), float(quat[2]), float(quat[3])) if quat is not None else None
        if self.high:
            self._reflect_floor(ball, np_, z < -self.spec.ball_radius)
        self._states[ball] = BallState((x, y, z), q, visible)
        for np_h, target in self._highlights.values():
            if target == ball:
                np_h.setPos(x, y, self.surface_z(x, y) + 0.0016)
                np_h.show() if visible else np_h.hide()

    def _reflect_floor(self, ball: str, np_: NodePath, low: bool) -> None:
        """A ball below the bed (falling, on the floor) reflects the floor round it, not the cloth."""
        if low == (ball in self._on_floor):
            return
        if low:
            self._on_floor.add(ball)
            floor = linear_colour(FLOOR)
            room = replace(self.room_light(), cloth=(floor[0] * 0.3, floor[1] * 0.3, floor[2] * 0.3))
            apply_room(np_, room)
        else:
            self._on_floor.discard(ball)
            for name in ("sh_coeffs", "filtered_env_map", "max_reflection_lod"):
                np_.clearShaderInput(name)

    def set_balls(self, states: Mapping[str, BallState]) -> None:
        """Set every ball in ``states``; balls not mentioned keep their state."""
        for ball, s in states.items():
            self.set_ball_state(ball, s.pos, s.quat, s.visible)

    def ball_state(self, ball: str) -> BallState | None:
        return self._states.get(ball)

    def highlight(
        self,
        target: str | Sequence[float],
        colour: Sequence[float] = (1.0, 0.85, 0.1, 1.0),
        key: str | None = None,
    ) -> str:
        """Ring a ball (by id, the ring follows it) or a point (x, y[, z]) on the table; returns the key to clear it."""
        R = self.spec.ball_radius
        mb = MeshBuilder("highlight")
        ring = [(math.cos(a), math.sin(a)) for a in (2 * math.pi * k / 48 for k in range(49))]
        rgba = (
            float(colour[0]),
            float(colour[1]),
            float(colour[2]),
            float(colour[3]) if len(colour) > 3 else 1.0,
        )
        for k in range(48):
            (c0, s0), (c1, s1) = ring[k], ring[k + 1]
            r0, r1 = 1.35 * R, 1.75 * R
            mb.quad(
                [(r0 * c0, r0 * s0, 0), (r1 * c0, r1 * s0, 0), (r1 * c1, r1 * s1, 0), (r0 * c1, r0 * s1, 0)],
                rgba,
                (0, 0, 1),
            )
        np_ = self.root.attachNewNode(mb.node())
        np_.setLightOff(1)
        np_.setDepthOffset(2)
        ball = target if isinstance(target, str) else None
        if ball is not None:
            s = self._states.get(ball)
            x, y = (s.pos[0], s.pos[1]) if s else (0.0, 0.0)
            if s is None or not s.visible:
                np_.hide()
        else:
            pt = [float(v) for v in target]
            x, y = pt[0], pt[1]
        np_.setPos(x, y, self.surface_z(x, y) + 0.0016)
        name = key or (ball if ball is not None else f"point-{len(self._highlights)}")
        self.clear_highlight(name)
        self._highlights[name] = (np_, ball)
        return name

    def sight_lines(self, lines: Sequence[tuple[Sequence[float], Sequence[float], bool]], key: str) -> str:
        """Draw lines of sight on the cloth (from, to, clear): green where clear, red where blocked (the free-ball
        call); cleared with :meth:`clear_highlight` by ``key``."""
        from panda3d.core import LineSegs

        ls = LineSegs(key)
        ls.setThickness(2.0)
        z = self.spec.ball_radius
        for a, b, clear in lines:
            ls.setColor(*((0.3, 0.95, 0.35, 1.0) if clear else (1.0, 0.25, 0.2, 1.0)))
            ls.moveTo(float(a[0]), float(a[1]), z)
            ls.drawTo(float(b[0]), float(b[1]), z)
        np_ = self.root.attachNewNode(ls.create())
        np_.setLightOff(1)
        self.clear_highlight(key)
        self._highlights[key] = (np_, None)
        return key

    def clear_highlight(self, key: str | None = None) -> None:
        """Remove one highlight (by the key :meth:`highlight` returned) or all of them."""
        keys = list(self._highlights) if key is None else [key]
        for k in keys:
            item = self._highlights.pop(k, None)
            if item is not None:
                item[0].removeNode()

    def set_lamp_visible(self, visible: bool) -> None:
        """Hide the lamp canopy (its light stays on): a camera straight above would look at its top."""
        self.lamp_np.show() if visible else self.lamp_np.hide()

    def add_object(self, obj: SceneObject, index: int | None = None) -> NodePath:
        """Draw a scenario object (``chalk``, ``person``, ``cue-on-rail``).

        With the physics' geometry (``index`` = the object's place in the scenario) it is drawn in the very box
        the simulation collides with; otherwise at ``at`` with the same regulation sizes.
        """
        mb = MeshBuilder(f"object-{obj.kind}")
        box = self._object_box(obj, index)
        (x0, y0, z0), (x1, y1, z1) = box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if obj.kind == "chalk":
            mb.box((x0, y0, z0), (x1, y1, z1), (0.15, 0.35, 0.80, 1.0))
            # The cup worn into the top by the tip.
            mb.disc((cx, cy, z1 + 0.0004), 0.3 * (x1 - x0), (0.45, 0.62, 0.92, 1.0), 12)
        elif obj.kind == "person":
            # Facing the table: towards its middle along the box's short side.
            (bx0, by0, _), (bx1, by1, _) = box
            along_y = (bx1 - bx0) >= (by1 - by0)
            centre = (by0 + by1) / 2 if along_y else (bx0 + bx1) / 2
            person(mb, box, -1.0 if centre > 0 else 1.0)
            np_ = self._object_node(mb)
            if self.high:
                np_.setShaderInput("global_shadow_bias", BALL_SHADOW_BIAS)  # round parts, as the balls
            return np_
        else:
            self._cue(mb, box)
        return self._object_node(mb)

    def _object_node(self, mb: MeshBuilder) -> NodePath:
        """An object's node; at high quality its colours in linear light, as every other mesh's (an object a
        screen adds after the view is built too: the trainer adds its case's objects)."""
        np_ = self.objects_np.attachNewNode(mb.node())
        if self.high:
            linearise_vertex_colours(np_)
        return np_

    def _object_box(self, obj: SceneObject, index: int | None) -> tuple[Vec3T, Vec3T]:
        g = self.geometry
        if g is not None and index is not None and index < len(g.object_boxes):
            kind, lo, hi = g.object_boxes[index]
            return (tuple(lo), tuple(hi))  # type: ignore[return-value]
        s = self.spec
        x, y, _ = obj.at
        base = self.surface_z(x, y)
        if obj.kind == "chalk":
            h = CHALK / 2
            return (x - h, y - h, base), (x + h, y + h, base + CHALK)
        if obj.kind == "person":
            w, d, tall = PERSON
            side = abs(y) - (s.half_width + s.cushion_width + s.rail_width) >= abs(x) - (
                s.half_length + s.cushion_width + s.rail_width
            )
            hx, hy = (w / 2, d / 2) if side else (d / 2, w / 2)
            return (x - hx, y - hy, s.floor_z), (x + hx, y + hy, s.floor_z + tall)
        length = float(obj.params.get("length", CUE_LEN)) if obj.params else CUE_LEN
        along_x = abs(y) > s.half_width + s.cushion_width or not abs(x) > s.half_length + s.cushion_width
        hx, hy = (length / 2, CUE_R) if along_x else (CUE_R, length / 2)
        return (x - hx, y - hy, base), (x + hx, y + hy, base + 2 * CUE_R)

    def surface_z(self, x: float, y: float) -> float:
        """Height of what lies under (x, y): the cloth, the rail top, or the floor."""
        s = self.spec
        hl, hw = s.half_length + s.cushion_width, s.half_width + s.cushion_width
        if abs(x) <= hl and abs(y) <= hw:
            return 0.0
        if abs(x) <= hl + s.rail_width and abs(y) <= hw + s.rail_width:
            return s.rail_height
        return s.floor_z

    def destroy(self) -> None:
        """Remove every node and light this view made."""
        self.clear_highlight()
        for light in self._lights:
            self.root.clearLight(light)
            light.removeNode()
        self.root.removeNode()
        self.balls.clear()
        self._shadows.clear()

    # ------------------------------------------------------------------ building
    def _make_ball_template(self) -> NodePath:
        mb = MeshBuilder("ball")
        mb.sphere((0, 0, 0), self.spec.ball_radius, (1, 1, 1, 1), slices=32, stacks=16)
        np_ = NodePath(mb.node())
        self._finish(np_, "ball", 0.7, 60.0)
        return np_

    def _material(self, name: str, specular: float = 0.0, shininess: float = 1.0) -> Material:
        """A material that takes its colour from the vertices (see ``software`` in the class docs)."""
        mat = Material(name)
        if self.software:
            mat.setDiffuse((1, 1, 1, 1))
            mat.setAmbient((1, 1, 1, 1))
        if specular > 0:
            mat.setSpecular((specular, specular, specular * 0.9, 1))
            mat.setShininess(shininess)
        return mat

    def _make_shadow_template(self) -> NodePath:
        mb = MeshBuilder("shadow")
        r = 1.8 * self.spec.ball_radius
        mb.quad(
            [(-r, -r, 0), (r, -r, 0), (r, r, 0), (-r, r, 0)],
            (0, 0, 0, 1),
            (0, 0, 1),
            ((0, 0), (1, 0), (1, 1), (0, 1)),
        )
        np_ = NodePath(mb.node())
        np_.setTexture(shadow_texture())
        np_.setTransparency(TransparencyAttrib.MAlpha)
        np_.setDepthWrite(False)
        np_.setLightOff(1)
        np_.setBin("fixed", 0)
        np_.setAttrib(
            ColorBlendAttrib.make(
                ColorBlendAttrib.MAdd,
                ColorBlendAttrib.OIncomingAlpha,
                ColorBlendAttrib.OOneMinusIncomingAlpha,
            )
        )
        return np_

    def _build_room(self) -> None:
        """The room (scenes.room): its own node, so the light bounced round it can be set on it alone."""
        self.room_np = self.static.attachNewNode("room")
        fnp = self.room_np.attachNewNode(build_floor(self.spec).node())
        self._texture(fnp, floor_texture())
        self._finish(fnp, "floor")
        self._finish(self.room_np.attachNewNode(build_walls(self.spec).node()), "wall")

    def _build_table(self) -> None:
        s = self.spec
        mesh = self.mesh
        cloth_col = CLOTH_COLOURS.get(s.id, CLOTH_COLOURS["pool-9ft"])
        cushion_col = tuple(c * 0.88 for c in cloth_col[:3]) + (1.0,)
        # Cloth.
        cloth = MeshBuilder("cloth")
        cloth.polygon(
            mesh.cloth_outline(), 0.0, cloth_col, max_edge=0.22, uv_of=lambda x, y: (x / 0.3, y / 0.3)
        )
        cnp = self.table_np.attachNewNode(cloth.node())
        self._texture(cnp, cloth_texture())
        self._finish(cnp, "cloth")
        # The underlay (a black board under the slate, with the wells' holes) and each pocket's liner.
        dark = MeshBuilder("pockets")
        dark.polygon(mesh.outer_rect(), UNDERLAY_Z, HOLE, holes=[list(p.well) for p in self.pockets.values()])
        for p in self.pockets.values():
            draw_liner(dark, p, mesh.rubber_top, LINER)
        dnp = self.table_np.attachNewNode(dark.node())
        # The liner meets the cloth, the rubber and the rail along its edges: drawn after them, where their
        # depths tie there they win, always (in the opaque bin, sorted by state, the tie went one way or the
        # other from one process to the next: the same scenario drew different pixels).
        dnp.setBin(_liner_bin(), 0)
        self._finish(dnp, "liner")
        self._steep.append(dnp)
        # The bottoms: a net on Russian and snooker tables, the drop pocket's rubber cup on pool.
        net = self.style != BallStyle.POOL
        bottoms = MeshBuilder("pocket-bottoms")
        for p in self.pockets.values():
            draw_bottom(bottoms, p, NET_STRING if net else LINER, net)
        bnp = self.table_np.attachNewNode(bottoms.node())
        if net:
            self._texture(bnp, net_texture())
        self._finish(bnp, "net" if net else "rubber")
        # Cushions.
        cush = MeshBuilder("cushions")
        mesh.cushions(cush, cushion_col)  # type: ignore[arg-type]
        knp = self.table_np.attachNewNode(cush.node())
        self._finish(knp, "cushion")
        self._steep.append(knp)
        # Rails, frame, legs.
        wood = MeshBuilder("rails")
        mesh.rails(wood)
        wnp = self.table_np.attachNewNode(wood.node())
        self._steep.append(wnp)
        self._texture(wnp, wood_texture())
        self._finish(wnp, "varnish", 0.25, 30.0)
        trim = MeshBuilder("trim")
        mesh.sights(trim)
        mesh.markings(
            trim, self.style in (BallStyle.PYRAMID, BallStyle.SNOOKER), self.style == BallStyle.POOL
        )
        tnp = self.table_np.attachNewNode(trim.node())
        tnp.setDepthOffset(1)
        self._finish(tnp, "leather")
        # Russian tables wear metal pocket irons on the rail round each pocket; pool and snooker a leather rim.
        irons = self.style == BallStyle.PYRAMID
        rims = MeshBuilder("pocket-rims")
        mesh.pocket_rims(rims, IRON if irons else RIM, 0.026 if irons else 0.02, 0.007 if irons else 0.005)
        rnp = self.table_np.attachNewNode(rims.node())
        rnp.setDepthOffset(1)
        self._finish(rnp, "metal" if irons else "leather", 0.8 if irons else 0.0, 40.0)
        if irons and self.high:
            # Polished metal shows the lamp; a room without it would leave the irons black.
            self._reflect_lamp.append(rnp)

    def cloth_outline(self) -> list[Vec2T]:
        """The slate's top inside the noses plus each throat up to its drop edge, anticlockwise."""
        return self.mesh.cloth_outline()

    def _build_lamp(self) -> NodePath:
        """The table's lamp (scenes.lamps) in the physics' shade box; its glowing parts shine by themselves."""
        body, glow = build_lamp(self.spec.id, self.lamp_box, self.spec.floor_z + ROOM_HEIGHT)
        np_ = self.root.attachNewNode("lamp")
        body.reparentTo(np_)
        glow.reparentTo(np_)
        self._finish(body, "shade", 0.4, 20.0)
        if self.high:
            glow.setMaterial(pbr_material("diffuser"), 1)
        else:
            # Vertex-lit, the glow must not be shaded by the lights it stands for.
            body.setLightOff(1)
            glow.setLightOff(1)
        return np_

    # ------------------------------------------------------------------ scene objects
    def _cue(self, mb: MeshBuilder, box: tuple[Vec3T, Vec3T]) -> None:
        """A cue lying along the long side of the physics' box, butt to tip (the box's radius is the mean)."""
        (x0, y0, z0), (x1, y1, z1) = box
        along_x = (x1 - x0) >= (y1 - y0)
        ux, uy = (1.0, 0.0) if along_x else (0.0, 1.0)
        length = max(x1 - x0, y1 - y0)
        r_mean = (z1 - z0) / 2
        r_butt, r_tip = 1.4 * r_mean, 0.6 * r_mean
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        n = 16
        for k in range(n):
            t0, t1 = k / n, (k + 1) / n
            r0 = r_butt + (r_tip - r_butt) * t0
            r1 = r_butt + (r_tip - r_butt) * t1
            col: ColourT = (0.15, 0.07, 0.03, 1.0) if t0 < 0.35 else (0.85, 0.72, 0.50, 1.0)
            ring0, ring1 = [], []
            for j in range(13):
                a = 2 * math.pi * j / 12
                sx, sy, sz = -uy * math.cos(a), ux * math.cos(a), math.sin(a)
                # Lying on the rail: every section touches the surface, the butt stands a little higher.
                c0 = (cx + ux * (t0 - 0.5) * length, cy + uy * (t0 - 0.5) * length, z0 + r0)
                c1 = (cx + ux * (t1 - 0.5) * length, cy + uy * (t1 - 0.5) * length, z0 + r1)
                ring0.append(
                    mb.vertex((c0[0] + sx * r0, c0[1] + sy * r0, c0[2] + sz * r0), (sx, sy, sz), col)
                )
                ring1.append(
                    mb.vertex((c1[0] + sx * r1, c1[1] + sy * r1, c1[2] + sz * r1), (sx, sy, sz), col)
                )
            for j in range(12):
                mb.triangle(ring0[j], ring1[j + 1], ring1[j])
                mb.triangle(ring0[j], ring0[j + 1], ring1[j + 1])


def _initial_quat(ball: str) -> tuple[float, float, float, float]:
    """A fixed, ball-dependent starting orientation so the numbers of a rack do not all face one way.

    Derived from the ball id's characters (not ``hash()``, which Python salts per process) to stay deterministic.
    """
    seed = sum((i + 1) * ord(c) for i, c in enumerate(ball))
    heading = math.radians((seed * 47) % 360)
    tilt = math.radians(((seed * 29) % 50) - 25)
    # Rotation about z by heading, then about x by tilt: q = qz * qx.
    qz = (math.cos(heading / 2), 0.0, 0.0, math.sin(heading / 2))
    qx = (math.cos(tilt / 2), math.sin(tilt / 2), 0.0, 0.0)
    return quat_mul(qz, qx)


def quat_mul(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, float]:
    """Hamilton product a·b of (w, x, y, z) quaternions."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def initial_quat(ball: str) -> tuple[float, float, float, float]:
    return _initial_quat(ball)
