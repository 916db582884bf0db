"""The rule a verdict rests on, quoted: the Russian source text and what it means (``rule_quotes.toml``)."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

QUOTES_FILE = Path(__file__).with_name("rule_quotes.toml")
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
    en: str
    ru: str
    refs: tuple[str, ...]
    topics: tuple[str, ...]
    families: tuple[str, ...]
    games: tuple[str, ...]

    def meaning(self, lang: str) -> str:
        return self.en if lang == "en" else self.ru

    def cite(self) -> str:
        """``003 «Выскочившие шары»`` (or the first rule reference where no text covers it)."""
        if self.source and self.section:
            return f"{self.source} «{self.section}»"
        return self.refs[0] if self.refs else self.id

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
                en=str(q["en"]),
                ru=str(q["ru"]),
                refs=tuple(q.get("refs", ())),
                topics=tuple(q.get("topics", ())),
                families=tuple(q.get("families", ())),
                games=tuple(q.get("games", ())),
            )
        )
    return tuple(out)


def quotes_for(topic: str, game: str, family: str, refs: Sequence[str] = ()) -> list[Quote]:
    """The quotes for a stroke of ``topic`` under ``game``: those serving the topic and rulebook, then those
    the ruling's own rule references name (fouls the topic does not explain), without repeats."""
    out: list[Quote] = [q for q in all_quotes() if q.serves(topic, game, family)]
    for ref in refs:
        for q in all_quotes():
            if q not in out and any(ref.startswith(r) for r in q.refs if r):
                if not q.games or game in q.games:
                    out.append(q)
    return out


def ruling_refs(ruling: Mapping[str, Any]) -> list[str]:
    """The rule references of a ruling's fouls and notes."""
    refs = [str(f.get("rule")) for f in ruling.get("fouls", []) if f.get("rule")]
    refs += [
        str(n.get("rule")) for n in ruling.get("notes", []) or [] if isinstance(n, Mapping) and n.get("rule")
    ]
    return list(dict.fromkeys(refs))
