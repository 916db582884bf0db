"""Issue 26 §3: the replay's orbit and player views keep the struck ball and its first contact in the picture
through the whole playback (the orbit's default view of the table's middle lost both)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from physics.record import ShotParams


def _on_film(base: Any, root: Any, p: tuple[float, float, float]) -> bool:
    from panda3d.core import Point2, Point3

    q = base.cam.getRelativePoint(root, Point3(*p))
    film = Point2()
    return bool(base.camLens.project(q, film)) and abs(film.x) < 1 and abs(film.y) < 1


@pytest.mark.parametrize("mode", ["orbit", "player"])
def test_the_struck_ball_and_its_first_contact_stay_in_the_replay(app: Any, mode: str) -> None:
    from scenes.core.match import MatchController

    m = MatchController(game="practice", names=("",))
    m.positions = {"cue": (-0.9, -0.3), "1": (0.7, 0.35)}
    aim = math.degrees(math.atan2(0.65, 1.6))
    rec = m.simulate(ShotParams(ball="cue", cue_speed=2.0, direction=aim))
    contact = rec.first_contact("cue")
    assert contact is not None
    assert rec.samples
    rep = app.manager.switch("replay", record=rec)
    rep.camera.set_mode(mode)
    base = app.base
    root = rep.view.root
    for t in (0.0, contact.t, 0.5 * (contact.t + rec.duration), rec.duration):
        rep.player.seek(t)
        rep.camera.track(rep.player)
        rep.camera.rig.snap()
        base.graphicsEngine.renderFrame()
        cue = rep.player.state_at("cue").pos
        assert _on_film(base, root, tuple(cue)), (mode, t, "cue")
        for b in contact.balls or ():
            at = rep.player.p.state_at(b, contact.t).pos
            assert _on_film(base, root, tuple(at)), (mode, t, b)
    app.manager.switch("menu")


@pytest.mark.parametrize("mode", ["top", "broadcast"])
def test_the_replay_frames_the_whole_table_clear_of_its_texts(app: Any, mode: str) -> None:
    """The replay's line at the top and its timeline and key hints at the bottom never cover the bed."""
    from panda3d.core import Point2, Point3

    from scenes.core.match import MatchController
    from scenes.screens.views import a2d_box

    m = MatchController(game="practice", names=("",))
    m.positions = {"cue": (-0.9, -0.3), "1": (0.7, 0.35)}
    rec = m.simulate(ShotParams(ball="cue", cue_speed=1.0, direction=20.0))
    rep = app.manager.switch("replay", record=rec)
    base = app.base
    for _ in range(2):
        base.taskMgr.step()
    rep.camera.set_mode(mode)
    rep.camera.rig.snap()
    base.taskMgr.step()
    rep.camera.rig.snap()
    s = rep.spec
    aspect = base.getAspectRatio()
    pts = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            q = base.cam.getRelativePoint(rep.view.root, Point3(sx * s.half_length, sy * s.half_width, 0))
            film = Point2()
            base.camLens.project(q, film)
            pts.append((film.x * aspect, film.y))
    bed = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
    for node in (rep.info, rep.export_button, rep.timeline.frame, rep.help):
        box = a2d_box(base, node)
        if box is None or node.isHidden():
            continue
        assert not (box[0] < bed[2] and bed[0] < box[2] and box[1] < bed[3] and bed[1] < box[3]), (box, bed)
    app.manager.switch("menu")


@pytest.mark.parametrize("mode", ["player", "side"])
def test_the_replay_shows_the_player_and_side_views_between_its_bars(app: Any, mode: str) -> None:
    """The player's and side views show their picture in the band between the replay's line and its timeline:
    bars stand behind the texts, no text covers the part of the bed drawn, and the cue ball is in the band."""
    from panda3d.core import Point2, Point3

    from scenes.core.match import MatchController
    from scenes.screens.views import a2d_box

    m = MatchController(game="practice", names=("",))
    m.positions = {"cue": (-0.9, -0.3), "1": (0.7, 0.35)}
    rec = m.simulate(ShotParams(ball="cue", cue_speed=1.0, direction=20.0))
    rep = app.manager.switch("replay", record=rec)
    base = app.base
    for _ in range(2):
        base.taskMgr.step()
    rep.camera.set_mode(mode)
    rep.camera.track(rep.player)
    rep.camera.rig.snap()
    base.taskMgr.step()
    assert not rep.band_bars.isHidden()
    _x0, _x1, y0, y1 = rep.camera.rig.band()
    assert y1 - y0 > 0.6  # the picture keeps most of the window's height
    aspect = base.getAspectRatio()
    cue = base.cam.getRelativePoint(rep.view.root, Point3(*rep.player.state_at("cue").pos))
    film = Point2()
    assert base.camLens.project(cue, film)
    assert y0 < film.y < y1, (film, y0, y1)
    assert abs(film.x) < 1, (film, y0, y1)
    for node in (rep.info, rep.export_button, rep.timeline.frame, rep.help):
        box = a2d_box(base, node)
        if box is None or node.isHidden():
            continue
        # The bed is drawn only inside the band (the bars cover the rest), so no text may reach into it.
        assert box[1] >= y1 or box[3] <= y0 or box[0] >= aspect or box[2] <= -aspect, (box, y0, y1)
    app.manager.switch("menu")
