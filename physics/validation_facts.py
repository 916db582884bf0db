"""The measurements of ``python main.py validate`` (:mod:`physics.validation`): each function strokes real balls
through :func:`physics.simulate.simulate` and returns a :class:`Fact` with the published series beside the
simulated one.

Published models take the physics' own parameter values from the shot record (``params``: mu_s, mu_r, e_t...),
which sources (docs/physics.md); the cushion facts use the measured curve [MAT09] and the paper's values [MAT10]."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from physics import validation_models as M
from physics.cue import strike
from physics.engine import Engine
from physics.params import PhysicsParams
from physics.plan.parts import load_extras
from physics.record import EventType, ShotParams, ShotRecord
from physics.simulate import simulate
from physics.tables import TableSpec, load_table
from physics.validation_data import Check, Fact, Series, Text, text
from physics.validation_pockets import CornerPocket

HZ = 1000.0  # sample rate of every measured stroke
# TP A.19 describes a ball that stays on the cloth: a soft massé, as played (a harder one pops the ball off the
# slate, and the path after its landing is no longer the one Coriolis describes).
MASSE_CUE_SPEED = 1.0


def _sim(
    spec: TableSpec,
    balls: dict[str, tuple[float, float]],
    shot: ShotParams,
    p: PhysicsParams | None = None,
    hz: float | None = HZ,
    seconds: float | None = None,
) -> ShotRecord:
    """One stroke through the public entry; ``seconds`` ends it early (``max_stroke_seconds``) when only its
    start is measured, so a fast ball is not followed round the table."""
    q = p or PhysicsParams.for_table(spec)
    if seconds is not None:
        q = replace(q, max_stroke_seconds=seconds)
    return simulate(spec, balls, shot, q, sample_hz=hz)


def _rows(rec: ShotRecord, ball: str = "cue") -> np.ndarray:
    assert rec.samples is not None
    return np.asarray(rec.samples[ball], dtype=float)


def _row_before(r: np.ndarray, t: float) -> np.ndarray:
    """The last sample strictly before ``t``."""
    k = max(0, int(np.searchsorted(r[:, 0], t - 1e-9)) - 1)
    row: np.ndarray = r[k]
    return row


def _cue_speed(p: PhysicsParams, ball_v: float, rho: float) -> float:
    """The cue speed that sends the ball off at ``ball_v`` ([TP A.30] inverted) with this physics' cue."""
    return ball_v / M.strike_speed(1.0, rho, p.m, p.cue_mass, p.tip_e)


def _param(rec: ShotRecord, key: str, p: PhysicsParams) -> float:
    """A parameter the stroke used, from its record (what the physics actually ran with); the params it was
    given when the record does not carry that key."""
    return float(rec.params.get(key, getattr(p, key)))


def _deg(x: float, y: float) -> float:
    return math.degrees(math.atan2(y, x))


def _pick(quick: bool, full: list[float], fast: list[float]) -> list[float]:
    return fast if quick else full


# --- cushions ------------------------------------------------------------------------------------------------


def _into_cushion(spec: TableSpec, v: float, incidence: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A ball rolling at ``v`` into the foot cushion at ``incidence`` degrees from its normal: its horizontal
    velocity just before the cushion and just after it has turned away (None: no cushion contact)."""
    p = PhysicsParams.for_table(spec)
    a = math.radians(incidence)
    hit = (spec.half_length - spec.cushion_reach, 0.0)
    start = (hit[0] - 0.25 * math.cos(a), hit[1] - 0.25 * math.sin(a))
    shot = ShotParams(ball="cue", cue_speed=_cue_speed(p, v, 0.4), direction=incidence, tip=(0.0, 0.4))
    rec = _sim(spec, {"cue": start}, shot, p, seconds=1.5)
    hits = rec.for_ball("cue", EventType.CUSHION)
    if not hits:
        return None
    r = _rows(rec)
    before = _row_before(r, hits[0].t)
    away = np.nonzero((r[:, 0] > hits[0].t) & (r[:, 4] < 0.0))[0]
    if not len(away):
        return None
    return before[4:6], r[away[0], 4:6]


def cushion_speed(quick: bool) -> Fact:
    spec = load_table("snooker-12ft")
    speeds = _pick(quick, [0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0], [0.5, 1.5, 3.0])
    xs, ys, checks = [], [], []
    for v in speeds:
        m = _into_cushion(spec, v, 0.0)
        if m is None:
            checks.append(
                Check(text(f"{v:g} m/s", f"{v:g} м/с"), M.mat09_rebound_speed(v) / v, None, 0.05, "")
            )
            continue
        v_in, v_out = (float(np.hypot(*x)) for x in m)
        xs.append(v_in)
        ys.append(v_out / v_in)
        checks.append(
            Check(
                text(f"{v_in:.2f} m/s", f"{v_in:.2f} м/с"),
                M.mat09_rebound_speed(v_in) / v_in,
                ys[-1],
                0.05,
                "",
            )
        )
    grid = [0.3 + 0.05 * k for k in range(65)]
    return Fact(
        id="cushion-speed",
        title=text(
            "Cushion rebound speed, rolling ball square-on", "Отскок от борта, катящийся шар под прямым углом"
        ),
        source=text("measured, Mathavan et al. 2009 [MAT09]", "измерения Mathavan и др. 2009 [MAT09]"),
        table=spec.id,
        x_label=text("speed into the cushion, m/s", "скорость к борту, м/с"),
        y_label=text("rebound speed / incoming speed", "скорость отскока / скорость подхода"),
        series=(
            Series(
                text("MAT09 fit of the measurements", "MAT09: аппроксимация измерений"),
                tuple(grid),
                tuple(M.mat09_rebound_speed(v) / v for v in grid),
                "published",
            ),
            Series(text("simulated", "симуляция"), tuple(xs), tuple(ys), points=True),
        ),
        checks=tuple(checks),
        note=text("Tolerance 0.05 (issue 13 §2).", "Допуск 0,05 (задача 13 §2)."),
    )


def cushion_angle(quick: bool) -> Fact:
    spec = load_table("snooker-12ft")
    angles = _pick(quick, [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0], [20.0, 45.0, 70.0])
    v = 1.0
    xs, ys, checks = [], [], []
    for inc in angles:
        m = _into_cushion(spec, v, inc)
        label = text(f"{inc:g}° in", f"{inc:g}° подход")
        if m is None:
            checks.append(Check(label, M.mathavan_rebound_angle_deg(v, inc), None, 2.0, "°"))
            continue
        v_in, v_out = m
        inc_sim = _deg(float(v_in[0]), abs(float(v_in[1])))
        out = _deg(-float(v_out[0]), abs(float(v_out[1])))
        xs.append(inc_sim)
        ys.append(out)
        ref = M.mathavan_rebound_angle_deg(float(np.hypot(*v_in)), inc_sim)
        checks.append(Check(label, ref, out, 2.0, "°"))
    grid = [1.0 + k for k in range(80)]
    return Fact(
        id="cushion-angle",
        title=text(
            "Cushion rebound angle, rolling ball at 1 m/s", "Угол отскока от борта, катящийся шар, 1 м/с"
        ),
        source=text(
            "Mathavan et al. 2010 model with the paper's values [MAT10]",
            "модель Mathavan и др. 2010 со значениями статьи [MAT10]",
        ),
        table=spec.id,
        x_label=text("incidence from the cushion's normal, °", "угол подхода от нормали к борту, °"),
        y_label=text("rebound angle from the normal, °", "угол отскока от нормали, °"),
        series=(
            Series(
                text("angle of incidence (mirror)", "зеркальный отскок"), (0.0, 80.0), (0.0, 80.0), "guide"
            ),
            Series(
                text("MAT10 model", "модель MAT10"),
                tuple(grid),
                tuple(M.mathavan_rebound_angle_deg(v, a) for a in grid),
                "published",
            ),
            Series(text("simulated", "симуляция"), tuple(xs), tuple(ys), points=True),
        ),
        checks=tuple(checks),
        note=text(
            "Tolerance 2° (issue 13 §2). The paper: e 0.98, mu cushion 0.14, mu slate 0.212, nose 7R/5.",
            "Допуск 2° (задача 13 §2). Статья: e 0,98, трение о борт 0,14, о сукно 0,212, борт 7R/5.",
        ),
    )


# --- ball-ball throw, squirt ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Hit:
    cut: float
    v: float
    w_roll: float
    w_side: float
    throw: float


def _stun_cut(spec: TableSpec, v: float, cut: float) -> _Hit | None:
    """A stun shot at ``v`` (at contact) cutting a resting ball at ``cut`` degrees; the state at contact and the
    object ball's throw (degrees off the line of centres, towards the cue ball's path)."""
    p = PhysicsParams.for_table(spec)
    R, gap = spec.ball_radius, 0.03
    phi = math.radians(cut)
    t = gap / v
    v0 = v + p.mu_slide * M.G * t
    b = -p.mu_slide * M.G * t / v0  # draw that is just used up at contact
    ob = (0.3, 0.0)
    start = (ob[0] - 2 * R * math.cos(phi) - gap, 2 * R * math.sin(phi))
    shot = ShotParams(ball="cue", cue_speed=_cue_speed(p, v0, abs(b)), tip=(0.0, b))
    rec = _sim(spec, {"cue": start, "1": ob}, shot, p, seconds=0.5)
    hit = rec.first_contact("cue")
    if hit is None or hit.balls is None or "1" not in hit.balls:
        return None
    pre = _row_before(_rows(rec), hit.t)
    after = _rows(rec, "1")
    k = np.nonzero(after[:, 0] > hit.t + 1e-9)[0]
    if not len(k):
        return None
    ovx, ovy = after[k[0], 4:6]
    return _Hit(cut, float(np.hypot(pre[4], pre[5])), float(pre[8]), float(pre[9]), _deg(ovx, ovy) + cut)


def throw(quick: bool) -> Fact:
    spec = load_table("pool-9ft")
    R = spec.ball_radius
    speeds = _pick(quick, [0.447, 1.341, 3.129], [0.447, 3.129])
    cuts = _pick(quick, [5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0, 50.0, 60.0], [10.0, 30.0, 50.0])
    series: list[Series] = []
    checks = []
    grid = [0.5 * k for k in range(1, 141)]
    for v in speeds:
        series.append(
            Series(
                text(f"TP A.14, stun {v:g} m/s", f"TP A.14, без вращения {v:g} м/с"),
                tuple(grid),
                tuple(M.throw_deg(v, c, R) for c in grid),
                "published",
            )
        )
        xs, ys = [], []
        for cut in cuts:
            h = _stun_cut(spec, v, cut)
            label = text(f"{v:g} m/s, cut {cut:g}°", f"{v:g} м/с, срез {cut:g}°")
            if h is None:
                checks.append(Check(label, M.throw_deg(v, cut, R), None, 0.5, "°"))
                continue
            xs.append(cut)
            ys.append(h.throw)
            ref = M.throw_deg(h.v, cut, R, h.w_roll, h.w_side)
            checks.append(Check(label, ref, h.throw, 0.5, "°"))
        series.append(
            Series(text(f"simulated {v:g} m/s", f"симуляция {v:g} м/с"), tuple(xs), tuple(ys), points=True)
        )
    series.append(
        Series(
            text("measured: ~1.5° at 10°, max ~6° slow (BD 2006)", "измерения: ~1,5° при 10°, до ~6°"),
            (10.0, 35.0),
            (1.5, 6.0),
            "published",
            points=True,
        )
    )
    return Fact(
        id="throw",
        title=text(
            "Throw against cut angle, stun cue ball", "Отброс прицельного шара от угла среза, без вращения"
        ),
        source=text(
            "Alciatore TP A.14 (Marlow's friction), measured points via docs/physics.md §Ball-ball",
            "Alciatore TP A.14 (трение по Marlow), измерения из docs/physics.md §Ball-ball",
        ),
        table=spec.id,
        x_label=text("cut angle, °", "угол среза, °"),
        y_label=text("throw, °", "отброс, °"),
        series=tuple(series),
        checks=tuple(checks),
        note=text(
            "The model is evaluated at each stroke's own speed and spin at contact; tolerance 0.5°.",
            "Модель считается по скорости и вращению каждого удара в момент касания; допуск 0,5°.",
        ),
    )


def squirt(quick: bool) -> Fact:
    spec = load_table("pool-9ft")
    p = PhysicsParams.for_table(spec)
    sides = _pick(quick, [0.05 * k for k in range(1, 11)], [0.1, 0.3, 0.5])
    xs, ys, checks = [], [], []
    ratio = p.squirt_mass_ratio
    for a in sides:
        rec = _sim(
            spec, {"cue": (-0.8, 0.0)}, ShotParams(ball="cue", cue_speed=2.0, tip=(a, 0.0)), p, seconds=0.05
        )
        ratio = _param(rec, "squirt_mass_ratio", p)
        r = _rows(rec)
        out = _deg(float(r[0, 4]), float(r[0, 5]))  # right English: the ball leaves to the left (+y)
        xs.append(a)
        ys.append(out)
        checks.append(
            Check(text(f"tip {a:.2f} R", f"наклейка {a:.2f} R"), M.squirt_deg(a, ratio), out, 0.1, "°")
        )
    grid = [0.01 * k for k in range(61)]
    inch = 0.0254 / spec.ball_radius
    return Fact(
        id="squirt",
        title=text(
            "Squirt against tip offset, level cue", "Снос битка от смещения наклейки, горизонтальный кий"
        ),
        source=text("Alciatore TP A.31; measured cues TP B.1", "Alciatore TP A.31; измерения киёв TP B.1"),
        table=spec.id,
        x_label=text("tip offset, ball radii", "смещение наклейки, радиусы шара"),
        y_label=text("squirt, °", "снос, °"),
        series=(
            Series(
                text(
                    "TP A.31, the measured cues' range, m/m_e 12 and 29",
                    "TP A.31, диапазон киёв, m/m_e 12 и 29",
                ),
                tuple(grid),
                tuple(M.squirt_deg(b, 12.0) for b in grid),
                "guide",
            ),
            Series(text("", ""), tuple(grid), tuple(M.squirt_deg(b, 29.0) for b in grid), "guide"),
            Series(
                text("measured cues (TP B.1)", "измеренные кии (TP B.1)"),
                (0.51 * inch, 0.51 * inch, 0.30 * inch),
                (2.5, 1.8, 2.4),
                "published",
                points=True,
            ),
            Series(
                text(f"TP A.31, this cue (m/m_e {ratio:g})", f"TP A.31, этот кий (m/m_e {ratio:g})"),
                tuple(grid),
                tuple(M.squirt_deg(b, ratio) for b in grid),
                "published",
            ),
            Series(text("simulated", "симуляция"), tuple(xs), tuple(ys), points=True),
        ),
        checks=tuple(checks),
        note=text("Tolerance 0.1°.", "Допуск 0,1°."),
    )


# --- cloth: draw and follow ----------------------------------------------------------------------------------


def _draw_layout(
    spec: TableSpec,
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float], float]:
    """Object ball 1 m from the foot-right pocket on its axis, cue ball 0.3 m behind it on the same line: the
    object ball drops and the cue ball's draw or follow runs along the diagonal, clear of everything."""
    R = spec.ball_radius
    s = 1.0 / math.sqrt(2.0)
    u = (s, -s)
    corner = (spec.half_length, -spec.half_width)
    ob = (corner[0] - 1.0 * u[0], corner[1] - 1.0 * u[1])
    gap = 0.3
    cue = (ob[0] - (gap + 2 * R) * u[0], ob[1] - (gap + 2 * R) * u[1])
    return cue, ob, u, gap


def _draw_run(spec: TableSpec, p: PhysicsParams, V: float, b: float) -> float | None:
    """The cue ball's signed travel along the line after it meets the object ball (None: it never did)."""
    cue, ob, u, _ = _draw_layout(spec)
    rec = _sim(
        spec, {"cue": cue, "1": ob}, ShotParams(ball="cue", cue_speed=V, direction=-45.0, tip=(0.0, b)), p
    )
    hit = rec.first_contact("cue")
    end = rec.final["cue"].pos
    if hit is None or end is None:
        return None
    at = _row_before(_rows(rec), hit.t)
    return float((end[0] - at[1]) * u[0] + (end[1] - at[2]) * u[1])


def draw_follow(quick: bool) -> Fact:
    spec = load_table("pool-9ft")
    p = PhysicsParams.for_table(spec)
    R = spec.ball_radius
    gap = _draw_layout(spec)[3]
    cloth = M.Cloth(p.mu_slide, p.mu_roll)

    def model(V: float, b: float) -> float:
        vb = M.strike_speed(V, abs(b), p.m, p.cue_mass, p.tip_e)
        return M.draw_follow_distance(vb, 2.5 * vb * b / R, gap, R, p.e_ball, cloth)

    # Every tip at 1 m/s of the cue; draw at 2 m/s, where it brings the ball back (follow that fast would run
    # the cue ball into the pocket after the object ball).
    runs = [
        (1.0, _pick(quick, [-0.5, -0.4, -0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5], [-0.4, 0.4])),
        (2.0, _pick(quick, [-0.5, -0.4, -0.3, -0.2, -0.1, 0.0], [-0.4])),
    ]
    series: list[Series] = []
    checks = []
    for V, tips in runs:
        grid = [min(tips) + 0.01 * k for k in range(int(round(100 * (max(tips) - min(tips)))) + 1)]
        xs, ys = [], []
        for b in tips:
            d = _draw_run(spec, p, V, b)
            checks.append(
                Check(
                    text(f"cue {V:g} m/s, tip {b:+.1f} R", f"кий {V:g} м/с, наклейка {b:+.1f} R"),
                    model(V, b),
                    d,
                    0.03,
                    "m",
                )
            )
            if d is not None:
                xs.append(b)
                ys.append(d)
        series.append(
            Series(
                text(f"published models, cue {V:g} m/s", f"опубликованные модели, кий {V:g} м/с"),
                tuple(grid),
                tuple(model(V, b) for b in grid),
                "published",
            )
        )
        series.append(
            Series(
                text(f"simulated, cue {V:g} m/s", f"симуляция, кий {V:g} м/с"),
                tuple(xs),
                tuple(ys),
                points=True,
            )
        )
    series.append(Series(text("", ""), (-0.5, 0.5), (0.0, 0.0), "guide"))
    return Fact(
        id="draw-follow",
        title=text("Draw and follow after a full hit", "Оттяжка и накат после удара в лоб"),
        source=text(
            "TP A.30 strike, TP 4.1 cloth, docs/physics.md §Cloth, §Ball-ball head-on collision, TP A.14 friction",
            "удар TP A.30, сукно TP 4.1, центральный удар docs/physics.md §Cloth, §Ball-ball, трение TP A.14",
        ),
        table=spec.id,
        x_label=text("tip height, ball radii (+ above centre)", "высота наклейки, радиусы (+ выше центра)"),
        y_label=text(
            "cue ball travel after contact, m (- drawn back)", "путь битка после соударения, м (- назад)"
        ),
        series=tuple(series),
        checks=tuple(checks),
        note=text(
            f"Object ball {gap:g} m ahead, level cue; tolerance 3 cm.",
            f"Прицельный в {gap:g} м, кий горизонтально; допуск 3 см.",
        ),
    )


# --- massé ---------------------------------------------------------------------------------------------------


def _slip(r: np.ndarray, R: float) -> np.ndarray:
    return np.hypot(r[:, 4] - R * r[:, 8], r[:, 5] + R * r[:, 7])


def _dist_to_path(pts: np.ndarray, path: np.ndarray) -> float:
    """Largest distance from any of ``pts`` to the polyline ``path`` (both N x 2)."""
    a, b = path[:-1], path[1:]
    ab = b - a
    L2 = np.maximum((ab * ab).sum(axis=1), 1e-18)
    worst = 0.0
    for q in pts:
        t = np.clip(((q - a) * ab).sum(axis=1) / L2, 0.0, 1.0)
        near = a + ab * t[:, None]
        worst = max(worst, float(np.min(np.hypot(*(q - near).T))))
    return worst


@dataclass(frozen=True)
class _Masse:
    sim: np.ndarray  # x, y of the path while measured
    ref: np.ndarray
    launch: float  # degrees off the cue line
    final: float  # direction of the final roll, degrees
    coriolis: float  # the published final direction
    deviation: float  # m
    flight: tuple[
        tuple[float, float], tuple[float, float]
    ]  # from the ball's place to where it is first on the cloth


def _masse_run(
    spec: TableSpec, p: PhysicsParams, elevation: float, tip: tuple[float, float]
) -> _Masse | None:
    R = spec.ball_radius
    start = (-0.9, 0.35)
    rec = _sim(
        spec,
        {"cue": start},
        ShotParams(ball="cue", cue_speed=MASSE_CUE_SPEED, elevation=elevation, tip=tip),
        p,
        seconds=3.0,
    )
    r = _rows(rec)
    ends = [e.t for e in rec.for_ball("cue") if e.type in (EventType.CUSHION, EventType.POCKET_JAW)]
    stop = min(ends, default=float(r[-1, 0]))
    on = (np.abs(r[:, 3] - R) < 5e-4) & (np.abs(r[:, 6]) < 0.05) & (r[:, 0] <= stop)
    moving = np.hypot(r[:, 4], r[:, 5]) > 0.02
    first = np.nonzero(on & moving)[0]
    if not len(first):
        return None
    k0 = int(first[0])
    rolled = np.nonzero(on & moving & (_slip(r, R) < 1e-3) & (np.arange(len(r)) > k0))[0]
    k1 = int(rolled[0]) if len(rolled) else int(np.nonzero(on)[0][-1])
    v0, vf = r[k0, 4:6], r[k1, 4:6]
    rel, d = M.cue_contact(0.0, elevation, tip, R)
    cdir = M.coriolis_final_direction(
        (start[0], start[1], R), (start[0] + rel[0], start[1] + rel[1], R + rel[2]), d
    )
    s0, sf = float(np.hypot(*v0)), float(np.hypot(*vf))
    k_end = min(len(r) - 1, k1 + int(0.3 * HZ))
    k_end = int(np.nonzero(r[: k_end + 1, 0] <= stop)[0][-1])
    duration = float(r[k_end, 0] - r[k0, 0])
    ref = M.masse_path(
        (float(r[k0, 1]), float(r[k0, 2])), (s0, 0.0), (sf * cdir[0], sf * cdir[1]), p.mu_slide, duration
    )
    sim = r[k0 : k_end + 1, 1:3]
    flight = (start, (float(r[k0, 1]), float(r[k0, 2])))
    return _Masse(
        sim, np.asarray(ref), _deg(*v0), _deg(*vf), _deg(*cdir), _dist_to_path(sim, np.asarray(ref)), flight
    )


def masse(quick: bool) -> Fact:
    spec = load_table("pool-9ft")
    p = PhysicsParams.for_table(spec)
    tip = (0.4, 0.0)
    squirt = math.tan(math.radians(M.squirt_deg(tip[0], p.squirt_mass_ratio)))
    series: list[Series] = []
    checks = []
    for el in _pick(quick, [78.0, 80.0, 84.0], [80.0, 84.0]):
        m = _masse_run(spec, p, el, tip)
        lbl = f"{el:g}°"
        # The squirt's push across the cue is horizontal, the cue's own push only cos(elevation) of it: seen from
        # above the ball leaves the cue line turned by atan(tan(alpha) / cos(elevation)) (TP A.19 with TP A.31).
        launch = math.degrees(math.atan(squirt / math.cos(math.radians(el))))
        if m is None:
            for what in ("launch", "final", "path"):
                checks.append(Check(text(f"{lbl} {what}", f"{lbl} {what}"), 0.0, None, 1.0, ""))
            continue
        if math.dist(*m.flight) > 1e-3:
            fx, fy = zip(*m.flight, strict=True)
            series.append(
                Series(
                    text(f"in the air after the strike, {lbl}", f"в воздухе после удара, {lbl}"),
                    fx,
                    fy,
                    "guide",
                )
            )
        series.append(
            Series(
                text(f"TP A.19, {lbl}", f"TP A.19, {lbl}"),
                tuple(m.ref[:, 0]),
                tuple(m.ref[:, 1]),
                "published",
            )
        )
        series.append(
            Series(text(f"simulated, {lbl}", f"симуляция, {lbl}"), tuple(m.sim[:, 0]), tuple(m.sim[:, 1]))
        )
        checks += [
            Check(
                text(f"{lbl}: leaves along the cue line, squirt", f"{lbl}: уходит по линии кия, снос"),
                launch,
                m.launch,
                1.0,
                "°",
            ),
            Check(
                text(f"{lbl}: final direction (Coriolis)", f"{lbl}: итоговое направление (Кориолис)"),
                m.coriolis,
                m.final,
                3.0,
                "°",
            ),
            Check(
                text(f"{lbl}: path off the parabola", f"{lbl}: отклонение от параболы"),
                0.0,
                m.deviation,
                0.02,
                "m",
            ),
        ]
    return Fact(
        id="masse",
        title=text(
            "Massé path, cue 1 m/s, tip 0.4 R right", "Траектория массе, кий 1 м/с, наклейка 0,4 R справа"
        ),
        source=text(
            "Alciatore TP A.19 (Coriolis): the cue line, a parabola, the line to where the cue's axis "
            "meets the cloth",
            "Alciatore TP A.19 (Кориолис): линия кия, парабола, линия к точке, где ось кия встречает сукно",
        ),
        table=spec.id,
        x_label=text("x, m", "x, м"),
        y_label=text("y, m", "y, м"),
        series=tuple(series),
        checks=tuple(checks),
        note=text(
            "The published path starts where the simulated ball is first on the cloth, with its speeds; "
            "tolerances: launch 1°, final direction 3°, path 2 cm.",
            "Опубликованная траектория начинается там, где шар впервые на сукне, с его скоростями; допуски: "
            "вылет 1°, итоговое направление 3°, путь 2 см.",
        ),
        equal_axes=True,
    )


# --- jumps: per cue ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CueKind:
    """A cue the jump fact strokes with: one of physics.cues' kinds, with the table's own values."""

    id: str
    label: Text


CUE_KINDS = (
    CueKind("playing", text("playing cue", "игровой кий")),
    CueKind("break", text("break cue", "кий для разбоя")),
    CueKind("jump", text("jump cue", "кий для перескока")),
)


def with_cue(p: PhysicsParams, table_id: str, cue: CueKind) -> tuple[PhysicsParams, ShotParams]:
    """The physics params and the stroke's template for ``cue`` on ``table_id`` (physics.cues); the published
    model reads mass and tip from each record's ``params``."""
    return p.with_cue(table_id, cue.id), ShotParams(ball="cue", cue=cue.id)


def _first_hop(rec: ShotRecord, R: float) -> float:
    """Rise of the centre over the first flight after the strike (0 if the ball never left the cloth)."""
    air = rec.for_ball("cue", EventType.AIRBORNE)
    if not air:
        return 0.0
    land = [e.t for e in rec.for_ball("cue", EventType.LANDED) if e.t > air[0].t]
    r = _rows(rec)
    span = (r[:, 0] >= air[0].t) & (r[:, 0] <= (land[0] if land else r[-1, 0]))
    return float(r[span, 3].max() - R) if span.any() else 0.0


def _flight_margin(rec: ShotRecord, start_x: float, gap: float, R: float) -> float:
    """How far (m) the ball's path passes clear of a full ball ``gap`` m ahead of where it started, on the
    cloth on its line: the least distance between the centres, less 2R (negative: it would hit it)."""
    r = _rows(rec)
    dist = np.hypot(np.hypot(r[:, 1] - (start_x + gap), r[:, 2]), r[:, 3] - R)
    return float(dist.min()) - 2.0 * R


def _jump_checks(spec: TableSpec, base: PhysicsParams) -> list[Check]:
    """Practice [VIK]: a jump cue at ~45 degrees clears a ball 0.3 m away, steeper for a closer one (60 degrees
    for 0.15 m), at a speed a player delivers: the flight's shortfall over that ball at 6 m/s (0 = clears)."""
    R, start = spec.ball_radius, -0.9
    p, template = with_cue(base, spec.id, CUE_KINDS[2])
    checks = []
    for el, gap in ((45.0, 0.3), (60.0, 0.15)):
        shot = replace(template, cue_speed=6.0, elevation=el)
        rec = _sim(spec, {"cue": (start, 0.0)}, shot, p, seconds=0.6)
        short = max(0.0, -_flight_margin(rec, start, gap, R))
        label = text(
            f"jump cue, {el:g}°, 6 m/s: shortfall over a ball {gap:g} m away",
            f"кий для перескока, {el:g}°, 6 м/с: недолёт над шаром в {gap:g} м",
        )
        checks.append(Check(label, 0.0, 1000.0 * short, 1.0, "mm"))
    return checks


def jump(quick: bool) -> Fact:
    spec = load_table("pool-9ft")
    base = PhysicsParams.for_table(spec)
    R, V = spec.ball_radius, 4.0
    elevations = _pick(quick, [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 85.0], [30.0, 50.0, 70.0])
    series: list[Series] = []
    checks = _jump_checks(spec, base)
    grid = [float(k) for k in range(0, 86)]
    for cue in CUE_KINDS:
        p, template = with_cue(base, spec.id, cue)
        xs, ys = [], []
        for el in elevations:
            rec = _sim(
                spec, {"cue": (-0.9, 0.0)}, replace(template, cue_speed=V, elevation=el), p, seconds=1.5
            )
            h = 1000.0 * _first_hop(rec, R)
            xs.append(el)
            ys.append(h)
            if strike(V, 0.0, el, (0.0, 0.0), p).contacts == 1:
                # The ball leaves the tip before its rebound meets it: the sequential model is the stroke.
                cm, te, et = _param(rec, "cue_mass", p), _param(rec, "tip_e", p), _param(rec, "e_table", p)
                ref = 1000.0 * M.jump_apex(V, el, _param(rec, "m", p), cm, te, et)
                label = text(f"{cue.label['en']}, {el:g}°", f"{cue.label['ru']}, {el:g}°")
                checks.append(Check(label, ref, h, max(3.0, 0.2 * ref), "mm"))
        # Practice: the more elevated the cue, the higher the jump, up to the massé (docs/strike.md).
        rising = [h for el, h in zip(xs, ys, strict=True) if 20.0 <= el <= 70.0]
        fall = max([0.0] + [a - b for a, b in zip(rising, rising[1:], strict=False)])
        checks.append(
            Check(
                text(
                    f"{cue.label['en']}: largest fall of the hop, 20-70°",
                    f"{cue.label['ru']}: наибольшее падение прыжка, 20-70°",
                ),
                0.0,
                fall,
                1.0,
                "mm",
            )
        )
        series.append(
            Series(
                text(f"sequential model, {cue.label['en']}", f"последовательная модель, {cue.label['ru']}"),
                tuple(grid),
                tuple(1000.0 * M.jump_apex(V, e, p.m, p.cue_mass, p.tip_e, p.e_table) for e in grid),
                "published",
            )
        )
        series.append(
            Series(
                text(f"simulated, {cue.label['en']}", f"симуляция, {cue.label['ru']}"),
                tuple(xs),
                tuple(ys),
                points=True,
            )
        )
    D = 2000.0 * R
    series.append(
        Series(
            text("a full ball's height to clear (rise D)", "высота шара для перескока (подъём D)"),
            (0.0, 85.0),
            (D, D),
            "guide",
        )
    )
    return Fact(
        id="jump",
        title=text("Jump height against elevation, each cue at 4 m/s", "Высота прыжка от наклона кия, 4 м/с"),
        source=text(
            "docs/physics.md §Flight: TP A.30 strike, TP B.10 slate bounce (e_t); practice: ~45° clears a ball "
            "0.3 m away, steeper for a closer one, higher with the cue [VIK]; docs/strike.md",
            "docs/physics.md §Flight: удар TP A.30, отскок от плиты TP B.10; практика: ~45° "
            "для перескока шара в 0,3 м, круче для более близкого, выше с наклоном [VIK]; docs/strike.md",
        ),
        table=spec.id,
        x_label=text("cue elevation, °", "наклон кия, °"),
        y_label=text("first hop: rise of the centre, mm", "первый прыжок: подъём центра, мм"),
        series=tuple(series),
        checks=tuple(checks),
        note=text(
            "Centre hit; tolerance 20 % or 3 mm where the ball leaves the tip before its rebound meets it (the "
            "sequential model). Above that the rebound slides off the tip and meets only its end mass, so the hop "
            "stays below the model and rises with the cue up to the massé, where the tip holds the ball "
            "(~72° playing cue, ~76° jump cue): the fall checks hold the rise from 20 to 70°.",
            "Удар в центр; допуск 20 % или 3 мм, где шар уходит с наклейки раньше, чем отскок от плиты её "
            "встретит (последовательная модель). Выше отскок соскальзывает с наклейки и встречает лишь её "
            "концевую массу: прыжок ниже модели и растёт с наклоном до массе, где наклейка держит шар "
            "(~72° игровой кий, ~76° кий для перескока): проверки падения держат рост от 20 до 70°.",
        ),
    )


# --- roll-out and the slate ----------------------------------------------------------------------------------


def _diagonal(spec: TableSpec, margin: float = 0.1) -> tuple[tuple[float, float], tuple[float, float]]:
    """A start near the head-right corner and the unit direction to near the foot-left one."""
    a = (-spec.half_length + margin, -spec.half_width + margin)
    b = (spec.half_length - margin, spec.half_width - margin)
    L = math.dist(a, b)
    return a, ((b[0] - a[0]) / L, (b[1] - a[1]) / L)


def rollout(quick: bool) -> Fact:
    # The lag on the pool table (one 9 ft length, docs/physics.md §Cloth), then every table at a few speeds.
    cases = [("pool-9ft", 0.706)]
    if quick:
        cases.append(("snooker-12ft", 0.6))
    else:
        cases += [("pool-9ft", 0.3), ("pool-9ft", 0.5)]
        cases += [(t, v) for t in ("pyramid-12ft", "snooker-12ft", "snooker-10ft") for v in (0.3, 0.5, 0.7)]
    series: list[Series] = []
    checks = []
    sim: dict[str, tuple[list[float], list[float]]] = {}
    mu: dict[str, float] = {}
    for tid, v in cases:
        spec = load_table(tid)
        p = PhysicsParams.for_table(spec)
        start, u = _diagonal(spec)
        shot = ShotParams(ball="cue", cue_speed=_cue_speed(p, v, 0.4), direction=_deg(*u), tip=(0.0, 0.4))
        rec = _sim(spec, {"cue": start}, shot, p, hz=None)
        v0 = float(rec.of_type(EventType.CUE_STRIKE)[0].speed or 0.0)
        mu[tid] = _param(rec, "mu_roll", p)
        d_ref, t_ref = M.Cloth(p.mu_slide, mu[tid]).rollout(v0)
        end = rec.final["cue"].pos
        rest = rec.for_ball("cue", EventType.REST)
        d = math.dist(start, end[:2]) if end is not None else None
        t = rest[-1].t if rest else None
        sim.setdefault(tid, ([], []))
        if d is not None:
            sim[tid][0].append(v0)
            sim[tid][1].append(d)
        checks.append(
            Check(
                text(f"{tid} {v0:.3f} m/s: distance", f"{tid} {v0:.3f} м/с: путь"),
                d_ref,
                d,
                0.03 * d_ref,
                "m",
            )
        )
        checks.append(
            Check(
                text(f"{tid} {v0:.3f} m/s: time", f"{tid} {v0:.3f} м/с: время"), t_ref, t, 0.03 * t_ref, "s"
            )
        )
    grid = [0.01 * k for k in range(1, 101)]
    # One published curve per rolling resistance (the tables that share it), each table's points after it.
    for m_r in sorted(set(mu.values())):
        tables = [t for t, m in mu.items() if m == m_r]
        curve = tuple(v * v / (2 * m_r * M.G) for v in grid)
        names = ", ".join(tables)
        series.append(
            Series(
                text(f"v²/(2 mu_r g), mu_r {m_r:g}: {names}", f"v²/(2 mu_r g), mu_r {m_r:g}: {names}"),
                tuple(grid),
                curve,
                "published",
            )
        )
        for tid in tables:
            series.append(
                Series(
                    text(f"simulated, {tid}", f"симуляция, {tid}"),
                    tuple(sim[tid][0]),
                    tuple(sim[tid][1]),
                    points=True,
                )
            )
    series.append(
        Series(
            text("lag test: one 9 ft length (2.54 m) in 7.20 s", "лаг: одна длина 9 фт (2,54 м) за 7,20 с"),
            (0.706,),
            (2.54,),
            "published",
            points=True,
        )
    )
    return Fact(
        id="rollout",
        title=text("Roll-out of a rolling ball (the lag)", "Накат катящегося шара до остановки (лаг)"),
        source=text(
            "docs/physics.md §Cloth: d = v²/(2 mu_r g), t = v/(mu_r g); lag test TP B.2",
            "docs/physics.md §Cloth: d = v²/(2 mu_r g), t = v/(mu_r g); тест лага TP B.2",
        ),
        table="all",
        x_label=text("rolling speed, m/s", "скорость качения, м/с"),
        y_label=text("distance to rest, m", "путь до остановки, м"),
        series=tuple(series),
        checks=tuple(checks),
        note=text("Tolerance 3 % of distance and time.", "Допуск 3 % пути и времени."),
    )


def _hops(r: np.ndarray, R: float) -> list[tuple[float, float]]:
    """From the samples of a ball bouncing on the spot: (time it meets the slate again, apex of the hop before),
    an impact being where the vertical velocity turns from down to up."""
    z, vz = r[:, 3] - R, r[:, 6]
    out = []
    last = 0
    for k in np.nonzero((vz[:-1] < 0.0) & (vz[1:] > 0.0))[0].tolist():
        t_hit = float(r[k, 0] + min(z[k] / -vz[k], r[k + 1, 0] - r[k, 0]))
        out.append((t_hit, float(z[last : k + 1].max())))
        last = k + 1
    # The last hop ends on the cloth for good (the next would rise less than the Zeno guard): at the last row.
    if last < len(z) and float(z[last:].max()) > 1e-5:
        top = last + int(np.argmax(z[last:]))
        down = np.nonzero(z[top:] <= 1e-6)[0]
        end = top + int(down[0]) if len(down) else len(z) - 1
        out.append((float(r[end, 0]), float(z[last:].max())))
    return out


def slate_bounce(quick: bool) -> Fact:
    spec = load_table("pool-9ft")
    p = PhysicsParams.for_table(spec)
    R = spec.ball_radius
    # docs/physics.md §Flight's drop test as written: the ball let go 50 mm above the cloth. (A vertical cue is no drop:
    # the tip is still coming down when the ball comes back off the slate and catches it.)
    drop = 0.05
    v_in = math.sqrt(2 * M.G * drop)
    eng = Engine(spec, {"cue": (0.0, 0.0)}, p, sample_hz=HZ)
    eng.pos[0, 2] = R + drop
    eng.to_bullet(0)
    eng.run(None)
    assert eng.samples is not None
    r = np.asarray(eng.samples["cue"], dtype=float)
    et, guard = p.e_table, p.min_bounce
    ref = M.bounce_series(v_in, et, guard)
    # Times from the first impact (the first "hop" _hops finds is the drop itself).
    fall = _hops(r, R)
    t_first = fall[0][0] if fall else 0.0
    hops = [(t - t_first, apex) for t, apex in fall[1:]]
    r = r[r[:, 0] >= t_first]
    r[:, 0] -= t_first
    checks = []
    for k, (t_ref, apex_ref) in enumerate(ref):
        got = hops[k] if k < len(hops) else None
        n = k + 1
        checks.append(
            Check(
                text(f"hop {n}: apex", f"прыжок {n}: высота"),
                1000.0 * apex_ref,
                None if got is None else 1000.0 * got[1],
                0.3 + 0.1 * 1000.0 * apex_ref,
                "mm",
            )
        )
        checks.append(
            Check(
                text(f"impact {n + 1}: time", f"удар {n + 1}: время"),
                1000.0 * t_ref,
                None if got is None else 1000.0 * got[0],
                3.0,
                "ms",
            )
        )
    curve_t, curve_z = [], []
    t0, v = 0.0, v_in
    for t_end, _ in ref:
        v *= et
        for j in range(41):
            tt = t0 + (t_end - t0) * j / 40
            curve_t.append(tt)
            curve_z.append(1000.0 * (v * (tt - t0) - 0.5 * M.G * (tt - t0) ** 2))
        t0 = t_end
    end = ref[-1][0] + 0.05 if ref else 0.3
    keep = r[:, 0] <= end
    return Fact(
        id="slate-bounce",
        title=text("Slate bounce: a ball dropped from 50 mm", "Отскок от плиты: шар падает с 50 мм"),
        source=text(
            "docs/physics.md §Flight (TP B.10): each rebound e_t times the impact speed; apex ratio e_t²; "
            "the 50 mm drop test",
            "docs/physics.md §Flight (TP B.10): каждый отскок в e_t раз медленнее "
            "удара; отношение высот e_t²; тест падения с 50 мм",
        ),
        table=spec.id,
        x_label=text("time after the first impact, s", "время после первого удара, с"),
        y_label=text("height of the centre above rest, mm", "высота центра над покоем, мм"),
        series=(
            Series(
                text(f"TP B.10, e_t {et:g}", f"TP B.10, e_t {et:g}"),
                tuple(curve_t),
                tuple(curve_z),
                "published",
            ),
            Series(text("simulated", "симуляция"), tuple(r[keep, 0]), tuple(1000.0 * (r[keep, 3] - R))),
        ),
        checks=tuple(checks),
        note=text(
            f"The ball is let go {1000 * drop:g} mm above the cloth; hops under {1000 * guard:g} mm end on the "
            "cloth (the Zeno guard). Tolerances 10 % + 0.3 mm, 3 ms.",
            f"Шар отпущен в {1000 * drop:g} мм над сукном; прыжки ниже {1000 * guard:g} мм гасятся. "
            "Допуски 10 % + 0,3 мм, 3 мс.",
        ),
    )


# --- pockets ------------------------------------------------------------------------------------------------------

POCKET_SLOW, POCKET_FAST = 0.5, 2.0  # m/s at the mouth: a ball dying into the pocket, a firm pot
POCKET_ANGLES = (0.0, 20.0, 40.0)  # deg off the pocket's axis, from the long rail's side


def _corner_model(spec: TableSpec) -> CornerPocket:
    """TP 3.6's model with this table's corner: its ball, mouth, facings (the cut angle's excess over 135
    degrees), shelf (the corridor to the drop) and long rail; TP 3.6's own hole (the table gives none)."""
    pk = spec.pockets["foot-left"]
    cut = load_extras(spec.id).corner_cut_angle
    return CornerPocket(
        R=spec.ball_radius,
        mouth=pk.mouth,
        alpha=math.radians(cut - 135.0),
        shelf=pk.corridor,
        rail=spec.length,
    )


def _pots(spec: TableSpec, p: PhysicsParams, theta: float, offset: float, v: float) -> bool:
    """Does a rolling ball arriving at ``v`` on the line ``theta`` off the foot-left corner's axis, ``offset``
    across it from the centre of the mouth (positive towards the long rail), drop in that corner?"""
    pk = spec.pockets["foot-left"]
    R = spec.ball_radius
    mc = (pk.centre[0] - pk.axis[0] * pk.mouth / 2, pk.centre[1] - pk.axis[1] * pk.mouth / 2)
    a = math.atan2(pk.axis[1], pk.axis[0]) - math.radians(theta)
    u, n = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    back = 0.3
    while True:
        start = (mc[0] - u[0] * back + n[0] * offset, mc[1] - u[1] * back + n[1] * offset)
        if abs(start[0]) < spec.half_length - R - 1e-3 and abs(start[1]) < spec.half_width - R - 1e-3:
            break
        back += 0.02  # further back along the line, off the long rail it would otherwise overlap
    v0 = math.sqrt(v * v + 2 * p.mu_roll * M.G * back)
    shot = ShotParams(ball="cue", cue_speed=_cue_speed(p, v0, 0.4), direction=math.degrees(a), tip=(0.0, 0.4))
    rec = _sim(spec, {"cue": start}, shot, p, hz=None, seconds=3.0)
    return rec.final["cue"].pocket == "foot-left"


def _window(spec: TableSpec, p: PhysicsParams, theta: float, v: float, step: float) -> tuple[float, float]:
    """The halves of the effective target, as TP 3.6 counts them: from the centre of the mouth outwards on each
    side, the offsets that drop up to the first that does not (the edge is half a step past the last one in)."""
    halves = []
    for side in (1.0, -1.0):
        k = 0
        while k * step < 0.1 and _pots(spec, p, theta, side * (k + 1) * step, v):
            k += 1
        halves.append((k + 0.5) * step if _pots(spec, p, theta, 0.0, v) else 0.0)
    return halves[0], halves[1]


def _pocket_series(model: CornerPocket, got: dict[float, list[tuple[float, float]]]) -> list[Series]:
    """TP 3.6's curves, each followed by the engine's points for it (the plot gives them one colour)."""
    grid = [float(d) for d in range(0, 45)]
    ref = [model.target(math.radians(d)) for d in grid]
    slow = got[POCKET_SLOW]
    parts: tuple[tuple[str, str, int | None], ...] = (
        ("whole target", "вся цель", None),
        ("long-rail half", "половина у длинного борта", 0),
        ("short-rail half", "половина у короткого борта", 1),
    )

    def of(h: tuple[float, float], k: int | None) -> float:
        return 1e3 * (h[0] + h[1] if k is None else h[k])

    out = []
    for en, ru, k in parts:
        out.append(
            Series(
                text(f"TP 3.6: {en}", f"TP 3.6: {ru}"),
                tuple(grid),
                tuple(of(h, k) for h in ref),
                "published",
            )
        )
        out.append(
            Series(
                text(f"simulated, {POCKET_SLOW:g} m/s: {en}", f"симуляция, {POCKET_SLOW:g} м/с: {ru}"),
                POCKET_ANGLES,
                tuple(of(h, k) for h in slow),
                points=True,
            )
        )
    out.append(
        Series(
            text(
                f"simulated, {POCKET_FAST:g} m/s: whole target", f"симуляция, {POCKET_FAST:g} м/с: вся цель"
            ),
            POCKET_ANGLES,
            tuple(1e3 * (a + b) for a, b in got[POCKET_FAST]),
            points=True,
        )
    )
    return out


def pocket_target(quick: bool) -> Fact:
    """The pool corner's effective target at 0, 20 and 40 degrees off its axis, slow and firm.

    The published figures are TP 3.6's (Alciatore, "Effective target sizes for slow shots into a corner pocket at
    different angles", billiards.colostate.edu, 2008): its equations, written out in
    :mod:`physics.validation_pockets`, give 67.8, 61.6 and 74.6 mm for its own pocket and, with this table's
    corner (mouth, facings, 40 mm shelf), 66.0, 59.9 and 63.7 mm. TP 3.6 is for slow balls; that a faster ball
    finds every pocket smaller is TP 3.5-3.8, so the firm stroke's window may be no wider than
    the slow one's. TP 3.6's rail is a mirror; the engine's rolling ball leaves a rail it met 5 degrees off at
    2.6 degrees (docs/pockets.md), which is where the 40 degree long-rail half parts from it."""
    spec = load_table("pool-9ft")
    p = PhysicsParams.for_table(spec)
    model = _corner_model(spec)
    step = 0.002 if quick else 0.001
    got = {v: [_window(spec, p, th, v, step) for th in POCKET_ANGLES] for v in (POCKET_SLOW, POCKET_FAST)}
    series = _pocket_series(model, got)
    checks = []
    for th, (left, right), (fl, fr) in zip(POCKET_ANGLES, got[POCKET_SLOW], got[POCKET_FAST], strict=True):
        pub_l, pub_r = model.target(math.radians(th))
        v = POCKET_SLOW
        for what_en, what_ru, pub, sim in (
            ("target", "цель", pub_l + pub_r, left + right),
            ("long-rail half", "половина у длинного борта", pub_l, left),
            ("short-rail half", "половина у короткого борта", pub_r, right),
        ):
            checks.append(
                Check(
                    text(f"{th:g}°, {v:g} m/s: {what_en}", f"{th:g}°, {v:g} м/с: {what_ru}"),
                    1e3 * pub,
                    1e3 * sim,
                    9.0,
                    "mm",
                )
            )
        w = POCKET_FAST
        checks.append(
            Check(
                text(
                    f"{th:g}°, {w:g} m/s: wider than at {v:g} m/s by",
                    f"{th:g}°, {w:g} м/с: шире, чем при {v:g} м/с, на",
                ),
                0.0,
                max(0.0, 1e3 * (fl + fr - left - right)),
                1e3 * step,
                "mm",
            )
        )
    return Fact(
        id="pocket-target",
        title=text("Corner pocket: the effective target", "Угловая луза: действующая ширина цели"),
        source=text(
            "TP 3.6 (Alciatore, effective target sizes for slow shots into a corner pocket) with this table's "
            "pocket; TP 3.5-3.8: faster balls shrink every pocket",
            "TP 3.6 (Alciatore, действующая ширина угловой лузы для медленных шаров) с лузой этого стола; "
            "TP 3.5-3.8: быстрый шар сужает любую лузу",
        ),
        table=spec.id,
        x_label=text("approach angle off the pocket's axis, deg", "угол подхода к оси лузы, град"),
        y_label=text("offsets that drop, mm", "смещения, при которых шар падает, мм"),
        series=tuple(series),
        checks=tuple(checks),
        note=text(
            f"A rolling ball aimed across the mouth's centre; offsets in {1e3 * step:g} mm steps. Tolerance 9 mm "
            "(TP 3.6 is a two-dimensional model: lossless facings, a mirror bounce off the rail, no spin).",
            f"Катящийся шар через центр створа; шаг смещения {1e3 * step:g} мм. Допуск 9 мм (TP 3.6 - плоская "
            "модель: губки без потерь, зеркальный отскок от борта, без вращения).",
        ),
    )
