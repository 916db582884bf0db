"""The stroke engine: a hybrid of exact cloth motion, analytic impulses and Bullet.

How a stroke is advanced (why: physics.md §4 and the measurements in collide.py):

* Balls on the cloth, away from pockets, are advanced with the exact slide/roll/spin solution
  (``physics.cloth``); steps are as long as nothing can happen (bounded by the gaps to other
  balls, the cushions and the pocket zones divided by each ball's greatest possible speed), and
  shrink to the substep (1/substep_hz) when a contact may occur inside one.
* Ball-ball contacts are always ours: the earliest contact in a step is found by a swept-sphere
  test (on the exact cloth paths where a path leaves its chord by more than CHORD_TOL), time is
  advanced to it and the TP A.14 impulse (restitution + speed-dependent friction) is applied.
  Cushion hits of balls on the cloth use the analytic nose-height impulse. A pair that closes
  slower than the cloth's friction can push it in one substep (a spinning ball driven into a
  touching ball) is a sustained contact: plastic, kept at contact distance and solved every
  substep (``_sustain``) instead of a Zeno series of ever smaller bounces. Inside a step with
  Bullet balls, a ball an impulse sends on has its contacts found again on its new path.
  A ball on the slate that a ball-ball impulse drives into it (an airborne ball coming down on it
  above its equator) gets the slate's reaction with restitution e_table for the normal impulse's
  share (``collide.slate_reaction``) and flies off as a Bullet ball; a cushion's push stays plastic.
* Balls that fly, or are near a pocket, or off the bed, are *Bullet balls*: Bullet integrates
  them at the fixed substep (a fraction of it while a ball is fast) against the table geometry
  (jaws, pocket wells, cushions, rail tops, frame, floor, lamp, objects). Landing on the open
  slate is resolved analytically (Bullet's penetration recovery adds energy there), and a Bullet
  ball found sunk into the slate after a step is put back on it; rolling resistance and spin
  decay of the supporting surface (cloth, wood, floor), which Panda3D's Bullet does not expose,
  are applied per step. Two
  of Bullet's solver habits are put right after every substep (tick callback, ``_Hooks.tick``): its
  warm-started friction, which kept kicking a ball after a contact had ended, is cleared, and its
  contacts are made plastic while the engine adds each impact's rebound with the surface's
  restitution (Bullet alone lost nearly all of it below ~1 m/s). An energy guard removes any energy
  a Bullet contact created, every substep and against the true positions at the step's end.
  A step with Bullet balls ends at the first substep in which a cloth ball meets a ball or a
  cushion, a Bullet ball lands on the open slate, or (one substep at a time) a ball flying below
  the cushion's nose may meet a cushion (which drives it into the slate).
* Samples observe a stroke and never change it: steps are never cut for them; cloth balls are
  sampled on their closed form inside a step, Bullet balls at the substep next to each instant
  (Bullet calls leave no time over, so splitting a step's substeps into several calls integrates
  bit for bit alike).
* Balls at rest cost nothing: they are out of the Bullet world and out of every step's work
  except the pair test against moving balls.

Event definitions (design.md vocabulary, made precise):

* ``ball_ball``: a contact impulse between a pair that was not already touching (a frozen pair
  pushed along gives one event); ``cushion`` likewise per ball and cushion.
* ``airborne``: the ball rises off the bed (a slate bounce higher than ``min_bounce``, a launch
  from a cushion or jaw); a ball falling into a pocket or bouncing on the floor is not a flight.
  ``landed`` (on = bed, rail, frame, floor) ends the flight at its first supporting contact.
* ``jumped_over``: while airborne, the ball's outline passed over another ball's outline seen from
  above (horizontal centre distance < 2R with the flier's centre higher) and left it again
  without touching that ball; the event is timed when the outlines separate.
* ``left_table`` / ``returned``: the centre leaves / re-enters the bed outline
  (``TableGeometry.in_bed_outline``), except over a pocket's opening on the way in.
* ``hanging``: at the end, a ball on the slate whose centre is within R of a pocket's drop edge
  (its footprint overhangs the drop).
* ``rest``: linear and angular velocity both zero (a ball spinning in place is still moving), except
  a ball out of play on a level surface (the floor, the wooden rail top, the frame) whose only motion
  left is a spin about the vertical: it moves nowhere and rests where it is.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import replace
from enum import IntEnum
from typing import Any

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

from physics import cloth, collide
from physics.cue import strike
from physics.params import G, PhysicsParams
from physics.record import BallFinal, BallStatus, Event, EventType, ShotParams
from physics.scenario import SceneObject
from physics.tables import TableSpec

try:  # the real table geometry; a bare stand-in until it exists
    from physics.geometry import build_table_geometry
except ImportError:  # pragma: no cover - depends on the other part being present
    from physics._bare_table import build_table_geometry  # type: ignore[assignment]


class Mode(IntEnum):
    REST = 0
    CLOTH = 1
    BULLET = 2
    GONE = 3


# Plain ints for the hot path (IntEnum attribute access costs microseconds).
REST, CLOTH, BULLET, GONE = 0, 1, 2, 3


# Thresholds (why each value: see the comments beside them).
REST_V = 0.002  # m/s: below this (and REST_W) a Bullet ball counts as stopped
REST_W = 0.06  # rad/s
REST_TIME = 0.03  # s a Bullet ball must stay below the thresholds (a hanging ball can still tip)
ON_BED_Z = 2e-4  # m: a Bullet ball this close to z = R is sitting on the slate
CLOTH_MARGIN = 0.002  # m: keep this far from a cushion's contact line to hand a ball back to the cloth
MAX_CLOTH_STEP = 0.2  # s: longest analytic step (also bounds line-crossing interpolation)
FLIGHT_STEP = 0.005  # s: step while a ball flies or is off the bed
MAX_BULLET_STEP = 0.05  # s: Python work happens once per this many substeps at most
GRID = np.arange(1, 33) / 32.0  # instants (fractions of a step) at which near pairs are checked
FRACTIONS = np.arange(1, 16) / 16.0
OVERLAP_TOL = 1e-8  # m: a pair overlapping less than this on its exact paths is touching, not colliding
ZERO_STEP_LIMIT = 2000  # contacts resolved at one instant before detection is skipped for a step
ROLLING_SLIP = 0.005  # m/s: a Bullet ball whose contact point slips less than this is rolling
LAUNCH_GRACE = 0.005  # s after take-off in which touching the launching surface is not a landing
LINE_NAMES = ("head-string", "centre-line", "foot-string")
OUT_OF_PLAY_LEVEL = (
    "floor",
    "wall",
    "rail_top",
    "frame",
)  # level surfaces off the bed (and the room's walls)
# m/s: a pair closing slower than this is touching, not colliding. Bullet keeps its state in single
# precision: positions near the table's end are good to ~1e-7 m and a ball resting in Bullet keeps
# velocities of ~1e-7 m/s, so two frozen Bullet balls (by a pocket) met "overlapping and approaching" at
# 3e-8 m/s every step; each such impulse restarted their rest timers, and the stroke ran to the cap.
APPROACH_MIN = 1e-6
CHORD_TOL = (
    1e-6  # m: the deviation of a cloth path from its chord up to which the chord's contact time is used
)
SUSTAIN_OVERLAP = 1e-5  # m: deepest overlap a sustained contact corrects (one substep's push is ~1 um)
MICRO_TRAVEL = 0.0025  # m: most a Bullet ball moves in one of Bullet's fixed steps (_set_micro)
MICRO_MAX = 8  # Bullet steps per substep at most (16 m/s at 1 kHz: 7)
CHAIN_MAX = 200  # contacts resolved within one Bullet step (a rack's chain at a break is ~30)
SUSTAIN_SWEEPS = 8  # passes over the sustained contacts at a step's end (chains of pressed balls)
CLOTH_BOUND_SCALAR_MAX = (
    10  # cloth balls up to which the cushion/pocket bound is cheaper in plain floats (measured)
)


class Engine:
    """Simulate one stroke to rest; the result is read with :meth:`events`, :meth:`finals`, samples."""

    def __init__(
        self,
        spec: TableSpec,
        balls: Mapping[str, tuple[float, float]],
        params: PhysicsParams,
        objects: Sequence[SceneObject] = (),
        lamp: tuple[float, float, float] | None = (0.0, 0.0, 1.0),
        sample_hz: float | None = None,
    ) -> None:
        self.spec = spec
        self.p = params
        self.ids = list(balls)
        n = len(self.ids)
        R = params.R
        self.R = R
        self.h = 1.0 / params.substep_hz
        self.pos = np.zeros((n, 3))
        self.pos[:, 0] = [balls[b][0] for b in self.ids]
        self.pos[:, 1] = [balls[b][1] for b in self.ids]
        self.pos[:, 2] = R
        self.vel = np.zeros((n, 3))
        self.omg = np.zeros((n, 3))
        self.mode = np.full(n, REST, dtype=np.int8)
        self.t = 0.0
        self.events: list[Event] = []
        self.pocket: dict[int, str] = {}
        self.sample_dt = 1.0 / sample_hz if sample_hz else None
        self.samples: dict[str, list[Any]] | None = {b: [] for b in self.ids} if sample_hz else None
        self.next_sample = 0.0
        # Table shape used by the analytic cloth path.
        self.rc = R * math.cos(params.contact_angle)  # centre-to-nose-line distance at contact
        self.lim = np.array([spec.half_length - self.rc, spec.half_width - self.rc])
        self.zone_c = np.array([pk.centre for pk in spec.pockets.values()])
        # Pocket zones: circles about each pocket's outline point holding every place where a ball on
        # the cloth can touch a jaw (the nose line ends mouth/sqrt(2) (corner) or mouth/2 (middle) from
        # that point; the jaw adds its corridor and rounding), plus R of way for the hand-over.
        self.zone_r = np.array(
            [
                math.hypot(pk.mouth / math.sqrt(2) if pk.corner else pk.mouth / 2, R)
                + pk.corridor
                + pk.jaw_radius
                + R
                + 0.01
                for pk in spec.pockets.values()
            ]
        )
        self.zone_r2 = self.zone_r**2
        self.lines = [(name, spec.lines[name]) for name in LINE_NAMES if name in spec.lines]
        self.line_x = np.array([x for _, x in self.lines])
        self._line_xs = [float(x) for _, x in self.lines]
        self._zone_cx = self.zone_c[None, :, 0].copy()
        self._zone_cx1 = self.zone_c[:, 0].copy()
        self._zone_cy1 = self.zone_c[:, 1].copy()
        self._zone_cy = self.zone_c[None, :, 1].copy()
        # Bullet world.
        # Collision filtering by groups: statics (group 0, as the geometry makes them) never pair with
        # each other, balls (group 1) never with each other (ball-ball impulses are ours), balls meet
        # statics. With the default mask filter the ~130 touching static pieces of a table formed
        # broadphase pairs that cost ~25 us per substep; the filter is chosen when the world is built.
        page = loadPrcFileData("billiards-physics", "bullet-filter-algorithm groups-mask")
        try:
            self.world = BulletWorld()
        finally:
            unloadPrcFile(page)
        self.world.set_group_collision_flag(0, 0, False)
        self.world.set_group_collision_flag(1, 1, False)
        self.world.set_group_collision_flag(0, 1, True)
        self.world.set_gravity(Vec3(0, 0, -G))
        # Static bodies never move: updating their bounding boxes every substep cost ~70 us here.
        self.world.set_force_update_all_aabbs(False)
        p = params
        mats = {
            "bed": (p.e_table, p.mu_slide),
            "cushion": (p.e_cushion, p.mu_cushion),
            "jaw": (p.e_cushion, p.mu_cushion),
            "rail_top": (p.e_rail, p.mu_rail),
            "frame": (p.e_rail, p.mu_rail),
            "floor": (p.e_floor, p.mu_floor),
        }
        self.geo = build_table_geometry(self.world, spec, objects, lamp, mats)
        self.bodies: list[BulletRigidBodyNode] = []
        self.attached = np.zeros(n, dtype=bool)
        for i in range(n):
            b = BulletRigidBodyNode(f"ball:{i}")
            b.add_shape(BulletSphereShape(R))
            b.set_mass(params.m)
            # Surfaces carry the pair's friction (Bullet multiplies the two); restitution 0 makes every Bullet
            # contact plastic, and the engine adds the surface's rebound itself (_Hooks.tick).
            b.set_restitution(0.0)
            b.set_friction(1.0)
            b.set_deactivation_enabled(False)
            # No CCD: Bullet's swept-sphere CCD ignores a sweep whose motion into a surface is under 4 cm a
            # step (its allowed CCD penetration), i.e. every billiard speed; 120 campaign strokes gave the same
            # records bit for bit with and without it. Fast balls get a finer Bullet step instead (_set_micro).
            b.set_into_collide_mask(BitMask32.bit(1))
            b.set_python_tag("ball", i)
            b.notify_collisions(True)
            self.bodies.append(b)
        self._force = False
        self._segment: tuple[Any, ...] = (
            0.0,
            self.pos,
            self.vel,
            self.omg,
            np.zeros(0, dtype=np.intp),
            self.mode,
            False,
        )
        iu, ju = np.triu_indices(n, 1)
        self.pair_i, self.pair_j = iu.astype(np.intp), ju.astype(np.intp)
        self._bt_steps = 0
        self._calls: dict[tuple[int, int], tuple[int, ...]] = {}
        # Bullet's fixed step: the substep, or a fraction of it while a Bullet ball is fast (_set_micro).
        self._micro = 1
        self._hm = self.h
        self._hm32 = np.float32(self.h)
        self._hooks = _Hooks(params, self.h)
        self._pairs_key = b""
        self._acc = np.full(n, params.mu_roll * G)
        self._pairs: tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray, np.ndarray] = (
            self.pair_i,
            self.pair_j,
            self.pair_i > 0,
            0,
            self.pair_i,
            self.pair_j,
        )
        self._acc_roll = np.full(n, params.mu_roll * G)
        self._cpairs_key = b""
        self._cpairs: tuple[Any, Any, list[int]] = (None, None, [])
        self._lim_xy = (float(self.lim[0]), float(self.lim[1]))
        self._zones = [
            (float(c[0]), float(c[1]), float(r)) for c, r in zip(self.zone_c, self.zone_r, strict=True)
        ]
        # How far inside the cushion lines a landing ball's reach must stay for its step to run on (_step).
        self._landing_margin = float(self.zone_r.max()) + self.R
        self._closed = False
        self._knots: dict[int, list[tuple[float, np.ndarray, np.ndarray, np.ndarray, str]]] = {}
        self._captured: dict[int, dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        # The callbacks hold only _Hooks, never the engine (no cycle through C++ that Python cannot
        # collect). Bullet keeps the contact-added callback in a process-wide pointer that a world
        # destroyed with its callbacks still set leaves dangling: the interpreter then crashed at exit
        # (segfault, every time) after an engine was dropped without being run. So the callbacks are
        # always cleared before the world goes: by close() (simulate calls it) or, for an engine that
        # is just dropped, by this finalizer (it holds the world, not the engine).
        self.world.set_tick_callback(PythonCallbackObject(self._hooks.tick), False)
        self.world.set_contact_added_callback(PythonCallbackObject(self._hooks.contact_added))
        self._release = weakref.finalize(self, _clear_callbacks, self.world)
        # Per-ball bookkeeping for events.
        self.contacts: list[set[tuple[str, str | None]]] = [set() for _ in range(n)]
        self.touching: set[tuple[int, int]] = set()
        self.flying = np.zeros(n, dtype=bool)
        self.takeoff_t = np.zeros(n)
        self.touched_once: set[tuple[int, str, str | None]] = set()
        self.outside = np.zeros(n, dtype=bool)
        self.rest_time = np.zeros(n)
        self.over: dict[tuple[int, int], bool] = {}  # (flier, other) -> clean so far
        self.hit_in_flight: set[tuple[int, int]] = set()
        self.support: list[str | None] = ["bed"] * n
        # Sustained ball-ball contacts (pairs of cloth/resting balls pressed together, e.g. a spinning cue
        # ball driven by the cloth into a frozen ball): see _resolve. A closing speed below v_plastic is
        # what the cloth's friction (the largest force pressing a pair together on the cloth) builds up in
        # one substep: a bounce that slow would separate the pair for less than a substep, so the whole
        # bounce series (a Zeno series of ever shorter steps) is taken as its limit, a plastic push.
        self.sustained: set[tuple[int, int]] = set()
        # The closing-speed floor in the units of the contact tests (relative velocity . centre offset).
        self._approach_min = APPROACH_MIN * 2.0 * R
        self.v_plastic = params.mu_slide * G * self.h
        self.sustain_gap = self.v_plastic * self.h
        self._plastic_closing = self.v_plastic * 2.0 * R  # v_plastic in the contact tests' units

    # ---------------------------------------------------------------- Bullet callbacks
    # ---------------------------------------------------------------- public
    def run(self, shot: ShotParams | None) -> None:
        if shot is not None and shot.ball in self.ids and shot.cue_speed > 0.0:
            self._strike(shot)
        self._sample_all()
        guard = 0
        # Divisions by zero and infinities are part of the step bounds' arithmetic (no warnings).
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            self._loop(guard)
        self._finish()

    def _loop(self, guard: int) -> None:
        while self.t < self.p.max_stroke_seconds:
            moving = (self.mode == CLOTH) | (self.mode == BULLET)
            if not np.count_nonzero(moving):
                break
            dt = self._choose_dt(moving)
            taken = self._step(dt)
            self.t += taken
            if taken <= 0.0:
                guard += 1
                # Many contacts at one instant are normal in a rack; thousands mean a pair that cannot be
                # resolved by impulses: let the next step run without contact detection.
                self._force = guard > ZERO_STEP_LIMIT
            else:
                guard = 0
                self._force = False
            if self.sample_dt is not None:
                self._samples_within()

    # ---------------------------------------------------------------- strike
    def _strike(self, shot: ShotParams) -> None:
        i = self.ids.index(shot.ball)
        s = strike(shot.cue_speed, shot.direction, shot.elevation, shot.tip, self.p)
        v = np.array(s.v)
        w = np.array(s.w)
        self.events.append(
            Event(
                0.0,
                EventType.CUE_STRIKE,
                ball=shot.ball,
                miscue=s.miscue,
                scoop=s.scoop,
                speed=round(s.speed, 6),
                pos=self._p(i),
            )
        )
        # The ball sits on the slate: a velocity into it is answered by the slate bounce at once.
        airborne = False
        if v[2] < 0.0:
            v, w, airborne = collide.slate_bounce(v, w, self.p)
        elif v[2] > 0.0:
            airborne = True
        self.vel[i], self.omg[i] = v, w
        if airborne:
            self._to_bullet(i)
            self._take_off(i)
        else:
            self.vel[i, 2] = 0.0
            self.mode[i] = CLOTH
            if self._in_zone(self.pos[i]):
                self._to_bullet(i)

    # ---------------------------------------------------------------- step size
    def _choose_dt(self, moving: np.ndarray) -> float:
        """The longest step in which nothing can happen that needs a shorter one.

        On the cloth a ball's path deviates from the straight line v0 t by at most a t^2 / 2 with
        a = mu_s g while sliding, mu_r g while rolling. So a pair can only touch within T if the
        straight-line paths come within 2R + (a_i + a_j) T^2 / 2: solving that quadratic gives a
        safe step that is long when balls are far apart and exact as they close in. A Bullet ball
        can be turned by the geometry at any substep, so its bound is speed-based.
        """
        h = self.h
        mode = self.mode
        bl = mode == BULLET
        bullet = np.count_nonzero(bl) > 0
        T = MAX_BULLET_STEP if bullet else MAX_CLOTH_STEP
        if bullet and np.count_nonzero((self.flying | (self.vel[:, 2] < -0.05)) & bl):
            T = FLIGHT_STEP  # left_table / returned / jumped_over are checked once per step
        if T <= 0.0:
            return h
        if self.sustained and self._sustained_moving():
            # A pair in sustained contact is followed substep by substep (its push is applied per substep).
            T = h
        R = self.R
        g = G
        p = self.p
        cl = mode == CLOTH
        vel, omg = self.vel, self.omg
        # Largest acceleration of each ball's horizontal motion: sliding or rolling (never 0, so the
        # reach-time formula below needs no special case); Bullet balls use a speed bound instead.
        any_cl = np.count_nonzero(cl) > 0
        if any_cl:
            sliding = (np.abs(vel[:, 0] - R * omg[:, 1]) + np.abs(vel[:, 1] + R * omg[:, 0]) > 1e-9) & cl
            acc = np.where(sliding, p.mu_slide * g, p.mu_roll * g)
        else:
            acc = self._acc_roll
        self._acc = acc
        pi, pj, bb, nbb, ci, cj = self._live_pairs(moving)
        if len(pi) and bullet and nbb:
            speed = np.zeros(len(mode))
            speed[bl] = np.sqrt((vel[bl] ** 2).sum(axis=1)) + g * MAX_BULLET_STEP + 0.05
            r = self.pos[pi[bb]] - self.pos[pj[bb]]
            gap = np.sqrt((r * r).sum(axis=1)) - 2.0 * R
            tb = np.maximum(gap, 0.0) / (speed[pi[bb]] + speed[pj[bb]] + p.mu_slide * g * T)
            T = min(T, float(tb.min()))
            pi, pj = ci, cj
        # Cloth balls: the cushion contact lines and the pocket zones. Taken before the cloth pairs'
        # bound (which reads T): both only lower the step by a minimum, and once it is down to the
        # substep the step is the substep whatever the pairs say, so their bound is skipped then.
        Tc = self._cloth_bound(T, cl, acc) if any_cl and T > h else T
        if len(pi) and Tc > h:
            P2 = self.pos[:, :2]
            V2 = vel[:, :2]
            d = P2.take(pi, axis=0) - P2.take(pj, axis=0)
            u = V2.take(pi, axis=0) - V2.take(pj, axis=0)
            aij = acc.take(pi) + acc.take(pj)
            dd = d * d
            rr = dd[:, 0] + dd[:, 1]
            du = d * u
            rw = du[:, 0] + du[:, 1]
            dist = np.sqrt(rr)
            # Radial bound: |r(t)| >= |r0| - c t - a t^2/2 (c the closing speed).
            c = -rw / dist
            gap = np.maximum(dist - 2.0 * R, 0.0)
            t_rad = (np.sqrt(c * c + 2.0 * aij * gap) - c) / aij
            # Straight paths widened by the deviation a T^2/2.
            uu = u * u
            A = uu[:, 0] + uu[:, 1]
            D = 2.0 * R + 0.5 * aij * T * T
            disc = rw * rw - A * (rr - D * D)
            t_lin = np.maximum((-rw - np.sqrt(np.maximum(disc, 0.0))) / np.where(A > 0.0, A, 1.0), 0.0)
            # A pair whose straight paths separate is not bounded here: if it is within the
            # paths' curvature of contact, _contacts_in_step follows it on its exact paths.
            t_lin[(rw >= 0.0) | ~(disc >= 0.0)] = np.inf
            Tc = min(Tc, float(np.minimum.reduce(np.maximum(t_rad, t_lin))))
        T = Tc
        if bullet:
            if T > h and self._low_flier_at_cushion(bl, T):
                return h
            return max(h, math.floor(T / h + 1e-9) * h)
        return max(T, h)

    def _low_flier_at_cushion(self, bl: np.ndarray, T: float) -> bool:
        """Could a Bullet ball whose centre is below the cushion's nose reach a cushion within ``T``?

        A cushion meets such a ball above its centre and drives it down into the slate. Bullet meets the
        slate only at the next substep, once the ball is already in it (campaign seed 300840: a jumped
        cue ball 1 mm above the cloth met a cushion at 13 m/s, was driven down at 9 m/s and was 8 mm in
        the slate a substep later: Bullet keeps a contact point only within ~0.02 R of a surface), so such
        a ball is stepped one substep at a time and put back on the slate with the slate's bounce
        (_onto_slate) at every one."""
        R = self.R
        z_nose = self.spec.cushion_nose_height
        limx, limy = self._lim_xy
        for i in bl.nonzero()[0].tolist():
            x, y, z = self.pos[i].tolist()
            if not R + ON_BED_Z < z < z_nose:
                continue  # a ball on the slate has its contact with it in Bullet's solve already
            vx, vy, _vz = self.vel[i].tolist()
            if abs(x) + abs(vx) * T + R > limx or abs(y) + abs(vy) * T + R > limy:
                return True
        return False

    def _sustained_moving(self) -> bool:
        mode = self.mode
        return any(mode[a] == CLOTH or mode[b] == CLOTH for a, b in self.sustained)

    def _cloth_bound(self, T: float, cl: np.ndarray, acc: np.ndarray) -> float:
        """``T`` shortened to the time any cloth ball may need to reach a cushion's contact line or
        a pocket zone (per ball in plain floats: numpy's per-call cost dominates for a handful of
        balls; the same operations as the vectorised bounds, in the same order)."""
        vel = self.vel
        idx = cl.nonzero()[0].tolist()
        if len(idx) > CLOTH_BOUND_SCALAR_MAX:
            return self._cloth_bound_vec(T, cl, acc)
        X, Y = self.pos[:, 0].tolist(), self.pos[:, 1].tolist()
        VX, VY = vel[:, 0].tolist(), vel[:, 1].tolist()
        AC = acc.tolist()
        limx, limy = self._lim_xy
        zones = self._zones
        for i in idx:
            x, y, vx, vy, a = X[i], Y[i], VX[i], VY[i], AC[i]
            a2 = 2.0 * a
            # Both contact lines of each axis: the one ahead (a ball crossing the table reaches the far
            # cushion) and the one behind (a ball drawn back by its spin may return to it).
            for q, vq, lq in ((x, vx, limx), (y, vy, limy)):
                dl = lq - q
                dl = dl if dl >= 0.0 else 0.0
                t = (math.sqrt(vq * vq + a2 * dl) - vq) / a
                if t < T:
                    T = t
                dl = lq + q
                dl = dl if dl >= 0.0 else 0.0
                t = (math.sqrt(vq * vq + a2 * dl) + vq) / a
                if t < T:
                    T = t
            for zx, zy, zr in zones:
                rx = x - zx
                ry = y - zy
                dist = math.sqrt(rx * rx + ry * ry)
                if dist == 0.0:
                    continue  # a ball on the cloth is never at a pocket's centre
                c = -(rx * vx + ry * vy) / dist
                dz = dist - zr
                dz = dz if dz >= 0.0 else 0.0
                t = (math.sqrt(c * c + a2 * dz) - c) / a
                if t < T:
                    T = t
        return T

    def _cloth_bound_vec(self, T: float, cl: np.ndarray, acc: np.ndarray) -> float:
        """:meth:`_cloth_bound` over arrays (cheaper for many cloth balls)."""
        xy = self.pos[cl, :2]
        vxy = self.vel[cl, :2]
        ac = acc[cl]
        a2 = ac[:, None]
        for sgn in (1.0, -1.0):  # the + and - contact lines of each axis
            dl = np.maximum(self.lim - sgn * xy, 0.0)
            vo = sgn * vxy
            T = min(T, float(((np.sqrt(vo * vo + 2.0 * a2 * dl) - vo) / a2).min()))
        x, y = xy[:, 0], xy[:, 1]
        vx, vy = vxy[:, 0], vxy[:, 1]
        rx = x[:, None] - self.zone_c[None, :, 0]
        ry = y[:, None] - self.zone_c[None, :, 1]
        dist = np.sqrt(rx * rx + ry * ry)
        c = -(rx * vx[:, None] + ry * vy[:, None]) / dist
        d = np.maximum(dist - self.zone_r[None, :], 0.0)
        return min(T, float(((np.sqrt(c * c + 2.0 * a2 * d) - c) / a2).min()))

    def _live_pairs(
        self, moving: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]:
        """Pairs with a moving ball and no pocketed one, which of them hold a Bullet ball (and how
        many), and the pairs without one; kept while the modes do not change (most steps). ``moving``
        follows from the modes, so the modes are the key."""
        key = self.mode.tobytes()
        if key != self._pairs_key:
            mode = self.mode
            pi, pj = self.pair_i, self.pair_j
            live = (mode[pi] != GONE) & (mode[pj] != GONE) & (moving[pi] | moving[pj])
            pi, pj = pi[live], pj[live]
            bl = mode == BULLET
            bb = bl[pi] | bl[pj]
            self._pairs = (pi, pj, bb, int(np.count_nonzero(bb)), pi[~bb], pj[~bb])
            self._pairs_key = key
        return self._pairs

    # ---------------------------------------------------------------- one step
    def _step(self, dt: float) -> float:
        t0 = self.t
        alive = self.mode != GONE
        cl = np.nonzero(self.mode == CLOTH)[0]
        bl = np.nonzero(self.mode == BULLET)[0]
        # A ball that lands inside the step rolls on for the rest of it with nothing in its way but the
        # balls: end the step at the first landing's substep (campaign seed 300606: a ball landing 9 ms
        # into a 50 ms step rolled on through a cushion and into the rail at bed height).
        # Only a ball whose reach over the step comes near a cushion line or a pocket's zone needs it.
        limx, limy = self._lim_xy
        margin = self._landing_margin
        pre: dict[int, float | None] = {}
        for k in bl.tolist():
            tl = pre[k] = self._landing_time(k, dt)
            if tl is not None and dt - tl > self.h:
                x, y, _z = self.pos[k].tolist()
                vx, vy, _vz = self.vel[k].tolist()
                if abs(x) + abs(vx) * dt > limx - margin or abs(y) + abs(vy) * dt > limy - margin:
                    dt = max(self.h, math.ceil(tl / self.h) * self.h)
                    pre.clear()
        # Likewise the first contact of a cloth ball (with a ball or a cushion): inside a Bullet step it is
        # taken on straight paths from the contact to the step's end, which a long step would make wrong.
        if len(bl) and len(cl) and dt > self.h and not self._force:
            tc = self._cloth_first_contact(cl, dt)
            if tc is not None and tc < dt - self.h:
                dt = max(self.h, math.ceil(tc / self.h - 1e-9) * self.h)
                pre.clear()
        p0 = self.pos.copy()
        v0 = self.vel.copy()
        w0 = self.omg.copy()
        mode0 = self.mode.copy()
        self._segment = (t0, p0, v0, w0, cl, mode0, len(bl) == 0)
        # Samples observe the step, never cut it: balls whose path inside the step is not the cloth's
        # closed form from (p0, v0, w0) get knots (time, state, how it moves on) as it happens.
        self._knots = {}
        self._captured = {}
        # Bullet balls about to land on the open slate are flown and bounced analytically.
        landing: list[tuple[int, float]] = []
        for k in bl.tolist():
            tl = pre[k] if k in pre else self._landing_time(k, dt)
            if tl is not None:
                landing.append((k, tl))
        land_set = {i for i, _ in landing}
        bstep = [i for i in bl.tolist() if i not in land_set]
        for i, _ in landing:
            self._detach(i)
        e_before = self._energy(bstep) if bstep else None
        if bstep:
            self._hooks.substep = 0
            self._hooks.added.clear()
            assert e_before is not None
            self._hooks.watch = [
                [self.bodies[i], float(e_before[k]), float(self.pos[i, 2]), i, tuple(self.vel[i].tolist())]
                for k, i in enumerate(bstep)
            ]
            self._hooks.world = self.world
            self._hooks.moved.clear()
            self._set_micro(bstep)
            self._bullet_run(max(1, round(dt / self.h)), t0, bstep)
            self._hooks.watch = []
            self._hooks.world = None
            for i in bstep:
                self._read_body(i)
            self._guard_energy(bstep, e_before)
            for i in bstep:
                self._onto_slate(i)
        for i, tl in landing:
            self._fly_and_land(i, tl, dt)
        stops = None
        if len(cl):
            self.pos[cl], self.vel[cl], self.omg[cl], stops = cloth.advance(
                p0[cl], v0[cl], w0[cl], dt, self.p
            )
        # The earliest ball-ball or cushion contact inside the step.
        hits = [] if self._force else self._contacts_in_step(p0, v0, alive, dt)
        if hits and not bstep and not landing:
            s, kind, a, b = hits[0]
            ts = s * dt
            if len(cl):
                self.pos[cl], self.vel[cl], self.omg[cl], stops = cloth.advance(
                    p0[cl], v0[cl], w0[cl], ts, self.p
                )
            self._line_events(p0, cl, t0, ts)
            self._rest_events(cl, stops, t0)
            self._resolve(kind, a, b, t0 + ts)
            self._sustain(t0 + ts)
            self._post_modes(t0 + ts)
            return ts
        # Inside a Bullet step we cannot rewind the world: the pair is moved back to its contact, the
        # impulse applied and the rest of the step flown with the new velocity. A ball so sent on may
        # meet another ball within the same step (a break's impulse runs through a rack within a
        # substep): the contacts of the balls sent on are found again on their new paths, earliest
        # first, instead of being left overlapping (up to v h, 10 mm at a break) until the next step.
        fwd: dict[int, float] = {}
        queue = hits
        for _ in range(CHAIN_MAX):
            if not queue:
                break
            s, kind, a, b = queue[0]
            if a in fwd:
                self.pos[a] -= self.vel[a] * ((1.0 - s) * dt)
            else:
                self._rewind_to(a, -1, p0, s, dt)
            if b >= 0:
                if b in fwd:
                    self.pos[b] -= self.vel[b] * ((1.0 - s) * dt)
                else:
                    self._rewind_to(b, -1, p0, s, dt)
            self._resolve(kind, a, b, t0 + s * dt)
            self._knot(a, t0 + s * dt, "linear")
            self._knot(b, t0 + s * dt, "linear")
            self._forward(a, b, (1.0 - s) * dt)
            fwd[a] = s
            if b >= 0:
                fwd[b] = s
            queue = sorted(
                [h for h in queue[1:] if h[2] not in fwd and h[3] not in fwd] + self._chain_hits(fwd, p0, dt),
                key=lambda e: (e[0], e[2], e[3]),
            )
        if bstep:
            self._bullet_contacts(bstep, t0)
            self._bullet_support(bstep, dt)
        self._line_events(p0, np.nonzero(alive)[0], t0, dt)
        self._rest_events(cl, stops, t0)
        self._flight_events(t0 + dt)
        self._sustain(t0 + dt)
        self._post_modes(t0 + dt, dt)
        return dt

    # ---------------------------------------------------------------- contacts
    def _cloth_first_contact(self, cl: np.ndarray, dt: float) -> float | None:
        """Time within ``dt`` of the first contact among the balls off Bullet (cloth balls with each other,
        with balls at rest and with the cushions), on their exact paths; None if there is none."""
        p0, v0, w0 = self.pos.copy(), self.vel.copy(), self.omg.copy()
        segment = self._segment
        self._segment = (self.t, p0, v0, w0, cl, self.mode.copy(), True)
        try:
            self.pos[cl], self.vel[cl], self.omg[cl], _ = cloth.advance(p0[cl], v0[cl], w0[cl], dt, self.p)
            hits = self._contacts_in_step(p0, v0, (self.mode != GONE) & (self.mode != BULLET), dt)
        finally:
            self.pos[:], self.vel[:], self.omg[:] = p0, v0, w0
            self._segment = segment
        return hits[0][0] * dt if hits else None

    def _contacts_in_step(
        self, p0: np.ndarray, v0: np.ndarray, alive: np.ndarray, dt: float
    ) -> list[tuple[float, str, int, int]]:
        R = self.R
        out: list[tuple[float, str, int, int]] = []
        ii, jj, cl = self._contact_pairs(alive)
        if ii is None:
            return out
        if len(ii):
            a0 = p0.take(ii, axis=0) - p0.take(jj, axis=0)
            a1 = self.pos.take(ii, axis=0) - self.pos.take(jj, axis=0)
            dd = a1 - a0
            A = (dd * dd).sum(axis=1)
            B = 2.0 * (a0 * dd).sum(axis=1)
            C = (a0 * a0).sum(axis=1) - (2.0 * R) ** 2
            disc = B * B - 4.0 * A * C
            # The chord's first touch s (fraction of the step) only for the few pairs that can touch
            # (overlapping, or approaching with real roots), in plain floats with the same operations.
            cand_l: list[int] = []
            sv_l: list[float] = []
            pre = ((C <= 0.0) | ((disc >= 0.0) & (B < 0.0))).nonzero()[0]
            if len(pre):
                Al, Bl, Cl, Dl = A.tolist(), B.tolist(), C.tolist(), disc.tolist()
                for k in pre.tolist():
                    if Cl[k] <= 0.0:
                        s_k = 0.0
                    elif Al[k] > 0.0:
                        d_k = Dl[k]
                        s_k = (-Bl[k] - math.sqrt(d_k if d_k > 0.0 else 0.0)) / (2.0 * Al[k])
                        if not s_k <= 1.0:
                            continue
                    else:
                        continue
                    cand_l.append(k)
                    sv_l.append(s_k)
            found = set()
            refine: list[int] = []
            if cand_l:
                # Only pairs approaching at that instant collide (the same test ball_ball makes); a few
                # pairs, in plain floats (a row sum of three is ((x + y) + z) as numpy forms it).
                P0L, PL, V0L, VL = p0.tolist(), self.pos.tolist(), v0.tolist(), self.vel.tolist()
                IIl, JJl = ii.tolist(), jj.tolist()
                bullet0 = self._segment[5] == BULLET
                # A cloth path leaves its chord by up to a dt^2 / 8: where that exceeds CHORD_TOL (a long step,
                # e.g. beside a Bullet ball, or a pair curving back into contact) the chord's time is not
                # trusted and the contact is found on the exact paths (_recontact). Campaign seed 401709: a
                # cue ball driven by its spin into the ball it had just pushed, in a 50 ms step; the chord
                # put the contact 9 ms late, 0.38 mm deep.
                chord_ok = CHORD_TOL / (0.125 * dt * dt)
                acc_l = self._acc.tolist()
                for q, k in enumerate(cand_l):
                    s = max(sv_l[q], 0.0)
                    a, b = IIl[k], JJl[k]
                    if (
                        sv_l[q] > 0.0
                        and not bullet0[a]
                        and not bullet0[b]
                        and acc_l[a] + acc_l[b] > chord_ok
                        and (a, b) not in self.sustained
                    ):
                        found.add(k)
                        refine.append(k)
                        continue
                    pa0, pa1, pb0, pb1 = P0L[a], PL[a], P0L[b], PL[b]
                    va0, va1, vb0, vb1 = V0L[a], VL[a], V0L[b], VL[b]
                    if bullet0[a] or bullet0[b]:
                        # A Bullet ball's step is not a path between its start and end velocities (a jaw
                        # may have turned it within a substep; its chord is flown at the end velocity):
                        # the pair is judged by the velocities the impulse will use (_rewind_to keeps them).
                        va0, vb0 = va1, vb1
                    closing = 0.0
                    for c in (0, 1, 2):
                        nc = (pa0[c] + s * (pa1[c] - pa0[c])) - (pb0[c] + s * (pb1[c] - pb0[c]))
                        dvc = (va0[c] + s * (va1[c] - va0[c])) - (vb0[c] + s * (vb1[c] - vb0[c]))
                        closing = dvc * nc if c == 0 else closing + dvc * nc
                    if closing >= -self._approach_min or (
                        closing > -self._plastic_closing and (a, b) in self.sustained
                    ):
                        continue  # a sustained pair's slow push is taken at the step's end (_sustain)
                    found.add(k)
                    out.append((s, "ball", a, b))
            # Pairs the chord test cannot judge: close enough at the start for cloth friction to curve
            # their paths into contact within the step, yet not approaching then (a pair touching and
            # separating slowly turns back into itself; the step bound leaves such pairs alone).
            # They are followed on their exact paths.
            # acc: each ball's largest horizontal deceleration at the step's start (from _choose_dt).
            acc = self._acc
            reach_max = 2.0 * R + self.p.mu_slide * G * dt * dt
            close = np.nonzero(C < reach_max * reach_max - (2.0 * R) ** 2)[0]
            near = close[:0]
            if 0 < len(close) <= 16:
                # A few pairs: the same tests in plain floats (a row sum of three is ((x + y) + z) in numpy).
                mode0 = self._segment[5].tolist()
                AC = acc.tolist()
                Cl2 = C.tolist()
                IIl, JJl = ii.tolist(), jj.tolist()
                A0 = a0.tolist()
                V0 = v0.tolist()
                four_r2 = (2.0 * R) ** 2
                sel: list[int] = []
                for k in close.tolist():
                    ci_, cj_ = IIl[k], JJl[k]
                    m_i, m_j = mode0[ci_], mode0[cj_]
                    if m_i == BULLET or m_j == BULLET or (m_i != CLOTH and m_j != CLOTH):
                        continue
                    reach_k = 2.0 * R + 0.5 * (AC[ci_] + AC[cj_]) * dt * dt
                    if not Cl2[k] < reach_k * reach_k - four_r2:
                        continue
                    r0, vi, vj = A0[k], V0[ci_], V0[cj_]
                    if (r0[0] * (vi[0] - vj[0]) + r0[1] * (vi[1] - vj[1])) + r0[2] * (vi[2] - vj[2]) >= 0.0:
                        if k not in found and (ci_, cj_) not in self.sustained:
                            sel.append(k)
                near = np.array(sel, dtype=np.intp)
            elif len(close):
                mode0 = self._segment[5]
                ci, cj = ii[close], jj[close]
                reach = 2.0 * R + 0.5 * (acc[ci] + acc[cj]) * dt * dt
                near = close[
                    (C[close] < reach * reach - (2.0 * R) ** 2)
                    & ((a0[close] * (v0[ci] - v0[cj])).sum(axis=1) >= 0.0)
                    & ((mode0[ci] == CLOTH) | (mode0[cj] == CLOTH))
                    & (mode0[ci] != BULLET)
                    & (mode0[cj] != BULLET)
                ]
                if found or self.sustained:
                    near = np.array(
                        [
                            k
                            for k in near.tolist()
                            if k not in found and (int(ii[k]), int(jj[k])) not in self.sustained
                        ],
                        dtype=np.intp,
                    )
            if refine:
                near = np.concatenate((near, np.array(refine, dtype=np.intp)))
            if len(near):
                for k, se in zip(near.tolist(), self._recontact(ii[near], jj[near], dt), strict=True):
                    if se is not None:
                        out.append((se, "ball", int(ii[k]), int(jj[k])))
        # Cloth balls reaching a cushion's contact line (per ball in plain floats: a handful of balls).
        if cl:
            limx, limy = self._lim_xy
            X0, Y0 = p0[:, 0].tolist(), p0[:, 1].tolist()
            X1, Y1 = self.pos[:, 0].tolist(), self.pos[:, 1].tolist()
            # Each line on its own side (a ball may cross the table's middle within the step).
            for i in cl:
                for kind, q0, q1, lq in (("cushion0", X0[i], X1[i], limx), ("cushion1", Y0[i], Y1[i], limy)):
                    if q1 > lq and q1 > q0:
                        out.append((0.0 if q0 >= lq else (lq - q0) / (q1 - q0), kind, i, -1))
                    elif q1 < -lq and q1 < q0:
                        out.append((0.0 if q0 <= -lq else (-lq - q0) / (q1 - q0), kind, i, -1))
        out.sort(key=lambda e: (e[0], e[2], e[3]))
        return out

    def _contact_pairs(self, alive: np.ndarray) -> tuple[Any, Any, list[int]]:
        """Pairs (ii, jj) of live balls with a moving one, and the moving cloth balls; (None, None, [])
        when nothing moves. Kept while the modes (before and after the step) hold."""
        key = alive.tobytes() + self.mode.tobytes()
        if key != self._cpairs_key:
            moved = ((self.mode == CLOTH) | (self.mode == BULLET)) & alive
            if not np.count_nonzero(moved):
                self._cpairs = (None, None, [])
            else:
                pi, pj = self.pair_i, self.pair_j
                keep = alive[pi] & alive[pj] & (moved[pi] | moved[pj])
                self._cpairs = (pi[keep], pj[keep], np.flatnonzero(moved & (self.mode == CLOTH)).tolist())
            self._cpairs_key = key
        return self._cpairs

    def _recontact(self, ia: np.ndarray, ib: np.ndarray, dt: float) -> list[float | None]:
        """For each pair (ia[k], ib[k]) of balls on the cloth or at rest at the step's start: the first
        time (as a fraction of ``dt``) at which they come into contact on their exact paths after a
        moment apart, approaching; None if they do not."""
        t0, p0, v0, w0, _cl, _mode0, _pure = self._segment
        n = len(ia)
        R2 = (2.0 * self.R) ** 2
        # The first overlap deeper than OVERLAP_TOL (rounding of a pair rolling in contact is not one)
        # on a grid of 32 instants, then narrowed 16-fold per round; an overlap shorter than a grid
        # interval (dt/32) is at most a (dt/32)^2/8 deep (< 0.02 mm for the longest cloth step).
        tol = -4.0 * self.R * OVERLAP_TOL

        def gap(a: np.ndarray, b: np.ndarray, ts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            """ts: (pairs, times) -> squared-distance margin, separation and relative velocity."""
            m = ts.size
            idx = np.concatenate((np.repeat(a, ts.shape[1]), np.repeat(b, ts.shape[1])))
            P, V = cloth.motion(p0[idx], v0[idx], w0[idx], np.tile(ts.ravel(), 2), self.p)
            d = P[:m] - P[m:]
            return ((d * d).sum(axis=1) - R2).reshape(ts.shape), d, V[:m] - V[m:]

        grid = dt * GRID
        g, _, _ = gap(ia, ib, np.tile(grid, (n, 1)))
        out: list[float | None] = [None] * n
        for k in np.nonzero((g < tol).any(axis=1))[0].tolist():
            first = int(np.argmax(g[k] < tol))
            lo, hi = (float(grid[first - 1]) if first else 0.0), float(grid[first])
            a, b = ia[k : k + 1], ib[k : k + 1]
            for _ in range(6):
                ts = lo + (hi - lo) * FRACTIONS
                gk = gap(a, b, ts[None, :])[0][0]
                neg = np.nonzero(gk < tol)[0]
                if len(neg):
                    hi = float(ts[neg[0]])
                    if neg[0] > 0:
                        lo = float(ts[neg[0] - 1])
                else:
                    lo = float(ts[-1])
            if lo <= 0.0:
                continue  # overlapping from the start: not a new contact on these paths
            _, d, dv = gap(a, b, np.array([[lo]]))
            if float(d[0] @ dv[0]) < 0.0:
                out[k] = lo / dt
        return out

    def _chain_hits(
        self, fwd: dict[int, float], p0: np.ndarray, dt: float
    ) -> list[tuple[float, str, int, int]]:
        """Ball-ball contacts, within the rest of a Bullet step, of the balls an impulse sent on (``fwd``:
        ball -> the fraction of the step from which it flies straight at its velocity to its end
        position) with every other ball (on its chord from the step's start, or sent on too)."""
        R2 = (2.0 * self.R) ** 2
        out: list[tuple[float, str, int, int]] = []
        alive = [i for i in range(len(self.ids)) if self.mode[i] != GONE]
        for x, sx in fwd.items():
            if self.mode[x] == GONE:
                continue
            vx = self.vel[x] * dt
            cx = self.pos[x] - vx
            for y in alive:
                if y == x or (y in fwd and y < x):
                    continue
                if y in fwd:
                    vy = self.vel[y] * dt
                    cy = self.pos[y] - vy
                    lo = max(sx, fwd[y])
                else:
                    vy = self.pos[y] - p0[y]
                    cy = p0[y]
                    lo = sx
                r0 = cx - cy
                rd = vx - vy
                rl = r0 + lo * rd
                c_lo = float(rl @ rl) - R2
                A = float(rd @ rd)
                if c_lo <= 0.0:
                    s = lo
                elif A > 0.0:
                    B = 2.0 * float(r0 @ rd)
                    disc = B * B - 4.0 * A * (float(r0 @ r0) - R2)
                    if disc < 0.0:
                        continue
                    s = (-B - math.sqrt(disc)) / (2.0 * A)
                    if not lo <= s <= 1.0:
                        continue
                else:
                    continue
                # Approaching there, by the velocities the impulse will use.
                if float((r0 + s * rd) @ (self.vel[x] - self.vel[y])) >= -self._approach_min:
                    continue
                a, b = (x, y) if x < y else (y, x)
                out.append((s, "ball", a, b))
        return out

    def _cloth_acc(self, i: int) -> tuple[float, float]:
        """Horizontal acceleration the cloth gives ball ``i`` now (sliding, rolling or at rest)."""
        if self.mode[i] != CLOTH:
            return 0.0, 0.0
        R = self.R
        vx, vy = float(self.vel[i, 0]), float(self.vel[i, 1])
        ux, uy = vx - R * float(self.omg[i, 1]), vy + R * float(self.omg[i, 0])
        us = math.hypot(ux, uy)
        if us > cloth.EPS_V:
            a = self.p.mu_slide * G / us
            return -a * ux, -a * uy
        s = math.hypot(vx, vy)
        if s > cloth.EPS_V:
            a = self.p.mu_roll * G / s
            return -a * vx, -a * vy
        return 0.0, 0.0

    def _pressed(self, a: int, b: int) -> bool:
        """Is the pair (touching) closing or driven together by the cloth? Otherwise its contact is over
        and the ordinary contact tests follow it."""
        dx, dy = float(self.pos[b, 0] - self.pos[a, 0]), float(self.pos[b, 1] - self.pos[a, 1])
        if dx * (float(self.vel[a, 0] - self.vel[b, 0])) + dy * float(self.vel[a, 1] - self.vel[b, 1]) > 0.0:
            return True
        axa, aya = self._cloth_acc(a)
        axb, ayb = self._cloth_acc(b)
        return dx * (axa - axb) + dy * (aya - ayb) > 0.0

    def _sustain(self, t: float) -> None:
        """Sustained contacts at the step's end (the step is one substep while any pair moves): each
        pair pressed into the other is put back at contact distance and its approach stopped by a
        plastic impulse with friction; chains (a ball pushing a ball pushing a third) are swept a few
        times, as a sequential-impulse contact solver does, and what is left is taken next substep."""
        if not self.sustained:
            return
        R2 = (2.0 * self.R) ** 2
        for _ in range(SUSTAIN_SWEEPS):
            busy = False
            for a, b in sorted(self.sustained):
                if self.mode[a] not in (CLOTH, REST) or self.mode[b] not in (CLOTH, REST):
                    continue
                d = self.pos[b] - self.pos[a]
                dd = float(d @ d)
                if dd < R2 * (1.0 - 1e-12) or float((self.vel[a] - self.vel[b]) @ d) > 1e-9 * math.sqrt(dd):
                    busy = True
                    self._resolve("ball", a, b, t)
            if not busy:
                break

    def _pair_pos(self, i: int, p0: np.ndarray, s: float, dt: float) -> np.ndarray:
        return p0[i] + s * (self.pos[i] - p0[i])

    def _rewind_to(self, a: int, b: int, p0: np.ndarray, s: float, dt: float) -> None:
        for i in (a, b):
            if i < 0:
                continue
            self.pos[i] = p0[i] + s * (self.pos[i] - p0[i])

    def _forward(self, a: int, b: int, rest: float) -> None:
        for i in (a, b):
            if i < 0:
                continue
            if self.mode[i] == REST and np.any(self.vel[i] != 0.0):
                self.mode[i] = CLOTH if self._cloth_ok(i) else BULLET
            self.pos[i] += self.vel[i] * rest
            if self.mode[i] == CLOTH:
                self.pos[i, 2] = self.R
            if self.mode[i] == BULLET:
                self._to_bullet(i)

    def _resolve(self, kind: str, a: int, b: int, t: float) -> None:
        p = self.p
        if kind == "ball":
            key = (min(a, b), max(a, b))
            e = None
            if self.mode[a] != BULLET and self.mode[b] != BULLET:
                d = self.pos[b] - self.pos[a]
                dist = collide.norm(d)
                n = d / dist
                over = 2.0 * self.R - dist
                vn = float(np.dot(self.vel[a] - self.vel[b], n))
                if 0.0 < vn < self.v_plastic and over < SUSTAIN_OVERLAP:
                    # A push, not a bounce: plastic, and the pair is followed as a sustained contact.
                    e = 0.0
                    self.sustained.add(key)
                    # A ball at rest does not start rolling under a push weaker than its rolling resistance
                    # (m vn / 2 per substep against mu_r m g h): the pusher is stopped against it instead.
                    rest = b if self.mode[b] == REST else a if self.mode[a] == REST else -1
                    if rest >= 0 and vn < 2.0 * p.mu_roll * G * self.h:
                        mover = a + b - rest
                        sgn = 1.0 if mover == a else -1.0
                        self.vel[mover] -= (sgn * vn) * n
                        if 0.0 < over < SUSTAIN_OVERLAP:
                            self.pos[mover] -= (sgn * over) * n
                        if key not in self.touching:
                            self.touching.add(key)
                            self.events.append(
                                Event(
                                    t,
                                    EventType.BALL_BALL,
                                    balls=(self.ids[a], self.ids[b]),
                                    speed=round(vn, 6),
                                    pos=self._p(a),
                                )
                            )
                        self.rest_time[mover] = 0.0
                        return
                if key in self.sustained:
                    # Kept at contact distance (the overlap is at most the a h^2 / 2 ~ 1 um one substep's
                    # push builds up).
                    if 0.0 < over < SUSTAIN_OVERLAP:
                        self.pos[a] -= (0.5 * over) * n
                        self.pos[b] += (0.5 * over) * n
            res = collide.ball_ball(
                self.pos[a], self.vel[a], self.omg[a], self.pos[b], self.vel[b], self.omg[b], p, e
            )
            if res is None:
                return
            # Vertical velocity each ball takes from the normal impulse alone (the slate answers it
            # with restitution, see _after_impulse).
            d = self.pos[b] - self.pos[a]
            n = d / collide.norm(d)
            dvz_b = (
                0.5
                * (1.0 + (p.e_ball if e is None else e))
                * float(np.dot(self.vel[a] - self.vel[b], n))
                * float(n[2])
            )
            speed = collide.norm(self.vel[a] - self.vel[b])
            self.vel[a], self.omg[a], self.vel[b], self.omg[b] = res
            if key not in self.touching:
                self.touching.add(key)
                self.events.append(
                    Event(
                        t,
                        EventType.BALL_BALL,
                        balls=(self.ids[a], self.ids[b]),
                        speed=round(speed, 6),
                        pos=self._p(a),
                    )
                )
            if self.flying[a]:
                self.hit_in_flight.add((a, b))
            if self.flying[b]:
                self.hit_in_flight.add((b, a))
            self._after_impulse(a, t, -dvz_b)
            self._after_impulse(b, t, dvz_b)
            return
        ax = 0 if kind == "cushion0" else 1
        i = a
        x, y = self.pos[i, 0], self.pos[i, 1]
        sign = 1.0 if self.pos[i, ax] > 0 else -1.0
        inward = (-sign, 0.0) if ax == 0 else (0.0, -sign)
        res2 = collide.cushion(self.vel[i], self.omg[i], inward, p, on_cloth=True)
        self.pos[i, ax] = sign * self.lim[ax]
        if res2 is None:
            # Not moving into the cushion, yet the cloth's friction on its spin drives it in: a lasting
            # contact. The cushion takes the slip across its line (its friction stops that part of the
            # spin), so nothing pushes the ball into it any more.
            if ax == 0:
                self.omg[i, 1] = self.vel[i, 0] / self.R
            else:
                self.omg[i, 0] = -self.vel[i, 1] / self.R
            return
        speed = float(abs(self.vel[i, ax]))
        self.vel[i], self.omg[i] = res2
        cid = self._cushion_id(ax, x, y)
        if ("cushion", cid) not in self.contacts[i]:
            self.contacts[i].add(("cushion", cid))
            self.events.append(
                Event(
                    t, EventType.CUSHION, ball=self.ids[i], cushion=cid, speed=round(speed, 6), pos=self._p(i)
                )
            )
        self._after_impulse(i, t)

    def _cushion_id(self, ax: int, x: float, y: float) -> str:
        if ax == 0:
            return "foot" if x > 0 else "head"
        side = "left" if y > 0 else "right"
        return f"{side}-{'foot' if x > 0 else 'head'}"

    def _after_impulse(self, i: int, t: float, dvz_normal: float = 0.0) -> None:
        """Settle a ball's mode after an impulse changed its velocity.

        A ball on the slate driven into it gets the slate's reaction (``collide.slate_reaction``):
        ``dvz_normal`` is the vertical velocity the ball-ball *normal* impulse gave it, which the
        slate answers with restitution; the rest of the push is absorbed plastically.
        """
        self.rest_time[i] = 0.0
        if self.mode[i] == BULLET:
            # A Bullet ball sitting on the slate (by a pocket) that the impulse drives into it gets the slate's
            # reaction at once too: the rest of a Bullet step is flown straight, and it sank 0.24 mm into the
            # slate before the next step found it (campaign seed 800402).
            x, y, z = (float(c) for c in self.pos[i])
            if float(self.vel[i, 2]) < 0.0 and abs(z - self.R) < ON_BED_Z and self._over_slate(x, y):
                self.vel[i], self.omg[i] = collide.slate_reaction(
                    self.vel[i], self.omg[i], -dvz_normal, self.p
                )
                if float(self.vel[i, 2]) > 0.0:
                    self._take_off(i, t)
                else:
                    self.vel[i, 2] = 0.0
            self._write_body(i)
            return
        vz = float(self.vel[i, 2])
        if vz < 0.0:
            self.vel[i], self.omg[i] = collide.slate_reaction(self.vel[i], self.omg[i], -dvz_normal, self.p)
            vz = float(self.vel[i, 2])
            if vz > 0.0:
                self._to_bullet(i)
                self._take_off(i, t)
                return
            self.vel[i, 2] = 0.0
        elif vz > 0.0:
            if vz * vz / (2 * G) >= self.p.min_bounce:
                self._to_bullet(i)
                self._take_off(i, t)
                return
            self.vel[i, 2] = 0.0
        self.mode[i] = CLOTH
        if not self._cloth_ok(i):
            self._to_bullet(i)

    # ---------------------------------------------------------------- Bullet balls
    def _to_bullet(self, i: int) -> None:
        self.mode[i] = BULLET
        self.rest_time[i] = 0.0
        self._write_body(i)
        if not self.attached[i]:
            self.world.attach_rigid_body(self.bodies[i])
            self.attached[i] = True

    def _detach(self, i: int) -> None:
        if self.attached[i]:
            self.world.remove_rigid_body(self.bodies[i])
            self.attached[i] = False

    def _write_body(self, i: int) -> None:
        self._hooks.moved.pop(i, None)
        b = self.bodies[i]
        x, y, z = self.pos[i]
        b.set_transform(TransformState.make_pos(Point3(float(x), float(y), float(z))))
        b.set_linear_velocity(Vec3(*map(float, self.vel[i])))
        b.set_angular_velocity(Vec3(*map(float, self.omg[i])))

    def _bullet_run(self, k: int, t0: float, idx: list[int]) -> None:
        """``k`` substeps; with samples, the Bullet balls' states are read at the substeps that end
        next to each sample instant inside the step. Splitting one do_physics call into several
        with the same substeps integrates identically (each substep is the same fixed step), so
        sampling never changes the stroke."""
        js: list[int] = []
        if self.sample_dt is not None:
            h = self.h
            ts = self.next_sample
            while ts < t0 + k * h - 1e-12:
                j = max(1, math.ceil((ts - t0) / h - 1e-9))
                if j < k and (not js or js[-1] != j):
                    js.append(j)
                ts += self.sample_dt
        done = 0
        for j in js:
            self._bullet_advance(j - done)
            done = j
            self._captured[j] = {i: self._body_state(i) for i in idx}
        self._bullet_advance(k - done)

    def _knot(self, i: int, t: float, kind: str) -> None:
        if self.sample_dt is not None and i >= 0:
            self._knots.setdefault(i, []).append(
                (t, self.pos[i].copy(), self.vel[i].copy(), self.omg[i].copy(), kind)
            )

    def _body_state(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        b = self.bodies[i]
        q = b.get_transform().get_pos()
        v = b.get_linear_velocity()
        w = b.get_angular_velocity()
        lag = self._hm  # undo the extrapolation by (0 - h) v (see _bullet_advance)
        # Bullet extrapolated with the velocity it integrated the last substep with; where the tick changed
        # the velocity after that substep (a rebound, the energy guard: _Hooks.tick), that one undoes it.
        u = self._hooks.moved.get(i, v)
        return (
            np.array((q[0] + u[0] * lag, q[1] + u[1] * lag, q[2] + u[2] * lag)),
            np.array((v[0], v[1], v[2])),
            np.array((w[0], w[1], w[2])),
        )

    def _bullet_advance(self, k: int) -> None:
        """Exactly ``k`` fixed substeps, leaving Bullet no time over.

        Bullet (single precision here) adds each call's time to what it kept over, runs
        int(time / substep) substeps and keeps the rest; it reports positions extrapolated by
        (rest - substep) * v (its motion-state latency interpolation). A call of exactly
        float32(k) * float32(h) leaves a rest of exactly 0 when float32 division gives k back, so
        every call starts from the same state whatever calls came before: splitting a step into
        several calls (to sample inside it) integrates bit for bit alike. The k for which float32
        rounding would give k - 1 substeps are run as two calls.
        """
        self._bt_steps += k
        hm, hm32 = self._hm, self._hm32
        for c in self._chunks(k * self._micro):
            dt = float(np.float32(c) * hm32)
            self.world.do_physics(dt, c, hm)

    def _set_micro(self, idx: list[int]) -> None:
        """Bullet's fixed step for the coming step: the substep divided so that no ball in ``idx`` moves more
        than MICRO_TRAVEL in one.

        Bullet meets a surface only once a ball is in it, up to v h deep (15 mm at 15 m/s, 1 kHz), and its
        swept-sphere CCD never acts at a billiard ball's speeds (it ignores a sweep whose motion into the
        surface is under 4 cm a step): a 15 m/s ball was 14 mm inside a room wall, and came back off it
        at 7.6 m/s still 11 mm in (campaign seed 601948). A finer step keeps such contacts shallow."""
        vmax = max((float(self.vel[i] @ self.vel[i]) for i in idx), default=0.0) ** 0.5
        m = min(MICRO_MAX, max(1, math.ceil(vmax * self.h / MICRO_TRAVEL - 1e-9)))
        if m != self._micro:
            self._micro = m
            self._hm = self.h / m
            self._hm32 = np.float32(self._hm)
            self._hooks.h = self._hm

    def _chunks(self, k: int) -> tuple[int, ...]:
        key = (k, self._micro)
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

    def _read_body(self, i: int) -> None:
        self.pos[i], self.vel[i], self.omg[i] = self._body_state(i)

    def _energy(self, idx: list[int]) -> np.ndarray:
        p = self.p
        v = self.vel[idx]
        w = self.omg[idx]
        return (
            0.5 * p.m * (v * v).sum(axis=1)
            + 0.5 * p.inertia * (w * w).sum(axis=1)
            + p.m * G * self.pos[idx, 2]
        )

    def _guard_energy(self, idx: list[int], before: np.ndarray | None) -> None:
        """Contacts with static bodies are passive: remove any energy Bullet's solver created."""
        if before is None:
            return
        after = self._energy(idx)
        p = self.p
        for k, i in enumerate(idx):
            if after[k] > before[k] + 1e-12:
                kin = after[k] - p.m * G * self.pos[i, 2]
                allowed = before[k] - p.m * G * self.pos[i, 2]
                f = math.sqrt(max(allowed, 0.0) / kin) if kin > 0 else 0.0
                self.vel[i] *= f
                self.omg[i] *= f
                self._write_body(i)

    def _onto_slate(self, i: int) -> None:
        """A Bullet ball found sunk into the open slate is put back on it.

        Bullet meets a contact only after a substep has carried the ball into it (a ball pushed
        down by a cushion nose at 2 m/s is 2 mm in); the slate is rigid and flat here, so the ball is lifted to z = R, paying the
        potential energy out of its motion, and a ball still moving into it gets the analytic slate
        bounce (as a landing does). In a pocket zone only a centre over the slate itself counts, not one
        over the pocket's opening.
        """
        R = self.R
        x, y, z = (float(c) for c in self.pos[i])
        if not (R - 0.01 < z < R) or not self._over_slate(x, y):
            return
        p = self.p
        lift = p.m * G * (R - z)
        kin = 0.5 * p.m * float(self.vel[i] @ self.vel[i]) + 0.5 * p.inertia * float(
            self.omg[i] @ self.omg[i]
        )
        f = math.sqrt(max(kin - lift, 0.0) / kin) if kin > 0.0 else 0.0
        self.vel[i] *= f
        self.omg[i] *= f
        self.pos[i, 2] = R
        if self.vel[i, 2] < 0.0:
            v, w, airborne = collide.slate_bounce(self.vel[i], self.omg[i], p)
            self.vel[i], self.omg[i] = v, w
            if not airborne:
                self.vel[i, 2] = 0.0
        self._write_body(i)

    def _over_slate(self, x: float, y: float) -> bool:
        """Is (x, y), inside the cushion lines, over the playing slate (in a pocket zone: not over its hole)?"""
        if self._over_open_bed(x, y, 0.0):
            return True
        return (
            abs(x) <= self.lim[0]
            and abs(y) <= self.lim[1]
            and self._in_zone((x, y))
            and self.geo.kind_below(x, y, 0.0) == "bed"
        )

    def _over_open_bed(self, x: float, y: float, margin: float = CLOTH_MARGIN) -> bool:
        if abs(x) > self.lim[0] - margin or abs(y) > self.lim[1] - margin:
            return False
        return not self._in_zone((x, y))

    def _in_zone(self, xy: Sequence[float]) -> bool:
        return bool(np.count_nonzero(np.hypot(self._zone_cx1 - xy[0], self._zone_cy1 - xy[1]) < self.zone_r))

    def _landing_time(self, i: int, dt: float) -> float | None:
        """Time within the next ``dt`` at which Bullet ball ``i`` lands on the open slate, if it does."""
        z, vz = float(self.pos[i, 2]), float(self.vel[i, 2])
        R = self.R
        if z < R - 1e-3 or (vz >= 0.0 and z - R > 1e-9) or z > R + 1.0:
            return None
        if vz >= 0.0 and z - R <= 1e-9:
            return None  # sitting on the slate: Bullet's resting contact handles it
        # z + vz t - g t^2/2 = R
        a, b, c = -0.5 * G, vz, z - R
        disc = b * b - 4 * a * c
        if disc < 0:
            return None
        tl = (-b - math.sqrt(disc)) / (2 * a)
        if tl < 0.0 or tl > dt + 1e-12:
            return None
        x = self.pos[i, 0] + self.vel[i, 0] * tl
        y = self.pos[i, 1] + self.vel[i, 1] * tl
        if not self._over_open_bed(x, y):
            return None
        return tl

    def _fly_and_land(self, i: int, tl: float, dt: float) -> None:
        g = np.array([0.0, 0.0, -G])
        self._knot(i, self.t, "ballistic")
        self.pos[i] += self.vel[i] * tl + 0.5 * g * tl * tl
        self.pos[i, 2] = self.R
        self.vel[i] += g * tl
        speed = float(-self.vel[i, 2])
        v, w, airborne = collide.slate_bounce(self.vel[i], self.omg[i], self.p)
        self.vel[i], self.omg[i] = v, w
        t_land = self.t + tl
        if self.flying[i]:
            self.flying[i] = False
            self.events.append(
                Event(
                    t_land,
                    EventType.LANDED,
                    ball=self.ids[i],
                    on="bed",
                    speed=round(speed, 6),
                    pos=self._p(i),
                )
            )
            self._end_flight(i)
        rest = dt - tl
        self._knot(i, t_land, "ballistic" if airborne else "cloth")
        if airborne:
            self._take_off(i, t_land)
            self.pos[i] += self.vel[i] * rest + 0.5 * g * rest * rest
            self.vel[i] += g * rest
            self._to_bullet(i)
        else:
            self.vel[i, 2] = 0.0
            self.pos[i : i + 1], self.vel[i : i + 1], self.omg[i : i + 1], _ = cloth.advance(
                self.pos[i : i + 1], self.vel[i : i + 1], self.omg[i : i + 1], rest, self.p
            )
            if self._cloth_ok(i):
                self.mode[i] = CLOTH
            else:
                self._to_bullet(i)

    def _take_off(self, i: int, t: float = 0.0) -> None:
        if not self.flying[i]:
            self.flying[i] = True
            self.takeoff_t[i] = t
            self.events.append(
                Event(
                    t,
                    EventType.AIRBORNE,
                    ball=self.ids[i],
                    speed=round(float(self.vel[i, 2]), 6),
                    pos=self._p(i),
                )
            )

    def _cloth_ok(self, i: int) -> bool:
        """May ball ``i`` move on the analytic cloth path? (A ball already there may touch a cushion,
        which the analytic cushion impulse handles; a Bullet ball must be clear of the cushions.)"""
        x, y, z = self.pos[i]
        # A Bullet ball rolling along a cushion may press into it by Bullet's contact slop.
        margin = -1e-6 if self.mode[i] == CLOTH else -5e-4
        return (
            abs(z - self.R) < ON_BED_Z
            and abs(self.vel[i, 2]) < 0.05
            and self._over_open_bed(x, y, margin)
            and not self.flying[i]
        )

    def _bullet_contacts(self, idx: list[int], t0: float) -> None:
        """Turn Bullet's new contacts into events, timed to the substep they began in."""
        added = sorted(self._hooks.added, key=lambda e: e[0])
        self._hooks.added.clear()
        current: dict[int, set[tuple[str, str | None]]] = {i: set() for i in idx}
        for mf in self.world.get_manifolds():
            if mf.get_num_manifold_points() == 0:
                continue
            bi, other = _ball_and_other(mf.get_node0(), mf.get_node1())
            if bi is None or int(bi) not in current:
                continue
            if any(mp.get_distance() < 1e-3 for mp in mf.get_manifold_points()):
                s = other.get_python_tag("surface")
                if s is not None:
                    current[int(bi)].add((s.kind, s.id))
        seen: set[tuple[int, str, str | None]] = set()
        for k, i, s in added:
            key = (s.kind, s.id)
            if key in self.contacts[i] or (i, s.kind, s.id) in seen:
                continue
            seen.add((i, s.kind, s.id))
            self._surface_event(i, s.kind, s.id, t0 + (k + 1) * self._hm)
        for i in idx:
            self.contacts[i] = current[i] | {(k2, s2) for (j, k2, s2) in seen if j == i}

    def _surface_event(self, i: int, kind: str, sid: str | None, t: float) -> None:
        b = self.ids[i]
        pos = self._p(i)
        # The surface a ball is launched from is still touching it for a substep or two.
        lands = bool(self.flying[i]) and t - float(self.takeoff_t[i]) > LAUNCH_GRACE
        if kind == "cushion":
            self.events.append(Event(t, EventType.CUSHION, ball=b, cushion=sid, pos=pos))
        elif kind == "jaw":
            self.events.append(Event(t, EventType.POCKET_JAW, ball=b, pocket=sid, pos=pos))
        elif kind == "pocket":
            if self.pos[i, 2] > 0.0:
                self.events.append(Event(t, EventType.POCKET_JAW, ball=b, pocket=sid, pos=pos))
        elif kind == "bed":
            if lands:
                self.flying[i] = False
                self.events.append(Event(t, EventType.LANDED, ball=b, on="bed", pos=pos))
                self._end_flight(i)
        else:
            if (i, kind, sid) not in self.touched_once:
                self.touched_once.add((i, kind, sid))
                self.events.append(Event(t, EventType.TOUCHED, ball=b, object=kind, pos=pos))
            if lands and kind in ("rail_top", "frame", "floor"):
                self.flying[i] = False
                self.events.append(Event(t, EventType.LANDED, ball=b, on=_place(kind), pos=pos))
                self._end_flight(i)

    def _bullet_support(self, idx: list[int], dt: float) -> None:
        """Rolling resistance and spin decay on whatever supports a Bullet ball; flight detection."""
        p = self.p
        R = self.R
        for i in idx:
            if self.mode[i] != BULLET:
                continue
            kinds = {k for k, _ in self.contacts[i]}
            on = None
            if "bed" in kinds and abs(self.pos[i, 2] - R) < 2e-3:
                on = "bed"
            elif "rail_top" in kinds:
                on = "rail_top"
            elif "floor" in kinds:
                on = "floor"
            elif "frame" in kinds:
                on = "frame"
            elif "pocket" in kinds:
                on = "pocket"
            if on is None:
                # Bounces on the floor are not flights from the table.
                # Rising off a surface, not falling into a pocket or off an edge.
                if not kinds and self.vel[i, 2] > 0.05 and not self.flying[i] and self.pos[i, 2] > -0.01:
                    self._take_off(i, self.t)
                continue
            if on == "bed":
                mur, spin = p.mu_roll, p.spin_decel
            elif on == "floor":
                mur, spin = p.mu_roll_floor, p.spin_decel_floor
            else:
                mur, spin = p.mu_roll_rail, p.spin_decel_rail
            v = self.vel[i]
            w = self.omg[i]
            u = np.array([v[0] - R * w[1], v[1] + R * w[0]])
            s = math.hypot(v[0], v[1])
            if np.hypot(*u) < ROLLING_SLIP and s > 0.0:
                # Rolling: slow the centre and the roll together (scaling both keeps the slip as it is
                # and can only take energy out).
                f = max(s - mur * G * dt, 0.0) / s
                v[0] *= f
                v[1] *= f
                w[0] *= f
                w[1] *= f
            if w[2] != 0.0:
                w[2] = math.copysign(max(abs(w[2]) - spin * dt, 0.0), w[2])
            self._write_body(i)

    # ---------------------------------------------------------------- events per step
    def _line_events(self, p0: np.ndarray, idx: np.ndarray, t0: float, dt: float) -> None:
        """Line crossings in the step, per ball in plain floats (the same differences and tests as a
        vectorised form). A ball whose x did not change crosses nothing (a = b: neither test holds),
        so balls at rest cost a comparison."""
        if not len(idx) or not self.lines:
            return
        X0, X1 = p0[:, 0].tolist(), self.pos[:, 0].tolist()
        for i in idx.tolist():
            x0, x1 = X0[i], X1[i]
            if x0 == x1:
                continue
            for li, lx in enumerate(self._line_xs):
                a = x0 - lx
                b = x1 - lx
                if a * b < 0.0 or (a != 0.0 and b == 0.0):
                    f = a / (a - b)
                    at = p0[i] + f * (self.pos[i] - p0[i])
                    self.events.append(
                        Event(
                            t0 + f * dt,
                            EventType.LINE_CROSSED,
                            ball=self.ids[i],
                            line=self.lines[li][0],
                            pos=(round(float(at[0]), 6), round(float(at[1]), 6), round(float(at[2]), 6)),
                        )
                    )

    def _rest_events(self, cl: np.ndarray, stops: np.ndarray | None, t0: float) -> None:
        if stops is None:
            return
        for k, s in enumerate(stops.tolist()):
            if not math.isfinite(s):
                continue
            i = int(cl[k])
            if self.mode[i] == CLOTH:
                self.mode[i] = REST
                self.vel[i] = 0.0
                self.omg[i] = 0.0
                self.events.append(Event(float(t0 + s), EventType.REST, ball=self.ids[i], pos=self._p(i)))

    def _flight_events(self, t: float) -> None:
        """jumped_over: a flier's outline passes over another ball's outline (plan view) without touching."""
        if not np.count_nonzero(self.flying):
            return
        R = self.R
        fl = np.nonzero(self.flying & (self.mode == BULLET))[0]
        alive = np.nonzero(self.mode != GONE)[0]
        for i in fl:
            for j in alive:
                if j == i:
                    continue
                key = (int(i), int(j))
                dxy = math.hypot(self.pos[i, 0] - self.pos[j, 0], self.pos[i, 1] - self.pos[j, 1])
                if dxy < 2.0 * R and self.pos[i, 2] > self.pos[j, 2]:
                    if key not in self.over:
                        self.over[key] = True
                elif key in self.over:
                    clean = key not in self.hit_in_flight
                    del self.over[key]
                    if clean:
                        self.events.append(
                            Event(
                                t,
                                EventType.JUMPED_OVER,
                                ball=self.ids[i],
                                over=self.ids[j],
                                pos=self._p(int(i)),
                            )
                        )

    def _end_flight(self, i: int) -> None:
        for key in [k for k in self.over if k[0] == i]:
            del self.over[key]
        for key in [k for k in self.hit_in_flight if k[0] == i]:
            self.hit_in_flight.discard(key)

    def _post_modes(self, t: float, dt: float = 0.0) -> None:
        R = self.R
        pos = self.pos
        # Sustained contacts that have come apart by more than one substep's push, or left the cloth.
        if self.sustained:
            lim_s = (2.0 * R + self.sustain_gap) ** 2
            mode = self.mode
            for key in sorted(self.sustained):
                a, b = key
                ma, mb = mode[a], mode[b]
                d = pos[a] - pos[b]
                if (
                    ma == GONE
                    or mb == GONE
                    or ma == BULLET
                    or mb == BULLET
                    or (ma == REST and mb == REST)
                    or float(d @ d) > lim_s
                    or not self._pressed(a, b)
                ):
                    self.sustained.discard(key)
        # Pairs no longer touching.
        if self.touching:
            lim2 = (2.0 * R + 1e-4) ** 2
            PL = pos.tolist()
            for key in list(self.touching):
                pa, pb = PL[key[0]], PL[key[1]]
                dx, dy, dz = pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]
                if dx * dx + dy * dy + dz * dz > lim2:
                    self.touching.discard(key)
        clm = self.mode == CLOTH
        if np.count_nonzero(clm):
            cl = clm.nonzero()[0]
            # The zone test over all balls at once (cheaper than gathering the cloth balls first).
            dx = pos[:, 0:1] - self._zone_cx
            dy = pos[:, 1:2] - self._zone_cy
            into = (dx * dx + dy * dy) < self.zone_r2
            if np.count_nonzero(into):
                for i in cl.tolist():
                    if into[i].any():
                        self._to_bullet(i)
            for i in cl.tolist():
                if (
                    self.contacts[i]
                    and min(self.lim[0] - abs(pos[i, 0]), self.lim[1] - abs(pos[i, 1])) > 1e-4
                ):
                    self.contacts[i] = {c for c in self.contacts[i] if c[0] != "cushion"}
        bl = np.nonzero(self.mode == BULLET)[0]
        for i in bl.tolist():
            x, y, z = (float(c) for c in pos[i])
            pk = self.geo.pocket_of((x, y, z))
            if pk is not None:
                self.mode[i] = GONE
                self.pocket[i] = pk
                self._detach(i)
                self.flying[i] = False
                self.events.append(Event(t, EventType.POCKETED, ball=self.ids[i], pocket=pk, pos=self._p(i)))
                continue
            inside = bool(self.geo.in_bed_outline(x, y))
            # Over a pocket's opening a ball is on its way in, not off the table.
            near_pocket = self._in_zone((x, y)) and z > -0.5
            if not inside and not self.outside[i] and not near_pocket:
                self.outside[i] = True
                self.events.append(Event(t, EventType.LEFT_TABLE, ball=self.ids[i], pos=self._p(i)))
            elif inside and self.outside[i]:
                self.outside[i] = False
                self.events.append(Event(t, EventType.RETURNED, ball=self.ids[i], pos=self._p(i)))
            if self._cloth_ok(i) and all(k in ("bed", "cushion") for k, _ in self.contacts[i]):
                pos[i, 0] = min(max(x, -self.lim[0]), self.lim[0])
                pos[i, 1] = min(max(y, -self.lim[1]), self.lim[1])
                pos[i, 2] = R
                self.vel[i, 2] = 0.0
                self.mode[i] = CLOTH
                self._detach(i)
                continue
            v, w = self.vel[i], self.omg[i]
            # A ball on the floor, the wooden rail top or the frame (all level) is out of play: once only a
            # spin about the vertical is left it moves nowhere (on a level surface that spin drives no
            # translation; a room wall it merely touches presses on it with no force, so its friction drives
            # none either), so the stroke does not wait the minute or more the wood's or floor's pivot
            # friction needs to stop 300 rad/s of side spin (campaign seed 606149: a massé onto the rail
            # top ran to the 120 s cap).
            w_rest = (
                w[0] * w[0] + w[1] * w[1]
                if self.contacts[i] and all(k in OUT_OF_PLAY_LEVEL for k, _ in self.contacts[i])
                else w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
            )
            if (
                v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < REST_V * REST_V
                and w_rest < REST_W * REST_W
                and self.contacts[i]
            ):
                # Still at two step ends at least REST_TIME apart (a single slow instant may be an apex).
                self.rest_time[i] = self.rest_time[i] + dt if self.rest_time[i] > 0.0 else 1e-12
                if self.rest_time[i] >= REST_TIME - 1e-12:
                    self.mode[i] = REST
                    self.vel[i] = 0.0
                    self.omg[i] = 0.0
                    self._detach(i)
                    self.events.append(Event(t, EventType.REST, ball=self.ids[i], pos=self._p(i)))
            else:
                self.rest_time[i] = 0.0

    # ---------------------------------------------------------------- samples and results
    def _sample_all(self) -> None:
        if self.samples is None or self.sample_dt is None:
            return
        self._rows(self.t, self.pos, self.vel, self.omg, self.mode)
        while self.next_sample <= self.t + 1e-12:
            self.next_sample += self.sample_dt

    def _rows(self, t: float, pos: np.ndarray, vel: np.ndarray, omg: np.ndarray, mode: np.ndarray) -> None:
        assert self.samples is not None
        for i, b in enumerate(self.ids):
            if mode[i] == GONE and i in self.pocket and self.samples[b]:
                continue
            row = (t, *pos[i].tolist(), *vel[i].tolist(), *omg[i].tolist())
            self.samples[b].append(tuple(round(x, 6) for x in row))

    def _samples_within(self) -> None:
        """Rows for every sample instant passed in the last step; the step is never cut for them.

        In a step without Bullet balls the cloth balls' states at those instants are exact (the
        closed-form motion from the step's start). In a step with Bullet balls the rows are taken at
        the substep that ends next to each instant (Bullet balls as Bullet had them there, the others
        from their closed form or their knots), one row per substep at most.
        """
        assert self.sample_dt is not None
        t0, p0, v0, w0, cl, mode0, pure = self._segment
        inside: list[float] = []
        h = self.h
        last = None
        while self.next_sample <= self.t + 1e-12:
            ts = self.next_sample
            self.next_sample += self.sample_dt
            if ts < self.t - 1e-12 and pure:
                inside.append(ts)
                continue
            self._flush_inside(inside, t0, p0, v0, w0, cl, mode0)
            inside = []
            j = max(1, math.ceil((ts - t0) / h - 1e-9))
            if ts >= self.t - 1e-12 or j not in self._captured:
                if last != -1:
                    self._rows(self.t, self.pos, self.vel, self.omg, self.mode)
                last = -1
            elif j != last:
                last = j
                self._mixed_row(t0 + j * h, j, p0, v0, w0, mode0)
        self._flush_inside(inside, t0, p0, v0, w0, cl, mode0)

    def _mixed_row(
        self, t: float, j: int, p0: np.ndarray, v0: np.ndarray, w0: np.ndarray, mode0: np.ndarray
    ) -> None:
        """One row at substep ``j`` of a step with Bullet balls."""
        pos, vel, omg = p0.copy(), v0.copy(), w0.copy()
        cap = self._captured[j]
        for i in range(len(self.ids)):
            knot = None
            for k in self._knots.get(i, ()):
                if k[0] <= t + 1e-12:
                    knot = k
            if knot is not None:
                tk, pk, vk, wk, kind = knot
                tau = t - tk
                if kind == "linear":
                    pos[i], vel[i], omg[i] = pk + vk * tau, vk, wk
                elif kind == "ballistic":
                    g = np.array([0.0, 0.0, -G])
                    pos[i], vel[i], omg[i] = pk + vk * tau + 0.5 * g * tau * tau, vk + g * tau, wk
                else:
                    P, V, W, _ = cloth.advance(pk[None, :], vk[None, :], wk[None, :], tau, self.p)
                    pos[i], vel[i], omg[i] = P[0], V[0], W[0]
            elif i in cap:
                pos[i], vel[i], omg[i] = cap[i]
            elif mode0[i] == CLOTH:
                P, V, W, _ = cloth.advance(
                    p0[i : i + 1], v0[i : i + 1], w0[i : i + 1], t - self._segment[0], self.p
                )
                pos[i], vel[i], omg[i] = P[0], V[0], W[0]
        self._rows(t, pos, vel, omg, mode0)

    def _flush_inside(
        self,
        times: list[float],
        t0: float,
        p0: np.ndarray,
        v0: np.ndarray,
        w0: np.ndarray,
        cl: np.ndarray,
        mode0: np.ndarray,
    ) -> None:
        if not times:
            return
        k, n = len(times), len(cl)
        if n:
            # All instants at once: the closed form takes a step length per row.
            dts = np.repeat(np.array(times) - t0, n)
            P, V, W, _ = cloth.advance(
                np.tile(p0[cl], (k, 1)), np.tile(v0[cl], (k, 1)), np.tile(w0[cl], (k, 1)), dts, self.p
            )
        for j, ts in enumerate(times):
            pos, vel, omg = p0.copy(), v0.copy(), w0.copy()
            if n:
                pos[cl], vel[cl], omg[cl] = (
                    P[j * n : (j + 1) * n],
                    V[j * n : (j + 1) * n],
                    W[j * n : (j + 1) * n],
                )
            self._rows(ts, pos, vel, omg, mode0)

    def close(self) -> None:
        """Take the callbacks and the balls out of the world, deterministically (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._release()
        for i in range(len(self.ids)):
            self._detach(i)

    def _finish(self) -> None:
        self.close()
        # Rest events for anything the cap stopped.
        for k in np.nonzero((self.mode == CLOTH) | (self.mode == BULLET))[0].tolist():
            self.events.append(Event(self.t, EventType.REST, ball=self.ids[k], pos=self._p(k)))
        self.finals: dict[str, BallFinal] = {}
        for i, b in enumerate(self.ids):
            if i in self.pocket:
                self.finals[b] = BallFinal(BallStatus.POCKETED, pocket=self.pocket[i])
                continue
            x, y, z = (float(c) for c in self.pos[i])
            place = self.geo.rest_place((x, y, z))
            on_bed = place == "bed" and self.geo.in_bed_outline(x, y)
            if on_bed:
                self.finals[b] = BallFinal(BallStatus.ON_TABLE, pos=self._p(i))
                hang = self._hanging(i)
                if hang is not None:
                    self.events.append(Event(self.t, EventType.HANGING, ball=b, pocket=hang, pos=self._p(i)))
            else:
                rest = _place(place)
                self.finals[b] = BallFinal(BallStatus.OFF_TABLE, pos=self._p(i), rest=rest)
                self.events.append(Event(self.t, EventType.OFF_TABLE, ball=b, rest=rest, pos=self._p(i)))
        self.events = [e if type(e.t) is float else replace(e, t=float(e.t)) for e in self.events]
        self.events.sort(key=lambda e: e.t)  # stable: same-time events keep their causal order

    def _hanging(self, i: int) -> str | None:
        """A ball at rest on the slate whose footprint reaches past a pocket's drop edge (its centre,
        over which it is supported, within R of the edge) overhangs the drop."""
        x, y = float(self.pos[i, 0]), float(self.pos[i, 1])
        shapes = getattr(self.geo, "pockets", None)
        if shapes:
            for pid, ps in shapes.items():
                a, t = ps.local(x, y)
                if ps.a_drop - self.R < a <= ps.a_drop and abs(t) < ps.throat / 2 + self.R:
                    return str(pid)
            return None
        for pid, pk in self.spec.pockets.items():
            rel = (x - pk.centre[0], y - pk.centre[1])
            along = rel[0] * pk.axis[0] + rel[1] * pk.axis[1]
            across = abs(rel[0] * pk.axis[1] - rel[1] * pk.axis[0])
            if along > -self.R * 0.5 and across < pk.mouth / 2:
                return pid
        return None

    def _p(self, i: int) -> tuple[float, float, float]:
        return (
            round(float(self.pos[i, 0]), 6),
            round(float(self.pos[i, 1]), 6),
            round(float(self.pos[i, 2]), 6),
        )


def _clear_callbacks(world: BulletWorld) -> None:
    world.clear_tick_callback()
    world.clear_contact_added_callback()


class _Hooks:
    """What the Bullet callbacks record and do: the substep count, the contacts begun in each, and the
    per-substep corrections to Bullet's solve (:meth:`tick`)."""

    __slots__ = (
        "added",
        "episodes",
        "g",
        "h",
        "inertia",
        "m",
        "moved",
        "p",
        "substep",
        "v_bounce",
        "watch",
        "world",
    )

    def __init__(self, p: PhysicsParams, h: float) -> None:
        self.substep = 0
        self.added: list[tuple[int, int, Any]] = []
        self.p = p
        self.m, self.inertia, self.h, self.g = p.m, p.inertia, h, G
        # A rebound off a supporting surface slower than this would rise less than min_bounce (Zeno guard,
        # as collide.slate_bounce); off a wall any rebound counts.
        self.v_bounce = math.sqrt(2.0 * G * p.min_bounce)
        # [body, energy, z, ball index, velocity] of each Bullet ball in this step, as of the last substep's end
        self.watch: list[list[Any]] = []
        # Ball -> the velocity Bullet integrated its last substep with, where the tick changed it after.
        self.moved: dict[int, tuple[float, float, float]] = {}
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
        (Engine._guard_energy) checks against the true positions.
        """
        self.substep += 1
        m, inertia, h, g = self.m, self.inertia, self.h, self.g
        moved = self.moved
        recs = {rec[3]: rec for rec in self.watch}
        integrated: dict[int, Any] = {}
        world = self.world
        if world is not None:
            episodes = self.episodes
            live: set[tuple[int, str]] = set()
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
                rec = recs.get(int(i))
                if rec is None:
                    continue
                key = (int(i), other.get_name())
                ep = episodes.get(key)
                if ep is None and jn <= 0.0:
                    continue
                body = rec[0]
                v = body.get_linear_velocity()
                nn = math.sqrt(nx * nx + ny * ny + nz * nz)
                nx, ny, nz = sgn * nx / nn, sgn * ny / nn, sgn * nz / nn  # from the surface to the ball
                if jn <= 0.0 and v[0] * nx + v[1] * ny + v[2] * nz > 0.0:
                    continue  # the contact is over (its episode is dropped below)
                live.add(key)
                if ep is not None:
                    continue  # one rebound per contact
                episodes[key] = True
                # The approach: the velocity the ball met the surface with (the last substep's, plus gravity).
                u = rec[4]
                approach = -(u[0] * nx + u[1] * ny + (u[2] - g * h) * nz)
                surf = other.get_python_tag("surface")
                e = surf.restitution if surf is not None else 0.0
                out = e * approach
                vn = v[0] * nx + v[1] * ny + v[2] * nz
                if out <= vn or (nz > 0.5 and out < self.v_bounce):
                    continue
                if int(i) not in integrated:
                    integrated[int(i)] = (v[0], v[1], v[2])
                w = body.get_angular_velocity()
                v2, w2 = collide.surface_impulse(
                    np.array((v[0], v[1], v[2])),
                    np.array((w[0], w[1], w[2])),
                    np.array((nx, ny, nz)),
                    m * (out - vn),
                    surf.friction,
                    self.p,
                )
                body.set_linear_velocity(Vec3(*v2.tolist()))
                body.set_angular_velocity(Vec3(*w2.tolist()))
            for key in [k for k in episodes if k not in live]:
                del episodes[key]
        for rec in self.watch:
            body = rec[0]
            v = body.get_linear_velocity()
            w = body.get_angular_velocity()
            vi = integrated.get(rec[3])
            z = rec[2] + (v[2] if vi is None else vi[2]) * h
            ke = 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * inertia * (
                w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
            )
            e = ke + m * g * z
            if e > rec[1] + 1e-12 and ke > 0.0:
                f = math.sqrt(max(rec[1] - m * g * z, 0.0) / ke)
                body.set_linear_velocity(v * f)
                body.set_angular_velocity(w * f)
                if vi is None:
                    vi = (v[0], v[1], v[2])
                e = rec[1]
            if vi is not None:
                moved[rec[3]] = vi
            elif moved:
                moved.pop(rec[3], None)
            rec[1] = e
            rec[2] = z
            v = body.get_linear_velocity()
            rec[4] = (v[0], v[1], v[2])

    def contact_added(self, data: Any) -> None:
        i, other = _ball_and_other(data.get_node0(), data.get_node1())
        if i is None:
            return
        s = other.get_python_tag("surface")
        if s is not None:
            self.added.append((self.substep, int(i), s))


def _place(kind: str) -> str:
    return {"rail_top": "rail", "bed": "bed"}.get(kind, kind)


def _ball_and_other(n0: Any, n1: Any) -> tuple[Any, Any]:
    """(ball index, the other node) of a contact pair, whichever side the ball is on; (None, n1) without a ball."""
    i = n0.get_python_tag("ball")
    if i is not None:
        return i, n1
    return n1.get_python_tag("ball"), n0
