"""A compact text form for layouts and event scripts, so a rule test needs no physics and two lines.

Layout: ``"cue=-1.2,0 7=0.5,0.1 1=foot-spot"`` - ball ids with ``x,y`` (metres) or a spot name of the
table (``head-spot``, ``centre-spot``, ``foot-spot``). :func:`layout` returns ``{ball: (x, y)}``.

Script: tokens separated by spaces, in time order (each token one event, 0.1 s apart):

=======================  =====================================================================
``cue>7``                ``ball_ball`` cue meets 7
``7@foot-left``          ``pocketed`` 7 in the foot-left pocket
``7|foot``               ``cushion`` 7 meets the foot cushion (``7|foot:0.03`` : 3 cm from the jaw)
``7#foot-left``          ``pocket_jaw`` 7 touches the foot-left jaw
``cue^``                 ``airborne`` cue
``cue^7``                ``jumped_over`` cue over 7
``cue_bed``              ``landed`` cue on bed (``_rail``, ``_floor``...)
``cue~lamp``             ``touched`` cue, object lamp (``~chalk``, ``~person``, ``~rail_top``...);
                         ``cue~chalk:out`` says the touch was beyond the table's outline
``cue<``                 ``returned`` cue is back on the bed by itself
``cue-``                 ``left_table`` cue
``cue!floor``            ``off_table`` cue comes to rest on the floor (``!rail``...); final status off_table
``7:centre-line``        ``line_crossed`` 7 crosses the centre line (``cue:head-string``...)
``7?foot-left``          ``hanging`` 7 stops overhanging the foot-left pocket
``7?foot-left+6``        ``dropped``: the hanging 7 falls 6 s after the stroke ended (final: pocketed)
``cue*``                 an explicit ``cue_strike`` (``cue*miscue``, ``cue*scoop``); without one, a
                         strike of the shot's ball is put first. ``cue*+0.004``: the tip met the ball
                         again 4 ms after its first contact (``contacts = 2``, ``contact_times =
                         [0.004]``); ``cue*+0.002,0.005`` three contacts
``7=0.4,0.2``            final position of 7 (balls not moved keep their layout position)
``dir=30``               shot direction in degrees; also ``elev=``, ``speed=``, ``ball=``
``call=7@foot-left``     the declared call
``t=0.0005``             the next event happens 0.5 ms after the previous one (default 0.1 s)
=======================  =====================================================================

:func:`record` builds a full :class:`physics.record.ShotRecord` (initial and final for every ball).
"""

from __future__ import annotations

import re
from dataclasses import replace

from physics.record import BallFinal, BallId, BallStatus, Event, EventType, ShotParams, ShotRecord
from physics.tables import load_table

_STEP = 0.1
_BALL = r"(cue|[0-9]+|red[0-9]+|yellow|green|brown|blue|pink|black)"


def layout(text: str, table: str = "pyramid-12ft") -> dict[BallId, tuple[float, float]]:
    t = load_table(table)
    out: dict[BallId, tuple[float, float]] = {}
    for tok in text.split():
        ball, _, where = tok.partition("=")
        if not where:
            raise ValueError(f"layout token {tok!r}: expected ball=x,y or ball=spot")
        if where in t.spots:
            out[ball] = t.spots[where]
        else:
            xs = where.split(",")
            out[ball] = (float(xs[0]), float(xs[1]))
    return out


def _pos_near_cushion(table: str, cushion: str, from_jaw: float) -> tuple[float, float, float]:
    """A contact point on a cushion's nose ``from_jaw`` metres from its start jaw (ball centre)."""
    t = load_table(table)
    c = t.cushions[cushion]
    dx, dy = c.end[0] - c.start[0], c.end[1] - c.start[1]
    n = (dx * dx + dy * dy) ** 0.5
    r = t.ball_radius
    return (
        c.start[0] + dx / n * from_jaw + c.normal[0] * r,
        c.start[1] + dy / n * from_jaw + c.normal[1] * r,
        r,
    )


def record(
    balls: str | dict[BallId, tuple[float, float]],
    script: str = "",
    table: str = "pyramid-12ft",
    duration: float | None = None,
) -> ShotRecord:
    """Build a shot record from a layout and a script (see the module docstring)."""
    init = layout(balls, table) if isinstance(balls, str) else dict(balls)
    events: list[Event] = []
    status: dict[BallId, BallFinal] = {}
    finals: dict[BallId, tuple[float, float]] = {}
    shot: dict[str, str] = {"ball": "cue", "direction": "0", "elevation": "0", "speed": "3"}
    call_ball: str | None = None
    call_pocket: str | None = None
    hanging: dict[BallId, tuple[float, float, float]] = {}
    now = 0.0

    gap: float | None = None

    def ev(type_: EventType, **kw: object) -> None:
        nonlocal now, gap
        if gap is not None and events:
            now = events[-1].t + gap
            gap = None
        events.append(Event(t=round(now, 6), type=type_, **kw))  # type: ignore[arg-type]  # kw are Event fields
        now += _STEP

    for tok in script.split():
        if m := re.fullmatch(r"t=([0-9.]+)", tok):
            gap = float(m.group(1))
        elif m := re.fullmatch(r"(dir|elev|speed|ball)=(.+)", tok):
            key, v = m.groups()
            shot[{"dir": "direction", "elev": "elevation"}.get(key, key)] = (
                v if key == "ball" else str(float(v))
            )
        elif m := re.fullmatch(r"call=" + _BALL + r"@([a-z-]+)", tok):
            call_ball, call_pocket = m.groups()
        elif m := re.fullmatch(_BALL + r"\*(miscue|scoop)?(?:\+([0-9.]+(?:,[0-9.]+)*))?", tok):
            b, kind, again = m.groups()
            times = tuple(float(x) for x in again.split(",")) if again else ()
            extra: dict[str, object] = {"contacts": 1 + len(times), "contact_times": times} if times else {}
            ev(EventType.CUE_STRIKE, ball=b, miscue=kind == "miscue", scoop=kind == "scoop", **extra)
        elif m := re.fullmatch(_BALL + r">" + _BALL, tok):
            ev(EventType.BALL_BALL, balls=(m.group(1), m.group(2)))
        elif m := re.fullmatch(_BALL + r"@([a-z-]+)", tok):
            b, p = m.groups()
            ev(EventType.POCKETED, ball=b, pocket=p)
            status[b] = BallFinal(BallStatus.POCKETED, pocket=p)
        elif m := re.fullmatch(_BALL + r"\|([a-z-]+)(?::([0-9.]+))?", tok):
            b, c, d = m.groups()
            pos = _pos_near_cushion(table, c, float(d)) if d is not None else None
            ev(EventType.CUSHION, ball=b, cushion=c, pos=pos)
        elif m := re.fullmatch(_BALL + r"#([a-z-]+)", tok):
            ev(EventType.POCKET_JAW, ball=m.group(1), pocket=m.group(2))
        elif m := re.fullmatch(_BALL + r"\^" + _BALL, tok):
            ev(EventType.JUMPED_OVER, ball=m.group(1), over=m.group(2))
        elif m := re.fullmatch(_BALL + r"\^", tok):
            ev(EventType.AIRBORNE, ball=m.group(1))
        elif m := re.fullmatch(_BALL + r"_([a-z_]+)", tok):
            ev(EventType.LANDED, ball=m.group(1), on=m.group(2))
        elif m := re.fullmatch(_BALL + r"~([a-z_-]+)(:out|:in)?", tok):
            b, obj, where = m.groups()
            ev(EventType.TOUCHED, ball=b, object=obj, pos=_touch_pos(table, where))
        elif m := re.fullmatch(_BALL + r"<", tok):
            ev(EventType.RETURNED, ball=m.group(1))
        elif m := re.fullmatch(_BALL + r"-", tok):
            ev(EventType.LEFT_TABLE, ball=m.group(1))
        elif m := re.fullmatch(_BALL + r"!([a-z_]+)", tok):
            b, rest = m.groups()
            ev(EventType.OFF_TABLE, ball=b, rest=rest)
            status[b] = BallFinal(BallStatus.OFF_TABLE, pos=_rest_pos(table, rest), rest=rest)
        elif m := re.fullmatch(_BALL + r":([a-z-]+)", tok):
            ev(EventType.LINE_CROSSED, ball=m.group(1), line=m.group(2))
        elif m := re.fullmatch(_BALL + r"\?([a-z-]+)\+([0-9.]+)", tok):
            b, p, after = m.groups()
            pos = hanging.get(b) or _hang_pos(table, p)
            ev(EventType.DROPPED, ball=b, pocket=p, after=float(after), pos=pos)
            status[b] = BallFinal(BallStatus.POCKETED, pocket=p)
        elif m := re.fullmatch(_BALL + r"\?([a-z-]+)", tok):
            b, p = m.groups()
            hanging[b] = _hang_pos(table, p)
            ev(EventType.HANGING, ball=b, pocket=p, pos=hanging[b])
            finals[b] = (hanging[b][0], hanging[b][1])
        elif m := re.fullmatch(_BALL + r"=(-?[0-9.]+),(-?[0-9.]+)", tok):
            finals[m.group(1)] = (float(m.group(2)), float(m.group(3)))
        else:
            raise ValueError(f"script token {tok!r} not understood")

    params = ShotParams(
        ball=str(shot["ball"]),
        cue_speed=float(shot["speed"]),
        direction=float(shot["direction"]),
        elevation=float(shot["elevation"]),
        call_ball=call_ball,
        call_pocket=call_pocket,
    )
    return _assemble(table, events, init, status, finals, params, duration)


def _assemble(
    table: str,
    events: list[Event],
    init: dict[BallId, tuple[float, float]],
    status: dict[BallId, BallFinal],
    finals: dict[BallId, tuple[float, float]],
    params: ShotParams,
    duration: float | None,
) -> ShotRecord:
    """The record of a parsed script: a strike first (the shot's ball, when the script has none), times from
    the strike, every ball's final state (moved, pocketed, off the table, or where it stood)."""
    t = load_table(table)
    r = t.ball_radius
    if not any(e.type == EventType.CUE_STRIKE for e in events):
        events.insert(
            0, Event(t=-_STEP, type=EventType.CUE_STRIKE, ball=params.ball, miscue=False, scoop=False)
        )
    t0 = events[0].t
    events = [replace(e, t=round(e.t - t0, 6)) for e in events]
    final: dict[BallId, BallFinal] = {}
    for b, (x, y) in init.items():
        if b in status:
            final[b] = status[b]
        else:
            fx, fy = finals.get(b, (x, y))
            final[b] = BallFinal(BallStatus.ON_TABLE, pos=(fx, fy, r))
    return ShotRecord(
        table=table,
        params={"R": r, "m": t.ball_mass},
        events=tuple(events),
        final=final,
        initial={b: (x, y, r) for b, (x, y) in init.items()},
        shot=params,
        duration=duration if duration is not None else (events[-1].t + _STEP if events else 0.0),
    )


def _touch_pos(table: str, where: str | None) -> tuple[float, float, float] | None:
    """Where a touch ``~obj:out`` / ``~obj:in`` happened: beyond the table's outline, or just inside it."""
    t = load_table(table)
    if where == ":out":
        return (t.half_length + 0.6, 0.0, 0.3)
    if where == ":in":
        return (t.half_length + 0.05, 0.0, 0.06)
    return None


def _rest_pos(table: str, rest: str) -> tuple[float, float, float]:
    """Where a ball ``!floor`` / ``!rail`` comes to rest: on the floor beyond the foot, or on the foot rail."""
    t = load_table(table)
    r = t.ball_radius
    z = -t.bed_height + r if rest == "floor" else t.rail_height + r
    return (t.half_length + (0.5 if rest == "floor" else t.cushion_width + t.rail_width / 2), 0.0, z)


def _hang_pos(table: str, pocket: str) -> tuple[float, float, float]:
    """A ball centre overhanging a pocket's mouth: on the mouth's centre point, just inside the bed."""
    t = load_table(table)
    p = t.pockets[pocket]
    r = t.ball_radius
    return (p.centre[0] - p.axis[0] * r * 0.3, p.centre[1] - p.axis[1] * r * 0.3, r)
