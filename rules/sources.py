"""The sources a verdict rests on, as a trainee can read them (issue 25 §3).

The referee cites the rule texts by file name and section (``"003: Выскочившие шары"``, the ``rule`` of a
foul). "000" and "003" are file names, not sources: :func:`cite` names each text by its own heading and the
part it is in, quotes the passage where the quote file has it (the Russian original and the project's own
English translation, marked as such: ``assets/rules/quotes.toml``), and for snooker and pool puts the
international rule (WPBSA, WPA) beside it, saying whether the two agree.

- 003 opens with the heading «Общие правила»: the general rules of Russian billiards, which prevail over 000's.
- 000 has no single heading: it is a collection of parts, each opening with its own. The general rules of
  Russian billiards (its sections numbered 1-19; 000 calls them «Общие правила русского бильярда» when each game
  names the rules it is played by), the games (Русская пирамида, Американка, Московская пирамида, «Международный
  (или английский) снукер», «Американский снукер», «Гольф»), and the general rules of pool, which open «Настоящие
  правила являются общими для всех описанных ниже разновидностей пула». A section of 000 cited without a part
  belongs to the general rules of the family judging (pool's for pool, golf and American snooker).
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from rules.contract import Family

QUOTES_FILE = Path(__file__).resolve().parent.parent / "assets" / "rules" / "quotes.toml"

TITLE_003 = {"ru": "Общие правила", "en": "General rules"}
PARTS_000: dict[str, dict[str, str]] = {
    "ru-general": {"ru": "Общие правила русского бильярда", "en": "General rules of Russian billiards"},
    "Русская пирамида": {"ru": "Русская пирамида", "en": "Russian pyramid"},
    "Американка": {"ru": "Американка", "en": "Americanka"},
    "Московская пирамида": {"ru": "Московская пирамида", "en": "Moscow pyramid"},
    "Международный снукер": {
        "ru": "Международный (или английский) снукер",
        "en": "International (or English) snooker",
    },
    "Американский снукер": {"ru": "Американский снукер", "en": "American snooker"},
    "Гольф": {"ru": "Гольф", "en": "Golf"},
    "pool-general": {"ru": "Общие правила пула", "en": "General rules of pool"},
}
_REF = re.compile(r"^(?P<doc>\d{3}): (?P<rest>.+)$")


def _world(ref: str, agrees: bool, en: str, ru: str) -> dict[str, Any]:
    return {"rule": ref, "agrees": agrees, "note": {"en": en, "ru": ru}}


# The international rule beside the Russian text, for the sections the snooker and pool referees cite:
# (part, section) -> the rule, whether the two agree, and how they compare (our own words). WPBSA numbering
# as rules-notes §1.11 gives it (Section 3: R7 spotting, R8 touching ball, R9 edge of pocket, R10 penalties,
# R12 free ball, R14 foul and a miss, R15 ball moved by other than the striker); WPA's as its 2016 book.
WORLD: dict[tuple[str, str], dict[str, Any]] = {
    ("Международный снукер", "Штрафы за нарушения"): _world(
        "WPBSA S3 R10",
        True,
        "the same penalties: the value of the ball on or the ball concerned, 4 at least",
        "те же штрафы: стоимость очередного или затронутого шара, не менее 4 очков",
    ),
    ("Международный снукер", "Правила игры"): _world(
        "WPBSA Definitions: Jump Shot",
        False,
        "000 forbids a jump made on purpose; WPBSA's definition makes any jump over an object ball a foul, with "
        "three exceptions - the referee follows the definition where 000 says nothing of intent",
        "000 запрещает умышленный перескок; по определению WPBSA нарушение - любой перескок через прицельный шар, "
        "кроме трёх исключений; судья следует определению там, где 000 не говорит об умысле",
    ),
    ("Международный снукер", "Выскочившие прицельные шары"): _world(
        "WPBSA S3 R10",
        True,
        "a ball forced off the table is a foul; reds stay off, colours are respotted",
        "шар, выскочивший за борт, - нарушение; красные не выставляются, цветные выставляются",
    ),
    ("Международный снукер", "Выскочивший биток"): _world(
        "WPBSA S3 R10",
        True,
        "the cue ball forced off: a foul, the next player plays from hand in the D",
        "выскочивший биток - нарушение, вступающий играет с руки из «D»",
    ),
    ("Международный снукер", "Касание шара"): _world(
        "WPBSA S3 R10",
        True,
        "touching a ball otherwise than with the tip is a foul",
        "касание шара не наклейкой - нарушение",
    ),
    ("Международный снукер", "Свободный шар"): _world(
        "WPBSA S3 R12",
        True,
        "the free ball, its value and its two fouls are the same",
        "свободный шар, его стоимость и два нарушения с ним совпадают",
    ),
    ("Международный снукер", "Снукер (маска)"): _world(
        "WPBSA Definitions: Snookered",
        False,
        "000 calls the cue ball snookered when no straight stroke reaches a ball on; WPBSA when both its extreme "
        "edges cannot be hit - a ball partly hidden is snookered by WPBSA, not by 000 (the referee follows 000)",
        "по 000 снукер - когда прямым ударом нельзя попасть ни в один очередной шар; по WPBSA - когда нельзя попасть "
        "в оба его крайних края; частично закрытый шар - снукер по WPBSA, но не по 000 (судья следует 000)",
    ),
    ("Международный снукер", "Промах по шару"): _world(
        "WPBSA S3 R14",
        True,
        "the foul and a miss and the incoming player's two choices agree; WPBSA adds the third-miss rule, which "
        "000 does not have (the referee applies it)",
        "фол и промах и два выбора вступающего совпадают; WPBSA добавляет правило третьего промаха, которого в "
        "000 нет (судья его применяет)",
    ),
    ("Международный снукер", "Ведение счета"): _world(
        "WPBSA S3 R4",
        True,
        "the last black and the re-spotted black on level scores agree",
        "последний чёрный и выставленный чёрный при равном счёте совпадают",
    ),
    ("Международный снукер", "Соприкасающиеся шары"): _world(
        "WPBSA S3 R8",
        True,
        "the touching ball is played away from without moving it, in the same three cases",
        "от соприкасающегося шара играют в сторону, не сдвигая его, в тех же трёх случаях",
    ),
    ("Международный снукер", "Пропих (в снукере)"): _world(
        "WPBSA Definitions: Push Stroke",
        True,
        "the same push, with the same finest-edge allowance",
        "тот же пропих и та же оговорка о предельной резке",
    ),
    ("pool-general", "Падение битка в лузу"): _world(
        "WPA 6.1", True, "the cue ball pocketed is a foul", "биток в лузе - нарушение"
    ),
    ("pool-general", "Выскочившие шары"): _world(
        "WPA 8.5",
        True,
        "a ball off the table is a foul, and one that came back off the light fitting or chalk was off the table",
        "шар за бортом - нарушение, и вернувшийся от светильника или мела шар считается выскочившим",
    ),
    ("pool-general", "Промах по легальному шару"): _world(
        "WPA 6.2",
        True,
        "the cue ball must meet a legal ball first",
        "биток должен первым коснуться легального шара",
    ),
    ("pool-general", "Правильный удар"): _world(
        "WPA 6.3",
        True,
        "after the contact a ball is pocketed or a ball reaches a rail",
        "после соударения шар забит или шар доведён до борта",
    ),
    ("pool-general", "Правильный перескок"): _world(
        "WPA 6.16",
        False,
        "000 punishes any miscue in a jump; WPA punishes only an intentional one (2025 R2.11: an unintentional "
        "miscue jump is a legal jump) - the referee follows 000",
        "000 штрафует любой кикс при перескоке; WPA - только умышленный (2025 R2.11: неумышленный кикс с перескоком "
        "- правильный перескок); судья следует 000",
    ),
    ("pool-general", "Запрет двойных ударов"): _world(
        "WPA 6.7",
        True,
        "a double hit, and the tip on the cue ball while it meets the object ball, are fouls",
        "двойной удар и наклейка на битке в момент его встречи с прицельным - нарушения",
    ),
    ("pool-general", "Запрет касания шаров"): _world(
        "WPA 6.6", True, "touching a ball in play is a foul", "касание шара в игре - нарушение"
    ),
    ("pool-general", "Вмешательство постороннего"): _world(
        "WPA 1.9", True, "the balls are restored, no penalty", "шары восстанавливаются, штрафа нет"
    ),
    ("pool-general", "Самопроизвольное перемещение шаров"): _world(
        "WPA 1.7",
        False,
        "000 puts back a hanging ball still five seconds; WPA has no fixed time (it asks whether the ball had "
        "settled) - the referee follows 000",
        "000 возвращает зависший шар, простоявший пять секунд; у WPA срока нет (важно, успокоился ли шар); судья "
        "следует 000",
    ),
}


@cache
def _quotes() -> tuple[dict[str, Any], ...]:
    with QUOTES_FILE.open("rb") as f:
        return tuple(tomllib.load(f).get("quote", []))


def _part_000(rest: str, family: Family | None) -> tuple[str, str | None]:
    """(part, section) of a 000 reference."""
    for part in PARTS_000:
        if rest == part:
            return part, None
        if rest.startswith(part + ", "):
            return part, rest[len(part) + 2 :]
    if rest[:1].isdigit() or family in (Family.RUSSIAN, None):
        return "ru-general", rest
    return "pool-general", rest


def _quote(ref: str, family: Family | None) -> dict[str, Any] | None:
    for q in _quotes():
        fams = q.get("families", ())
        if (
            q.get("text")
            and (not fams or (family is not None and family.value in fams))
            and any(ref.startswith(r) for r in q.get("refs", ()) if r)
        ):
            return {"ru": q["text"], "en": q.get("text_en"), "en_is": "the project's own translation"}
    return None


def cite(rule: str, family: Family | None, world: bool = True) -> list[dict[str, Any]]:
    """Each reference of ``rule`` (``"; "`` between several) as a source: the text (file) it is in, the text's
    own title (of its part, for 000), the section, the quote (Russian original and our English translation,
    where the quote file has the passage) and, for snooker and pool, the international rule beside it (``world``:
    False for a game the international rules do not govern - 000's American snooker, 7 points a foul)."""
    out: list[dict[str, Any]] = []
    for ref in rule.split("; "):
        m = _REF.match(ref)
        if m is None:
            org = ref.split(" ", 1)[0]
            out.append({"text": org, "title": {"en": org, "ru": org}, "section": ref})
            continue
        doc, rest = m["doc"], m["rest"]
        if doc == "003":
            part, section, title = "003", rest, TITLE_003
        else:
            part, section = _part_000(rest, family)
            title = PARTS_000[part]
        src: dict[str, Any] = {"text": doc, "title": dict(title), "section": section}
        q = _quote(ref, family)
        if q is not None:
            src["quote"] = q
        base = section.split(" (")[0] if section and part != "Международный снукер" else section
        intl = WORLD.get((part, base or "")) if world and family in (Family.SNOOKER, Family.POOL) else None
        if intl is not None:
            src["international"] = intl
        out.append(src)
    return out


def cite_text(rule: str, family: Family | None, lang: str, world: bool = True) -> str:
    """The references of ``rule`` as a trainee reads them in ``lang``: the text's own title, the section in «»
    (the Russian title kept to find it in the source) and the international rule beside it."""
    parts: list[str] = []
    for src in cite(rule, family, world):
        if src["text"] in ("000", "003"):
            s = f"{src['title'][lang]} [{src['text']}]"
            if src["section"]:
                s += f", «{src['section']}»"
        else:
            s = str(src["section"])
        w = src.get("international")
        if w is not None:
            word = (
                ("agrees" if w["agrees"] else "differs")
                if lang == "en"
                else ("то же" if w["agrees"] else "иначе")
            )
            s += f"; {w['rule']}: {word}"
        parts.append(s)
    return "; ".join(parts)
