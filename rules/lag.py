"""The lag (розыгрыш начального удара): who breaks, decided on the table, not entered.

Two players, one ball each, each on their own side of the table's long axis, strike from the house
to the foot cushion and back; the ball that comes to rest nearer the head cushion wins. A ball loses
the lag outright when it (our reading of the texts, cited per fault):

* never touches the foot cushion (003: Общие правила, розыгрыш а; 000: 4. Розыгрыш начального удара);
* goes onto the opponent's half: its centre crosses the long axis (003 б; 000 §4). The texts do not
  say whether the edge or the centre counts; the centre is what the referee judges positions by
  everywhere else (003: Положение шара), so it is used here;
* falls into a pocket, or leaves the table (003 в; 000 §4);
* touches a long cushion (003 г). A middle pocket's jaw is part of a long cushion;
* pool only (000: Пул, Розыгрыш начального удара): stops in a head corner pocket's mouth beyond the
  head cushion's jaw, or touches the foot cushion twice or more.

When both balls lose, or both rest at the same distance (closer than ``TIE`` — what a referee can tell
apart), the lag is played again. The winner chooses to break or to give the break away; the app
takes "break" (the usual choice). The balls are struck together in a real lag; a simulator runs the
two strokes one after the other, the second with the first ball at rest where it stopped, so a ball
that crosses into the other half can meet it — and has lost by crossing already.

Pure Python over shot records (physics.record), like the rest of ``rules/``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from physics.record import BallStatus, EventType, ShotRecord
from physics.tables import TableSpec
from rules.ruling import Text

# Two rest distances closer than this are "the same": a referee with a ruler cannot split them, m.
TIE = 0.001

R_LAG_003 = "003: Общие правила, розыгрыш начального удара"
R_LAG_000 = "000: 4. Розыгрыш начального удара"
R_LAG_POOL = "000: Пул, Розыгрыш начального удара"

LONG_CUSHIONS = ("left-head", "left-foot", "right-head", "right-foot")
MIDDLE_POCKETS = ("left-middle", "right-middle")


class LagFault(StrEnum):
    NO_FOOT_CUSHION = "no_foot_cushion"
    OPPONENT_HALF = "opponent_half"
    POCKETED = "pocketed"
    OFF_TABLE = "off_table"
    LONG_CUSHION = "long_cushion"
    FOOT_TWICE = "foot_cushion_twice"  # pool
    HEAD_POCKET_MOUTH = "head_pocket_mouth"  # pool


FAULT_TEXT: Mapping[LagFault, tuple[str, str, str]] = {
    # fault: (en, ru, rule)
    LagFault.NO_FOOT_CUSHION: ("did not reach the foot cushion", "не коснулся заднего борта", R_LAG_003),
    LagFault.OPPONENT_HALF: ("went onto the opponent's half", "зашёл на половину соперника", R_LAG_003),
    LagFault.POCKETED: ("fell into a pocket", "упал в лузу", R_LAG_003),
    LagFault.OFF_TABLE: ("left the table", "выскочил за борт", R_LAG_003),
    LagFault.LONG_CUSHION: ("touched a long cushion", "коснулся длинного борта", R_LAG_003),
    LagFault.FOOT_TWICE: (
        "touched the foot cushion more than once",
        "коснулся заднего борта два раза и более",
        R_LAG_POOL,
    ),
    LagFault.HEAD_POCKET_MOUTH: (
        "stopped in a corner pocket's mouth behind the head cushion",
        "остановился в створе угловой лузы за губой переднего борта",
        R_LAG_POOL,
    ),
}


def is_pool(game: str) -> bool:
    return game.startswith("pool-") or game == "straight-pool"


@dataclass(frozen=True)
class LagBall:
    """One player's lag stroke: ``side`` is +1 for the half with y > 0, -1 for the other."""

    player: int
    ball: str
    side: int
    record: ShotRecord


@dataclass(frozen=True)
class LagResult:
    winner: int | None  # None: the lag is played again
    faults: Mapping[int, tuple[LagFault, ...]]
    distance: Mapping[int, float | None]  # centre to the head cushion's nose, m (None: not on the bed)
    rules: tuple[str, ...]
    explain: Text = field(default_factory=dict)


def _path_y(rec: ShotRecord, ball: str) -> list[float]:
    """Every y the ball's centre is known to have had: samples, event positions, the rest."""
    ys: list[float] = []
    if rec.samples and ball in rec.samples:
        ys += [row[2] for row in rec.samples[ball]]  # SampleRow: t, x, y, z, ...
    for e in rec.events:
        if e.involves(ball) and e.pos is not None:
            ys.append(e.pos[1])
    f = rec.final.get(ball)
    if f is not None and f.pos is not None:
        ys.append(f.pos[1])
    return ys


def lag_faults(table: TableSpec, game: str, lb: LagBall) -> tuple[LagFault, ...]:
    rec, b = lb.record, lb.ball
    out: list[LagFault] = []
    cushions = [e.cushion for e in rec.events if e.type == EventType.CUSHION and e.involves(b)]
    jaws = [e.pocket for e in rec.events if e.type == EventType.POCKET_JAW and e.involves(b)]
    if "foot" not in cushions:
        out.append(LagFault.NO_FOOT_CUSHION)
    if any(lb.side * y < 0.0 for y in _path_y(rec, b)):
        out.append(LagFault.OPPONENT_HALF)
    f = rec.final.get(b)
    if b in rec.pocketed() or (f is not None and f.status == BallStatus.POCKETED):
        out.append(LagFault.POCKETED)
    elif (
        f is None
        or f.status == BallStatus.OFF_TABLE
        or any(e.type == EventType.LEFT_TABLE and e.involves(b) for e in rec.events)
    ):
        out.append(LagFault.OFF_TABLE)
    if any(c in LONG_CUSHIONS for c in cushions) or any(p in MIDDLE_POCKETS for p in jaws):
        out.append(LagFault.LONG_CUSHION)
    if is_pool(game):
        if cushions.count("foot") >= 2:
            out.append(LagFault.FOOT_TWICE)
        end = _rest(lb)
        if end is not None and end[0] < -table.length / 2 + table.ball_radius - TIE:
            out.append(LagFault.HEAD_POCKET_MOUTH)
    return tuple(out)


def _rest(lb: LagBall) -> tuple[float, float] | None:
    f = lb.record.final.get(lb.ball)
    if f is None or f.status != BallStatus.ON_TABLE or f.pos is None:
        return None
    return (f.pos[0], f.pos[1])


def judge_lag(table: TableSpec, game: str, balls: Sequence[LagBall]) -> LagResult:
    """Who won the lag (``winner`` None: it is played again)."""
    faults = {lb.player: lag_faults(table, game, lb) for lb in balls}
    distance: dict[int, float | None] = {}
    for lb in balls:
        end = _rest(lb)
        distance[lb.player] = None if end is None else end[0] + table.length / 2
    clean = [lb.player for lb in balls if not faults[lb.player] and distance[lb.player] is not None]
    rules = [R_LAG_POOL if is_pool(game) else R_LAG_003, R_LAG_000]
    winner: int | None = None
    if len(clean) == 1:
        winner = clean[0]
    elif clean:
        ranked = sorted(clean, key=lambda p: distance[p])  # type: ignore[arg-type, return-value]
        d0, d1 = distance[ranked[0]], distance[ranked[1]]
        assert d0 is not None
        assert d1 is not None
        if d1 - d0 >= TIE:
            winner = ranked[0]
    return LagResult(winner, faults, distance, tuple(rules), _explain(balls, faults, distance, winner))


def _explain(
    balls: Sequence[LagBall],
    faults: Mapping[int, tuple[LagFault, ...]],
    distance: Mapping[int, float | None],
    winner: int | None,
) -> Text:
    en: list[str] = []
    ru: list[str] = []
    for lb in balls:
        p = lb.player
        if faults[p]:
            en.append(f"Player {p + 1}'s ball " + ", ".join(FAULT_TEXT[f][0] for f in faults[p]) + ": lost.")
            ru.append(f"Шар игрока {p + 1} " + ", ".join(FAULT_TEXT[f][1] for f in faults[p]) + ": проигрыш.")
        else:
            d = distance[p]
            cm = f"{d * 100:.1f}" if d is not None else "?"
            en.append(f"Player {p + 1}'s ball stopped {cm} cm from the head cushion.")
            ru.append(f"Шар игрока {p + 1} остановился в {cm} см от переднего борта.")
    if winner is None:
        en.append("The lag is played again.")
        ru.append("Розыгрыш повторяется.")
    else:
        en.append(f"Player {winner + 1} wins the lag and breaks.")
        ru.append(f"Розыгрыш выиграл игрок {winner + 1}: он разбивает.")
    return {"en": " ".join(en), "ru": " ".join(ru)}


def lag_spot(table: TableSpec, side: int) -> tuple[float, float]:
    """Where a lag ball starts: in the house, three radii behind its line, a quarter width off the axis."""
    head = table.lines.get("head-string", -table.length / 4)
    return (head - 3 * table.ball_radius, side * table.width / 4)
