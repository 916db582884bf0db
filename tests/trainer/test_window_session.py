"""A scripted trainer session in a real window (Xvfb + Mesa GL): two cases answered, one right and one wrong;
the verdict dump names each question with the answer given and the right one, and the screenshot shows the
3D view beside the verdict panel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.scenes.test_window_e2e import _pixels, _run_app, xvfb  # noqa: F401  (the Xvfb fixture)

pytestmark = [pytest.mark.window, pytest.mark.slow]

QUESTIONS_EN = (
    "Is the stroke legal or a foul?",
    "Which balls count as off the table (jumped)?",
    "Which balls count as pocketed for the striker?",
    "What is respotted, and where?",
    "Who plays next, and from where?",
)


def test_scripted_session_in_a_window(xvfb: str, tmp_path: Path) -> None:  # noqa: F811
    first, second, shot = tmp_path / "v1.json", tmp_path / "v2.json", tmp_path / "verdict.png"
    script = [
        {"do": "frames", "n": 3},
        {"do": "trainer_start", "topic": "off-floor", "game": "russian-pyramid", "cases": 2, "seed": 3},
        {"do": "frames", "n": 5},
        {"do": "trainer_answer", "correct": True},
        {"do": "frames", "n": 3},
        {"do": "dump", "path": str(first)},
        {"do": "trainer_next"},
        {"do": "frames", "n": 3},
        {"do": "trainer_answer", "correct": False},
        {"do": "frames", "n": 5},
        {"do": "dump", "path": str(second)},
        {"do": "screenshot", "path": str(shot)},
        {"do": "quit"},
    ]
    settings = tmp_path / "settings.toml"
    settings.write_text(
        f'[display]\nwidth = 1280\nheight = 720\nmsaa = 0\n[trainer]\ndata_dir = "{tmp_path / "data"}"\n',
        encoding="utf-8",
    )
    res = _run_app(xvfb, script, tmp_path, "--settings", str(settings), "--lang", "en", "train")
    assert res.returncode == 0, res.stderr[-3000:]
    for path, right in ((first, True), (second, False)):
        d = json.loads(path.read_text(encoding="utf-8"))
        assert d["screen"] == "trainer"
        assert d["phase"] == "verdict"
        assert d["topic"] == "off-floor"
        assert [a["question"] for a in d["answers"]] == list(QUESTIONS_EN)
        for a in d["answers"]:
            assert a["ok"] is right
            assert a["question"] in d["verdict"]
            assert f"your answer: {a['given']}" in d["verdict"]
            if not right:
                assert f"right: {a['right']}" in d["verdict"]
        assert d["framing"] == "follow"  # a ball onto the floor: the camera follows it
        left, right_edge = d["panel_px"]
        assert right_edge == 1280
        assert 700 < left < 900
    # The picture: the 3D view on the left (not the panel's flat dark), the panel's text on the right.
    w, h, img = _pixels(shot)
    assert (w, h) == (1280, 720)
    view = {
        tuple(round(img.getXel(x, y)[k], 1) for k in range(3))
        for x in range(50, 700, 50)
        for y in range(100, 650, 50)
    }  # type: ignore[attr-defined]
    assert len(view) > 5, "the 3D view is empty"
    text = sum(img.getBright(x, y) > 0.7 for x in range(830, 1250, 3) for y in range(10, 400, 3))  # type: ignore[attr-defined]
    assert text > 100, "no verdict text in the panel"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_session_in_a_window_speaks_one_language(xvfb: str, tmp_path: Path, lang: str) -> None:  # noqa: F811
    """Every text on the trainer's screens - the pick screen, the stroke, the verdict, the score, the history
    - in the interface's language, with balls, games, topics and rules named, never an id."""
    from tests.trainer.test_texts import other_language, raw_ids

    phases = ("pick", "watch", "verdict", "score", "history")
    dumps = {p: tmp_path / f"{p}.json" for p in phases}
    script = [
        {"do": "frames", "n": 3},
        {"do": "dump", "path": str(dumps["pick"])},
        {"do": "trainer_start", "topic": "outside-interference", "game": "snooker", "cases": 1, "seed": 1},
        {"do": "frames", "n": 5},
        {"do": "dump", "path": str(dumps["watch"])},
        {"do": "trainer_answer", "correct": False},
        {"do": "frames", "n": 3},
        {"do": "dump", "path": str(dumps["verdict"])},
        {"do": "trainer_next"},
        {"do": "frames", "n": 3},
        {"do": "dump", "path": str(dumps["score"])},
        {"do": "trainer_history"},
        {"do": "frames", "n": 3},
        {"do": "dump", "path": str(dumps["history"])},
        {"do": "quit"},
    ]
    settings = tmp_path / "settings.toml"
    settings.write_text(
        f'[display]\nwidth = 1280\nheight = 720\nmsaa = 0\n[trainer]\ndata_dir = "{tmp_path / "data"}"\n',
        encoding="utf-8",
    )
    res = _run_app(xvfb, script, tmp_path, "--settings", str(settings), "--lang", lang, "train")
    assert res.returncode == 0, res.stderr[-3000:]
    for phase in phases:
        d = json.loads(dumps[phase].read_text(encoding="utf-8"))
        assert d["phase"] == phase, (phase, d)
        assert d["texts"], (phase, d)
        text = "\n".join([*d["texts"], d.get("verdict", "")])
        text += "\n".join(f"{a['question']} {a['given']} {a['right']}" for a in d.get("answers", []))
        assert other_language(text, lang) == [], (phase, text)
        assert raw_ids(text) == [], (phase, text)
    verdict = json.loads(dumps["verdict"].read_text(encoding="utf-8"))["verdict"]
    if lang == "ru":
        assert "Решение судьи (Снукер)" in verdict
        assert "WPBSA, раздел 3, правило 15" in verdict
    else:
        assert "Referee's ruling (Snooker)" in verdict
        assert "WPBSA Section 3, Rule 15" in verdict
