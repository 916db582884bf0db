"""Every spot and line of every table is where its source puts it, and every game's opening rack stands where
its rules say, with no two balls overlapping (issue 13 §4: the snooker black spot was 524 mm from the top
cushion, and the 10 ft table's rack, scaled from it, pushed the black off its spot).

The sources, each as a formula of the bed's length L and width W (nose to nose, docs/physics.md §Tables):
- Russian pyramid [ABPF §2.1]: front spot and house line L/4 from the head cushion; back spot (the pyramid's
  apex, 003: «Начальный удар») L/4 from the foot cushion; centre spot in the middle.
- Pool [WPA rules 8.1]: head string and head spot L/4 from the head cushion, foot string and foot spot L/4 from
  the foot cushion; WPA racking: the apex (8-ball, 14.1) or the front ball of the diamond (9-ball) on the foot
  spot.
- Snooker 12 ft [WPBSA S1 R1]: baulk line 737 mm from the bottom cushion face, D radius 292 mm on it, the spot
  (black) 324 mm from the top cushion face, the pyramid spot (pink) midway between the centre spot (blue) and the
  top cushion face, brown in the middle of the baulk line, yellow and green at the D's right and left ends seen
  from baulk. WPBSA S3 R2: the reds a tight triangle, the apex red on the centre line as close to the pink as
  possible without touching it; the colours on their spots.
- American snooker, 10 ft: no body publishes its markings; a smaller table has the same markings scaled down
  with it (Wikipedia "Rules of snooker", the table; the B&SCC metric table gives them as fractions of the bed),
  by the ratio of the lengths. Its balls (54 mm) are not scaled.
- Golf (000 «Гольф», «Начальная стадия игры»): the object ball on the back (foot) spot, the cue ball on the
  centre spot, on every table golf is played on.
"""

from __future__ import annotations

import itertools
import math

import pytest

from physics.racks import initial_layout
from physics.tables import TABLE_IDS, TableSpec, load_table
from rules.base import Referee
from rules.registry import get_referee, referees

MARK_TOL = 0.5e-3  # m: a spot drawn on the cloth, to half a millimetre
INCH = 0.0254

Marks = dict[str, tuple[float, float]]


def _quarter_marks(t: TableSpec) -> Marks:
    q = t.length / 4
    return {"head-spot": (-q, 0.0), "centre-spot": (0.0, 0.0), "foot-spot": (q, 0.0)}


def _snooker_marks(t: TableSpec, scale: float) -> Marks:
    hl = t.half_length
    baulk = -hl + 0.737 * scale  # 29 in [WPBSA]
    d = 0.292 * scale  # 11 1/2 in
    black = hl - 0.324 * scale  # 12 3/4 in
    return {
        "head-spot": (baulk, 0.0),
        "centre-spot": (0.0, 0.0),
        "foot-spot": (black, 0.0),
        "yellow": (baulk, -d),
        "green": (baulk, d),
        "brown": (baulk, 0.0),
        "blue": (0.0, 0.0),
        "pink": (hl / 2, 0.0),
        "black": (black, 0.0),
    }


def source_marks(table_id: str) -> tuple[Marks, float | None]:
    """The spots and the D radius of a table, from its source (the module's docstring)."""
    t = load_table(table_id)
    if table_id in ("pyramid-12ft", "pool-9ft"):
        return _quarter_marks(t), None
    scale = 1.0 if table_id == "snooker-12ft" else t.length / load_table("snooker-12ft").length
    return _snooker_marks(t, scale), 0.292 * scale


def test_the_wpbsa_numbers_in_inches() -> None:
    # The metric figures the formulas use are WPBSA's own conversions of its inches.
    for inches, metres in ((29, 0.737), (11.5, 0.292), (12.75, 0.324)):
        assert inches * INCH == pytest.approx(metres, abs=MARK_TOL)


@pytest.mark.parametrize("table_id", TABLE_IDS)
def test_every_spot_where_its_source_puts_it(table_id: str) -> None:
    t = load_table(table_id)
    marks, d_radius = source_marks(table_id)
    assert set(t.spots) == set(marks), table_id
    for name, (x, y) in marks.items():
        sx, sy = t.spot(name)
        assert math.hypot(sx - x, sy - y) <= MARK_TOL, (table_id, name, (sx, sy), (x, y))
    assert t.lines["head-string"] == pytest.approx(marks["head-spot"][0], abs=MARK_TOL)
    assert t.lines["centre-line"] == 0.0
    if d_radius is None:
        assert t.d_radius is None
        assert t.lines["foot-string"] == pytest.approx(marks["foot-spot"][0], abs=MARK_TOL)
    else:
        assert t.d_radius == pytest.approx(d_radius, abs=MARK_TOL)


def test_black_spot_324_mm_from_the_top_cushion() -> None:
    """The defect itself: 12 3/4 in from the top cushion face, not 524 mm."""
    t = load_table("snooker-12ft")
    assert t.half_length - t.spot("black")[0] == pytest.approx(0.324, abs=MARK_TOL)


def _games_and_tables() -> list[tuple[str, str, int]]:
    out = []
    for ref in referees():
        lo, hi = ref.player_range
        for table in ref.tables():
            for n in sorted({lo, hi}):
                out.append((ref.id, table, n))
    return out


def _apex(layout: Marks, balls: list[str]) -> tuple[str, tuple[float, float]]:
    """The racked ball nearest the head cushion: the apex of a triangle, the front of a diamond."""
    b = min(balls, key=lambda k: layout[k][0])
    return b, layout[b]


def _check_rack(ref: Referee, layout: Marks, t: TableSpec) -> None:
    spot = t.spot
    R = t.ball_radius
    if ref.family == "golf":
        assert layout["cue"] == spot("centre-spot")
        assert layout["1"] == spot("foot-spot")
        return
    if ref.family == "snooker":
        for c in ("yellow", "green", "brown", "blue", "pink", "black"):
            assert layout[c] == spot(c), (ref.id, c)
        reds = [b for b in layout if b.startswith("red")]
        assert len(reds) == 15
        _, (ax, ay) = _apex(layout, reds)
        px, py = spot("pink")
        # As close to the pink as possible without touching it: a gap, and no more than a couple of mm.
        gap = math.hypot(ax - px, ay - py) - 2 * R
        assert ay == py, (ref.id, gap)
        assert 0.0 < gap <= 2e-3, (ref.id, gap)
        return
    objects = [b for b in layout if b != "cue"]
    front, at = _apex(layout, objects)
    assert at == pytest.approx(spot("foot-spot"), abs=1e-9), (ref.id, front)
    if ref.id == "pool-9-ball":
        assert front == "1"  # WPA 9-ball: the 1 at the front of the diamond


@pytest.mark.parametrize(("game", "table_id", "n_players"), _games_and_tables())
def test_every_rack_where_its_rules_put_it(game: str, table_id: str, n_players: int) -> None:
    ref = get_referee(game, table_id)
    t = load_table(table_id)
    spec = ref.rack_spec(n_players)
    for seed in (None, 7):
        layout = initial_layout(spec, t, seed)
        if seed is None:
            _check_rack(ref, layout, t)
        for b, (x, y) in layout.items():
            assert t.on_bed(x, y), (game, b)
        for (a, p), (b, q) in itertools.combinations(layout.items(), 2):
            assert math.dist(p, q) >= 2 * t.ball_radius, (game, table_id, seed, a, b, math.dist(p, q))


def test_snooker_racks_leave_the_black_on_its_spot() -> None:
    """On both snooker tables the reds clear the black spot by more than a ball (the 10 ft rack used to take it)."""
    for game in ("snooker", "american-snooker"):
        ref = get_referee(game)
        layout = ref.rack(2)
        black = ref.table.spot("black")
        nearest = min(math.dist(p, black) for b, p in layout.items() if b.startswith("red"))
        assert layout["black"] == black
        assert nearest > 4 * ref.table.ball_radius, (game, nearest)
