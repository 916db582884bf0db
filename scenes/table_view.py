"""The table in 3D at regulation size, built procedurally from a :class:`physics.tables.TableSpec`.

Draws what it is handed and decides nothing: the app (or the replay player) sets ball states; this module only
turns numbers into nodes. Everything sits under one ``root`` node that owns its own lights, so several views can
live in one ShowBase (tests, offscreen renders) and ``destroy()`` leaves nothing behind.

Geometry, in the table frame (z = 0 on the cloth, +x to the foot, +y to the left):
- cloth: the bed inside the cushion noses plus each pocket's throat, cut at the near edge of the pocket hole;
- cushions: the rubber profile (nose at ``cushion_nose_height``, undercut to the bed, top tilted up towards the
  rail) swept along each nose segment, their jaw ends cut parallel to the pocket axis;
- pockets: a round hole behind the mouth, a dark cup going down ``pocket_depth`` with the net at its bottom, and a
  round bite in the wooden rail above;
- rails: the wooden top with sights, outer faces, the apron, legs to the floor at ``-bed_height``;
- room: a parquet floor, dark walls, and the lamp canopy with the lights that light the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from panda3d.core import (
    ColorBlendAttrib,
    ConfigVariableString,
    Material,
    NodePath,
    Quat,
    TransparencyAttrib,
)

from physics.errors import InputError
from physics.plan import ROOM_HALF, ROOM_HEIGHT, TablePlan, scene_plan  # the room the physics' walls bound
from physics.scenario import SceneObject
from physics.tables import NOSE_EDGE_RISE, Pocket, TableSpec
from scenes.geom_mesh import ColourT, MeshBuilder, Vec2T, Vec3T, arc
from scenes.lamps import build_lamp, lamp_shades, make_lights
from scenes.look import (
    RoomLight,
    apply_room,
    linear_colour,
    linearise_vertex_colours,
    pbr_material,
    shading_of,
)
from scenes.textures import (
    BallStyle,
    ball_texture,
    cloth_texture,
    floor_texture,
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
WOOD: ColourT = (0.36, 0.17, 0.07, 1.0)
WOOD_DARK: ColourT = (0.20, 0.09, 0.04, 1.0)
LEATHER: ColourT = (0.06, 0.04, 0.03, 1.0)
HOLE: ColourT = (0.015, 0.015, 0.015, 1.0)
NET: ColourT = (0.045, 0.032, 0.024, 1.0)
MARK: ColourT = (0.92, 0.94, 0.90, 1.0)
PEARL: ColourT = (0.95, 0.93, 0.86, 1.0)
BRASS: ColourT = (0.72, 0.56, 0.24, 1.0)
RIM: ColourT = (0.13, 0.08, 0.05, 1.0)
IRON: ColourT = (0.78, 0.74, 0.66, 1.0)  # the nickel-plated pocket irons of a Russian table
FLOOR: ColourT = (0.50, 0.33, 0.20, 1.0)
WALL: ColourT = (0.34, 0.28, 0.22, 1.0)
SHADE: ColourT = (0.08, 0.22, 0.12, 1.0)

# Sizes of things the physics also knows (physics.plan), used when its plan is not available.
CHALK = 0.022  # a cube of billiard chalk
PERSON = (0.45, 0.30, 1.75)  # shoulder width, depth, height
CUE_LEN, CUE_R = 1.45, 0.011  # a cue lying on a rail: length, mean radius
LAMP_SHADE = (1.4, 0.45, 0.15)  # length (x), width (y), height

# Light-space depth. A ball's own shading already falls off with the lamp's angle: a large bias keeps its
# shadow map from cutting a hard self-shadow across it (the cloth's small bias is scenes.look's).
BALL_SHADOW_BIAS = 0.05
UNDERLAY_Z = -0.025  # black board under the slate top, seen through the holes and throats; far enough
# below the cloth for a 16-bit depth buffer (the software renderer's) at 5 m
APRON_DEPTH = 0.20  # rail outer face + apron below the cloth
FRAME_DEPTH = 0.32  # bottom of the carcass below the cloth


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


@dataclass(frozen=True)
class PocketShape:
    """Where a pocket's parts are drawn (table frame, metres)."""

    id: str
    mouth_mid: Vec2T  # midpoint between the jaw noses
    axis: Vec2T  # unit vector from the bed into the pocket
    half_mouth: float
    hole_centre: Vec2T
    hole_radius: float
    bite_centre: Vec2T  # centre of the round cut in the rail top
    bite_radius: float
    # From the physics' own pocket geometry when it is available (see ``physics_pocket_shapes``): the well
    # (the cut in the slate a ball drops into, anticlockwise corners), its floor, and each jaw's outline on the
    # cloth by cushion id: nose end, round the jaw fillet, down the facing to the drop line.
    well: tuple[Vec2T, ...] = ()
    floor_z: float = 0.0
    jaws: tuple[tuple[str, tuple[Vec2T, ...]], ...] = ()

    def jaw(self, cushion: str) -> tuple[Vec2T, ...]:
        return dict(self.jaws).get(cushion, ())


def pocket_shape(spec: TableSpec, p: Pocket) -> PocketShape:
    """Visual layout of one pocket.

    The hole is a little wider than the mouth (a quarter ball radius on each side) and its near edge lies on the
    pocket axis ``corridor`` behind the mouth line: a ball that passes the jaws reaches the drop where the
    corridor ends, and the hole never bites into the bed in front of the mouth.
    """
    ax, ay = p.axis
    h = p.mouth / 2
    mx, my = (p.centre[0] - ax * h, p.centre[1] - ay * h) if p.corner else p.centre
    r_hole = h + 0.25 * spec.ball_radius
    t_hole = p.corridor + r_hole
    hole_c = (mx + ax * t_hole, my + ay * t_hole)
    # The rail's round cut shares the hole's centre and reaches past the cushions' backs, so hole, throat and
    # bite read as one opening.
    cw = spec.cushion_width
    if p.corner:
        q = (p.centre[0] + math.copysign(cw, ax), p.centre[1] + math.copysign(cw, ay))
    else:
        q = (p.centre[0] + ax * cw, p.centre[1] + ay * cw)
    bite_r = max(1.12 * r_hole, math.hypot(q[0] - hole_c[0], q[1] - hole_c[1]) + 0.3 * r_hole)
    return PocketShape(p.id, (mx, my), (ax, ay), h, hole_c, r_hole, hole_c, bite_r)


def physics_geometry(
    spec: TableSpec, objects: Sequence[SceneObject] = (), lamp: Vec3T | None = (0.0, 0.0, 1.0)
) -> TablePlan | None:
    """The physics' own plan of the table (``physics.plan.scene_plan``, no Bullet), so pockets, lamp and
    objects are drawn exactly where the simulation has them. None when the physics refuses these objects
    (then the view draws from the spec alone)."""
    try:
        return scene_plan(spec, tuple(objects), lamp)
    except InputError:
        return None


def physics_pocket_shapes(spec: TableSpec, geometry: Any = None) -> dict[str, PocketShape] | None:
    """Pockets drawn from the physics' collision geometry, so a ball drops exactly where the slate ends.

    The physics builds its jaws (nose end, fillet, straight facing at the cut angle) and the wells below the drop
    lines; this turns those numbers into drawing outlines. None without the physics' geometry, and the view falls
    back to :func:`pocket_shape`.
    """
    g = geometry if geometry is not None else physics_geometry(spec)
    if g is None:
        return None
    out: dict[str, PocketShape] = {}
    R = spec.ball_radius
    for pid, pk in g.pockets.items():
        a0, a1, hw = pk.a_drop, pk.a_drop + pk.well_length, pk.well_half_width
        well = tuple(pk.world(a, t) for a, t in ((a0, -hw), (a1, -hw), (a1, hw), (a0, hw)))
        if _signed_area(well) < 0:
            well = tuple(reversed(well))
        centre = pk.world((a0 + a1) / 2, 0.0)
        jaws = []
        for j in pk.jaws:
            pts: list[Vec2T] = [j.fillet_start]
            if j.facets > 0 and math.dist(j.fillet_start, j.fillet_end) > 1e-9:
                r = math.dist(j.fillet_centre, j.fillet_start)
                a_s = math.atan2(
                    j.fillet_start[1] - j.fillet_centre[1], j.fillet_start[0] - j.fillet_centre[0]
                )
                a_e = math.atan2(j.fillet_end[1] - j.fillet_centre[1], j.fillet_end[0] - j.fillet_centre[0])
                sweep = (a_e - a_s + math.pi) % (2 * math.pi) - math.pi  # the short way round
                pts += arc(j.fillet_centre, r, a_s, a_s + sweep, 8)[1:-1]
                pts.append(j.fillet_end)
            pts.append(j.facing_end)
            jaws.append((j.cushion, tuple(pts)))
        n0, n1 = pk.jaws[0].nose_end, pk.jaws[1].nose_end
        out[pid] = PocketShape(
            id=pid,
            mouth_mid=((n0[0] + n1[0]) / 2, (n0[1] + n1[1]) / 2),
            axis=pk.axis,
            half_mouth=math.dist(n0, n1) / 2,
            hole_centre=centre,
            hole_radius=hw,
            bite_centre=centre,
            bite_radius=math.hypot(hw, pk.well_length / 2) + 0.15 * R,
            well=well,
            floor_z=pk.floor_z,
            jaws=tuple(jaws),
        )
    return out


# The cushions walked anticlockwise seen from above, with the pocket that follows each one.
_CUSHION_WALK: tuple[tuple[str, str], ...] = (
    ("right-head", "middle-right"),
    ("right-foot", "foot-right"),
    ("foot", "foot-left"),
    ("left-foot", "middle-left"),
    ("left-head", "head-left"),
    ("head", "head-right"),
)


def _walk_ends(spec: TableSpec, cid: str) -> tuple[Vec2T, Vec2T]:
    """A cushion's nose segment oriented anticlockwise around the bed."""
    c = spec.cushions[cid]
    a, b = c.start, c.end
    # Anticlockwise travel keeps the bed on the left: left of (b - a) is the inward normal.
    dx, dy = b[0] - a[0], b[1] - a[1]
    if -dy * c.normal[0] + dx * c.normal[1] < 0:
        a, b = b, a
    return a, b


def _arc_through(
    centre: Vec2T, r: float, p_in: Vec2T, p_out: Vec2T, through: Vec2T, step: float
) -> list[Vec2T]:
    """Arc from p_in to p_out (both on the circle) passing the point of the circle in direction ``through``."""
    a0 = math.atan2(p_in[1] - centre[1], p_in[0] - centre[0])
    a1 = math.atan2(p_out[1] - centre[1], p_out[0] - centre[0])
    am = math.atan2(through[1], through[0])
    tau = 2 * math.pi
    sweep = (a1 - a0) % tau
    if (am - a0) % tau > sweep:
        sweep -= tau
    n = max(4, int(abs(sweep) * r / step) + 1)
    return arc(centre, r, a0, a0 + sweep, n)


def _signed_area(pts: Sequence[Vec2T]) -> float:
    return 0.5 * sum(
        pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1]
        for i in range(len(pts))
    )


class TableView:
    """The table, room, lamp and balls of one scene.

    Args:
        parent: where ``root`` is attached (``base.render`` in the app, any node for offscreen renders).
        spec: the table to build.
        ball_ids: the balls to create (design.md ids); others can be added with :meth:`add_ball`.
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
        self.pockets = (
            physics_pocket_shapes(spec, self.geometry) if self.geometry is not None else None
        ) or {pid: pocket_shape(spec, p) for pid, p in spec.pockets.items()}
        self.lamp_box = self._lamp_box()
        self.balls: dict[str, NodePath] = {}
        self._shadows: dict[str, NodePath] = {}
        self._states: dict[str, BallState] = {}
        self._highlights: dict[str, tuple[NodePath, str | None]] = {}
        self._ball_template = self._make_ball_template()
        self._shadow_template = self._make_shadow_template()
        self.static = self.root.attachNewNode("static")
        self._reflect_lamp: list[NodePath] = []
        self._build_room()
        self._build_table()
        self.lamp_np = self._build_lamp()
        self._lights = make_lights(self.root, spec.id, self.lamp_box, self.high)
        self.objects_np = self.root.attachNewNode("objects")
        self._finish(self.objects_np, "varnish", 0.3, 20.0)
        for i, obj in enumerate(objects):
            self.add_object(obj, i)
        self.balls_np = self.root.attachNewNode("balls")
        for bid in ball_ids:
            self.add_ball(bid)
        if self.high:
            linearise_vertex_colours(self.root)
            # Flat parts reflect the dim room; the balls, small beside the lamp's distance, also its glow.
            apply_room(self.root, replace(self.room_light(), lamps=()))
            apply_room(self.balls_np, self.room_light())
            for np_ in self._reflect_lamp:
                apply_room(np_, self.room_light())
            # A ball's round surface would shadow itself in stripes at the cloth's small depth bias.
            self.balls_np.setShaderInput("global_shadow_bias", BALL_SHADOW_BIAS)
        # Static geometry never moves: flattening cuts draw calls (matters on the software renderer).
        self.static.flattenStrong()

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
        self._states[ball] = BallState((x, y, z), q, visible)
        for np_h, target in self._highlights.values():
            if target == ball:
                np_h.setPos(x, y, self.surface_z(x, y) + 0.0016)
                np_h.show() if visible else np_h.hide()

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
            pt = [float(v) for v in target]  # type: ignore[union-attr]
            x, y = pt[0], pt[1]
        np_.setPos(x, y, self.surface_z(x, y) + 0.0016)
        name = key or (ball if ball is not None else f"point-{len(self._highlights)}")
        self.clear_highlight(name)
        self._highlights[name] = (np_, ball)
        return name

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
            self._person(mb, box)
        else:
            self._cue(mb, box)
        return self.objects_np.attachNewNode(mb.node())

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
        s = self.spec
        fz = s.floor_z
        hx, hy = ROOM_HALF
        floor = MeshBuilder("floor")
        floor.polygon(
            [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)],
            fz,
            FLOOR,
            max_edge=1.0,
            uv_of=lambda x, y: (x / 1.2, y / 1.2),
        )
        fnp = self.static.attachNewNode(floor.node())
        self._texture(fnp, floor_texture())
        self._finish(fnp, "floor")
        walls = MeshBuilder("walls")
        top = fz + ROOM_HEIGHT
        corners = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
        for k in range(4):
            (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 4]
            nx, ny = -(y1 - y0), (x1 - x0)
            length = math.hypot(nx, ny)
            n = (nx / length, ny / length, 0.0)
            walls.quad([(x0, y0, fz + 0.1), (x1, y1, fz + 0.1), (x1, y1, top), (x0, y0, top)], WALL, n)
            # A skirting board keeps the corner between floor and wall readable. It stands proud of the wall
            # (a board drawn in the wall's own plane fights it for depth: the picket fence along the seam).
            ox, oy = n[0] * 0.015, n[1] * 0.015
            a0, a1 = (x0 + ox, y0 + oy), (x1 + ox, y1 + oy)
            walls.quad([(*a0, fz), (*a1, fz), (*a1, fz + 0.1), (*a0, fz + 0.1)], WOOD_DARK, n)
            walls.quad(
                [(*a0, fz + 0.1), (*a1, fz + 0.1), (x1, y1, fz + 0.1), (x0, y0, fz + 0.1)],
                WOOD_DARK,
                (0, 0, 1),
            )
        walls.polygon(corners, top, (0.09, 0.08, 0.07, 1), up=False)
        self._finish(self.static.attachNewNode(walls.node()), "wall")

    def _build_table(self) -> None:
        s = self.spec
        cloth_col = CLOTH_COLOURS.get(s.id, CLOTH_COLOURS["pool-9ft"])
        cushion_col = tuple(c * 0.88 for c in cloth_col[:3]) + (1.0,)
        # Cloth.
        cloth = MeshBuilder("cloth")
        cloth.polygon(
            self.cloth_outline(), 0.0, cloth_col, max_edge=0.22, uv_of=lambda x, y: (x / 0.3, y / 0.3)
        )
        cnp = self.static.attachNewNode(cloth.node())
        self._texture(cnp, cloth_texture())
        self._finish(cnp, "cloth")
        # Underlay (seen through the holes), pocket cups and nets.
        dark = MeshBuilder("pockets")
        outer = self._outer_rect()
        holes = [
            list(p.well) if p.well else arc(p.hole_centre, p.hole_radius * 0.999, 0, -2 * math.pi, 32)[:-1]
            for p in self.pockets.values()
        ]
        dark.polygon(outer, UNDERLAY_Z, HOLE, holes=holes)
        for p in self.pockets.values():
            if p.well:
                self._well(dark, p)
                continue
            cx, cy = p.hole_centre
            dark.cylinder((cx, cy, 0), p.hole_radius, -s.pocket_depth, UNDERLAY_Z, LEATHER, 32, inside=True)
            dark.disc((cx, cy, -s.pocket_depth), p.hole_radius, NET, 32)
            # The net bag hanging below the cup, seen from the side under the rail.
            dark.cylinder(
                (cx, cy, 0),
                p.hole_radius * 0.8,
                -s.pocket_depth - 0.08,
                -s.pocket_depth,
                NET,
                16,
                bottom=True,
                radius_top=p.hole_radius,
            )
        self._finish(self.static.attachNewNode(dark.node()), "net")
        # Cushions.
        cush = MeshBuilder("cushions")
        self._cushions(cush, cushion_col)  # type: ignore[arg-type]
        self._finish(self.static.attachNewNode(cush.node()), "cushion")
        # Rails, frame, legs.
        wood = MeshBuilder("rails")
        self._rails(wood)
        wnp = self.static.attachNewNode(wood.node())
        self._texture(wnp, wood_texture())
        self._finish(wnp, "varnish", 0.25, 30.0)
        trim = MeshBuilder("trim")
        self._sights(trim)
        self._markings(trim)
        tnp = self.static.attachNewNode(trim.node())
        tnp.setDepthOffset(1)
        self._finish(tnp, "leather")
        # Russian tables wear metal pocket irons on the rail round each pocket; pool and snooker a leather rim.
        irons = self.style == BallStyle.PYRAMID
        rims = MeshBuilder("pocket-rims")
        self._pocket_rims(rims, IRON if irons else RIM, 0.024 if irons else 0.014)
        rnp = self.static.attachNewNode(rims.node())
        rnp.setDepthOffset(1)
        self._finish(rnp, "metal" if irons else "leather", 0.8 if irons else 0.0, 40.0)
        if irons and self.high:
            # Polished metal shows the lamp; a room without it would leave the irons black.
            self._reflect_lamp.append(rnp)

    def _well(self, mb: MeshBuilder, p: PocketShape) -> None:
        """The physics' well under a drop line: dark walls down to its floor, the net bag hanging below."""
        w = list(p.well)
        cx = sum(q[0] for q in w) / 4
        cy = sum(q[1] for q in w) / 4
        for q0, q1 in zip(w, w[1:] + w[:1], strict=True):
            nrm = (cx - (q0[0] + q1[0]) / 2, cy - (q0[1] + q1[1]) / 2)
            length = math.hypot(*nrm) or 1.0
            mb.quad(
                [
                    (q0[0], q0[1], p.floor_z),
                    (q1[0], q1[1], p.floor_z),
                    (q1[0], q1[1], UNDERLAY_Z),
                    (q0[0], q0[1], UNDERLAY_Z),
                ],
                LEATHER,
                (nrm[0] / length, nrm[1] / length, 0.0),
            )
        mb.polygon(w, p.floor_z, NET)
        bag = [(cx + (q[0] - cx) * 0.8, cy + (q[1] - cy) * 0.8) for q in w]
        for q0, q1 in zip(bag, bag[1:] + bag[:1], strict=True):
            nrm = ((q0[0] + q1[0]) / 2 - cx, (q0[1] + q1[1]) / 2 - cy)
            length = math.hypot(*nrm) or 1.0
            mb.quad(
                [
                    (q0[0], q0[1], p.floor_z - 0.08),
                    (q1[0], q1[1], p.floor_z - 0.08),
                    (q1[0], q1[1], p.floor_z),
                    (q0[0], q0[1], p.floor_z),
                ],
                NET,
                (nrm[0] / length, nrm[1] / length, 0.0),
            )
        mb.polygon(bag, p.floor_z - 0.08, NET, up=False)

    def _outer_rect(self) -> list[Vec2T]:
        s = self.spec
        X = s.half_length + s.cushion_width + s.rail_width
        Y = s.half_width + s.cushion_width + s.rail_width
        return [(-X, -Y), (X, -Y), (X, Y), (-X, Y)]

    def cloth_outline(self) -> list[Vec2T]:
        """The slate's top inside the noses plus each throat up to its drop edge, anticlockwise."""
        out: list[Vec2T] = []
        for cid, pid in _CUSHION_WALK:
            nxt_id = _next_cushion(cid)
            p = self.pockets[pid]
            a, b = _walk_ends(self.spec, cid)
            if p.jaws:
                # Physics jaws: nose to fillet to facing, across the drop line, and back up the other jaw.
                start_jaw = self.pockets[_CUSHION_WALK[_CUSHION_WALK.index((cid, pid)) - 1][1]].jaw(cid)
                a = start_jaw[0] if start_jaw else a
                out.append(a)
                out.extend(p.jaw(cid))
                out.extend(reversed(p.jaw(nxt_id)[1:]))
                continue
            out.append(a)
            out.append(b)
            nxt = _walk_ends(self.spec, nxt_id)[0]
            # Along each jaw face to where it meets the hole, then round the hole's near side.
            depth = math.hypot(
                p.hole_centre[0] - p.mouth_mid[0], p.hole_centre[1] - p.mouth_mid[1]
            ) - math.sqrt(p.hole_radius**2 - p.half_mouth**2)
            ax, ay = p.axis
            p_in = (b[0] + ax * depth, b[1] + ay * depth)
            p_out = (nxt[0] + ax * depth, nxt[1] + ay * depth)
            out.append(p_in)
            out.extend(_arc_through(p.hole_centre, p.hole_radius, p_in, p_out, (-ax, -ay), 0.006)[1:-1])
            out.append(p_out)
        out = [pt for k, pt in enumerate(out) if _far(pt, out[k - 1])]
        if _signed_area(out) < 0:
            out.reverse()
        return out

    def _cushions(self, mb: MeshBuilder, colour: ColourT) -> None:
        s = self.spec
        h, cw = s.cushion_nose_height, s.cushion_width
        # The same profile the physics builds: the rubber's edge NOSE_EDGE_RISE above the nose, the top
        # rising at the spec's tilt to the rail top at the back (physics.tables.rail_height_for).
        top_back = s.rail_height
        undercut = min(0.35 * h, 0.6 * cw)
        section: list[Vec2T] = [
            (0.0, h),
            (0.0, h + NOSE_EDGE_RISE),
            (cw, top_back),
            (cw, 0.0),
            (undercut, 0.0),
        ]
        for k, (cid, pid_after) in enumerate(_CUSHION_WALK):
            pid_before = _CUSHION_WALK[k - 1][1]
            a, b = _walk_ends(s, cid)
            n = s.cushions[cid].normal
            o = (-n[0], -n[1])
            jaw_a, jaw_b = self.pockets[pid_before].jaw(cid), self.pockets[pid_after].jaw(cid)
            if jaw_a and jaw_b:
                # Straight rubber between the fillets; the jaws are built from the physics' outline below.
                a, b = jaw_a[0], jaw_b[0]
                pa, pb = _jaw_path(a, o, o), _jaw_path(b, o, o)
            else:
                ax_a, ax_b = self.pockets[pid_before].axis, self.pockets[pid_after].axis
                pa, pb = _jaw_path(a, ax_a, o), _jaw_path(b, ax_b, o)
            mb.extrude(section, pa, pb, colour, closed=True, max_length=0.2)
            ua = (b[0] - a[0], b[1] - a[1])
            for path, sign in ((pa, -1.0), (pb, 1.0)):
                pts = [(path(d)[0], path(d)[1], z) for d, z in section]
                mb.cap(pts, colour, (sign * ua[0], sign * ua[1], 0.0))
            for pid, jaw in ((pid_before, jaw_a), (pid_after, jaw_b)):
                if jaw:
                    self._jaw_block(mb, colour, cid, self.pockets[pid], jaw, o, top_back)

    def _jaw_block(
        self,
        mb: MeshBuilder,
        colour: ColourT,
        cid: str,
        p: PocketShape,
        jaw: Sequence[Vec2T],
        o: Vec2T,
        top_back: float,
    ) -> None:
        """The rubber at a jaw: its outline on the cloth (fillet, facing) out to the drop line, then along the drop
        line to the well's side and back to the rail; walls where a ball can see them, the top tilted like the
        straight rubber's."""
        s = self.spec
        h, cw = s.cushion_nose_height, s.cushion_width
        nose = jaw[0]

        def depth(q: Vec2T) -> float:
            return (q[0] - nose[0]) * o[0] + (q[1] - nose[1]) * o[1]

        other = next(pts for c, pts in p.jaws if c != cid)
        f, g = jaw[-1], other[-1]
        along = (f[0] - g[0], f[1] - g[1])
        length = math.hypot(*along) or 1.0
        along = (along[0] / length, along[1] / length)
        centre = ((p.well[0][0] + p.well[2][0]) / 2, (p.well[0][1] + p.well[2][1]) / 2) if p.well else f
        half_w = p.hole_radius
        t_f = abs((f[0] - centre[0]) * along[0] + (f[1] - centre[1]) * along[1])
        p1 = (f[0] + along[0] * max(0.0, half_w - t_f), f[1] + along[1] * max(0.0, half_w - t_f))
        p2 = (p1[0] + o[0] * max(0.0, cw - depth(p1)), p1[1] + o[1] * max(0.0, cw - depth(p1)))
        back = (nose[0] + o[0] * cw, nose[1] + o[1] * cw)
        plan = [*jaw, p1, p2, back]
        plan = [pt for k, pt in enumerate(plan) if _far(pt, plan[k - 1])]
        slope = (top_back - h) / cw

        def top_z(x: float, y: float) -> float:
            return h + slope * min(max(depth((x, y)), 0.0), cw)

        if _signed_area(plan) < 0:
            plan.reverse()
        mb.polygon(plan, h, colour, z_of=top_z)
        # Walls: the jaw's face towards the throat, and the face over the drop line down into the well.
        ring = [*jaw, p1]
        for q0, q1 in zip(ring, ring[1:], strict=False):
            dx, dy = q1[0] - q0[0], q1[1] - q0[1]
            seg = math.hypot(dx, dy)
            if seg < 1e-9:
                continue
            nrm = (-dy / seg, dx / seg, 0.0)
            mid = ((q0[0] + q1[0]) / 2, (q0[1] + q1[1]) / 2)
            if (nrm[0] * (centre[0] - mid[0]) + nrm[1] * (centre[1] - mid[1])) < 0 and q0 is not jaw[-1]:
                nrm = (-nrm[0], -nrm[1], 0.0)
            if q0 is jaw[-1]:
                # Along the drop line: faces the well, i.e. away from the bed.
                nrm = (p.axis[0], p.axis[1], 0.0)
            bottom = UNDERLAY_Z if q0 is jaw[-1] else 0.0
            mb.quad(
                [
                    (q0[0], q0[1], bottom),
                    (q1[0], q1[1], bottom),
                    (q1[0], q1[1], top_z(*q1)),
                    (q0[0], q0[1], top_z(*q0)),
                ],
                colour,
                nrm,
            )

    def _bite_arcs(self) -> dict[str, list[Vec2T]]:
        """Each pocket's round cut in the rail top: the arc of it that lies on the rail, in walk order."""
        s = self.spec
        X, Y = s.half_length + s.cushion_width, s.half_width + s.cushion_width
        order = [
            ("head-right", (-X, -Y)),
            ("middle-right", (0.0, -Y)),
            ("foot-right", (X, -Y)),
            ("foot-left", (X, Y)),
            ("middle-left", (0.0, Y)),
            ("head-left", (-X, Y)),
        ]
        out: dict[str, list[Vec2T]] = {}
        for k, (pid, q) in enumerate(order):
            p = self.pockets[pid]
            prev_q, next_q = order[k - 1][1], order[(k + 1) % 6][1]
            r = p.bite_radius
            p_in = _circle_exit(q, prev_q, p.bite_centre, r)
            p_out = _circle_exit(q, next_q, p.bite_centre, r)
            out[pid] = _arc_through(p.bite_centre, r, p_in, p_out, p.axis, 0.006)
        return out

    def _pocket_rims(self, mb: MeshBuilder, colour: ColourT, width: float) -> None:
        """A rim ``width`` wide round every pocket's cut in the rail top (a thin plate: the rail top the physics
        has is under it)."""
        z = self.spec.rail_height + 0.0008
        for pid, pts in self._bite_arcs().items():
            c = self.pockets[pid].bite_centre
            r = self.pockets[pid].bite_radius
            grow = (r + width) / r
            for q0, q1 in zip(pts, pts[1:], strict=False):
                o0 = (c[0] + (q0[0] - c[0]) * grow, c[1] + (q0[1] - c[1]) * grow)
                o1 = (c[0] + (q1[0] - c[0]) * grow, c[1] + (q1[1] - c[1]) * grow)
                mb.quad(
                    [(q0[0], q0[1], z), (q1[0], q1[1], z), (o1[0], o1[1], z), (o0[0], o0[1], z)],
                    colour,
                    (0, 0, 1),
                )

    def _rail_hole(self) -> list[tuple[Vec2T, bool]]:
        """Inner outline of the rail top: the pocket cuts joined by the cushions' backs, anticlockwise (the flag
        marks points on a cut; every point is on one, the straight runs between them are the cushion backs)."""
        out: list[tuple[Vec2T, bool]] = []
        for pts in self._bite_arcs().values():
            out.extend((pt, True) for pt in pts)
        return out

    def _rails(self, mb: MeshBuilder) -> None:
        s = self.spec
        rh = s.rail_height
        hole = self._rail_hole()
        hole_pts = [p for p, _ in hole]
        if _signed_area(hole_pts) < 0:
            hole.reverse()
            hole_pts.reverse()
        outer = self._outer_rect()
        mb.polygon(outer, rh, WOOD, holes=[hole_pts], max_edge=0.3, uv_of=lambda x, y: (x / 1.5, y / 0.35))
        # Inner faces: wood along the cushion backs, leather lining in the bites.
        n = len(hole)
        for k in range(n):
            (p0, on0), (p1, on1) = hole[k], hole[(k + 1) % n]
            dx, dy = p1[0] - p0[0], p1[1] - p0[1]
            length = math.hypot(dx, dy)
            if length < 1e-9:
                continue
            nx, ny = -dy / length, dx / length  # the hole is on the left of anticlockwise travel
            col = LEATHER if (on0 and on1) else WOOD_DARK
            mb.quad(
                [
                    (p0[0], p0[1], UNDERLAY_Z),
                    (p1[0], p1[1], UNDERLAY_Z),
                    (p1[0], p1[1], rh),
                    (p0[0], p0[1], rh),
                ],
                col,
                (nx, ny, 0),
            )
        # Outer faces down to the apron, with a darker band along the bottom.
        for k in range(4):
            (x0, y0), (x1, y1) = outer[k], outer[(k + 1) % 4]
            dx, dy = x1 - x0, y1 - y0
            length = math.hypot(dx, dy)
            nrm = (dy / length, -dx / length, 0.0)
            mb.quad(
                [(x0, y0, -APRON_DEPTH + 0.03), (x1, y1, -APRON_DEPTH + 0.03), (x1, y1, rh), (x0, y0, rh)],
                WOOD,
                nrm,
                ((0, 0), (length / 1.5, 0), (length / 1.5, 0.2), (0, 0.2)),
            )
            mb.quad(
                [
                    (x0, y0, -APRON_DEPTH),
                    (x1, y1, -APRON_DEPTH),
                    (x1, y1, -APRON_DEPTH + 0.03),
                    (x0, y0, -APRON_DEPTH + 0.03),
                ],
                WOOD_DARK,
                nrm,
            )
        X, Y = outer[2]
        mb.polygon(outer, -APRON_DEPTH, WOOD_DARK, up=False)
        inset = 0.08
        mb.box((-X + inset, -Y + inset, -FRAME_DEPTH), (X - inset, Y - inset, -APRON_DEPTH), WOOD_DARK)
        # Legs: six on the long 12 ft tables (and the 10 ft snooker), four on the 9 ft pool table.
        leg = 0.09 if s.length > 3.0 else 0.075
        xs = (-X + 0.25, 0.0, X - 0.25) if s.length > 3.0 else (-X + 0.22, X - 0.22)
        for lx in xs:
            for ly in (-Y + 0.2, Y - 0.2):
                mb.box((lx - leg, ly - leg, s.floor_z + 0.06), (lx + leg, ly + leg, -FRAME_DEPTH), WOOD)
                mb.box(
                    (lx - leg * 1.2, ly - leg * 1.2, s.floor_z),
                    (lx + leg * 1.2, ly + leg * 1.2, s.floor_z + 0.06),
                    WOOD_DARK,
                )

    def _sights(self, mb: MeshBuilder) -> None:
        """Diamonds every L/8 along the long rails and W/4 along the short ones (WPA layout; none on snooker)."""
        s = self.spec
        if self.style == BallStyle.SNOOKER:
            return
        hl, hw = s.half_length, s.half_width
        # WPA puts sight centres 93.7 mm behind the nose; wider rails keep the same share of the rail top.
        back = s.cushion_width + min(0.0937 - s.cushion_width, 0.5 * s.rail_width)
        if back <= s.cushion_width:
            back = s.cushion_width + 0.5 * s.rail_width
        z = s.rail_height + 0.001
        a, b = 0.013, 0.0065
        for k in (1, 2, 3, 5, 6, 7):
            x = -hl + k * s.length / 8
            for y in (hw + back, -hw - back):
                mb.quad([(x - a, y, z), (x, y - b, z), (x + a, y, z), (x, y + b, z)], PEARL, (0, 0, 1))
        for k in (1, 2, 3):
            y = -hw + k * s.width / 4
            for x in (hl + back, -hl - back):
                mb.quad([(x - b, y, z), (x, y - a, z), (x + b, y, z), (x, y + a, z)], PEARL, (0, 0, 1))

    def _markings(self, mb: MeshBuilder) -> None:
        s = self.spec
        z = 0.001
        w = 0.0015
        hw = s.half_width
        if self.style in (BallStyle.PYRAMID, BallStyle.SNOOKER):
            x = s.lines["head-string"]
            mb.quad([(x - w, -hw, z), (x + w, -hw, z), (x + w, hw, z), (x - w, hw, z)], MARK, (0, 0, 1))
        if self.style == BallStyle.SNOOKER and s.d_radius:
            x0 = s.lines["head-string"]
            r = s.d_radius
            pts = [(x0 - r * math.sin(t), r * math.cos(t)) for t in (math.pi * k / 64 for k in range(65))]
            for (x1, y1), (x2, y2) in zip(pts, pts[1:], strict=False):
                ox1, oy1 = (x1 - x0) / r * w, y1 / r * w
                ox2, oy2 = (x2 - x0) / r * w, y2 / r * w
                mb.quad(
                    [
                        (x1 - ox1, y1 - oy1, z),
                        (x1 + ox1, y1 + oy1, z),
                        (x2 + ox2, y2 + oy2, z),
                        (x2 - ox2, y2 - oy2, z),
                    ],
                    MARK,
                    (0, 0, 1),
                )
        spot_r = 0.0045 if self.style == BallStyle.SNOOKER else 0.006
        for name, (x, y) in s.spots.items():
            if self.style == BallStyle.POOL and name == "centre-spot":
                continue
            mb.disc((x, y, z), spot_r, MARK, 12)

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
    def _person(self, mb: MeshBuilder, box: tuple[Vec3T, Vec3T]) -> None:
        """A standing person filling the physics' box: legs, torso, arms at the sides, head."""
        (x0, y0, f), (x1, y1, top) = box
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        tall = top - f
        wide_x = (x1 - x0) >= (y1 - y0)
        half_w, half_d = (max(x1 - x0, y1 - y0) / 2, min(x1 - x0, y1 - y0) / 2)

        def at(u: float) -> tuple[float, float]:
            return (x + u, y) if wide_x else (x, y + u)

        cloth: ColourT = (0.18, 0.20, 0.28, 1.0)
        skin: ColourT = (0.80, 0.62, 0.50, 1.0)
        leg_r, arm_r = 0.3 * half_d, 0.22 * half_d
        for u in (-0.4 * half_w, 0.4 * half_w):
            lx, ly = at(u)
            mb.cylinder((lx, ly, 0), leg_r, f, f + 0.49 * tall, (0.12, 0.12, 0.14, 1.0), 12, top=True)
        tw, td = 0.74 * half_w, 0.85 * half_d
        sx, sy = (tw, td) if wide_x else (td, tw)
        mb.box((x - sx, y - sy, f + 0.48 * tall), (x + sx, y + sy, f + 0.83 * tall), cloth)
        for u in (-(half_w - arm_r), half_w - arm_r):
            ax, ay = at(u)
            mb.cylinder((ax, ay, 0), arm_r, f + 0.47 * tall, f + 0.82 * tall, cloth, 10, top=True)
        mb.cylinder((x, y, 0), 0.18 * half_w, f + 0.83 * tall, f + 0.87 * tall, skin, 10)
        head_r = 0.065 * tall
        mb.sphere((x, y, top - head_r), head_r, skin, 14, 8)

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


def _jaw_path(p: Vec2T, axis: Vec2T, outward: Vec2T) -> Callable[[float], Vec3T]:
    """A cushion end: the point ``depth`` behind the nose on a jaw face running parallel to the pocket axis."""
    k = 1.0 / max(axis[0] * outward[0] + axis[1] * outward[1], 0.3)
    return lambda depth: (p[0] + axis[0] * depth * k, p[1] + axis[1] * depth * k, 0.0)


def _next_cushion(cid: str) -> str:
    ids = [c for c, _ in _CUSHION_WALK]
    return ids[(ids.index(cid) + 1) % len(ids)]


def _far(a: Vec2T, b: Vec2T) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) > 1e-9


def _circle_exit(q: Vec2T, toward: Vec2T, centre: Vec2T, r: float) -> Vec2T:
    """Where the ray from q (inside the circle) towards ``toward`` leaves the circle."""
    ux, uy = toward[0] - q[0], toward[1] - q[1]
    length = math.hypot(ux, uy)
    ux, uy = ux / length, uy / length
    dx, dy = q[0] - centre[0], q[1] - centre[1]
    b = ux * dx + uy * dy
    c = dx * dx + dy * dy - r * r
    s = -b + math.sqrt(max(b * b - c, 0.0))
    return (q[0] + ux * s, q[1] + uy * s)


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
