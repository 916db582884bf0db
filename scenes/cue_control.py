"""The cue: aim, power, tip offset (english) and elevation, the stick and the cue's widgets.

``CueState`` is the player's stroke as numbers (degrees at this edge, like scenario files) and
becomes a :class:`ShotParams`; ``aim_hit`` is the pure geometry of a straight line from a ball (first
ball it would meet, or the cushion). ``CueView`` draws the stick, the power gauge, the tip diagram, the
elevation seen from the side and the cue's numbers; the aiming aids are :mod:`scenes.aim_view`. It reads
input only through the screen that owns it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from physics.record import ShotParams
from physics.tables import TableSpec
from scenes.cue_mesh import BUTT_RADIUS, CUE_LENGTH, TIP_RADIUS, clearing_elevation, cue_mesh

__all__ = ["BUTT_RADIUS", "CUE_LENGTH", "TIP_RADIUS"]

MAX_SPEED = 10.0  # m/s: a hard break is ~8-9 m/s of cue speed; more is beyond a human stroke
REST_PULLBACK, MAX_PULLBACK = (
    0.05,
    0.30,
)  # m between tip and ball: the stick at rest, and at full power's drag
MAX_ELEVATION = 85.0  # a massé cue is near vertical, never exactly (the strike direction degenerates)
MAX_TIP = 0.8  # beyond ~0.5 R the tip miscues on a real ball; the physics decides, we allow room


@dataclass(frozen=True)
class CueState:
    direction: float = 0.0  # degrees anticlockwise from +x
    speed: float = 3.0  # cue speed at impact, m/s
    elevation: float = 5.0  # degrees above the bed (a real cue always rises over the rail a little)
    tip: tuple[float, float] = (0.0, 0.0)  # [right+, up+] in ball radii

    def turned(self, degrees: float) -> CueState:
        return replace(self, direction=(self.direction + degrees) % 360.0)

    def with_speed(self, speed: float) -> CueState:
        return replace(self, speed=min(MAX_SPEED, max(0.0, speed)))

    def with_elevation(self, elevation: float) -> CueState:
        return replace(self, elevation=min(MAX_ELEVATION, max(0.0, elevation)))

    def with_tip(self, x: float, y: float) -> CueState:
        r = math.hypot(x, y)
        if r > MAX_TIP:
            x, y = x * MAX_TIP / r, y * MAX_TIP / r
        return replace(self, tip=(x, y))

    def shot(
        self, ball: str = "cue", call_ball: str | None = None, call_pocket: str | None = None
    ) -> ShotParams:
        return ShotParams(
            ball=ball,
            cue_speed=self.speed,
            direction=self.direction,
            elevation=self.elevation,
            tip=self.tip,
            call_ball=call_ball,
            call_pocket=call_pocket,
        )


@dataclass(frozen=True)
class AimHit:
    end: tuple[float, float]  # where the cue ball's centre path ends (ghost ball or cushion)
    ball: str | None = None  # the first ball met, if any
    object_dir: tuple[float, float] | None = None  # where that ball would go (line of centres)


def direction_to(src: tuple[float, float], dst: tuple[float, float]) -> float:
    """Degrees anticlockwise from +x from ``src`` towards ``dst``."""
    return math.degrees(math.atan2(dst[1] - src[1], dst[0] - src[0])) % 360.0


def aim_hit(
    spec: TableSpec, positions: Mapping[str, tuple[float, float]], ball: str, direction: float
) -> AimHit:
    """The straight path of ``ball`` along ``direction``: to the first ball it would touch, else a cushion.

    Contact happens when the centres are 2R apart, so each other ball is a circle of radius 2R for the
    moving centre; the earliest ray/circle intersection wins.
    """
    x0, y0 = positions[ball]
    a = math.radians(direction)
    dx, dy = math.cos(a), math.sin(a)
    R = spec.ball_radius
    best_t = math.inf
    best: str | None = None
    for other, (x, y) in positions.items():
        if other == ball:
            continue
        fx, fy = x - x0, y - y0
        along = fx * dx + fy * dy
        if along <= 0:
            continue
        perp2 = fx * fx + fy * fy - along * along
        reach2 = (2 * R) ** 2 - perp2
        if reach2 < 0:
            continue
        t = along - math.sqrt(reach2)
        if 0 <= t < best_t:
            best_t, best = t, other
    # The cushion: the centre stops R from the nose line.
    lim_x, lim_y = spec.half_length - R, spec.half_width - R
    t_wall = math.inf
    if dx > 1e-12:
        t_wall = min(t_wall, (lim_x - x0) / dx)
    elif dx < -1e-12:
        t_wall = min(t_wall, (-lim_x - x0) / dx)
    if dy > 1e-12:
        t_wall = min(t_wall, (lim_y - y0) / dy)
    elif dy < -1e-12:
        t_wall = min(t_wall, (-lim_y - y0) / dy)
    t_wall = max(0.0, t_wall)
    if best is not None and best_t <= t_wall:
        gx, gy = x0 + dx * best_t, y0 + dy * best_t
        bx, by = positions[best]
        n = math.hypot(bx - gx, by - gy) or 1.0
        return AimHit((gx, gy), best, ((bx - gx) / n, (by - gy) / n))
    return AimHit((x0 + dx * t_wall, y0 + dy * t_wall))


def cue_axis(direction: float, elevation: float) -> tuple[float, float, float]:
    """Unit vector along the cue from butt to tip (down into the ball when the cue is raised)."""
    a, e = math.radians(direction), math.radians(elevation)
    return (math.cos(a) * math.cos(e), math.sin(a) * math.cos(e), -math.sin(e))


def tip_contact(centre: tuple[float, float, float], R: float, cue: CueState) -> tuple[float, float, float]:
    """Point on the ball the tip meets for the cue's offset: right/up measured across the cue axis."""
    u = cue_axis(cue.direction, cue.elevation)
    a = math.radians(cue.direction)
    right = (math.sin(a), -math.cos(a), 0.0)
    up = (
        right[1] * u[2] - right[2] * u[1],
        right[2] * u[0] - right[0] * u[2],
        right[0] * u[1] - right[1] * u[0],
    )
    ox, oy = cue.tip
    depth = math.sqrt(max(0.0, 1.0 - ox * ox - oy * oy))
    return tuple(centre[i] + R * (-u[i] * depth + ox * right[i] + oy * up[i]) for i in range(3))  # type: ignore[return-value]


def stick_pose(
    centre: tuple[float, float, float], R: float, cue: CueState, gap: float
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Where the stick is drawn: its tip ``gap`` back along the cue from where it meets the ball, and the unit
    vector along it towards the ball (the axis through the tip's contact point: see ``clearing_elevation``)."""
    u = cue_axis(cue.direction, cue.elevation)
    c = tip_contact(centre, R, cue)
    return (c[0] - u[0] * gap, c[1] - u[1] * gap, c[2] - u[2] * gap), u


def still_cue(
    parent: Any,
    spec: TableSpec,
    positions: Mapping[str, tuple[float, float]],
    ball: str,
    cue: CueState,
    gap: float = REST_PULLBACK,
) -> Any:
    """The stick behind ``ball`` in a still picture (``render``, the gallery), as the play screen draws it: ``gap``
    back from the ball, the butt raised at least as far as the rails and balls behind force. Returns its node."""
    from scenes.look import shading_of

    stick = parent.attachNewNode(cue_mesh())
    finish_stick(stick, shading_of(parent) == "high")
    forced = clearing_elevation(spec, positions, ball, cue.direction, gap=gap, tip=cue.tip)
    raised = cue if cue.elevation >= forced else cue.with_elevation(forced)
    x, y = positions[ball]
    tip, u = stick_pose((x, y, spec.ball_radius), spec.ball_radius, raised, gap)
    from panda3d.core import Point3

    stick.setPos(Point3(*tip))
    stick.lookAt(Point3(tip[0] + u[0], tip[1] + u[1], tip[2] + u[2]))
    return stick


def _circle(radius: float, n: int = 48) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    pts = [
        (radius * math.cos(2 * math.pi * k / n), radius * math.sin(2 * math.pi * k / n)) for k in range(n + 1)
    ]
    return list(zip(pts[:-1], pts[1:], strict=True))


# Light-space depth bias of the stick's own shadow test. The shaft is 6-13 mm across, about three texels of the
# lamp's shadow map: at the cloth's small bias its round surface shadowed itself in stripes along the grain of
# the map (acne); a ball's bias (scenes.table_view) leaves its shading to the lamp's angle, as on the balls.
CUE_SHADOW_BIAS = 0.05


def finish_stick(stick: Any, high: bool) -> None:
    """The stick's varnish; at high quality its colours in linear light and its own shadow bias."""
    from scenes.look import linearise_vertex_colours

    stick.setMaterial(cue_material(), 1)
    if high:
        linearise_vertex_colours(stick)
        stick.setShaderInput("global_shadow_bias", CUE_SHADOW_BIAS)


def cue_material() -> Any:
    """Varnished wood: its finish for the PBR shader, a soft highlight for vertex lighting."""
    from scenes.look import pbr_material

    mat = pbr_material("cue")
    mat.setSpecular((0.3, 0.3, 0.3, 1))
    mat.setShininess(40.0)
    mat.setDiffuse((1, 1, 1, 1))
    mat.setAmbient((1, 1, 1, 1))
    return mat


class CueView:
    """Draws the cue stick under ``parent`` (the table frame) and the cue's 2D widgets: the power gauge, the
    ball diagram with the tip's contact point (and the miscue limit), the cue's elevation seen from the side,
    and the numbers (the cue taken, power, elevation, english, direction, the predicted squirt)."""

    TIP_R = 0.11  # radius of the ball diagram (aspect2d units)

    def __init__(
        self,
        base: Any,
        parent: Any,
        root2d: Any,
        spec: TableSpec,
        font: Any,
        lang: str,
        miscue_limit: float = 0.51,
        squirt: Any = None,
    ) -> None:
        from direct.gui.DirectGui import DirectFrame, DirectWaitBar
        from direct.gui.OnscreenText import OnscreenText
        from panda3d.core import TextNode

        self.base = base
        self.spec = spec
        self.lang = lang
        self.miscue_limit = miscue_limit
        # (tip side offset in radii, cue kind) -> squirt angle (radians), the physics' model
        self.squirt = squirt
        self.kind = "playing"  # the cue taken (physics.cues.CUE_KINDS)
        self.stick = parent.attachNewNode(cue_mesh())
        from scenes.look import shading_of

        finish_stick(self.stick, shading_of(parent) == "high")
        self.forced_elevation = 0.0  # the least elevation that clears rails and balls (see raised())
        self.pullback = REST_PULLBACK  # gap between tip and ball, m (drawn; grows with a power drag)
        corner = base.a2dBottomRight
        # One low bottom-right bar (the player's and side views show their picture above it): the cue's
        # numbers with the power gauge under them, then the elevation and the tip diagrams side by side.
        self.gauge = DirectWaitBar(
            parent=corner,
            range=MAX_SPEED,
            value=0,
            pos=(-0.78, 0, 0.03),
            frameSize=(-0.22, 0.22, -0.016, 0.016),
            barColor=(0.9, 0.3, 0.1, 1),
            frameColor=(0.1, 0.1, 0.1, 0.8),
        )
        r = self.TIP_R
        self.tip_widget = DirectFrame(
            parent=corner,
            frameColor=(0.15, 0.15, 0.15, 0.6),
            frameSize=(-r - 0.01, r + 0.01, -r - 0.01, r + 0.01),
            pos=(-0.15, 0, 0.15),
        )
        self.tip_widget.setTransparency(True)
        self._ball_disc = self._disc(self.tip_widget, r, (0.98, 0.98, 0.95, 1))
        self._lines(self.tip_widget, self._tip_marks(r), (0.45, 0.45, 0.5, 1))
        self._lines(self.tip_widget, _circle(r * miscue_limit), (0.85, 0.3, 0.2, 1))
        self.tip_dot = self._disc(self.tip_widget, 0.018, (0.2, 0.35, 0.85, 1))
        # The cue's elevation seen from the side: the ball on the cloth line and the cue at its angle.
        self.elev_widget = DirectFrame(
            parent=corner,
            frameColor=(0.15, 0.15, 0.15, 0.6),
            frameSize=(-r - 0.01, r + 0.01, -r - 0.01, r + 0.01),
            pos=(-0.41, 0, 0.15),
        )
        self.elev_widget.setTransparency(True)
        self._lines(self.elev_widget, [((-r, -0.6 * r), (r, -0.6 * r))], (0.3, 0.7, 0.35, 1))
        self._disc(self.elev_widget, 0.35 * r, (0.98, 0.98, 0.95, 1)).setPos(0.35 * r, 0, -0.25 * r)
        self.elev_cue = self.elev_widget.attachNewNode("elevation-cue")
        self.text = OnscreenText(
            parent=corner,
            pos=(-1.0, 0.245),
            align=TextNode.ALeft,
            scale=0.033,
            fg=(1, 1, 1, 1),
            shadow=(0, 0, 0, 0.8),
            bg=(0, 0, 0, 0.45),
            font=font,
            mayChange=True,
        )
        # Six lines' room above the gauge (the squirt's line comes and goes): the panel's top stays put, and
        # with it the band the player's and side views show their picture in.
        line = float(self.text.textNode.getLineHeight()) * 0.033
        self.text.setPos(-1.0, 0.062 + 5 * line)
        self.widgets = [self.gauge, self.tip_widget, self.elev_widget, self.text]
        self._elevation_drawn: float | None = None

    @staticmethod
    def _tip_marks(r: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        return [((-r, 0.0), (r, 0.0)), ((0.0, -r), (0.0, r))]

    @staticmethod
    def _lines(parent: Any, segs: Any, colour: tuple[float, float, float, float], px: float = 1.5) -> Any:
        """Line segments ``[((x0, z0), (x1, z1)), ...]`` in a widget's plane (aspect2d units)."""
        from panda3d.core import LineSegs

        ls = LineSegs("marks")
        ls.setThickness(px)
        ls.setColor(*colour)
        for a, b in segs:
            ls.moveTo(a[0], 0, a[1])
            ls.drawTo(b[0], 0, b[1])
        return parent.attachNewNode(ls.create())

    @staticmethod
    def _disc(parent: Any, radius: float, colour: tuple[float, float, float, float]) -> Any:
        from panda3d.core import (
            Geom,
            GeomNode,
            GeomTriangles,
            GeomVertexData,
            GeomVertexFormat,
            GeomVertexWriter,
        )

        vdata = GeomVertexData("disc", GeomVertexFormat.getV3c4(), Geom.UHStatic)
        vw, cw = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "color")
        tris = GeomTriangles(Geom.UHStatic)
        vw.addData3(0, 0, 0)
        cw.addData4(*colour)
        n = 32
        for k in range(n + 1):
            a = 2 * math.pi * k / n
            vw.addData3(radius * math.cos(a), 0, radius * math.sin(a))
            cw.addData4(*colour)
        for k in range(n):
            tris.addVertices(0, k + 2, k + 1)
        geom = Geom(vdata)
        geom.addPrimitive(tris)
        node = GeomNode("disc")
        node.addGeom(geom)
        return parent.attachNewNode(node)

    def tip_from_mouse(self, mx: float, my: float) -> tuple[float, float] | None:
        """The tip offset for a click at aspect2d point (mx, my) on the widget, None when outside it."""
        p = self.tip_widget.getPos(self.base.aspect2d)
        x, y = (mx - p[0]) / self.TIP_R, (my - p[2]) / self.TIP_R
        if math.hypot(x, y) > 1.15:
            return None
        return (x, y)

    def squirt_deg(self, cue: CueState) -> float:
        """The cue ball's predicted deflection from the aim line, degrees (+: to the left)."""
        if self.squirt is None or not cue.tip[0]:
            return 0.0
        return math.degrees(float(self.squirt(cue.tip[0], self.kind)))

    def _draw_elevation(self, elevation: float) -> None:
        if self._elevation_drawn == elevation:
            return
        self._elevation_drawn = elevation
        self.elev_cue.node().removeAllChildren()
        r = self.TIP_R
        bx, bz, br = 0.35 * r, -0.25 * r, 0.35 * r
        a = math.radians(elevation)
        # The cue comes from the left and above, its line through the ball's centre at the elevation angle.
        tip = (bx - br * 1.15 * math.cos(a), bz + br * 1.15 * math.sin(a))
        butt = (tip[0] - 1.4 * r * math.cos(a), tip[1] + 1.4 * r * math.sin(a))
        self._lines(self.elev_cue, [(tip, butt)], (0.86, 0.74, 0.52, 1), px=3.0)

    def update(
        self,
        cue: CueState,
        centre: tuple[float, float] | None,
        positions: Mapping[str, tuple[float, float]] | None = None,
        ball: str = "cue",
        visible: bool = True,
    ) -> None:
        """Place the stick behind the ball, redraw the gauge, the diagrams and the numbers."""
        from scenes.core.i18n import tr

        R = self.spec.ball_radius
        self.gauge["value"] = cue.speed
        self.tip_dot.setPos(cue.tip[0] * self.TIP_R, 0, cue.tip[1] * self.TIP_R)
        self._draw_elevation(self.raised(cue).elevation)
        lines = [
            tr("cue.kind", self.lang, name=tr(f"cue.kind.{self.kind}", self.lang)),
            tr("cue.power", self.lang, v=cue.speed),
            tr("cue.elevation", self.lang, v=self.raised(cue).elevation),
            tr("cue.tip", self.lang, x=cue.tip[0], y=cue.tip[1]),
            tr("cue.direction", self.lang, v=round(cue.direction, 1) % 360.0),  # 359.96 reads 0.0, not 360.0
        ]
        squirt = self.squirt_deg(cue)
        if abs(squirt) >= 0.05:
            side = tr("cue.left" if squirt > 0 else "cue.right", self.lang)
            lines.append(tr("cue.squirt", self.lang, v=abs(squirt), side=side))
        self.text.setText("\n".join(lines))
        if centre is None or not visible:
            self.stick.hide()
            return
        self.stick.show()
        if positions is not None:
            # The butt's reach counts as far back as a full power drag draws the stick.
            self.forced_elevation = clearing_elevation(
                self.spec, positions, ball, cue.direction, gap=MAX_PULLBACK, tip=cue.tip
            )
        self.place_stick(self.raised(cue), (centre[0], centre[1], R), self.pullback)

    def raised(self, cue: CueState) -> CueState:
        """The stroke as it can be played: the butt raised over the rail and the balls behind the cue ball
        when the chosen elevation would put the stick through them."""
        if cue.elevation >= self.forced_elevation:
            return cue
        return cue.with_elevation(self.forced_elevation)

    def place_stick(self, cue: CueState, centre: tuple[float, float, float], gap: float) -> None:
        from panda3d.core import Point3

        t, u = stick_pose(centre, self.spec.ball_radius, cue, gap)
        tip = Point3(*t)
        self.stick.setPos(tip)
        # +Y along the cue axis towards the ball: the mesh runs along -Y from the tip, back to the butt.
        self.stick.lookAt(Point3(tip[0] + u[0], tip[1] + u[1], tip[2] + u[2]))

    def destroy(self) -> None:
        for w in self.widgets:
            w.destroy()
        self.widgets.clear()
        self.stick.removeNode()
