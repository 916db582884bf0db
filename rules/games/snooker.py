"""Snooker referees: international snooker and American snooker (000).

:class:`SnookerBase` is put together from one part per concern, each in its own module: the declarations, the
ball on and the penalties (``snooker_base.py``), outside interference (``snooker_interference.py``), the fouls
(``snooker_fouls.py``), counting, scoring and the respots (``snooker_counting.py``), who plays next and the end
of the frame (``snooker_turn.py``). The two games here override only what differs.

International snooker follows 000's «Международный снукер» section; where it is silent (the three
exceptions of the jump-shot definition, the points of a foul and a miss, the edge of a pocket) the
WPBSA Official Rules fill in, cited as ``WPBSA S3 R<n>`` or ``WPBSA Definitions``.

American snooker (000 «Американский снукер») plays the same balls and order with American rules:
a break that must send a red and the cue ball to cushions, a cushion-or-pocket requirement on every
stroke, 7 points to the opponent for every foul, jumped object balls without penalty and no free ball.

``state.ball_on``: ``"red"``, ``"colour"`` (a red was just potted: a colour must be nominated through
the shot's ``call.ball``), or the colour in sequence once the reds are gone (``"yellow"`` ... ``"black"``).
``state.extra``: ``free_ball_for`` (the player who may nominate a free ball, -1 for none),
``misses`` (consecutive misses with a full view of the ball on, of ``miss_by``), ``opening_by``.

Outside interference (rules-notes §2 row 17). WPBSA S3 R15: a ball disturbed by anyone or anything but the
striker is put back by the referee where he judges it was, or would have come to rest; no penalty, and the
stroke is not replayed - what the striker did stands. The referee's judgement is the physics' undisturbed
run (``Referee.judge(..., undisturbed=...)``, the same stroke without the outsider): :func:`referee_view`
takes, from the moment of the first touch, the motion of every disturbed ball from that run and everything
else from the stroke as it happened, and the stroke is then judged as usual. A ball that would have come to
rest in a pocket is potted (WPBSA S2 R7: it entered the pocket and stayed); one that would have come to rest
off the bed was forced off the table (S2 R14) - the outsider does not save it. Without the undisturbed run
the referee cannot judge where the ball would have stopped, so the position is restored and the stroke
replayed. American snooker plays by 000's general rules here (000 «Вмешательство постороннего»): the
balls go back to where they were and the stroke is replayed, whatever the undisturbed run says.
"""

from __future__ import annotations

from physics.record import BallId
from rules.base import Draft, Stroke, text
from rules.contract import NoteCode, Phase
from rules.games import pool_events as PE
from rules.games.snooker_base import AGENT_RU, ILLEGAL_BREAK, R_INTERFERE_US, R_OUTSIDE_US
from rules.games.snooker_counting import SnookerCounting
from rules.games.snooker_fouls import SnookerFouls
from rules.games.snooker_geometry import is_red
from rules.games.snooker_turn import SnookerTurn
from rules.names import ball_en, ball_ru, object_en, object_ru
from rules.registration import register
from rules.ruling import Foul, FoulCode, Note, Option


class SnookerBase(SnookerFouls, SnookerCounting, SnookerTurn):
    """What both snooker games share, one part per concern (``snooker_*.py``, all built on ``SnookerRules``);
    the penalty table and options differ."""


@register
class Snooker(SnookerBase):
    """International snooker (000 «Международный снукер»; WPBSA for what it leaves out)."""

    # WPBSA S3 R9: a ball that falls by itself after the stroke has ended is not part of it (replaced); one
    # that balances for a moment during the stroke and falls is potted. No five seconds.
    hanging_until_end = True

    id = "snooker"
    table_id = "snooker-12ft"
    opponent_is_outsider = True  # WPBSA S3 R15: disturbed "other than by the striker"
    aliases = ("international-snooker",)
    names = {"en": "Snooker", "ru": "Снукер"}


@register
class AmericanSnooker(SnookerBase):
    """American snooker (000 «Американский снукер»): 7 points for every foul, the cushion-or-pocket rule,
    the break that sends a red and the cue ball to cushions, jumped object balls without penalty."""

    id = "american-snooker"
    table_id = "snooker-10ft"
    aliases = ()
    names = {"en": "American snooker", "ru": "Американский снукер"}
    free_ball_allowed = False
    miss_rule = False
    touching_rule = False
    world_rules = False  # 000's own game (7 points a foul): WPBSA does not govern it
    off_is_foul = False
    jump_rule = "000: Американский снукер, Правила игры"
    cue_off_rule = "000: Американский снукер, Выскакивание за борт или падение в лузу битка"
    cue_pocket_rule = cue_off_rule  # its own section names the cue ball in a pocket
    touch_rule = "000: Запрет касания шаров"

    def penalty(self, worth: int) -> int:
        """000 «Штрафы за нарушения»: every foul gives the opponent 7 points."""
        return 7

    repositions = False

    def outside_replay(self, s: Stroke) -> Note:
        """000 «Вмешательство постороннего» (the general rules American snooker is played by): balls an
        outsider set moving go back where they were, no penalty - the stroke is replayed."""
        who = AGENT_RU.get(str(s.outside_agent), str(s.outside_agent))
        return Note(
            NoteCode.OUTSIDE_INTERFERENCE,
            R_OUTSIDE_US,
            text(
                f"An outsider ({object_en(str(s.outside_agent))}) moved a ball: the balls go back where they were and the stroke is "
                "replayed, with no penalty.",
                f"Посторонний ({who}) сдвинул шар: шары возвращаются на исходные позиции, удар "
                "повторяется без штрафа.",
            ),
        )

    def opponent_interfered(self, s: Stroke, d: Draft) -> None:
        """000 (general pool rules, which American snooker follows) «Вмешательство в игру соперника»: the
        opponent's foul; 7 points to the striker (000: Американский снукер, «Штрафы за нарушения»)."""
        touches = [(b, o) for b, o, inside in s.opponent_touches if inside]
        if not touches:
            return
        b, obj = touches[0]
        opp = s.opponent
        d.others.append(
            Foul(
                FoulCode.OPPONENT_INTERFERENCE,
                R_INTERFERE_US,
                text(
                    f"the opponent touched {ball_en(b)} ({object_en(obj)}) while the striker played: his foul",
                    f"соперник коснулся {ball_ru(b, 'gen')} ({object_ru(obj)}) во время удара: это его нарушение",
                ),
                by=opp,
            )
        )
        d.points[s.striker] += 7
        d.scores[s.striker] += 7
        d.notes.append(
            text(
                f"The opponent fouled ({R_INTERFERE_US}): 7 points to the striker, who plays on "
                "(000: Американский снукер, Штрафы за нарушения).",
                f"Нарушение соперника ({R_INTERFERE_US}): играющему 7 очков, он продолжает "
                "(000: Американский снукер, Штрафы за нарушения).",
            )
        )

    def after_interference(self, s: Stroke, d: Draft) -> None:
        if (
            not d.foul
            and not d.frame_over
            and any(f.code == FoulCode.OPPONENT_INTERFERENCE for f in d.others)
        ):
            d.next_player = s.striker
            d.options = []

    def extra_fouls(self, s: Stroke, d: Draft, on: set[BallId], v_on: int) -> None:
        cue = self.cue_ball
        potted_obj = [b for b in s.pocketed if b != cue and b not in s.jumped]
        rails = PE.rails_reached(s.record, self.table, s.first_t)
        if self.breaking(s):
            red_first = s.first is not None and is_red(s.first)
            red_rail = any(is_red(b) for b in rails | set(potted_obj))
            if not (red_first and red_rail and cue in rails):
                self.add(
                    d,
                    ILLEGAL_BREAK,
                    "000: Американский снукер, Начальный удар (разбитие)",
                    7,
                    "Break: the cue ball must meet a red first, a red must then reach a cushion or a pocket, "
                    "and the cue ball must reach a cushion.",
                    "Разбитие: биток должен первым коснуться красного, красный - дойти до борта или упасть "
                    "в лузу, а биток - дойти до борта.",
                )
            return
        if s.first is not None and not potted_obj and not rails:
            self.add(
                d,
                FoulCode.NO_RAIL,
                "000: Американский снукер, Правила игры",
                7,
                "After the cue ball met the ball on, nothing was pocketed and no ball reached a cushion.",
                "После касания очередного шара ни один шар не упал в лузу и ни один не дошёл до борта.",
            )

    def foul_options(self, s: Stroke, d: Draft) -> None:
        if d.has(ILLEGAL_BREAK):
            # 000: accept the position, or have the offender break again.
            d.options = [Option.MAKE_OFFENDER_REPLAY]
            d.phase = Phase.BREAK
            self.set_state(d, opening_by=s.striker)
            return
        # 000 «Штрафы за нарушения»: accept the position, or make the offender play again (from the D
        # too, when the cue ball is in hand).
        d.options = [Option.PLAY_ON]
