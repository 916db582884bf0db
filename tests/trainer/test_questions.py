"""Questions from a ruling: the referee's answers score 100 %, wrong ones do not, places are named right."""

from __future__ import annotations

from typing import Any

from physics.record import BallFinal, BallStatus, Event, EventType, ShotParams, ShotRecord
from physics.tables import load_table
from rules.ruling import Foul, FoulCode, Ruling
from rules.ruling import Respot as RulingRespot
from rules.scenarios import parse_scenario
from scenes.core.trainer.cases import Case, Expected, Topic
from scenes.core.trainer.questions import Kind, explanation, name_place, questions_for

R = 0.034


def _case() -> Case:
    sc = parse_scenario(
        {
            "game": "russian-pyramid",
            "balls": {"cue": [-0.9, 0.0], "7": [0.5, 0.2]},
            "shot": {"cue_speed": 3.0},
        },
        "mem.toml",
    )
    return Case(id="mem", scenario=sc, topic=Topic.OFF_FLOOR, games=("russian-pyramid",), expected={})


def _record() -> ShotRecord:
    return ShotRecord(
        table="pyramid-12ft",
        params={},
        shot=ShotParams(cue_speed=3.0),
        events=(
            Event(0.0, EventType.CUE_STRIKE, ball="cue", miscue=False, scoop=False),
            Event(0.4, EventType.BALL_BALL, balls=("cue", "7")),
            Event(0.6, EventType.LEFT_TABLE, ball="7"),
            Event(0.9, EventType.OFF_TABLE, ball="7", rest="floor"),
        ),
        final={
            "cue": BallFinal(BallStatus.ON_TABLE, (0.1, 0.0, R)),
            "7": BallFinal(BallStatus.OFF_TABLE, (2.0, 0.3, -0.776), rest="floor"),
        },
        initial={"cue": (-0.9, 0.0, R), "7": (0.5, 0.2, R)},
    )


def ruling(**changes: Any) -> Ruling:
    """The 7 off the table onto the floor, respotted on the foot spot; the opponent plays (no foul)."""
    base: dict[str, Any] = {
        "foul": False,
        "fouls": (),
        "counted": (),
        "points": (0, 0),
        "scores": (0, 0),
        "off_table": ("7",),
        "respot": (RulingRespot("7", (0.8875, 0.0)),),
        "next_player": 1,
        "in_hand": None,
        "options": (),
        "frame_over": False,
        "winner": None,
        "striker": 0,
    }
    return Ruling(**(base | changes))


RULING = ruling()


def test_right_answers_all_check_and_wrong_ones_fail() -> None:
    qs = questions_for(_case(), "russian-pyramid", _record(), RULING)
    assert [q.kind for q in qs] == [Kind.LEGAL, Kind.OFF_TABLE, Kind.COUNTED, Kind.RESPOT, Kind.NEXT]
    for q in qs:
        assert q.correct <= set(q.keys())
        assert q.check(q.parse(q.format(q.correct)) or frozenset())
        wrong = next(frozenset({k}) for k in q.keys() if frozenset({k}) != q.correct)
        assert not q.check(wrong)
    by = {q.kind: q for q in qs}
    assert by[Kind.LEGAL].correct == {"legal"}
    assert by[Kind.OFF_TABLE].correct == {"7"}
    assert by[Kind.COUNTED].correct == {"none"}
    assert by[Kind.RESPOT].correct == {"7@foot-spot"}
    assert by[Kind.NEXT].correct == {"opponent:none"}


def test_parse_rejects_bad_answers() -> None:
    q = questions_for(_case(), "russian-pyramid", _record(), RULING)[1]
    assert q.parse("") is None
    assert q.parse("0") is None
    assert q.parse("x") is None
    assert q.parse(str(len(q.options) + 1)) is None
    assert q.parse("1 2") is None  # "none" together with a ball
    assert q.parse("2, 3") == frozenset({"cue", "7"})
    legal = questions_for(_case(), "russian-pyramid", _record(), RULING)[0]
    assert legal.parse("1 2") is None  # one answer only


def test_place_names() -> None:
    t = load_table("pyramid-12ft")
    rec = _record()
    assert name_place(t, rec, "7", (0.8875, 0.0)) == "foot-spot"
    # Frozen behind the spot along the spotting line still names the spot.
    assert name_place(t, rec, "7", (0.8875 + 2 * R, 0.0)) == "foot-spot"
    assert name_place(t, rec, "7", (t.half_length - R, 0.0)) == "foot-cushion-middle"
    assert name_place(t, rec, "7", (0.5, 0.2)) == "where-it-was"
    assert name_place(t, rec, "7", (0.0, 0.7)) == "elsewhere"


def test_explanation_carries_the_foul_and_its_rule() -> None:
    foul = Foul(
        FoulCode.CUE_BALL_OFF_TABLE,
        "003: Выскочившие шары",
        {"en": "The cue ball jumped.", "ru": "Биток выскочил."},
    )
    r = ruling(foul=True, fouls=(foul,))
    en = explanation(_case(), "russian-pyramid", r, "en")
    ru = explanation(_case(), "russian-pyramid", r, "ru")
    # The rule in the interface's language: English names the section, with the source's title to find it.
    assert en == ["The cue ball jumped. [003: Balls off the table («Выскочившие шары»)]"]
    assert ru == ["Биток выскочил. [003: Выскочившие шары]"]


def test_expected_from_ruling_round_trips_through_toml() -> None:
    import tomllib

    from scenes.core.trainer.cases import parse_expected

    e = Expected.from_ruling(RULING)
    text = "\n".join(e.to_toml_lines("russian-pyramid"))
    data = tomllib.loads(text)
    back = parse_expected("mem.toml", "russian-pyramid", data["expected"]["russian-pyramid"])
    assert back == e
    assert not e.differences(back)


def test_questions_name_places_on_the_cases_own_table() -> None:
    """A game played on more than one table (``other_tables``) asks about the table the case is on: the
    pyramid's house and its back-cushion places, not the pool table's kitchen."""
    from typing import ClassVar

    from physics.racks import Rack
    from rules.base import Referee
    from rules.contract import Family, InHand
    from rules.registration import register
    from rules.registry import forget

    class TwoTables(Referee):
        id = "test-two-tables"
        table_id = "pool-9ft"
        other_tables = ("pyramid-12ft",)
        family = Family.POOL
        names: ClassVar[dict[str, str]] = {"en": "Two tables", "ru": "Два стола"}
        balls = ("cue", "7")
        break_in_hand = InHand.ANYWHERE

        def rack_spec(self, n_players: int) -> Rack:
            return Rack(spots=(("7", "foot-spot"),))

    register(TwoTables)
    try:
        sc = parse_scenario(
            {
                "game": "test-two-tables",
                "table": "pyramid-12ft",
                "balls": {"cue": [-0.9, 0.0], "7": [0.5, 0.2]},
                "shot": {"cue_speed": 3.0},
            },
            "mem.toml",
        )
        case = Case(id="mem", scenario=sc, topic=Topic.OFF_FLOOR, games=("test-two-tables",), expected={})
        r = ruling(respot=(RulingRespot("7", (0.89, 0.0)),))
        qs = {q.kind: q for q in questions_for(case, "test-two-tables", _record(), r)}
        respot = {o.key for o in qs[Kind.RESPOT].options}
        assert "7@foot-cushion-middle" in respot  # a place only the pyramid table has
        nxt = {o.key for o in qs[Kind.NEXT].options}
        assert "opponent:house" in nxt
        assert "opponent:behind-head-string" not in nxt
    finally:
        forget("test-two-tables")


# --- issue 25 §2: free ball or not -------------------------------------------------------------------------
def _snooker_foul(blocker: str) -> Ruling:
    from physics.tables import load_table
    from rules.notation import layout, record
    from rules.registry import get_referee
    from rules.state import MatchState

    t = load_table("snooker-12ft")
    balls = f"cue=-0.5,0.3 red1=0.9,0.3 {blocker} yellow=yellow green=green brown=brown pink=pink black=black"
    ref = get_referee("snooker")
    st = MatchState.from_scenario(ref, {"ball_on": "red"}, layout(balls, t.id), "t")
    return ref.judge(st, record(balls, "cue|head", table=t.id))


def test_the_free_ball_question_after_a_snooker_foul() -> None:
    """000 «Снукер (маска)», «Свободный шар»: after a foul, the incoming player has a free ball when no ball on
    can be hit in a straight line; the referee's answer is the ruling's, and the lines of sight say why."""
    from physics.tables import load_table
    from scenes.core.trainer.questions import free_ball_line, free_ball_question, sight_lines

    table = load_table("snooker-12ft")
    hidden = _snooker_foul("blue=0.2,0.3")  # the blue stands between the cue ball and the only red
    q = free_ball_question("snooker", hidden)
    assert q is not None
    assert q.kind == Kind.FREE_BALL
    assert q.correct == frozenset({"yes"})
    assert q.weight == 2.0
    lines = sight_lines(hidden, table)
    assert len(lines) == 2
    assert not any(clear for _a, _b, clear in lines)
    assert "Free ball" in (free_ball_line(hidden, "en") or "")
    open_ = _snooker_foul("blue=blue")
    q2 = free_ball_question("snooker", open_)
    assert q2 is not None
    assert q2.correct == frozenset({"no"})
    assert all(clear for _a, _b, clear in sight_lines(open_, table))
    assert "Свободного шара нет" in (free_ball_line(open_, "ru") or "")
    # Only after a foul, only in international snooker (American snooker has no free ball).
    assert free_ball_question("american-snooker", open_) is None
    assert free_ball_question("snooker", RULING) is None
