"""``python main.py validate [--out DIR] [--quick]``: the physics against its published sources, in pictures.

:mod:`physics.validation` measures (plain data, no drawing); this module draws one PNG per fact with matplotlib
(Agg: no display needed), writes an HTML page with the plots and the checks, ``report.json`` with the same
numbers, and prints the table of errors. The folder defaults to ``validation/`` in the user's data folder, where
the exam reports and videos go. Exit code 0 whatever the physics measures: the report says how far it is off.
"""

from __future__ import annotations

import html
import json
import math
import re
import sys
import time
from pathlib import Path
from typing import IO, Any

from physics.errors import InputError
from physics.files import atomic_text
from physics.validation import run_validation
from physics.validation_data import Check, Fact, Series
from scenes.core.i18n import tr


def _w(lang: str) -> dict[str, str]:
    """The report's own words in ``lang`` (the catalogs' ``validate.*`` entries, scenes.core.i18n)."""
    lg = "ru" if lang == "ru" else "en"
    return {
        "heading": tr("validate.heading", lg),
        "quick": tr("validate.quick", lg),
        "fact": tr("validate.fact", lg),
        "table": tr("validate.table", lg),
        "within": tr("validate.within", lg),
        "worst": tr("validate.worst", lg),
        "what": tr("validate.what", lg),
        "published": tr("validate.published", lg),
        "simulated": tr("validate.simulated", lg),
        "error": tr("validate.error", lg),
        "tolerance": tr("validate.tolerance", lg),
        "ok": tr("validate.ok", lg),
        "off": tr("validate.off", lg),
        "missing": tr("validate.missing", lg),
        "source": tr("validate.source", lg),
        "report": tr("validate.report", lg),
        "all": tr("validate.all", lg),
        "measuring": tr("validate.measuring", lg),
    }


# The facts give their units in SI symbols; Russian writes them in Cyrillic, with a decimal comma.
_RU_UNITS = {"m": "м", "mm": "мм", "ms": "мс", "s": "с", "m/s": "м/с"}
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")


def _num(x: float | None, unit: str = "", lang: str = "en") -> str:
    if x is None or not math.isfinite(x):
        return "—"
    a = abs(x)
    if a < 5e-4:
        x = a = 0.0  # no "-0.000"
    s = f"{x:.3f}" if a < 10 else f"{x:.2f}" if a < 100 else f"{x:.1f}"
    if lang == "ru":
        s, unit = s.replace(".", ","), _RU_UNITS.get(unit, unit)
    return f"{s} {unit}".strip()


def _say(text: str, lang: str) -> str:
    """A check's own words as the language writes its numbers (the facts write "0.706 м/с" in both)."""
    return _DECIMAL_POINT.sub(",", text) if lang == "ru" else text


def _verdict(c: Check, w: dict[str, str]) -> str:
    return w["missing"] if c.simulated is None else w["ok"] if c.ok else w["off"]


# --- the terminal table ---------------------------------------------------------------------------------------


def format_table(facts: list[Fact], lang: str) -> str:
    """One line per fact: how many checks are within tolerance and the one furthest off."""
    w = _w(lang)
    rows = [
        (
            w["fact"],
            w["table"],
            w["within"],
            w["worst"],
            w["published"],
            w["simulated"],
            w["error"],
            w["tolerance"],
        )
    ]
    for f in facts:
        c = f.worst
        table = w["all"] if f.table == "all" else f.table
        if c is None:
            rows.append((f.id, table, "0/0", "", "", "", "", ""))
            continue
        rows.append(
            (
                f.id,
                table,
                f"{f.passed}/{len(f.checks)}",
                _say(c.what["ru" if lang == "ru" else "en"], lang),
                _num(c.published, c.unit, lang),
                _num(c.simulated, c.unit, lang),
                _num(c.error, c.unit, lang),
                _num(c.tolerance, c.unit, lang),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * n for n in widths))
    return "\n".join(lines)


# --- plots ------------------------------------------------------------------------------------------------------


def plot_fact(fact: Fact, path: Path, lang: str) -> None:
    """One PNG: the published series dashed (the source's measured points as black crosses), the simulated
    ones solid or as dots, each simulated series in the colour of the published one it follows; guides dotted
    grey."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lg = "ru" if lang == "ru" else "en"
    fig, ax = plt.subplots(figsize=(8.0, 5.0), dpi=100)
    colours = iter(plt.rcParams["axes.prop_cycle"].by_key()["color"] * 4)
    last: Series | None = None
    colour = "k"
    for s in fact.series:
        if s.kind == "guide":
            ax.plot(s.x, s.y, ":", color="0.45", linewidth=1.2, label=s.label[lg] or None)
            continue
        if s.kind == "published" and s.points:
            ax.plot(s.x, s.y, "kX", markersize=9, label=s.label[lg], zorder=5)
            continue
        if s.kind == "published" or last is None or last.kind != "published" or last.points:
            colour = next(colours)
        if s.kind == "published":
            ax.plot(s.x, s.y, "--", color=colour, linewidth=1.6, label=s.label[lg])
        elif s.points:
            ax.plot(s.x, s.y, "o", color=colour, markersize=6, label=s.label[lg], zorder=4)
        else:
            ax.plot(s.x, s.y, "-", color=colour, linewidth=2.0, alpha=0.8, label=s.label[lg])
        last = s
    if fact.equal_axes:
        ax.set_aspect("equal", adjustable="datalim")
    ax.set_title(fact.title[lg], fontsize=12)
    ax.set_xlabel(fact.x_label[lg])
    ax.set_ylabel(fact.y_label[lg])
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.text(0.01, 0.01, fact.source[lg], fontsize=7, color="0.35")
    fig.tight_layout(rect=(0.0, 0.03, 1.0, 1.0))
    try:
        fig.savefig(path, metadata={"Software": None})
    except OSError as exc:
        raise InputError(
            "--out", str(path), f"a folder the report can be written to ({exc.strerror})"
        ) from None
    finally:
        plt.close(fig)


# --- the page and the numbers ---------------------------------------------------------------------------------


def _html(facts: list[Fact], lang: str, quick: bool) -> str:
    w, lg = _w(lang), "ru" if lang == "ru" else "en"
    e = html.escape
    out = [
        f'<!DOCTYPE html>\n<html lang="{lg}"><head><meta charset="utf-8"><title>{e(w["heading"])}</title>',
        "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .6em;"
        "text-align:left}td.n{text-align:right}.ok{color:#176b1e}.off{color:#b3261e;font-weight:bold}"
        "img{max-width:100%}</style></head><body>",
        f"<h1>{e(w['heading'])}</h1>",
    ]
    if quick:
        out.append(f"<p><em>{e(w['quick'])}</em></p>")
    out.append("<pre>" + e(format_table(facts, lang)) + "</pre>")
    for f in facts:
        out.append(f'<h2 id="{e(f.id)}">{e(f.title[lg])}</h2>')
        out.append(f"<p>{e(w['source'])}: {e(f.source[lg])}. {e(f.note[lg])}</p>")
        out.append(f'<img src="{e(f.id)}.png" alt="{e(f.title[lg])}">')
        out.append(
            "<table><tr>"
            + "".join(
                f"<th>{e(w[k])}</th>" for k in ("what", "published", "simulated", "error", "tolerance", "ok")
            )
            + "</tr>"
        )
        for c in f.checks:
            cls = "ok" if c.ok else "off"
            cells = [_num(c.published, c.unit, lg), _num(c.simulated, c.unit, lg), _num(c.error, c.unit, lg)]
            out.append(
                f"<tr><td>{e(_say(c.what[lg], lg))}</td>"
                + "".join(f'<td class="n">{e(x)}</td>' for x in cells)
                + f'<td class="n">{e(_num(c.tolerance, c.unit, lg))}</td>'
                + f'<td class="{cls}">{e(_verdict(c, w))}</td></tr>'
            )
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out)


def report_dict(facts: list[Fact], quick: bool) -> dict[str, Any]:
    """Every check as plain numbers (``report.json``)."""

    def num(x: float | None) -> float | None:
        return None if x is None or not math.isfinite(x) else round(float(x), 6)

    return {
        "quick": quick,
        "facts": [
            {
                "id": f.id,
                "table": f.table,
                "title": f.title,
                "source": f.source,
                "passed": f.passed,
                "checks": [
                    {
                        "what": c.what,
                        "unit": c.unit,
                        "published": num(c.published),
                        "simulated": num(c.simulated),
                        "error": num(c.error),
                        "tolerance": num(c.tolerance),
                        "ok": c.ok,
                    }
                    for c in f.checks
                ],
            }
            for f in facts
        ],
    }


def out_folder(out: str | None, settings: Any) -> Path:
    """``--out`` or the data folder's ``validation/``, made if missing; a file in the way is one line, exit 2."""
    folder = Path(out).expanduser() if out else Path(settings.data_dir()) / "validation"
    if folder.exists() and not folder.is_dir():
        raise InputError("--out", str(folder), "a folder (a file of that name is in the way)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError("--out", str(folder), f"a folder that can be made ({exc.strerror})") from None
    return folder


def write_report(facts: list[Fact], folder: Path, lang: str, quick: bool) -> Path:
    for f in facts:
        plot_fact(f, folder / f"{f.id}.png", lang)

    def page(fp: IO[str]) -> None:
        fp.write(_html(facts, lang, quick))

    def numbers(fp: IO[str]) -> None:
        json.dump(report_dict(facts, quick), fp, indent=2, ensure_ascii=False)
        fp.write("\n")

    atomic_text(folder / "report.json", "--out", numbers)
    index = folder / "index.html"
    atomic_text(index, "--out", page)
    return index


def validate_command(args: Any, settings: Any) -> int:
    lang = settings.lang
    w = _w(lang)
    folder = out_folder(args.out, settings)
    start = time.monotonic()

    def progress(fid: str) -> None:
        print(f"{w['measuring']} {fid} ({time.monotonic() - start:.0f} s)", file=sys.stderr, flush=True)

    facts = run_validation(quick=bool(args.quick), progress=progress)
    index = write_report(facts, folder, lang, bool(args.quick))
    print(f"{w['heading']}{' (' + w['quick'] + ')' if args.quick else ''}")
    print(format_table(facts, lang))
    print(f"{w['report']}: {index}")
    return 0
