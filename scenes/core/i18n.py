"""Every user-facing text of the window in Russian and English: gettext catalogs, and the Cyrillic UI font.

The texts live in two GNU gettext catalogs, ``assets/locale/<lang>/LC_MESSAGES/billiards.po`` (``en`` and
``ru``), read through Python's :mod:`gettext`. A text is found by its key, which is the ``msgid`` of both
catalogs (symbolic ids keep every call site short and let the English be edited like any translation):

    tr("hud.break", lang, n=8)          # "Break: 8" / "Серия: 8"
    tr("hud.owed", lang, n=2)           # a plural entry: ngettext picks the form («2 штрафных шара»)

``tr`` raises KeyError for a key that is in no catalog: a missing text is a programming error, never a
silent English fallback or a raw key on screen.

How to add a text:

1. Add the same entry to BOTH catalogs (keep the two files in the same order)::

       msgid "hud.penalty"
       msgstr "Penalty: {points}"

   A text with a count is a plural entry: ``msgid_plural`` repeats the key, and the catalog's
   ``Plural-Forms`` header says how many forms it takes (English 2: ``msgstr[0]`` "1 ball", ``msgstr[1]``
   "5 balls"; Russian 3: «1 шар», «2 шара», «5 шаров»). Call it with ``n=``: ``tr("count.balls", lang, n=5)``.
   Placeholders are ``str.format`` fields and must be the same in both (the ids are keys, so gettext's own
   format check has nothing to compare with: :func:`catalog_problems` compares the two catalogs instead).
2. Nothing else: a catalog whose ``.mo`` is missing or older than its ``.po`` is compiled at first use
   (``make setup`` compiles both ahead: ``python -m scenes.core.i18n compile``). ``python -m scenes.core.i18n check``
   lists what is wrong with the catalogs and every key the code (``main.py``, ``scenes/`` with the trainer)
   asks for that they lack; ``tests/scenes/test_i18n.py`` fails on a text present in one
   language only, an empty or fuzzy translation, placeholders that differ, or a key used in the code that
   no catalog has.

Names of things are never shown as ids: :func:`ball_name` («коричневый», «биток»: the referee's
``rules.names``, which the terminal's reports share), :func:`pocket_name`,
:func:`zone_name`, :func:`option_name`, :func:`rule_name` (rule references in the interface's language, with
the source text's title where it helps finding the section) and :func:`display_names` (default player names
follow the language). Game names come from the referee's registry (each game declares its ru/en names);
practice, which has no referee, is named in the catalogs (``game.practice``).
"""

from __future__ import annotations

import ast
import gettext
import io
import os
import re
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FONT_DIR = ROOT / "assets" / "fonts"
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
LOCALE_DIR = ROOT / "assets" / "locale"
DOMAIN = "billiards"

LANGS = ("ru", "en")
# Forms each language's plural entries must have (the catalogs' Plural-Forms headers say the same).
PLURAL_FORMS = {"en": 2, "ru": 3}


# --- catalogs --------------------------------------------------------------------------------------
def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def compile_po(po: Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` catalog.

    Babel (a dependency, pure Python) compiles it. Fuzzy entries are left out, so an unchecked translation
    never reaches the screen."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, abort_invalid=True)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def compile_catalog(lang: str) -> bytes:
    """Compile ``lang``'s catalog and keep the ``.mo`` beside it when the folder is writable (atomically,
    so two processes compiling at once leave one whole file); the bytes are returned either way."""
    po, mo = po_path(lang), mo_path(lang)
    data = compile_po(po)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".billiards-", suffix=".mo", dir=mo.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, mo)
    except OSError:  # a read-only install: the catalog is used from memory
        pass
    return data


def _fresh_mo(lang: str) -> bytes | None:
    po, mo = po_path(lang), mo_path(lang)
    try:
        if mo.stat().st_mtime_ns >= po.stat().st_mtime_ns:
            return mo.read_bytes()
    except OSError:
        return None
    return None


class _Missing(gettext.NullTranslations):
    """The last fallback of every catalog: a key no catalog has is an error, not a raw key on screen."""

    def gettext(self, message: str) -> str:
        raise KeyError(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        raise KeyError(msgid1)


_catalogs: dict[str, gettext.GNUTranslations] = {}


def catalog(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of ``lang`` ('ru' or 'en'; anything else reads English), loaded once."""
    lang = lang if lang in LANGS else "en"
    t = _catalogs.get(lang)
    if t is None:
        data = _fresh_mo(lang) or compile_catalog(lang)
        t = gettext.GNUTranslations(io.BytesIO(data))
        t.add_fallback(_Missing())
        _catalogs[lang] = t
    return t


class _CommaFloat(float):
    """A number written the Russian way: a decimal comma (3,0 м/с, 2,86 с), whatever the format spec."""

    def __format__(self, spec: str) -> str:
        return float.__format__(self, spec).replace(".", ",")


class _CommaInt(int):
    """A whole number in a Russian text: an int given to a fractional spec (``{got:.1f}`` of 0) takes the
    comma too, so one line never mixes "0.0" and "7,7"."""

    def __format__(self, spec: str) -> str:
        return int.__format__(self, spec).replace(".", ",")


def _numbers(fmt: dict[str, Any], lang: str) -> dict[str, Any]:
    """Placeholders as the language writes them: in Russian every fractional number takes a decimal comma."""
    if lang != "ru":
        return fmt
    return {
        k: _CommaFloat(v)
        if isinstance(v, float)
        else _CommaInt(v)
        if isinstance(v, int) and not isinstance(v, bool)
        else v
        for k, v in fmt.items()
    }


def number(value: float, lang: str, places: int = 2, trim: bool = True) -> str:
    """The one way a number is written outside a catalog text: ``places`` decimals, the language's decimal
    separator (0,14 in Russian, 0.14 in English); ``trim`` drops trailing zeros (1 not 1.00), a score keeps
    them (3,0 / 7,7, as the catalogs' ``.1f`` write it)."""
    text = f"{float(value):.{places}f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text.replace(".", ",") if lang == "ru" else text


def date_text(iso: str, lang: str) -> str:
    """A stored UTC time (ISO 8601, ``2026-12-04T21:40:03Z``) as people read it: «04.12.2026 21:40» in Russian,
    "2026-12-04 21:40" in English (minutes are enough to tell sessions apart)."""
    from datetime import datetime

    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    return t.strftime("%d.%m.%Y %H:%M" if lang == "ru" else "%Y-%m-%d %H:%M")


def tr(key: str, lang: str, /, **fmt: Any) -> str:
    """The text for ``key`` in ``lang``, formatted with ``fmt``; with ``n=`` a plural entry picks its form.
    Fractional numbers are written as the language writes them (Russian: 3,0 м/с)."""
    fmt = _numbers(fmt, lang)
    t = catalog(lang)
    text: str | None = None
    n = fmt.get("n")
    if isinstance(n, int) and not isinstance(n, bool):
        try:
            text = t.ngettext(key, key, abs(n))
        except KeyError:
            text = None
    if text is None:
        text = t.gettext(key)
    return text.format(**fmt) if fmt else text


def ntr(key: str, n: int, lang: str, /, **fmt: Any) -> str:
    """A plural entry for the count ``n`` (``{n}`` in the text is the count)."""
    return catalog(lang).ngettext(key, key, abs(int(n))).format(n=n, **_numbers(fmt, lang))


def has_text(key: str) -> bool:
    """True when the catalogs have ``key`` (a singular entry)."""
    try:
        catalog("en").gettext(key)
    except KeyError:
        return False
    return True


class _Texts(Mapping[str, tuple[str, str]]):
    """Read-only view of the singular entries as ``key -> (ru, en)`` (the shape the old STRINGS table had)."""

    def _keys(self) -> list[str]:
        from babel.messages.pofile import read_po

        with po_path("en").open("rb") as f:
            return [str(m.id) for m in read_po(f) if m.id and isinstance(m.id, str)]

    def __getitem__(self, key: str) -> tuple[str, str]:
        return (catalog("ru").gettext(key), catalog("en").gettext(key))

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and has_text(key)


STRINGS: Mapping[str, tuple[str, str]] = _Texts()


def _maybe(key: str, lang: str, fallback: str, **fmt: Any) -> str:
    try:
        return tr(key, lang, **fmt)
    except KeyError:
        return fallback


# --- names of things -------------------------------------------------------------------------------
def game_name(game_id: str, lang: str) -> str:
    """The game's name as its referee declares it (practice has no referee: its name is in the catalogs)."""
    from physics.scenario import PRACTICE
    from rules.registry import get_referee

    if game_id == PRACTICE:
        return tr("game.practice", lang)
    return str(get_referee(game_id).names["ru" if lang == "ru" else "en"])


def ball_name(ball: str, lang: str) -> str:
    """A ball as a player calls it: «биток» / "the cue ball", «коричневый» / "the brown", «шар 7» / "the 7".

    The referee's own vocabulary (``rules.names``: the terminal's reports use it too), so a ball has one name."""
    from rules.names import ball_name as rules_ball_name

    return rules_ball_name(ball, "ru" if lang == "ru" else "en")


def ball_on_name(on: str, lang: str) -> str:
    """What must be hit first: a ball, or a group the referee names ("a red", "a colour (nominate it)")."""
    return ball_name(on, lang)


def ball_list(balls: Sequence[str], lang: str) -> str:
    """Balls named and counted: "2 balls: ball 7, ball 3" («2 шара: шар 7, шар 3»)."""
    from rules.names import balls_list

    names = balls_list(balls, "ru" if lang == "ru" else "en")
    return f"{ntr('count.balls', len(balls), lang)}: {names}" if balls else ntr("count.balls", 0, lang)


def pocket_name(pocket: str, lang: str) -> str:
    return _maybe(f"pocket.{pocket}", lang, pocket)


def option_name(option: str, lang: str) -> str:
    """An option of a ruling as the HUD lists it: a named option, ``lag:<p>`` or a ball to pick."""
    if option.startswith("lag:") and option[4:].isdigit():
        return tr("option.lag_won", lang, n=int(option[4:]) + 1)
    key = f"option.{option}"
    if has_text(key):
        return tr(key, lang)
    return tr("option.ball", lang, ball=ball_name(option, lang))


def option_outcome(option: str, name: str, zone: str | None, lang: str) -> str:
    """An option worded by what it leads to: the option (``option.hud.<o>``, else its name), who plays next and
    from where ("Anna plays again, from where the balls lie"; «играй дальше: бьёт Анна, с руки в доме»)."""
    where = tr("option.where.hand", lang, zone=zone) if zone else tr("option.where.table", lang)
    key = f"option.hud.{option}"
    if has_text(key):
        return tr(key, lang, name=name, where=where)
    return tr("option.hud.other", lang, option=option_name(option, lang), name=name, where=where)


def zone_name(zone: str, lang: str) -> str:
    return _maybe(f"zone.{zone}", lang, zone)


_KEY_NAMES = ("space", "escape", "tab", "enter", "shift", "control", "alt", "backspace", "delete", "insert")
_KEY_ARROWS = {"arrow_left": "←", "arrow_right": "→", "arrow_up": "↑", "arrow_down": "↓"}


def key_name(key: str, lang: str) -> str:
    """A Panda3D key name as the key's label reads: «пробел» / "Space", "Esc", "←", "F5", "R"."""
    if key in _KEY_ARROWS:
        return _KEY_ARROWS[key]
    if key in _KEY_NAMES:
        return tr(f"key.{key}", lang)
    if key.startswith("f") and key[1:].isdigit():
        return key.upper()
    return key.upper() if len(key) == 1 else key


def key_labels(controls: Any, lang: str) -> Any:
    """The settings' [controls] with every key as its label (for help texts): ``key_labels(c, lang).shoot``."""
    from dataclasses import fields
    from types import SimpleNamespace

    return SimpleNamespace(**{f.name: key_name(getattr(controls, f.name), lang) for f in fields(controls)})


def default_name(i: int, lang: str) -> str:
    """The default name of player ``i`` (0-based): «Игрок 1» / "Player 1"."""
    return tr("menu.player_n", lang, n=i + 1)


def display_names(names: Sequence[str], lang: str) -> tuple[str, ...]:
    """Player names for ``lang``: a name that is a default name in either language follows the language
    (a settings file's «Игрок 1» reads "Player 1" in English); a name the players typed stays as it is."""
    out = []
    for i, n in enumerate(names):
        defaults = {default_name(i, other) for other in LANGS}
        out.append(default_name(i, lang) if n.strip() in defaults or not n.strip() else n)
    return tuple(out)


_RULE_RU = re.compile(r"^(?P<doc>\d{3}): (?P<title>.+)$")
_RULE_WPBSA_SECTION = re.compile(r"^WPBSA S(?P<s>\d+) R(?P<r>\S+)$")
_RULE_WPA_NUMBER = re.compile(r"^WPA (?P<r>\d+\.\d+)$")
_RULE_EN = re.compile(r"^(?P<org>WPA|WPBSA|BCA) (?P<part>[^:]+): (?P<title>.+)$")


# Lettered items of the Russian texts (а, б, в ...) in their Latin transliteration (GOST 7.79 B).
_ITEM_LATIN = dict(
    zip(
        "абвгдежзиклмнопрст",
        ["a", "b", "v", "g", "d", "e", "zh", "z", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t"],
        strict=True,
    )
)


def _rule_part(part: str, lang: str) -> str:
    # A lettered item of a section («в» of 003's break rules) reads as "item v" in English.
    if len(part) == 1 and part.isalpha():
        return tr("rule.item", lang, item=part if lang == "ru" else _ITEM_LATIN.get(part, part))
    numbered = _NUMBERED.match(part)
    if numbered:  # a numbered item of a list in the section: «Штрафы (13)»
        return f"{tr(f'rule:{numbered[1]}', lang)} ({numbered[2]})"
    return tr(f"rule:{part}", lang)


_NUMBERED = re.compile(r"^(.+) \((\d+)\)$")


def _world_line(src: Mapping[str, Any], lang: str, strict: bool) -> str:
    w = src.get("international")
    if not w:
        return ""
    key = "rule.world_agrees" if w["agrees"] else "rule.world_differs"
    return tr(key, lang, rule=rule_name(str(w["rule"]), lang, strict))


def _titled(m: re.Match[str], rule: str, lang: str, family: str, strict: bool, world: bool) -> str:
    """A Russian-text reference by the text's own title (rules.sources), its section and the international rule
    beside it: «Общие правила [003]: Выскочившие шары» / "General rules [003]: Balls off the table («...»)"."""
    from rules.contract import Family
    from rules.sources import cite

    src = cite(rule, Family(family), world)[0]
    section = src["section"]
    title = src["title"]["en" if lang == "en" else "ru"]
    if not section:
        return tr("rule.titled_part", lang, text=title, doc=m["doc"]) + _world_line(src, lang, strict)
    parts = [_rule_part(p, lang) for p in section.split(", ")]
    return tr(
        "rule.titled_text", lang, text=title, doc=m["doc"], title=", ".join(parts), source=section
    ) + _world_line(src, lang, strict)


def rule_name(
    rule: str, lang: str, strict: bool = False, family: str | None = None, world: bool = True
) -> str:
    """A rule reference in ``lang``.

    The Russian texts are cited as ``"003: Выскочившие шары"``: in English that reads
    "003: Balls off the table («Выскочившие шары»)", the source title kept to find the section. WPA and
    WPBSA references (``"WPBSA S3 R14"``, ``"WPA 9-ball: Three Consecutive Fouls"``) read in Russian with
    the English title beside. A reference in no catalog is shown as the referee gave it (``strict``:
    KeyError, for the test that every reference the referee makes has its translation). With ``family`` (the
    rulebook family that cited it: a foul's or note's ``family``) a Russian text is named by its own title, not
    its file name, and the international rule beside it says whether it agrees (``rules.sources``)."""
    if "; " in rule:  # several references at once: "000: ...; 003: ..."
        return "; ".join(rule_name(r, lang, strict, family, world) for r in rule.split("; "))
    try:
        m = _RULE_RU.match(rule)
        if m and family is not None:
            return _titled(m, rule, lang, family, strict, world)
        if m:
            parts = [_rule_part(p, lang) for p in m["title"].split(", ")]
            return tr("rule.russian_text", lang, doc=m["doc"], title=", ".join(parts), source=m["title"])
        m = _RULE_WPBSA_SECTION.match(rule)
        if m:
            return tr("rule.wpbsa_section", lang, s=m["s"], r=m["r"])
        m = _RULE_WPA_NUMBER.match(rule)
        if m:
            return tr("rule.wpa_rule", lang, r=m["r"])
        m = _RULE_EN.match(rule)
        if m:
            return tr(
                "rule.world_text",
                lang,
                org=m["org"],
                part=tr(f"rule:{m['part']}", lang),
                title=tr(f"rule:{m['title']}", lang),
                source=m["title"],
            )
    except KeyError:
        if strict:
            raise
        return rule
    if strict:
        raise KeyError(rule)
    return rule


# --- checks ----------------------------------------------------------------------------------------
_FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def catalog_problems() -> list[str]:
    """Everything wrong with the catalogs, one line each (empty: all good)."""
    from babel.messages.pofile import read_po

    cats = {}
    for lang in LANGS:
        with po_path(lang).open("rb") as f:
            cats[lang] = read_po(f)
    out: list[str] = []
    for lang, cat in cats.items():
        if cat.num_plurals != PLURAL_FORMS[lang]:
            out.append(f"{lang}: Plural-Forms gives {cat.num_plurals} forms, expected {PLURAL_FORMS[lang]}")
    ids = {
        lang: {m.id if isinstance(m.id, str) else m.id[0]: m for m in cat if m.id}
        for lang, cat in cats.items()
    }
    for lang, other in (("en", "ru"), ("ru", "en")):
        for key in sorted(set(ids[lang]) - set(ids[other])):
            out.append(f"{key}: in the {lang} catalog only (add it to {other}/LC_MESSAGES/{DOMAIN}.po)")
    for key in sorted(set(ids["en"]) & set(ids["ru"])):
        fields: dict[str, set[str]] = {}
        plural = {lang: isinstance(ids[lang][key].id, tuple) for lang in LANGS}
        if len(set(plural.values())) > 1:
            out.append(f"{key}: a plural entry in one catalog only")
            continue
        for lang in LANGS:
            m = ids[lang][key]
            forms = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
            if m.fuzzy:
                out.append(f"{key}: fuzzy in the {lang} catalog (check the translation, then drop the flag)")
            texts = [s for s in forms if isinstance(s, str) and s.strip()]
            if len(texts) != len(forms):
                out.append(f"{key}: empty translation in the {lang} catalog")
                continue
            if plural[lang] and len(texts) != PLURAL_FORMS[lang]:
                out.append(
                    f"{key}: {len(texts)} plural forms in the {lang} catalog, expected {PLURAL_FORMS[lang]}"
                )
            got = [set(_FIELD.findall(s)) for s in texts]
            if any(g != got[0] for g in got):
                out.append(f"{key}: the {lang} plural forms use different placeholders")
            fields[lang] = got[0]
            out += [f"{key} ({lang}): {e}" for e in m.check(cats[lang])]
        # An entry may say that a placeholder is shown in one language only (``#. placeholders: ...``).
        free = any(c.startswith("placeholders:") for lang in LANGS for c in ids[lang][key].auto_comments)
        if len(fields) == 2 and fields["en"] != fields["ru"] and not free:
            out.append(f"{key}: placeholders differ: en {sorted(fields['en'])}, ru {sorted(fields['ru'])}")
    return out


# The calls that take a catalog key first: tr, ntr, and the trainer's both() (a text in the two languages).
TEXT_CALLS = ("tr", "ntr", "both")


def code_files() -> list[Path]:
    """The code whose texts the catalogs hold: ``main.py`` and every module of ``scenes/`` (the window, the
    terminal commands, the referee trainer)."""
    return [ROOT / "main.py", *sorted((ROOT / "scenes").rglob("*.py"))]


def keys_in_code(files: Sequence[Path] | None = None) -> tuple[dict[str, str], dict[str, str]]:
    """Keys the code passes to :data:`TEXT_CALLS` as literals, and the literal beginnings of keys it
    builds with f-strings (``tr(f"trainer.topic.{t}", lang)``), each with the first place that asks for it."""
    keys: dict[str, str] = {}
    prefixes: dict[str, str] = {}
    for f in files if files is not None else code_files():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), filename=str(f))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name not in TEXT_CALLS:
                continue
            where = f"{f.relative_to(ROOT) if f.is_relative_to(ROOT) else f}:{node.lineno}"
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                keys.setdefault(arg.value, where)
            elif isinstance(arg, ast.IfExp):  # tr("a" if x else "b", lang)
                for v in (arg.body, arg.orelse):
                    if isinstance(v, ast.Constant) and isinstance(v.value, str):
                        keys.setdefault(v.value, where)
            elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
                prefixes.setdefault(str(arg.values[0].value), where)
    return keys, prefixes


def code_problems(files: Sequence[Path] | None = None) -> list[str]:
    """Keys the code asks for that no catalog has (a text that would raise KeyError on screen), one a line."""
    keys, prefixes = keys_in_code(files)
    every = list(STRINGS) + [k for k in _plural_keys()]
    out = [f"{where}: {key}: in no catalog" for key, where in keys.items() if key not in every]
    for p, where in prefixes.items():
        if not any(k.startswith(p) for k in every):
            out.append(f"{where}: no text starts with {p!r}")
    return out


def _plural_keys() -> list[str]:
    from babel.messages.pofile import read_po

    with po_path("en").open("rb") as f:
        return [str(m.id[0]) for m in read_po(f) if isinstance(m.id, tuple)]


def main(argv: Sequence[str]) -> int:
    """``python -m scenes.core.i18n compile [LANG|FILE.mo ...]`` (the catalogs to .mo; all by default) or
    ``check`` (the catalogs' problems and the keys the code asks for that they lack, one a line; exit 1 if
    any)."""
    if argv and argv[0] == "compile":
        wanted = [Path(a).parts[-3] if a.endswith(".mo") else a for a in argv[1:]] or list(LANGS)
        for lang in wanted:
            if lang not in LANGS:
                print(
                    f"compile: {lang}: not a language of the catalogs ({', '.join(LANGS)})", file=sys.stderr
                )
                return 2
            compile_catalog(lang)
            print(mo_path(lang).relative_to(ROOT))
        return 0
    if list(argv) == ["check"]:
        problems = catalog_problems() + code_problems()
        for p in problems:
            print(p, file=sys.stderr)
        return 1 if problems else 0
    print("usage: python -m scenes.core.i18n compile|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
