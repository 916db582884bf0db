"""The core: notation builds complete records, filters read them, a minimal referee judges them."""

from __future__ import annotations

import json

from physics.record import BallStatus, EventType
from rules import filters as F
from rules.base import Draft, Referee, Stroke
from rules.notation import record
from rules.ruling import FoulCode, InHand
from rules.state import MatchState


def test_notation_builds_initial_and_final_for_every_ball() -> None:
    rec = record(
        "cue=-1.2,0 7=0.5,0.1 3=foot-spot", "cue>7 7@foot-left cue|head cue=-1.0,0.2 call=7@foot-left"
    )
    assert set(rec.initial) == set(rec.final) == {"cue", "7", "3"}
    assert rec.events[0].type == EventType.CUE_STRIKE
    assert rec.events[0].t == 0.0
    assert rec.final["7"].status == BallStatus.POCKETED
    assert rec.final["7"].pocket == "foot-left"
    assert rec.final["cue"].pos == (-1.0, 0.2, 0.034)
    assert rec.final["3"].pos == (0.8875, 0.0, 0.034)
    assert rec.shot is not None
    assert rec.shot.call_ball == "7"
    assert rec.shot.call_pocket == "foot-left"
    assert F.first_contact(rec, "cue") is not None
    assert F.pocketed_order(rec) == ["7"]
    json.dumps(rec.to_dict())  # a full, serialisable record


class _Bare(Referee):
    """Smallest game: a miss is a foul, everything pocketed counts."""

    id = "russian-pyramid"
    table_id = "pyramid-12ft"
    names = {"en": "bare", "ru": "голый"}
    balls = ("cue", "7")

    def check_fouls(self, s: Stroke, d: Draft) -> None:
        if s.first is None:
            d.fouls.append(self.foul(FoulCode.MISS, "003: Штрафы", "missed", "промах"))

    def count(self, s: Stroke, d: Draft) -> None:
        d.counted = [] if d.foul else list(s.pocketed)
        d.points[s.striker] = len(d.counted)


def test_bare_referee_template_and_apply() -> None:
    st = MatchState(
        game="russian-pyramid",
        players=("A", "B"),
        balls={"cue": (-1.2, 0.0), "7": (0.5, 0.1)},
        in_hand=None,
        is_break=False,
        phase="play",
    )
    rec = record("cue=-1.2,0 7=0.5,0.1", "cue>7 7@foot-left")
    ruling = _Bare().judge(st, rec)
    assert not ruling.foul
    assert ruling.counted == ("7",)
    assert ruling.scores == (1, 0)
    assert ruling.next_player == 0
    d = ruling.to_dict()
    for key in (
        "foul",
        "fouls",
        "counted",
        "points",
        "scores",
        "off_table",
        "respot",
        "next_player",
        "in_hand",
        "options",
        "frame_over",
        "winner",
    ):
        assert key in d
    nxt = st.apply(ruling)
    assert nxt.balls == {"cue": (-1.2, 0.0)}
    assert nxt.history[-1] is st
    assert nxt.undo() is st
    miss = _Bare().judge(st, record("cue=-1.2,0 7=0.5,0.1", "cue|foot"))
    assert miss.codes() == ["miss"]
    assert miss.next_player == 1
    assert miss.in_hand is None
    assert InHand("house") is InHand.HOUSE
