"""A ball on the cloth meeting a cushion: the cushion and the slate acting together during the impact.

The model is Mathavan, Jackson & Parkin's two-contact impact [MAT10] (Proc. IMechE C 224(9):1863, 2010), with
a deforming cushion above its stated range:

* Two contacts act at once: the cushion's nose I, where the contact normal is tilted down by the contact angle
  theta (sin theta = (h - R) / R, h the nose height), and the slate C under the ball. Each has Coulomb
  friction, sliding or sticking (mu_cushion at the nose, mu_slide on the cloth). The impact is followed over
  the normal impulse P at the nose, the one quantity that only grows while the contact lasts: compression
  until the nose stops approaching, then restitution until the normal force at the nose has given back
  e_cushion^2 of the work it took (work-energy, Stronge's, restitution, which never adds energy).
* The slate keeps the ball from moving down: its normal impulse is whatever holds the ball on it (the rigid
  seat of [MAT10]), never a pull; friction on the cushion that lifts the ball more than the nose presses it
  down lifts it off the slate.
* [MAT10] compares the rigid model with its measurements and finds it valid up to a normal speed of 2.5 m/s
  (``cushion_rigid_speed``); above it the rebound of the measured curve [MAT09] falls with speed. What stands
  for that here is the cushion rubber deforming past its soft range: of the compression work beyond what an
  impact at the rigid limit does, the rubber gives back only its rebound resilience (``cushion_resilience``,
  the energy fraction of a rubber rebound test: 55 % for pyramid cushion rubber by GOST 27110-86 [MKP]); and
  of the push down beyond what an impact at the limit gives, the slate does not hold the ball up at once:
  the ball is driven into the cloth, and the slate answers as it answers a ball-ball impulse that drives a
  ball into it (``collide.slate_reaction``): the share of the nose's normal impulse comes back with e_table
  (TP B.10), the share of the friction at the nose, which acts through the whole contact, is taken
  plastically. So a hard hit makes the ball hop (docs/physics.md §Cushions: pushed down, then popping up off the
  slate, seen in slow motion [PT-BLOG]). Both shares are the part of the impact above the rigid limit:
  1 - v_rigid / v_n of the impulse and 1 - (v_rigid / v_n)^2 of the work, because the rigid impact scales
  with the speed. The split is an ESTIMATE: no measurement of the hop was found, and the measured rebound
  speeds [MAT09] do not tell how much of the push into the slate comes back.
"""

from __future__ import annotations

import math

import numpy as np

from physics import collide
from physics.params import PhysicsParams

Vec = np.ndarray

STEPS = 30  # normal-impulse steps over a plain rebound: within 0.003 of the rebound speed and 0.05 deg of its angle
MAX_STEPS = 40 * STEPS  # a defect guard: friction never stretches an impact this far


State = tuple[float, float, float, float, float, float]  # va, vb, vc, wa, wb, wc


class _Impact:
    """One impact's constants. The ball's velocity and spin are taken in the cushion's frame: a along the
    cushion, b into the bed (the cushion's inward normal), c up; (a, b, c) is right-handed."""

    def __init__(self, p: PhysicsParams, soft: float) -> None:
        th = p.contact_angle
        self.s, self.c = math.sin(th), math.cos(th)
        self.m, self.R, self.inertia = p.m, p.R, p.inertia
        # A contact point's slip change per unit tangential impulse (the same at the nose and on the slate).
        self.k = 1.0 / p.m + p.R * p.R / p.inertia
        self.mu_w, self.mu_s = p.mu_cushion, p.mu_slide
        self.soft = soft

    def approach(self, b: State) -> float:
        """Speed at which the nose and the ball's surface close along the contact normal."""
        return -(self.c * b[1] - self.s * b[2])

    def step(self, b: State, dP: float) -> State:
        """The nose's normal impulse ``dP`` with the friction and the slate's reaction that go with it."""
        m, R, inertia, s, c, k = self.m, self.R, self.inertia, self.s, self.c, self.k
        va, vb, vc, wa, wb, wc = b
        # The nose's normal impulse along n = (0, c, -s): into the bed and down.
        vb += c * dP / m
        vc1 = vc - s * dP / m
        # Friction at the nose against its slip (s1 along the cushion, s2 up the nose's face, e = (0, s, c)),
        # limited to stopping the slip: sliding or sticking.
        s1 = va + R * (s * wb + c * wc)
        s2 = s * vb + c * vc1 - R * wa
        slip = math.hypot(s1, s2)
        if slip > 0.0:
            f = min(self.mu_w * dP, slip / k) / slip
            f1, f2 = -f * s1, -f * s2
            va += f1 / m
            vb += f2 * s / m
            vc1 += f2 * c / m
            wa -= R * f2 / inertia
            wb += R * s * f1 / inertia
            wc += R * c * f1 / inertia
        # The slate answers the step's push down (the soft share of it; see the module's docstring), never
        # pulling and never sending the ball up; with cloth friction for its impulse.
        push = vc - vc1
        if push > 0.0 and vc1 < 0.0:
            dv = min(self.soft * push, -vc1)
            vc1 += dv
            g1, g2 = va - R * wb, vb + R * wa
            slip = math.hypot(g1, g2)
            if slip > 0.0:
                f = min(self.mu_s * m * dv, slip / k) / slip
                f1, f2 = -f * g1, -f * g2
                va += f1 / m
                vb += f2 / m
                wa += R * f2 / inertia
                wb -= R * f1 / inertia
        return va, vb, vc1, wa, wb, wc


def impact(v: Vec, w: Vec, inward: tuple[float, float], p: PhysicsParams) -> tuple[Vec, Vec] | None:
    """A ball on the cloth with velocity ``v`` and spin ``w`` meeting a cushion whose horizontal inward normal is
    ``inward``; None if it is not approaching the nose. Returns the velocity and spin as it leaves the cushion
    (v_z > 0: it leaves the slate too)."""
    nx, ny = inward
    b: State = (
        float(v[0]) * ny - float(v[1]) * nx,
        float(v[0]) * nx + float(v[1]) * ny,
        float(v[2]),
        float(w[0]) * ny - float(w[1]) * nx,
        float(w[0]) * nx + float(w[1]) * ny,
        float(w[2]),
    )
    speed_n = -b[1]
    soft = min(1.0, p.cushion_rigid_speed / speed_n) if speed_n > 0.0 else 1.0
    imp = _Impact(p, soft)
    a0 = imp.approach(b)
    if a0 <= 0.0:
        return None
    # Restitution's energy share: e_cushion^2 of the work up to the rigid limit, the resilience beyond it.
    e2 = p.e_cushion * p.e_cushion * soft * soft + p.cushion_resilience * (1.0 - soft * soft)
    (va, vb, vc, wa, wb, wc), P = _run(b, imp, a0, e2)
    v2 = np.array((va * ny + vb * nx, -va * nx + vb * ny, vc))
    w2 = np.array((wa * ny + wb * nx, -wa * nx + wb * ny, wc))
    if vc < 0.0:
        # Driven into the cloth by the hard share of the push: the slate's answer, with restitution for the
        # hard share of the nose's normal impulse (its push down per unit impulse is sin theta / m).
        v2, w2 = collide.slate_reaction(v2, w2, (1.0 - soft) * imp.s * P / imp.m, p)
    return v2, w2


def _run(b: State, imp: _Impact, a0: float, e2: float) -> tuple[State, float]:
    """Compression then restitution over the nose's normal impulse; the work of the normal force is summed by
    the trapezoid rule ([MAT10] eq. 16a) and the last step is cut where the work given back reaches e2 of the
    compression's. Returns the ball's state and the whole normal impulse."""
    dP = (1.0 + math.sqrt(e2)) * imp.m * a0 / (imp.c * imp.c) / STEPS
    work = 0.0  # work taken from the ball by the nose's normal force so far (falls during restitution)
    end = -1.0  # the work left when restitution is over (set when compression ends)
    a = a0
    P = 0.0
    for _ in range(MAX_STEPS):
        b1 = imp.step(b, dP)
        a1 = imp.approach(b1)
        w1 = work + 0.5 * dP * (a + a1)
        if end < 0.0 and a1 <= 0.0:
            # Compression ends inside this step (the approach falls linearly across it).
            end = (work + 0.5 * dP * a * a / (a - a1)) * (1.0 - e2)
        if end >= 0.0 and w1 <= end:
            if work <= w1:
                return b1, P + dP
            last = dP * (work - end) / (work - w1)
            return imp.step(b, last), P + last
        work, a, b, P = w1, a1, b1, P + dP
    raise RuntimeError("cushion impact did not end: a defect in the impulse stepping")
