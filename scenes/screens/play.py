"""The play screen (a hot-seat match of any game) and the practice screen (no referee).

One stroke goes: place the ball in hand (if the ruling gave one) → aim, set power, english and
elevation → strike: the stroke is simulated ahead by the physics and judged by the referee → the cue
is animated into the ball and the recording is played back (with sounds) → the ruling is carried out
(respots highlighted, scores to the HUD), after the next player chooses among the options offered.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import Future
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from physics.cues import CUE_KINDS
from physics.errors import InputError
from physics.record import ShotParams
from rules.contract import NoteCode
from scenes.aim_view import AimAssist, AimView
from scenes.core.aim_aids import AimLevel, trajectory_paths
from scenes.core.i18n import display_names, key_labels, key_name, tr, zone_name
from scenes.core.match import ACCEPT, MatchController, Unavailable, final_positions, placement_allowed
from scenes.cue_control import (
    MAX_PULLBACK,
    MAX_SPEED,
    REST_PULLBACK,
    CueState,
    CueView,
    direction_to,
)
from scenes.fonts import ui_font
from scenes.hud import Hud
from scenes.screens import Screen
from scenes.screens.play_aim import PlayAimMixin
from scenes.screens.play_input import PlayInputMixin
from scenes.screens.play_layout import PlayLayoutMixin
from scenes.screens.play_script import PlayScriptMixin
from scenes.screens.stats_panel import StatsPanel
from scenes.screens.views import (
    BALL_STYLE,
    KeyPoller,
    ball_z,
    make_band_bars,
    make_camera,
    make_replay,
    make_table_view,
    show_positions,
)

AIM_RATE = 30.0  # degrees per second with the aim keys held
FINE_AIM_RATE = 1.5  # with the fine modifier: about 0.05° a frame, finer than a mouse pixel
POWER_RATE = 3.0  # m/s per second with the power keys held
ELEVATION_RATE = 20.0  # degrees per second
TIP_RATE = 0.8  # radii per second
MOUSE_TURN = 60.0  # degrees of aim per screen width/2 of sideways mouse motion (player's view)
MOUSE_FINE_TURN = 4.0
DRAG_SPEED_PER_UNIT = 8.0  # m/s of cue speed per screen unit of a power drag
STRIKE_SECONDS = 0.18  # the cue's forward swing drawn before the recording starts


class Phase(StrEnum):
    PLACE = "place"  # ball in hand: move it within its zone, confirm
    AIM = "aim"
    SIMULATE = "simulate"  # one frame to show "simulating" before the blocking physics call
    STRIKE = "strike"  # the cue's forward swing
    PLAYBACK = "playback"
    DECIDE = "decide"  # the next player picks an option / a ball
    OVER = "over"  # match over


class PlayScreen(PlayAimMixin, PlayInputMixin, PlayScriptMixin, PlayLayoutMixin, Screen):
    name = "play"
    practice = False

    # --- setup ---------------------------------------------------------------------------------
    def enter(
        self,
        game: str | None = None,
        names: tuple[str, ...] | None = None,
        frames_to_win: int | None = None,
        resume: bool = False,
        scenario: str | None = None,
        resume_saved: bool = False,
        table: str | None = None,
        **_: Any,
    ) -> None:
        s = self.ctx.settings
        self.controls = s.controls
        self.status = ""
        self.replay_speed = 1.0
        self.pending_decision: str | None = None
        match = self.ctx.shared.get("match") if resume else None
        if match is None and resume_saved and not self.practice:
            match = MatchController.from_autosave(str(self._autosave_path()), self.lang, s)
        if match is None or match.is_practice != self.practice:
            match = self._new_match(game, names, frames_to_win, scenario, table)
        self.match: MatchController = match
        self.ctx.shared["match"] = match
        self.ctx.shared["return_to"] = self.name
        spec = match.spec
        font = ui_font(self.base.loader)
        self.view = make_table_view(
            self.base, self.root3d, spec, self._ball_ids(), BALL_STYLE[spec.id], self.ctx.settings
        )
        self.camera = make_camera(self.base, self.view, spec)
        self._build_widgets(font)
        self.aim = CueState(direction=self.ctx.shared.get("aim_direction", 0.0) if resume else 0.0)
        self.cue.kind = self.ctx.shared.get("cue_kind", "") if resume else ""
        self.cue.kind = self.cue.kind or s.cue.for_game(match.game)  # settings [cue]: each game's first cue
        self.struck_ball = match.cue_ball
        self.phase = Phase.AIM  # until _after_stroke_or_start says what the position asks for
        self.keys = KeyPoller(self.base)
        self.dragging: tuple[float, float] | None = None
        self.drag_ball: str | None = None
        self.player: Any = None
        self.result: Any = None
        self.strike_t = 0.0
        self.sound_index = 0
        self.last_shot: ShotParams | None = None
        self.job: Future[Any] | None = None
        self.respot_marks: list[str] = []
        self.call_marked: tuple[str | None, str | None] = (None, None)  # the call ringed on the table now
        self.free_key: tuple[Any, ...] = ()  # what the HUD's free area was last measured for
        self.band_bars = make_band_bars(self.base)
        self._bind()
        if not resume:
            self.aim = CueState(direction=self._default_direction())
        self._after_stroke_or_start()
        self.add_task(self._update, "update")

    def _build_widgets(self, font: Any) -> None:
        """The HUD, the cue and its widgets, the aiming aids, the statistics panel and the help texts."""
        self.hud = Hud(self.base, self.lang)
        self.own(self.hud)
        spec = self.match.spec
        params = self.match.physics_params()
        from physics.cue import squirt_angle

        self.cue = CueView(
            self.base,
            self.view.root,
            self.root2d,
            spec,
            font,
            self.lang,
            miscue_limit=params.miscue_limit,
            squirt=lambda side, kind: squirt_angle(side, params.with_cue(spec.id, kind)),
        )
        self.own(self.cue)
        self.assist = self.own(self._make_assist())
        self.stats = self.own(StatsPanel(self.base, font, self.lang))
        self.turn_started = time.monotonic()
        self.aim_seconds = 0.0
        from direct.gui.OnscreenText import OnscreenText
        from panda3d.core import TextNode

        c = key_labels(self.controls, self.lang)
        help_text = tr(
            "play.help",
            self.lang,
            shoot=c.shoot,
            tip=f"{c.tip_up}/{c.tip_left}/{c.tip_down}/{c.tip_right}",
            elev=f"{c.elevation_up}/{c.elevation_down}",
            cue=c.cue_kind,
            camera=c.camera_next,
            replay=c.replay,
            menu=c.menu,
            aid=c.aim_aid,
        )
        if self.practice:
            help_text += "\n" + tr("practice.help", self.lang, repeat=key_name("f6", self.lang), undo=c.undo)
        # The full key list is shown on demand (settings' help key): it would cover the table otherwise.
        self.help = self.own(
            OnscreenText(
                parent=self.base.a2dTopCenter,
                text=help_text,
                pos=(0, -0.45),
                scale=0.04,
                fg=(1, 1, 1, 1),
                font=font,
                align=TextNode.ACenter,
                shadow=(0, 0, 0, 0.8),
                bg=(0, 0, 0, 0.6),
                wordwrap=36,
            )
        )
        self.help.hide()
        self.help_hint = self.own(
            OnscreenText(
                parent=self.base.a2dBottomCenter,
                pos=(0, 0.03),
                scale=0.032,
                text=tr("play.help_hint", self.lang, key=c.help),
                font=font,
                fg=(0.85, 0.85, 0.85, 1),
                shadow=(0, 0, 0, 0.8),
            )
        )

    def _new_match(
        self,
        game: str | None,
        names: tuple[str, ...] | None,
        frames_to_win: int | None,
        scenario: str | None,
        table: str | None = None,
    ) -> MatchController:
        s = self.ctx.settings
        game = game or s.game.default
        names = display_names(names or s.players.names, self.lang)
        frames = int(frames_to_win or s.game.frames_to_win)

        def make(names: tuple[str, ...]) -> MatchController:
            return MatchController(
                game=game,
                table=table,
                names=names,
                frames_to_win=frames,
                lang=self.lang,
                settings=s,
                autosave=self._autosave_path(),
            )

        try:
            return make(names)
        except InputError as exc:
            if exc.key != "players":
                raise
            # The game takes another number of players (snooker two, golf two to eight): fit the list.
            from rules.registry import get_referee

            lo, hi = get_referee(game).player_range
            return make(
                names[:hi] + tuple(tr("menu.player_n", self.lang, n=i + 1) for i in range(len(names), lo))
            )

    def _make_assist(self) -> AimAssist:
        """The aiming aids at the settings' level for practice or a match (aiming_line = false turns them
        off, trajectory_preview = false stops them short of the full preview)."""
        d = self.ctx.settings.display
        cap = AimLevel.PREVIEW if d.trajectory_preview else AimLevel.PATH
        if not d.aiming_line:
            cap = AimLevel.OFF
        view = AimView(self.base, self.view.root, self.match.spec.ball_radius)
        level = d.aim_aid if self.practice else d.aim_aid_match
        return AimAssist(self.match, view, self.ctx.physics, level, cap)

    def next_cue(self) -> None:
        """Take the next cue (playing, break, jump): its mass, tip and shaft go into the strike."""
        kinds = CUE_KINDS
        self.cue.kind = kinds[(kinds.index(self.cue.kind) + 1) % len(kinds)]
        self.ctx.shared["cue_kind"] = self.cue.kind
        self.status = tr("cue.taken", self.lang, name=tr(f"cue.kind.{self.cue.kind}", self.lang))
        self._refresh_hud()

    def _shot(self) -> ShotParams:
        """The stroke as aimed, with the cue taken."""
        return replace(self.cue.raised(self.aim).shot(ball=self.struck_ball), cue=self.cue.kind)

    def cycle_aim_aid(self) -> None:
        level = self.assist.cycle()
        self.status = tr("aim.level", self.lang, name=tr(f"aim.level.{level}", self.lang))
        self._refresh_hud()

    def _autosave_path(self) -> str | None:
        """Where a match in progress is autosaved (`play --resume` continues it); none in practice."""
        if self.practice:
            return None
        return str(self.ctx.settings.data_dir() / "match-autosave.json")

    def _ball_ids(self) -> list[str]:
        ids = set(self.match.positions)
        st = self.match.state
        if st is not None:
            ids |= set(st.balls) | set(st.out) | {b for shelf in st.shelves for b in shelf} | {st.cue}
            ids |= set(self.match.referee.ball_set(len(st.players)))
        return sorted(ids)

    def _bind(self) -> None:
        c = self.controls
        self.accept(c.shoot, self.shoot)
        self.accept(c.menu, self.to_menu)
        self.accept(c.camera_next, self.camera.next_mode)
        self.accept(c.camera_top, self.camera.set_mode, ["top"])
        self.accept(c.replay, self.open_replay)
        self.accept(c.undo, self.undo)
        self.accept(c.help, self.toggle_help)
        self.accept(c.aim_aid, self.cycle_aim_aid)
        self.accept(c.stats, self.toggle_stats)
        self.accept(c.details, self.hud.toggle_details)
        self.accept(c.cue_kind, self.next_cue)
        self.accept("mouse1", self._mouse1_down)
        self.accept("mouse1-up", self._mouse1_up)
        self.accept("wheel_up", self.camera.zoom, [0.9])
        self.accept("wheel_down", self.camera.zoom, [1.1])
        self.accept("mouse3", self._mouse3_down)
        self.accept("mouse3-up", self._mouse3_up)
        for i in range(1, 10):
            self.accept(str(i), self.decide_index, [i - 1])
        if self.practice:
            self.accept("f5", self.save_position)
            self.accept("f9", self.load_position)
            self.accept("f6", self.repeat_last)

    # --- phases --------------------------------------------------------------------------------
    def _after_stroke_or_start(self) -> None:
        m = self.match
        self.struck_ball = m.cue_ball if not self.practice else "cue"
        if m.state is not None and m.state.match_over:
            self.phase = Phase.OVER
        elif m.can_play_lag:
            # Before the decider the lag is played on the table (rules.lag), one player after the other.
            if m.lag_run is None:
                m.start_lag()
            self._lag_turn()
            return
        elif m.state is not None and m.state.needs_lag:
            self.phase = Phase.DECIDE
        elif m.pending is not None and m.options and not self.practice:
            # Back from the replay of the stroke being decided: the choice is still open.
            self.phase = Phase.DECIDE
        elif m.in_hand is not None:
            self.phase = Phase.PLACE
            if not self.practice:
                self._place_for_a_clear_aim()
        else:
            self.phase = Phase.AIM
        show_positions(self.view, self._table_positions(), m.spec)
        self.camera.focus(self._cue_centre(), self.aim.direction)
        self._refresh_hud()

    def _lag_turn(self) -> None:
        """The next lagger's ball on its spot in the house, aimed straight at the foot cushion."""
        m = self.match
        assert m.lag_run is not None
        show_positions(self.view, m.positions, m.spec)
        self.struck_ball = m.lag_run.ball
        self.aim = CueState(0.0, self.aim.speed, self.aim.elevation, (0.0, 0.0))
        self.phase = Phase.AIM
        self.camera.focus(self._cue_centre(), self.aim.direction)
        self._refresh_hud()

    def ready(self) -> bool:
        """True when the screen waits for the player (the script's ``wait_rest``)."""
        return self.phase in (Phase.AIM, Phase.PLACE, Phase.DECIDE, Phase.OVER)

    def _table_positions(self) -> dict[str, tuple[float, float]]:
        """Where the balls stand on the table now: while a ruling waits for its choice, where the stroke left
        them (the ruling is not carried out yet); otherwise the match's positions."""
        m = self.match
        if self.phase == Phase.DECIDE and m.pending is not None and not self.practice:
            return final_positions(m.pending.record)
        return dict(m.positions)

    def _cue_centre(self) -> tuple[float, float] | None:
        return self._table_positions().get(self.struck_ball)

    def _refresh_hud(self) -> None:
        status = self.status
        if self.phase == Phase.PLACE and self.match.in_hand:
            status = tr(
                "cue.place",
                self.lang,
                zone=zone_name(self.match.in_hand, self.lang),
                key=key_name(self.controls.shoot, self.lang),
            )
        elif self.phase == Phase.SIMULATE:
            status = tr("status.simulating", self.lang)
        elif self.match.lag_run is not None and self.phase == Phase.AIM:
            run = self.match.lag_run
            turn = tr(
                "lag.turn",
                self.lang,
                name=self.match.names[run.index],
                half=tr(f"lag.half.{run.side}", self.lang),
            )
            status = f"{status}\n{turn}" if status else turn
        snap = self.match.snapshot(status=status)
        if self.phase == Phase.DECIDE and self.match.state is not None and self.match.state.needs_lag:
            snap = type(snap)(
                **{
                    **asdict_shallow(snap),
                    "options": tuple(f"lag:{i}" for i in range(len(self.match.names))),
                    "option_labels": (),
                }
            )
        self.hud.show(replace(snap, details_key=key_name(self.controls.details, self.lang)))
        self._mark_call()

    # --- the frame -----------------------------------------------------------------------------
    def _update(self, task: Any) -> Any:
        from direct.task import Task

        dt = min(self.base.clock.getDt(), 0.25)
        if self.phase == Phase.AIM:
            self._aim_input(dt)
        elif self.phase == Phase.PLACE:
            self._place_input()
        elif self.phase == Phase.SIMULATE:
            self._simulate()
        elif self.phase == Phase.STRIKE:
            self._strike(dt)
        elif self.phase == Phase.PLAYBACK:
            self._playback(dt)
        self._keep_table_clear()
        centre = self._cue_centre()
        show_cue = self.phase in (Phase.AIM, Phase.PLACE, Phase.SIMULATE, Phase.STRIKE)
        self.cue.update(self.aim, centre, self.match.positions, self.struck_ball, visible=show_cue)
        aiming = self.phase in (Phase.AIM, Phase.PLACE) and centre is not None
        self.assist.update(self._shot(), self.match.positions, visible=aiming)
        if self.phase == Phase.STRIKE and centre is not None:
            frac = min(1.0, self.strike_t / STRIKE_SECONDS)
            # The stroke is played at the raised elevation: the stick comes through at it, never through a rail.
            self.cue.place_stick(
                self.cue.raised(self.aim),
                (centre[0], centre[1], ball_z(self.match.spec)),
                self.cue.pullback * (1.0 - frac),
            )
        if self.keys.down("mouse2"):
            # Middle drag turns the orbit/free view around what it looks at.
            dx, dy = self.keys.mouse_delta()
            self.camera.orbit(-dx * 120.0, -dy * 60.0)
        self.camera.update(dt)
        return Task.cont

    def _aim_input(self, dt: float) -> None:
        c = self.controls
        fine = self.keys.down(c.fine_modifier)
        rate = FINE_AIM_RATE if fine else AIM_RATE
        turn = (self.keys.down(c.aim_left) - self.keys.down(c.aim_right)) * rate * dt
        aim = self.aim.turned(turn) if turn else self.aim
        aim = aim.with_speed(
            aim.speed + (self.keys.down(c.power_up) - self.keys.down(c.power_down)) * POWER_RATE * dt
        )
        aim = aim.with_elevation(
            aim.elevation
            + (self.keys.down(c.elevation_up) - self.keys.down(c.elevation_down)) * ELEVATION_RATE * dt
        )
        tx = (self.keys.down(c.tip_right) - self.keys.down(c.tip_left)) * TIP_RATE * dt
        ty = (self.keys.down(c.tip_up) - self.keys.down(c.tip_down)) * TIP_RATE * dt
        if tx or ty:
            aim = aim.with_tip(aim.tip[0] + tx, aim.tip[1] + ty)
        mouse = self.keys.mouse()
        if mouse is not None and self.drag_ball is None and not self.keys.down("mouse2"):
            if self.dragging is not None:
                self.keys.mouse_delta()  # consumed: the drag must not turn the cue when it ends
                # Pulling the mouse back (down the screen) draws the cue back: power grows with the pull.
                pull = max(0.0, self.dragging[1] - mouse[1])
                aim = aim.with_speed(pull * DRAG_SPEED_PER_UNIT)
                self.cue.pullback = REST_PULLBACK + (MAX_PULLBACK - REST_PULLBACK) * aim.speed / MAX_SPEED
            else:
                dx, _dy = self.keys.mouse_delta()
                if self.camera.mode in ("player", "follow"):
                    # The view turns with the aim, so the point under the mouse would chase itself:
                    # here sideways mouse motion turns the cue instead (finer with the modifier).
                    if dx:
                        aim = aim.turned(-dx * (MOUSE_FINE_TURN if fine else MOUSE_TURN))
                elif dx or _dy:
                    p = self.view_point(mouse)
                    c0 = self._cue_centre()
                    if p is not None and c0 is not None and math.hypot(p[0] - c0[0], p[1] - c0[1]) > 1e-3:
                        aim = CueState(direction_to(c0, p), aim.speed, aim.elevation, aim.tip)
        if self.drag_ball is not None and mouse is not None:
            p = self.view_point(mouse)
            if p is not None and self.match.move_ball(self.drag_ball, *p):
                show_positions(self.view, self.match.positions, self.match.spec)
        if aim != self.aim:
            self.aim = aim
            self.camera.focus(self._cue_centre(), aim.direction)

    def _place_input(self) -> None:
        mouse = self.keys.mouse()
        if mouse is not None and self.keys.mouse_moved():
            p = self.view_point(mouse)
            if p is not None and self.match.place_cue(*p):
                show_positions(self.view, self.match.positions, self.match.spec)

    def confirm_place(self) -> None:
        if self.phase == Phase.PLACE:
            self.phase = Phase.AIM
            self._refresh_hud()

    # --- the stroke ----------------------------------------------------------------------------
    def shoot(self) -> None:
        if self.phase == Phase.PLACE:
            self.confirm_place()
            return
        if self.phase != Phase.AIM or self.aim.speed <= 0.0 or self._cue_centre() is None:
            return
        for key in list(self.respot_marks):
            self.view.clear_highlight(key)
        self.respot_marks.clear()
        self.stats.hide()
        self.aim_seconds = time.monotonic() - self.turn_started
        shot = self.match.declared(self._shot())
        self.last_shot = shot
        self.ctx.shared["aim_direction"] = self.aim.direction
        try:
            fn, args, kwargs = self.match.simulate_job(shot)
        except Unavailable as exc:
            self.status = tr("status.no_physics", self.lang, why=str(exc))
            self._refresh_hud()
            return
        self.phase = Phase.SIMULATE
        self.assist.clear()
        # The physics runs in a worker process, so the window keeps drawing while the stroke is computed.
        self.job = self.ctx.physics.submit(fn, *args, **kwargs)
        self._refresh_hud()

    def _simulate(self) -> None:
        if self.job is None or not self.job.done():
            # Leave the CPU to the physics worker: with a software GL renderer each frame would compete with it.
            time.sleep(0.02)
            return
        job, self.job = self.job, None
        m = self.match
        self.result = m.lag_record(job.result()) if m.lag_run is not None else m.judge(job.result())
        self.status = ""
        self.strike_t = 0.0
        self.phase = Phase.STRIKE
        self.camera.follow_stroke(self.struck_ball)

    def _strike(self, dt: float) -> None:
        self.strike_t += dt
        if self.strike_t >= STRIKE_SECONDS:
            self.player = make_replay(self.result.record, self.view)
            self.player.set_speed(self.replay_speed)
            self.sound_index = 0
            self.phase = Phase.PLAYBACK

    def _playback(self, dt: float) -> None:
        p = self.player
        p.advance(dt)
        events = p.events_until(p.t)
        sound = self.ctx.sound
        while self.sound_index < len(events):
            if sound is not None:
                sound.play_event(events[self.sound_index])
            self.sound_index += 1
        self.camera.track(p)
        if p.finished:
            self._stroke_done()

    def _stroke_done(self) -> None:
        m = self.match
        self.player = None
        if m.lag_run is not None:
            verdict = m.lag_stroke(self.result.record)
            if verdict is None:
                self._lag_turn()
                return
            self.status = verdict.explain[self.lang]
            m.finish_lag()
            self._after_stroke_or_start()
            return
        if m.ruling_needs_lag and not self.practice:
            # 000: Игра при счете 70:70 - who plays on is decided by a lag, played here on the table.
            ruling = m.pending.ruling if m.pending is not None else None
            notes = [w for w in (ruling.warnings if ruling else ()) if w.code == NoteCode.SEVENTY_ALL]
            self.status = notes[0].explain[self.lang] if notes else ""
            m.start_lag()
            self._lag_turn()
            return
        if m.options and not self.practice:
            self.phase = Phase.DECIDE
            # The player who decides looks at the table as the stroke left it, towards a ball to play.
            self.aim = replace(self.aim, direction=self._default_direction())
            self.camera.focus(self._cue_centre(), self.aim.direction)
            self._refresh_hud_pending()
            return
        self._apply(None)

    def _refresh_hud_pending(self) -> None:
        """Show the ruling (and its options) before it is carried out."""
        self.status = ""
        self._refresh_hud()

    def decide_index(self, i: int) -> None:
        if self.phase != Phase.DECIDE:
            return
        if self.match.state is not None and self.match.state.needs_lag:
            if i < len(self.match.names):
                self.match.lag(i)
                self._after_stroke_or_start()
            return
        opts = self.match.options
        if i < len(opts):
            self.decide(opts[i])

    def decide(self, option: str) -> None:
        if self.phase != Phase.DECIDE:
            return
        self._apply(None if option == ACCEPT else option)

    def _apply(self, decision: str | None) -> None:
        m = self.match
        pending = m.pending
        try:
            m.apply(decision, seconds=self.aim_seconds)
        except InputError as exc:  # a decision the ruling does not offer: say so, keep the choice open
            self.status = exc.line()
            self._refresh_hud()
            return
        if pending is not None:
            # Respotted balls are ringed until the next stroke, so the player sees what the referee moved.
            for r in pending.ruling.respot if pending.ruling is not None else ():
                if r.ball in m.positions:
                    self.respot_marks.append(self.view.highlight(r.ball))
        self.aim = CueState(
            direction=self.aim.direction, speed=self.aim.speed, elevation=self.aim.elevation, tip=self.aim.tip
        )
        if pending is not None and not self.practice:
            note = self.stats.after_stroke(m, pending.ruling_json)
            self.status = note or self.status
        self.turn_started = time.monotonic()
        self._after_stroke_or_start()
        before = pending.state_before if pending is not None else None
        if m.state is not None and before is not None and self.phase in (Phase.AIM, Phase.PLACE):
            if m.state.to_play != before.to_play or pending.ruling_json.get("frame_over"):
                # A new player (or a new frame) at the table: the view turns to a ball they may play.
                self.aim = replace(self.aim, direction=self._default_direction())
                self.camera.focus(self._cue_centre(), self.aim.direction)

    def undo(self) -> None:
        if self.phase not in (Phase.AIM, Phase.PLACE, Phase.OVER, Phase.DECIDE):
            return
        if self.practice or self.match.state is None:
            self.status = tr("status.undo" if self.match.undo() else "status.nothing_to_undo", self.lang)
            self._after_stroke_or_start()

    def toggle_stats(self) -> None:
        if not self.practice:
            self.stats.toggle(self.match)

    def toggle_help(self) -> None:
        if self.help.isHidden():
            self.help.show()
        else:
            self.help.hide()

    def open_replay(self) -> None:
        if (self.match.pending or self.match.last) is None or not self.ready():
            return
        assert self.ctx.manager is not None
        self.ctx.shared["aim_direction"] = self.aim.direction
        self.ctx.manager.switch("replay")

    def to_menu(self) -> None:
        assert self.ctx.manager is not None
        self.ctx.shared.pop("match", None)
        self.ctx.manager.switch("menu")

    # --- practice helpers -------------------------------------------------------------------------
    def show_trajectory(self) -> dict[str, list[tuple[float, float, float]]]:
        """Simulate the aimed stroke ahead now and draw every moving ball's path (practice)."""
        try:
            record = self.match.simulate(self._shot())
        except Unavailable:
            return {}
        return dict(self.assist.show_record(record, self.struck_ball).get("paths", {}))

    def save_position(self, path: str | None = None) -> Path:
        from physics.files import WriteError
        from scenes.core.practice import next_save_path, write_scenario

        target = Path(path) if path else next_save_path(self.ctx.settings)
        try:
            write_scenario(
                target,
                self.match.positions,
                self.match.spec.id,
                self._shot(),
                title=tr("practice.title", self.lang),
            )
        except WriteError as exc:  # a full disk: say so and play on; the file saved before is whole
            self.status = tr("status.save_failed", self.lang, why=exc.reason)
            self._refresh_hud()
            return target
        self.ctx.shared["last_saved"] = str(target)
        self.status = tr("status.saved", self.lang, path=str(target))
        self._refresh_hud()
        return target

    def load_position(self, path: str | None = None) -> None:
        from rules.scenarios import load_scenario

        target = path or self.ctx.shared.get("last_saved")
        if not target:
            return
        try:
            sc = load_scenario(target)
        except InputError as exc:
            self.status = exc.line()
            self._refresh_hud()
            return
        here = self.match.spec.id
        if sc.table.id != here:  # its balls and layout mean nothing on this table: say so, change nothing
            self.status = InputError(
                str(target), "table", f"a position of this table, {here} (this one is for {sc.table.id})"
            ).line()
            self._refresh_hud()
            return
        self.match.history.append((dict(self.match.positions), None, self.match.last, 0))
        self.match.positions = dict(sc.balls)
        if sc.shot is not None:
            sh = sc.shot
            self.aim = CueState(sh.direction % 360.0, min(sh.cue_speed, MAX_SPEED), sh.elevation, sh.tip)
            self.cue.kind = sh.cue
        self.status = tr("status.loaded", self.lang, path=str(target))
        self._after_stroke_or_start()

    def repeat_last(self) -> None:
        """Practice: put the balls back where they were before the last stroke and play it again."""
        if self.last_shot is None or not self.ready() or not self.match.history:
            return
        self.match.undo()
        sh = self.last_shot
        self.aim = CueState(sh.direction, sh.cue_speed, sh.elevation, sh.tip)
        self.cue.kind = sh.cue
        self._after_stroke_or_start()
        self.shoot()

    def exit(self) -> None:
        # Also called on a screen whose enter() failed half-way: only undo what was made.
        job = getattr(self, "job", None)
        if job is not None:
            job.cancel()  # a stroke already running finishes in the worker and is dropped
        bars = getattr(self, "band_bars", None)
        if bars is not None:
            bars.removeNode()
        for name in ("camera", "view"):
            part = getattr(self, name, None)
            if part is not None:
                part.destroy()
        super().exit()


class PracticeScreen(PlayScreen):
    """Practice with no referee: any layout, a scenario file, or a drill judged after every stroke."""

    name = "practice"
    practice = True

    def _new_match(
        self,
        game: str | None,
        names: tuple[str, ...] | None,
        frames_to_win: int | None,
        scenario: str | None,
        table: str | None = None,
    ) -> MatchController:
        drill_id = self.ctx.shared.pop("drill_id", None)
        if drill_id:
            from scenes.core.drills import DRILL_DIR, load_drill

            self.drill = load_drill(DRILL_DIR / f"{drill_id}.toml")
            scenario = str(self.drill.path)
        if scenario:
            from rules.scenarios import load_scenario

            sc = self.drill.scenario if self.drill is not None else load_scenario(scenario)
            m = MatchController(
                game="practice",
                names=("",),
                lang=self.lang,
                settings=self.ctx.settings,
                positions=dict(sc.balls),
            )
            if sc.table.id != m.spec.id:
                m.spec = sc.table
            if sc.shot is not None:
                self.ctx.shared["scenario_shot"] = sc.shot
            return m
        return MatchController(game="practice", names=("",), lang=self.lang, settings=self.ctx.settings)

    def enter(self, drill: str | None = None, **kwargs: Any) -> None:
        self.drill: Any = None
        self.verdict: Any = None
        if drill:
            self.ctx.shared["drill_id"] = drill
            kwargs["resume"] = False
        elif kwargs.get("resume"):
            self.drill = self.ctx.shared.get("drill")
        super().enter(**kwargs)
        self.ctx.shared["drill"] = self.drill
        shot = self.ctx.shared.pop("scenario_shot", None)
        if shot is not None:
            self.aim = CueState(
                shot.direction % 360.0, min(shot.cue_speed, MAX_SPEED), shot.elevation, shot.tip
            )
            self.struck_ball = shot.ball if shot.ball in self.match.positions else "cue"
        if self.drill is not None:
            self.match.title = self.drill.title[self.lang]
            self.status = tr("drill.goal", self.lang, goal=self.drill.goal[self.lang])
            self._draw_zone()
            self._refresh_hud()

    def _draw_zone(self) -> None:
        """The drill's target zone for the struck ball, outlined on the cloth."""
        zone = self.drill.cue_zone
        if zone is None:
            return
        from panda3d.core import LineSegs

        ls = LineSegs("drill-zone")
        ls.setThickness(self.assist.view.px())
        ls.setColor(0.35, 0.9, 1.0, 0.9)
        z = 0.002
        if zone.rect is not None:
            x0, y0, x1, y1 = zone.rect
            ls.moveTo(x0, y0, z)
            for x, y in ((x1, y0), (x1, y1), (x0, y1), (x0, y0)):
                ls.drawTo(x, y, z)
        else:
            assert zone.centre is not None
            cx, cy = zone.centre
            ls.moveTo(cx + zone.radius, cy, z)
            for k in range(1, 65):
                a = 2 * math.pi * k / 64
                ls.drawTo(cx + zone.radius * math.cos(a), cy + zone.radius * math.sin(a), z)
        node = self.view.root.attachNewNode(ls.create())
        node.setLightOff()
        self.own(type("Owned", (), {"destroy": staticmethod(node.removeNode)})())

    def _apply(self, decision: str | None) -> None:
        result = self.match.pending
        super()._apply(decision)
        if self.drill is None or result is None:
            return
        from scenes.core.archive import Archive
        from scenes.core.drills import judge, verdict_text

        self.verdict = judge(self.drill, result.record)
        lines = [
            tr("drill.goal", self.lang, goal=self.drill.goal[self.lang]),
            verdict_text(self.verdict, self.lang),
        ]
        try:
            with Archive.open(self.ctx.settings) as arch:
                arch.record_drill(self.drill.id, self.verdict.success, self.verdict.detail())
                n, ok = arch.drill_progress().get(self.drill.id, (0, 0))
            lines.append(tr("drill.progress", self.lang, n=n, ok=ok))
        except InputError as exc:
            lines.append(exc.line())
        lines.append(tr("drill.again", self.lang, key=key_name(self.controls.undo, self.lang)))
        self.status = "\n".join(lines)
        self._refresh_hud()

    def dump(self) -> dict[str, Any]:
        d = super().dump()
        d["drill"] = None if self.drill is None else self.drill.id
        d["verdict"] = None if self.verdict is None else self.verdict.detail()
        return d


def asdict_shallow(obj: Any) -> dict[str, Any]:
    from dataclasses import fields

    return {f.name: getattr(obj, f.name) for f in fields(obj)}


__all__ = ["PlayScreen", "PracticeScreen", "Phase", "trajectory_paths", "placement_allowed"]
