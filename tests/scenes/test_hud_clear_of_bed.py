"""Issue 26 §3: no HUD panel covers the bed in any camera. The views that show the whole table (top, broadcast)
frame it inside the band the panels leave free, and move it when a long call grows the bottom panel; the others
(player, side, orbit, follow, free) show their whole natural picture in that band, the bars under the panels.
Offscreen at 800x600 (the narrowest window, the tightest layout) here; in real windows from 800x600 to 4K under
Xvfb in test_window_hud_sizes.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest


def cue_ball_in_view(layout: dict[str, Any]) -> bool:
    """The cue ball's centre is drawn inside the picture, a ball's breadth (0.03) from its edges."""
    ball = layout["cue_ball"]
    if ball is None:
        return False
    x0, z0, x1, z1 = layout["picture"]
    return bool(x0 + 0.03 < ball[0] < x1 - 0.03 and z0 + 0.03 < ball[1] < z1 - 0.03)


def overlaps(layout: dict[str, Any]) -> list[str]:
    """The panels whose drawn box meets the bed's (aspect2d units), by name."""
    bed = layout["bed"]
    assert bed is not None, layout
    bx0, bz0, bx1, bz1 = bed
    out = []
    for name, (x0, z0, x1, z1) in layout["panels"].items():
        if x0 < bx1 and bx0 < x1 and z0 < bz1 and bz0 < z1:
            out.append(
                f"{name} {[round(v, 3) for v in (x0, z0, x1, z1)]} over the bed {[round(v, 3) for v in bed]}"
            )
    return out


@pytest.mark.parametrize("game", ["russian-pyramid", "snooker"])
@pytest.mark.parametrize("mode", ["top", "broadcast", "player", "side", "orbit", "follow", "free"])
def test_no_panel_covers_the_bed(app: Any, game: str, mode: str) -> None:
    from scenes.core.scoreboard import FoulLine, LastCall

    play = app.manager.switch("play", game=game, names=("Анастасия-Александра", "Bartholomew Johnson"))
    base = app.base
    foul = FoulLine(
        "miss", "000: Международный снукер, Штрафы за нарушения", "Биток не коснулся шара. " * 3, ""
    )
    for stage in ("plain", "long_call", "details"):
        if stage == "long_call":
            # A foul with three options: the call block grows upwards, the table moves up and shrinks with it.
            snap = replace(
                play.match.snapshot(),
                last=LastCall(True, (foul,), ("red1",), (0, 4)),
                options=("play_on", "make_offender_replay", "accept_table"),
                details_key="I",
            )
            play.hud.show(snap)
        if stage == "details":
            # The `i` explanation opens above the call, not over the middle of the table.
            assert play.hud.toggle_details()
        if mode == "free":
            # The free view starts where the view it was entered from stood (here the player's, settled).
            play.script_action({"do": "camera", "mode": "player", "snap": True})
            base.taskMgr.step()
        play.script_action({"do": "camera", "mode": mode, "snap": True})
        for _ in range(3):
            base.taskMgr.step()
        play.camera.rig.snap()
        base.taskMgr.step()
        layout = play.layout()
        assert {"score", "required", "cue_text", "tip"} <= set(layout["panels"])
        assert overlaps(layout) == [], (mode, stage)
        assert cue_ball_in_view(layout), (mode, stage, layout["cue_ball"], layout["picture"])
        if stage == "details":
            assert "details" in layout["panels"]
        # And the table still takes a fair part of the window (not framed away into a corner).
        bx0, bz0, bx1, bz1 = layout["bed"]
        assert (bx1 - bx0) > 0.5 * layout["aspect"], layout["bed"]
    app.manager.switch("menu")


def test_the_banded_views_give_the_lens_back(app: Any) -> None:
    """The lens shift is the top and broadcast views' fit; every other view widens the lens so the band holds
    its natural height, with the bars under the panels; leaving the screen gives the lens back as it found it."""
    fov0 = tuple(app.base.camLens.getFov())
    play = app.manager.switch("play", game="russian-pyramid", names=("A", "B"))
    play.script_action({"do": "camera", "mode": "top", "snap": True})
    app.base.taskMgr.step()
    assert play.camera.rig.free != (-1.0, 1.0, -1.0, 1.0)
    assert play.band_bars.isHidden()
    for mode in ("player", "orbit", "follow", "free", "side"):
        play.script_action({"do": "camera", "mode": mode, "snap": True})
        app.base.taskMgr.step()
        assert not play.band_bars.isHidden(), mode
        assert app.base.camLens.getFov()[1] > fov0[1], mode  # the band holds the view's whole natural height
    app.manager.switch("menu")
    assert tuple(app.base.camLens.getFov()) == pytest.approx(fov0)
    off = app.base.camLens.getFilmOffset()
    assert (off[0], off[1]) == (0.0, 0.0)
