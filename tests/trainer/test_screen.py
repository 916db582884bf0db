"""The 3D trainer screen, offscreen in a child process (one engine per process): pick, watch with the camera
preset of the topic, answer right, verdict at the deciding moment, answer wrong, score; nothing left behind."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
from dataclasses import replace
sys.path.insert(0, sys.argv[1])
from scenes.render import make_offscreen_base
from scenes.settings import Settings
from scenes.app import App

base = make_offscreen_base((320, 240), software=True)
settings = replace(Settings(), trainer=replace(Settings().trainer, data_dir=sys.argv[2]))
app = App(base, settings, offscreen=True)
before = (base.render.getNumChildren(), base.aspect2d.getNumChildren())
scr = app.manager.switch("trainer")
out = {"pick": scr.dump()}
scr.script_action({"do": "trainer_start", "game": None, "topic": "jump", "cases": 2, "seed": 0})
for _ in range(5):
    base.taskMgr.step()
out["watch"] = scr.dump()
scr.script_action({"do": "trainer_answer", "correct": True})
out["verdict1"] = scr.dump()
out["paused_at"] = scr.player.t if scr.player is not None else None
scr.script_action({"do": "trainer_next"})
scr.script_action({"do": "trainer_answer", "correct": False})
out["verdict2"] = scr.dump()
scr.script_action({"do": "trainer_next"})
out["score"] = scr.dump()
app.manager.switch("menu")
app.close()
out["clean"] = (base.render.getNumChildren(), base.aspect2d.getNumChildren()) == before
print(json.dumps(out, ensure_ascii=False))
"""


def test_trainer_screen_walkthrough(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT), str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    d = json.loads(r.stdout.strip().splitlines()[-1])
    assert d["pick"]["phase"] == "pick"
    assert d["watch"]["phase"] == "watch" and d["watch"]["camera"] == "side"  # jumps: side view
    v1 = d["verdict1"]
    assert v1["phase"] == "verdict" and v1["score"] == [5, 5]
    # The ruling with the rule it rests on ("[...]" after the explanation).
    assert "[" in v1["verdict"] and "]" in v1["verdict"]
    assert d["paused_at"] is not None and d["paused_at"] > 0.0  # replay at the deciding moment
    assert d["verdict2"]["score"] == [5, 10]
    assert d["score"]["phase"] == "score" and d["score"]["score"] == [5, 10]
    assert d["clean"]
