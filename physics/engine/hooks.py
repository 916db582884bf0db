"""What the Bullet callbacks record and do every substep.

The callbacks hold only :class:`BulletHooks`, never the engine: nothing in them makes a cycle through C++
that Python cannot collect.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from panda3d.bullet import BulletRigidBodyNode, BulletWorld
from panda3d.core import Vec3

from physics import collide
from physics.geometry import Surface
from physics.params import G, PhysicsParams

V3 = tuple[float, float, float]


class Watched:
    """A Bullet ball in the current step, as of the last substep's end."""

    __slots__ = ("ball", "body", "energy", "v", "z")

    def __init__(self, body: BulletRigidBodyNode, energy: float, z: float, ball: int, v: V3) -> None:
        self.body = body
        self.energy = energy
        self.z = z
        self.ball = ball
        self.v = v


class BulletHooks:
    """The substep count, the contacts begun in each, and the per-substep corrections to Bullet's solve
    (:meth:`tick`)."""

    __slots__ = (
        "added",
        "begun",
        "episodes",
        "fresh",
        "g",
        "h",
        "inertia",
        "m",
        "moved",
        "p",
        "recs",
        "substep",
        "touching",
        "v_bounce",
        "watch",
        "world",
    )

    def __init__(self, p: PhysicsParams, h: float) -> None:
        self.substep = 0
        # (substep, ball, surface) of each contact point Bullet adds (from ~0.02 R out), and of each contact
        # that begins to carry force, its substep counted from the step's start (0: the first); read and
        # cleared by physics.engine.surfaces after each step.
        self.added: list[tuple[int, int, Surface]] = []
        self.begun: list[tuple[int, int, Surface]] = []
        self.fresh: set[int] = set()  # balls put in the world since their last step in it
        # Ball -> the surfaces it touched at the last substep's end: (kind, id, unit normal to the ball).
        self.touching: dict[int, list[tuple[str, str | None, V3]]] = {}
        self.p = p
        self.m, self.inertia, self.h, self.g = p.m, p.inertia, h, G
        # A rebound off a supporting surface slower than this would rise less than min_bounce (Zeno guard,
        # as collide.slate_bounce); off a wall any rebound counts.
        self.v_bounce = math.sqrt(2.0 * G * p.min_bounce)
        self.watch: list[Watched] = []
        self.recs: dict[
            int, Watched
        ] = {}  # ``watch`` by ball, set with it (once a Bullet step, not a substep)
        # Ball -> the velocity Bullet integrated its last substep with, where the tick changed it after.
        self.moved: dict[int, V3] = {}
        # The (ball, static node name) contacts going on; each gets its rebound once, as it begins.
        self.episodes: dict[tuple[int, str], bool] = {}
        self.world: BulletWorld | None = None  # set only while the engine runs Bullet (no lasting cycle)

    def tick(self, _data: Any) -> None:
        """Every substep, after Bullet's solve: its friction and restitution put right, then the energy guard.

        Friction. Bullet's solver starts each contact's friction from 0.85 of the impulse it had the
        substep before (warm starting) but solves the friction rows only while the contact's normal
        impulse is positive. A ball bouncing off a cushion top, a jaw or a wall thus got most of the
        bounce's friction impulse again in each following substep, with no normal force at all: it was
        seen to reverse a ball's spin (36 -> -36 rad/s) after it had left the contact, and its energy
        rose until the guard cut it (campaign seeds 300251, 300353, 300560, 300635: up to 1.4 mJ). The
        friction impulses kept in the contact points are cleared after every substep, so friction is
        always solved from zero (for a sphere a single contact's rows are exact in one iteration).

        Restitution. Bullet keeps a contact point from ~0.02 R before the surfaces touch, slows the
        approach there (speculative contact) and drops a point's restitution once it is two substeps
        old: a ball meeting a surface slower than ~1 m/s came off dead, at 2 m/s with 0.35 of its
        speed and at 4 m/s with 0.6, for a surface restitution of 0.85 (measured on a bare box). So
        Bullet's contacts are plastic here (the balls' restitution is 0 and Bullet multiplies the pair's)
        and the engine adds each impact's rebound in the substep the contact begins: the ball leaves
        along the contact normal at e times the speed it met the surface with (its velocity at the
        substep's start), with Coulomb friction for that impulse (collide.surface_impulse); once per contact, so
        a ball resting or rolling on a surface gets none.

        The energy guard: contacts with static bodies are passive, yet Bullet's solver and penetration
        recovery can add energy (e.g. a spinning ball pressed into a jaw climbs it). A ball's energy may
        not exceed what it had at the previous substep; any excess is taken out of its motion. Its
        height is followed as Bullet integrates it (z += v_z h after the solve); the step's end
        (BulletBalls.guard_energy) checks against the true positions.
        """
        self.substep += 1
        recs = self.recs
        integrated: dict[int, V3] = {}
        world = self.world
        if world is not None:
            self._rebounds(world, recs, integrated)
        self._guard(integrated)

    def _rebounds(self, world: BulletWorld, recs: dict[int, Watched], integrated: dict[int, V3]) -> None:
        """Clear the warm-started friction of every contact and give each contact begun its rebound."""
        episodes = self.episodes
        live: set[tuple[int, str]] = set()
        now: dict[int, list[tuple[str, str | None, V3]]] = {}
        for mf in world.get_manifolds():
            pts = mf.get_manifold_points()
            if not pts:
                continue
            n0 = mf.get_node0()
            i = n0.get_python_tag("ball")
            if i is None:
                other, i, sgn = n0, mf.get_node1().get_python_tag("ball"), -1.0
                if i is None:
                    continue
            else:
                other, sgn = mf.get_node1(), 1.0
            jn, nx, ny, nz = _normal_impulse(pts)
            rec = recs.get(int(i))
            if rec is None:
                continue
            key = (int(i), other.get_name())
            ep = episodes.get(key)
            if ep is None and jn <= 0.0:
                continue
            if ep is not None and jn > 0.0:
                live.add(key)  # pressed on, its rebound given (a ball lying on the slate: every substep)
                continue
            v = rec.body.get_linear_velocity()
            nn = math.sqrt(nx * nx + ny * ny + nz * nz)
            nx, ny, nz = sgn * nx / nn, sgn * ny / nn, sgn * nz / nn  # from the surface to the ball
            if jn <= 0.0 and v[0] * nx + v[1] * ny + v[2] * nz > 0.0:
                continue  # the contact is over (its episode is dropped below)
            live.add(key)
            surf = other.get_python_tag("surface")
            if surf is not None:
                now.setdefault(int(i), []).append((surf.kind, surf.id, (nx, ny, nz)))
            if ep is not None:
                continue  # one rebound per contact
            episodes[key] = True
            if surf is not None and not _continues(self.touching.get(int(i), ()), surf, (nx, ny, nz)):
                self.begun.append((self.substep - 1, int(i), surf))
            self._rebound(rec, surf, v, (nx, ny, nz), integrated)
        for key in [k for k in episodes if k not in live]:
            del episodes[key]
        self.touching = now

    def contact_added(self, data: Any) -> None:
        i, other = ball_and_other(data.get_node0(), data.get_node1())
        if i is None:
            return
        s = other.get_python_tag("surface")
        if s is not None:
            self.added.append((self.substep, int(i), s))

    def _rebound(self, rec: Watched, surf: Surface | None, v: Any, n: V3, integrated: dict[int, V3]) -> None:
        """The rebound of a contact begun: out along ``n`` at e times the approach (the velocity the ball met
        the surface with: the last substep's, plus gravity)."""
        nx, ny, nz = n
        u = rec.v
        approach = -(u[0] * nx + u[1] * ny + (u[2] - self.g * self.h) * nz)
        e = surf.restitution if surf is not None else 0.0
        out = e * approach
        vn = v[0] * nx + v[1] * ny + v[2] * nz
        if out <= vn or (nz > 0.5 and out < self.v_bounce):
            return
        assert surf is not None  # every static body carries its surface
        i = rec.ball
        if i not in integrated:
            integrated[i] = (v[0], v[1], v[2])
        body = rec.body
        w = body.get_angular_velocity()
        v2, w2 = collide.surface_impulse(
            np.array((v[0], v[1], v[2])),
            np.array((w[0], w[1], w[2])),
            np.array((nx, ny, nz)),
            self.m * (out - vn),
            surf.friction,
            self.p,
        )
        body.set_linear_velocity(Vec3(*v2.tolist()))
        body.set_angular_velocity(Vec3(*w2.tolist()))

    def _guard(self, integrated: dict[int, V3]) -> None:
        """No Bullet ball ends a substep with more energy than it began it with."""
        m, inertia, h, g = self.m, self.inertia, self.h, self.g
        moved = self.moved
        for rec in self.watch:
            body = rec.body
            v = body.get_linear_velocity()
            w = body.get_angular_velocity()
            vi = integrated.get(rec.ball)
            z = rec.z + (v[2] if vi is None else vi[2]) * h
            ke = 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * inertia * (
                w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
            )
            e = ke + m * g * z
            if e > rec.energy + 1e-12 and ke > 0.0:
                f = math.sqrt(max(rec.energy - m * g * z, 0.0) / ke)
                body.set_linear_velocity(v * f)
                body.set_angular_velocity(w * f)
                if vi is None:
                    vi = (v[0], v[1], v[2])
                e = rec.energy
                v = body.get_linear_velocity()  # as Bullet stores it (read back, not v * f)
            if vi is not None:
                moved[rec.ball] = vi
            elif moved:
                moved.pop(rec.ball, None)
            rec.energy = e
            rec.z = z
            rec.v = (v[0], v[1], v[2])


# Two contacts with one surface (kind and id: a cushion, the jaws of one pocket) whose normals are closer than this
# are one contact moving across the seam between two of its pieces (a jaw's round onto its facing), not a new one.
SAME_CONTACT_COS = math.cos(math.radians(30.0))


def _continues(before: Any, surf: Surface, n: V3) -> bool:
    """Does a contact with ``surf`` begun with normal ``n`` carry on one the ball had at the last substep?"""
    return any(
        k == surf.kind and sid == surf.id and m[0] * n[0] + m[1] * n[1] + m[2] * n[2] > SAME_CONTACT_COS
        for k, sid, m in before
    )


def _normal_impulse(pts: Any) -> tuple[float, float, float, float]:
    """A manifold's total normal impulse and its impulse-weighted normal (on the static body); the
    points' friction impulses, kept for warm starting, are cleared on the way."""
    jn = nx = ny = nz = 0.0
    for mp in pts:
        if mp.get_applied_impulse_lateral1() != 0.0 or mp.get_applied_impulse_lateral2() != 0.0:
            mp.set_applied_impulse_lateral1(0.0)
            mp.set_applied_impulse_lateral2(0.0)
        j = mp.get_applied_impulse()
        nb = mp.get_normal_world_on_b()
        jw = j if j > 0.0 else 1e-12
        jn += j if j > 0.0 else 0.0
        nx += jw * nb[0]
        ny += jw * nb[1]
        nz += jw * nb[2]
    return jn, nx, ny, nz


def ball_and_other(n0: Any, n1: Any) -> tuple[Any, Any]:
    """(ball index, the other node) of a contact pair, whichever side the ball is on; (None, n1) without a ball."""
    i = n0.get_python_tag("ball")
    if i is not None:
        return i, n1
    return n1.get_python_tag("ball"), n0


def clear_callbacks(world: BulletWorld) -> None:
    world.clear_tick_callback()
    world.clear_contact_added_callback()
