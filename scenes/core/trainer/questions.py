"""Questions about one stroke under one rulebook, their answers, scoring, and the explanation.

The truth is always the referee's ruling (``rules``) on the simulated stroke; this module only turns a
ruling into multiple-choice questions a trainee can answer, and turns the ruling's fouls into an explanation.

Questions (issue 5): legal or foul; which balls are off the table; which count; what is respotted and
where (a choice of named places); who plays next and from where.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from physics.record import BallStatus, EventType, ShotRecord
from physics.tables import TableSpec
from rules.registry import get_referee
from rules.ruling import Ruling
from scenes.core.i18n import rule_name, tr
from scenes.core.trainer.cases import Case, Topic, respots

NONE = "none"


class Kind(StrEnum):
    LEGAL = "legal"
    OFF_TABLE = "off_table"
    COUNTED = "counted"
    RESPOT = "respot"
    NEXT = "next"
    FREE_BALL = "free_ball"  # snooker, after a foul: has the incoming player a free ball?


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
    Kind.FREE_BALL: 2.0,
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

_COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
PLACES = (
    "foot-spot",
    "head-spot",
    "centre-spot",
    "foot-cushion-middle",
    "head-cushion-middle",
    "where-it-was",
    *_COLOURS,
    "elsewhere",
)


def both(key: str, /, **fmt: Any) -> tuple[str, str]:
    """A catalog text in English and in Russian (an option or a question is asked in either); a value of
    ``fmt`` that is a function of the language (a ball's name) is called for each."""

    def one(lang: str) -> str:
        return tr(key, lang, **{k: v(lang) if callable(v) else v for k, v in fmt.items()})

    return one("en"), one("ru")


def ball_name(ball: str, lang: str) -> str:
    """A ball as an answer names it: every red by its number (the options must tell them apart)."""
    if ball == "cue":
        return tr("trainer.ball.cue", lang)
    if ball.startswith("red"):
        return tr("trainer.ball.red", lang, num=ball[3:])
    if ball in _COLOURS:
        return tr(f"trainer.ball.{ball}", lang)
    return tr("trainer.ball.number", lang, num=ball)


def place_name(place: str, lang: str) -> str:
    """A place a ball is respotted to («задняя отметка»)."""
    return tr(f"trainer.place.{place}", lang)


def in_hand_name(hand: str, lang: str) -> str:
    """Where the next stroke is played from («с руки из дома»); ``none``: where the cue ball lies."""
    return tr(f"trainer.in_hand.{hand}", lang)


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
    base: tuple[str, ...] = tuple(s for s in ("foot-spot", "centre-spot", "head-spot") if s in table.spots)
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


def _candidate_balls(case: Case, record: ShotRecord, ruling: Ruling) -> list[str]:
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


def _named(ball: str) -> Any:
    return lambda lang: ball_name(ball, lang)


def hand_of(ruling: Ruling) -> str:
    """Where the next stroke is played from, as the answers name it (``none``: where the cue ball lies)."""
    return str(ruling.in_hand) if ruling.in_hand is not None else NONE


def questions_for(case: Case, game: str, record: ShotRecord, ruling: Ruling) -> list[Question]:
    """The five questions of a case under one rulebook, with the referee's answers (on the case's own table:
    a game may be played on more than one)."""
    table = case.scenario.table
    balls = list(case.scenario.balls)
    qs: list[Question] = []

    qs.append(
        Question(
            Kind.LEGAL,
            *both("trainer.q.legal"),
            (Option("legal", *both("trainer.a.legal")), Option("foul", *both("trainer.a.foul"))),
            False,
            frozenset({"foul" if ruling.foul else "legal"}),
        )
    )

    def ball_options() -> tuple[Option, ...]:
        return (
            Option(NONE, *both("trainer.a.no_ball")),
            *(Option(b, ball_name(b, "en"), ball_name(b, "ru")) for b in balls),
        )

    off = frozenset(ruling.off_table) or frozenset({NONE})
    qs.append(Question(Kind.OFF_TABLE, *both("trainer.q.off_table"), ball_options(), True, off))

    counted = frozenset(ruling.counted) or frozenset({NONE})
    qs.append(Question(Kind.COUNTED, *both("trainer.q.counted"), ball_options(), True, counted))

    places = place_choices(table)
    opts = [Option(NONE, *both("trainer.a.nothing_respotted"))]
    for b in _candidate_balls(case, record, ruling):
        for p in places:
            opts.append(
                Option(
                    f"{b}@{p}",
                    *both("trainer.a.respot", ball=_named(b), place=lambda lang, p=p: place_name(p, lang)),
                )
            )
    respot = frozenset(
        f"{b}@{name_place(table, record, b, at)}" for b, at in respots(ruling, record)
    ) or frozenset({NONE})
    qs.append(Question(Kind.RESPOT, *both("trainer.q.respot"), tuple(opts), True, respot))

    who = "striker" if ruling.next_player == ruling.striker else "opponent"
    hand = hand_of(ruling)
    hands = in_hand_choices(table)
    if hand not in hands:
        hands = (*hands, hand)
    opts = []
    for w in ("striker", "opponent"):
        for h in hands:
            opts.append(
                Option(
                    f"{w}:{h}",
                    *both(
                        "trainer.a.next",
                        who=lambda lang, w=w: tr(f"trainer.who.{w}", lang),
                        hand=lambda lang, h=h: in_hand_name(h, lang),
                    ),
                )
            )
    qs.append(Question(Kind.NEXT, *both("trainer.q.next"), tuple(opts), False, frozenset({f"{who}:{hand}"})))
    fb = free_ball_question(game, ruling)
    if fb is not None:
        qs.append(fb)
    return qs


def free_ball_question(game: str, ruling: Ruling) -> Question | None:
    """International snooker, after a foul that leaves the frame on: has the incoming player a free ball (000
    «Снукер (маска)», «Свободный шар»: no ball on can be hit in a straight line)? The referee's answer is the
    ruling's own (its family state names the player who may nominate one)."""
    if not ruling.foul or ruling.frame_over or game != "snooker":
        return None
    holder = getattr(ruling.family, "free_ball_for", -1)
    answer = "yes" if holder is not None and holder >= 0 else "no"
    return Question(
        Kind.FREE_BALL,
        *both("trainer.q.free_ball"),
        (Option("yes", *both("trainer.a.free_ball_yes")), Option("no", *both("trainer.a.free_ball_no"))),
        False,
        frozenset({answer}),
    )


# --- explanations ---------------------------------------------------------------------------------------

# Why a stroke is legal, per topic and rulebook family, and the rule it rests on; the words are the catalogs'
# ``trainer.legal.<topic>.<family>`` (our own words). Fouls explain themselves: the referee's ruling carries
# each foul's explanation and rule.
LEGAL_NOTES: dict[tuple[Topic, str], str] = {
    (Topic.JUMP, "ru"): "000: Правильный перескок",
    (Topic.JUMP, "wpa"): "WPA 1.3a / 8: Jump Shot",
    (Topic.JUMP, "golf"): "BCA general rules: Jump Shot",
    (Topic.JUMP_AFTER_CONTACT, "snooker"): "WPBSA S2 Definitions: jump shot, exception (a)/(c)",
    (Topic.JUMP_DROP_BACK, "snooker"): "WPBSA S2 Definitions: jump shot, exception (b)",
    (Topic.RAIL_TOP_RETURNS, "ru"): "003: Выскочившие шары",
    (Topic.RAIL_TOP_RETURNS, "wpa"): "WPA 8.1 / 8.5",
    (Topic.RAIL_TOP_RETURNS, "snooker"): "WPBSA S2 Definitions: forced off the table",
    (Topic.RAIL_TOP_RETURNS, "golf"): "BCA 3.28",
    (Topic.LAMP, "ru"): "003: Выскочившие шары",
    (Topic.LAMP, "snooker"): "WPBSA S2 Definitions: forced off the table",
    (Topic.POCKET_BOUNCE_OUT, "ru"): "003: Выскочившие шары",
    (Topic.POCKET_BOUNCE_OUT, "wpa"): "WPA 8.3",
    (Topic.POCKET_BOUNCE_OUT, "snooker"): "WPBSA S2 Definitions: pot",
    (Topic.POCKET_BOUNCE_OUT, "golf"): "BCA general rules: pocketed ball",
    (Topic.HANGING_BEFORE_5S, "ru"): "003: Зависшие шары",
    (Topic.HANGING_AFTER_5S, "ru"): "003: Зависшие шары",
    (Topic.MISCUE, "wpa"): "WPA 6.16c / 2025 R2.11",
}


def legal_note(topic: Topic, fam: str, lang: str) -> str | None:
    """Why a stroke of ``topic`` is legal under the family's rules, with the rule cited (None: no note)."""
    ref = LEGAL_NOTES.get((topic, fam))
    if ref is None:
        return None
    return f"{tr(f'trainer.legal.{topic.value}.{fam}', lang)} [{rule_name(ref, lang, family=fam)}]"


def explanation(case: Case, game: str, ruling: Ruling, lang: str) -> list[str]:
    """Lines explaining the ruling: every foul with its rule, or why the stroke is legal; then the referee's
    announcements."""
    from scenes.core.stats import foul_name

    lines: list[str] = []
    for f in ruling.fouls:
        text = f.explain.get(lang) or foul_name(f.code, lang)
        lines.append(f"{text} [{rule_name(f.rule, lang, family=_fam(f.family), world=f.world)}]")
    if not ruling.fouls:
        lines.append(legal_note(case.topic, family(game), lang) or tr("trainer.no_rule_broken", lang))
    for w in ruling.warnings:
        lines.append(
            f"{w.explain.get(lang, '')} [{rule_name(w.rule, lang, family=_fam(w.family), world=w.world)}]"
        )
    return [x for x in lines if x]


def summary_line(ruling: Ruling, lang: str) -> str:
    """One line for the ruling and for 'how the other rulebooks rule': foul or legal, the fouls by name, the
    balls, who plays next (as the question asks it: the striker or the opponent) and from where."""
    from scenes.core.stats import foul_name

    parts = [tr("trainer.sum.foul" if ruling.foul else "trainer.sum.legal", lang)]
    names = [foul_name(f.code, lang) for f in ruling.fouls]
    if names:
        parts.append(", ".join(dict.fromkeys(names)))

    def balls(xs: Iterable[str]) -> str:
        return ", ".join(ball_name(b, lang) for b in xs)

    if ruling.off_table:
        parts.append(tr("trainer.sum.off", lang, balls=balls(ruling.off_table)))
    if ruling.counted:
        parts.append(tr("trainer.sum.counted", lang, balls=balls(ruling.counted)))
    if ruling.respot:
        parts.append(tr("trainer.sum.respot", lang, balls=balls(r.ball for r in ruling.respot)))
    who = tr("trainer.who.striker" if ruling.next_player == ruling.striker else "trainer.who.opponent", lang)
    hand = hand_of(ruling)
    parts.append(
        who if hand == NONE else tr("trainer.sum.next_from", lang, who=who, hand=in_hand_name(hand, lang))
    )
    return "; ".join(parts)


def _fam(family: object) -> str | None:
    """A foul's or note's family as ``rule_name`` takes it (the texts named by their titles)."""
    return str(family) if family is not None else None


Sight = tuple[tuple[float, float], tuple[float, float], bool]  # from, to (the cue ball's centre), clear


def sight_lines(ruling: Ruling, table: TableSpec) -> list[Sight]:
    """The lines a referee looks along to call a free ball (000 «Снукер (маска)»; WPBSA's both extreme edges):
    from where the cue ball lies after the stroke to each edge of every ball the incoming player is on, clear or
    blocked by a ball not on. Empty when the cue ball is in hand or there is no ball on."""
    from rules.games.snooker_geometry import COLOURS, edge_paths, is_red

    pos = dict(ruling.positions)
    cue = pos.get("cue")
    if cue is None:
        return []
    reds = [b for b in pos if is_red(b)]
    on = reds if ruling.ball_on in (None, "red") and reds else [c for c in COLOURS if c in pos][:1]
    if ruling.ball_on in COLOURS and ruling.ball_on in pos:
        on = [ruling.ball_on]
    not_on = {b: p for b, p in pos.items() if b != "cue" and b not in on}
    out: list[Sight] = []
    for b in on:
        for end, clear in edge_paths(cue, pos[b], not_on, table.ball_radius):
            out.append((cue, end, clear))
    return out


def free_ball_line(ruling: Ruling, lang: str) -> str | None:
    """Why the incoming player has a free ball or not, in words (the verdict's line for the free-ball
    question)."""
    if free_ball_question(ruling.game, ruling) is None:
        return None
    holder = getattr(ruling.family, "free_ball_for", -1)
    if holder is not None and holder >= 0:
        return tr("trainer.free_ball.yes", lang)
    return tr("trainer.free_ball.no", lang)
