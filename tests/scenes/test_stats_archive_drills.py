"""Statistics from the stroke log, the match archive in the progress store, and drills judged from the record."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from physics.errors import InputError
from scenes.core.archive import Archive
from scenes.core.drills import drill_library, judge, load_drill, simulate_drill, verdict_text
from scenes.core.settings import Settings
from scenes.core.stats import StrokeLog, foul_name, player_stats, stats_text

LOG = [
    StrokeLog(1, 0, counted=("7",), points=7, break_after=7, seconds=12.0),
    StrokeLog(1, 0, counted=("3",), points=3, break_after=10, seconds=8.0),
    StrokeLog(1, 0, seconds=5.0),  # a safety: legal, nothing counted
    StrokeLog(1, 1, fouls=("miscue",), points=-5, seconds=3.0),
    StrokeLog(1, 0, counted=("1",), points=1, break_after=1, seconds=6.0),
    StrokeLog(2, 1, counted=("5",), points=5, break_after=5, seconds=9.0),
    StrokeLog(2, 1, fouls=("miscue", "cue_ball_pocketed"), points=-5, seconds=4.0),
]


def test_player_statistics_per_frame_and_match() -> None:
    a = player_stats(LOG, 0, frame=1)
    assert (a.strokes, a.pots, a.safeties, a.attempts, a.longest_break) == (4, 3, 1, 3, 10)
    assert a.pot_success == pytest.approx(1.0)
    assert a.seconds == pytest.approx(31.0)
    b = player_stats(LOG, 1)
    assert (b.strokes, b.pots, b.foul_count) == (3, 1, 3)
    assert b.fouls == {"cue_ball_pocketed": 1, "miscue": 2}
    assert player_stats(LOG, 1, frame=1).longest_break == 0


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_stats_text_names_fouls_and_counts_in_each_language(lang: str) -> None:
    text = stats_text(LOG, ("Anna", "Boris"), lang)
    # names, never codes
    assert "cue_ball_pocketed" not in text
    assert "_" not in text
    assert foul_name("miscue", lang) in text
    if lang == "ru":
        assert "4 удара" in text
        assert "кикс ×2" in text
        assert "1 отыгрыш" in text
    else:
        assert "4 strokes" in text
        assert "miscue ×2" in text
        assert "1 safety" in text
    assert foul_name("some_new_code", lang) not in ("some_new_code", "")


def test_every_foul_code_the_referee_uses_has_a_name() -> None:
    from rules.ruling import FoulCode
    from scenes.core.i18n import has_text

    for code in FoulCode:
        assert has_text(f"foul.{code}"), code


class _State:
    game = "russian-pyramid"
    players = ("Anna", "Boris")
    frames_to_win = 2
    frames_won = (2, 0)
    winner = 0


def test_a_finished_match_is_kept_with_every_stroke(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    log = [replace(s, record={"table": "pyramid-12ft", "events": []}, ruling={"foul": s.foul}) for s in LOG]
    with Archive(db) as arch:
        mid = arch.save_match(_State(), log)
        arch.record_drill("pool-stop-shot-1", True, {"success": True})
        arch.record_drill("pool-stop-shot-1", False, {"success": False})
    with Archive(db) as arch:  # a new connection reads what was committed
        (m,) = arch.matches()
        assert (m.id, m.game, m.players, m.frames_won, m.winner, m.strokes) == (
            mid,
            "russian-pyramid",
            ("Anna", "Boris"),
            (2, 0),
            0,
            len(LOG),
        )
        strokes = arch.strokes(mid)
        assert [s.n for s in strokes] == list(range(1, len(LOG) + 1))
        assert strokes[3].ruling == {"foul": True}
        assert strokes[3].player == 1
        assert arch.match_log(mid)[0]["counted"] == ["7"]
        assert arch.drill_progress() == {"pool-stop-shot-1": (2, 1)}
    # The trainer's own tables are still there: one store for every kind of progress.
    from scenes.core.trainer.store import Store

    with Store(db) as st:
        assert st.sessions() == []


def test_a_foreign_file_is_refused_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "progress.sqlite3"
    bad.write_bytes(b"not a database at all")
    with pytest.raises(InputError):
        Archive(bad)
    assert bad.read_bytes() == b"not a database at all"


def test_the_drill_library_covers_every_family() -> None:
    drills = drill_library()
    assert {d.family for d in drills} == {"pyramid", "snooker", "pool"}
    for d in drills:
        assert d.goal["en"]
        assert d.goal["ru"]
        assert d.pots or d.cue_zone is not None


def test_a_drill_judged_right_and_wrong_from_the_shot_record() -> None:
    settings = Settings()
    drill = load_drill(
        Path(__file__).resolve().parents[2] / "assets" / "drills" / "pyramid-long-straight.toml"
    )
    good = replace(drill.scenario.shot, cue_speed=1.5, direction=44.98, tip=(0.0, 0.0))
    verdict = judge(drill, simulate_drill(drill, settings, good))
    assert verdict.success, verdict
    assert verdict_text(verdict, "ru") == "Упражнение выполнено!"
    off = replace(good, direction=good.direction + 1.5)
    verdict = judge(drill, simulate_drill(drill, settings, off))
    assert not verdict.success
    assert ("drill.missed.pot", {"ball": "1", "pocket": "foot-left"}) in verdict.reasons
    assert "шар 1 не упал в лузу: левая дальняя угловая" in verdict_text(verdict, "ru")


def test_a_drill_file_without_a_condition_is_one_clear_error(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(
        'title = { en = "x", ru = "x" }\ngame = "practice"\ntable = "pool-9ft"\n[balls]\ncue = [0.0, 0.0]\n'
        '[drill]\nfamily = "pool"\ngoal = { en = "g", ru = "g" }\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError) as e:
        load_drill(f)
    assert e.value.key == "drill"


@pytest.mark.slow
def test_every_drill_can_be_done_with_the_stroke_its_file_names() -> None:
    """Each file names a stroke that succeeds (found with the physics): the drill is possible, not a guess."""
    import re

    settings = Settings()
    for d in drill_library():
        m = re.search(
            r"does it .*: speed ([\d.]+) m/s, direction ([\d.]+), tip \[([-\d.]+), ([-\d.]+)\]",
            d.path.read_text(encoding="utf-8"),
        )
        assert m, f"{d.id}: no stroke that does it"
        shot = replace(
            d.scenario.shot, cue_speed=float(m[1]), direction=float(m[2]), tip=(float(m[3]), float(m[4]))
        )
        verdict = judge(d, simulate_drill(d, settings, shot))
        assert verdict.success, (d.id, verdict.reasons)


def test_resume_restores_the_current_break_and_the_stroke_log(tmp_path: Path) -> None:
    from scenes.core.match import MatchController, play_save_path

    save = str(tmp_path / "match-autosave.json")
    m = MatchController(game="russian-pyramid", names=("Anna", "Boris"), frames_to_win=2, autosave=save)
    m.current_break = 8
    m.log = list(LOG[:2])
    m.save()
    again = MatchController.from_autosave(save)
    assert again.current_break == 8
    assert [s.to_dict() for s in again.log] == [s.to_dict() for s in LOG[:2]]
    # A damaged window save is one clear line, the match file untouched.
    view = play_save_path(save)
    view.write_text(view.read_text(encoding="utf-8").replace('"current_break": 8', '"current_break": -3'))
    with pytest.raises(InputError) as e:
        MatchController.from_autosave(save)
    assert e.value.key == "payload"


def test_a_break_counts_points_or_where_only_frames_count_the_balls() -> None:
    """A 9-ball visit that pots the 6 is a run of one ball (the scoreboard said «Серия: 0»); a pyramid or
    snooker break counts the stroke's points."""
    from types import SimpleNamespace

    from scenes.core.match import break_gain

    nine = SimpleNamespace(striker=0, points=(0, 0), counted=("6",))
    snooker = SimpleNamespace(striker=1, points=(0, 7), counted=("black",))
    safety = SimpleNamespace(striker=0, points=(0, 0), counted=())
    assert (break_gain(nine), break_gain(snooker), break_gain(safety)) == (1, 7, 0)


def test_a_break_that_counts_nothing_is_no_safety_and_the_stats_key_answers_during_the_first_choice(
    offscreen_base: object,
) -> None:
    """Issue 26 §4: the pyramid break was counted as a safety («1 отыгрыш»), and the stats key did nothing while
    the first ruling's choice was open (the log was still empty)."""
    from rules.notation import record
    from scenes.core.i18n import ntr
    from scenes.core.match import MatchController
    from scenes.fonts import ui_font
    from scenes.screens.stats_panel import StatsPanel

    m = MatchController(game="russian-pyramid", names=("Анна", "Борис"))
    layout = " ".join(f"{b}={x},{y}" for b, (x, y) in m.state.balls.items()) + " cue=-0.7,0"
    panel = StatsPanel(offscreen_base, ui_font(offscreen_base.loader), "ru")  # type: ignore[attr-defined]
    try:
        m.judge(record(layout, "cue>1 1|foot 2|foot 3|head 4|foot"))
        assert m.pending is not None
        assert not m.pending.ruling.foul
        assert not m.pending.ruling.counted
        panel.toggle(m)  # the choice (if any) still open, nothing carried out yet
        assert panel.shown
        assert ntr("stats.strokes", 0, "ru") in panel.text()
        panel.toggle(m)
        assert not panel.shown
        m.apply(None)
        assert m.log[-1].opening
        a = player_stats(m.log, 0)
        assert (a.strokes, a.safeties, a.breaks, a.attempts) == (1, 0, 1, 0)
        panel.toggle(m)
        assert ntr("stats.safeties", 0, "ru") in panel.text()
        assert StrokeLog.from_dict(m.log[-1].to_dict()).opening
    finally:
        panel.destroy()
