"""Outside interference in snooker (WPBSA S3 R15): a ball disturbed by anyone or anything but the striker is
judged where it would have come to rest - the undisturbed run says where (``Referee.judge(...,
undisturbed=...)``) - and nobody is penalised for the disturbance; without that run the position is restored
and the stroke replayed. The module docstring of ``rules/games/snooker.py`` says how the referee's view is
built; American snooker replays instead (000 «Вмешательство постороннего»)."""

from __future__ import annotations

from typing import ClassVar

from physics.record import BallId, BallStatus, ShotRecord
from rules import filters as F
from rules.base import Draft, Stroke, text
from rules.contract import NoteCode
from rules.games.snooker_base import AGENT_RU, R_OUTSIDE, SnookerRules
from rules.names import ball_en, ball_ru, object_en, pocket_name
from rules.ruling import Note

_REST = {"floor": ("on the floor", "на полу"), "rail": ("on the rail", "на борту")}


class SnookerInterference(SnookerRules):
    """``undisturb`` and ``replay_reason``, and what the fouls say of a ball an outsider disturbed."""

    # WPBSA S3 R15 puts a disturbed ball where it would have come to rest (American snooker does not).
    repositions: ClassVar[bool] = True

    def undisturb(self, s: Stroke, undisturbed: ShotRecord) -> Stroke:
        if not self.repositions:
            return s
        return self.as_undisturbed(s, undisturbed, self.outside_events(s))

    def replay_reason(self, s: Stroke) -> Note | None:
        if s.outside_agent is not None and s.interference is None:
            return self.outside_replay(s)
        if self.cue_ball in s.pocketed or self.cue_ball in s.jumped:
            # WPBSA S3 R9(b): a foul of the stroke itself is still penalised even if a ball fell by itself.
            return None
        return self.fell_unaided_note(s, "WPBSA S3 R9(b)")

    def outside_replay(self, s: Stroke) -> Note:
        who = AGENT_RU.get(str(s.outside_agent), str(s.outside_agent))
        return Note(
            NoteCode.OUTSIDE_INTERFERENCE,
            R_OUTSIDE,
            text(
                f"An outsider ({object_en(str(s.outside_agent))}) disturbed a ball. The referee must put it where it would have come "
                "to rest, but with no undisturbed run of the stroke to judge that from, the position is restored and "
                "the stroke replayed, with no penalty.",
                f"Посторонний ({who}) потревожил шар. Судья должен поставить его туда, где он остановился "
                "бы, но без расчёта того же удара без вмешательства судить об этом не по чему: позиция "
                "восстанавливается, удар повторяется без штрафа.",
            ),
        )

    def announce_interference(self, s: Stroke, d: Draft) -> None:
        """WPBSA S3 R15: say where each disturbed ball goes and that nobody is penalised for the disturbance."""
        it = s.interference
        if it is None:
            return
        en: list[str] = []
        ru: list[str] = []
        for b in it.balls:
            f = s.record.final.get(b)
            p = F.final_xy(s.record, b)
            if f is None:
                continue
            b_en, b_ru = ball_en(b), ball_ru(b)
            if f.status == BallStatus.POCKETED:
                en.append(
                    f"{b_en} would have dropped into {pocket_name(f.pocket, 'en')}, so it is potted (WPBSA S2 R7)"
                )
                ru.append(
                    f"{b_ru} упал бы в лузу ({pocket_name(f.pocket, 'ru')}), поэтому он забит (WPBSA S2 R7)"
                )
            elif f.status == BallStatus.OFF_TABLE or b in s.jumped:
                where_en, where_ru = _REST.get(f.rest or "", ("off the bed", "вне игрового поля"))
                en.append(
                    f"{b_en} would have come to rest {where_en}, so it was forced off the table (WPBSA S2 R14)"
                )
                ru.append(f"{b_ru} остановился бы {where_ru}, поэтому он выскочил за борт (WPBSA S2 R14)")
            elif p is not None:
                en.append(f"{b_en} is placed where it would have stopped, at ({p[0]:.3f}, {p[1]:.3f})")
                ru.append(f"{b_ru} ставится туда, где он остановился бы, в точку ({p[0]:.3f}, {p[1]:.3f})")
        who = AGENT_RU.get(it.agent, it.agent)
        msg = text(
            f"Outside interference ({object_en(it.agent)}): the stroke is not replayed; a disturbed ball is judged where it "
            f"would have come to rest{' - ' + '; '.join(en) if en else ''}. No penalty for the disturbance; the "
            "rest of the stroke stands.",
            f"Постороннее вмешательство ({who}): удар не переигрывается, потревоженный шар судится там, где он "
            f"остановился бы{' - ' + '; '.join(ru) if ru else ''}. За само вмешательство штрафа нет; остальное "
            "в ударе остаётся в силе.",
        )
        d.warnings.append(Note(NoteCode.OUTSIDE_INTERFERENCE, R_OUTSIDE, msg))
        d.notes.append(text(f"{R_OUTSIDE}: {msg['en']}", f"{R_OUTSIDE}: {msg['ru']}"))

    def _disturbed_why(self, s: Stroke, b: BallId) -> tuple[str, str]:
        """For a foul made by a disturbed ball: why the outsider's touch does not change it (en, ru suffixes)."""
        it = s.interference
        if it is None or b not in it.balls:
            return "", ""
        who = AGENT_RU.get(it.agent, it.agent)
        return (
            f" - without {object_en(it.agent)} it would have ended so, and a ball an outsider disturbs is judged "
            f"where it would have come to rest ({R_OUTSIDE})",
            f" - если бы не посторонний ({who}), так бы и вышло, а шар, потревоженный посторонним, судится "
            f"там, где он остановился бы ({R_OUTSIDE})",
        )
