"""The play screen's layout on the table: the band the HUD leaves free for the camera (the top and broadcast views
frame the bed there, issue 26 §3), where the bed and the panels are drawn (for the tests), and the call ringed on
the table."""

from __future__ import annotations

from typing import Any

from scenes.screens.views import a2d_box, place_band_bars


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
    band_bars: Any
    _cue_centre: Any

    def _keep_table_clear(self) -> None:
        """Tell the camera which part of the window the HUD leaves free: the band between the top blocks (score,
        requirement) and the bottom ones (call, cue panel, key hint). The top and broadcast views frame the table
        there, so no panel covers the bed at any window size. Measured again only when the HUD redrew or the
        window changed shape."""
        self._measure_free()
        place_band_bars(self.band_bars, self.camera.rig)

    def _measure_free(self) -> None:
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
        box of the part of its outline in front of the eye, projected through the camera and cut to the part
        of the window the picture shows (the band between the bars in the player's and side views); the cue
        ball's centre where it is drawn (None when it is behind the eye)."""
        aspect = float(self.base.getAspectRatio())
        s = self.match.spec
        outline = [
            (sx * s.half_length, sy * s.half_width, 0.0) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        bed = self._drawn_box(outline)
        picture = (-aspect, -1.0, aspect, 1.0)
        if not self.band_bars.isHidden():
            _x0, _x1, y0, y1 = self.camera.rig.band()
            picture = (-aspect, y0, aspect, y1)
        if bed is not None:
            cut = (
                max(bed[0], picture[0]),
                max(bed[1], picture[1]),
                min(bed[2], picture[2]),
                min(bed[3], picture[3]),
            )
            bed = cut if cut[0] < cut[2] and cut[1] < cut[3] else None
        centre = self._cue_centre()
        cue_ball = None
        if centre is not None:
            drawn = self._drawn_points([(centre[0], centre[1], s.ball_radius)])
            cue_ball = drawn[0] if drawn else None
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
        return {
            "aspect": aspect,
            "bed": bed,
            "picture": picture,
            "cue_ball": cue_ball,
            "panels": panels,
            "free": list(self.camera.rig.free),
        }

    def _drawn_points(self, points: list[tuple[float, float, float]]) -> list[tuple[float, float]]:
        """The table-frame polygon ``points`` cut to the part in front of the eye (beyond the near plane), each
        corner where the lens draws it in aspect2d units (off the window too: the place is still computed)."""
        from panda3d.core import Point2, Point3

        near = float(self.base.camLens.getNear())
        rel = [self.base.cam.getRelativePoint(self.view.root, Point3(*p)) for p in points]
        if len(rel) == 1:
            front = rel if rel[0].y > near else []
        else:
            front = []
            for a, b in zip(rel, rel[1:] + rel[:1], strict=True):
                if a.y > near:
                    front.append(a)
                if (a.y > near) != (b.y > near):
                    k = (near - a.y) / (b.y - a.y)
                    front.append(a + (b - a) * k)
        aspect = float(self.base.getAspectRatio())
        out = []
        for p in front:
            film = Point2()
            self.base.camLens.project(p, film)
            out.append((float(film.x) * aspect, float(film.y)))
        return out

    def _drawn_box(
        self, outline: list[tuple[float, float, float]]
    ) -> tuple[float, float, float, float] | None:
        drawn = self._drawn_points(outline)
        if not drawn:
            return None
        xs, zs = [p[0] for p in drawn], [p[1] for p in drawn]
        return (min(xs), min(zs), max(xs), max(zs))

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
