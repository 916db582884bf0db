"""Moving trainer data between machines and people.

- ``train --export FILE.csv|json``: a trainee's results for an instructor. CSV: one row per answer (the
  trainee, the session and its kind, the case, rulebook, topic, question, the answer, the right one, right
  or not, its weight, the seconds it took, when). JSON: the same, nested by trainee and session with the
  exams, in a form ``--import`` reads back (a trainee moving to the club's machine).
- ``train --import PACK``: a case pack - a folder of case files, a ``.zip`` of them, or one ``.toml`` -
  checked like any scenario file, then every case is simulated and judged and its ``[expected]`` rulings
  must be the referee's (a pack cannot teach a ruling the referee does not give); then the files join the
  trainee's cases. Or a results file written by ``--export`` (JSON), added under the same trainee names.
  A bad file stops the import with one line naming it; nothing is imported then.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import tempfile
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from physics.errors import InputError
from physics.files import atomic_text, read_user_bytes
from physics.limits import MAX_DEPTH
from scenes.core.i18n import ntr
from scenes.core.settings import key_range
from scenes.core.trainer.cases import (
    Case,
    Expected,
    load_case,
    load_library,
    record_for,
    rule,
    user_cases_dir,
)
from scenes.core.trainer.store import Store

RESULTS_FORMAT = "billiards3d-trainer-results"
RESULTS_VERSION = 1
CSV_COLUMNS = (
    "trainee",
    "session",
    "kind",
    "session_created",
    "case",
    "game",
    "topic",
    "question",
    "answer",
    "right_answer",
    "correct",
    "weight",
    "seconds",
    "answered_at",
)
MAX_PACK_FILES = 500
MAX_CASE_BYTES = 1_000_000
MAX_RESULTS_BYTES = 64 * 1024 * 1024  # a club's whole history: 6,000 answers are about 2 MB
MAX_SEED = 2**63 - 1  # the store keeps the seed as an SQLite INTEGER (as main.py's --seed)
MAX_ANSWER_SECONDS = 1e6  # far above any answer; an exam case allows at most an hour
# An imported exam's rules keep to what settings.toml allows for a new one.
EXAM_SECONDS = key_range("trainer.exam_seconds")
EXAM_REPLAYS = key_range("trainer.exam_replays")
EXAM_PASS_MARK = key_range("trainer.exam_pass_mark")


def export_results(store: Store, path: Path, profile_id: int | None) -> Path:
    """Write the results of one trainee (or every trainee: ``None``) to ``path`` (.csv or .json)."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        raise InputError("--export", str(path), "a file ending in .csv or .json")
    if not path.parent.exists():
        raise InputError(
            "--export", str(path), f"a path in an existing folder ({path.parent} does not exist)"
        )
    data = results(store, profile_id)

    def write_json(f: Any) -> None:
        f.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")

    def write_csv(f: Any) -> None:
        w = csv.writer(f)
        w.writerow(CSV_COLUMNS)
        for p in data["trainees"]:
            for s in p["sessions"]:
                for a in s["answers"]:
                    w.writerow(
                        [
                            _cell(p["name"]),
                            s["id"],
                            s["kind"],
                            s["created"],
                            _cell(a["case"]),
                            _cell(a["game"]),
                            _cell(a["topic"]),
                            _cell(a["question"]),
                            _cell(" ".join(a["answer"])),
                            _cell(" ".join(a["expected"])) if a["expected"] is not None else "",
                            int(a["correct"]),
                            f"{a['weight']:g}",
                            "" if a["seconds"] is None else f"{a['seconds']:.1f}",
                            a["at"],
                        ]
                    )

    # Atomically (physics.files): a full disk leaves the last export as it was, not an empty file.
    atomic_text(path, "--export", write_json if suffix == ".json" else write_csv)
    return path


# What a spreadsheet takes for the start of a formula (=HYPERLINK(...), +, -, @) or of one hidden behind a
# tab or a carriage return: such a cell is written with a leading apostrophe, which shows it as text.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows and never runs (CSV injection)."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def results(store: Store, profile_id: int | None) -> dict[str, Any]:
    """The results as plain data (the JSON export)."""
    names = store.profiles()
    pids = [store.profile(n) for n in names] if profile_id is None else [profile_id]
    trainees = []
    for pid in pids:
        exams = {e.session_id: e for e in store.exams(pid)}
        rows = store.answer_rows(profile_id=pid)
        sessions = []
        for s in store.sessions(pid):
            e = exams.get(s.id)
            sessions.append(
                {
                    "id": s.id,
                    "created": s.created,
                    "kind": s.kind,
                    "game": s.game,
                    "topic": s.topic,
                    "seed": s.seed,
                    "items": [list(i) for i in s.items],
                    "position": s.position,
                    "finished": s.finished,
                    "exam": None
                    if e is None
                    else {
                        "seconds_per_case": e.seconds_per_case,
                        "replays": e.replays,
                        "pass_mark": e.pass_mark,
                        "score": e.score,
                        "passed": e.passed,
                        "finished": e.finished,
                    },
                    "answers": [
                        {
                            "item": r.item,
                            "case": r.case_id,
                            "game": r.game,
                            "topic": r.topic,
                            "question": r.question,
                            "answer": list(r.answer),
                            "expected": list(r.expected) if r.expected is not None else None,
                            "correct": r.correct,
                            "weight": r.weight,
                            "seconds": r.seconds,
                            "at": r.at,
                        }
                        for r in rows
                        if r.session_id == s.id
                    ],
                }
            )
        trainees.append({"name": store.profile_name(pid), "sessions": sessions})
    return {"format": RESULTS_FORMAT, "version": RESULTS_VERSION, "trainees": trainees}


def import_results(store: Store, path: Path, cases: Mapping[str, Case] | None = None) -> int:
    """Add the sessions of a results file (``--export`` JSON) under the same trainee names; returns how many
    answers were added. ``cases``: the cases an answer may name (default: the library).

    The whole file is checked first, for form and for meaning (known games, topics and cases, each answer
    the case of its session names, an exam's verdict its score against its pass mark); then it is written in
    one transaction, so a refused file, a full disk or a kill leaves the database as it was, and importing
    again after any failure adds exactly what is missing."""
    file = str(path)
    raw = read_user_bytes(path, "results file", MAX_RESULTS_BYTES)
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise InputError(file, "file", f"a results file nested at most {MAX_DEPTH} deep") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputError(file, "file", f"a results file written by train --export ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != RESULTS_FORMAT:
        raise InputError(file, "format", f'"{RESULTS_FORMAT}" (a file written by train --export FILE.json)')
    if data.get("version") != RESULTS_VERSION:
        raise InputError(file, "version", f"{RESULTS_VERSION}")
    trainees = data.get("trainees")
    if not isinstance(trainees, list):
        raise InputError(file, "trainees", "a list")
    known = _Known.installed(cases if cases is not None else {c.id: c for c in load_library()})
    plan = [_check_trainee(file, i, t, known) for i, t in enumerate(trainees)]
    return store.import_results(plan)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a results file holds")


@dataclass(frozen=True)
class _Known:
    """What an imported id may name: the games with a referee, the topics, the cases of this machine."""

    games: frozenset[str]
    topics: frozenset[str]
    cases: Mapping[str, Case]

    @classmethod
    def installed(cls, cases: Mapping[str, Case]) -> _Known:
        from rules.registry import game_ids
        from scenes.core.trainer.cases import Topic

        return cls(frozenset(game_ids()), frozenset(t.value for t in Topic), cases)

    def item(self, file: str, key: str, case: str, game: str, topic: str) -> None:
        """``(case, game, topic)`` of a session's list or an answer: a known case, under one of its games."""
        c = self.cases.get(case)
        if c is None:
            raise InputError(file, key, f"a case of the library or your cases (no case {case!r} here)")
        if game not in c.games:
            raise InputError(file, key, f"a rulebook of case {case}: {', '.join(c.games)} (got {game!r})")
        if topic != str(c.topic):
            raise InputError(file, key, f"the topic of case {case}: {c.topic} (got {topic!r})")


_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _utc(v: Any) -> bool:
    """The store's own date form (SQLite's strftime('%Y-%m-%dT%H:%M:%SZ'))."""
    return isinstance(v, str) and _UTC.fullmatch(v) is not None


def _number(v: Any, lo: float, hi: float) -> bool:
    """A JSON number (not a flag) from ``lo`` to ``hi``: NaN, 10**400 and true are not."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return lo <= float(v) <= hi
    except OverflowError:
        return False


def _whole(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _check_trainee(file: str, i: int, t: Any, known: _Known) -> tuple[str, list[dict[str, Any]]]:
    key = f"trainees[{i}]"
    # The store's own rule for a name (Store.profile): what is left once the spaces around it go.
    if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not 0 < len(t["name"].strip()) <= 40:
        raise InputError(file, f"{key}.name", "a trainee name of 1 to 40 characters (not only spaces)")
    sessions = t.get("sessions")
    if not isinstance(sessions, list):
        raise InputError(file, f"{key}.sessions", "a list")
    for j, s in enumerate(sessions):
        _check_session(file, f"{key}.sessions[{j}]", s, known)
    return t["name"].strip(), sessions


def _check_session(file: str, sk: str, s: Any, known: _Known) -> None:
    if not isinstance(s, dict):
        raise InputError(file, sk, "a table")
    items = s.get("items")
    if not isinstance(items, list) or not all(
        isinstance(x, list) and len(x) == 3 and all(isinstance(v, str) for v in x) for x in items
    ):
        raise InputError(file, f"{sk}.items", "a list of [case, game, topic]")
    for n, x in enumerate(items):
        known.item(file, f"{sk}.items[{n}]", x[0], x[1], x[2])
    if not _whole(s.get("seed"), 0, MAX_SEED):
        raise InputError(file, f"{sk}.seed", f"a whole number from 0 to {MAX_SEED}")
    if not _whole(s.get("position"), 0, len(items)):
        raise InputError(file, f"{sk}.position", f"a whole number from 0 to {len(items)}")
    if not isinstance(s.get("finished"), bool):
        raise InputError(file, f"{sk}.finished", "true or false")
    if s.get("created") is not None and not _utc(s["created"]):
        raise InputError(file, f"{sk}.created", "a UTC date and time like 2026-12-01T10:00:00Z, or null")
    if s.get("kind") not in ("practice", "exam"):
        raise InputError(file, f"{sk}.kind", "practice or exam")
    for k, ids in (("game", known.games), ("topic", known.topics)):
        if s.get(k) is not None and (not isinstance(s[k], str) or s[k] not in ids):
            raise InputError(file, f"{sk}.{k}", f"null (mixed) or one of {', '.join(sorted(ids))}")
    answers = s.get("answers")
    if not isinstance(answers, list):
        raise InputError(file, f"{sk}.answers", "a list")
    seen: set[tuple[int, str]] = set()
    for n, a in enumerate(answers):
        _check_answer(file, f"{sk}.answers[{n}]", a, items)
        if (a["item"], a["question"]) in seen:
            raise InputError(file, f"{sk}.answers[{n}]", "one answer per question of a case")
        seen.add((a["item"], a["question"]))
    _check_exam(file, f"{sk}.exam", s.get("exam"), s["kind"])


def _check_answer(file: str, ak: str, a: Any, items: list[list[str]]) -> None:
    from scenes.core.trainer.questions import Kind

    if not isinstance(a, dict):
        raise InputError(file, ak, "a table")
    for k in ("case", "game", "topic", "question", "at"):
        if not isinstance(a.get(k), str):
            raise InputError(file, f"{ak}.{k}", "a string")
    if not _utc(a["at"]):
        raise InputError(file, f"{ak}.at", "a UTC date and time like 2026-12-01T10:00:00Z")
    if not _whole(a.get("item"), 0, len(items) - 1):
        raise InputError(file, f"{ak}.item", f"a case number from 0 to {len(items) - 1}")
    if [a["case"], a["game"], a["topic"]] != items[a["item"]]:
        raise InputError(file, ak, f"the case, rulebook and topic of item {a['item']}: {items[a['item']]}")
    if a["question"] not in {k.value for k in Kind}:
        raise InputError(file, f"{ak}.question", f"one of {', '.join(k.value for k in Kind)}")
    if not isinstance(a.get("answer"), list) or not all(isinstance(x, str) for x in a["answer"]):
        raise InputError(file, f"{ak}.answer", "a list of option keys")
    if a.get("expected") is not None and (
        not isinstance(a["expected"], list) or not all(isinstance(x, str) for x in a["expected"])
    ):
        raise InputError(file, f"{ak}.expected", "a list of option keys or null")
    if not isinstance(a.get("correct"), bool):
        raise InputError(file, f"{ak}.correct", "true or false")
    if not _number(a.get("weight"), 0, 10):
        raise InputError(file, f"{ak}.weight", "a number from 0 to 10")
    if a.get("seconds") is not None and not _number(a["seconds"], 0, MAX_ANSWER_SECONDS):
        raise InputError(
            file, f"{ak}.seconds", f"a number of seconds from 0 to {MAX_ANSWER_SECONDS:g}, or null"
        )


def _check_exam(file: str, ek: str, e: Any, kind: str) -> None:
    """An exam's rules in the ranges settings.toml allows, and a verdict that is its score against its mark."""
    if e is None:
        return
    if kind != "exam":
        raise InputError(file, ek, "null for a practice session")
    if not isinstance(e, dict):
        raise InputError(file, ek, "null or a table with seconds_per_case, replays, pass_mark")
    lo, hi = EXAM_SECONDS
    if not _number(e.get("seconds_per_case"), lo, hi):
        raise InputError(file, f"{ek}.seconds_per_case", f"a number of seconds from {lo} to {hi}")
    lo, hi = EXAM_REPLAYS
    if not _whole(e.get("replays"), lo, hi):
        raise InputError(file, f"{ek}.replays", f"a whole number from {lo} to {hi}")
    lo, hi = EXAM_PASS_MARK
    if not _number(e.get("pass_mark"), lo, hi):
        raise InputError(file, f"{ek}.pass_mark", f"a percentage from {lo} to {hi}")
    score, passed = e.get("score"), e.get("passed")
    if score is None:
        if passed is not None:
            raise InputError(file, f"{ek}.passed", "null while the score is null (an exam not finished)")
        return
    if not _number(score, 0, 100):
        raise InputError(file, f"{ek}.score", "a percentage from 0 to 100, or null")
    verdict = float(score) >= float(e["pass_mark"]) - 1e-9  # as exam.ExamResult.passed
    if passed is not verdict:
        raise InputError(
            file,
            f"{ek}.passed",
            f"{str(verdict).lower()}: a score of {score:g} % against a pass mark of {e['pass_mark']:g} %",
        )
    if e.get("finished") is not None and not _utc(e["finished"]):
        raise InputError(file, f"{ek}.finished", "a UTC date and time like 2026-12-01T10:00:00Z, or null")


# --- case packs -------------------------------------------------------------------------------------


def _pack_files(path: Path, tmp: Path) -> list[Path]:
    file = str(path)
    if path.is_dir():
        files = sorted(path.glob("*.toml"))
    elif path.suffix.lower() == ".toml" and path.is_file():
        files = [path]
    elif path.suffix.lower() == ".zip" and path.is_file():
        try:
            with zipfile.ZipFile(path) as z:
                members = [m for m in z.infolist() if not m.is_dir()]
                if len(members) > MAX_PACK_FILES:
                    raise InputError(file, "file", f"a pack of at most {MAX_PACK_FILES} case files")
                files = []
                for m in members:
                    name = Path(m.filename).name
                    if not name.endswith(".toml"):
                        continue
                    if m.file_size > MAX_CASE_BYTES:
                        raise InputError(
                            f"{file}:{m.filename}", "file", f"a case file under {MAX_CASE_BYTES} bytes"
                        )
                    target = tmp / name
                    if target.exists():
                        raise InputError(f"{file}:{m.filename}", "file", "one file of each name in the pack")
                    target.write_bytes(_member(z, m, f"{file}:{m.filename}"))
                    files.append(target)
        except zipfile.BadZipFile:
            raise InputError(file, "file", "a zip archive of case files (.toml)") from None
    else:
        raise InputError(
            file, "file", "a case pack: a folder of .toml case files, a .zip of them, or one .toml"
        )
    if not files:
        raise InputError(file, "file", "a pack with at least one case file (.toml)")
    if len(files) > MAX_PACK_FILES:
        raise InputError(file, "file", f"a pack of at most {MAX_PACK_FILES} case files")
    for f in files:
        if f.stat().st_size > MAX_CASE_BYTES:
            raise InputError(str(f), "file", f"a case file under {MAX_CASE_BYTES} bytes")
    return files


def _member(z: zipfile.ZipFile, m: zipfile.ZipInfo, shown: str) -> bytes:
    """A member's bytes; one line for what zipfile cannot read: a password, a compression method it lacks."""
    if m.flag_bits & 0x1:
        raise InputError(shown, "file", "a member that is not encrypted (a pack is read without a password)")
    try:
        return z.read(m)
    except NotImplementedError:
        raise InputError(
            shown,
            "file",
            f"a member stored or deflated (compression method {m.compress_type} is not supported)",
        ) from None
    except (RuntimeError, zipfile.BadZipFile, EOFError, OSError, zlib.error) as exc:  # encrypted, damaged
        raise InputError(shown, "file", f"a member zipfile can read ({exc})") from None


def check_pack_case(case: Case, settings: Any, shown_as: str) -> None:
    """The case's stroke is simulated (or read) and judged: its ``[expected]`` must be the referee's ruling."""
    record = record_for(case, settings)
    for g in case.games:
        got = Expected.from_ruling(rule(case, record, g), record)
        diffs = case.expected[g].differences(got)
        if diffs:
            field = diffs[0].split(":", 1)[0].split()[0]
            raise InputError(shown_as, f"expected.{g}.{field}", f"the referee's ruling ({diffs[0]})")


def import_pack(path: Path, settings: Any, target: Path | None = None) -> list[Path]:
    """Check a case pack whole, then copy its files into the trainee's cases; returns the new paths."""
    target = target or user_cases_dir(settings)
    known = {c.id for c in load_library(extra=[target])}
    with tempfile.TemporaryDirectory() as d:
        files = _pack_files(path, Path(d))
        cases: list[tuple[Path, Case]] = []
        seen: set[str] = set()
        for f in files:
            shown = str(f) if not str(f).startswith(d) else f"{path}:{f.name}"
            try:
                case = load_case(f)
            except InputError as exc:
                raise InputError(shown, exc.key, exc.expected) from None
            if case.id in known or case.id in seen:
                raise InputError(
                    shown, "file", f"a case id not already in the library or your cases ({case.id})"
                )
            seen.add(case.id)
            check_pack_case(case, settings, shown)
            cases.append((f, case))
        target.mkdir(parents=True, exist_ok=True)
        out = []
        for f, case in cases:
            dest = target / f"{case.id}.toml"
            shutil.copyfile(f, dest)
            out.append(dest)
    return out


def import_command(path: Path, args: Any, settings: Any, out: TextIO) -> int:
    if not path.exists():
        raise InputError(
            str(path), "file", "an existing case pack (folder, .zip, .toml) or results file (.json)"
        )
    if path.suffix.lower() == ".json":
        from scenes.core.trainer.store import default_path

        cases = {c.id: c for c in load_library(extra=[user_cases_dir(settings)])}
        with Store(default_path(settings.data_dir())) as store:
            n = import_results(store, path, cases)
        print(ntr("trainer.pack.answers", n, settings.lang), file=out)
        return 0
    written = import_pack(path, settings)
    print(
        ntr("trainer.pack.cases", len(written), settings.lang, folder=str(user_cases_dir(settings))), file=out
    )
    return 0


def names(paths: Sequence[Path]) -> list[str]:
    return [p.stem for p in paths]
