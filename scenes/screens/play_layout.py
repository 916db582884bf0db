"""The play screen's layout on the table: the band the HUD leaves free for the camera (the top and broadcast views
frame the bed there, issue 26 §3), where the bed and the panels are drawn (for the tests), and the call ringed on
the table."""

from __future__ import annotations

from typing import Any

from scenes.screens.views import a2d_box


class PlayLayoutMixin:
    """Mixed into :class:`scenes.screens.play.PlayScreen` (it provides every attribute used here)."""

    base: Any
    match: Any
    view: Any
    hud: Any
    cue: Any
    camera: Any
    phase: Any
    help_hint: Any
    free_key: tuple[Any, ...]
    call_marked: tuple[str | None, str | None]

    def _keep_table_clear(self) -> None:
        """Tell the camera which part of the window the HUD leaves free: the band between the top blocks (score,
        requirement) and the bottom ones (call, cue panel, key hint). The top and broadcast views frame the table
        there, so no panel covers the bed at any window size. Measured again only when the HUD redrew or the
        window changed shape."""
        aspect = float(self.base.getAspectRatio())
        key = (
            self.hud.redraws,
            round(aspect, 4),
            self.cue.tip_widget.isHidden(),
            self.hud.blocks["details"].isHidden(),
        )
        if key == self.free_key:
            return
        self.free_key = key
        top, bottom = 1.0, -1.0
        for node in (self.hud.blocks["score"], self.hud.blocks["required"]):
            box = a2d_box(self.base, node)
            if box is not None:
                top = min(top, box[1])
        for node in (
            self.hud.blocks["call"],
            self.hud.blocks["details"],
            self.cue.text,
            self.cue.gauge,
            self.cue.tip_widget,
            self.cue.elev_widget,
            self.help_hint,
        ):
            box = a2d_box(self.base, node)
            if box is not None and not node.isHidden():
                bottom = max(bottom, box[3])
        gap = 0.02
        self.camera.rig.set_free(-1.0, 1.0, bottom + gap, top - gap)

    def layout(self) -> dict[str, Any]:
        """Where the bed and the HUD's panels are drawn now, in aspect2d units (x0, z0, x1, z1): the bed as the
        box of its outline's corners projected through the camera (None when a corner is behind the eye)."""
        from panda3d.core import Point2, Point3

        s = self.match.spec
        corners: list[tuple[float, float]] = []
        behind = False
        for sx in (-1, 1):
            for sy in (-1, 1):
                p = self.base.cam.getRelativePoint(
                    self.view.root, Point3(sx * s.half_length, sy * s.half_width, 0)
                )
                film = Point2()
                self.base.camLens.project(p, film)  # False off the film: the corner's place is still computed
                behind = behind or p.y <= 0
                corners.append((float(film.x), float(film.y)))
        aspect = float(self.base.getAspectRatio())
        bed = (
            None
            if behind
            else (
                min(c[0] for c in corners) * aspect,
                min(c[1] for c in corners),
                max(c[0] for c in corners) * aspect,
                max(c[1] for c in corners),
            )
        )
        nodes = dict(self.hud.blocks)
        nodes.update(
            cue_text=self.cue.text,
            gauge=self.cue.gauge,
            tip=self.cue.tip_widget,
            elevation=self.cue.elev_widget,
            hint=self.help_hint,
        )
        panels = {
            k: b for k, n in nodes.items() if not n.isHidden() and (b := a2d_box(self.base, n)) is not None
        }
        return {"aspect": aspect, "bed": bed, "panels": panels, "free": list(self.camera.rig.free)}

    def _mark_call(self) -> None:
        """The call on the table, where the player looks: the called ball ringed, the called pocket ringed at its
        mouth (cyan: not the yellow of a respotted ball); redrawn only when the call changes."""
        m = self.match
        call = (m.call_ball, m.call_pocket) if self.phase in ("aim", "place") else (None, None)
        if call == self.call_marked:
            return
        self.call_marked = call
        for key in ("call-ball", "call-pocket"):
            self.view.clear_highlight(key)
        colour = (0.25, 0.85, 1.0, 1.0)
        if call[0] is not None:
            self.view.highlight(call[0], colour, key="call-ball")
        if call[1] is not None and call[1] in m.spec.pockets:
            self.view.highlight(m.spec.pockets[call[1]].centre, colour, key="call-pocket")
