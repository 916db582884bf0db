"""Every library case: the stroke is simulated (or read), shows what its row of rules-notes §2 must show
(``scenes.core.trainer.rows``), and the referee's ruling under each of its rulebooks is still the expected one,
with no foul unrelated to the row. Plus coverage of rules-notes §2 and bad case files.

When this fails after a physics change, re-find the strokes: ``make cases`` (README, "The case library")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from physics.errors import InputError
from scenes.core.settings import Settings
from scenes.core.trainer.cases import Case, Expected, load_case, load_library, record_for, rule
from scenes.core.trainer.questions import family
from scenes.core.trainer.rows import TOPIC_ROW, case_problems

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = load_library()
SETTINGS = Settings()


def test_library_size_and_rows() -> None:
    assert len(LIBRARY) >= 40
    for c in LIBRARY:
        if c.row is not None:
            assert c.row == TOPIC_ROW[c.topic], c.id


# The topics each rulebook family's cases must show: every row of rules-notes §2 under every family.
REQUIRED: dict[str, set[str]] = {
    "ru": {
        "jump",
        "scoop",
        "miscue",
        "jump-after-contact",
        "clipped-ball-on",
        "jump-drop-back",
        "off-floor",
        "rail-top-stays",
        "lamp",
        "chalk",
        "person",
        "hanging-before-5s",
        "hanging-after-5s",
        "hanging-drops-on-arrival",
        "outside-interference",
        "double-hit",
        "push",
        "pocket-bounce-floor",
        "rail-top-returns",
        "pocket-bounce-out",
    },
    "wpa": {
        "jump",
        "scoop",
        "miscue",
        "jump-after-contact",
        "clipped-ball-on",
        "jump-drop-back",
        "off-floor",
        "rail-top-stays",
        "lamp",
        "person",
        "chalk",
        "hanging-before-5s",
        "hanging-after-5s",
        "outside-interference",
        "double-hit",
        "push",
        "pocket-bounce-floor",
        "rail-top-returns",
        "hanging-drops-on-arrival",
        "pocket-bounce-out",
    },
    "snooker": {
        "jump",
        "scoop",
        "miscue",
        "jump-after-contact",
        "clipped-ball-on",
        "jump-drop-back",
        "off-floor",
        "chalk",
        "person",
        "hanging-before-5s",
        "hanging-after-5s",
        "pocket-bounce-floor",
        "rail-top-returns",
        "rail-top-stays",
        "pocket-bounce-out",
        "hanging-drops-on-arrival",
        "outside-interference",
        "double-hit",
        "push",
        "lamp",
    },
    "golf": {
        "jump",
        "scoop",
        "miscue",
        "jump-after-contact",
        "clipped-ball-on",
        "jump-drop-back",
        "off-floor",
        "rail-top-stays",
        "lamp",
        "person",
        "chalk",
        "hanging-before-5s",
        "hanging-after-5s",
        "outside-interference",
        "double-hit",
        "push",
        "pocket-bounce-floor",
        "rail-top-returns",
        "hanging-drops-on-arrival",
        "pocket-bounce-out",
    },
}


def test_topics_covered_under_each_family() -> None:
    have: dict[str, set[str]] = {}
    for c in LIBRARY:
        for g in c.games:
            have.setdefault(family(g), set()).add(c.topic.value)
    for fam, topics in REQUIRED.items():
        assert topics <= have.get(fam, set()), (fam, sorted(topics - have.get(fam, set())))


def test_contrasts_the_rules_notes_teach() -> None:
    """The disagreements of rules-notes §2 hold in the library: lamp, miscue and jump shots."""

    def ruling(case_id: str, game: str) -> Expected:
        return next(c for c in LIBRARY if c.id == case_id).expected[game]

    # Lamp (row 4): a fixture in Russian billiards, off the table in pool.
    assert not ruling("pyramid-lamp", "russian-pyramid").foul
    assert ruling("pool-lamp", "pool-8-ball").foul
    assert ruling("pool-lamp", "pool-8-ball").off_table == ("cue",)
    # WPBSA is silent on the lamp: only where the ball comes to rest counts (it came back to the bed).
    assert not ruling("snooker-lamp", "snooker").foul
    # Miscue without a jump (row 11): a foul in pyramid only.
    assert ruling("pyramid-miscue", "russian-pyramid").codes == ("miscue",)
    assert not ruling("pool-miscue", "pool-9-ball").foul
    assert not ruling("snooker-miscue", "snooker").foul
    # Jump over a blocker (row 7): legal in pyramid and pool, a foul in snooker; exception (a) (row 8) is fair.
    assert not ruling("pyramid-jump-over-blocker", "russian-pyramid").foul
    assert not ruling("pool-jump-over-blocker", "pool-9-ball").foul
    assert ruling("snooker-jump-over-blocker", "snooker").codes == ("jump_shot",)
    assert not ruling("snooker-jump-after-contact", "snooker").foul
    assert not ruling("snooker-jump-drop-back", "snooker").foul  # exception (b), row 10
    # Hanging ball (rows 12-13). 003 «Зависшие шары» (Russian games) and WPBSA S3 R9 (snooker): a ball that falls
    # after the stroke has ended is put back whatever the seconds; 000's five seconds hold in pool and golf.
    for case in ("pyramid-hanging-before-5s", "pyramid-hanging-after-5s"):
        late = ruling(case, "russian-pyramid")
        assert late.counted == ()
        assert [r.ball for r in late.respot] == ["7"]
    assert ruling("snooker-hanging-before-5s", "snooker").counted == ()
    assert ruling("pool-hanging-before-5s", "pool-8-ball").counted == ("1",)
    assert ruling("golf-hanging-before-5s", "golf").counted == ("1",)
    assert ruling("pool-hanging-after-5s", "pool-8-ball").counted == ()
    # Row 14: a hanging ball falling before the cue ball reaches it is no pot: the stroke is replayed.
    for case, game in (
        ("pyramid", "russian-pyramid"),
        ("pool", "pool-8-ball"),
        ("golf", "golf"),
        ("snooker", "snooker"),
        ("snooker10", "american-snooker"),
    ):
        early = ruling(f"{case}-hanging-drops-on-arrival", game)
        assert not early.foul, case
        assert early.counted == (), case
        assert early.next_player == 0, case
    # Rows 5 and 17, the same flight: off the player's side it is a jumped cue ball (a foul); off a spectator
    # it is outside interference, replayed by the same player with no penalty.
    for case, game in (("pyramid", "russian-pyramid"), ("pool", "pool-8-ball")):
        assert ruling(f"{case}-person", game).codes == ("cue_ball_off_table",)
        outsider = ruling(f"{case}-outside-interference", game)
        assert not outsider.foul
        assert outsider.next_player == 0
        assert outsider.off_table == ()


def _run(case: Case) -> list[str]:
    record = record_for(case, SETTINGS)
    rulings = {g: rule(case, record, g) for g in case.games}
    problems = [f"{case.id}: {p}" for p in case_problems(case, record, rulings)]
    for g in case.games:
        got = Expected.from_ruling(rulings[g], record)
        problems += [f"{case.id} [{g}] {d}" for d in case.expected[g].differences(got)]
    return problems


@pytest.mark.parametrize("case", LIBRARY, ids=[c.id for c in LIBRARY])
def test_case_ruling_holds(case: Case) -> None:
    problems = _run(case)
    assert not problems, "\n".join(problems)


def test_bad_case_file_is_one_input_error(tmp_path: Path) -> None:
    good = LIBRARY[0].path and Path(LIBRARY[0].path).read_text(encoding="utf-8")
    cases = {
        "no-meta.toml": good.replace("[meta]", "[metadata]"),
        "bad-topic.toml": good.replace('topic = "', 'topic = "x'),
        "bad-expected.toml": good.replace("foul = ", "foul = 3 #", 1),
        "not-toml.toml": "title = \n",
    }
    for name, text in cases.items():
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        with pytest.raises(InputError) as err:
            load_case(p)
        assert err.value.file == str(p)


def test_bad_user_case_stops_the_trainer_with_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "cases").mkdir(parents=True)
    (data / "cases" / "mine.toml").write_text(
        'game = "russian-pyramid"\n[balls]\ncue = [0, 0]\n[meta]\ntopic = "lamp"\n', encoding="utf-8"
    )
    settings = tmp_path / "settings.toml"
    settings.write_text(f'[trainer]\ndata_dir = "{data}"\n', encoding="utf-8")
    r = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--settings", str(settings), "train", "--text"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        input="",
        timeout=120,
    )
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "mine.toml" in lines[0]
    assert "meta.games" in lines[0]


def test_cases_of_either_ball_name_their_subject() -> None:
    """Rows that may be about the cue ball or an object ball say which (the title's claim the check reads)."""
    for c in LIBRARY:
        if TOPIC_ROW[c.topic] in (1, 2, 3, 4, 15, 16):
            assert c.subject in ("cue", "object"), c.id
            assert ("cue ball" in c.title["en"].lower()) == (c.subject == "cue"), c.id


def test_every_game_of_the_registry_has_cases() -> None:
    """The trainer reads the registry: every registered game is a rulebook of some library case (the four fast
    pyramid games had none, so `train --game russian-pyramid-fast` found no case)."""
    from rules.registry import game_ids

    assert {g for c in load_library() for g in c.games} == set(game_ids())
