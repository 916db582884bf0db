"""A ball that ends on the floor is seen: in ``render``'s top view (the view widens to hold it) and in the
trainer's view, which follows it down; measured on the rendered pixels (offscreen, software renderer)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
from dataclasses import replace
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from panda3d.core import Filename, PNMImage
from rules.scenarios import load_scenario
from scenes.render import draw_scenario, make_offscreen_base, stroke_record
from scenes.core.settings import Settings
from scenes.app import App, save_screenshot

out = {}
base = make_offscreen_base((960, 540), software=True)
s = Settings()
case = Path(sys.argv[1]) / "assets" / "cases" / "pyramid-object-ball-to-floor.toml"
sc = load_scenario(case)
rec = stroke_record(sc, s)
end = rec.duration
drawn = draw_scenario(base, sc, rec, end, "top", (960, 540), s.lamp_position)
x, y = drawn.balls["7"]
img = drawn.image
def around(img, x, y, r):
    return max(img.getBright(int(x) + dx, int(y) + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
               if 0 <= int(x) + dx < img.getXSize() and 0 <= int(y) + dy < img.getYSize())
def floor(img, x, y, r):
    return img.getBright(min(img.getXSize() - 1, int(x) + r), int(y))
out["render"] = {"at": [x, y], "z": drawn.states["7"].pos[2], "ball": around(img, x, y, 1), "floor": floor(img, x, y, 12)}

settings = replace(s, trainer=replace(s.trainer, data_dir=sys.argv[2]))
app = App(base, settings, offscreen=True)
scr = app.manager.switch("trainer")
scr.script_action({"do": "trainer_start", "game": "russian-pyramid", "topic": "off-floor", "cases": 4, "seed": 0})
while scr.run.case.id != "pyramid-object-ball-to-floor":
    scr.script_action({"do": "trainer_answer", "correct": True})
    scr.script_action({"do": "trainer_next"})
scr.script_action({"do": "seek", "t": end})
for _ in range(30):
    base.taskMgr.step()
d = scr.dump()
path = Path(sys.argv[2]) / "trainer-floor.png"
save_screenshot(base, path)
img = PNMImage()
img.read(Filename.fromOsSpecific(str(path)))
x, y = scr.project(scr.view.ball_state("7").pos)
out["trainer"] = {"at": [x, y], "z": scr.view.ball_state("7").pos[2], "px": d["ball_px"], "ball": around(img, x, y, 2),
                  "floor": floor(img, x, y, int(d["ball_px"] or 10) + 4), "size": [img.getXSize(), img.getYSize()]}
app.close()
print(json.dumps(out))
"""


@pytest.mark.slow
def test_ball_on_the_floor_is_seen(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT), str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    d = json.loads(r.stdout.strip().splitlines()[-1])
    for where in ("render", "trainer"):
        m = d[where]
        assert m["z"] < 0.0, m  # on the floor
        assert m["at"] is not None
        x, y = m["at"]
        w, h = (960, 540)
        assert 0 <= x < w, (where, m)
        assert 0 <= y < h, (where, m)
        # The ivory ball is lighter than the parquet beside it.
        assert m["ball"] > m["floor"] + 0.15, (where, m)
    assert d["trainer"]["px"] >= 20  # followed down: a ball, not a speck
