"""Statistics per player and frame from the match's stroke log, and their text for the end of a frame/match.

Every carried-out stroke of a match leaves a :class:`StrokeLog` (from its ruling: who struck, what was
counted, the fouls by code, the points, the break after it, the seconds the striker spent at the table
before striking). The figures follow from the log alone:

- pot success: strokes that counted at least one ball / strokes that were not safeties;
- longest break: the largest break (points in one visit) reached;
- fouls by kind: foul codes counted (named from the catalogs, never as codes);
- safeties: legal strokes that counted nothing (the turn passes; a deliberate safety and a missed pot
  cannot be told apart from the table, so both count: the panel says so); a break (the frame's opening
  stroke) is neither a safety nor a pot attempt when it counts nothing;
- time at the table: seconds from the first frame the striker could aim to the strike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scenes.core.i18n import has_text, ntr, tr


@dataclass(frozen=True)
class StrokeLog:
    frame: int  # 1-based
    player: int
    counted: tuple[str, ...] = ()
    fouls: tuple[str, ...] = ()  # foul codes
    points: int = 0  # the striker's points from this stroke (a foul's penalty is negative or 0)
    break_after: int = 0  # the striker's break once the stroke was carried out
    seconds: float = 0.0  # at the table before the strike
    record: Mapping[str, Any] | None = None  # the shot record's JSON (events, final; no samples)
    ruling: Mapping[str, Any] | None = None  # the ruling's JSON
    opening: bool = False  # the frame's break (the state before it was in the break phase)

    @property
    def foul(self) -> bool:
        return bool(self.fouls)

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.frame,
            "player": self.player,
            "counted": list(self.counted),
            "fouls": list(self.fouls),
            "points": self.points,
            "break_after": self.break_after,
            "seconds": round(self.seconds, 3),
            "opening": self.opening,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> StrokeLog:
        """An entry :meth:`to_dict` wrote (ValueError/TypeError/KeyError for anything else)."""
        ints = {k: d[k] for k in ("frame", "player", "points", "break_after")}
        if not all(
            isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 100000 for v in ints.values()
        ):
            raise ValueError("frame, player, points and break_after are whole numbers")
        seconds = d["seconds"]
        if not isinstance(seconds, (int, float)) or not 0 <= seconds < 1e6:
            raise ValueError("seconds is a number of seconds")
        counted, fouls = d["counted"], d["fouls"]
        if not all(isinstance(x, list) and all(isinstance(b, str) for b in x) for x in (counted, fouls)):
            raise ValueError("counted and fouls are lists of ids")
        opening = d.get("opening", False)  # saves written before breaks were told apart have none
        if not isinstance(opening, bool):
            raise ValueError("opening is true or false")
        return cls(
            counted=tuple(counted), fouls=tuple(fouls), seconds=float(seconds), opening=opening, **ints
        )

    @classmethod
    def from_ruling(
        cls,
        frame: int,
        rj: Mapping[str, Any],
        break_after: int,
        seconds: float,
        record: Any = None,
        opening: bool = False,
    ) -> StrokeLog:
        striker = int(rj.get("striker", 0))
        points = rj.get("points") or []
        return cls(
            frame=frame,
            player=striker,
            counted=tuple(str(b) for b in rj.get("counted") or []),
            fouls=tuple(str(f.get("code", "")) for f in rj.get("fouls") or []),
            points=int(points[striker]) if striker < len(points) else 0,
            break_after=break_after,
            seconds=seconds,
            record=record,
            ruling=dict(rj),
            opening=opening,
        )


@dataclass(frozen=True)
class PlayerStats:
    strokes: int = 0
    pots: int = 0
    safeties: int = 0
    breaks: int = 0  # legal breaks that counted nothing: neither safeties nor pot attempts
    longest_break: int = 0
    seconds: float = 0.0
    fouls: Mapping[str, int] = field(default_factory=dict)

    @property
    def attempts(self) -> int:
        return self.strokes - self.safeties - self.breaks

    @property
    def pot_success(self) -> float:
        return self.pots / self.attempts if self.attempts else 0.0

    @property
    def foul_count(self) -> int:
        return sum(self.fouls.values())


def player_stats(log: Iterable[StrokeLog], player: int, frame: int | None = None) -> PlayerStats:
    """``player``'s figures over the match, or over one ``frame``."""
    mine = [s for s in log if s.player == player and (frame is None or s.frame == frame)]
    fouls: Counter[str] = Counter(code for s in mine for code in s.fouls)
    return PlayerStats(
        strokes=len(mine),
        pots=sum(1 for s in mine if s.counted and not s.foul),
        safeties=sum(1 for s in mine if not s.counted and not s.foul and not s.opening),
        breaks=sum(1 for s in mine if not s.counted and not s.foul and s.opening),
        longest_break=max((s.break_after for s in mine), default=0),
        seconds=sum(s.seconds for s in mine),
        fouls=dict(sorted(fouls.items())),
    )


def foul_name(code: str, lang: str) -> str:
    """A foul code as the players read it («кикс», "miscue"); an unknown code reads as a foul, never a code."""
    key = f"foul.{code}"
    return tr(key, lang) if has_text(key) else tr("foul.other", lang)


def _clock(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    return f"{m}:{s:02d}"


def stats_text(log: Sequence[StrokeLog], names: Sequence[str], lang: str, frame: int | None = None) -> str:
    """The statistics panel: one block per player (the frame's, or the whole match's when ``frame`` is None)."""
    title = tr("stats.frame", lang, n=frame) if frame is not None else tr("stats.match", lang)
    lines = [title]
    for i, name in enumerate(names):
        st = player_stats(log, i, frame)
        lines.append(f"{name}: {ntr('stats.strokes', st.strokes, lang)}")
        lines.append(
            "   "
            + tr("stats.pots", lang, pots=st.pots, attempts=st.attempts, pct=round(100 * st.pot_success))
            + " · "
            + tr("stats.longest_break", lang, n=st.longest_break)
            + " · "
            + ntr("stats.safeties", st.safeties, lang)
            + " · "
            + tr("stats.time", lang, clock=_clock(st.seconds))
        )
        if st.fouls:
            kinds = ", ".join(f"{foul_name(c, lang)} ×{n}" for c, n in st.fouls.items())
            lines.append("   " + tr("stats.fouls", lang, n=st.foul_count, kinds=kinds))
        else:
            lines.append("   " + tr("stats.no_fouls", lang))
    lines.append(tr("stats.safety_note", lang))
    return "\n".join(lines)
