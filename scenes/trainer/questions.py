"""Questions about one stroke under one rulebook, their answers, scoring, and the explanation.

The truth is always the referee's ruling (``rules``) on the simulated stroke; this module only turns a
ruling into multiple-choice questions a trainee can answer, and turns the ruling's fouls into an explanation.

Questions (issue 5): legal or foul; which balls are off the table; which count; what is respotted and
where (a choice of named places); who plays next and from where.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from physics.record import BallStatus, EventType, ShotRecord
from physics.tables import TableSpec
from rules.registry import get_referee
from scenes.trainer.cases import Case, Topic, respots

NONE = "none"


class Kind(StrEnum):
    LEGAL = "legal"
    OFF_TABLE = "off_table"
    COUNTED = "counted"
    RESPOT = "respot"
    NEXT = "next"


# Scoring (stated in README, "The referee trainer"): what a referee must get right weighs most - legal or
# foul, and who plays next and from where (3 each); what counts and what is respotted and where (2 each);
# which balls are off the table (1: the other answers already depend on it). A question whose right answer
# is "none" (nothing off, nothing counted, nothing respotted) is the trivial case and weighs a third.
WEIGHTS: dict[Kind, float] = {
    Kind.LEGAL: 3.0,
    Kind.NEXT: 3.0,
    Kind.COUNTED: 2.0,
    Kind.RESPOT: 2.0,
    Kind.OFF_TABLE: 1.0,
}
NONE_FACTOR = 1.0 / 3.0


def weight_of(kind: str, correct: Iterable[str]) -> float:
    """The weight of a question of ``kind`` whose right answer is ``correct``."""
    w = WEIGHTS.get(Kind(kind), 1.0) if kind in {k.value for k in Kind} else 1.0
    return w * (NONE_FACTOR if frozenset(correct) == frozenset({"none"}) else 1.0)


@dataclass(frozen=True)
class Option:
    key: str
    en: str
    ru: str

    def label(self, lang: str) -> str:
        return self.en if lang == "en" else self.ru


@dataclass(frozen=True)
class Question:
    kind: Kind
    en: str
    ru: str
    options: tuple[Option, ...]
    multi: bool  # several options may be chosen
    correct: frozenset[str]

    def prompt(self, lang: str) -> str:
        return self.en if lang == "en" else self.ru

    @property
    def weight(self) -> float:
        return weight_of(self.kind.value, self.correct)

    def keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.options)

    def check(self, answer: Iterable[str]) -> bool:
        return frozenset(answer) == self.correct

    def parse(self, text: str) -> frozenset[str] | None:
        """Read an answer typed as option numbers (``2`` or ``1, 3``); None when it is not one."""
        parts = [p for p in text.replace(",", " ").replace(";", " ").split() if p]
        if not parts:
            return None
        chosen: set[str] = set()
        for p in parts:
            # ASCII only: "²" and "١" are digits to str.isdigit() but no option number (int() refuses "²").
            if not (p.isascii() and p.isdigit() and len(p) <= 3) or not 1 <= int(p) <= len(self.options):
                return None
            chosen.add(self.options[int(p) - 1].key)
        if not self.multi and len(chosen) != 1:
            return None
        if NONE in chosen and len(chosen) > 1:
            return None
        return frozenset(chosen)

    def format(self, answer: Iterable[str]) -> str:
        """The typed form of an answer (option numbers), for scripted trainees and the store."""
        idx = {o.key: i + 1 for i, o in enumerate(self.options)}
        return " ".join(str(idx[k]) for k in sorted(answer, key=lambda k: idx[k]))

    def describe(self, answer: Iterable[str], lang: str) -> str:
        by_key = {o.key: o for o in self.options}
        return ", ".join(by_key[k].label(lang) for k in sorted(answer, key=lambda k: self.keys().index(k)))


# --- names for balls, places and the in-hand areas ---------------------------------------------------

_COLOURS_RU = {
    "yellow": "жёлтый",
    "green": "зелёный",
    "brown": "коричневый",
    "blue": "синий",
    "pink": "розовый",
    "black": "чёрный",
}


def ball_name(ball: str, lang: str) -> str:
    if ball == "cue":
        return "cue ball" if lang == "en" else "биток"
    if ball.startswith("red"):
        return f"red {ball[3:]}" if lang == "en" else f"красный {ball[3:]}"
    if ball in _COLOURS_RU:
        return ball if lang == "en" else _COLOURS_RU[ball]
    return f"ball {ball}" if lang == "en" else f"шар {ball}"


PLACE_NAMES: dict[str, tuple[str, str]] = {
    "foot-spot": ("the foot spot (back spot)", "задняя отметка"),
    "head-spot": ("the head spot", "передняя отметка"),
    "centre-spot": ("the centre spot", "центральная отметка"),
    "foot-cushion-middle": ("against the middle of the foot cushion", "вплотную к середине заднего борта"),
    "head-cushion-middle": ("against the middle of the head cushion", "к середине короткого борта дома"),
    "where-it-was": ("back where it was before it fell", "на прежнее место (откуда упал)"),
    "yellow": ("the yellow spot", "отметка жёлтого"),
    "green": ("the green spot", "отметка зелёного"),
    "brown": ("the brown spot", "отметка коричневого"),
    "blue": ("the blue spot", "отметка синего"),
    "pink": ("the pink spot", "отметка розового"),
    "black": ("the black spot", "отметка чёрного"),
    "elsewhere": ("somewhere else", "в другое место"),
}

IN_HAND_NAMES: dict[str, tuple[str, str]] = {
    "none": ("from where the cue ball lies", "с места, где стоит биток"),
    "house": ("in hand from the house (behind the head string)", "с руки из дома"),
    "d": ("in hand from the D", "с руки из сектора «D»"),
    "behind-head-string": ("in hand behind the head string", "с руки из-за линии дома (kitchen)"),
    "anywhere": ("in hand anywhere on the table", "с руки с любого места стола"),
}


def family(game: str) -> str:
    """The rulebook family (how the §2 table of rules-notes groups the games), as the game declares it."""
    return str(get_referee(game).family)


def in_hand_choices(table: TableSpec) -> tuple[str, ...]:
    if table.id.startswith("snooker"):
        return ("none", "d")
    if table.id == "pool-9ft":
        return ("none", "behind-head-string", "anywhere")
    return ("none", "house", "anywhere")


def place_choices(table: TableSpec) -> tuple[str, ...]:
    if table.id.startswith("snooker"):
        spots = tuple(c for c in ("yellow", "green", "brown", "blue", "pink", "black") if c in table.spots)
        return (*spots, "where-it-was", "elsewhere")
    base = tuple(s for s in ("foot-spot", "centre-spot", "head-spot") if s in table.spots)
    if table.id == "pyramid-12ft":
        base = (*base, "foot-cushion-middle", "head-cushion-middle")
    return (*base, "where-it-was", "elsewhere")


def _place_xy(table: TableSpec, place: str) -> tuple[float, float] | None:
    R = table.ball_radius
    if place in table.spots:
        return table.spots[place]
    if place == "foot-cushion-middle":
        return (table.half_length - R, 0.0)
    if place == "head-cushion-middle":
        return (-table.half_length + R, 0.0)
    return None


def where_it_was(record: ShotRecord, ball: str) -> tuple[float, float] | None:
    """Where a ball stood before it fell: its hanging position if it hung, else its place before the stroke."""
    for e in record.for_ball(ball, EventType.HANGING):
        if e.pos is not None:
            return (e.pos[0], e.pos[1])
    p = record.initial.get(ball)
    return (p[0], p[1]) if p is not None else None


def name_place(table: TableSpec, record: ShotRecord, ball: str, at: Sequence[float]) -> str:
    """Name the place a ruling respots a ball to.

    A spot counts when the ball lands on it or is frozen next to it along the spotting line (a few ball
    diameters); "where it was" wins when the ruling puts the ball back where it hung or stood.
    """
    R = table.ball_radius
    x, y = float(at[0]), float(at[1])
    back = where_it_was(record, ball)
    if back is not None and math.dist(back, (x, y)) <= 0.5 * R:
        return "where-it-was"
    best, best_d = "elsewhere", math.inf
    for place in place_choices(table):
        xy = _place_xy(table, place)
        if xy is None:
            continue
        d = math.dist(xy, (x, y))
        if d < best_d:
            best, best_d = place, d
    # Spotting rules place a ball frozen against occupants along a line: up to ~3 diameters away.
    return best if best_d <= 6.5 * R else "elsewhere"


def _candidate_balls(case: Case, record: ShotRecord, ruling: Mapping[str, Any]) -> list[str]:
    """Balls a trainee might think are respotted: those that left the table, fell, or hung."""
    out: list[str] = []
    for b, f in record.final.items():
        if f.status != BallStatus.ON_TABLE:
            out.append(b)
    for e in record.of_type(
        EventType.LEFT_TABLE, EventType.HANGING, EventType.DROPPED, EventType.OFF_TABLE, EventType.POCKETED
    ):
        if e.ball is not None:
            out.append(e.ball)
    out += [b for b, _at in respots(ruling, record)]
    if not out:
        # Nothing left the bed: still offer the balls of the stroke, so "nothing" is a real choice.
        out.append(record.shot.ball if record.shot is not None else "cue")
        fc = record.first_contact(out[0])
        if fc is not None and fc.balls is not None:
            out.append(fc.balls[1] if fc.balls[0] == out[0] else fc.balls[0])
    order = list(case.scenario.balls)
    seen = dict.fromkeys(out)
    return sorted(seen, key=lambda b: order.index(b) if b in order else len(order))


def striker(case: Case) -> int:
    v = case.scenario.state.get("to_play", 0)
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def questions_for(case: Case, game: str, record: ShotRecord, ruling: Mapping[str, Any]) -> list[Question]:
    """The five questions of a case under one rulebook, with the referee's answers (on the case's own table:
    a game may be played on more than one)."""
    table = case.scenario.table
    balls = list(case.scenario.balls)
    qs: list[Question] = []

    qs.append(
        Question(
            Kind.LEGAL,
            "Is the stroke legal or a foul?",
            "Удар правильный или это нарушение (фол)?",
            (Option("legal", "legal", "правильный"), Option("foul", "foul", "нарушение")),
            False,
            frozenset({"foul" if ruling["foul"] else "legal"}),
        )
    )

    def ball_options() -> tuple[Option, ...]:
        return (
            Option(NONE, "none", "ни один"),
            *(Option(b, ball_name(b, "en"), ball_name(b, "ru")) for b in balls),
        )

    off = frozenset(str(b) for b in ruling.get("off_table", [])) or frozenset({NONE})
    qs.append(
        Question(
            Kind.OFF_TABLE,
            "Which balls count as off the table (jumped)?",
            "Какие шары считаются выскочившими за борт?",
            ball_options(),
            True,
            off,
        )
    )

    counted = frozenset(str(b) for b in ruling.get("counted", [])) or frozenset({NONE})
    qs.append(
        Question(
            Kind.COUNTED,
            "Which balls count as pocketed for the striker?",
            "Какие шары засчитываются играющему?",
            ball_options(),
            True,
            counted,
        )
    )

    places = place_choices(table)
    opts = [Option(NONE, "nothing is respotted", "ничего не выставляется")]
    for b in _candidate_balls(case, record, ruling):
        for p in places:
            en, ru = PLACE_NAMES[p]
            opts.append(Option(f"{b}@{p}", f"{ball_name(b, 'en')} → {en}", f"{ball_name(b, 'ru')} → {ru}"))
    respot = frozenset(
        f"{b}@{name_place(table, record, b, at)}" for b, at in respots(ruling, record)
    ) or frozenset({NONE})
    qs.append(
        Question(
            Kind.RESPOT,
            "What is respotted, and where?",
            "Что выставляется на стол и куда?",
            tuple(opts),
            True,
            respot,
        )
    )

    me = int(ruling.get("striker", striker(case)))
    nxt = int(ruling["next_player"])
    who = "striker" if nxt == me else "opponent"
    hand = str(ruling.get("in_hand") or "none")
    hands = in_hand_choices(table)
    if hand not in hands:
        hands = (*hands, hand)
    opts = []
    for w, (wen, wru) in (
        ("striker", ("the striker plays again", "бьёт тот же игрок")),
        ("opponent", ("the opponent plays", "бьёт соперник")),
    ):
        for h in hands:
            hen, hru = IN_HAND_NAMES.get(h, (h, h))
            opts.append(Option(f"{w}:{h}", f"{wen}, {hen}", f"{wru}, {hru}"))
    qs.append(
        Question(
            Kind.NEXT,
            "Who plays next, and from where?",
            "Кто бьёт следующим и откуда?",
            tuple(opts),
            False,
            frozenset({f"{who}:{hand}"}),
        )
    )
    return qs


# --- explanations ---------------------------------------------------------------------------------------

# Why a stroke is legal, in our own words, per topic and rulebook family, with the rule it rests on.
# (Fouls explain themselves: the referee's ruling carries each foul's explanation and rule.)
_LEGAL_NOTES: dict[tuple[Topic, str], tuple[str, str, str]] = {
    (Topic.JUMP, "ru"): (
        "A jump made with a raised cue striking the upper half of the cue ball is an allowed stroke; only a "
        "miscue or scooping under the ball is punished.",
        "Перескок приподнятым кием ударом в верхнюю половину битка разрешён; наказывается только кикс "
        "или подцепка.",
        "000: Правильный перескок",
    ),
    (Topic.JUMP, "wpa"): (
        "Jumping the cue ball by striking down on it is a legal stroke in pool.",
        "В пуле прыжок битка ударом сверху вниз разрешён.",
        "WPA 1.3a / 8 (jump shot)",
    ),
    (Topic.JUMP, "golf"): (
        "Golf follows the general pocket-billiards rules: a jump struck down on the ball is legal.",
        "В гольфе действуют общие правила лузного бильярда: прыжок ударом сверху разрешён.",
        "BCA general rules (jump shots)",
    ),
    (Topic.JUMP_AFTER_CONTACT, "snooker"): (
        "The cue ball hit the ball on first and only then went over another ball: the jump-shot definition "
        "excludes that.",
        "Биток сначала коснулся шара «он» и лишь потом перелетел через другой шар: "
        "по определению это не перескок.",
        "WPBSA S2 Definitions: jump shot, exception (a)/(c)",
    ),
    (Topic.JUMP_DROP_BACK, "snooker"): (
        "The cue ball jumped, struck the object ball and came down on the near side of it: that is not a jump shot.",
        "Биток подпрыгнул, ударил прицельный шар и опустился с ближней стороны: это не перескок.",
        "WPBSA S2 Definitions: jump shot, exception (b)",
    ),
    (Topic.RAIL_TOP_RETURNS, "ru"): (
        "A ball that strikes the top of the rail and comes back to the bed by itself, touching nothing that is "
        "not part of the table, has not jumped.",
        "Шар, ударившийся о верх борта и самостоятельно вернувшийся на поле, не задев ничего постороннего, "
        "не считается выскочившим.",
        "003: Выскочившие шары",
    ),
    (Topic.RAIL_TOP_RETURNS, "wpa"): (
        "Rail tops are part of the table; a ball that rides on the rail and comes back has not been driven off.",
        "Верх борта — часть стола; шар, прокатившийся по нему и вернувшийся, не выбит со стола.",
        "WPA 8.1 / 8.5",
    ),
    (Topic.RAIL_TOP_RETURNS, "snooker"): (
        "A ball is forced off only if it comes to rest off the bed; this one came back onto the bed.",
        "Шар считается выбитым со стола, только если остановился вне поля; этот вернулся на поле.",
        "WPBSA S2 Definitions: forced off the table",
    ),
    (Topic.RAIL_TOP_RETURNS, "golf"): (
        "Under the general rules the rail top is part of the table; the ball returned by itself.",
        "По общим правилам верх борта — часть стола; шар вернулся сам.",
        "BCA 3.28",
    ),
    (Topic.LAMP, "ru"): (
        "The lamp over the table counts as a fixed accessory in the Russian rules: a ball that comes back off it "
        "by itself stays in play.",
        "Осветительный прибор над столом в русских правилах — стационарная "
        "принадлежность: вернувшийся от него шар остаётся в игре.",
        "003: Выскочившие шары",
    ),
    (Topic.LAMP, "snooker"): (
        "Snooker asks only where the ball comes to rest; it came back to the bed, so it was not forced off.",
        "В снукере важно лишь, где шар остановился; он вернулся на поле, значит не выбит.",
        "WPBSA S2 Definitions: forced off the table",
    ),
    (Topic.POCKET_BOUNCE_OUT, "ru"): (
        "A ball that bounces out of the pocket back onto the bed is not pocketed; it stays in play without penalty.",
        "Шар, выскочивший из лузы обратно на поле, не сыгран и остаётся в игре без штрафа.",
        "003: Выскочившие шары",
    ),
    (Topic.POCKET_BOUNCE_OUT, "wpa"): (
        "A ball is pocketed only when it stays in the pocket; this one came back and is in play.",
        "Шар забит, только если остался в лузе; этот вернулся и в игре.",
        "WPA 8.3",
    ),
    (Topic.POCKET_BOUNCE_OUT, "snooker"): (
        "The ball did not stay in the pocket, so it is not potted and remains in play.",
        "Шар не остался в лузе: он не забит и остаётся в игре.",
        "WPBSA S2 Definitions: pot",
    ),
    (Topic.POCKET_BOUNCE_OUT, "golf"): (
        "The ball did not stay in the pocket, so it is not pocketed.",
        "Шар не остался в лузе: он не забит.",
        "BCA general rules (pocketed ball)",
    ),
    (Topic.HANGING_BEFORE_5S, "ru"): (
        "The ball stopped in the jaws and fell after the stroke had ended (every ball at rest): 003 counts no "
        "seconds - it does not count and is put back in the jaws, however soon it fell.",
        "Шар остановился в створе лузы и упал после завершения удара (все шары стояли): 003 секунд не считает - "
        "шар не засчитывается и восстанавливается в створ лузы, как бы скоро он ни упал.",
        "003: Зависшие шары",
    ),
    (Topic.HANGING_AFTER_5S, "ru"): (
        "The ball stopped over the pocket and fell after the stroke had ended: it does not count and is put back.",
        "Шар остановился в створе лузы и упал после завершения удара: он не засчитывается и ставится обратно.",
        "003: Зависшие шары",
    ),
    (Topic.MISCUE, "wpa"): (
        "An accidental miscue is not a foul in pool unless it is intentional or the cue touches the ball again.",
        "Случайный кикс в пуле не нарушение, если он не умышленный и кий не коснулся шара повторно.",
        "WPA 6.16c / 2025 R2.11",
    ),
}


def explanation(case: Case, game: str, ruling: Mapping[str, Any], lang: str) -> list[str]:
    """Lines explaining the ruling: every foul with its rule, or why the stroke is legal."""
    lines: list[str] = []
    for f in ruling.get("fouls", []):
        ex = f.get("explain") or {}
        text = ex.get(lang) or ex.get("en") or str(f.get("code"))
        lines.append(f"{text} [{f.get('rule', '')}]")
    if not ruling.get("fouls"):
        note = _LEGAL_NOTES.get((case.topic, family(game)))
        if note is not None:
            lines.append(f"{note[0] if lang == 'en' else note[1]} [{note[2]}]")
        else:
            lines.append(
                "No rule was broken on this stroke." if lang == "en" else "На этом ударе правила не нарушены."
            )
    for n in ruling.get("notes", []) or []:
        if isinstance(n, Mapping):
            lines.append(str(n.get(lang) or n.get("en") or ""))
        elif isinstance(n, str):
            lines.append(n)
    return [x for x in lines if x]


def summary_line(ruling: Mapping[str, Any], lang: str) -> str:
    """One line for the ruling and for 'how the other rulebooks rule': foul or legal, the fouls by name, the
    balls, who plays next (as the question asks it: the striker or the opponent) and from where."""
    from scenes.stats import foul_name

    en = lang == "en"
    parts = [("foul" if en else "фол") if ruling["foul"] else ("legal" if en else "правильно")]
    names = [foul_name(str(f["code"]), lang) for f in ruling.get("fouls", [])]
    if names:
        parts.append(", ".join(dict.fromkeys(names)))
    if ruling.get("off_table"):
        parts.append(
            ("off: " if en else "выскочили: ") + ", ".join(ball_name(b, lang) for b in ruling["off_table"])
        )
    if ruling.get("counted"):
        parts.append(
            ("counted: " if en else "засчитаны: ") + ", ".join(ball_name(b, lang) for b in ruling["counted"])
        )
    if ruling.get("respot"):
        parts.append(
            ("respot: " if en else "выставить: ")
            + ", ".join(ball_name(str(r["ball"]), lang) for r in ruling["respot"])
        )
    hand = str(ruling.get("in_hand") or "none")
    nxt = int(ruling["next_player"])
    me = ruling.get("striker")
    if isinstance(me, int) and not isinstance(me, bool):
        who = (
            ("the striker plays again" if en else "бьёт тот же игрок")
            if nxt == me
            else ("the opponent plays" if en else "бьёт соперник")
        )
    else:
        who = f"next: player {nxt + 1}" if en else f"бьёт игрок {nxt + 1}"
    parts.append(
        who + ("" if hand == "none" else f" ({IN_HAND_NAMES.get(hand, (hand, hand))[0 if en else 1]})")
    )
    return "; ".join(parts)


def rule_refs(ruling: Mapping[str, Any]) -> list[str]:
    return [str(f.get("rule")) for f in ruling.get("fouls", []) if f.get("rule")]
