"""Billiards golf (000 «Гольф») on the pool table or a snooker table.

Any number of players (2..8 here), each with his own numbered ball (player 1 has ball "1", ...). A
player plays a series until his ball drops, legally, into the pocket of the current hole; then the next
player plays the same hole. Holes go 1 to 6 around the table. Every stroke adds one to the player's
count and every foul three more (at most three per stroke); the fewest wins.

Hole order. 000 shows the numbering on a figure we do not have; we number as the common statement of
the game does: hole 1 the top-right corner (foot-right, looking from the head end), then clockwise
seen from above: right middle, bottom-right, bottom-left, left middle, top-left.

Where 000's golf section is silent, the general pocket-billiards rules apply (000's general pool
rules: what is the table, jumps, hanging balls).

``state.extra``: ``holes`` - holes each player has completed; ``opening`` - the striker's next stroke is
the opening stroke of his series on hole 1. A ball whose owner is not playing is off the bed: on his
shelf (in his hand) once he has holed it, and, before his first series, out of play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from physics.errors import InputError
from physics.limits import MAX_PLAYERS
from physics.racks import Rack
from physics.record import BallId, PocketId
from rules.base import Draft, Stroke, text
from rules.contract import Family, Option, Phase, Required, flag
from rules.games import pool_events as PE
from rules.games.pool import CUE_BALL_MISPLACED, POCKET_RU, R_DOUBLE, R_JUMP, R_TOUCH, PoolReferee, PoolState
from rules.games.pool_geometry import spot_on_long_string
from rules.names import ball_en, ball_ru, capital, pocket_name
from rules.registration import register
from rules.ruling import Alternative, FoulCode, InHand, Respot
from rules.state import MatchState
from rules.strike import push_unless_frozen

HOLES: tuple[PocketId, ...] = (
    "foot-right",
    "middle-right",
    "head-right",
    "head-left",
    "middle-left",
    "foot-left",
)
FOUL_STROKES = 3

G = "000: Гольф"
R_RULES = f"{G}, Правила игры"
R_OPENING = f"{G}, Начальная стадия игры"
R_WRONG = f"{G}, Неправильно забитый прицельный шар"
R_BALL_OFF = f"{G}, Выскочивший прицельный шар"
R_CUE = f"{G}, Выскакивание за борт или падение в лузу битка"
R_SCORE = f"{G}, Ведение счета"

OPENING_SHORT = FoulCode.OPENING_SHORT
WRONG_POCKET = FoulCode.WRONG_POCKET
ALT_SPOT = Option.SPOT_OBJECT_BALL
ALT_HEAD = Option.CUE_BALL_ON_HEAD_SPOT


@dataclass(frozen=True)
class GolfState(PoolState):
    """Golf: the holes each player has completed, and whether the striker's next stroke opens his series on
    hole 1 (000 «Начальная стадия игры»)."""

    holes: tuple[int, ...] = (0, 0)
    opening: bool = True

    @classmethod
    def initial(cls, n_players: int) -> GolfState:
        return cls(holes=(0,) * n_players)

    @classmethod
    def read(cls, key: str, value: Any, n_players: int, file: str) -> Any:
        if key == "holes":
            if not isinstance(value, list) or not all(
                isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= 6 for h in value
            ):
                raise InputError(file, "state.extra.holes", "a list of holes completed per player (0..6)")
            return tuple(value)
        if key == "opening":
            return flag(file, key, value)
        return super().read(key, value, n_players, file)


def ball_of(player: int) -> BallId:
    return str(player + 1)


def owner(ball: BallId) -> int:
    return int(ball) - 1


@register
class Golf(PoolReferee):
    id = "golf"
    table_id = "pool-9ft"
    # 000 «Гольф»: "usually played on snooker tables with snooker balls" - on either snooker table too.
    other_tables = ("snooker-12ft", "snooker-10ft")
    balls = ("cue", *(ball_of(p) for p in range(MAX_PLAYERS)))
    aliases = ("billiards-golf",)
    names = {"en": "Billiards golf", "ru": "Гольф"}
    family = Family.GOLF
    state_type = GolfState
    player_range = (2, 8)
    break_in_hand: ClassVar[InHand | None] = None
    foul_in_hand: ClassVar[InHand] = InHand.BEHIND_HEAD_STRING

    def ball_set(self, n_players: int) -> tuple[BallId, ...]:
        return ("cue", *(ball_of(p) for p in range(n_players)))

    def rack_spec(self, n_players: int) -> Rack:
        # 000: the object ball on the foot spot, the cue ball on the centre spot.
        return Rack(spots=(("cue", "centre-spot"), (ball_of(0), "foot-spot")))

    def gstate(self, st: MatchState | Draft) -> GolfState:
        fam = st.family
        assert isinstance(fam, GolfState), fam
        return fam

    def required(self, state: MatchState) -> Required:
        req = super().required(state)
        holes = self.gstate(state).holes
        k = holes[state.to_play] if state.to_play < len(holes) else 0
        return Required(
            ball_on=(ball_of(state.to_play),),
            pocket=HOLES[min(k, len(HOLES) - 1)],
            in_hand=req.in_hand,
            warnings=req.warnings,
        )

    # --- facts ------------------------------------------------------------------------------
    def holes(self, s: Stroke) -> list[int]:
        h = self.gstate(s.state).holes
        n = s.state.n_players
        return list(h) if len(h) == n else [0] * n

    def hole(self, s: Stroke) -> PocketId:
        return HOLES[min(self.holes(s)[s.striker], 5)]

    def opening(self, s: Stroke) -> bool:
        """The first stroke of a series on hole 1, played from the starting position (000 «Начальная
        стадия игры»): the cue ball on the centre spot, the player's ball on the foot spot."""
        if not self.gstate(s.state).opening or self.holes(s)[s.striker] != 0:
            return False
        cue_p, ball_p = s.initial.get(self.cue_ball), s.initial.get(self.my_ball(s))
        near = 1e-3
        return (
            cue_p is not None
            and ball_p is not None
            and math.dist(cue_p, self.table.spot("centre-spot")) < near
            and math.dist(ball_p, self.table.spot("foot-spot")) < near
        )

    def my_ball(self, s: Stroke) -> BallId:
        return ball_of(s.striker)

    # --- hooks ------------------------------------------------------------------------------
    def check_fouls(self, s: Stroke, d: Draft) -> None:
        cue, ball = self.cue_ball, self.my_ball(s)
        self.strike_fouls(s, d, self.opening(s))
        if cue in s.jumped:
            d.fouls.append(self._off_foul(s, cue, FoulCode.CUE_BALL_OFF_TABLE))
        elif cue in s.pocketed:
            d.fouls.append(
                self.foul(
                    FoulCode.CUE_BALL_POCKETED,
                    R_CUE,
                    "The cue ball fell into a pocket: the player goes on from hand behind the "
                    "head string, with the usual penalty for a foul.",
                    "Биток упал в лузу: игрок продолжает с руки из-за передней линии, со штрафом как за фол.",
                )
            )
        for b in s.jumped:
            if b != cue:
                f = self._off_foul(s, b, FoulCode.BALL_OFF_TABLE)
                d.fouls.append(self.foul(f.code, R_BALL_OFF, f.explain["en"], f.explain["ru"]))
        potted = [b for b in s.pocketed if b != cue and b not in s.jumped]
        pocket = s.record.final[ball].pocket if ball in potted and ball in s.record.final else None
        if ball in potted and pocket != self.hole(s):
            d.fouls.append(
                self.foul(
                    WRONG_POCKET,
                    R_WRONG,
                    f"{capital(ball_en(ball))} fell into {pocket_name(pocket, 'en')}; the hole now is "
                    f"{pocket_name(self.hole(s), 'en')}.",
                    f"{capital(ball_ru(ball))} упал в лузу «{POCKET_RU.get(pocket or '', pocket)}», а очередная "
                    f"луза - «{POCKET_RU[self.hole(s)]}» (№{HOLES.index(self.hole(s)) + 1}).",
                )
            )
        holed = ball in potted and pocket == self.hole(s)
        if s.first != ball:
            d.fouls.append(
                self.foul(
                    FoulCode.MISS,
                    R_RULES,
                    f"The cue ball did not meet {ball_en(ball)}.",
                    f"Биток не коснулся {ball_ru(ball, 'gen')}.",
                )
            )
        elif not holed and not (PE.rails_reached(s.record, self.table, s.first_t) & {cue, ball}):
            d.fouls.append(
                self.foul(
                    FoulCode.NO_RAIL,
                    R_RULES,
                    "After the contact neither ball reached a cushion and the ball was not holed.",
                    "После соударения ни один из шаров не дошёл до борта, и шар не забит в очередную лузу.",
                )
            )
        if self.opening(s) and not any(
            e.cushion == "foot" for e in s.record.for_ball(ball) if e.cushion is not None
        ):
            d.fouls.append(
                self.foul(
                    OPENING_SHORT,
                    R_OPENING,
                    f"Opening stroke: {ball_en(ball)} did not reach the foot cushion; the balls go back "
                    "to the start and the stroke is taken again.",
                    f"Начальный удар: {ball_ru(ball)} не дошёл до заднего борта; шары возвращаются на "
                    "исходные позиции, удар повторяется.",
                )
            )

    def strike_fouls(self, s: Stroke, d: Draft, breaking: bool) -> None:
        """How the stroke was played: the ball struck, the place from hand, a double hit, a scoop or a miscue on
        a jump (000: Гольф, and the general pool rules it plays by)."""
        cue = self.cue_ball
        if s.struck and s.struck != cue:
            d.fouls.append(
                self.foul(
                    FoulCode.WRONG_BALL_STRUCK,
                    R_TOUCH,
                    f"The cue met {ball_en(s.struck)}, not the cue ball.",
                    f"Кий ударил {ball_ru(s.struck, 'acc')}, а не биток.",
                )
            )
        if s.state.in_hand == InHand.BEHIND_HEAD_STRING and not self._cue_placed_behind(s):
            d.fouls.append(
                self.foul(
                    CUE_BALL_MISPLACED,
                    R_CUE,
                    "From hand the cue ball must be placed behind the head string.",
                    "С руки биток ставится за передней линией (в доме).",
                )
            )
        if s.strikes >= 2:
            d.fouls.append(
                self.foul(
                    FoulCode.DOUBLE_HIT,
                    R_DOUBLE,
                    "The tip met the cue ball more than once.",
                    "Наклейка коснулась битка более одного раза.",
                )
            )
        pushed = push_unless_frozen(s.record, self.cue_ball, s.first, s.first_t, self.table.ball_radius)
        if pushed is not None:
            d.fouls.append(
                self.foul(
                    FoulCode.PUSH_SHOT,
                    R_DOUBLE,
                    f"A push: the tip was still on the cue ball when it met {ball_en(pushed.ball)} "
                    f"({pushed.ms:.1f} ms into the tip's contact).",
                    f"Толчок: наклейка ещё касалась битка, когда он коснулся {ball_ru(pushed.ball, 'gen')} "
                    f"(через {pushed.ms:.1f} мс после начала контакта).",
                )
            )
        if PE.scooped(s.record, self.cue_ball, s.scoop):
            d.fouls.append(
                self.foul(
                    FoulCode.SCOOP,
                    R_JUMP,
                    "Scoop: the tip went under the cue ball with an elevated cue.",
                    "Подцепка: биток поддет снизу приподнятым кием.",
                )
            )
        elif s.miscue and PE.airborne(s.record, cue):
            d.fouls.append(self.foul(FoulCode.MISCUE, R_JUMP, "Miscue during a jump.", "Кикс при перескоке."))

    def count(self, s: Stroke, d: Draft) -> None:
        ball = self.my_ball(s)
        f = s.record.final.get(ball)
        if not d.foul and ball in s.pocketed and f is not None and f.pocket == self.hole(s):
            d.counted = [ball]

    def score(self, s: Stroke, d: Draft) -> None:
        # 000 «Ведение счета»: one per stroke, three more for a foul (never more than three per stroke).
        d.points[s.striker] = 1 + (FOUL_STROKES if d.foul else 0)
        super().score(s, d)

    def place(self, s: Stroke, d: Draft) -> None:
        d.positions = s.final_positions()
        d.off_table = list(s.jumped)
        cue, ball = self.cue_ball, self.my_ball(s)
        if cue in s.pocketed or cue in s.jumped:
            d.positions.pop(cue, None)
        if d.has(OPENING_SHORT):
            # 000: back to the starting position until the opening requirement is met.
            d.positions = {b: p for b, p in s.initial.items() if b in s.state.balls or b == cue}
            d.positions[cue] = self.table.spot("centre-spot")
            d.positions[ball] = self.table.spot("foot-spot")
            d.respot = [Respot(cue, d.positions[cue]), Respot(ball, d.positions[ball])]
            return
        back = [b for b in (*s.pocketed, *s.jumped) if b not in (cue, ball) and b not in d.positions]
        if d.counted:
            d.credit = {s.striker: [ball]}
        elif ball not in d.positions:
            back.insert(0, ball)  # wrong pocket or off the table: back on the foot spot (000)
        # Another player's ball has no business on the bed, but if one was there and dropped, it goes
        # back the same way rather than vanish.
        for b, at in spot_on_long_string(self.table, list(dict.fromkeys(back)), d.positions):
            d.positions[b] = at
            d.respot.append(Respot(b, at))

    def hand_over(self, s: Stroke, d: Draft) -> None:
        n = s.state.n_players
        holes = self.holes(s)
        self.set_state(d, opening=d.has(OPENING_SHORT), opening_by=-1)
        d.next_player = s.striker
        d.phase = Phase.PLAY
        if d.has(OPENING_SHORT):
            d.phase = Phase.BREAK
            return
        if self.cue_ball not in d.positions:
            d.in_hand = InHand.BEHIND_HEAD_STRING
            self._house_choice(s, d)
        if not d.counted:
            self.set_state(d, holes=tuple(holes))
            return
        k = holes[s.striker]
        holes[s.striker] = k + 1
        self.set_state(d, holes=tuple(holes))
        nxt = next((q for q in range(s.striker + 1, n) if holes[q] == k), None)
        if nxt is None and k + 1 < len(HOLES):
            nxt = 0
            k += 1
        if nxt is None:
            return  # the last player holed the last hole: end_frame closes the frame
        d.next_player = nxt
        nb = ball_of(nxt)
        if k == 0:
            # A new series on hole 1 starts from the starting position (000 «Начальная стадия игры»).
            d.positions = {b: p for b, p in d.positions.items() if b != self.cue_ball}
            at_cue = self.table.spot("centre-spot")
            d.positions[self.cue_ball] = at_cue
            d.respot.append(Respot(self.cue_ball, at_cue))
            d.in_hand = None
            d.options = []
            self.set_state(d, opening=True)
        occupied = {b: p for b, p in d.positions.items() if b != nb}
        for b, at in spot_on_long_string(self.table, [nb], occupied):
            d.positions[b] = at
            d.respot.append(Respot(b, at))
        if any(nb in sh for sh in s.state.shelves) or nb in d.credit.get(s.striker, []):
            if nb in d.credit.get(s.striker, []):
                d.credit[s.striker] = [b for b in d.credit[s.striker] if b != nb]
            else:
                d.from_shelf.append(nb)
        d.notes.append(
            text(
                f"Hole {HOLES.index(self.hole(s)) + 1} done; {s.state.players[nxt]} plays hole {k + 1}.",
                f"Луза {HOLES.index(self.hole(s)) + 1} сыграна; {s.state.players[nxt]} играет лузу {k + 1}.",
            )
        )

    def interference_penalty(self, s: Stroke, d: Draft, opp: int) -> None:
        """000 «Гольф», «Ведение счета»: three strokes more for a foul - on the player who interfered."""
        d.points[opp] += FOUL_STROKES
        d.scores[opp] += FOUL_STROKES
        d.notes.append(
            text(
                f"The opponent fouled ({self.interference_rule}): three strokes are added to his count ({R_SCORE}).",
                f"Нарушение соперника ({self.interference_rule}): к его счёту прибавляются три очка ({R_SCORE}).",
            )
        )

    def after_interference(self, s: Stroke, d: Draft) -> None:
        """The striker's series goes on as his stroke left it."""

    def _house_choice(self, s: Stroke, d: Draft) -> None:
        """000 rule 4: from hand with the object ball in the house, the player may spot it on the foot
        spot and play from the house, or put the cue ball on the head spot and play it where it lies."""
        ball = self.my_ball(s)
        p = d.positions.get(ball)
        if p is not None and p[0] < self.table.lines["head-string"]:
            d.options = [ALT_SPOT, ALT_HEAD]
            others = {b: q for b, q in d.positions.items() if b not in (ball, self.cue_ball)}
            spotted = dict(others)
            for b, at in spot_on_long_string(self.table, [ball], others):
                spotted[b] = at
            head = self.table.spot("head-spot")
            on_head = {**d.positions, self.cue_ball: head}
            d.alternatives = {
                ALT_SPOT: Alternative(spotted, InHand.BEHIND_HEAD_STRING),
                ALT_HEAD: Alternative(on_head, None),
            }

    def end_frame(self, s: Stroke, d: Draft) -> None:
        holes = self.gstate(d).holes
        if all(h >= len(HOLES) for h in holes):
            d.frame_over = True
            best = min(d.scores)
            leaders = [p for p, sc in enumerate(d.scores) if sc == best]
            d.winner = leaders[0] if len(leaders) == 1 else None
            d.options = []
            d.in_hand = None if self.cue_ball in d.positions else InHand.BEHIND_HEAD_STRING
