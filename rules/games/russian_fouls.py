"""The fouls of Russian billiards (003: Штрафы, which prevails over 000): how the stroke was played, what the
cue ball did, a player's things touching a ball, and the отыгрыш (``russian_safety.py``)."""

from __future__ import annotations

from physics.record import BallId, EventType
from rules import filters as F
from rules.base import Draft, Stroke, text
from rules.contract import WarningCode
from rules.games.russian_base import (
    FROZEN_ANGLE,
    R_CLOSE,
    R_FOULS,
    R_HOUSE,
    R_JUMPED,
    R_SPOTTED,
    R_STRIKE,
)
from rules.games.russian_safety import PyramidSafety
from rules.names import ball_en, ball_ru, object_ru, player_thing
from rules.ruling import FoulCode
from rules.strike import push, tip_contacts


class PyramidFouls(PyramidSafety):
    """``check_fouls``: the stroke's fouls in 003's order; a referee's error (003: Судейская ошибка) has none."""

    def check_fouls(self, s: Stroke, d: Draft) -> None:
        if self.referee_error(s):
            return  # 003: Судейская ошибка (I): «штраф на игрока не налагается»
        self.strike_fouls(s, d)
        self.result_fouls(s, d)
        self.touch_fouls(s, d)
        self.safety_foul(s, d)

    def strike_fouls(self, s: Stroke, d: Draft) -> None:
        """How the stroke was played: the ball struck, the tip, the place from hand (003: Штрафы)."""
        add = d.fouls.append
        if s.struck != s.cue:
            add(
                self.foul(
                    FoulCode.WRONG_BALL_STRUCK,
                    R_FOULS + " (11)",
                    f"the cue struck {ball_en(s.struck)}, not the cue ball",
                    f"удар нанесён не битком, а {ball_ru(s.struck, 'ins')}",
                )
            )
        if self.any_ball_cue and not self.fast and s.cue in self.spotted_before(s):
            add(
                self.foul(
                    FoulCode.WRONG_BALL_STRUCK,
                    R_SPOTTED,
                    f"{ball_en(s.cue)} was just respotted: it is an object ball for this stroke",
                    f"{ball_ru(s.cue)} только что выставлен и играется как прицельный",
                )
            )
        if s.miscue:
            add(
                self.foul(
                    FoulCode.MISCUE,
                    R_STRIKE,
                    "a miscue: the cue ball was not struck cleanly with the tip",
                    "кикс: удар нанесён не наклейкой кия по её оси",
                )
            )
        if s.scoop:
            add(
                self.foul(
                    FoulCode.SCOOP,
                    R_STRIKE,
                    "a scoop: the tip dug under the ball to lift it",
                    "подцепка: удар под биток снизу, не по оси кия",
                )
            )
        if s.strikes >= 2:
            again = tip_contacts(s.record).after(s.first_t) if s.first_t is not None else None
            add(
                self.foul(
                    FoulCode.DOUBLE_HIT,
                    R_FOULS + " (9)",
                    f"the tip met the cue ball {s.strikes} times"
                    + (f", again after it had met {ball_en(s.first or '')}" if again is not None else ""),
                    f"двойной удар: наклейка коснулась битка {s.strikes} раза"
                    + (
                        f", в том числе после его касания {ball_ru(s.first or '', 'gen')}"
                        if again is not None
                        else ""
                    ),
                )
            )
        if self.outside_house(s) and s.state.warned(WarningCode.OUTSIDE_HOUSE, s.striker):
            # 003 «Начальный удар», в: only a stroke from outside the house after the referee's warning is punished.
            add(
                self.foul(
                    FoulCode.CUE_BALL_OUTSIDE_HOUSE,
                    R_HOUSE + "; " + R_FOULS + " (14)",
                    "playing from hand, the cue ball was again placed outside the house after the referee's warning",
                    "при игре с руки биток, несмотря на предупреждение судьи, снова установлен вне дома",
                )
            )

    def result_fouls(self, s: Stroke, d: Draft) -> None:
        """What the cue ball did: a miss, a touch at a bad angle, a push, a house ball first, a pocketed or
        jumped cue ball (003: Штрафы)."""
        add = d.fouls.append
        if s.first is None:
            add(
                self.foul(
                    FoulCode.MISS,
                    R_FOULS + " (1)",
                    "the cue ball touched no object ball",
                    "биток не коснулся ни одного прицельного шара",
                )
            )
        self.check_frozen_angle(s, d)
        self.check_push(s, d)
        if self.from_hand(s) and s.first is not None and s.first_t is not None:
            fp = s.initial.get(s.first)
            if fp is not None and self.in_house(s, fp) and not self.cue_left_house(s, until=s.first_t):
                add(
                    self.foul(
                        FoulCode.HOUSE_BALL_FIRST,
                        R_FOULS + " (10)",
                        f"from hand the cue ball hit {ball_en(s.first)} in the house before leaving it",
                        f"при ударе с руки биток до выхода из дома задел {ball_ru(s.first, 'acc')}, стоящий в доме",
                    )
                )
        if s.cue in s.pocketed and (self.cue_pocket_foul or s.first is None):
            add(
                self.foul(
                    FoulCode.CUE_BALL_POCKETED,
                    R_FOULS + " (12)",
                    "the cue ball fell into a pocket",
                    "биток упал в лузу",
                )
            )
        if s.cue in s.jumped:
            add(
                self.foul(
                    FoulCode.CUE_BALL_OFF_TABLE,
                    R_JUMPED,
                    "the cue ball jumped off the table: nothing pocketed on this stroke counts",
                    "биток выскочил за борт: забитые этим ударом шары не засчитываются",
                )
            )

    def touch_fouls(self, s: Stroke, d: Draft) -> None:
        """A player's things touching a ball (003: Выскочившие шары; Штрафы (4))."""
        add = d.fouls.append
        for b, obj in s.touched_within:
            if self.flying_at(s, b, obj):
                add(
                    self.foul(
                        FoulCode.TOUCHED_PLAYER_OBJECT,
                        R_JUMPED,
                        f"{ball_en(b)} flew off the bed and touched {player_thing(obj, 'en')} within the table",
                        f"вылетевший {ball_ru(b)} задел в пределах стола {_players_ru(obj, 'acc')}",
                    )
                )
            else:
                add(
                    self.foul(
                        FoulCode.BALL_TOUCHED,
                        R_FOULS + " (4)",
                        f"{ball_en(b)} on the bed was touched by {player_thing(obj, 'en')}",
                        f"{ball_ru(b)} на игровом поле коснулся {_players_ru(obj, 'gen')}",
                    )
                )

    def flying_at(self, s: Stroke, ball: BallId, obj: str) -> bool:
        """Was ``ball`` in the air (or off the bed) when it touched ``obj``? Then it is 003's jumped-ball case,
        otherwise a ball on the bed touched by a player's thing (003: Штрафы (4))."""
        up = False
        for e in s.record.events:
            if e.ball != ball:
                continue
            if e.type in (EventType.AIRBORNE, EventType.LEFT_TABLE):
                up = True
            elif e.type == EventType.LANDED and e.on == "bed" or e.type == EventType.RETURNED:
                up = False
            elif e.type == EventType.TOUCHED and e.object == obj:
                return up
        return up

    def check_push(self, s: Stroke, d: Draft) -> None:
        """003: пропих - the tip still on the cue ball when it meets an object ball that was not frozen to it
        (``rules.strike``: the tip contacts of the record's ``cue_strike``). A ball that stood close gets the
        note of which text the referee follows (:meth:`close_ball_note`)."""
        if s.first is None or s.first_t is None:
            return
        p0, p1 = s.initial.get(s.cue), s.initial.get(s.first)
        if p0 is None or p1 is None:
            return
        gap = F.dist(p0, p1) - 2 * self.table.ball_radius
        if gap <= F.FROZEN_TOL:
            return  # frozen balls are the 45° rule's business
        pushed = push(s.record, s.first, s.first_t)
        if gap <= self.table.ball_radius / 2:
            self.close_ball_note(s, d, gap, pushed is not None)
        if pushed is not None:
            d.fouls.append(
                self.foul(
                    FoulCode.PUSH_SHOT,
                    R_STRIKE + "; " + R_FOULS + " (8)",
                    f"a push: the cue ball met {ball_en(s.first)} {pushed.ms:.1f} ms after the tip's contact began, "
                    "while the tip was still on it",
                    f"пропих: биток коснулся {ball_ru(s.first, 'gen')} через {pushed.ms:.1f} мс после начала контакта "
                    "наклейки, когда наклейка ещё не отошла от битка",
                )
            )

    def close_ball_note(self, s: Stroke, d: Draft, gap: float, pushed: bool) -> None:
        """A cue ball close to (not touching) the ball it meets: 003 «Удар по битку» lets it be played «на общих
        основаниях и под любым углом к линии центров, но без пропиха и нажима»; 000 §11 asks 45° (or the cue
        ball stopping, coming back or going aside). 003 prevails on the general rules, and the note says so."""
        sh = s.record.shot
        p0, p1 = s.initial.get(s.cue), s.initial.get(s.first or "")
        if sh is None or p0 is None or p1 is None:
            return
        ang = F.angle_between(sh.direction, (p1[0] - p0[0], p1[1] - p0[1]))
        if ang >= FROZEN_ANGLE:
            return  # both texts allow it: nothing to choose between
        mm = 1000 * gap
        verdict_en = "but not a push" if pushed else "so the angle is no foul"
        verdict_ru = "но без пропиха" if pushed else "поэтому угол не нарушение"
        d.notes.append(
            text(
                f"The cue ball stood {mm:.0f} mm from {ball_en(s.first or '')} (close, not touching) and was played "
                f"{ang:.0f}° off the line of centres. The referee follows 003 ({R_STRIKE}): a close ball may be played "
                f"at any angle, {verdict_en}; 000 ({R_CLOSE}) would ask 45° - 003 prevails on the general rules.",
                f"Биток стоял в {mm:.0f} мм от {ball_ru(s.first or '', 'gen')} (близко, не вплотную) и сыгран под углом "
                f"{ang:.0f}° к линии центров. Судья следует 003 ({R_STRIKE}): по близко стоящему шару можно играть под "
                f"любым углом, {verdict_ru}; 000 ({R_CLOSE}) требует 45° - на общих правилах действует 003.",
            )
        )

    def check_frozen_angle(self, s: Stroke, d: Draft) -> None:
        """003: a cue ball frozen to an object ball is played away at 45° or more, or it must come back."""
        sh = s.record.shot
        p0 = s.initial.get(s.cue)
        if sh is None or p0 is None:
            return
        r = self.table.ball_radius
        for b, p in sorted(s.initial.items()):
            if b == s.cue or F.dist(p0, p) > 2 * r + F.FROZEN_TOL:
                continue
            v = (p[0] - p0[0], p[1] - p0[1])
            ang = F.angle_between(sh.direction, v)
            if ang >= FROZEN_ANGLE:
                continue
            end = F.final_xy(s.record, s.cue)
            if end is not None and (end[0] - p0[0]) * v[0] + (end[1] - p0[1]) * v[1] < 0:
                continue  # it came back off the frozen ball: allowed
            d.fouls.append(
                self.foul(
                    FoulCode.FROZEN_BALL_ANGLE,
                    R_STRIKE + "; " + R_FOULS + " (7)",
                    f"the cue ball frozen to {ball_en(b)} was played {ang:.0f}° off the line of centres (45° needed)",
                    f"биток, стоящий вплотную к {ball_ru(b, 'dat')}, сыгран под углом {ang:.0f}° к линии центров "
                    "(нужно 45° и более)",
                )
            )
            return


def _players_ru(obj: str, case: str) -> str:
    """A player's thing in a Russian sentence: «принадлежность игрока (мел)»; the player himself: «игрока»."""
    if obj in ("person", "player", "opponent"):
        return object_ru(obj, "acc")  # the accusative and the genitive of an animate noun are one
    return ("принадлежность" if case == "acc" else "принадлежности") + f" игрока ({object_ru(obj)})"
