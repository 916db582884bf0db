"""The camera rig: named views (player, orbit, top, side, follow, broadcast, free) with smooth moves.

Each view computes where the eye should be and what it should look at; every frame ``update(dt)`` moves the real
eye and look-at point towards them with a critically damped spring (no overshoot, no jerk on a mode change), so
switching from the player's view to the top view glides instead of jumping.

The API other parts use (the play screen, the replay, the referee trainer's decision framing):

- ``set_mode(name, target=..., aim=...)`` picks a view by its name (:data:`VIEWS`);
- ``frame(points, margin)`` keeps the view's direction and moves the eye so that every point is in the picture
  (the cue ball and the ball it is aimed at, a ball's flight and where it lands); it holds for the view it was
  set in (another view ignores it, coming back applies it again) until ``frame(())`` lets go;
- ``goal`` is where the view wants the eye and look-at point, ``snap()`` goes there at once.

The lamp never covers the table: the rig hides a table view's lamp when the eye is close to it or sees it over the
bed (its light stays on); from the high views it hangs over the far cushion, as in a club.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from panda3d.core import Camera, Lens, NodePath, Point3, Vec3

from physics.plan import ROOM_HALF
from physics.tables import TableSpec
from scenes.core.trainer.framing import beyond

NEAR, FAR = 0.05, 30.0


class CameraMode(StrEnum):
    ORBIT = "orbit"  # around a point (the cue ball), yaw/pitch/distance from the mouse
    TOP = "top"  # straight down, the whole table in view, head on the left
    PLAYER = "player"  # behind the cue ball along the aim, at a player's eye height
    FOLLOW = "follow"  # trailing a moving ball (the app feeds its position with set_target)
    SIDE = "side"  # across the table at ball height: jumps and balls leaving the bed
    BROADCAST = "broadcast"  # the high end view of television coverage, from behind the head cushion
    FREE = "free"  # moved and turned by hand


VIEWS: tuple[str, ...] = tuple(m.value for m in CameraMode)
LAMP_CLEARANCE = 0.45  # m: nearer to the lamp than this (or above its bottom) the eye would look into it


def smooth_damp(cur: float, target: float, vel: float, smooth_time: float, dt: float) -> tuple[float, float]:
    """One step of a critically damped spring towards ``target``; returns (new value, new velocity).

    The exponential is replaced by its Padé-like approximation, stable for any dt (a stalled frame cannot make
    the camera overshoot).
    """
    omega = 2.0 / max(smooth_time, 1e-4)
    x = omega * dt
    decay = 1.0 / (1.0 + x + 0.48 * x * x + 0.235 * x * x * x)
    change = cur - target
    temp = (vel + omega * change) * dt
    new_vel = (vel - omega * temp) * decay
    new = target + (change + temp) * decay
    return new, new_vel


class CameraRig:
    """Drives one camera over a table.

    Args:
        camera: a ShowBase (its ``camera`` and ``camLens`` are used) or a NodePath holding a ``Camera``.
        spec: the table, for the top view's framing and the side view's distance.
        smooth_time: seconds a move takes to settle (about); 0 makes every move instant.
    """

    def __init__(self, camera: Any, spec: TableSpec, smooth_time: float = 0.35) -> None:
        if hasattr(camera, "camLens") and hasattr(camera, "camera"):
            self.np: NodePath = camera.camera
            self.lens: Lens = camera.camLens
        else:
            self.np = camera
            node = camera.node()
            if not isinstance(node, Camera):
                found = camera.find("**/+Camera")
                node = found.node()
            self.lens = node.getLens()
        # Close views (the player's, a ball on the rail) need a near plane of centimetres; the room is a few
        # metres across, so a short far plane keeps depth precision for the cloth and its markings.
        self.lens.setNearFar(NEAR, FAR)
        self.spec = spec
        self.smooth_time = smooth_time
        self.mode = CameraMode.ORBIT
        self.target = Point3(0, 0, spec.ball_radius)
        self.aim_deg = 0.0
        self.yaw = 180.0  # orbit: the eye sits in this direction (degrees from +x) from the target
        self.pitch = 25.0
        self.distance = 1.6
        self.side_sign = -1.0
        # The part of the picture no HUD panel covers, as (x0, x1, y0, y1) of the film from -1 to 1: the top and
        # broadcast views frame the table inside it, its centre on the lens axis (see set_free).
        self.free: tuple[float, float, float, float] = (-1.0, 1.0, -1.0, 1.0)
        # The lens's own field of view while the player's and side views widen it (see _apply), else None.
        self._fov0: tuple[float, float] | None = None
        self.frame_points: tuple[tuple[float, float, float], ...] = ()
        self.frame_margin = 0.12
        self._frame_mode = CameraMode.PLAYER
        self._eye_goal = Point3(0, 0, 1)
        self._look_goal = Point3(0, 0, 0)
        self.eye = Point3(-3.0, 0.0, 1.5)
        self.look = Point3(0, 0, 0)
        self._eye_vel = [0.0, 0.0, 0.0]
        self._look_vel = [0.0, 0.0, 0.0]
        self.set_mode(CameraMode.ORBIT, snap=True)

    # ------------------------------------------------------------------ controls
    def set_mode(
        self,
        mode: CameraMode | str,
        *,
        target: Sequence[float] | None = None,
        aim: float | None = None,
        yaw: float | None = None,
        pitch: float | None = None,
        distance: float | None = None,
        snap: bool = False,
    ) -> None:
        """Switch mode. ``target`` is the point the mode centres on (cue ball, followed ball); ``aim`` the cue's
        direction in degrees (player view). ``snap`` jumps there at once instead of gliding."""
        self.mode = CameraMode(mode)
        if target is not None:
            self.set_target(target)
        if aim is not None:
            self.aim_deg = float(aim)
        if yaw is not None:
            self.yaw = float(yaw)
        if pitch is not None:
            self.pitch = float(pitch)
        if distance is not None:
            self.distance = float(distance)
        if self.mode == CameraMode.SIDE:
            # Stay on the side the eye is already on, so the move is short.
            self.side_sign = 1.0 if self.eye.y > 0 else -1.0
        if self.mode == CameraMode.FREE:
            self._eye_goal = Point3(self.eye)
            self._look_goal = Point3(self.look)
        self._occluders()
        self._goals()
        if snap:
            self.snap()

    def set_free(self, x0: float, x1: float, y0: float, y1: float) -> None:
        """The picture's area the HUD leaves free (film coordinates, -1..1 each way). The views that show the
        whole bed (top, broadcast) fit it there and shift the lens (an off-axis film offset) so its centre sits
        on the view's axis; picking through the lens stays exact, the offset being the lens's own."""
        x0, x1 = max(-1.0, min(x0, x1)), min(1.0, max(x0, x1))
        y0, y1 = max(-1.0, min(y0, y1)), min(1.0, max(y0, y1))
        if x1 - x0 < 0.2 or y1 - y0 < 0.2:  # panels over nearly all the window: keep the whole picture
            x0, x1, y0, y1 = -1.0, 1.0, -1.0, 1.0
        free = (x0, x1, y0, y1)
        if free != self.free:
            self.free = free
            self._goals()

    def _free_now(self) -> tuple[float, float, float, float]:
        return self.free if self.mode in (CameraMode.TOP, CameraMode.BROADCAST) else (-1.0, 1.0, -1.0, 1.0)

    def band(self) -> tuple[float, float, float, float]:
        """The part of the window the picture is composed for, in every view: the free part, which the top and
        broadcast views fit the table into and the others (player, side, orbit, follow, free) show their whole
        natural picture in (the screen bars off the rest); the whole window when no HUD asked for a part."""
        return self.free

    def release_lens(self) -> None:
        """Give the lens back its own field of view and axis (the screen that used the rig is leaving)."""
        if self._fov0 is not None:
            self.lens.setFov(*self._fov0)
            self._fov0 = None
        self.lens.setFilmOffset(0.0, 0.0)

    def _widen(self) -> None:
        """Every view but the top and broadcast ones: the lens widened so the free band (between the HUD's top and bottom
        bars) holds the view's whole natural height, wider to the sides; the film offset puts the axis at the
        band's centre. Picking stays exact: the band is part of the lens's own film."""
        x0, x1, y0, y1 = self.band()
        fitted = self.mode in (CameraMode.TOP, CameraMode.BROADCAST)
        wide = not fitted and (x0, x1, y0, y1) != (-1.0, 1.0, -1.0, 1.0)
        if not wide:
            if self._fov0 is not None:
                self.lens.setFov(*self._fov0)
                self._fov0 = None
            return
        if self._fov0 is None:
            self._fov0 = self._fov()
        # The window's shape may have changed since (its aspect is the lens's, set by the window): the view's
        # own field keeps its horizontal angle, as the lens does on a resize.
        aspect = float(self.lens.getAspectRatio())
        hfov0 = self._fov0[0]
        tv0 = math.tan(math.radians(hfov0) / 2) / aspect
        self._fov0 = (hfov0, 2 * math.degrees(math.atan(tv0)))
        tv = tv0 * 2.0 / (y1 - y0)
        self.lens.setFov(2 * math.degrees(math.atan(tv * aspect)), 2 * math.degrees(math.atan(tv)))

    def frame(self, points: Sequence[Sequence[float]], margin: float = 0.12) -> None:
        """Keep the view's direction and fit every point (table frame; z defaults to a ball's centre) into the
        picture with ``margin`` (a share of the half-frame) to spare. An empty sequence ends the framing."""
        R = self.spec.ball_radius
        self.frame_points = tuple(
            (float(p[0]), float(p[1]), float(p[2]) if len(p) > 2 else R) for p in points
        )
        self.frame_margin = float(margin)
        self._frame_mode = self.mode
        self._goals()

    def _occluders(self) -> None:
        """The lamp shade must never stand between the eye and the table: the top view looks down through it,
        an eye within ``LAMP_CLEARANCE`` would look into it, and an eye above it sees it over the bed when a
        line from the eye past it comes down on the table. Those hide the table views' ``lamp`` nodes (their
        light stays on); every other view shows the lamp, over the far cushion of a high view."""
        top = self.np.getTop()
        for lamp in top.findAllMatches("**/table-view-*/lamp"):
            hide = self.mode == CameraMode.TOP
            if not hide and not lamp.getBounds().isEmpty():
                lo, hi = lamp.getTightBounds(top)
                hide = self._lamp_in_the_way(lo, hi)
            lamp.hide() if hide else lamp.show()

    def _lamp_in_the_way(self, lo: Point3, hi: Point3) -> bool:
        e = self.eye
        dx = max(lo.x - e.x, 0.0, e.x - hi.x)
        dy = max(lo.y - e.y, 0.0, e.y - hi.y)
        dz = max(lo.z - e.z, 0.0, e.z - hi.z)
        if math.sqrt(dx * dx + dy * dy + dz * dz) < LAMP_CLEARANCE:
            return True
        s = self.spec
        out_x = s.half_length + s.cushion_width + s.rail_width
        out_y = s.half_width + s.cushion_width + s.rail_width
        for cx in (lo.x, hi.x):
            for cy in (lo.y, hi.y):
                for cz in (lo.z, hi.z):
                    down = e.z - cz
                    if down <= 1e-6:
                        continue  # a corner at or above the eye is seen against the room, never the bed
                    k = e.z / down  # where the line from the eye through the corner meets the bed's plane
                    hx, hy = e.x + (cx - e.x) * k, e.y + (cy - e.y) * k
                    if abs(hx) <= out_x and abs(hy) <= out_y:
                        return True
        return False

    def set_view(self, eye: Sequence[float], look: Sequence[float], snap: bool = False) -> None:
        """Put the eye at ``eye`` looking at ``look`` (free mode): for a director outside the rig (the trainer
        frames the deciding moment of a case) that computes the shot itself; the glide still smooths it."""
        if self.mode != CameraMode.FREE:
            self.mode = CameraMode.FREE
            self._occluders()
        self._eye_goal = Point3(float(eye[0]), float(eye[1]), float(eye[2]))
        self._look_goal = Point3(float(look[0]), float(look[1]), float(look[2]))
        if snap:
            self.snap()

    def set_target(self, point: Sequence[float]) -> None:
        z = float(point[2]) if len(point) > 2 else self.spec.ball_radius
        self.target = Point3(float(point[0]), float(point[1]), z)

    def set_aim(self, aim_deg: float) -> None:
        self.aim_deg = float(aim_deg)

    def orbit(self, d_yaw: float, d_pitch: float) -> None:
        """Turn around the target (degrees); the pitch stays between just above the cloth and straight down."""
        self.yaw = (self.yaw + d_yaw) % 360.0
        self.pitch = min(89.0, max(3.0, self.pitch + d_pitch))

    def zoom(self, factor: float) -> None:
        self.distance = min(8.0, max(0.25, self.distance * factor))

    def move(self, forward: float, right: float, up: float) -> None:
        """Free mode: move the eye (and what it looks at) in the camera's own axes, metres."""
        fwd = self.look - self.eye
        fwd.z = 0.0
        if fwd.length() < 1e-9:
            fwd = Vec3(1, 0, 0)
        fwd.normalize()
        side = Vec3(fwd.y, -fwd.x, 0.0)
        delta = fwd * forward + side * right + Vec3(0, 0, up)
        self._eye_goal = self._eye_goal + delta
        self._look_goal = self._look_goal + delta

    def turn(self, d_heading: float, d_pitch: float) -> None:
        """Free mode: turn the view about the eye (degrees)."""
        d = self._look_goal - self._eye_goal
        r = d.length() or 1.0
        heading = math.atan2(d.y, d.x) + math.radians(d_heading)
        pitch = max(-1.5, min(1.5, math.asin(max(-1.0, min(1.0, d.z / r))) + math.radians(d_pitch)))
        self._look_goal = (
            self._eye_goal
            + Vec3(math.cos(pitch) * math.cos(heading), math.cos(pitch) * math.sin(heading), math.sin(pitch))
            * r
        )

    def snap(self) -> None:
        """Jump to the goal now (and stop any glide)."""
        self._goals()
        self.eye = Point3(self._eye_goal)
        self.look = Point3(self._look_goal)
        self._eye_vel = [0.0, 0.0, 0.0]
        self._look_vel = [0.0, 0.0, 0.0]
        self._apply()

    def update(self, dt: float) -> None:
        """Advance the glide by ``dt`` seconds and place the camera."""
        self._goals()
        dt = max(0.0, float(dt))
        if self.smooth_time <= 0:
            self.eye, self.look = Point3(self._eye_goal), Point3(self._look_goal)
        else:
            for k in range(3):
                self.eye[k], self._eye_vel[k] = smooth_damp(
                    self.eye[k], self._eye_goal[k], self._eye_vel[k], self.smooth_time, dt
                )
                self.look[k], self._look_vel[k] = smooth_damp(
                    self.look[k], self._look_goal[k], self._look_vel[k], self.smooth_time, dt
                )
        self._apply()

    @property
    def goal(self) -> tuple[Point3, Point3]:
        """Where the current mode wants the eye and the look-at point."""
        self._goals()
        return Point3(self._eye_goal), Point3(self._look_goal)

    # ------------------------------------------------------------------ modes
    def _goals(self) -> None:
        s = self.spec
        R = s.ball_radius
        t = self.target
        out_x = s.half_length + s.cushion_width + s.rail_width
        out_y = s.half_width + s.cushion_width + s.rail_width
        if self.mode == CameraMode.ORBIT:
            self._look_goal = Point3(t)
            self._eye_goal = t + _spherical(self.yaw, self.pitch, self.distance)
        elif self.mode == CameraMode.TOP:
            cx = cy = 0.0
            if self.frame_points and self._frame_mode == CameraMode.TOP:
                # Framed points beyond the table (a ball on the floor, by a wall) widen the view to hold the
                # table and them, centred on both (not on the table: a ball in a corner would leave it small).
                x0 = min([-out_x] + [p[0] - 3 * R for p in self.frame_points])
                x1 = max([out_x] + [p[0] + 3 * R for p in self.frame_points])
                y0 = min([-out_y] + [p[1] - 3 * R for p in self.frame_points])
                y1 = max([out_y] + [p[1] + 3 * R for p in self.frame_points])
                cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                out_x, out_y = (x1 - x0) / 2 + 0.08, (y1 - y0) / 2 + 0.08
            th, tv = self._free_tangents()
            h = max((out_x + 0.05) / th, (out_y + 0.05) / tv) + s.rail_height
            # A hair of offset towards -y keeps "up" well defined: +x stays to the right of the picture.
            self._eye_goal = Point3(cx, cy - 0.01, h)
            self._look_goal = Point3(cx, cy, 0.0)
        elif self.mode == CameraMode.PLAYER:
            a = math.radians(self.aim_deg)
            d = Vec3(math.cos(a), math.sin(a), 0.0)
            # Down on the shot: eyes 0.9 m behind the ball and 0.5 m above the cloth (a player's eyes over the
            # cue), looking some 17 degrees down along the aim at the table ahead of the ball.
            self._eye_goal = Point3(t.x, t.y, 0.0) - d * 0.9 + Vec3(0, 0, 0.5)
            self._look_goal = Point3(t.x, t.y, R) + d * 0.6
        elif self.mode == CameraMode.FOLLOW:
            a = math.radians(self.aim_deg)
            d = Vec3(math.cos(a), math.sin(a), 0.0)
            self._look_goal = Point3(t)
            self._eye_goal = Point3(t) - d * 1.1 + Vec3(0, 0, 0.55)
        elif self.mode == CameraMode.SIDE and (abs(t.x) > out_x or abs(t.y) > out_y) and t.z < 0.0:
            # A ball off the table and down (on the floor, by a wall): from beyond it, low, the table behind.
            eye, look = beyond((t.x, t.y, t.z))
            self._eye_goal, self._look_goal = Point3(*eye), Point3(*look)
        elif self.mode == CameraMode.SIDE:
            z = max(t.z, R)
            # Aimed a little below the ball: the eye stays at its height, the picture shows more cloth than wall.
            self._look_goal = Point3(t.x, t.y, max(z - 0.05, 0.0))
            # At ball height, across the table and close (0.8 m) so a jump's height can be judged; never further
            # out than just beyond the rail, and just over the rail top when it stands outside it.
            y_eye = t.y + self.side_sign * 0.8
            y_eye = max(-(out_y + 0.25), min(out_y + 0.25, y_eye))
            over_rail = abs(y_eye) > s.half_width
            low = (s.rail_height + 0.05) if over_rail else (R + 0.05)
            self._eye_goal = Point3(t.x, y_eye, max(z + 0.02, low))
        elif self.mode == CameraMode.BROADCAST:
            # Behind the head cushion and high, looking down the table (snooker's classic television view).
            high = 1.85 if s.id.startswith("snooker") else 1.55
            self._eye_goal = Point3(-(out_x + 1.1), 0.0, high)
            self._look_goal = Point3(0.22 * s.half_length, 0.0, 0.0)
            framed_here = bool(self.frame_points) and self._frame_mode == CameraMode.BROADCAST
            if self._free_now() != (-1.0, 1.0, -1.0, 1.0) and not framed_here:
                # Panels take part of the picture: the eye backs along its line until the whole table (its
                # outline with the rails) stands inside the free part, clear of the scoreboard and the cue's panel.
                corners = [(sx * out_x, sy * out_y, 0.0) for sx in (-1, 1) for sy in (-1, 1)]
                # The look point slides along the table's length to where the fitted eye comes nearest (the
                # near end looms larger than the far one: a look point at the centre wastes the free band).
                fwd = Vec3(self._look_goal - self._eye_goal)
                best: tuple[float, Point3, Point3] | None = None
                for k in range(-10, 11):
                    look = Point3(k / 10 * s.half_length, 0.0, 0.0)
                    eye = self._fit(look - fwd, look, corners, 0.04)
                    d = (look - eye).length()
                    if best is None or d < best[0]:
                        best = (d, eye, look)
                assert best is not None
                self._eye_goal, self._look_goal = best[1], best[2]
        # FREE keeps whatever move()/turn() set.
        if (
            self.frame_points
            and self.mode == self._frame_mode
            and self.mode not in (CameraMode.FREE, CameraMode.TOP)
        ):
            self._eye_goal, self._look_goal = self._framed(self._eye_goal, self._look_goal)

    def _framed(self, eye: Point3, look: Point3) -> tuple[Point3, Point3]:
        """The eye moved along the view's direction so every frame point fits (see :meth:`frame`)."""
        fwd = Vec3(look - eye)
        if fwd.length() < 1e-9:
            return eye, look
        fwd.normalize()
        right = fwd.cross(Vec3(0, 0, 1))
        if right.length() < 1e-6:
            right = Vec3(1, 0, 0)
        right.normalize()
        up = right.cross(fwd)
        pts = [Point3(*p) for p in self.frame_points]
        centre = Point3(sum((p for p in pts), Point3(0, 0, 0)) / len(pts))
        hfov, vfov = self._fov()
        k = max(0.05, 1.0 - self.frame_margin)
        th, tv = math.tan(math.radians(hfov) / 2) * k, math.tan(math.radians(vfov) / 2) * k
        dist = 0.35
        for p in pts:
            rel = p - centre
            along = rel.dot(fwd)
            dist = max(dist, abs(rel.dot(right)) / th - along, abs(rel.dot(up)) / tv - along)
        new_eye = centre - fwd * dist
        lamp_low = self.spec.rail_height + 0.75
        if self.mode != CameraMode.BROADCAST and new_eye.z > lamp_low:
            new_eye.z = lamp_low
        # Never through the room's walls (a long shot from the head cushion would back the eye into them).
        wx, wy = ROOM_HALF[0] - 0.25, ROOM_HALF[1] - 0.25
        new_eye.x = max(-wx, min(wx, new_eye.x))
        new_eye.y = max(-wy, min(wy, new_eye.y))
        return new_eye, centre

    def _free_tangents(self) -> tuple[float, float]:
        """Half-width and half-height of the free part of the picture as tangents of the view's half-angles."""
        hfov, vfov = self._fov()
        x0, x1, y0, y1 = self._free_now()
        return (
            math.tan(math.radians(hfov) / 2) * (x1 - x0) / 2,
            math.tan(math.radians(vfov) / 2) * (y1 - y0) / 2,
        )

    def _fit(self, eye: Point3, look: Point3, points: Sequence[Sequence[float]], margin: float) -> Point3:
        """The eye moved along its line to ``look`` until every point projects inside the free part (less a
        ``margin`` share); the look point stays on the axis, which the film offset puts at the free centre."""
        fwd = Vec3(look - eye)
        base_dist = fwd.length()
        if base_dist < 1e-9:
            return eye
        fwd.normalize()
        right = fwd.cross(Vec3(0, 0, 1))
        if right.length() < 1e-6:
            right = Vec3(1, 0, 0)
        right.normalize()
        up = right.cross(fwd)
        th, tv = self._free_tangents()
        k = max(0.05, 1.0 - margin)
        th, tv = th * k, tv * k
        dist = 0.35
        for p in points:
            rel = Point3(*p) - look
            along = rel.dot(fwd)
            dist = max(dist, abs(rel.dot(right)) / th - along, abs(rel.dot(up)) / tv - along)
        return look - fwd * dist

    def _fov(self) -> tuple[float, float]:
        if self._fov0 is not None:  # widened: the band shows the view's own field (see _widen)
            return self._fov0
        fov = self.lens.getFov()
        return float(fov[0]), float(fov[1])

    def _apply(self) -> None:
        # The lens's axis through the free part's centre (no offset when the view uses the whole picture).
        self._widen()
        x0, x1, y0, y1 = self.band()
        film = self.lens.getFilmSize()
        self.lens.setFilmOffset(-(x0 + x1) / 2 * film[0] / 2, -(y0 + y1) / 2 * film[1] / 2)
        self.np.setPos(self.eye)
        if (self.look - self.eye).length() > 1e-6:
            self.np.lookAt(self.look, Vec3(0, 0, 1))
        self._occluders()


def _spherical(yaw_deg: float, pitch_deg: float, dist: float) -> Vec3:
    y, p = math.radians(yaw_deg), math.radians(pitch_deg)
    return Vec3(math.cos(p) * math.cos(y), math.cos(p) * math.sin(y), math.sin(p)) * dist
