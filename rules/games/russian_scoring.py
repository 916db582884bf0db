"""Counting and scoring in Russian billiards: what the stroke counts and why a pocketed ball does not, the
points (71) or the shelf with its penalty balls and debts (000: «Штрафы за нарушения» of each game), and the
opponent's interference (003: Вмешательство соперника), which is his foul and his penalty."""

from __future__ import annotations

from dataclasses import replace

from rules.base import Draft, Stroke, text
from rules.contract import NoteCode
from rules.games.russian_base import (
    PENALTY_POINTS,
    R_71_SCORE,
    R_FOULS,
    R_HANGING,
    R_JUMPED,
    R_OPPONENT,
    R_REF_ERROR,
    R_ROLLED,
    PyramidRules,
)
from rules.names import ball_en, ball_name, ball_ru, balls_list, capital, object_en, object_ru, pocket_name
from rules.ruling import Foul, FoulCode, Note
from rules.stopped import Heading, heading, into_pocket


class PyramidScoring(PyramidRules):
    """``count``, ``score`` and the opponent's interference (``opponent_interfered``)."""

    def count(self, s: Stroke, d: Draft) -> None:
        if self.referee_error(s):
            d.counted = []
            note = Note(
                NoteCode.REFEREE_ERROR,
                R_REF_ERROR,
                text(
                    "The cue ball was played from outside the house and the referee had not warned the player: a "
                    "referee's error. No penalty; nothing pocketed counts; the balls the stroke disturbed go back "
                    "where they were; the turn passes to the opponent, from where the cue ball stopped (from hand "
                    "in the house if it left the bed).",
                    "Биток сыгран не из дома, а судья не предупредил игрока: судейская ошибка. Штрафа нет, "
                    "забитые шары не засчитываются, потревоженные шары восстанавливаются, удар переходит к "
                    "сопернику с места остановки битка (с руки из дома, если биток покинул поле).",
                ),
            )
            d.warnings.append(note)
            d.notes.append(
                text(f"{R_REF_ERROR}: {note.explain['en']}", f"{R_REF_ERROR}: {note.explain['ru']}")
            )
            return
        d.counted = [] if d.foul else self.scoring(s)
        if self.calls:
            self.call_note(s, d)
        rolled = self.rolled_along(s)
        if rolled and not d.foul:
            d.notes.append(
                text(
                    f"{capital(balls_list(rolled, 'en'))} rolled along the cushion into the pocket: not counted, respotted, "
                    f"no penalty, the turn passes ({R_ROLLED}).",
                    f"Скатаны по борту в лузу ({balls_list(rolled, 'ru')}): не засчитываются, выставляются, штрафа "
                    f"нет, удар переходит к сопернику ({R_ROLLED}).",
                )
            )
        uncounted = [b for b in s.pocketed if b not in d.counted and b != s.cue]
        if uncounted and not d.foul and not rolled:
            d.notes.append(
                text(
                    f"Not counted and respotted: {balls_list(uncounted, 'en')}.",
                    f"Не засчитаны и выставляются: {balls_list(uncounted, 'ru')}.",
                )
            )
        for b in s.jumped:
            if b != s.cue:
                d.notes.append(
                    text(
                        f"{capital(ball_en(b))} jumped off the table: respotted after the stroke, no penalty ({R_JUMPED}).",
                        f"{capital(ball_ru(b))} выскочил за борт: выставляется после удара, без штрафа ({R_JUMPED}).",
                    )
                )
        for b in s.restored:
            d.notes.append(
                text(
                    f"{capital(ball_en(b))} stopped in the jaws and fell after the stroke had ended (every ball at "
                    f"rest): it does not count and is put back in the jaws, however long it hung ({R_HANGING}).",
                    f"{capital(ball_ru(b))} остановился в створе лузы и упал после завершения удара (все шары "
                    f"стояли): не засчитывается и восстанавливается в створ лузы, сколько бы он ни висел ({R_HANGING}).",
                )
            )

    def call_note(self, s: Stroke, d: Draft) -> None:
        """Why the balls of a called game's stroke did not count (000: Русская пирамида, «Заказ»: only a
        called ball in the called pocket makes the stroke count)."""
        sh = s.record.shot
        if d.foul or d.counted or not [b for b in s.pocketed if b != s.cue]:
            return
        rule = self.call_rule
        if sh is None or sh.call_ball is None:
            d.notes.append(
                text(f"No ball and pocket were called ({rule}).", f"Шар и луза не заказаны ({rule}).")
            )
            return
        en, ru = ball_name(sh.call_ball, "en"), ball_name(sh.call_ball, "ru")
        where_en, where_ru = pocket_name(sh.call_pocket, "en"), pocket_name(sh.call_pocket, "ru")
        d.notes.append(
            text(
                f"The called ball, {en}, did not go into the called pocket, {where_en} ({rule}).",
                f"Заказанный шар ({ru}) не сыгран в заказанную лузу ({where_ru}) ({rule}).",
            )
        )

    def score(self, s: Stroke, d: Draft) -> None:
        st = s.state
        me, opp = s.striker, s.opponent
        objects_counted = [b for b in d.counted if b != s.cue or self.any_ball_cue]
        if self.points_game:
            pts = sum(11 if b == "1" else int(b) for b in objects_counted)
            remaining = [b for b in s.final_positions() if b != self.cue_ball] + self.balls_back(s, d)
            if objects_counted and not remaining:
                pts += 10
                d.notes.append(
                    text(
                        f"Ball {objects_counted[-1]} was the last on the table: +10 ({R_71_SCORE}).",
                        f"Шар {objects_counted[-1]} — последний на столе: +10 ({R_71_SCORE}).",
                    )
                )
            d.credit[me] = list(objects_counted)
            if d.foul:
                d.points[me] -= PENALTY_POINTS
                d.points[opp] += PENALTY_POINTS
            d.points[me] += pts
        else:
            credit = list(objects_counted)
            gained = len(credit) + (1 if (s.cue in d.counted and not self.any_ball_cue) else 0)
            shelf = list(st.shelves[me])
            if d.foul:
                if shelf:
                    ball = shelf[-1]
                    d.from_shelf.append(ball)
                    d.points[me] -= 1
                    d.notes.append(
                        text(
                            f"Penalty: {ball_en(ball)} comes off the offender's shelf back to the table "
                            f"({self.penalty_rule}).",
                            f"Штраф: {ball_ru(ball)} снимается с полки нарушителя и выставляется "
                            f"({self.penalty_rule}).",
                        )
                    )
                else:
                    d.owed[me] += 1
                    d.notes.append(
                        text(
                            f"Penalty: the offender has no ball, he owes one ({self.penalty_rule}).",
                            f"Штраф: у нарушителя нет забитых шаров — шар в долг ({self.penalty_rule}).",
                        )
                    )
            elif d.owed[me] and credit:
                pay = credit[-d.owed[me] :] if d.owed[me] < len(credit) else list(credit)
                for b in pay:
                    credit.remove(b)
                    d.from_shelf.append(b)
                d.owed[me] -= len(pay)
                d.points[me] -= len(pay)
                d.notes.append(
                    text(
                        f"The owed penalty is paid with {balls_list(pay, 'en')} ({self.penalty_rule}).",
                        f"Штрафной долг погашен: {balls_list(pay, 'ru')} ({self.penalty_rule}).",
                    )
                )
            d.credit[me] = credit
            d.points[me] += gained
        d.scores = [sc + p for sc, p in zip(d.scores, d.points, strict=True)]

    def opponent_interfered(self, s: Stroke, d: Draft) -> None:
        """003 «Вмешательство соперника»: the opponent who touches, moves or stops a ball is penalised; the position
        is restored as exactly as can be (the undisturbed run, when the caller has it), and a ball he stopped on its
        way to a pocket counts - the striker then plays on. A ball that has left the table and touches the opponent's
        things beyond it is only a jumped ball (003: Выскочившие шары)."""
        touches = [(b, o) for b, o, inside in s.opponent_touches if inside]
        if not touches:
            return
        opp, me = s.opponent, s.striker
        b, obj = touches[0]
        d.others.append(
            Foul(
                FoulCode.OPPONENT_INTERFERENCE,
                R_OPPONENT + "; " + R_FOULS + " (15)",
                text(
                    f"the opponent touched {ball_en(b)} ({object_en(obj)}): his foul, not the striker's",
                    f"соперник коснулся {ball_ru(b, 'gen')} ({object_ru(obj)}): это его нарушение, а не играющего",
                ),
                by=opp,
            )
        )
        if self.points_game:
            d.points[opp] -= PENALTY_POINTS
            d.points[me] += PENALTY_POINTS
            d.scores[opp] -= PENALTY_POINTS
            d.scores[me] += PENALTY_POINTS
            fine_en, fine_ru = (
                f"{PENALTY_POINTS} points off him, {PENALTY_POINTS} to the striker",
                (f"с него списывается {PENALTY_POINTS} очков, играющему прибавляется {PENALTY_POINTS}"),
            )
        elif s.state.shelves[opp]:
            ball = s.state.shelves[opp][-1]
            d.from_shelf.append(ball)
            d.points[opp] -= 1
            d.scores[opp] -= 1
            fine_en, fine_ru = (
                f"{ball_en(ball)} comes off his shelf back to the table",
                f"{ball_ru(ball)} снимается с его полки и выставляется",
            )
        else:
            d.owed[opp] += 1
            fine_en, fine_ru = "he owes a ball", "у него нет шаров - шар в долг"
        it = s.interference
        if it is None:
            where_en = "The balls stay where they stopped: with no undisturbed run the referee cannot say where they would have gone."
            where_ru = "Шары остаются там, где остановились: без расчёта удара без вмешательства судье не по чему их восстановить."
            if s.stop_note is not None:
                where_en, where_ru = (
                    "The balls stay where they stopped.",
                    "Шары остаются там, где остановились.",
                )
        else:
            went = [x for x in it.balls if x in d.counted]
            where_en = "The balls he disturbed are put where they would have come to rest" + (
                f"; {balls_list(went, 'en')} was on its way to a pocket and counts, so the striker plays on."
                if went
                else "."
            )
            where_ru = "Потревоженные им шары ставятся туда, где они остановились бы" + (
                f"; {balls_list(went, 'ru')} шёл в лузу и считается сыгранным - играющий продолжает."
                if went
                else "."
            )
        if s.stop_note is not None:
            where_en += " " + s.stop_note["en"]
            where_ru += " " + s.stop_note["ru"]
        d.notes.append(
            text(
                f"Opponent's interference ({R_OPPONENT}): penalty, {fine_en} ({self.penalty_rule}). {where_en}",
                f"Вмешательство соперника ({R_OPPONENT}): штраф, {fine_ru} ({self.penalty_rule}). {where_ru}",
            )
        )

    def stopped_from_record(self, s: Stroke) -> Stroke:
        """003 «Вмешательство соперника» with no undisturbed run: the ball the opponent stopped counts if the
        record shows it on its way to a pocket (``rules/stopped.py``; the call decides in a called game), and
        the explanation says how that was decided."""
        inside = {(b, o) for b, o, within in s.opponent_touches if within}
        touch = next(
            (e for e in self.opponent_events(s) if (e.ball, e.object) in inside and e.ball != s.cue), None
        )
        if touch is None or touch.ball is None:
            return s
        b = touch.ball
        h = heading(s.record, self.table, touch)
        if h is None:
            return replace(
                s,
                stop_note=text(
                    f"The record does not say where {ball_en(b)} was touched, so it cannot show it on its way to a "
                    "pocket: it does not count.",
                    f"Запись удара не говорит, где остановлен {ball_ru(b)}, поэтому не видно, что он шёл в лузу: "
                    "он не засчитывается.",
                ),
            )
        en, ru = _basis(h)
        sh = s.record.shot
        called = self.calls and not s.state.is_break
        if (
            h.pocket is not None
            and called
            and (sh is None or (sh.call_ball, sh.call_pocket) != (b, h.pocket))
        ):
            en += f", but the call was not {ball_en(b)} into that pocket"
            ru += ", но заказ был не на этот шар в эту лузу"
            h = replace(h, pocket=None)
        elif h.pocket is not None and called:
            en += ", the called ball for the called pocket"
            ru += ", это заказанный шар в заказанную лузу"
        verdict_en = (
            "on its way to a pocket: it counts as pocketed" if h.pocket else "not on its way to a pocket"
        )
        verdict_ru = "шёл в лузу: он считается сыгранным" if h.pocket else "не шёл в лузу"
        note = text(
            f"How it was decided (no undisturbed run): {ball_en(b)} was {verdict_en} - {en}.",
            f"Как это решено (без расчёта удара без вмешательства): {ball_ru(b)} {verdict_ru} - {ru}.",
        )
        if h.pocket is None:
            return replace(s, stop_note=note)
        judged = self.as_undisturbed(s, into_pocket(s.record, b, h.pocket, touch.t, h), [touch])
        return replace(judged, stop_note=note)


def _basis(h: Heading) -> tuple[str, str]:
    """What the heading rests on and what it found, in words (en, ru)."""
    if h.by == "velocity":
        en = f"its velocity at the touch ({h.speed or 0.0:.2f} m/s, the record's samples)"
        ru = f"по его скорости в момент касания ({h.speed or 0.0:.2f} м/с, из выборок записи)"
    else:
        en = "its path to the touch (from where the record last had it; the record has no speed, so the path alone decides)"
        ru = "по его пути до касания (от последнего места в записи; скорости в записи нет, решает один путь)"
    if h.blocker is not None:
        return en + f" points at a pocket, but {ball_en(h.blocker)} stands in the way", ru + (
            f" он шёл к лузе, но на пути стоит {ball_ru(h.blocker)}"
        )
    if h.to_mouth is None:
        return (
            en + " points through no pocket's mouth",
            ru + " линия его движения не проходит через створ ни одной лузы",
        )
    if h.pocket is None:
        return (
            en
            + f" points into a pocket {h.to_mouth:.2f} m away, but it could roll only {h.reach or 0.0:.2f} m",
            ru + f" он шёл к лузе в {h.to_mouth:.2f} м, но мог прокатиться лишь {h.reach or 0.0:.2f} м",
        )
    reach_en = f", and it could roll {h.reach:.2f} m" if h.reach is not None else ""
    reach_ru = f", а прокатиться он мог {h.reach:.2f} м" if h.reach is not None else ""
    return (
        en + f" points through the mouth of {pocket_name(h.pocket, 'en')}, {h.to_mouth:.2f} m on{reach_en}",
        ru
        + f" линия движения проходит через створ лузы ({pocket_name(h.pocket, 'ru')}) в {h.to_mouth:.2f} м{reach_ru}",
    )
