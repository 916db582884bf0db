"""The registry as the one source of truth for a game, and the typed contract (issue 12 §3-4)."""

from __future__ import annotations

import json
import math
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from physics.errors import InputError
from physics.racks import Rack
from rules.base import Draft, Referee, Stroke
from rules.contract import (
    CallKind,
    Choose,
    Family,
    FoulCode,
    InHand,
    LagWinner,
    Option,
    Phase,
    PickBall,
    RefereeWarning,
    WarningCode,
    parse_decision,
)
from rules.frozen import FrozenMap
from rules.notation import record
from rules.registration import register
from rules.registry import forget, game_ids, games, games_for_table, get_referee
from rules.ruling import Foul
from rules.scenarios import parse_scenario
from rules.state import MatchState

ROOT = Path(__file__).resolve().parents[2]


class _Throwaway(Referee):
    """A game written for this test only: one object ball, anything pocketed scores one."""

    id = "test-throwaway"
    table_id = "pool-9ft"
    family = Family.POOL
    names: ClassVar[dict[str, str]] = {"en": "Throwaway", "ru": "Одноразовая"}
    aliases = ("throwaway",)
    balls = ("cue", "7")
    break_in_hand = InHand.ANYWHERE

    def rack_spec(self, n_players: int) -> Rack:
        return Rack(spots=(("7", "foot-spot"),))

    def check_fouls(self, s: Stroke, d: Draft) -> None:
        if s.first is None:
            d.fouls.append(self.foul(FoulCode.MISS, "test", "missed", "промах"))

    def count(self, s: Stroke, d: Draft) -> None:
        d.counted = [] if d.foul else [b for b in s.pocketed if b != "cue"]
        d.points[s.striker] = len(d.counted)


@pytest.fixture
def throwaway() -> Iterator[Referee]:
    before = [g.id for g in games()]
    register(_Throwaway)
    try:
        yield get_referee("test-throwaway")
    finally:
        forget("test-throwaway")
    assert [g.id for g in games()] == before


def test_a_throwaway_game_is_one_class_and_every_other_game_still_works(throwaway: Referee) -> None:
    assert "test-throwaway" in game_ids()
    assert get_referee("Throwaway") is throwaway
    assert "test-throwaway" in games_for_table("pool-9ft")
    # The scenario loader knows it through the registry (physics never imports the rules).
    sc = parse_scenario({"game": "test-throwaway", "balls": {"cue": [-0.5, 0.0], "7": [0.5, 0.1]}}, "t.toml")
    assert sc.table.id == "pool-9ft"
    with pytest.raises(InputError) as exc:
        parse_scenario({"game": "test-throwaway", "balls": {"cue": [-0.5, 0.0], "8": [0.5, 0.1]}}, "t.toml")
    assert exc.value.key == "balls.8"
    st = MatchState.new(throwaway)
    assert st.balls == {"7": throwaway.table.spot("foot-spot")}
    assert st.in_hand == InHand.ANYWHERE
    rec = record("cue=-0.5,0 7=0.5,0.1", "cue>7 7@foot-left", table="pool-9ft")
    r = throwaway.judge(MatchState.from_scenario(throwaway, {}, {"cue": (-0.5, 0.0), "7": (0.5, 0.1)}), rec)
    assert r.counted == ("7",)
    assert r.scores == (1, 0)
    # Every registered game still racks, judges a plain stroke and carries the ruling out.
    for gid in game_ids():
        ref = get_referee(gid)
        n = ref.player_range[0]
        fresh = MatchState.new(ref, tuple(f"P{i}" for i in range(n)))
        assert fresh.game == gid
        assert fresh.rules is ref
        layout = dict(fresh.balls)
        layout.setdefault(ref.cue_ball, ref.hand_spot(fresh, layout))
        rec = record({b: p for b, p in layout.items()}, "", table=ref.table_id)
        st = MatchState.from_scenario(ref, {}, layout, "t")
        ruling = ref.judge(st, rec)
        st.apply(ruling)


def test_a_throwaway_game_is_offered_everywhere_a_game_is(
    throwaway: Referee, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Registered after everything was imported, the game is in ``games``, the menu, the settings, scenario
    files (``referee``), the match and its HUD, and the trainer (its family, its questions)."""
    from main import run
    from physics.record import ShotParams
    from rules.cli import games_command
    from scenes.core.match import MatchController
    from scenes.core.scoreboard import hud_text
    from scenes.core.settings import parse_settings
    from scenes.core.trainer.questions import family
    from scenes.screens.menu import match_games

    assert games_command("en") == 0
    assert "test-throwaway" in capsys.readouterr().out
    assert "test-throwaway" in match_games()
    assert parse_settings({"game": {"default": "test-throwaway"}}).game.default == "test-throwaway"
    f = tmp_path / "t.toml"
    f.write_text(
        'game = "test-throwaway"\n[balls]\ncue = [-0.5, 0.0]\n"7" = [0.5, 0.0]\n[shot]\ncue_speed = 1.5\n',
        encoding="utf-8",
    )
    assert run(["--lang", "en", "referee", str(f), "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["ruling"]["counted"] in ([], ["7"])
    m = MatchController(game="test-throwaway", names=("A", "B"), lang="en")
    assert m.state is not None
    assert m.in_hand == "anywhere"
    m.ensure_cue_ball()
    result = m.stroke(ShotParams(cue_speed=1.0, direction=0.0))
    assert result.ruling is not None
    assert "Throwaway" in hud_text(m.snapshot(), "en")["score"] + m.snapshot().game_name
    assert family("test-throwaway") == "wpa"


def test_registration_checks_what_a_game_must_declare() -> None:
    class NoNames(_Throwaway):
        id = "test-no-names"
        names: ClassVar[dict[str, str]] = {"en": "x"}

    class BadTable(_Throwaway):
        id = "test-bad-table"
        table_id = "carom-10ft"

    class AlienBall(_Throwaway):
        id = "test-alien-ball"
        balls = ("cue", "pink")  # not a ball of the pool table

    class Practice(_Throwaway):
        id = "practice"

    class Clash(_Throwaway):
        id = "test-clash"
        aliases = ("71",)  # Russian pyramid's

    for cls in (NoNames, BadTable, AlienBall, Practice, Clash):
        with pytest.raises(ValueError):
            register(cls)
        assert cls.id not in game_ids() or cls.id == "practice"


def test_the_match_state_does_not_import_the_registry() -> None:
    code = "import sys, rules.state, rules.base; print('rules.registry' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_game_declares_family_table_balls_rack_and_calls() -> None:
    called = {g for g in game_ids() if get_referee(g).calls}
    assert {"russian-pyramid", "russian-pyramid-fast", "straight-pool"} <= called
    for gid in game_ids():
        ref = get_referee(gid)
        assert isinstance(ref.family, Family)
        assert ref.table_id in ref.tables()
        assert set(ref.rack(ref.player_range[1])) <= set(ref.ball_set(ref.player_range[1]))
        assert set(ref.names) == {"en", "ru"}
    assert get_referee("golf").family == Family.GOLF
    assert get_referee("american").family == Family.RUSSIAN


def test_decisions_are_one_typed_union_and_strings_still_read() -> None:
    assert parse_decision("play_on") == Choose(Option.PLAY_ON)
    assert parse_decision("lag:1") == LagWinner(1)
    assert parse_decision("7") == PickBall("7")
    with pytest.raises(InputError):
        parse_decision("lag:x")
    st, r = _foul_71()
    assert st.apply(r, Choose(Option.PLAY_ON)) == st.apply(r, "play_on")
    assert st.apply(r, Choose(Option.PLAY_ON)).to_play == r.striker
    with pytest.raises(InputError):
        st.apply(r, Choose(Option.MAKE_OFFENDER_REPLAY))  # not offered by this ruling
    with pytest.raises(InputError):
        st.apply(r, PickBall("7"))


def _foul_71() -> tuple[MatchState, Any]:
    ref = get_referee("russian-pyramid")
    rec = record("cue=-1.2,0 7=0.5,0.1", "cue|foot")
    st = MatchState.from_scenario(ref, {"to_play": 0, "break": False}, {"cue": (-1.2, 0.0), "7": (0.5, 0.1)})
    return st, ref.judge(st, rec)


def test_rulings_and_states_are_read_only_hashable_and_picklable() -> None:
    st, r = _foul_71()
    assert isinstance(r.positions, FrozenMap)
    assert isinstance(st.balls, FrozenMap)
    with pytest.raises(TypeError):
        r.positions["7"] = (0.0, 0.0)  # type: ignore[index]
    with pytest.raises(TypeError):
        r.fouls[0].explain["en"] = "x"  # type: ignore[index]
    assert hash(r.positions) == hash(FrozenMap(dict(r.positions)))
    assert pickle.loads(pickle.dumps(r)) == r
    assert r.fouls[0].code is FoulCode.MISS
    assert r.phase is Phase.PLAY
    with pytest.raises(ValueError):
        Foul("not_a_code", "rule", {"en": "", "ru": ""})  # type: ignore[arg-type]


def test_family_state_reads_old_files_and_writes_the_same_json() -> None:
    """docs/formats.md: extend, never rename - [state.extra] and the ruling's "extra" keep their shape."""
    ref = get_referee("pool-8-ball")
    st = MatchState.from_scenario(
        ref,
        {"break": False, "extra": {"groups": ["solids", "stripes"]}},
        {"cue": (-0.9, 0.0), "3": (0.5, 0.2)},
    )
    assert st.extra["groups"] == ["solids", "stripes"]
    rec = record("cue=-0.9,0 3=0.5,0.2", "cue>3 3@foot-left", table="pool-9ft")
    d = ref.judge(st, rec).to_dict()
    assert d["extra"] == {"opening_by": -1, "groups": ["solids", "stripes"]}
    json.dumps(d)
    with pytest.raises(InputError) as exc:
        MatchState.from_scenario(ref, {"extra": {"push_out": True}}, {"cue": (-0.9, 0.0)}, "f.toml")
    assert exc.value.key == "state.extra.push_out"


def test_warnings_are_match_state_read_from_files_and_implied_by_old_counters() -> None:
    ref = get_referee("snooker")
    balls = {"cue": (-1.2, 0.0), "red1": (0.5, 0.1)}
    st = MatchState.from_scenario(ref, {"warnings": [{"code": "third_miss", "player": 1}]}, balls, "f")
    assert st.warnings == (RefereeWarning(WarningCode.THIRD_MISS, 1),)
    assert st.warned(WarningCode.THIRD_MISS, 1)
    old = MatchState.from_scenario(ref, {"extra": {"misses": 2, "miss_by": 0}}, balls, "f")
    assert old.warned(WarningCode.THIRD_MISS, 0)
    assert old.snapshot()["warnings"] == [{"code": "third_miss", "player": 0}]
    for bad in ([{"code": "nonsense"}], [{"code": "third_miss", "player": 5}], "x"):
        with pytest.raises(InputError):
            MatchState.from_scenario(ref, {"warnings": bad}, balls, "f")


def test_required_says_what_the_player_must_do_next() -> None:
    p71 = get_referee("russian-pyramid")
    fresh = MatchState.new(p71)
    assert p71.required(fresh).call == CallKind.NONE
    assert p71.required(fresh).in_hand == InHand.HOUSE
    st = MatchState.from_scenario(p71, {"break": False}, {"cue": (-1.2, 0.0), "7": (0.5, 0.1)})
    assert p71.required(st).call == CallKind.BALL_AND_POCKET
    nine = get_referee("pool-9-ball")
    st9 = MatchState.from_scenario(
        nine, {"break": False}, {"cue": (-1.0, 0.0), "3": (0.5, 0.1), "9": (0.6, 0)}
    )
    assert nine.required(st9).ball_on == ("3",)
    sn = get_referee("snooker")
    stc = MatchState.from_scenario(sn, {"ball_on": "colour"}, {"cue": (-1.2, 0.0), "red1": (0.5, 0.1)})
    assert sn.required(stc).call == CallKind.COLOUR
    assert sn.required(stc).ball_on == ("colour",)
    stf = MatchState.from_scenario(
        sn, {"extra": {"free_ball_for": 0}}, {"cue": (-1.2, 0.0), "red1": (0.5, 0.1)}
    )
    assert sn.required(stf).call == CallKind.FREE_BALL
    golf = get_referee("golf")
    stg = MatchState.from_scenario(golf, {"extra": {"holes": [2, 0]}}, {"cue": (-1.0, 0.0), "1": (0.5, 0)})
    assert golf.required(stg).pocket == "head-right"
    assert golf.required(stg).ball_on == ("1",)


# --- where the ball in hand may go (the referee's may_place; the window asks it) -----------------------
def _hand(game: str, zone: InHand, others: dict[str, tuple[float, float]]) -> tuple[Referee, MatchState]:
    ref = get_referee(game)
    st = MatchState.from_scenario(ref, {"in_hand": str(zone), "break": False}, others or {"cue": (0, 0)})
    return ref, st


def test_house_is_strictly_behind_the_house_line() -> None:
    ref, st = _hand("russian-pyramid", InHand.HOUSE, {"7": (0.5, 0.2)})
    t = ref.table
    head = t.lines["head-string"]
    others = {"7": (0.5, 0.2)}
    assert ref.may_place(st, head - 0.001, 0.0, others).ok
    # 003: Положение шара - a ball exactly on the house line is outside the house.
    on_line = ref.may_place(st, head, 0.0, others)
    assert not on_line.ok
    assert on_line.warning == WarningCode.OUTSIDE_HOUSE
    assert not ref.may_place(st, head + 0.01, 0.0, others).ok
    # A ball may be put down touching the head cushion (its centre t.cushion_reach from the nose), not nearer.
    assert ref.may_place(st, -t.half_length + t.cushion_reach, 0.0, others).ok
    assert not ref.may_place(st, -t.half_length + t.cushion_reach - 1e-4, 0.0, others).ok
    assert not ref.may_place(st, math.nan, 0.0, others).ok


def test_house_placement_may_not_freeze_the_cue_ball_to_a_ball_in_the_house() -> None:
    ref, _ = _hand("russian-pyramid", InHand.HOUSE, {})
    t = ref.table
    head, R = t.lines["head-string"], t.ball_radius
    in_house = {"5": (head - 0.3, 0.0), "7": (0.5, 0.2)}
    _, st = _hand("russian-pyramid", InHand.HOUSE, in_house)
    assert not ref.may_place(st, head - 0.3 + 2 * R, 0.0, in_house).ok
    assert ref.may_place(st, head - 0.3 + 2 * R + 0.001, 0.0, in_house).ok
    bx = head + R - 0.005  # just beyond the line: not in the house, touching it is allowed
    _, st2 = _hand("russian-pyramid", InHand.HOUSE, {"5": (bx, 0.0)})
    assert ref.may_place(st2, bx - 2 * R - 1e-9, 0.0, {"5": (bx, 0.0)}).ok


def test_every_object_ball_in_the_house_moves_the_house_to_the_other_end() -> None:
    """003: Начальный удар, б - with every object ball in the house, the temporary house is behind the back line."""
    ref = get_referee("russian-pyramid")
    t = ref.table
    head, foot, R = t.lines["head-string"], t.lines["foot-string"], t.ball_radius
    in_house = {"1": (head - 0.30, 0.10), "2": (head - 0.50, -0.20)}
    _, st = _hand("russian-pyramid", InHand.HOUSE, in_house)
    assert not ref.may_place(st, head - 0.10, 0.0, in_house).ok
    assert ref.may_place(st, foot + 0.001, 0.0, in_house).ok
    assert not ref.may_place(st, foot, 0.0, in_house).ok
    assert ref.may_place(st, t.half_length - R, 0.0, in_house).ok
    p = ref.hand_spot(st, in_house)
    assert p[0] > foot
    assert ref.may_place(st, *p, in_house).ok
    mixed = {**in_house, "3": (0.0, 0.0)}
    _, st3 = _hand("russian-pyramid", InHand.HOUSE, mixed)
    assert ref.may_place(st3, head - 0.10, 0.3, mixed).ok
    assert not ref.may_place(st3, foot + 0.1, 0.0, mixed).ok


def test_d_and_the_kitchen() -> None:
    ref, st = _hand("snooker", InHand.D, {"red1": (0.5, 0.1)})
    t = ref.table
    head, r = t.lines["head-string"], t.d_radius or 0.0
    others = {"red1": (0.5, 0.1)}
    assert ref.may_place(st, head - r + 1e-4, 0.0, others).ok
    assert not ref.may_place(st, head - r - 1e-3, 0.0, others).ok
    assert ref.may_place(st, head, r - 1e-4, others).ok  # 000 «Сектор»: on the line of the D counts
    assert not ref.may_place(st, head + 1e-3, 0.0, others).ok
    pool, stp = _hand("pool-8-ball", InHand.BEHIND_HEAD_STRING, {"1": (0.3, 0.2)})
    hs, R = pool.table.lines["head-string"], pool.table.ball_radius
    assert pool.may_place(stp, hs - 0.01, 0.0, {"1": (0.3, 0.2)}).ok
    assert not pool.may_place(stp, hs, 0.0, {"1": (0.3, 0.2)}).ok
    _, anywhere = _hand("pool-8-ball", InHand.ANYWHERE, {"1": (0.3, 0.2)})
    assert not pool.may_place(anywhere, 0.3 + 2 * R - 1e-4, 0.2, {"1": (0.3, 0.2)}).ok
    assert pool.may_place(anywhere, 0.3 + 2 * R + 1e-4, 0.2, {"1": (0.3, 0.2)}).ok
