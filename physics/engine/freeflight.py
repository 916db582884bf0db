"""Free flight: a flying ball far from everything it could meet is flown on its parabola, out of Bullet.

In the air a ball moves on p0 + v0 t + g t^2/2 with its spin unchanged (no drag is modelled), so while
nothing is near it Bullet's substeps, its tick and the engine's per-step work add nothing but cost: a
ball sent up to the lamp or over the rail flew ~4 s in 5 ms steps (campaign seed 187: 5-6 times the CPU of
a full break). Such a ball is flown here in steps as long as three bounds allow:

- the static bodies (table, room, lamp, scene objects): over a step T the parabola stays within
  g T^2/8 of its chord, so a sphere of radius R + g T^2/8 + FREE_MARGIN swept along the chord holds
  every place the ball is at; Bullet's own sweep gives how far along it stays clear (the ball is clear
  up to that fraction of T: the parabola point at time s T is within g T^2/8 of the chord point s), and
  a contact test of that sphere at the start covers a start within reach of a surface (a sweep that
  begins in contact and moves off it reports nothing);
- the plan-view lines whose crossing is logged at a step's end (left_table and returned: the bed
  outline's rectangle, its jaw passages and openings, the pocket zones; jumped_over: every other ball's
  outline): the horizontal velocity is constant in flight, so the step ends before the ball can reach
  one, and within FLIGHT_STEP of one the step is FLIGHT_STEP, as for a ball in Bullet;
- the other balls, through the step size's pair bounds (unchanged).

The head, centre and foot strings are crossed with x linear in time, so their interpolated times are exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from panda3d.bullet import BulletRigidBodyNode, BulletSphereShape, BulletWorld
from panda3d.core import Point3, TransformState

from physics.engine.bullet import BulletBalls
from physics.engine.state import GONE, Balls
from physics.engine.zones import TableZones
from physics.params import G

FREE_MARGIN = 0.01  # m: clearance kept from every static body beyond the ball and its sag
FLIGHT_STEP = 0.005  # s: step while a ball flies near a logged line or geometry


def touches_static(
    world: BulletWorld, shape: BulletSphereShape, at: TransformState, ignore: tuple[str, ...]
) -> bool:
    """Does ``shape`` placed ``at`` touch a body of ``world`` whose name starts with none of ``ignore``? (A
    sweep that begins in contact and moves off it reports nothing, so a sweep's start is tested this way.)"""
    probe = BulletRigidBodyNode("probe")
    probe.add_shape(shape)
    probe.set_transform(at)
    for c in world.contact_test(probe).get_contacts():
        n0, n1 = c.get_node0().get_name(), c.get_node1().get_name()
        if not (n1 if n0 == "probe" else n0).startswith(ignore):
            return True
    return False


class FreeFlight:
    def __init__(
        self,
        balls: Balls,
        zones: TableZones,
        bullet: BulletBalls,
        h: float,
        landing: Callable[[int, float], float | None],
    ) -> None:
        self.balls = balls
        self.landing = landing
        self.zones = zones
        self.bullet = bullet
        self.h = h
        plan = bullet.geo.plan
        spec = plan.spec
        self.half = (float(spec.half_length), float(spec.half_width))
        # Bounding circles of the outline's jaw passages and openings (its pieces off the rectangle).
        self.circles: list[tuple[float, float, float]] = []
        for poly in list(plan.passages) + list(plan.openings):
            pts = [(float(p[0]), float(p[1])) for p in poly]
            cx = sum(p[0] for p in pts) / len(pts)
            cy = sum(p[1] for p in pts) / len(pts)
            self.circles.append((cx, cy, max(math.hypot(p[0] - cx, p[1] - cy) for p in pts)))
        self.circles += list(zones.zones)
        self._mask = bullet.geo.collide_mask  # the static bodies (balls are bit 1)
        self._off_slate = bullet.geo.off_slate_mask  # the static bodies but the slate

    def plan_clearance(self, i: int) -> float:
        """Plan-view distance from ball ``i``'s centre to the nearest line whose crossing is logged at a
        step's end."""
        b = self.balls
        x, y = float(b.pos[i, 0]), float(b.pos[i, 1])
        hl, hw = self.half
        d = min(abs(abs(x) - hl), abs(abs(y) - hw))
        for cx, cy, r in self.circles:
            d = min(d, max(math.hypot(x - cx, y - cy) - r, 0.0))
        two_r = 2.0 * b.R
        # In plain floats: numpy's per-element indexing was most of this call's cost (the same numbers).
        mode = b.mode.tolist()
        for j, (px, py) in enumerate(b.pos[:, :2].tolist()):
            if j != i and mode[j] != GONE:
                d = min(d, abs(math.hypot(x - px, y - py) - two_r))
        return d

    def free_time(self, i: int, T: float) -> float:
        """How long (a whole number of substeps, at most ``T``) flying ball ``i`` may be flown on its parabola;
        0 if it may not be."""
        b = self.balls
        h = self.h
        vx, vy, vz = (float(c) for c in b.vel[i])
        vh = math.hypot(vx, vy)
        d = self.plan_clearance(i)
        if vh * T > d:
            T = max(d / vh, FLIGHT_STEP)
        T = math.floor(T / h + 1e-9) * h
        if T < h:
            return 0.0
        x, y, z = (float(c) for c in b.pos[i])
        mask = self._mask
        over = self._over_open_slate(i, T)
        if over is not None:
            T, mask = over, self._off_slate
        r = b.R + G * T * T / 8.0 + FREE_MARGIN
        shape = BulletSphereShape(r)
        world = self.bullet.world
        start = TransformState.make_pos(Point3(x, y, z))
        if touches_static(world, shape, start, ("ball:", "bed:") if over is not None else ("ball:",)):
            return 0.0
        end = TransformState.make_pos(Point3(x + vx * T, y + vy * T, z + vz * T - 0.5 * G * T * T))
        hit = world.sweep_test_closest(shape, start, end, mask, 0.0)
        if hit.has_hit():
            T = math.floor(float(hit.get_hit_fraction()) * T / h + 1e-9) * h
            if T < FLIGHT_STEP - 1e-12:
                return 0.0
        return T

    def _over_open_slate(self, i: int, T: float) -> float | None:
        """The step (at most ``T``) over which flying ball ``i`` cannot touch the slate except by a landing on
        the open slate that the engine takes analytically (Transitions.landing_time), if its parabola comes
        down to the cloth over the open slate; None if it does not (the slate is then an obstacle like any
        other).

        Above z = R the ball is clear of the slate (whose top is the plane z = 0); it comes down to z = R at
        ``t_r``. A landing inside the step ends the step at the landing's substep (the ball moves on for
        less than a substep after it, as at a landing in Bullet); a ball still rising at the touchdown's
        time is flown up to the substep before it (the landing is taken in a later step)."""
        b = self.balls
        h = self.h
        R = b.R
        x, y, z = (float(c) for c in b.pos[i])
        vx, vy, vz = (float(c) for c in b.vel[i])
        if z < R:
            return None
        t_r = (vz + math.sqrt(vz * vz + 2.0 * G * (z - R))) / G
        if not self.zones.over_open_bed(x + vx * t_r, y + vy * t_r):
            return None
        if t_r > T:
            return T
        tl = self.landing(i, T)
        if tl is not None:
            return max(h, math.ceil(tl / h - 1e-9) * h)
        T = math.floor(t_r / h - 1e-9) * h
        return T if T >= h else None

    def fly(self, i: int, dt: float) -> None:
        """Ball ``i`` flown ``dt`` on its parabola."""
        b = self.balls
        vx, vy, vz = (float(c) for c in b.vel[i])
        b.pos[i, 0] += vx * dt
        b.pos[i, 1] += vy * dt
        b.pos[i, 2] += vz * dt - 0.5 * G * dt * dt
        b.vel[i, 2] = vz - G * dt
