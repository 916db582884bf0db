"""Spaced repetition: which (case, rulebook) items a new session takes, and in what order.

The scheme (README, "The referee trainer"), Leitner boxes counted in sessions:

- Every (case, rulebook) item sits in a box 1..5, a new one in box 1. A case answered with every question
  right moves its item up one box (at most 5); a case with any wrong answer sends it back to box 1.
- An item in box *b* is due again ``INTERVALS[b]`` sessions after the session it was last answered in
  (box 1: the very next session; then 2, 4, 8 and 16 sessions).
- A session takes, in this order: the due items (lowest box first, the longest overdue first); then items
  never answered - first the generated variations of missed cases (``var-*``, made for that), then the
  others, those of the topic-and-rulebook pairs with the lowest weighted score first (a pair never answered
  counts as 0.5, between a pair mostly wrong and one mostly right); then the items not yet due, soonest due
  first. Ties are broken by a seeded shuffle, so the same history and seed give the same session.

So what a trainee gets wrong - a case, and the cases of its topic under its rulebook - comes back sooner.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scenes.core.trainer.store import AnswerRow

BOXES = 5
INTERVALS = {1: 1, 2: 2, 3: 4, 4: 8, 5: 16}
UNSEEN_PAIR_SCORE = 0.5
VARIATION_PREFIX = "var-"


@dataclass(frozen=True)
class ItemState:
    box: int
    last_session: int  # ordinal of the profile's session it was last answered in (0 = first)

    def due_at(self) -> int:
        return self.last_session + INTERVALS[self.box]


def item_states(rows: Iterable[AnswerRow], sessions: Sequence[int]) -> dict[tuple[str, str], ItemState]:
    """Box and last session of every (case, rulebook) answered in ``sessions`` (the profile's, in order)."""
    order = {sid: k for k, sid in enumerate(sessions)}
    per_case: dict[tuple[int, int], tuple[str, str, bool]] = {}
    for r in rows:
        if r.session_id not in order:
            continue
        key = (r.session_id, r.item)
        ok = per_case.get(key, (r.case_id, r.game, True))[2] and r.correct
        per_case[key] = (r.case_id, r.game, ok)
    states: dict[tuple[str, str], ItemState] = {}
    for (sid, _item), (case, game, ok) in sorted(
        per_case.items(), key=lambda kv: (order[kv[0][0]], kv[0][1])
    ):
        prev = states.get((case, game))
        # A case never answered stands in box 1: answered all right it goes up to box 2.
        box = min(BOXES, (prev.box if prev else 1) + 1) if ok else 1
        states[(case, game)] = ItemState(box, order[sid])
    return states


def pair_scores(rows: Iterable[AnswerRow]) -> dict[tuple[str, str], float]:
    """Weighted score of every (topic, rulebook) pair answered."""
    pts: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        p = pts.setdefault((r.topic, r.game), [0.0, 0.0])
        p[0] += r.weight * r.correct
        p[1] += r.weight
    return {k: (v[0] / v[1] if v[1] else 0.0) for k, v in pts.items()}


def order_items(
    candidates: Sequence[tuple[str, str, str]],
    rows: Sequence[AnswerRow],
    sessions: Sequence[int],
    seed: int,
) -> list[tuple[str, str, str]]:
    """``candidates`` ((case, rulebook, topic) items) in the order a new session should take them."""
    now = len(sessions)  # the new session's ordinal
    states = item_states(rows, sessions)
    pairs = pair_scores(r for r in rows if r.session_id in set(sessions))
    rng = random.Random(seed)
    tie = {c: rng.random() for c in candidates}
    due, new, later = [], [], []
    for c in candidates:
        st = states.get((c[0], c[1]))
        if st is None:
            new.append(c)
        elif st.due_at() <= now:
            due.append((st.box, st.due_at(), tie[c], c))
        else:
            later.append((st.due_at(), st.box, tie[c], c))
    due.sort()
    later.sort()
    new.sort(
        key=lambda c: (
            0 if c[0].startswith(VARIATION_PREFIX) else 1,
            pairs.get((c[2], c[1]), UNSEEN_PAIR_SCORE),
            tie[c],
        )
    )
    return [x[-1] for x in due] + new + [x[-1] for x in later]
