"""The Bullet world of one stroke: the table's static bodies, a body per ball (in the world only while
Bullet advances that ball), and the stepping.

Bullet runs at the fixed substep, or at a fraction of it while a Bullet ball is fast (:meth:`set_micro`);
every call leaves it no time over (:meth:`advance`), so a step may be split into several calls (to sample
inside it) and integrate bit for bit alike.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence

import numpy as np
from panda3d.bullet import BulletRigidBodyNode, BulletSphereShape, BulletWorld
from panda3d.core import (
    BitMask32,
    Point3,
    PythonCallbackObject,
    TransformState,
    Vec3,
    loadPrcFileData,
    unloadPrcFile,
)

from physics.engine.hooks import BulletHooks, Watched, clear_callbacks
from physics.engine.state import Balls
from physics.geometry import TableGeometry, build_table_geometry
from physics.objects import SceneObject
from physics.params import G, PhysicsParams
from physics.tables import TableSpec

MICRO_TRAVEL = 0.0025  # m: most a Bullet ball moves in one of Bullet's fixed steps (set_micro)
MICRO_MAX = 8  # Bullet steps per substep at most (16 m/s at 1 kHz: 7)

BodyState = tuple[np.ndarray, np.ndarray, np.ndarray]


def _new_world() -> BulletWorld:
    """A world whose balls never pair with each other (ball-ball impulses are the engine's) nor statics
    with statics.

    Collision filtering by groups: statics (group 0, as the geometry makes them), balls (group 1). With the
    default mask filter the ~130 touching static pieces of a table formed broadphase pairs that cost ~25 us
    per substep; the filter is chosen when the world is built. The statics other than the slate are also in
    group 3 (TableGeometry.off_slate_mask, for sweeps that ignore the slate), which pairs with nothing.
    """
    page = loadPrcFileData("billiards-physics", "bullet-filter-algorithm groups-mask")
    try:
        world = BulletWorld()
    finally:
        unloadPrcFile(page)
    world.set_group_collision_flag(0, 0, False)
    world.set_group_collision_flag(1, 1, False)
    world.set_group_collision_flag(0, 1, True)
    world.set_group_collision_flag(3, 3, False)
    world.set_gravity(Vec3(0, 0, -G))
    # Static bodies never move: updating their bounding boxes every substep cost ~70 us here.
    world.set_force_update_all_aabbs(False)
    return world


def _ball_body(i: int, p: PhysicsParams) -> BulletRigidBodyNode:
    b = BulletRigidBodyNode(f"ball:{i}")
    b.add_shape(BulletSphereShape(p.R))
    b.set_mass(p.m)
    # Surfaces carry the pair's friction (Bullet multiplies the two); restitution 0 makes every Bullet
    # contact plastic, and the engine adds the surface's rebound itself (BulletHooks.tick).
    b.set_restitution(0.0)
    b.set_friction(1.0)
    b.set_deactivation_enabled(False)
    # No CCD: Bullet's swept-sphere CCD ignores a sweep whose motion into a surface is under 4 cm a
    # step (its allowed CCD penetration), i.e. every billiard speed; 120 campaign strokes gave the same
    # records bit for bit with and without it. Fast balls get a finer Bullet step instead (set_micro).
    b.set_into_collide_mask(BitMask32.bit(1))
    b.set_python_tag("ball", i)
    b.notify_collisions(True)
    return b


class BulletBalls:
    def __init__(
        self,
        spec: TableSpec,
        balls: Balls,
        params: PhysicsParams,
        objects: Sequence[SceneObject],
        lamp: tuple[float, float, float] | None,
    ) -> None:
        self.balls = balls
        self.p = params
        self.h = 1.0 / params.substep_hz
        self.world = _new_world()
        p = params
        mats = {
            "bed": (p.e_table, p.mu_slide),
            "cushion": (p.e_cushion, p.mu_cushion),
            "jaw": (p.e_cushion, p.mu_cushion),
            "rail_top": (p.e_rail, p.mu_rail),
            "frame": (p.e_rail, p.mu_rail),
            "floor": (p.e_floor, p.mu_floor),
        }
        self.geo: TableGeometry = build_table_geometry(self.world, spec, objects, lamp, mats)
        self.bodies = [_ball_body(i, params) for i in range(balls.n)]
        self.attached = np.zeros(balls.n, dtype=bool)
        self._calls: dict[tuple[int, int], tuple[int, ...]] = {}
        # Bullet's fixed step: the substep, or a fraction of it while a Bullet ball is fast (set_micro).
        self.micro = 1
        self.hm = self.h
        self._hm32 = np.float32(self.h)
        self.hooks = BulletHooks(params, self.h)
        self._closed = False
        # Bullet keeps the contact-added callback in a process-wide pointer that a world destroyed with its
        # callbacks still set leaves dangling: the interpreter then crashed at exit (segfault, every time)
        # after an engine was dropped without being run. So the callbacks are always cleared before the
        # world goes: by close() (simulate calls it) or, for an engine that is just dropped, by this
        # finalizer (it holds the world, not this object).
        self.world.set_tick_callback(PythonCallbackObject(self.hooks.tick), False)
        self.world.set_contact_added_callback(PythonCallbackObject(self.hooks.contact_added))
        self._release = weakref.finalize(self, clear_callbacks, self.world)

    # ---------------------------------------------------------------- bodies
    def attach(self, i: int) -> None:
        """Ball ``i``'s body, with its state, in the world."""
        self.write(i)
        if not self.attached[i]:
            self.world.attach_rigid_body(self.bodies[i])
            self.attached[i] = True
            self.hooks.fresh.add(i)

    def detach(self, i: int) -> None:
        if self.attached[i]:
            self.world.remove_rigid_body(self.bodies[i])
            self.attached[i] = False

    def write(self, i: int) -> None:
        """Ball ``i``'s state onto its body."""
        self.hooks.moved.pop(i, None)
        b = self.bodies[i]
        x, y, z = self.balls.pos[i]
        b.set_transform(TransformState.make_pos(Point3(float(x), float(y), float(z))))
        b.set_linear_velocity(Vec3(*map(float, self.balls.vel[i])))
        b.set_angular_velocity(Vec3(*map(float, self.balls.omg[i])))

    def read(self, i: int) -> None:
        """Ball ``i``'s state from its body."""
        b = self.balls
        b.pos[i], b.vel[i], b.omg[i] = self.body_state(i)

    def body_state(self, i: int) -> BodyState:
        b = self.bodies[i]
        q = b.get_transform().get_pos()
        v = b.get_linear_velocity()
        w = b.get_angular_velocity()
        lag = self.hm  # undo the extrapolation by (0 - h) v (see advance)
        # Bullet extrapolated with the velocity it integrated the last substep with; where the tick changed
        # the velocity after that substep (a rebound, the energy guard: BulletHooks.tick), that one undoes it.
        u = self.hooks.moved.get(i, v)
        return (
            np.array((q[0] + u[0] * lag, q[1] + u[1] * lag, q[2] + u[2] * lag)),
            np.array((v[0], v[1], v[2])),
            np.array((w[0], w[1], w[2])),
        )

    # ---------------------------------------------------------------- stepping
    def step(self, k: int, idx: list[int], capture_at: list[int]) -> dict[int, dict[int, BodyState]]:
        """``k`` substeps of the Bullet balls ``idx``; their states at the substeps ``capture_at`` (for samples).

        Each Bullet ball is watched by the tick (its energy and height as of each substep's end) from the
        state it starts with."""
        hooks = self.hooks
        e_before = self.energy(idx)
        hooks.substep = 0
        hooks.added.clear()
        hooks.begun.clear()
        pos, vel = self.balls.pos, self.balls.vel
        watch = []
        for q, i in enumerate(idx):
            vx, vy, vz = vel[i].tolist()
            watch.append(Watched(self.bodies[i], float(e_before[q]), float(pos[i, 2]), i, (vx, vy, vz)))
        hooks.watch = watch
        hooks.recs = {rec.ball: rec for rec in watch}
        hooks.world = self.world
        hooks.moved.clear()
        self.set_micro(idx)
        captured: dict[int, dict[int, BodyState]] = {}
        done = 0
        for j in capture_at:
            self.advance(j - done)
            done = j
            captured[j] = {i: self.body_state(i) for i in idx}
        self.advance(k - done)
        hooks.watch = []
        hooks.recs = {}
        hooks.world = None
        for i in idx:
            self.read(i)
        self.guard_energy(idx, e_before)
        return captured

    def advance(self, k: int) -> None:
        """Exactly ``k`` fixed substeps, leaving Bullet no time over.

        Bullet (single precision here) adds each call's time to what it kept over, runs
        int(time / substep) substeps and keeps the rest; it reports positions extrapolated by
        (rest - substep) * v (its motion-state latency interpolation). A call of exactly
        float32(k) * float32(h) leaves a rest of exactly 0 when float32 division gives k back, so
        every call starts from the same state whatever calls came before: splitting a step into
        several calls (to sample inside it) integrates bit for bit alike. The k for which float32
        rounding would give k - 1 substeps are run as two calls.
        """
        hm, hm32 = self.hm, self._hm32
        for c in self._chunks(k * self.micro):
            dt = float(np.float32(c) * hm32)
            self.world.do_physics(dt, c, hm)

    def set_micro(self, idx: list[int]) -> None:
        """Bullet's fixed step for the coming step: the substep divided so that no ball in ``idx`` moves more
        than MICRO_TRAVEL in one.

        Bullet meets a surface only once a ball is in it, up to v h deep (15 mm at 15 m/s, 1 kHz), and its
        swept-sphere CCD never acts at a billiard ball's speeds (it ignores a sweep whose motion into the
        surface is under 4 cm a step): a 15 m/s ball was 14 mm inside a room wall, and came back off it
        at 7.6 m/s still 11 mm in (campaign seed 601948). A finer step keeps such contacts shallow."""
        vel = self.balls.vel
        vmax = max((float(vel[i] @ vel[i]) for i in idx), default=0.0) ** 0.5
        m = min(MICRO_MAX, max(1, math.ceil(vmax * self.h / MICRO_TRAVEL - 1e-9)))
        if m != self.micro:
            self.micro = m
            self.hm = self.h / m
            self._hm32 = np.float32(self.hm)
            self.hooks.h = self.hm

    def _chunks(self, k: int) -> tuple[int, ...]:
        key = (k, self.micro)
        got = self._calls.get(key)
        if got is None:
            hm32 = self._hm32
            out: list[int] = []
            left = k
            while left > 0:
                c = left
                while c > 1 and int(np.float32(np.float32(c) * hm32) / hm32) != c:
                    c -= 1
                out.append(c)
                left -= c
            got = self._calls[key] = tuple(out)
        return got

    # ---------------------------------------------------------------- energy
    def energy(self, idx: list[int]) -> np.ndarray:
        p = self.p
        b = self.balls
        v = b.vel[idx]
        w = b.omg[idx]
        out: np.ndarray = (
            0.5 * p.m * (v * v).sum(axis=1) + 0.5 * p.inertia * (w * w).sum(axis=1) + p.m * G * b.pos[idx, 2]
        )
        return out

    def guard_energy(self, idx: list[int], before: np.ndarray) -> None:
        """Contacts with static bodies are passive: remove any energy Bullet's solver created."""
        after = self.energy(idx)
        p = self.p
        b = self.balls
        for k, i in enumerate(idx):
            if after[k] > before[k] + 1e-12:
                kin = after[k] - p.m * G * b.pos[i, 2]
                allowed = before[k] - p.m * G * b.pos[i, 2]
                f = math.sqrt(max(allowed, 0.0) / kin) if kin > 0 else 0.0
                b.vel[i] *= f
                b.omg[i] *= f
                self.write(i)

    def close(self) -> None:
        """Take the callbacks and the balls out of the world, deterministically (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._release()
        for i in range(self.balls.n):
            self.detach(i)
