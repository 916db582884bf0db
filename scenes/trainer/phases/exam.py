"""The exam (the ``[trainer]`` settings: cases across the topics, seconds and replays per case, the pass
mark): no verdict until its end, answers after the time score nothing, the replays counted; at the end the
result and the report (``scenes/core/trainer/exam.py`` writes it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scenes.core.i18n import tr
from scenes.core.trainer.session import Session

if TYPE_CHECKING:
    from scenes.core.trainer.exam import ExamRules
    from scenes.trainer.screen import TrainerScreen


class ExamPart:
    """The exam's rules and id, the current case's replays left and lateness, the result and its report."""

    def __init__(self, screen: TrainerScreen) -> None:
        self.screen = screen
        self.rules: ExamRules | None = None
        self.exam_id: int | None = None
        self.replays_left = 0
        self.late = False
        self.result_text = ""
        self.report: str | None = None

    def start(self) -> None:
        from scenes.core.trainer.exam import ExamRules

        s = self.screen
        s.exam_mode = True
        self.rules = ExamRules.from_settings(s.settings.trainer)
        s.session, _resumed = Session.resume_or_start(
            s.store,
            s.library,
            s.settings,
            s.pick_game,
            None,
            self.rules.cases,
            s.seed,
            s.profile_id,
            kind="exam",
        )
        row = s.store.exam_for(s.session.id)
        self.exam_id = (
            row.id
            if row is not None
            else s.store.new_exam(
                s.session.id,
                s.pick_game,
                self.rules.seconds_per_case,
                self.rules.replays,
                self.rules.pass_mark,
            )
        )
        s.begin()

    def new_case(self) -> None:
        """A case starts: its replays (none counted outside an exam) and its time."""
        self.replays_left = self.rules.replays if self.screen.exam_mode and self.rules is not None else -1
        self.late = False

    def check_time(self) -> None:
        s = self.screen
        if s.exam_mode and s.session is not None and self.rules is not None:
            spent = s.session.seconds(s.index) or 0.0
            self.late = self.late or spent > self.rules.seconds_per_case

    def clock_text(self) -> str:
        """The exam's part of the clock line: the time and the replays left, or that the time is up."""
        s = self.screen
        assert s.session is not None and self.rules is not None
        lang = s.lang
        left = self.rules.seconds_per_case - (s.session.seconds(s.index) or 0.0)
        self.check_time()
        return (
            tr("trainer.screen.time_up", lang)
            if left < 0
            else tr("trainer.screen.time_left", lang, s=left, r=max(0, self.replays_left))
        )

    def finish(self) -> None:
        """The exam's end on the score page: the result, and where its report was written."""
        from physics.files import WriteError
        from scenes.core.trainer import exam
        from scenes.core.trainer.cli import now_iso

        s = self.screen
        assert s.session is not None and self.exam_id is not None and self.rules is not None
        lang = s.lang
        result = exam.store_result(s.session, self.exam_id, self.rules)
        from scenes.trainer.report_pictures import moment_pictures

        # The report shows each case at the moment that decided it, drawn offscreen as the trainer shows it.
        pictures = moment_pictures(s.session, s.base, s.settings.lamp_position)
        self.result_text = tr("trainer.exam.passed" if result.passed else "trainer.exam.failed", lang)
        s.label(
            self.result_text,
            (0, 0.42),
            0.07,
            colour=(0.5, 1, 0.5, 1) if result.passed else (1, 0.5, 0.4, 1),
        )
        try:
            path = exam.write_exam_report(
                s.session,
                self.exam_id,
                self.rules,
                s.profile,
                s.settings.data_dir(),
                lang,
                now_iso(),
                result,
                pictures,
            )
        except WriteError as exc:  # the score is stored; the trainee is told the report is missing
            s.label(tr("trainer.report_failed", lang, why=exc.reason), (0, -0.62), 0.03, wrap=90)
            return
        s.label(tr("trainer.report_path", lang, path=str(path)), (0, -0.62), 0.03, wrap=90)
        self.report = str(path)
