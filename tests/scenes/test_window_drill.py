"""In a real window (Xvfb + Mesa), driven by scripted input: a drill judged right then wrong, its replay's
timeline, and the HUD and panels in Russian with names, never ids."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.scenes.test_window_e2e import _pixels, _run_app, xvfb  # noqa: F401  (the Xvfb fixture)

pytestmark = [pytest.mark.window, pytest.mark.slow]
LATIN_WORD = re.compile(r"\b[a-z_]{3,}\b")


def test_a_drill_in_a_real_window_judged_right_and_wrong(xvfb: str, tmp_path: Path) -> None:  # noqa: F811
    good, bad, rep = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "replay.json"
    shot = tmp_path / "drill.png"
    script = [
        {"do": "frames", "n": 3},
        {"do": "dump", "path": str(tmp_path / "drills.json")},
        {"do": "choose", "index": 3},  # the drills screen's fourth button: the long straight pot
        {"do": "frames", "n": 3},
        {"do": "aim", "direction": 44.98},
        {"do": "power", "speed": 1.5},
        {"do": "tip", "x": 0.0, "y": 0.0},
        {"do": "shoot"},
        {"do": "speed", "x": 8.0},
        {"do": "wait_rest", "timeout": 600},
        {"do": "dump", "path": str(good)},
        {"do": "camera", "mode": "top", "snap": True},
        {"do": "frames", "n": 3},
        {"do": "screenshot", "path": str(shot)},
        {"do": "replay"},
        {"do": "frames", "n": 2},
        {"do": "dump", "path": str(rep)},
        {"do": "back"},
        {"do": "frames", "n": 2},
        {"do": "undo"},
        {"do": "aim", "direction": 46.5},
        {"do": "shoot"},
        {"do": "speed", "x": 8.0},
        {"do": "wait_rest", "timeout": 600},
        {"do": "dump", "path": str(bad)},
        {"do": "quit"},
    ]
    settings = tmp_path / "settings.toml"
    settings.write_text("[display]\nwidth = 800\nheight = 600\nmsaa = 0\n", encoding="utf-8")
    res = _run_app(xvfb, script, tmp_path, "--settings", str(settings), "--lang", "ru", "drill")
    assert res.returncode == 0, res.stderr[-3000:]
    g, b, r = (json.loads(p.read_text(encoding="utf-8")) for p in (good, bad, rep))
    rows = json.loads((tmp_path / "drills.json").read_text(encoding="utf-8"))["rows"]
    assert len(rows) == 12
    assert "Длинный прямой удар с задней отметки" in rows[3]
    assert "ещё не пробовали" in rows[3]
    assert g["drill"] == "pyramid-long-straight"
    assert g["verdict"]["success"] is True
    assert "Упражнение выполнено!" in g["hud"]["call"]
    assert "Попыток 1, успешных 1" in g["hud"]["call"]
    assert b["verdict"]["success"] is False
    assert "шар 1 не упал в лузу: левая дальняя угловая" in b["hud"]["call"]
    assert "Попыток 2, успешных 1" in b["hud"]["call"]
    # The replay: the stroke's own duration, a tick for each of its events but the rests.
    record = g["record"]
    assert r["duration"] == pytest.approx(record["duration"], abs=0.02)
    assert len(r["ticks"]) == sum(1 for e in record["events"] if e["type"] != "rest")
    # One language: the Russian HUD and the cue's panel carry no ids or English words.
    for d in (g, b):
        text = " ".join(d["hud"].values())
        assert not LATIN_WORD.search(text.replace("escape", "")), text
    w, h, _img = _pixels(shot)
    assert (w, h) == (800, 600)


def test_a_snooker_foul_in_russian_the_decider_marked_the_penalty_and_the_details(
    xvfb: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    script = [
        {"do": "frames", "n": 3},
        {"do": "start", "game": "snooker", "players": ["Анна", "Борис"]},
        {"do": "frames", "n": 3},
        {"do": "dump", "path": str(before)},
        {"do": "confirm_place"},
        {"do": "aim", "direction": 100.0},  # away from every ball: a miss
        {"do": "power", "speed": 1.2},
        {"do": "shoot"},
        {"do": "speed", "x": 8.0},
        {"do": "wait_rest", "timeout": 600},
        {"do": "key", "key": "i"},
        {"do": "frames", "n": 2},
        {"do": "dump", "path": str(after)},
        {"do": "quit"},
    ]
    settings = tmp_path / "settings.toml"
    settings.write_text("[display]\nwidth = 800\nheight = 600\nmsaa = 0\n", encoding="utf-8")
    res = _run_app(xvfb, script, tmp_path, "--settings", str(settings), "--lang", "ru", "play")
    assert res.returncode == 0, res.stderr[-3000:]
    b, a = (json.loads(p.read_text(encoding="utf-8")) for p in (before, after))
    # The opening aim meets a red first, the ball the player may hit (not the brown beside the D).
    from physics.tables import load_table
    from scenes.cue_control import aim_hit

    positions = {ball: tuple(p) for ball, p in b["positions"].items()}
    hit = aim_hit(load_table("snooker-12ft"), positions, "cue", b["aim"]["direction"])
    assert hit.ball is not None, hit.ball
    assert hit.ball.startswith("red"), hit.ball
    ruling = a["ruling"]
    assert a["phase"] == "decide"
    assert ruling["foul"]
    assert ruling["next_player"] == 1
    hud = a["hud"]
    assert "▶ Борис:" in hud["score"]  # the player who must choose is at the table
    assert "Штраф: Борис +4" in hud["call"]  # the penalty with the call
    assert "Биток с руки" not in hud["required"]
    assert "Нужно: красный" in hud["required"]
    assert (
        "Международный (или английский) снукер" in hud["details"]
    )  # why, and by which text's title, on demand
    for text in hud.values():
        assert not LATIN_WORD.search(text), text
