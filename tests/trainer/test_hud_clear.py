"""Issue 26 §3 in the trainer: in every camera of a case (the director's and the rig's own) no line of text and no
button stands over the 3D view: the case's header and clock above it, the key hint and the answer button below
it. Measured in window shares (the view's display region against the widgets' drawn boxes) at 800x600 and at a
wide window's shape (2560x1080's, drawn at half its size)."""

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
from scenes.render import make_offscreen_base
from scenes.core.settings import Settings
from scenes.app import App
from scenes.screens.views import a2d_box
from scenes.trainer.phases.watch import CAMERAS

w, h = int(sys.argv[3]), int(sys.argv[4])
base = make_offscreen_base((w, h), software=True)
s = Settings()
settings = replace(s, display=replace(s.display, quality="low"), trainer=replace(s.trainer, data_dir=sys.argv[2]))
app = App(base, settings, offscreen=True)
scr = app.manager.switch("trainer")
scr.script_action({"do": "trainer_pick"})
scr.script_action({"do": "trainer_start", "game": "snooker", "topic": "jump", "cases": 1, "seed": 0})
scr.script_action({"do": "trainer_moment"})
aspect = float(base.getAspectRatio())
out = {}
for mode in CAMERAS:
    scr.set_camera(mode)
    for _ in range(3):
        base.taskMgr.step()
    dr = base.cam.node().getDisplayRegion(0)
    boxes = []
    for wd in scr.widgets + scr.panel_widgets:
        b = None if wd.isHidden() else a2d_box(base, wd)
        if b is not None:
            boxes.append([(b[0] / aspect + 1) / 2, (b[1] + 1) / 2, (b[2] / aspect + 1) / 2, (b[3] + 1) / 2])
    ball = scr.project(scr.view.ball_state(scr.director.ball).pos)
    out[mode] = {"view": [dr.getLeft(), dr.getBottom(), dr.getRight(), dr.getTop()], "widgets": boxes,
                 "ball": None if ball is None else [ball[0] / w, 1 - ball[1] / h]}
app.close()
print(json.dumps(out))
"""


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), [(800, 600), (1280, 540)])
def test_no_text_over_the_trainers_view(tmp_path: Path, width: int, height: int) -> None:
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT), str(tmp_path), str(width), str(height)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    d = json.loads(r.stdout.strip().splitlines()[-1])
    for mode, m in d.items():
        vx0, vy0, vx1, vy1 = m["view"]
        assert vy1 - vy0 > 0.6, (mode, m["view"])  # the view keeps most of the window's height
        for x0, y0, x1, y1 in m["widgets"]:
            assert x1 > 0.0 and x0 < 1.0 and y1 > 0.0 and y0 < 1.0, (mode, "off the window", (x0, y0, x1, y1))
            over = x0 < vx1 and vx0 < x1 and y0 < vy1 and vy0 < y1
            assert not over, (width, height, mode, [round(v, 3) for v in (x0, y0, x1, y1)], m["view"])
        if mode == "decision":
            # The director's framing, made for the view's own shape, keeps the case's ball inside it.
            bx, by = m["ball"]
            assert vx0 < bx < vx1 and vy0 < by < vy1, (mode, m["ball"], m["view"])
