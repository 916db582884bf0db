"""Spaced repetition on a seeded history: a case missed comes back in the next session, one answered right
goes up a box and waits 1, 2, 4... sessions; new cases of the topic and rulebook the trainee is weakest in
come before the others, variations of a missed case first."""

from __future__ import annotations

from pathlib import Path

from scenes.core.trainer.repetition import INTERVALS, item_states, order_items
from scenes.core.trainer.store import Store


def _session(store: Store, answers: list[tuple[str, str, str, bool]]) -> int:
    """One finished session: (case, game, topic, all right?) per case, five questions each."""
    row = store.new_session(None, None, 0, [(c, g, t) for c, g, t, _ok in answers])
    for i, (c, g, t, ok) in enumerate(answers):
        for k, q in enumerate(("legal", "off_table", "counted", "respot", "next")):
            last = k == 4
            store.record_answer(
                row.id,
                i,
                c,
                g,
                t,
                q,
                ["x"],
                ok or q != "legal",
                last,
                last and i == len(answers) - 1,
                weight=2.0,
            )
    return row.id


def test_order_on_a_seeded_history(tmp_path: Path) -> None:
    with Store(tmp_path / "t.sqlite3") as store:
        s1 = _session(
            store,
            [("a", "snooker", "jump", True), ("b", "snooker", "lamp", False), ("c", "golf", "lamp", True)],
        )
        s2 = _session(store, [("a", "snooker", "jump", True), ("c", "golf", "lamp", True)])
        sessions = [s1, s2]
        rows = store.answer_rows()
        st = item_states(rows, sessions)
        # right twice: up from box 1 twice
        assert st[("a", "snooker")].box == 3
        assert st[("c", "golf")].box == 3
        assert st[("b", "snooker")].box == 1
        assert st[("b", "snooker")].last_session == 0
        assert INTERVALS[1] == 1
        assert INTERVALS[2] == 2
        assert INTERVALS[3] == 4
        candidates = [
            ("a", "snooker", "jump"),
            ("b", "snooker", "lamp"),
            ("c", "golf", "lamp"),
            ("n1", "golf", "jump"),
            ("n2", "snooker", "lamp"),
            ("var-b-s0-001", "snooker", "lamp"),
        ]
        order = order_items(candidates, rows, sessions, seed=7)
        # Due now (session 3): the missed b (box 1, overdue). Then the new ones: the variation of b first,
        # then by the pair's weighted score - golf/jump never answered (0.5) before snooker/lamp (b: 80 %).
        # Last the items not due yet: a and c (box 3, due at the session of ordinal 5 = 1 + 4).
        assert order[0] == ("b", "snooker", "lamp")
        assert order[1:4] == [
            ("var-b-s0-001", "snooker", "lamp"),
            ("n1", "golf", "jump"),
            ("n2", "snooker", "lamp"),
        ]
        assert set(order[4:]) == {("a", "snooker", "jump"), ("c", "golf", "lamp")}
        assert order == order_items(candidates, rows, sessions, seed=7)
        # a and c (last answered in the session of ordinal 1) come back only four sessions later: ordinal 5.
        more = [s1, s2]
        for _ in range(2):
            more.append(_session(store, [("b", "snooker", "lamp", True)]))
            order = order_items(candidates, store.answer_rows(), more, seed=7)
            assert not set(order[:2]) & {("a", "snooker", "jump"), ("c", "golf", "lamp")}
        more.append(_session(store, [("n1", "golf", "jump", True)]))
        order = order_items(candidates, store.answer_rows(), more, seed=7)
        assert set(order[:2]) == {("a", "snooker", "jump"), ("c", "golf", "lamp")}


def test_a_case_answered_right_waits_longer_than_one_missed(tmp_path: Path) -> None:
    """The first time through: a case answered all right goes up from box 1 to box 2 and waits two sessions;
    a case with a wrong answer stays in box 1 and comes back in the very next session (before, both were put
    in box 1 and came back together)."""
    with Store(tmp_path / "t.sqlite3") as store:
        s1 = _session(store, [("a", "snooker", "jump", True), ("b", "snooker", "lamp", False)])
        st = item_states(store.answer_rows(), [s1])
        assert st[("a", "snooker")].box == 2
        assert st[("b", "snooker")].box == 1
        candidates = [("a", "snooker", "jump"), ("b", "snooker", "lamp")]
        order = order_items(candidates, store.answer_rows(), [s1], seed=1)
        assert order == [("b", "snooker", "lamp"), ("a", "snooker", "jump")]  # b due, a not yet
