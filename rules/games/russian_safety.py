"""The отыгрыш (safety) rule of the fast games and Американка (003: Отыгрыш в быстрых видах игр; 000:
Американка, Отыгрыш): a stroke that pockets nothing must send a ball across the centre line or to cushions,
unless the played ball reached the pocket zone (003: Отыгрыш, зона лузы)."""

from __future__ import annotations

import math

from physics.record import BallId, EventType
from rules import filters as F
from rules.base import Draft, Stroke, text
from rules.games.russian_base import (
    POCKET_ZONE_CUSHION,
    POCKET_ZONE_STOP,
    R_AM_SAFETY,
    R_FOULS,
    R_POCKET_ZONE,
    R_SAFETY_FAST,
    PyramidRules,
)
from rules.ruling import FoulCode


class PyramidSafety(PyramidRules):
    """The отыгрыш foul and what it asks of the stroke (the cushions touched, the pocket zone)."""

    def safety_foul(self, s: Stroke, d: Draft) -> None:
        """The отыгрыш rule of the fast games and Американка (003; 000: Американка, Отыгрыш)."""
        add = d.fouls.append
        if self.safety is not None and not d.fouls and not self.scoring(s) and not self.safety_ok(s):
            if self.pocket_zone_ok(s):
                d.notes.append(
                    text(
                        "The safety requirement was not met, but the played ball reached the pocket zone "
                        f"({R_POCKET_ZONE}): no foul.",
                        f"Требования отыгрыша не выполнены, но играемый шар был в зоне лузы ({R_POCKET_ZONE}): "
                        "штрафа нет.",
                    )
                )
            else:
                rule = R_SAFETY_FAST if self.safety == "fast" else R_AM_SAFETY
                if self.safety == "fast" and not self.fast:
                    # A plain called game: 003 «Штрафы» (13) punishes its illegal отыгрыш, by the conditions
                    # 003 states for the fast games (the only ones it gives).
                    rule = f"{R_FOULS} (13); {R_SAFETY_FAST}"
                en, ru = (
                    (
                        "no ball crossed the centre line and two cushions were not touched after the hit",
                        "ни один шар не пересёк центральную линию и после соударения не было касания двух бортов",
                    )
                    if self.safety == "fast"
                    else (
                        "an illegal safety: no ball reached the far short cushion across the centre line, two balls "
                        "did not cross it, and no ball went from one cushion to a second",
                        "неправильный отыгрыш: шар не довёл до противоположного короткого борта через центральную "
                        "линию, центральную линию не пересекли два шара, и ни один шар не прошёл от борта ко второму",
                    )
                )
                add(self.foul(FoulCode.ILLEGAL_SAFETY, rule, en, ru))

    # --- what the отыгрыш asks ---------------------------------------------------------------
    def cushion_touches(self, s: Stroke, since: float) -> list[tuple[BallId, str, float]]:
        """Cushion touches after ``since`` as (ball, cushion, t), with 003's frozen-ball rules: a ball frozen
        to a cushion does not touch it when the cue ball's first hit moves it (or the cue ball bounces off it);
        any later hit of a frozen ball does count as touching its cushion."""
        t = self.table
        frozen = {b: F.frozen_to_cushion(t, p) for b, p in s.initial.items()}
        out: list[tuple[BallId, str, float]] = []
        for e in s.record.events:
            if e.t <= since:
                continue
            if e.type == EventType.CUSHION and e.ball is not None and e.cushion is not None:
                if e.cushion in frozen.get(e.ball, []) and not self._hit_later(s, e.ball, e.t):
                    continue
                out.append((e.ball, e.cushion, e.t))
            elif e.type == EventType.BALL_BALL and e.balls is not None and e.t != s.first_t:
                for b in e.balls:
                    for cid in frozen.get(b, []):
                        out.append((b, cid, e.t))
        return out

    def _hit_later(self, s: Stroke, ball: BallId, t: float) -> bool:
        return any(
            e.t != s.first_t and e.t < t
            for e in F.select(s.record.events, F.by_type(EventType.BALL_BALL), F.by_ball(ball))
        )

    def safety_ok(self, s: Stroke) -> bool:
        if s.first_t is None:
            return False
        if self.safety == "fast":
            # (I) any ball crosses the centre line; (II) two cushions touched in any way after the hit.
            if F.crossed(s.record, "centre-line"):
                return True
            return len({c for _, c, _ in self.cushion_touches(s, s.first_t)}) >= 2
        return self._american_safety_ok(s)

    def _american_safety_ok(self, s: Stroke) -> bool:
        rec = s.record
        crossed = F.crossed(rec, "centre-line")
        # (2) two balls crossed the centre line, the striking ball and an object ball.
        if s.cue in crossed and len(crossed) >= 2:
            return True
        # (1) a ball crosses the centre line and then the far short cushion is reached by it or a ball it drove.
        side = {b: (1 if p[0] >= 0 else -1) for b, p in s.initial.items()}
        touches = self.cushion_touches(s, -1.0)
        for e in F.select(rec.events, F.by_type(EventType.LINE_CROSSED)):
            if e.line != "centre-line" or e.ball is None:
                continue
            side[e.ball] = -side.get(e.ball, 1)
            far = "foot" if side[e.ball] > 0 else "head"
            if any(c == far and t > e.t for _, c, t in touches):
                return True
        # (3) a ball comes off one cushion to a second, or drives another ball to a second cushion.
        hist: dict[BallId, set[str]] = {}
        frozen_touch = {(b, c, t) for b, c, t in touches}
        for e in rec.events:
            if e.type == EventType.CUSHION and e.ball is not None and e.cushion is not None:
                if (e.ball, e.cushion, e.t) not in frozen_touch:
                    continue
                h = hist.setdefault(e.ball, set())
                if h - {e.cushion}:
                    return True
                h.add(e.cushion)
            elif e.type == EventType.BALL_BALL and e.balls is not None:
                a, b = e.balls
                for ball, cid, t in touches:
                    if t == e.t and ball in (a, b) and (hist.get(a, set()) | hist.get(b, set())) - {cid}:
                        return True
                u = hist.get(a, set()) | hist.get(b, set())
                hist[a] = set(u)
                hist[b] = set(u)
        return False

    def pocket_zone_ok(self, s: Stroke) -> bool:
        """003: a failed attempt on a pocket is no foul if the played ball touched a jaw, touched a cushion
        within 68 mm of the jaw, or stopped within 136 mm of the pocket's edge in front of it."""
        sh = s.record.shot
        ball = sh.call_ball if (sh is not None and sh.call_ball) else s.first
        if ball is None or s.first_t is None:
            return False
        if ball in s.pocketed:
            return True  # it went in (uncalled, rolled along the cushion...): the pocket was reached
        t = self.table
        for e in F.select(s.record.events, F.by_ball(ball), F.after(s.first_t - 1e-9)):
            if e.type == EventType.POCKET_JAW:
                return True
            if e.type == EventType.CUSHION and e.cushion is not None and e.pos is not None:
                if F.distance_to_jaw(t, e.cushion, (e.pos[0], e.pos[1])) <= POCKET_ZONE_CUSHION + 1e-9:
                    return True
        end = s.restored.get(ball) or F.final_xy(s.record, ball)
        if end is None:
            return False
        for pk in t.pockets.values():
            # The pocket's edge: the middle of the line across its mouth (a corner mouth lies across the corner).
            back = pk.mouth / 2 if pk.corner else 0.0
            edge = (pk.centre[0] - pk.axis[0] * back, pk.centre[1] - pk.axis[1] * back)
            v = (end[0] - edge[0], end[1] - edge[1])
            n = math.hypot(*v)
            if n <= POCKET_ZONE_STOP + 1e-9:
                # In front of the mouth within 45° of its axis, or already past the mouth line (hanging in it).
                cosang = -(v[0] * pk.axis[0] + v[1] * pk.axis[1]) / n if n > 0 else 1.0
                if cosang >= math.cos(math.radians(45.0)) - 1e-9 or cosang <= 0.0:
                    return True
        return False
