"""The texts: gettext catalogs complete in both languages, plurals, names instead of ids, rule references.

A text shown in one language with no translation in the other fails here: the two catalogs must hold the
same keys, every translation filled in and not fuzzy, with the same placeholders, and every key the code
asks for must be in them.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import shutil
from pathlib import Path

import pytest

from scenes.core import i18n
from scenes.core.i18n import (
    LANGS,
    ball_list,
    ball_name,
    ball_on_name,
    catalog_problems,
    display_names,
    ntr,
    option_name,
    pocket_name,
    rule_name,
    tr,
    zone_name,
)

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile("[\u0400-\u04ff]")
RULE_REF = re.compile(r"^(\d{3}: |WPA |WPBSA )")


def test_the_catalogs_have_every_text_in_both_languages() -> None:
    assert catalog_problems() == []


def test_a_text_in_one_catalog_only_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    ru = locale / "ru" / "LC_MESSAGES" / "billiards.po"
    ru.write_text(
        ru.read_text(encoding="utf-8") + '\nmsgid "only.here"\nmsgstr "Только здесь {n}"\n', encoding="utf-8"
    )
    en = locale / "en" / "LC_MESSAGES" / "billiards.po"
    text = en.read_text(encoding="utf-8").replace('msgstr "Break: {n}"', 'msgstr "Break: {count}"')
    en.write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    problems = catalog_problems()
    assert any(p.startswith("only.here: in the ru catalog only") for p in problems), problems
    assert any(p.startswith("hud.break: placeholders differ") for p in problems), problems


def _keys_used_in_code() -> tuple[set[str], set[str]]:
    """Keys passed to tr()/ntr() as literals, and the literal prefixes of keys built with f-strings."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    files = [ROOT / "main.py", *(ROOT / "scenes").rglob("*.py")]
    for f in files:
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name not in ("tr", "ntr"):
                continue
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                keys.add(arg.value)
            elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
                prefixes.add(str(arg.values[0].value))
    return keys, prefixes


def test_every_key_the_code_asks_for_is_in_the_catalogs() -> None:
    keys, prefixes = _keys_used_in_code()
    assert len(keys) > 40, "the scan found the tr() calls"
    missing = sorted(k for k in keys if not i18n.has_text(k) and not _is_plural(k))
    assert missing == []
    every = set(i18n.STRINGS)
    for p in prefixes:
        assert any(k.startswith(p) for k in every), f"no text starts with {p!r}"


def _is_plural(key: str) -> bool:
    try:
        ntr(key, 2, "en")
    except KeyError:
        return False
    return True


def test_a_key_in_no_catalog_is_an_error_not_a_raw_key_on_screen() -> None:
    with pytest.raises(KeyError):
        tr("no.such.text", "ru")


@pytest.mark.parametrize(
    ("n", "ru", "en"),
    [
        (1, "1 шар", "1 ball"),
        (2, "2 шара", "2 balls"),
        (4, "4 шара", "4 balls"),
        (5, "5 шаров", "5 balls"),
        (11, "11 шаров", "11 balls"),
        (12, "12 шаров", "12 balls"),
        (21, "21 шар", "21 balls"),
        (22, "22 шара", "22 balls"),
        (0, "0 шаров", "0 balls"),
    ],
)
def test_plural_forms_follow_each_language(n: int, ru: str, en: str) -> None:
    assert ntr("count.balls", n, "ru") == ru
    assert ntr("count.balls", n, "en") == en
    assert tr("count.balls", "ru", n=n) == ru  # tr with n= picks the plural form as well


def test_zero_object_balls_and_penalty_balls_owed() -> None:
    assert ntr("count.object_balls", 0, "en") == "0 object balls"
    assert ntr("count.object_balls", 1, "en") == "1 object ball"
    assert tr("hud.owed", "ru", n=2) == "Штрафных шара в долг: 2"
    assert tr("hud.owed", "en", n=1) == "Penalty ball owed: 1"


def _every_ball_id() -> set[str]:
    from rules.registry import game_ids, get_referee

    balls: set[str] = set()
    for g in game_ids():
        ref = get_referee(g)
        lo, hi = ref.player_range
        balls |= set(ref.ball_set(hi))
    return balls


@pytest.mark.parametrize("lang", LANGS)
def test_balls_pockets_zones_and_options_are_named_never_shown_as_ids(lang: str) -> None:
    balls = _every_ball_id()
    assert {"cue", "brown", "red1", "7"} <= balls
    for b in balls:
        name = ball_name(b, lang)
        assert name != b, b
        assert bool(CYRILLIC.search(name)) == (lang == "ru"), (b, name)
    assert ball_name("brown", "ru") == "коричневый"
    assert ball_name("cue", "ru") == "биток"
    assert ball_name("cue", "en") == "the cue ball"
    assert ball_name("red7", "en") == "a red"
    for on in ("red", "colour", "9"):
        assert ball_on_name(on, lang) != on
    for pocket in ("head-left", "head-right", "middle-left", "middle-right", "foot-left", "foot-right"):
        assert i18n.has_text(f"pocket.{pocket}")
        assert pocket_name(pocket, "ru") != pocket
    for zone in ("house", "d", "behind-head-string", "anywhere"):
        assert i18n.has_text(f"zone.{zone}")
        assert zone_name(zone, "ru") != zone
    from rules.ruling import Option

    for option in Option:
        assert i18n.has_text(f"option.{option}"), option  # every option a ruling can offer is named
    assert "биток" in option_name("cue", "ru") or "cue ball" in option_name("cue", "en")
    assert ball_list(("7", "cue"), "ru" if lang == "ru" else "en") in (
        "2 шара: шар 7, биток",
        "2 balls: the 7, the cue ball",
    )


def _rule_references() -> set[str]:
    """Every rule reference the referee can cite: its modules' constants and the literals in its source."""
    import rules
    import rules.games

    refs: set[str] = set()
    for pkg in (rules, rules.games):
        for m in pkgutil.iter_modules(pkg.__path__):
            mod = importlib.import_module(f"{pkg.__name__}.{m.name}")
            refs |= {v for v in vars(mod).values() if isinstance(v, str) and RULE_REF.match(v)}
    for f in (ROOT / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_REF.match(node.value):
                # A sentence that starts with a reference (a docstring, an explanation) is not one.
                if len(node.value) < 90 and not node.value.rstrip().endswith("."):
                    refs.add(node.value)
    return refs


def test_every_rule_reference_reads_in_both_languages() -> None:
    refs = _rule_references()
    assert "003: Выскочившие шары" in refs
    assert "WPBSA S3 R14" in refs
    for ref in sorted(refs):
        en = rule_name(ref, "en", strict=True)
        ru = rule_name(ref, "ru", strict=True)
        if ref[:3].isdigit():
            # English: the section in English, the Russian title kept in «» to find it in the source text.
            for one, one_en in zip(ref.split("; "), en.split("; "), strict=True):
                assert f"«{one[5:]}»" in one_en, en
                assert not CYRILLIC.search(one_en.split("«")[0]), en
            assert ru == ref
        else:
            assert CYRILLIC.search(ru), ru
            assert not CYRILLIC.search(en), en
    assert rule_name("003: Выскочившие шары", "en") == "003: Balls off the table («Выскочившие шары»)"
    assert rule_name("WPBSA S3 R14", "ru") == "WPBSA, раздел 3, правило 14"
    assert rule_name("an unknown reference", "en") == "an unknown reference"


def test_default_player_names_follow_the_language() -> None:
    assert display_names(("Игрок 1", "Игрок 2"), "en") == ("Player 1", "Player 2")
    assert display_names(("Player 1", "Anna"), "ru") == ("Игрок 1", "Anna")
    assert display_names(("", "Boris"), "en") == ("Player 1", "Boris")


def test_a_missing_or_stale_mo_is_compiled_at_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    monkeypatch.setattr(i18n, "_catalogs", {})
    assert tr("hud.frames", "ru") == "Партии"
    mo = locale / "ru" / "LC_MESSAGES" / "billiards.mo"
    assert mo.exists()
    # The .po edited after the .mo was made: the next process compiles it again.
    po = mo.with_suffix(".po")
    po.write_text(po.read_text(encoding="utf-8").replace('"Партии"', '"Партии (счёт)"'), encoding="utf-8")
    monkeypatch.setattr(i18n, "_catalogs", {})
    assert tr("hud.frames", "ru") == "Партии (счёт)"
    # A read-only install (the .mo cannot be written) compiles into memory.
    mo.unlink()

    def refuse(*a: object, **k: object) -> None:
        raise PermissionError("read-only")

    monkeypatch.setattr(i18n.tempfile, "mkstemp", refuse)
    monkeypatch.setattr(i18n, "_catalogs", {})
    assert tr("hud.frames", "ru") == "Партии (счёт)"
    assert not mo.exists()


def test_russian_writes_a_decimal_comma_and_english_a_point() -> None:
    assert tr("cue.power", "ru", v=3.0) == "Сила: 3,0 м/с"
    assert tr("cue.power", "en", v=3.0) == "Power: 3.0 m/s"
    assert tr("unit.seconds", "ru", v=2.856) == "2,86 с"
    assert tr("cue.tip", "ru", x=0.1, y=-0.25) == "Винт: +0,10 / -0,25"
