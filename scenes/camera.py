"""The camera rig: orbit, top, player's view, follow, side and free modes with smooth moves.

Each mode computes where the eye should be and what it should look at; every frame ``update(dt)`` moves the real
eye and look-at point towards them with a critically damped spring (no overshoot, no jerk on a mode change), so
switching from the player's view to the top view glides instead of jumping.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from panda3d.core import Camera, Lens, NodePath, Point3, Vec3

from physics.tables import TableSpec

NEAR, FAR = 0.05, 30.0


class CameraMode(StrEnum):
    ORBIT = "orbit"  # around a point (the cue ball), yaw/pitch/distance from the mouse
    TOP = "top"  # straight down, the whole table in view, head on the left
    PLAYER = "player"  # behind the cue ball along the aim, at a player's eye height
    FOLLOW = "follow"  # trailing a moving ball (the app feeds its position with set_target)
    SIDE = "side"  # across the table at ball height: jumps and balls leaving the bed
    FREE = "free"  # moved and turned by hand


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

    def _occluders(self) -> None:
        """Straight above the table the lamp shade would hide its middle: the top view leaves it out (its light
        stays on), every other view shows it. Finds the table views' ``lamp`` nodes in the camera's scene."""
        top = self.np.getTop()
        for lamp in top.findAllMatches("**/table-view-*/lamp"):
            lamp.hide() if self.mode == CameraMode.TOP else lamp.show()

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
        if self.mode == CameraMode.ORBIT:
            self._look_goal = Point3(t)
            self._eye_goal = t + _spherical(self.yaw, self.pitch, self.distance)
        elif self.mode == CameraMode.TOP:
            X = s.half_length + s.cushion_width + s.rail_width + 0.05
            Y = s.half_width + s.cushion_width + s.rail_width + 0.05
            hfov, vfov = self._fov()
            h = (
                max(X / math.tan(math.radians(hfov) / 2), Y / math.tan(math.radians(vfov) / 2))
                + s.rail_height
            )
            # A hair of offset towards -y keeps "up" well defined: +x stays to the right of the picture.
            self._eye_goal = Point3(0.0, -0.01, h)
            self._look_goal = Point3(0.0, 0.0, 0.0)
        elif self.mode == CameraMode.PLAYER:
            a = math.radians(self.aim_deg)
            d = Vec3(math.cos(a), math.sin(a), 0.0)
            # Standing at the table and leaning over the cue: eyes about 1.2 m behind the ball, 0.45 m above it.
            self._eye_goal = Point3(t.x, t.y, 0.0) - d * 1.2 + Vec3(0, 0, 0.45)
            self._look_goal = Point3(t.x, t.y, R) + d * 1.0
        elif self.mode == CameraMode.FOLLOW:
            a = math.radians(self.aim_deg)
            d = Vec3(math.cos(a), math.sin(a), 0.0)
            self._look_goal = Point3(t)
            self._eye_goal = Point3(t) - d * 1.2 + Vec3(0, 0, 0.8)
        elif self.mode == CameraMode.SIDE:
            far = s.half_width + s.cushion_width + s.rail_width + 0.9
            z = max(t.z, R)
            self._look_goal = Point3(t.x, t.y, z)
            # Just over the rail top: the lowest eye from which the near rail hides no part of a ball on the bed.
            self._eye_goal = Point3(t.x, self.side_sign * far, max(z, s.rail_height) + 0.11)
        # FREE keeps whatever move()/turn() set.

    def _fov(self) -> tuple[float, float]:
        fov = self.lens.getFov()
        return float(fov[0]), float(fov[1])

    def _apply(self) -> None:
        self.np.setPos(self.eye)
        if (self.look - self.eye).length() > 1e-6:
            self.np.lookAt(self.look, Vec3(0, 0, 1))


def _spherical(yaw_deg: float, pitch_deg: float, dist: float) -> Vec3:
    y, p = math.radians(yaw_deg), math.radians(pitch_deg)
    return Vec3(math.cos(p) * math.cos(y), math.cos(p) * math.sin(y), math.sin(p)) * dist
