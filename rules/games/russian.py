"""Russian billiards: the general rules (000 §1-19, and 003, which prevails) and the pyramid games.

Games (ids: docs/rules.md): ``russian-pyramid`` (71 points), ``american`` (Американка), ``moscow-pyramid``,
``pyramid-8`` and their fast variants (``*-fast``), and the called (заказная) variants 003 names
(``moscow-pyramid-called``, ``pyramid-8-called`` and their fast ``*-called-fast``). One class,
:class:`Pyramid`, holds the general rules; each game sets a few class attributes and overrides a hook or two.
:class:`Pyramid` is put together from one part per concern, each in its own module: the declarations and the
facts of a stroke (``russian_base.py``), the fouls (``russian_fouls.py``, the отыгрыш in ``russian_safety.py``),
counting and scoring (``russian_scoring.py``), placing and who plays (``russian_placing.py``).

Readings where the texts leave a gap (each is a choice a referee would make, stated so it can be
taught and changed):

- Hanging balls (003 «Зависшие шары», which prevails over 000 §14's five seconds): a ball that stops in
  the jaws and falls after the stroke has ended (every ball at rest: the ``dropped`` event's ``after`` > 0) is
  not counted and goes back into the jaws, whatever the seconds; one that falls before the end counts, and so
  does one that paused for an instant and dropped still spinning (it never came to rest: no ``hanging`` or
  ``rest`` of its own before the fall). A hanging cue ball that falls so is put back too: no foul.
- A ball that moved without anything touching it (it dropped or rolled by itself before the cue ball
  got there) is 003's hanging ball that fell before contact: the position is restored and replayed.
- Jumped balls follow 003: beyond the table anything makes a ball jumped even if it comes back; within
  the table a fixture (rail top, bracket, lamp) or a player's thing leaves it in play if it comes back by
  itself, but touching a player's thing (chalk, cue, clothes) within the table is a foul. A touch with no
  position is taken to be within the table for chalk, cue, bridge and hand, beyond it for a person.
- 71's opening break with no call declared counts every ball a legal break pockets (the break paragraph
  of 003 counts them without a call); a declared call is judged like any other.
- Rolling a frozen cushion ball along the cushion (003) is recognised when the ball that drives it stays
  on it (touches it twice or more before it drops) and the ball's centre was outside the pocket.
- The stalemate (000: Русская пирамида, «Патовая позиция») leaves the lowest-numbered object ball, on the
  back spot, as the 70:70 rule does for the last ball.
- Penalty balls (Американка, Moscow, 8 balls) come from the offender's shelf, the last ball he was
  credited; one owed is paid from the next ball he pockets (000: «Штрафы за нарушения»).
- A push (пропих): the cue ball meets a ball it was not frozen to while the tip is still on it - within 1 ms
  (the tip's contact time, docs/physics.md §Cues) of a tip contact's start, every contact of the record's ``cue_strike``
  counted (``rules/strike.py``). A double hit is ``contacts`` > 1.
- The 45° rule judges a cue ball frozen to an object ball (003) from the declared direction and the initial
  positions; coming back off the ball is allowed. A ball merely close (000 §11: within half a radius) is
  played at any angle: 003 «Удар по битку» («на общих основаниях и под любым углом к линии центров, но без
  пропиха и нажима») prevails over 000 §11's 45°, and the explanation says so when the angle was under 45°.
- Non-fast 71, Moscow and 8 balls have no отыгрыш requirement (003's foul (13) lists only the fast,
  "заказная" and Американка games); a plain miss is still a foul.
- The called variants call a ball and a pocket before every stroke as the 71-point game does (000: Русская
  пирамида, «Заказ»), the break excepted. 003's foul (13) punishes an illegal отыгрыш in «"Московская
  пирамида" - быстрая и заказная, "Пирамида 8 шаров" - быстрая и заказная»: the called games, plain and fast,
  ask an отыгрыш. The only conditions 003 gives for one are those it states for the fast games ((I) a ball
  over the centre line, (II) two cushions after the hit), with their pocket-zone allowance («В играх, где
  применяются правила отыгрыша»): the plain called games are judged by them too (the plain 71, which (13)
  does not name, asks none).
- Foul list of 003 not visible in a shot record, so never ruled here: a stroke before the last ended (3),
  no foot on the floor (6), the opponent's interference (15), referee errors, the blocked position.
"""

from __future__ import annotations

from typing import ClassVar

from physics.racks import Rack
from physics.record import BallId
from rules import filters as F
from rules.base import Draft, Stroke, text
from rules.contract import NoteCode, Phase, WarningCode
from rules.games.russian_base import (
    R_71_7070,
    R_71_PENALTY,
    R_71_SPOT,
    R_71_STALE,
    R_AM_PENALTY,
    R_AM_SPOT,
    R_BREAK,
    R_CALLED,
    R_HANGING,
    R_MO_PENALTY,
    R_MO_PLAY,
    R_MO_SPOT,
    R_OUTSIDE,
    RACK_71,
    AmericanState,
    SeventyOneState,
)
from rules.games.russian_fouls import PyramidFouls
from rules.games.russian_placing import PyramidPlacing
from rules.games.russian_scoring import PyramidScoring
from rules.names import ball_en, ball_ru, object_en, object_ru
from rules.placement import ball_order, spot_on_line
from rules.registration import register
from rules.ruling import Choice, InHand, Note, Option


class Pyramid(PyramidFouls, PyramidScoring, PyramidPlacing):
    """General rules of Russian billiards, one part per concern (the fouls, counting and scoring, placing and
    who plays: ``russian_*.py``, all built on ``PyramidRules``); the games below set what differs."""

    def rack_spec(self, n_players: int) -> Rack:
        # 003: the apex ball on the back spot, the base parallel to the back cushion; the cue ball in hand.
        # RACK_71 lists each row left to right looking from the head; a rack row runs from its -y end.
        return Rack(rows=tuple(tuple(reversed(row)) for row in RACK_71))

    def replay_reason(self, s: Stroke) -> Note | None:
        if s.outside_agent is not None:
            return Note(
                NoteCode.OUTSIDE_INTERFERENCE,
                R_OUTSIDE,
                text(
                    f"An outsider ({object_en(str(s.outside_agent))}) moved a ball: the position is restored and the stroke replayed "
                    "with no penalty.",
                    f"Постороннее вмешательство ({object_ru(str(s.outside_agent))}): позиция восстанавливается, удар повторяется "
                    "без штрафа.",
                ),
            )
        fell = self.fell_unaided_note(s, R_HANGING)
        if fell is not None:
            return fell
        if (
            self.from_hand(s)
            and s.first is None
            and s.cue not in s.pocketed
            and s.cue not in s.jumped
            and not s.miscue
            and not s.scoop
            and s.strikes <= 1
            and not s.touched_within
        ):
            end = F.final_xy(s.record, s.cue)
            if not self.cue_left_house(s) and (end is None or self.in_house(s, end)):
                return Note(
                    NoteCode.NOT_OUT_OF_HOUSE,
                    R_BREAK,
                    text(
                        "From hand the cue ball neither left the house nor touched a ball: the stroke is taken again.",
                        "Биток не выведен из дома и не коснулся ни одного шара: удар с руки повторяется.",
                    ),
                )
        return None

    def end_frame(self, s: Stroke, d: Draft) -> None:
        if not self.points_game:
            for p, sc in enumerate(d.scores):
                if sc >= self.target:
                    d.frame_over, d.winner = True, p
                    return
            objs = [b for b in d.positions if b != self.cue_ball or self.any_ball_cue]
            if not objs and d.choice is None:
                # Every ball is gone and nobody has 8 (penalty balls went back...): cannot happen with 15 balls
                # on the shelves, since 8 of them make the target; kept as a guard.
                d.frame_over = True
                d.winner = max(range(len(d.scores)), key=lambda p: d.scores[p])


# ================================================================================================
@register
class RussianPyramid(Pyramid):
    """Русская пирамида (71 points): called ball and pocket, the 1 is 11, the last ball +10."""

    id = "russian-pyramid"
    aliases: ClassVar[tuple[str, ...]] = ("71", "russian", "russian-71", "русская", "классическая")
    names = {"en": "Russian pyramid (71)", "ru": "Русская пирамида (71 очко)"}
    calls = True
    points_game = True
    negative_scores = True  # a foul takes PENALTY_POINTS off the striker, from 0 too
    phases = frozenset({Phase.BREAK, Phase.PLAY, Phase.SEVENTY})
    state_type = SeventyOneState
    penalty_rule = R_71_PENALTY
    spot_rule = R_71_SPOT

    def end_frame(self, s: Stroke, d: Draft) -> None:
        st = s.state
        fam = st.family
        quiet = list(fam.quiet_fouls) if isinstance(fam, SeventyOneState) else [0, 0]
        objects_still = all(
            F.final_xy(s.record, b) is not None
            and F.dist(F.final_xy(s.record, b) or (0, 0), p) <= F.FROZEN_TOL
            for b, p in s.initial.items()
            if b != self.cue_ball
        )
        if d.foul and objects_still:
            quiet[s.striker] += 1
        else:
            quiet = [0, 0] if not objects_still else quiet
            if not d.foul:
                quiet[s.striker] = 0
        d.family = SeventyOneState(quiet_fouls=tuple(quiet))
        for p, n in enumerate(quiet):
            if n < 2:
                d.lift(WarningCode.STALEMATE, p)
        if d.foul and quiet[s.striker] == 2:
            # 000 «Патовая позиция», ПРИМЕЧАНИЕ: the referee warns after the second foul in a row.
            d.warn(WarningCode.STALEMATE, s.striker)
            d.warnings.append(
                Note(
                    NoteCode.SECOND_FOUL_IN_ROW,
                    R_71_STALE,
                    text(
                        "Second foul in a row without moving the object balls: a third by each player stalls the frame.",
                        "Второе нарушение подряд без изменения позиции прицельных шаров: после третьего у обоих "
                        "игроков партия будет остановлена (патовая позиция).",
                    ),
                )
            )
        for p, sc in enumerate(d.scores):
            if sc >= 71:
                d.frame_over, d.winner = True, p
                return
        warned = all(
            any(w.code == WarningCode.STALEMATE and w.player == p for w in d.standing) for p in (0, 1)
        )
        if min(quiet) >= 3 and warned:
            self._stalemate(s, d)
            return
        if d.scores == [70, 70] and st.phase != Phase.SEVENTY:
            self._seventy(s, d)

    def _to_hand(self, s: Stroke, d: Draft) -> None:
        d.positions.pop(self.cue_ball, None)
        d.in_hand = InHand.HOUSE
        d.options = [Option.LAG]
        d.phase = Phase.SEVENTY

    def _seventy(self, s: Stroke, d: Draft) -> None:
        """000: «Игра при счете 70:70»: the last ball counted goes on the back spot, a lag decides who plays,
        from hand from the house, until a ball is pocketed or a foul."""
        last = ([b for b in d.counted if b != self.cue_ball] or [s.state.last_counted or ""])[-1]
        if last:
            for shelf in d.credit.values():
                if last in shelf:
                    shelf.remove(last)
            if last not in d.credit.get(s.striker, []) and any(last in sh for sh in s.state.shelves):
                d.from_shelf.append(last)
            rs = spot_on_line(
                [last], {b: q for b, q in d.positions.items() if b != self.cue_ball}, self.table
            )
            d.respot += rs
            d.positions[last] = rs[0].at
        self._to_hand(s, d)
        d.warnings.append(
            Note(
                NoteCode.SEVENTY_ALL,
                R_71_7070,
                text(
                    f"70:70: {ball_en(last)} goes back on the back spot; a lag decides who plays it from hand from the house.",
                    f"Счёт 70:70: {ball_ru(last)} выставляется на заднюю отметку; право удара разыгрывается, игра с руки из дома.",
                ),
            )
        )

    def _stalemate(self, s: Stroke, d: Draft) -> None:
        objs = sorted((b for b in d.positions if b != self.cue_ball), key=ball_order)
        keep = objs[0] if objs else None
        for b in objs[1:]:
            d.positions.pop(b)
            d.out_of_play.append(b)
        d.scores = [70, 70]
        d.points = [70 - sc for sc in s.state.scores]
        if keep is not None:
            rest = {b: q for b, q in d.positions.items() if b not in (keep, self.cue_ball)}
            rs = spot_on_line([keep], rest, self.table)
            d.respot = [r for r in d.respot if r.ball != keep] + rs
            d.positions[keep] = rs[0].at
        d.respot = [r for r in d.respot if r.ball in d.positions]
        self._to_hand(s, d)
        d.family = SeventyOneState()
        d.lift(WarningCode.STALEMATE, 0)
        d.lift(WarningCode.STALEMATE, 1)
        d.warnings.append(
            Note(
                NoteCode.STALEMATE,
                R_71_STALE,
                text(
                    "Stalemate: each player fouled three times in a row without changing the position, after the "
                    f"referee's warning. Only {ball_en(keep or '')} stays, on the back spot; the score is set to 70:70 "
                    "and play goes on under the 70:70 rule.",
                    "Патовая позиция: каждый игрок трижды подряд нарушил правила без изменения позиции, несмотря на "
                    f"предупреждение судьи. На столе остаётся {ball_ru(keep or '')} на задней отметке, счёт 70:70, "
                    "игра по правилу «70:70».",
                ),
            )
        )


@register
class RussianPyramidFast(RussianPyramid):
    id = "russian-pyramid-fast"
    aliases = ("71-fast", "russian-fast")
    names = {"en": "Russian pyramid (71), fast", "ru": "Русская пирамида (71 очко), быстрая"}
    fast = True
    safety = "fast"


@register
class American(Pyramid):
    """Американка: any of the 16 balls is the cue ball, first to 8, penalty ball from the shelf."""

    id = "american"
    aliases: ClassVar[tuple[str, ...]] = ("американка", "free-pyramid", "свободная")
    names = {"en": "Americanka (free pyramid)", "ru": "Американка"}
    any_ball_cue = True
    cue_may_be_credited = True
    in_off_scores = True
    cue_pocket_foul = False
    hand_after_cue_lost = False
    safety = "american"
    spotting = "cushion"
    shelf_game = True
    penalty_rule = R_AM_PENALTY
    spot_rule = R_AM_SPOT

    state_type = AmericanState


@register
class AmericanFast(American):
    id = "american-fast"
    aliases = ("американка-быстрая",)
    names = {"en": "Americanka, fast", "ru": "Американка быстрая"}
    fast = True


@register
class MoscowPyramid(Pyramid):
    """Московская пирамида: the cue ball off an object ball scores; the opponent picks a ball to come off."""

    id = "moscow-pyramid"
    aliases: ClassVar[tuple[str, ...]] = ("moscow", "московская", "combined-pyramid")
    names = {"en": "Moscow pyramid", "ru": "Московская пирамида"}
    in_off_scores = True
    cue_pocket_foul = False
    spotting = "cushion"
    shelf_game = True
    negative_scores = True  # an in-off with no object ball left to take off costs a point
    penalty_rule = R_MO_PENALTY
    spot_rule = R_MO_SPOT

    def hand_over(self, s: Stroke, d: Draft) -> None:
        super().hand_over(s, d)
        if self.legal_in_off(s, d):
            among = tuple(sorted((b for b in d.positions if b != self.cue_ball), key=ball_order))
            if among:
                d.choice = Choice(Option.REMOVE_BALL, by=s.opponent, among=among, credit_to=s.striker)
                d.options = [Option.REMOVE_BALL]
                d.notes.append(
                    text(
                        f"The cue ball went in off an object ball: it scores; the opponent picks an object ball to come "
                        f"off to the striker's shelf, and the striker plays on from hand from the house ({R_MO_PLAY}).",
                        f"Биток сыгран от прицельного шара: засчитывается; соперник указывает прицельный шар, который "
                        f"снимается со стола, и игрок продолжает с руки из дома ({R_MO_PLAY}).",
                    )
                )
            else:
                d.scores[s.striker] -= 1
                d.points[s.striker] -= 1

    def balls_back(self, s: Stroke, d: Draft) -> list[BallId]:
        return [b for b in super().balls_back(s, d) if b != self.cue_ball]


@register
class MoscowPyramidFast(MoscowPyramid):
    id = "moscow-pyramid-fast"
    aliases = ("moscow-fast",)
    names = {"en": "Moscow pyramid, fast", "ru": "Московская пирамида, быстрая"}
    fast = True
    safety = "fast"


@register
class MoscowPyramidCalled(MoscowPyramid):
    """Московская пирамида, заказная (003: Штрафы (13) names it): a ball and a pocket are called before every
    stroke, as in the 71-point game (000: Русская пирамида, «Заказ»); the cue ball may be called too (the
    in-off scores in Moscow pyramid)."""

    id = "moscow-pyramid-called"
    aliases = ("moscow-called",)
    names = {"en": "Moscow pyramid, called", "ru": "Московская пирамида, заказная"}
    calls = True
    call_rule = R_CALLED
    safety = "fast"  # 003 «Штрафы» (13): «"Московская пирамида" - быстрая и заказная»


@register
class MoscowPyramidCalledFast(MoscowPyramidCalled):
    """The fast called Moscow pyramid: calls, the fast break and 003's отыгрыш rule."""

    id = "moscow-pyramid-called-fast"
    aliases = ("moscow-called-fast",)
    names = {"en": "Moscow pyramid, called, fast", "ru": "Московская пирамида, быстрая заказная"}
    fast = True
    safety = "fast"


@register
class PyramidEight(Pyramid):
    """Пирамида 8 шаров: first to eight object balls; the cue ball in a pocket is a foul."""

    id = "pyramid-8"
    aliases: ClassVar[tuple[str, ...]] = ("8-balls", "пирамида-8")
    names = {"en": "Pyramid, 8 balls", "ru": "Пирамида 8 шаров"}
    shelf_game = True


@register
class PyramidEightFast(PyramidEight):
    id = "pyramid-8-fast"
    aliases = ("8-balls-fast",)
    names = {"en": "Pyramid, 8 balls, fast", "ru": "Пирамида 8 шаров, быстрая"}
    fast = True
    safety = "fast"


@register
class PyramidEightCalled(PyramidEight):
    """Пирамида 8 шаров, заказная (003: Штрафы (13) names it): a ball and a pocket called before every stroke."""

    id = "pyramid-8-called"
    aliases = ("8-balls-called",)
    names = {"en": "Pyramid, 8 balls, called", "ru": "Пирамида 8 шаров, заказная"}
    calls = True
    call_rule = R_CALLED
    safety = "fast"  # 003 «Штрафы» (13): «"Пирамида 8 шаров" - быстрая и заказная»


@register
class PyramidEightCalledFast(PyramidEightCalled):
    """The fast called Pyramid 8: calls, the fast break and 003's отыгрыш rule."""

    id = "pyramid-8-called-fast"
    aliases = ("8-balls-called-fast",)
    names = {"en": "Pyramid, 8 balls, called, fast", "ru": "Пирамида 8 шаров, быстрая заказная"}
    fast = True
    safety = "fast"
