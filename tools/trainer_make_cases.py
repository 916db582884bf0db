"""Write the trainer's case library (``assets/cases/*.toml``) from the recipes below.

Each recipe is a position, a stroke (found with ``tools/trainer_search.py``) and the topic it teaches.
The tool simulates the stroke exactly as ``main.py referee`` does, checks the record really shows the
topic, asks the referee for its ruling under every rulebook of the table, and writes the case file with
those rulings as ``[expected]``. The rulings were then checked by hand against the rule texts (see the
report of issue 5); a disagreement is fixed in the referee, never by editing an expected ruling.

    .venv/bin/python tools/trainer_make_cases.py [RECIPE_ID ...] [--check]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from physics.record import ShotParams, ShotRecord  # noqa: E402
from physics.scenario import SceneObject  # noqa: E402
from scenes.trainer.cases import CASES_DIR, Expected, Topic, case_toml, load_case, rule  # noqa: E402
from scenes.trainer.generate import shows_topic  # noqa: E402

FAMILIES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # family: (game written in the file, table id, rulebooks the case is judged under)
    "pyramid": ("russian-pyramid", "pyramid-12ft", ("russian-pyramid", "american", "moscow-pyramid", "pyramid-8")),
    "pool": ("pool-8-ball", "pool-9ft", ("pool-8-ball", "pool-9-ball", "straight-pool", "golf")),
    "snooker": ("snooker", "snooker-12ft", ("snooker",)),
    "snooker10": ("american-snooker", "snooker-10ft", ("american-snooker",)),
}


@dataclass
class Recipe:
    id: str
    en: str
    ru: str
    family: str
    topic: Topic
    row: int
    balls: dict[str, tuple[float, float]]
    shot: dict[str, Any]
    state: dict[str, Any] = field(default_factory=dict)
    objects: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] | None = None          # a recorded stroke (hanging balls)
    final: dict[str, dict[str, Any]] | None = None
    search: dict[str, tuple[float, float]] | None = None  # ranges for trainer_search.py
    extra: Callable[[ShotRecord], bool] | None = None
    games: tuple[str, ...] | None = None                 # default: every rulebook of the family

    @property
    def game(self) -> str:
        return FAMILIES[self.family][0]

    @property
    def table_id(self) -> str:
        return FAMILIES[self.family][1]

    @property
    def rulebooks(self) -> tuple[str, ...]:
        return self.games or FAMILIES[self.family][2]

    def shot_params(self) -> ShotParams:
        s = self.shot
        call = s.get("call") or {}
        return ShotParams(ball=s.get("ball", "cue"), cue_speed=float(s.get("cue_speed", 0.0)),
                          direction=float(s.get("direction", 0.0)), elevation=float(s.get("elevation", 0.0)),
                          tip=tuple(s.get("tip", (0.0, 0.0))), call_ball=call.get("ball"),  # type: ignore[arg-type]
                          call_pocket=call.get("pocket"))


def scene_objects(rec: Recipe) -> tuple[SceneObject, ...]:
    return tuple(SceneObject(o["kind"], tuple(o["at"]), {k: v for k, v in o.items() if k not in ("kind", "at")})
                 for o in rec.objects)


# --- positions ---------------------------------------------------------------------------------------------
PY_STATE: dict[str, Any] = {"to_play": 0, "scores": [0, 0]}
POOL_STATE: dict[str, Any] = {"to_play": 0, "scores": [0, 0]}
SN_STATE: dict[str, Any] = {"to_play": 0, "scores": [0, 0], "ball_on": "red"}


def _hanging_events(ball: str, pocket: str, hang: tuple[float, float, float], cue_end: tuple[float, float, float],
                    after: float, t_hit: float, t_rest: float) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    events = [
        {"t": 0.0, "type": "cue_strike", "ball": "cue", "miscue": False, "scoop": False},
        {"t": t_hit, "type": "ball_ball", "balls": ["cue", ball]},
        {"t": t_rest - 0.6, "type": "pocket_jaw", "ball": ball, "pocket": pocket},
        {"t": t_rest - 0.3, "type": "hanging", "ball": ball, "pocket": pocket, "pos": list(hang)},
        {"t": t_rest, "type": "rest", "ball": "cue"},
        {"t": t_rest + after, "type": "dropped", "ball": ball, "pocket": pocket, "after": after},
    ]
    final = {"cue": {"status": "on_table", "pos": list(cue_end)}, ball: {"status": "pocketed", "pocket": pocket}}
    return events, final


def _hanging(fam: str, after: float) -> Recipe:
    before = after < 5.0
    topic = Topic.HANGING_BEFORE_5S if before else Topic.HANGING_AFTER_5S
    row = 13 if before else 12
    word_en = f"{after:g} s after the stroke ended"
    word_ru = f"через {after:g} с после завершения удара"
    if fam == "pyramid":
        R, hl, hw, ball = 0.034, 1.775, 0.8875, "7"
        balls = {"cue": (0.2, 0.1), ball: (1.2, 0.5)}
        state = PY_STATE
    elif fam == "pool":
        R, hl, hw, ball = 0.028575, 1.27, 0.635, "1"
        balls = {"cue": (-0.2, -0.1), ball: (0.7, 0.3), "2": (-0.6, 0.3)}
        state = POOL_STATE
    else:
        R, hl, hw, ball = 0.02625, 1.7845, 0.889, "red1"
        balls = {"cue": (0.2, 0.1), ball: (1.2, 0.5), "black": (1.2605, 0.0), "pink": (0.89225, 0.0)}
        state = SN_STATE
    # The ball overhangs the foot-left corner: its centre just past the point where the jaws open.
    hang = (round(hl - 0.9 * R, 4), round(hw - 0.9 * R, 4), R)
    cue_end = (round(balls["cue"][0] + 0.45, 4), round(balls["cue"][1] + 0.2, 4), R)
    events, final = _hanging_events(ball, "foot-left", hang, cue_end, after, 0.55, 2.4)
    return Recipe(
        id=f"{fam}-hanging-{'before' if before else 'after'}-5s",
        en=f"A ball hangs over the pocket and drops {word_en}",
        ru=f"Шар зависает над лузой и падает {word_ru}",
        family=fam, topic=topic, row=row, balls=dict(balls),
        shot={"cue_speed": 2.0, "direction": 21.0, "call": {"ball": ball, "pocket": "foot-left"}},
        state=dict(state), events=events, final=final)


RECIPES: list[Recipe] = [
    _hanging("pyramid", 2.0), _hanging("pyramid", 7.0),
    _hanging("pool", 2.0), _hanging("pool", 7.0),
    _hanging("snooker", 2.0), _hanging("snooker", 7.0),
]


# --- writing -----------------------------------------------------------------------------------------------

def _scenario_text(rec: Recipe, expected: Mapping[str, Expected] | None) -> str:
    games = rec.rulebooks
    exp = expected or {}
    return case_toml(
        title={"en": rec.en, "ru": rec.ru}, game=rec.game, table=rec.table_id, balls=rec.balls,
        shot=rec.shot_params(), topic=rec.topic.value, games=games if expected else (), expected=exp,
        state=rec.state, objects=rec.objects, events=rec.events, final=rec.final, row=rec.row,
        header="Written by tools/trainer_make_cases.py: the stroke is simulated (or recorded, for a hanging\n"
               "ball's drop) and [expected] is the referee's ruling, checked by hand against the rule texts.")


def build(rec: Recipe, settings: Any) -> tuple[str, ShotRecord, dict[str, dict[str, Any]]]:
    from physics.cli import load_or_simulate

    from physics.scenario import load_scenario
    from scenes.trainer.cases import Case

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d) / f"{rec.id}.toml"
        tmp.write_text(_scenario_text(rec, None), encoding="utf-8")
        sc, record = load_or_simulate(str(tmp), sample_hz=None, settings=settings)
        sc = load_scenario(tmp)
        case = Case(id=rec.id, scenario=sc, topic=rec.topic, games=rec.rulebooks, expected={})
        rulings = {g: rule(case, record, g) for g in rec.rulebooks}
    expected = {g: Expected.from_ruling(r) for g, r in rulings.items()}
    return _scenario_text(rec, expected), record, rulings


def main(argv: Sequence[str] | None = None) -> int:
    from scenes.settings import load_settings

    p = argparse.ArgumentParser()
    p.add_argument("ids", nargs="*")
    p.add_argument("--check", action="store_true", help="only report, write nothing")
    a = p.parse_args(argv)
    settings = load_settings()
    todo = [r for r in RECIPES if not a.ids or r.id in a.ids]
    bad = 0
    for rec in todo:
        text, record, rulings = build(rec, settings)
        shows = shows_topic(rec.topic, record) and (rec.extra is None or rec.extra(record))
        flag = "ok " if shows else "NO "
        bad += not shows
        print(f"{flag}{rec.id}:")
        for g, r in rulings.items():
            codes = ",".join(f["code"] for f in r["fouls"]) or "-"
            print(f"     {g:18s} foul={r['foul']!s:5s} codes={codes} counted={r['counted']} off={r['off_table']} "
                  f"respot={[x['ball'] for x in r['respot']]} next={r['next_player']} in_hand={r['in_hand']}")
        if not a.check and shows:
            path = CASES_DIR / f"{rec.id}.toml"
            path.write_text(text, encoding="utf-8")
            load_case(path)   # the written file must load
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
