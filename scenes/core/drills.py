"""Drills: practice positions with a success condition, judged from the shot record (no Panda3D here).

A drill is a scenario file under ``assets/drills/`` with a ``[drill]`` table that states what success is:

```toml
[drill]
family = "pyramid"                     # pyramid | snooker | pool: the drills screen groups by it
goal = { en = "Pot the 1 into the foot-left corner", ru = "Забейте шар 1 в левую дальнюю лузу" }
first_contact = "1"                    # optional: the ball the struck ball must meet first
[[drill.pot]]                          # every listed ball must drop, into its pocket ("any": any pocket)
ball = "1"
pocket = "foot-left"
after_cushion = false                  # optional: the ball must have met a cushion before it dropped
[drill.cue_zone]                       # optional: where the struck ball must come to rest
rect = [0.2, -0.3, 0.6, 0.3]           # x0, y0, x1, y1 in the table frame, metres
# or: centre = [0.9, 0.0], radius = 0.15
```

The struck ball must also stay on the table (unless a ``[[drill.pot]]`` asks for it: a свояк), and
no other ball may leave the table. The judge reads only the shot record's events and final positions, so
a drill is judged the same for a stroke played in the window, simulated from the file, or recorded.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from physics.errors import InputError
from physics.record import BallStatus, EventType, ShotRecord

DRILL_DIR = Path(__file__).resolve().parents[2] / "assets" / "drills"
FAMILIES = ("pyramid", "snooker", "pool")


@dataclass(frozen=True)
class Pot:
    ball: str
    pocket: str  # a pocket id, or "any"
    after_cushion: bool = False


@dataclass(frozen=True)
class Zone:
    rect: tuple[float, float, float, float] | None = None
    centre: tuple[float, float] | None = None
    radius: float = 0.0

    def contains(self, x: float, y: float) -> bool:
        if self.rect is not None:
            x0, y0, x1, y1 = self.rect
            return min(x0, x1) <= x <= max(x0, x1) and min(y0, y1) <= y <= max(y0, y1)
        assert self.centre is not None
        return math.hypot(x - self.centre[0], y - self.centre[1]) <= self.radius


@dataclass(frozen=True)
class Drill:
    id: str
    path: Path
    family: str
    title: Mapping[str, str]
    goal: Mapping[str, str]
    scenario: Any  # physics.scenario.Scenario
    pots: tuple[Pot, ...] = ()
    cue_zone: Zone | None = None
    first_contact: str | None = None

    @property
    def struck(self) -> str:
        return self.scenario.shot.ball if self.scenario.shot is not None else "cue"


@dataclass(frozen=True)
class Verdict:
    success: bool
    reasons: tuple[tuple[str, dict[str, Any]], ...]  # (text key, fields) of every condition missed

    def detail(self) -> dict[str, Any]:
        return {"success": self.success, "missed": [[k, f] for k, f in self.reasons]}


def _text(file: str, key: str, v: Any) -> dict[str, str]:
    if not (isinstance(v, Mapping) and all(isinstance(v.get(k), str) and v.get(k) for k in ("en", "ru"))):
        raise InputError(file, key, 'a table { en = "...", ru = "..." }')
    return {"en": str(v["en"]), "ru": str(v["ru"])}


def _numbers(v: Any, n: int) -> TypeGuard[list[float]]:
    """``v`` is a list of ``n`` finite numbers (not flags: TOML's true is not 1 m)."""
    return (
        isinstance(v, list)
        and len(v) == n
        and all(isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c) for c in v)
    )


def _zone(file: str, v: Any) -> Zone:
    if not isinstance(v, Mapping):
        raise InputError(file, "drill.cue_zone", "a table with rect = [x0, y0, x1, y1] or centre and radius")
    if "rect" in v:
        r = v["rect"]
        if not _numbers(r, 4):
            raise InputError(file, "drill.cue_zone.rect", "four finite numbers [x0, y0, x1, y1] in metres")
        return Zone(rect=(float(r[0]), float(r[1]), float(r[2]), float(r[3])))
    c, rad = v.get("centre"), v.get("radius")
    if not _numbers(c, 2):
        raise InputError(file, "drill.cue_zone.centre", "two finite numbers [x, y] in metres")
    if isinstance(rad, bool) or not (isinstance(rad, (int, float)) and 0 < rad < 2):
        raise InputError(file, "drill.cue_zone.radius", "a radius in metres, 0..2")
    return Zone(centre=(float(c[0]), float(c[1])), radius=float(rad))


def _pots(file: str, raw: Any, scenario: Any) -> list[Pot]:
    """``[[drill.pot]]``: each a ball of the layout, a pocket of the table (or "any"), a flag."""
    if not isinstance(raw, list):
        raise InputError(file, "drill.pot", "an array of tables ([[drill.pot]] with ball and pocket)")
    pots = []
    for i, p in enumerate(raw):
        key = f"drill.pot[{i}]"
        if not (isinstance(p, Mapping) and isinstance(p.get("ball"), str)):
            raise InputError(file, f"{key}.ball", "a ball id")
        pocket = p.get("pocket", "any")
        if not isinstance(pocket, str) or (pocket != "any" and pocket not in scenario.table.pockets):
            raise InputError(
                file, f"{key}.pocket", f"a pocket id or any: {', '.join(scenario.table.pockets)}"
            )
        if p["ball"] not in scenario.balls:
            raise InputError(file, f"{key}.ball", f"a ball of [balls] ({', '.join(scenario.balls)})")
        after = p.get("after_cushion", False)
        if not isinstance(after, bool):
            raise InputError(file, f"{key}.after_cushion", "true or false")
        pots.append(Pot(p["ball"], pocket, after))
    return pots


def load_drill(path: str | Path) -> Drill:
    """Read a drill file; one InputError line for anything wrong with it."""
    from physics.files import read_toml
    from rules.scenarios import parse_scenario

    file = str(path)
    data = read_toml(path, "drill file")
    raw = data.pop("drill", None)
    if not isinstance(raw, dict):
        raise InputError(file, "drill", "a [drill] table stating the success condition")
    scenario = parse_scenario(data, file)
    family = raw.get("family")
    if family not in FAMILIES:
        raise InputError(file, "drill.family", f"one of {', '.join(FAMILIES)}")
    pots = _pots(file, raw.get("pot", []), scenario)
    zone = _zone(file, raw["cue_zone"]) if "cue_zone" in raw else None
    first = raw.get("first_contact")
    if first is not None and (not isinstance(first, str) or first not in scenario.balls):
        raise InputError(file, "drill.first_contact", f"a ball of [balls] ({', '.join(scenario.balls)})")
    if not pots and zone is None:
        raise InputError(file, "drill", "at least one [[drill.pot]] or a [drill.cue_zone]")
    title = (
        scenario.title
        if isinstance(scenario.title, Mapping) and scenario.title
        else _text(file, "title", None)
    )
    return Drill(
        id=Path(path).stem,
        path=Path(path),
        family=str(family),
        title=dict(title),
        goal=_text(file, "drill.goal", raw.get("goal")),
        scenario=scenario,
        pots=tuple(pots),
        cue_zone=zone,
        first_contact=first,
    )


def drill_library(folder: Path = DRILL_DIR) -> list[Drill]:
    """Every drill of the library, grouped by family in FAMILIES order, then by file name."""
    drills = [load_drill(p) for p in sorted(folder.glob("*.toml"))]
    return sorted(drills, key=lambda d: (FAMILIES.index(d.family), d.id))


def judge(drill: Drill, record: ShotRecord) -> Verdict:
    """Did the stroke in ``record`` do what the drill asks?"""
    missed: list[tuple[str, dict[str, Any]]] = []
    struck = drill.struck
    first = next(
        (e for e in record.events if e.type == EventType.BALL_BALL and e.balls and struck in e.balls), None
    )
    if drill.first_contact is not None:
        hit = None if first is None or first.balls is None else next(b for b in first.balls if b != struck)
        if hit != drill.first_contact:
            missed.append(("drill.missed.first", {"ball": drill.first_contact}))
    for pot in drill.pots:
        final = record.final.get(pot.ball)
        ok = final is not None and final.status == BallStatus.POCKETED
        ok = ok and (pot.pocket == "any" or (final is not None and final.pocket == pot.pocket))
        if ok and pot.after_cushion:
            drop = next(
                (e.t for e in record.events if e.type == EventType.POCKETED and e.ball == pot.ball), math.inf
            )
            ok = any(e.type == EventType.CUSHION and e.ball == pot.ball and e.t < drop for e in record.events)
        if not ok:
            key = "drill.missed.double" if pot.after_cushion else "drill.missed.pot"
            missed.append((key, {"ball": pot.ball, "pocket": pot.pocket}))
    asked = {p.ball for p in drill.pots}
    for ball, final in record.final.items():
        if final.status == BallStatus.OFF_TABLE:
            missed.append(("drill.missed.off", {"ball": ball}))
        elif ball == struck and final.status == BallStatus.POCKETED and struck not in asked:
            missed.append(("drill.missed.scratch", {"ball": ball}))
    if drill.cue_zone is not None:
        final = record.final.get(struck)
        pos = final.pos if final is not None and final.status == BallStatus.ON_TABLE else None
        if pos is None or not drill.cue_zone.contains(float(pos[0]), float(pos[1])):
            missed.append(("drill.missed.zone", {"ball": struck}))
    return Verdict(not missed, tuple(missed))


def verdict_text(verdict: Verdict, lang: str) -> str:
    """The verdict in words («Упражнение выполнено» / "Missed: the 1 did not drop into ...")."""
    from scenes.core.i18n import ball_name, pocket_name, tr

    if verdict.success:
        return tr("drill.success", lang)
    parts = []
    for key, f in verdict.reasons:
        fields = dict(f)
        if "ball" in fields:
            fields["ball"] = ball_name(str(fields["ball"]), lang)
        if "pocket" in fields:
            p = str(fields["pocket"])
            fields["pocket"] = tr("drill.any_pocket", lang) if p == "any" else pocket_name(p, lang)
        parts.append(tr(key, lang, **fields))
    return tr("drill.failed", lang, why="; ".join(parts))


def simulate_drill(drill: Drill, settings: Any, shot: Any = None) -> ShotRecord:
    """The drill's stroke (its file's [shot], or ``shot``) simulated by the physics."""
    from physics.params import PhysicsParams
    from physics.simulate import simulate

    sc = drill.scenario
    shot = shot if shot is not None else sc.shot
    if shot is None:
        raise InputError(str(drill.path), "shot", "a [shot] to simulate")
    ph = settings.physics
    params = PhysicsParams.for_table(
        sc.table, ph.overrides, substep_hz=ph.substep_hz, max_stroke_seconds=ph.max_stroke_seconds
    )
    return simulate(
        sc.table, dict(sc.balls), shot, params=params, objects=sc.objects, lamp=settings.lamp_position
    )


def drill_command(args: Any, settings: Any) -> int:
    """``main.py drill --list`` (the library with each drill's attempts and success rate) or
    ``main.py drill FILE`` (simulate the file's stroke and judge it)."""
    from scenes.core.archive import Archive
    from scenes.core.i18n import tr

    lang = settings.lang
    if args.file:
        drill = load_drill(args.file)
        verdict = judge(drill, simulate_drill(drill, settings))
        print(f"{drill.title[lang]}: {verdict_text(verdict, lang)}")
        return 0
    with Archive.open(settings, readonly=True) as arch:  # only reads: a read-only data folder is fine
        progress = arch.drill_progress()
    print(tr("drill.list_title", lang))
    for d in drill_library():
        n, ok = progress.get(d.id, (0, 0))
        rate = tr("drill.rate", lang, ok=ok, n=n, pct=round(100 * ok / n)) if n else tr("drill.untried", lang)
        print(f"  {d.id:<28} {tr(f'drill.family.{d.family}', lang):<10} {d.goal[lang]}  [{rate}]")
    return 0
