"""Physical parameters of one stroke (every number a shot record's ``params`` carries).

Defaults and their sources: docs/physics.md §Parameters; sources are named beside each value.
Override keys are exactly ``scenes.core.settings.PHYSICS_OVERRIDES`` (physics must not import scenes).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from physics.cues import DEFAULT_CUE, cue_for
from physics.tables import TableSpec
from physics.tip import miscue_limit

G = 9.81

OVERRIDE_KEYS = (
    "mu_slide",
    "mu_roll",
    "spin_decel",
    "e_ball",
    "mu_ball",
    "e_cushion",
    "mu_cushion",
    "e_table",
    "e_rail",
    "e_floor",
)


@dataclass(frozen=True)
class PhysicsParams:
    """Everything the engine needs; SI units."""

    R: float
    m: float
    mu_slide: float = 0.2  # ball-cloth sliding friction [DD-CONST][PT]
    mu_roll: float = 0.01  # rolling resistance (deceleration / g) [PT]
    spin_decel: float = 10.0  # omega_z deceleration, rad/s^2 [DD-CONST]
    e_ball: float = 0.95  # ball-ball restitution [PT]
    # Ball-ball friction mu(s) = a + b exp(-c s) over the contact's slip speed s, applied through the impact as
    # the slip falls (collide.ball_friction); ``mu_ball`` >= 0 replaces it with a constant (settings override),
    # -1 keeps the law. a, b, c are fitted so that stun collisions at a 45 degree cut (e 0.95), the friction
    # integrated, give Marlow's throw-derived 0.11 / 0.06 / 0.01 at slips of 0.0707 / 0.707 / 7.07 m/s: the
    # three points TP A.14 fits with 9.951e-3, 0.108, 1.088 taken at the initial slip [DD TP A.14 via RB].
    mu_ball: float = -1.0
    mu_ball_a: float = 9.98774e-3
    mu_ball_b: float = 0.1060806
    mu_ball_c: float = 1.330057
    # The cushion (physics.cushion; every table's own values and their sources are in its file's [cushion]):
    e_cushion: float = 0.98  # work-energy restitution at the nose, rigid cushion [MAT10]
    mu_cushion: float = 0.14  # ball-cushion sliding friction [MAT10]
    cushion_rigid_speed: float = 2.5  # m/s: normal speed up to which the cushion acts rigid [MAT10]
    cushion_resilience: float = 0.55  # energy the rubber returns deformed past that (GOST 27110-86 [MKP])
    nose_height: float = 0.042  # cushion contact height above the cloth (table spec)
    e_table: float = 0.5  # ball-slate restitution [DD-CONST][PT]
    e_rail: float = 0.6  # wooden rail top / frame (ESTIMATE 0.5-0.7)
    e_floor: float = 0.6  # hardwood floor (ESTIMATE 0.5-0.8)
    mu_rail: float = 0.3  # ball on varnished wood (ESTIMATE)
    mu_floor: float = 0.4  # ESTIMATE
    mu_roll_rail: float = 0.02  # rolling resistance on the varnished rail top and frame (ESTIMATE)
    mu_roll_floor: float = 0.05  # on the room's floor, between hardwood and carpet (ESTIMATE)
    # Spin about the vertical on hard surfaces: the twisting friction of a Hertz contact patch,
    # alpha = (3 pi / 16) mu g a / (0.4 R^2); a 0.17-0.28 kg ball on varnished wood across the grain
    # (E ~ 1 GPa) has a ~ 0.4 mm, alpha ~ 1.5-3 rad/s^2 (ESTIMATE; cloth: spin_decel).
    spin_decel_rail: float = 2.0
    spin_decel_floor: float = 4.0  # between hardwood (~2) and carpet (~10) (ESTIMATE)
    # The cue (physics.cues): which one, and what the strike takes of it.
    cue: str = DEFAULT_CUE
    cue_mass: float = 0.70
    cue_length: float = 1.60
    tip_radius: float = 0.0115
    tip_width: float = 0.0125  # the tip's (and ferrule's) diameter: where it meets the cloth (physics.tip)
    tip_e: float = 0.73  # leather tip [DD-TIP]
    tip_mu: float = 0.6  # tip-ball friction [DD-CONST]
    squirt_mass_ratio: float = 25.0  # ball mass / cue end mass, measured 12-29 [TP A.31]
    min_bounce: float = 0.001  # a bounce that would rise less than this (m) ends on the cloth (Zeno guard)
    substep_hz: float = 1000.0
    # Longer than the slowest stop the physics can make: the hardest stroke with full side (~670 rad/s off
    # the tip) spins down on the cloth in ~67 s at spin_decel 10 rad/s^2. The cap only guards against a
    # defect; a stroke that reaches it is one.
    max_stroke_seconds: float = 120.0

    @property
    def inertia(self) -> float:
        return 0.4 * self.m * self.R * self.R

    @property
    def miscue_limit(self) -> float:
        """Largest contact offset (in radii) the tip holds: the friction cone around the contact normal, with
        the squirt's lateral impulse turning the impulse towards it (physics.tip)."""
        return miscue_limit(self.tip_mu, self.squirt_mass_ratio)

    @property
    def contact_angle(self) -> float:
        """Cushion contact normal angle below horizontal: asin((h - R) / R)."""
        s = (self.nose_height - self.R) / self.R
        return math.asin(max(-1.0, min(1.0, s)))

    def mu_ball_at(self, slip: float) -> float:
        """Ball-ball friction at tangential slip speed ``slip`` m/s."""
        if self.mu_ball >= 0.0:
            return self.mu_ball
        return self.mu_ball_a + self.mu_ball_b * math.exp(-self.mu_ball_c * slip)

    @classmethod
    def for_table(
        cls,
        spec: TableSpec,
        overrides: Mapping[str, float] | None = None,
        substep_hz: float = 1000,
        max_stroke_seconds: float = 120.0,
        cue: str = DEFAULT_CUE,
    ) -> PhysicsParams:
        p = cls(
            R=spec.ball_radius,
            m=spec.ball_mass,
            nose_height=spec.cushion_nose_height,
            e_cushion=spec.rubber.restitution,
            mu_cushion=spec.rubber.friction,
            cushion_rigid_speed=spec.rubber.rigid_speed,
            cushion_resilience=spec.rubber.resilience,
            substep_hz=float(substep_hz),
            max_stroke_seconds=float(max_stroke_seconds),
        ).with_cue(spec.id, cue)
        if spec.id.startswith("snooker"):
            # The measured snooker rolling resistance 0.0128 [MAT09].
            p = replace(p, mu_roll=0.0128)
        ov = dict(overrides or {})
        unknown = set(ov) - set(OVERRIDE_KEYS)
        if unknown:
            raise ValueError(f"unknown physics override(s): {', '.join(sorted(unknown))}")
        numbers: dict[str, Any] = {k: float(v) for k, v in ov.items()}
        return replace(p, **numbers)

    def with_cue(self, table_id: str, kind: str) -> PhysicsParams:
        """These parameters with the cue ``kind`` of the table ``table_id`` (physics.cues)."""
        c = cue_for(table_id, kind)
        return replace(
            self,
            cue=c.kind,
            cue_mass=c.mass,
            cue_length=c.length,
            tip_radius=c.tip_radius,
            tip_width=c.tip_width,
            tip_e=c.tip_e,
            tip_mu=c.tip_mu,
            squirt_mass_ratio=c.squirt_mass_ratio,
        )

    def as_dict(self) -> dict[str, float | str]:
        """Every parameter as the shot record's ``params`` carries it: numbers, and the cue's kind."""
        return {k: v if isinstance(v, str) else float(v) for k, v in asdict(self).items()}
