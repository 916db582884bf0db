"""Scripted input and the state dump of the play and practice screens (BILLIARDS_SCRIPT, the tests).

Every action goes through the same methods the keys and the mouse use; ``dump`` is what the screen shows
and what it was told, for the end-to-end tests.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from scenes.core.match import ACCEPT
from scenes.core.script import ScriptRefused
from scenes.cue_control import CueState, direction_to
from scenes.screens.views import show_positions


class PlayScriptMixin:
    """Mixed into :class:`scenes.screens.play.PlayScreen` (it provides every attribute used here)."""

    match: Any
    aim: Any
    phase: Any
    camera: Any
    view: Any
    hud: Any
    stats: Any
    assist: Any
    player: Any
    replay_speed: float

    # --- script ----------------------------------------------------------------------------------
    def script_action(self, a: dict[str, Any]) -> bool:
        """Scripted input through the same paths as keys and mouse (see scenes.app.ScriptRunner)."""
        do = a["do"]
        m = self.match
        if do == "aim":
            self.aim = CueState(
                float(a["direction"]) % 360.0, self.aim.speed, self.aim.elevation, self.aim.tip
            )
        elif do == "aim_at":
            c = self._cue_centre()
            if "ball" in a and a["ball"] not in m.positions:
                raise ScriptRefused(f"a ball on the table ({', '.join(m.positions)})", "ball")
            target = m.positions[str(a["ball"])] if "ball" in a else tuple(a["at"])
            assert c is not None
            self.aim = CueState(direction_to(c, target), self.aim.speed, self.aim.elevation, self.aim.tip)
        elif do == "aim_at_rack":
            self.aim = CueState(self._default_direction(), self.aim.speed, self.aim.elevation, self.aim.tip)
        elif do == "power":
            self.aim = self.aim.with_speed(float(a["speed"]))
        elif do == "tip":
            self.aim = self.aim.with_tip(float(a["x"]), float(a["y"]))
        elif do == "elevation":
            self.aim = self.aim.with_elevation(float(a["degrees"]))
        elif do == "call":
            if a.get("ball") is not None and a["ball"] not in m.positions:
                raise ScriptRefused(f"a ball on the table ({', '.join(m.positions)})", "ball")
            if a.get("pocket") is not None and a["pocket"] not in m.spec.pockets:
                raise ScriptRefused(f"a pocket of {m.spec.id} ({', '.join(m.spec.pockets)})", "pocket")
            if (a.get("ball") or a.get("pocket")) and self._no_call_taken():
                raise ScriptRefused("a stroke that takes a call (the break takes none)", "do")
            m.call_ball, m.call_pocket = a.get("ball"), a.get("pocket")
            self._refresh_hud()
        elif do == "place_cue":
            x, y = a["at"]
            if not m.place_cue(float(x), float(y)):
                raise ScriptRefused(f"a place the ball in hand may go now ({m.in_hand})", "at")
            show_positions(self.view, m.positions, m.spec)
        elif do == "confirm_place":
            self.confirm_place()
        elif do == "shoot":
            self.confirm_place()
            self.shoot()
        elif do == "speed":
            self.replay_speed = float(a["x"])
            if self.player is not None:
                self.player.set_speed(self.replay_speed)
        elif do == "decide":
            # ``null`` takes the ruling as it stands (no option chosen).
            if self.phase == "decide":
                option = a.get("option")
                self._apply(None if option in (None, ACCEPT) else str(option))
        elif do == "camera":
            self.camera.set_mode(str(a["mode"]))
            if a.get("snap"):
                self.camera.focus(self._cue_centre(), self.aim.direction)
                self.camera.rig.snap()
        elif do == "undo":
            self.undo()
        elif do == "save":
            self.save_position(a.get("path"))
        elif do == "load":
            self.load_position(a.get("path"))
        elif do == "preview":
            self.show_trajectory()
        else:
            raise ScriptRefused(f"an action of the {self.name} screen")
        if self.phase in ("aim", "place"):
            self.camera.focus(self._cue_centre(), self.aim.direction)
        return True

    def dump(self) -> dict[str, Any]:
        """What the screen shows and what it was told, for the end-to-end test."""
        m = self.match
        last = m.pending or m.last
        return {
            "screen": self.name,
            "phase": str(self.phase),
            "game": m.game,
            "names": list(m.names),
            "hud": self.hud.text(),
            "snapshot": asdict(self.hud.snapshot) if self.hud.snapshot else None,
            "ruling": last.ruling_json if last else None,
            "record": last.record.to_dict() if last else None,
            "state_before": last.state_before.snapshot() if last and last.state_before is not None else None,
            "state": m.state.snapshot() if m.state is not None else None,
            "positions": {b: list(p) for b, p in m.positions.items()},
            "aim": asdict(self.aim),
            "redraws": self.hud.redraws,
            "stats": self.stats.text(),
            "log": [s.to_dict() for s in m.log],
            "archived": self.stats.saved_match,
            "lag": None if m.lag_run is None else {"player": m.lag_run.index, "ball": m.lag_run.ball},
            "layout": self.layout(),
        }
