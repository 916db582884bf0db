"""Glue between the screens and the 3D view: table view, camera rig, replay player, input polling.

The table view, camera and replay player are another part of ``scenes/``; this module is the one place
the screens touch their constructors, so the screens stay about play, not wiring.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from physics.tables import TableSpec

# Ball set per table: numbered ivory pyramid balls, pool solids and stripes, snooker colours.
BALL_STYLE: dict[str, str] = {
    "pyramid-12ft": "pyramid",
    "pool-9ft": "pool",
    "snooker-12ft": "snooker",
    "snooker-10ft": "snooker",
}


def ball_z(spec: TableSpec) -> float:
    """Height of a resting ball's centre: the cloth is z = 0."""
    return spec.ball_radius


def make_table_view(
    base: Any, parent: Any, spec: TableSpec, ball_ids: list[str], style: str, settings: Any
) -> Any:
    from scenes.table_view import TableView

    return TableView(parent, spec, ball_ids, style, lamp=settings.lamp_position)


def show_positions(view: Any, positions: Mapping[str, tuple[float, float]], spec: TableSpec) -> None:
    """Balls at rest at ``positions``; every other ball of the view is hidden (pocketed, off, on a shelf)."""
    z = ball_z(spec)
    for ball in list(view.balls):
        if ball not in positions:
            view.set_ball_state(ball, (0.0, 0.0, z), visible=False)
    for ball, (x, y) in positions.items():
        view.set_ball_state(ball, (x, y, z))


def make_camera(base: Any, view: Any, spec: TableSpec) -> Any:
    from scenes.camera import CameraRig

    return CameraAdapter(CameraRig(base, spec), view, spec)


def make_replay(record: Any, view: Any) -> Any:
    from scenes.replay import ReplayPlayer

    return ReplayAdapter(ReplayPlayer(record, view))


class CameraAdapter:
    """The screens' camera verbs over the camera rig: modes, focus on the cue ball, follow a stroke."""

    MODES = ("player", "orbit", "top", "side", "follow", "broadcast", "free")

    def __init__(self, rig: Any, view: Any, spec: TableSpec) -> None:
        self.rig = rig
        self.view = view
        self.spec = spec
        self.mode = "player"
        self.follow_ball = "cue"
        # Points a replay keeps in the orbit and player views (the struck ball's start, its first contact):
        # with the struck ball where it is now, they are framed every frame of the playback.
        self.keep: list[tuple[float, float, float]] = []
        self.rig.set_mode(self.mode, snap=True)

    def set_mode(self, mode: str) -> None:
        if mode in self.MODES:
            self.mode = mode
            self.rig.set_mode(mode)

    def next_mode(self) -> None:
        self.set_mode(self.MODES[(self.MODES.index(self.mode) + 1) % len(self.MODES)])

    def zoom(self, factor: float) -> None:
        self.rig.zoom(factor)

    def orbit(self, d_yaw: float, d_pitch: float) -> None:
        if self.mode == "free":
            self.rig.turn(d_yaw, d_pitch)
        else:
            self.rig.orbit(d_yaw, d_pitch)

    def focus(self, centre: tuple[float, float] | None, direction: float) -> None:
        """Centre the view on the ball to be struck, looking along the aim (player's and orbit views); the
        player's view frames that ball and the ball (or cushion) the aim meets."""
        if self.rig.frame_points and self.mode == "top":
            self.rig.frame(())  # a ball the last stroke sent off the table no longer widens the top view
        if centre is not None:
            self.rig.set_target((centre[0], centre[1], ball_z(self.spec)))
        self.rig.set_aim(direction)
        self._frame_the_shot(centre, direction)

    def _frame_the_shot(self, centre: tuple[float, float] | None, direction: float) -> None:
        from scenes.camera import CameraMode
        from scenes.cue_control import aim_hit

        if centre is None or self.rig.mode != CameraMode.PLAYER:
            return
        positions = {}
        for b, np_ in getattr(self.view, "balls", {}).items():
            st = self.view.ball_state(b)
            if st is not None and st.visible and not np_.isHidden():
                positions[b] = (st.pos[0], st.pos[1])
        struck = next((b for b, p in positions.items() if math.dist(p, centre) < 1e-3), None)
        if struck is None:
            return
        hit = aim_hit(self.spec, positions, struck, direction)
        far = positions[hit.ball] if hit.ball is not None else hit.end
        z = ball_z(self.spec)
        # The near part of the cue's shaft is in the picture too, as a player sees it down the cue.
        a = math.radians(direction)
        shaft = (centre[0] - 0.3 * math.cos(a), centre[1] - 0.3 * math.sin(a), z + 0.03)
        self.rig.frame([(*centre, 0.0), (*centre, 2 * z), (far[0], far[1], z), shaft], 0.12)

    def follow_stroke(self, ball: str) -> None:
        self.follow_ball = ball

    def track(self, player: Any) -> None:
        """During playback the follow view keeps the struck ball in the middle and the side view stays across
        from it; a ball that left the table takes its place (the side view then looks at it from beyond, low,
        the table behind), and the top view widens to hold the table and every ball beyond it."""
        off = self._off_table()
        if self.mode in ("orbit", "player") and self.keep:
            st = player.state_at(self.follow_ball)
            now = [tuple(float(v) for v in st.pos)] if st is not None and st.visible else []
            self.rig.frame([*self.keep, *now], 0.15)
        elif self.mode in ("follow", "side"):
            ball = off[0][0] if off else self.follow_ball
            self.rig.set_target(player.state_at(ball).pos)
        elif self.mode == "top" and (off or self.rig.frame_points):
            self.rig.frame([pos for _, pos in off])

    def _off_table(self) -> list[tuple[str, tuple[float, float, float]]]:
        """The visible balls beyond the rails' outline (in flight, on the floor, by a wall), lowest first."""
        s = self.spec
        X = s.half_length + s.cushion_width + s.rail_width
        Y = s.half_width + s.cushion_width + s.rail_width
        out = []
        for b in getattr(self.view, "balls", {}):
            st = self.view.ball_state(b)
            if st is not None and st.visible and (abs(st.pos[0]) > X or abs(st.pos[1]) > Y):
                out.append((b, (float(st.pos[0]), float(st.pos[1]), float(st.pos[2]))))
        return sorted(out, key=lambda item: item[1][2])

    def update(self, dt: float) -> None:
        self.rig.update(dt)

    def destroy(self) -> None:
        """The rig owns no nodes (it drives the ShowBase camera): it only gives the shared lens back."""
        self.rig.release_lens()


class ReplayAdapter:
    """The screens' playback verbs over the replay player."""

    def __init__(self, player: Any) -> None:
        self.p = player
        self.fast = 1.0  # scripted fast-forward (the demo); the player's own speeds are 1 and slower

    @property
    def t(self) -> float:
        return float(self.p.t)

    @property
    def finished(self) -> bool:
        return bool(self.p.finished)

    def set_speed(self, speed: float) -> None:
        if speed > 1.0:
            self.fast = speed
            self.p.set_speed(1.0)
        else:
            self.fast = 1.0
            self.p.set_speed(speed)

    def advance(self, dt: float) -> None:
        self.p.update(dt * self.fast)

    def state_at(self, ball: str) -> Any:
        return self.p.state_at(ball, self.p.t)

    @property
    def duration(self) -> float:
        return float(self.p.duration)

    def seek(self, t: float) -> None:
        self.p.seek(t)

    def pause(self) -> None:
        self.p.pause()

    def resume(self) -> None:
        self.p.play()

    def step(self, frames: int = 1) -> None:
        self.p.step(frames)

    def events_until(self, t: float) -> list[Any]:
        return list(self.p.events_until(t))


class KeyPoller:
    """Held keys and the mouse, polled each frame (key names are settings.toml's Panda3D names).

    Returns 0/1 so the screens can write ``right - left``; with no window (offscreen) nothing is down.
    """

    def __init__(self, base: Any) -> None:
        self.base = base
        self._handles: dict[str, Any] = {}
        self._last_mouse: tuple[float, float] | None = None

    def _watcher(self) -> Any:
        return getattr(self.base, "mouseWatcherNode", None)

    def down(self, key: str) -> int:
        mw = self._watcher()
        if mw is None:
            return 0
        h = self._handles.get(key)
        if h is None:
            from panda3d.core import ButtonHandle, ButtonRegistry, KeyboardButton

            h = ButtonRegistry.ptr().findButton(key)
            if h == ButtonHandle.none() and len(key) == 1:
                h = KeyboardButton.asciiKey(key)
            self._handles[key] = h
        return int(bool(mw.isButtonDown(h)))

    def mouse(self) -> tuple[float, float] | None:
        mw = self._watcher()
        if mw is None or not mw.hasMouse():
            return None
        m = mw.getMouse()
        return (float(m.x), float(m.y))

    def aspect2d_mouse(self) -> tuple[float, float] | None:
        m = self.mouse()
        if m is None:
            return None
        from panda3d.core import Point3

        p = self.base.aspect2d.getRelativePoint(self.base.render2d, Point3(m[0], 0, m[1]))
        return (float(p[0]), float(p[2]))

    def mouse_delta(self) -> tuple[float, float]:
        """Mouse movement since the last call (screen units, -1..1 across the window)."""
        m = self.mouse()
        last, self._last_mouse = self._last_mouse, m
        if m is None or last is None:
            return (0.0, 0.0)
        return (m[0] - last[0], m[1] - last[1])

    def mouse_moved(self) -> bool:
        return self.mouse_delta() != (0.0, 0.0)


def a2d_box(base: Any, node: Any) -> tuple[float, float, float, float] | None:
    """(x0, z0, x1, z1) of a 2D node's drawn extent in aspect2d units, or None if it draws nothing."""
    from panda3d.core import PGItem, Point3

    bounds = node.getTightBounds(base.aspect2d)
    xs: list[float] = []
    zs: list[float] = []
    if bounds is not None:
        lo, hi = bounds
        xs += [float(lo[0]), float(hi[0])]
        zs += [float(lo[2]), float(hi[2])]
    # A DirectGUI item's backing card is its PGItem's own frame, not a child geom: tight bounds leave it out.
    item = node.node()
    if isinstance(item, PGItem) and item.hasFrame():
        left, right, bottom, top = item.getFrame()
        for x, z in ((left, bottom), (right, top)):
            p = base.aspect2d.getRelativePoint(node, Point3(x, 0, z))
            xs.append(float(p[0]))
            zs.append(float(p[2]))
    if not xs:
        return None
    return (min(xs), min(zs), max(xs), max(zs))


def make_band_bars(base: Any) -> Any:
    """The bars behind the HUD's top and bottom panels in every view but the top and broadcast ones (which fit
    the table into the free band): those views show their
    whole natural picture in the band between (see CameraRig.band), and the bars screen off the rest of the
    picture, so the panels stand on a bar, never over the bed (drawn first: under every panel)."""
    from panda3d.core import CardMaker

    root = base.render2d.attachNewNode("band-bars")
    root.setBin("background", 0)
    root.setDepthWrite(False)
    root.setDepthTest(False)
    for name in ("top", "bottom"):
        cm = CardMaker(f"band-bar-{name}")
        cm.setFrame(-1, 1, 0, 1) if name == "top" else cm.setFrame(-1, 1, -1, 0)
        card = root.attachNewNode(cm.generate())
        card.setColor(0.045, 0.05, 0.055, 1.0)
    root.hide()
    return root


def place_band_bars(bars: Any, rig: Any) -> None:
    """The bars follow the band the camera composes the player's and side views in."""
    _x0, _x1, y0, y1 = rig.band()
    if rig.mode in ("top", "broadcast") or (y0, y1) == (-1.0, 1.0):
        bars.hide()
        return
    top, bottom = bars.getChildren()
    top.setPos(0, 0, y1)
    top.setScale(1, 1, max(1e-4, 1.0 - y1))
    bottom.setPos(0, 0, y0)
    bottom.setScale(1, 1, max(1e-4, y0 + 1.0))
    bars.show()
