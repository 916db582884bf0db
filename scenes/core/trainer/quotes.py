"""The rule a verdict rests on, quoted: the Russian source text and what it means (``assets/rules/quotes.toml``)."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rules.ruling import FoulCode, Ruling
from scenes.core.i18n import rule_name, tr

QUOTES_FILE = Path(__file__).resolve().parents[3] / "assets" / "rules" / "quotes.toml"
SOURCES = {
    "000": "000_3cff9b721c6303a3.txt",
    "003": "003_f62c535b020d5aac.txt",
}


@dataclass(frozen=True)
class Quote:
    id: str
    source: str | None  # "000" | "003", None where the two texts have no section for the point
    section: str | None
    text: str | None  # the Russian source, word for word
    refs: tuple[str, ...]
    topics: tuple[str, ...]
    families: tuple[str, ...]
    games: tuple[str, ...]
    # Where a section the referee cites holds several rules (000 «Правила игры»), the foul codes this quote
    # explains: a ruling citing the section is quoted with it only for one of these fouls.
    codes: tuple[str, ...] = ()
    text_en: str | None = None  # the project's own English translation of ``text``

    def meaning(self, lang: str) -> str:
        """What the rule means for the stroke, in our own words (``trainer.quote.<id>`` in the catalogs)."""
        return tr(f"trainer.quote.{self.id}", lang)

    def cite(self, lang: str) -> str:
        """``Общие правила [003] «Выскочившие шары»``: the text by its own heading (of its part, for 000: see
        ``rules.sources``) and the section as the text titles it, or the first rule reference, in ``lang``, where
        no text covers the point (``WPBSA, раздел 3, правило 9``)."""
        if self.source and self.section:
            return f"{self.title(lang)} [{self.source}] «{self.section}»"
        return rule_name(self.refs[0], lang) if self.refs else self.id

    def title(self, lang: str) -> str:
        """The heading of the text (003) or of the part of 000 the section is in."""
        from rules.sources import PARTS_000, TITLE_003

        code = "en" if lang == "en" else "ru"
        if self.source == "003":
            return TITLE_003[code]
        part = (self.section or "").split(":")[0].split(" (")[0]
        if part == "Общие правила пула":
            return PARTS_000["pool-general"][code]
        if part in PARTS_000:
            return PARTS_000[part][code]
        general = "ru-general" if "ru" in self.families else "pool-general"
        return PARTS_000[general][code]

    def quoted(self, lang: str) -> str | None:
        """The passage as a verdict in ``lang`` quotes it: the Russian source, or in English the project's own
        translation (:attr:`text_en`; the Russian when there is none)."""
        if lang == "en" and self.text_en:
            return self.text_en
        return self.text

    def serves(self, topic: str, game: str, family: str) -> bool:
        if topic not in self.topics:
            return False
        if self.games:
            return game in self.games
        return family in self.families


@cache
def all_quotes() -> tuple[Quote, ...]:
    with QUOTES_FILE.open("rb") as f:
        raw = tomllib.load(f)
    out: list[Quote] = []
    for q in raw.get("quote", []):
        out.append(
            Quote(
                id=str(q["id"]),
                source=q.get("source"),
                section=q.get("section"),
                text=q.get("text"),
                refs=tuple(q.get("refs", ())),
                topics=tuple(q.get("topics", ())),
                families=tuple(q.get("families", ())),
                games=tuple(q.get("games", ())),
                codes=tuple(q.get("codes", ())),
                text_en=q.get("text_en"),
            )
        )
    return tuple(out)


def quotes_for(
    topic: str, game: str, family: str, refs: Sequence[str] = (), codes: Sequence[str] = ()
) -> list[Quote]:
    """The quotes for a stroke of ``topic`` under ``game``: first those the ruling's own rule references name
    (in their order: the section the verdict rests on comes first; ``codes``, the ruling's foul codes, pick
    among quotes of one section), then those serving the topic and rulebook, without repeats. A quote kept to
    some games or families is never quoted for another's ruling."""
    out: list[Quote] = []
    for ref in refs:
        for q in all_quotes():
            if (
                q not in out
                and any(ref.startswith(r) for r in q.refs if r)
                and _for(q, game, family)
                and (not q.codes or any(c in q.codes for c in codes))
            ):
                out.append(q)
    out += [q for q in all_quotes() if q not in out and q.serves(topic, game, family)]
    return out


def _for(q: Quote, game: str, family: str) -> bool:
    if q.games:
        return game in q.games
    return not q.families or family in q.families


def ruling_codes(ruling: Ruling) -> list[FoulCode]:
    """The codes of a ruling's fouls."""
    return [f.code for f in ruling.fouls]


def ruling_refs(ruling: Ruling) -> list[str]:
    """The rule references of a ruling's fouls and announcements."""
    refs = [f.rule for f in ruling.fouls if f.rule] + [w.rule for w in ruling.warnings if w.rule]
    return list(dict.fromkeys(refs))
