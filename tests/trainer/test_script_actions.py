"""Script actions the trainer screen carries out are the ones a script file may hold (scenes/core/script.py
checks every action of a BILLIARDS_SCRIPT file before the app starts): the trainer's own actions and the
replay controls it shares with the replay screen."""

from __future__ import annotations

import json
import re
from pathlib import Path

from scenes.core.script import ACTIONS, load_script

ROOT = Path(__file__).resolve().parents[2]
SCREEN = ROOT / "scenes" / "trainer" / "screen.py"


def _handled() -> set[str]:
    src = SCREEN.read_text(encoding="utf-8")
    body = src[src.index("def script_action(") : src.index("def dump(")]
    return set(re.findall(r'do == "([a-z_]+)"', body))


def test_every_action_the_trainer_carries_out_is_one_a_script_may_hold() -> None:
    assert _handled() - set(ACTIONS) == set()


def test_the_replay_controls_work_on_the_trainer_too() -> None:
    assert {"pause", "slower", "faster", "step", "seek", "camera"} <= _handled()


def test_a_script_may_start_an_exam_for_a_trainee(tmp_path: Path) -> None:
    p = tmp_path / "s.json"
    p.write_text(
        json.dumps(
            [
                {"do": "trainer_start", "topic": "jump", "cases": 2, "exam": True, "profile": "Anna"},
                {"do": "trainer_moment"},
                {"do": "trainer_panel"},
                {"do": "trainer_history"},
                {"do": "trainer_pick"},
                {"do": "trainer_variations"},
            ]
        ),
        encoding="utf-8",
    )
    assert len(load_script(str(p))) == 6


def test_the_watch_line_names_keys_and_cameras_in_the_language() -> None:
    """«Смотрите и нажмите пробел ... камера: решающий момент», not "space" and "decision" in a Russian line."""
    from scenes.core.settings import Settings
    from scenes.trainer.screen import CAMERAS, camera_label, watch_hint

    ru = watch_hint(Settings().controls, "ru")
    assert "пробел" in ru
    assert "space" not in ru
    assert "tab" not in ru
    assert "Space" in watch_hint(Settings().controls, "en")
    for mode in CAMERAS:
        assert not re.search(r"[a-z]", camera_label(mode, "ru")), mode
        assert camera_label(mode, "en") != camera_label(mode, "ru")
