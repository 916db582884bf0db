"""Free roll: a ball rolling on the room's floor far from everything it could meet is rolled in closed form,
out of Bullet.

A ball that has left the table ends on the floor and rolls there for seconds (the floor's rolling resistance
is a quarter of the cloth's, so 1.5 m/s lasts 3 s). Bullet's substeps, its tick and the engine's per-step
work add nothing to that motion but cost: such strokes cost 3-5 times a full break (campaign seeds 600083,
600476, 600954). On a level floor a rolling ball moves on a straight line, slowing at mu_roll_floor g, its
roll following its speed and its spin about the vertical decaying at spin_decel_floor, which is what
SurfaceContacts.support applies to it in Bullet. It is rolled here in steps as long as three bounds allow:

- the static bodies (walls, the table's frame, scene objects standing on the floor): a sphere of radius
  R + FREE_MARGIN raised FREE_MARGIN + LIFT holds the ball and clears the floor by LIFT; Bullet's sweep of it
  along the straight path gives how far the ball stays clear, and a contact test at the start covers a
  start within reach of a surface;
- the plan-view lines whose crossing is logged at a step's end, as for a free flight (FreeFlight's
  plan_clearance);
- the other balls, through the step size's pair bounds (unchanged).

Only a rolling ball qualifies (its contact point does not slip, so the path is straight); a sliding one,
one bouncing or one touching anything but the floor stays in Bullet.
"""

from __future__ import annotations

import math

import numpy as np
from panda3d.bullet import BulletSphereShape
from panda3d.core import Point3, TransformState

from physics.engine.bullet import BulletBalls
from physics.engine.freeflight import FREE_MARGIN, FreeFlight, touches_static
from physics.engine.state import ROLLING_SLIP, Balls
from physics.params import G, PhysicsParams

LIFT = 0.001  # m: the swept sphere's clearance above the floor (nothing on a floor is lower)
ROLL_VZ = 1e-3  # m/s: a ball moving vertically faster than this is not lying on the floor
MIN_ROLL = 0.01  # s: a free roll shorter than this is not worth leaving Bullet for


def rolled(
    p: np.ndarray, v: np.ndarray, w: np.ndarray, tau: float, params: PhysicsParams
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pos, v, w) of a ball rolling on a level floor ``tau`` after (p, v, w)."""
    a = params.mu_roll_floor * G
    s = math.hypot(float(v[0]), float(v[1]))
    t = min(tau, s / a) if a > 0.0 else tau
    f = (s - a * t) / s if s > 0.0 else 0.0
    d = (s * t - 0.5 * a * t * t) / s if s > 0.0 else 0.0
    pos = p.copy()
    pos[0] += v[0] * d
    pos[1] += v[1] * d
    vel = v.copy()
    vel[0] *= f
    vel[1] *= f
    vel[2] = 0.0
    omg = w.copy()
    omg[0] *= f
    omg[1] *= f
    wz = float(omg[2])
    omg[2] = math.copysign(max(abs(wz) - params.spin_decel_floor * tau, 0.0), wz) if wz != 0.0 else 0.0
    return pos, vel, omg


class FreeRoll:
    def __init__(self, balls: Balls, bullet: BulletBalls, flight: FreeFlight, params: PhysicsParams) -> None:
        self.balls = balls
        self.bullet = bullet
        self.flight = flight
        self.p = params
        self.h = 1.0 / params.substep_hz
        self._mask = bullet.geo.collide_mask

    def rolling(self, i: int) -> bool:
        """Is Bullet ball ``i`` rolling on the floor with nothing else touching it?"""
        b = self.balls
        if b.flying[i] or len(b.contacts[i]) != 1 or next(iter(b.contacts[i]))[0] != "floor":
            return False
        v, w = b.vel[i], b.omg[i]
        if abs(float(v[2])) > ROLL_VZ or (v[0] == 0.0 and v[1] == 0.0):
            return False
        R = b.R
        return math.hypot(float(v[0] - R * w[1]), float(v[1] + R * w[0])) < ROLLING_SLIP

    def roll_time(self, i: int, T: float) -> float:
        """How long (a whole number of substeps, at most ``T``) ball ``i`` may be rolled in closed form; 0 if
        it may not be."""
        b = self.balls
        h = self.h
        vx, vy = float(b.vel[i, 0]), float(b.vel[i, 1])
        s = math.hypot(vx, vy)
        d = self.flight.plan_clearance(i)
        if s * T > d:
            T = d / s
        T = math.floor(T / h + 1e-9) * h
        if T < MIN_ROLL - 1e-12:
            return 0.0
        a = self.p.mu_roll_floor * G
        t = min(T, s / a) if a > 0.0 else T
        reach = s * t - 0.5 * a * t * t
        x, y, z = (float(c) for c in b.pos[i])
        zc = z + FREE_MARGIN + LIFT
        shape = BulletSphereShape(b.R + FREE_MARGIN)
        world = self.bullet.world
        start = TransformState.make_pos(Point3(x, y, zc))
        if touches_static(world, shape, start, ("ball:", "floor:")):
            return 0.0
        end = TransformState.make_pos(Point3(x + vx / s * reach, y + vy / s * reach, zc))
        hit = world.sweep_test_closest(shape, start, end, self._mask, 0.0)
        if hit.has_hit():
            # The sweep's fraction is of the distance; slowing down, the ball covers it sooner than that
            # fraction of the time: when s t - a t^2 / 2 = f reach.
            f = float(hit.get_hit_fraction())
            tf = 2.0 * f * reach / (s + math.sqrt(max(s * s - 2.0 * a * f * reach, 0.0)))
            T = math.floor(min(tf, T) / h + 1e-9) * h
            if T < MIN_ROLL - 1e-12:
                return 0.0
        return T

    def roll(self, i: int, dt: float) -> None:
        """Ball ``i`` rolled ``dt`` on the floor."""
        b = self.balls
        b.pos[i], b.vel[i], b.omg[i] = rolled(b.pos[i], b.vel[i], b.omg[i], dt, self.p)
