"""A training session: N cases (by rulebook and topic, or mixed), seeded, scored, resumable.

The session's case list and position live in the store, and every answer is written as it is given (with
its weight, the right answer and the seconds taken), so the text trainer and the 3D screen can both stop at
any moment and pick up exactly where they were. A practice session's cases come in the spaced-repetition
order of the trainee's history (``repetition.py``); an exam takes N cases spread across the topics
(:func:`exam_plan`) and is scored against a pass mark (``exam.py``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from physics.errors import InputError
from physics.record import ShotRecord
from rules.registry import game_ids
from rules.ruling import Ruling
from scenes.core.trainer.cases import Case, Topic, record_for, rule
from scenes.core.trainer.questions import Question, questions_for
from scenes.core.trainer.repetition import order_items
from scenes.core.trainer.store import Progress, SessionRow, Store

CLI = "command line"


@dataclass(frozen=True)
class Item:
    case_id: str
    game: str
    topic: str


def _cases_by_id(
    library: Sequence[Case], game: str | None, topic: str | None, n: int
) -> dict[str, list[str]]:
    """The rulebooks each case is asked under for this request (checked: one clear line for a bad one)."""
    if game is not None and game not in game_ids():
        raise InputError(CLI, "--game", "a game id with a referee (python main.py games)")
    if topic is not None and topic not in {t.value for t in Topic}:
        raise InputError(CLI, "--topic", f"one of {', '.join(t.value for t in Topic)}")
    if n < 1:
        raise InputError(CLI, "--cases", "a number of cases >= 1")
    by_case: dict[str, list[str]] = {}
    for c in library:
        if topic is not None and c.topic != topic:
            continue
        gs = [g for g in c.games if game is None or g == game]
        if gs:
            by_case[c.id] = gs
    if not by_case:
        raise InputError(
            CLI, "--topic" if topic else "--game", "a rulebook and topic that the case library has cases for"
        )
    return by_case


def plan(library: Sequence[Case], game: str | None, topic: str | None, n: int, seed: int) -> list[Item]:
    """Choose up to ``n`` (case, rulebook) pairs, seeded; a case appears once before any repeats."""
    by_case = _cases_by_id(library, game, topic, n)
    rng = random.Random(seed)
    topics = {c.id: c.topic.value for c in library}
    ids = sorted(by_case)
    rng.shuffle(ids)
    out: list[Item] = []
    # Mixed rulebooks: each pass over the cases takes another of its rulebooks, so repeats contrast rulings.
    passes = max(len(v) for v in by_case.values())
    for k in range(passes):
        for cid in ids:
            gs = by_case[cid]
            if k < len(gs):
                order = gs[:]
                random.Random(f"{seed}:{cid}").shuffle(order)
                out.append(Item(cid, order[k], topics[cid]))
            if len(out) == n:
                return out
    return out


def adaptive_plan(
    library: Sequence[Case],
    store: Store,
    profile_id: int,
    game: str | None,
    topic: str | None,
    n: int,
    seed: int,
) -> list[Item]:
    """Up to ``n`` (case, rulebook) pairs in the spaced-repetition order of the profile's history."""
    by_case = _cases_by_id(library, game, topic, n)
    topics = {c.id: c.topic.value for c in library}
    candidates = [(cid, g, topics[cid]) for cid in sorted(by_case) for g in by_case[cid]]
    sessions = [s.id for s in store.sessions(profile_id) if s.kind == "practice" and s.position > 0]
    rows = store.answer_rows(profile_id=profile_id)
    return [Item(*c) for c in order_items(candidates, rows, sessions, seed)[:n]]


def exam_plan(library: Sequence[Case], game: str | None, n: int, seed: int) -> list[Item]:
    """``n`` cases spread across the topics: round after round, one case of every topic (in a seeded order),
    no case twice; without a rulebook each case is asked under one of its own, the families taking turns."""
    by_case = _cases_by_id(library, game, None, n)
    rng = random.Random(f"exam:{seed}")
    by_topic: dict[str, list[str]] = {}
    topics = {c.id: c.topic.value for c in library}
    for cid in sorted(by_case):
        by_topic.setdefault(topics[cid], []).append(cid)
    order = sorted(by_topic)
    rng.shuffle(order)
    for t in order:
        rng.shuffle(by_topic[t])
    out: list[Item] = []
    k = 0
    while len(out) < n and any(by_topic.values()):
        for t in order:
            if by_topic[t] and len(out) < n:
                cid = by_topic[t].pop()
                gs = by_case[cid]
                out.append(Item(cid, gs[k % len(gs)], t))
                k += 1
    return out


@dataclass
class CaseRun:
    """One case under one rulebook, simulated and judged, with its questions and the other rulings."""

    item: Item
    case: Case
    record: ShotRecord
    ruling: Ruling
    questions: list[Question]
    others: dict[str, Ruling] = field(default_factory=dict)


class Session:
    def __init__(
        self,
        store: Store,
        row: SessionRow,
        library: Sequence[Case],
        settings: Any,
        sample_hz: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sample_hz = sample_hz  # the 3D screen needs ball samples for the replay; the terminal does not
        self.clock = clock
        self._shown: dict[int, float] = {}  # when each case was first shown (the seconds an answer took)
        self.store = store
        self.row = row
        self.cases = {c.id: c for c in library}
        self.settings = settings
        self.items = [Item(*i) for i in row.items]
        self._records: dict[str, ShotRecord] = {}
        for it in self.items:
            if it.case_id not in self.cases:
                raise InputError(
                    str(store.path),
                    f"sessions[{row.id}].items",
                    f"cases present in the library (missing {it.case_id!r})",
                )
        store.claim(row.id)  # a second trainer on this session is refused, not left to lose an answer

    @classmethod
    def start(
        cls,
        store: Store,
        library: Sequence[Case],
        settings: Any,
        game: str | None,
        topic: str | None,
        n: int,
        seed: int,
        profile_id: int = 1,
        kind: str = "practice",
    ) -> Session:
        if kind == "exam":
            items = exam_plan(library, game, n, seed)
        else:
            items = adaptive_plan(library, store, profile_id, game, topic, n, seed)
        row = store.new_session(
            game, topic, seed, [(i.case_id, i.game, i.topic) for i in items], profile_id=profile_id, kind=kind
        )
        return cls(store, row, library, settings)

    @classmethod
    def resume_or_start(
        cls,
        store: Store,
        library: Sequence[Case],
        settings: Any,
        game: str | None,
        topic: str | None,
        n: int,
        seed: int,
        profile_id: int = 1,
        kind: str = "practice",
    ) -> tuple[Session, bool]:
        """Resume the profile's latest unfinished session of this kind when it matches the request; else start
        one."""
        row = store.unfinished(profile_id, kind)
        if row is not None and (game is None or row.game == game) and (topic is None or row.topic == topic):
            known = {c.id for c in library}
            if all(i[0] in known for i in row.items):
                return cls(store, row, library, settings), True
        return cls.start(store, library, settings, game, topic, n, seed, profile_id, kind), False

    @property
    def id(self) -> int:
        return self.row.id

    def refresh(self) -> None:
        self.row = self.store.session(self.row.id)

    def position(self) -> int:
        self.refresh()
        return self.row.position

    def finished(self) -> bool:
        self.refresh()
        return self.row.finished

    def pending(self) -> Iterator[int]:
        """Indices of the cases still to answer (the current one first)."""
        yield from range(self.position(), len(self.items))

    def shown(self, index: int) -> None:
        """The case is on screen now: the seconds its answers take count from here (once per case)."""
        self._shown.setdefault(index, self.clock())

    def seconds(self, index: int) -> float | None:
        t0 = self._shown.get(index)
        return None if t0 is None else self.clock() - t0

    def run(self, index: int) -> CaseRun:
        it = self.items[index]
        case = self.cases[it.case_id]
        rec = self._records.get(case.id)
        if rec is None:
            rec = record_for(case, self.settings, sample_hz=self.sample_hz)
            self._records[case.id] = rec
        ruling = rule(case, rec, it.game)
        others = {g: rule(case, rec, g) for g in case.games if g != it.game}
        return CaseRun(it, case, rec, ruling, questions_for(case, it.game, rec, ruling), others)

    def answered(self, index: int) -> dict[str, tuple[list[str], bool]]:
        return {q: (a, c) for _i, q, a, c in self.store.answers(self.row.id, index)}

    def answer(
        self, index: int, run: CaseRun, question: Question, keys: frozenset[str], late: bool = False
    ) -> bool:
        """Score and store one answer (its own transaction); returns whether it was right. ``late``: given
        after an exam's time for the case ran out, so it scores nothing whatever it is."""
        ok = question.check(keys) and not late
        done = set(self.answered(index)) | {question.kind.value}
        last_of_case = done >= {q.kind.value for q in run.questions}
        self.store.record_answer(
            self.row.id,
            index,
            run.item.case_id,
            run.item.game,
            run.item.topic,
            question.kind.value,
            sorted(keys),
            ok,
            last_of_case,
            last_of_case and index == len(self.items) - 1,
            weight=question.weight,
            expected=sorted(question.correct),
            seconds=self.seconds(index),
        )
        return ok

    def score(self) -> tuple[int, int]:
        return self.store.session_score(self.row.id)

    def points(self) -> tuple[float, float]:
        """(weighted points earned, possible): the score the trainer reports."""
        return self.store.session_points(self.row.id)

    def percent(self) -> float:
        got, possible = self.points()
        return 100.0 * got / possible if possible else 0.0

    def weak_topics(self) -> list[Progress]:
        return self.store.weak_topics(self.row.id)

    def by(self, key: str) -> list[Progress]:
        """This session's weighted scores by ``topic``, ``game`` or ``topic,game``."""
        return self.store.progress(key, self.row.id)
