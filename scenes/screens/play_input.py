"""Mouse input of the play and practice screens: the point, ball and pocket under the cursor, power drags,
the tip diagram, calls, picking the struck ball or the ball a ruling lets the next player remove."""

from __future__ import annotations

import math
from typing import Any

from scenes.cue_control import REST_PULLBACK
from scenes.screens.views import ball_z


class PlayInputMixin:
    """Mixed into :class:`scenes.screens.play.PlayScreen` (it provides every attribute used here)."""

    base: Any
    match: Any
    view: Any
    keys: Any
    cue: Any
    aim: Any
    phase: Any
    practice: bool
    dragging: Any
    drag_ball: Any
    struck_ball: str
    status: str
    lang: str
    _table_positions: Any  # PlayScreen's: where the balls stand on the table now

    def view_point(self, mouse: tuple[float, float]) -> tuple[float, float] | None:
        """Where the mouse ray meets the plane of the ball centres, in the table frame."""
        from panda3d.core import Point2, Point3

        near, far = Point3(), Point3()
        if not self.base.camLens.extrude(Point2(*mouse), near, far):
            return None
        root = self.view.root
        near = root.getRelativePoint(self.base.cam, near)
        far = root.getRelativePoint(self.base.cam, far)
        z = ball_z(self.match.spec)
        if abs(far.z - near.z) < 1e-9:
            return None
        t = (z - near.z) / (far.z - near.z)
        if t < 0:
            return None
        return (near.x + (far.x - near.x) * t, near.y + (far.y - near.y) * t)

    # --- input ---------------------------------------------------------------------------------
    def _mouse1_down(self) -> None:
        mouse = self.keys.mouse()
        if mouse is None:
            return
        a2d = self.keys.aspect2d_mouse()
        tip = self.cue.tip_from_mouse(*a2d) if a2d is not None else None
        if tip is not None and self.phase in ("aim", "place"):
            self.aim = self.aim.with_tip(*tip)
            return
        if self.phase == "place":
            self.confirm_place()
        elif self.phase == "aim":
            self.dragging = mouse

    def _mouse1_up(self) -> None:
        if self.dragging is None:
            return
        self.dragging = None
        self.cue.pullback = REST_PULLBACK
        if self.phase == "aim" and self.aim.speed > 0.05:
            self.shoot()

    def _mouse3_down(self) -> None:
        """Right button: call a ball then a pocket (called games), pick the struck ball (Американка),
        drag a ball (practice), or pick the ball to remove (a ruling's choice)."""
        mouse = self.keys.mouse()
        if mouse is None:
            return
        p = self.view_point(mouse)
        if p is None:
            return
        ball = self.ball_at(p)
        if self.phase == "decide" and ball is not None and ball in self.match.options:
            self.decide(ball)
            return
        if self.phase not in ("aim", "place"):
            return
        if self.practice:
            if self.phase == "aim":
                self.drag_ball = ball
            return
        if ball is not None and getattr(self.match.referee, "any_ball_cue", False):
            if self.phase == "aim":
                self.struck_ball = ball  # Американка: any ball may be the one struck
            return
        if self._no_call_taken():
            return
        # Everywhere else the right button enters the call: a ball (snooker: the nominated ball), then a pocket.
        pocket = self.pocket_at(p)
        if ball is not None and ball != self.struck_ball:
            self.match.call_ball = ball
        elif pocket is not None:
            self.match.call_pocket = pocket
        self._refresh_hud()

    def _no_call_taken(self) -> bool:
        """On a break the referee asks no call (71's opening counts whatever falls): a call entered then would
        be dropped, so the window says so instead of keeping it silently (issue 26 §4)."""
        from rules.contract import Phase
        from scenes.core.i18n import tr

        m = self.match
        if m.state is None or str(m.state.phase) != str(Phase.BREAK) or m.needs_call or m.needs_nomination:
            return False
        self.status = tr("status.no_call_on_break", self.lang)
        self._refresh_hud()
        return True

    def _mouse3_up(self) -> None:
        self.drag_ball = None

    def ball_at(self, p: tuple[float, float]) -> str | None:
        R = self.match.spec.ball_radius
        best = min(
            self._table_positions().items(),  # where the balls are drawn (while deciding: where they stopped)
            key=lambda kv: math.hypot(kv[1][0] - p[0], kv[1][1] - p[1]),
            default=None,
        )
        if best is None or math.hypot(best[1][0] - p[0], best[1][1] - p[1]) > 1.5 * R:
            return None
        return best[0]

    def pocket_at(self, p: tuple[float, float]) -> str | None:
        pockets = self.match.spec.pockets
        pid, pk = min(
            pockets.items(), key=lambda kv: math.hypot(kv[1].centre[0] - p[0], kv[1].centre[1] - p[1])
        )
        return pid if math.hypot(pk.centre[0] - p[0], pk.centre[1] - p[1]) < 0.2 else None
