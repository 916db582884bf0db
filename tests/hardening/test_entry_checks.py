"""Inputs that enter below the file boundary are checked too (issue 17 §3).

Before: ``physics.simulate()`` took a 1e6 m/s cue, a cue 10° below the bed and a tip two radii off the
centre, and a BILLIARDS_SCRIPT ``{"do": "aim", "direction": NaN}`` reached Panda3D as an assertion.
Now ``simulate()`` checks its arguments at its public entry (file "simulate()", the argument's path as
key) and a script is checked action by action before any window opens.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from physics.errors import InputError
from physics.objects import SceneObject
from physics.params import PhysicsParams
from physics.record import ShotParams
from physics.simulate import simulate
from physics.tables import load_table

ROOT = Path(__file__).resolve().parents[2]
BALLS = {"cue": (-0.9, 0.0), "7": (0.4, 0.1)}
SHOT = ShotParams(cue_speed=2.0)
NAN = float("nan")


def _refused(key: str, **kw: Any) -> InputError:
    args: dict[str, Any] = {"table": "pyramid-12ft", "balls": BALLS, "shot": SHOT}
    args.update(kw)
    with pytest.raises(InputError) as exc:
        simulate(**args)
    assert exc.value.file == "simulate()", exc.value
    assert exc.value.key == key, exc.value
    return exc.value


@pytest.mark.parametrize(
    ("shot", "key"),
    [
        (replace(SHOT, cue_speed=1e6), "shot.cue_speed"),
        (replace(SHOT, cue_speed=-1.0), "shot.cue_speed"),
        (replace(SHOT, cue_speed=NAN), "shot.cue_speed"),
        (replace(SHOT, elevation=-10.0), "shot.elevation"),
        (replace(SHOT, elevation=95.0), "shot.elevation"),
        (replace(SHOT, direction=NAN), "shot.direction"),
        (replace(SHOT, direction=math.inf), "shot.direction"),
        (replace(SHOT, tip=(2.0, 0.0)), "shot.tip"),
        (replace(SHOT, tip=(0.0, NAN)), "shot.tip"),
        (replace(SHOT, ball="9"), "shot.ball"),
        (replace(SHOT, call_ball="9"), "shot.call.ball"),
        (replace(SHOT, call_pocket="kitchen"), "shot.call.pocket"),
        (replace(SHOT, cue="masse"), "shot.cue"),
    ],
)
def test_simulate_checks_the_shot(shot: ShotParams, key: str) -> None:
    _refused(key, shot=shot)


@pytest.mark.parametrize(
    ("balls", "key"),
    [
        ({"cue": (NAN, 0.0)}, "balls.cue"),
        ({"cue": (0.0, 0.0), "99": (0.5, 0.0)}, "balls.99"),
        ({"cue": (0.0, 0.0), "7": (0.01, 0.0)}, "balls.7"),
        ({"cue": (5.0, 0.0)}, "balls.cue"),
        ({}, "balls"),
    ],
)
def test_simulate_checks_the_layout(balls: dict, key: str) -> None:
    _refused(key, balls=balls, shot=None if "cue" not in balls else SHOT)


def test_simulate_checks_the_table_the_room_and_the_rate() -> None:
    _refused("table", table="carom-10ft")
    _refused("lamp", lamp=(0.0, NAN, 1.0))
    _refused("sample_hz", sample_hz=-5.0)
    _refused("objects[0].kind", objects=(SceneObject("sofa", (2.0, 1.2, 0.0)),))
    _refused("objects[0].at", objects=(SceneObject("chalk", (-0.9, 0.0, 0.0)),))
    spec = load_table("pyramid-12ft")
    _refused("params.substep_hz", params=replace(PhysicsParams.for_table(spec), substep_hz=10.0))
    _refused(
        "params.max_stroke_seconds", params=replace(PhysicsParams.for_table(spec), max_stroke_seconds=0.0)
    )
    _refused("params.mu_slide", params=replace(PhysicsParams.for_table(spec), mu_slide=NAN))


def test_simulate_still_takes_what_the_campaign_draws() -> None:
    """Balls in a pocket's jaws (beyond the nose line: layouts the scenario files do not take) and the
    campaign's hardest strokes are inputs simulate() accepts."""
    from tests.hardening.strategies import draw_stroke

    for seed in range(30):
        s = draw_stroke(seed)
        simulate(s.table, s.balls, replace(s.shot, cue_speed=0.0), objects=s.objects, lamp=s.lamp)


# --- BILLIARDS_SCRIPT ---------------------------------------------------------------------------------------

SCRIPT_BAD = [
    ([{"do": "aim", "direction": NAN}], "actions[0].direction"),
    ([{"do": "aim"}], "actions[0].direction"),
    ([{"do": "aim", "direction": "left"}], "actions[0].direction"),
    ([{"do": "aim", "directon": 3.0}], "actions[0].directon"),
    ([{"do": "teleport"}], "actions[0].do"),
    ([{"do": "menu"}, {"do": "power", "speed": math.inf}], "actions[1].speed"),
    ([{"do": "frames", "n": -1}], "actions[0].n"),
    ([{"do": "frames", "n": 1.5}], "actions[0].n"),
    ([{"do": "start", "game": "chess"}], "actions[0].game"),
    ([{"do": "start", "game": "snooker", "players": ["Щ" * 250, "B"]}], "actions[0].players[0]"),
    ([{"do": "start", "game": "golf", "table": "carom-10ft"}], "actions[0].table"),
    ([{"do": "start", "game": "snooker", "table": "pool-9ft"}], "actions[0].table"),
    ([{"do": "start", "table": "snooker-12ft"}], "actions[0].table"),
    ([{"do": "place_cue", "at": [1.0]}], "actions[0].at"),
    ([{"do": "camera", "mode": "top", "snap": "yes"}], "actions[0].snap"),
    ([{"do": "quit", "code": 1000}], "actions[0].code"),
    ([{"do": "wait_rest", "timeout": NAN}], "actions[0].timeout"),
    ([{"do": "trainer_start", "seed": 10**30}], "actions[0].seed"),
    ([{"do": "key", "key": 7}], "actions[0].key"),
]


@pytest.mark.parametrize(("actions", "key"), SCRIPT_BAD, ids=[k for _a, k in SCRIPT_BAD])
def test_script_actions_are_checked_when_loaded(tmp_path: Path, actions: list, key: str) -> None:
    from scenes.app import load_script

    p = tmp_path / "script.json"
    p.write_text(json.dumps(actions), "utf-8")  # json writes NaN and Infinity as the literals Python reads
    with pytest.raises(InputError) as exc:
        load_script(str(p))
    assert exc.value.file == str(p), exc.value
    assert exc.value.key == key, exc.value


def test_every_action_the_tests_and_the_demo_use_loads(tmp_path: Path) -> None:
    from scenes.app import demo_script, load_script

    p = tmp_path / "script.json"
    p.write_text("\ufeff" + json.dumps(demo_script("russian-pyramid", tmp_path / "x.png")), "utf-8")
    assert load_script(str(p))[0] == {"do": "menu"}
    p.write_text(json.dumps([{"do": "start", "game": "golf", "table": "snooker-12ft"}]), "utf-8")
    assert load_script(str(p))[0]["table"] == "snooker-12ft"


def test_a_nan_direction_in_a_script_is_one_line_before_any_window(tmp_path: Path) -> None:
    p = tmp_path / "script.json"
    p.write_text('[{"do": "start", "game": "russian-pyramid"}, {"do": "aim", "direction": NaN}]', "utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["BILLIARDS_SCRIPT"] = str(p)
    r = subprocess.run(
        [sys.executable, "main.py", "play", "--offscreen"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, r.stderr[-2000:]
    assert len(lines) == 1, r.stderr[-2000:]
    assert lines[0].startswith(f"error: {p}: actions[1].direction")
