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
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from physics.errors import InputError
from physics.files import atomic_text
from scenes.i18n import ntr
from scenes.trainer.cases import Case, Expected, load_case, load_library, record_for, rule, user_cases_dir
from scenes.trainer.store import Store

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
                            p["name"],
                            s["id"],
                            s["kind"],
                            s["created"],
                            a["case"],
                            a["game"],
                            a["topic"],
                            a["question"],
                            " ".join(a["answer"]),
                            " ".join(a["expected"]) if a["expected"] is not None else "",
                            int(a["correct"]),
                            f"{a['weight']:g}",
                            "" if a["seconds"] is None else f"{a['seconds']:.1f}",
                            a["at"],
                        ]
                    )

    # Atomically (physics.files): a full disk leaves the last export as it was, not an empty file.
    atomic_text(path, "--export", write_json if suffix == ".json" else write_csv)
    return path


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


def import_results(store: Store, path: Path) -> int:
    """Add the sessions of a results file (``--export`` JSON) under the same trainee names; returns how many
    answers were added. The file is checked whole before anything is written."""
    file = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(file, "file", f"a results file written by train --export ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != RESULTS_FORMAT:
        raise InputError(file, "format", f'"{RESULTS_FORMAT}" (a file written by train --export FILE.json)')
    if data.get("version") != RESULTS_VERSION:
        raise InputError(file, "version", f"{RESULTS_VERSION}")
    trainees = data.get("trainees")
    if not isinstance(trainees, list):
        raise InputError(file, "trainees", "a list")
    plan = [_check_trainee(file, i, t) for i, t in enumerate(trainees)]
    added = 0
    for name, sessions in plan:
        pid = store.profile(name)
        # A session already here (the same trainee, date, kind and cases) is not added twice.
        have = {(r.created, r.kind, r.items) for r in store.sessions(pid)}
        for s in sessions:
            items = tuple((str(i[0]), str(i[1]), str(i[2])) for i in s["items"])
            if (s.get("created"), s["kind"], items) in have:
                continue
            row = store.new_session(
                s["game"],
                s["topic"],
                s["seed"],
                list(items),
                profile_id=pid,
                kind=s["kind"],
                created=s.get("created"),
            )
            have.add((row.created, row.kind, row.items))
            for a in s["answers"]:
                store.record_answer(
                    row.id,
                    a["item"],
                    a["case"],
                    a["game"],
                    a["topic"],
                    a["question"],
                    a["answer"],
                    a["correct"],
                    False,
                    False,
                    weight=a["weight"],
                    expected=a["expected"],
                    seconds=a["seconds"],
                    at=a["at"],
                )
                added += 1
            store.set_progress(row.id, s["position"], s["finished"])
            e = s.get("exam")
            if e is not None:
                eid = store.new_exam(row.id, s["game"], e["seconds_per_case"], e["replays"], e["pass_mark"])
                if e.get("score") is not None:
                    store.finish_exam(eid, e["score"], bool(e["passed"]), None)
    return added


_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _utc(v: Any) -> bool:
    """The store's own date form (SQLite's strftime('%Y-%m-%dT%H:%M:%SZ'))."""
    return isinstance(v, str) and _UTC.fullmatch(v) is not None


def _check_trainee(file: str, i: int, t: Any) -> tuple[str, list[dict[str, Any]]]:
    key = f"trainees[{i}]"
    if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not 0 < len(t["name"]) <= 40:
        raise InputError(file, f"{key}.name", "a trainee name of 1 to 40 characters")
    sessions = t.get("sessions")
    if not isinstance(sessions, list):
        raise InputError(file, f"{key}.sessions", "a list")
    for j, s in enumerate(sessions):
        sk = f"{key}.sessions[{j}]"
        if not isinstance(s, dict):
            raise InputError(file, sk, "a table")
        items = s.get("items")
        if not isinstance(items, list) or not all(
            isinstance(x, list) and len(x) == 3 and all(isinstance(v, str) for v in x) for x in items
        ):
            raise InputError(file, f"{sk}.items", "a list of [case, game, topic]")
        for k, typ in (("seed", int), ("position", int), ("finished", bool)):
            if not isinstance(s.get(k), typ) or (typ is int and isinstance(s.get(k), bool)):
                raise InputError(file, f"{sk}.{k}", "a whole number" if typ is int else "true or false")
        if not 0 <= s["position"] <= len(items):
            raise InputError(file, f"{sk}.position", f"a number from 0 to {len(items)}")
        if s.get("created") is not None and not _utc(s["created"]):
            raise InputError(file, f"{sk}.created", "a UTC date and time like 2026-12-01T10:00:00Z, or null")
        if s.get("kind") not in ("practice", "exam"):
            raise InputError(file, f"{sk}.kind", "practice or exam")
        for k in ("game", "topic"):
            if s.get(k) is not None and not isinstance(s[k], str):
                raise InputError(file, f"{sk}.{k}", "a string or null")
        answers = s.get("answers")
        if not isinstance(answers, list):
            raise InputError(file, f"{sk}.answers", "a list")
        seen: set[tuple[int, str]] = set()
        for n, a in enumerate(answers):
            ak = f"{sk}.answers[{n}]"
            if not isinstance(a, dict):
                raise InputError(file, ak, "a table")
            for k in ("case", "game", "topic", "question", "at"):
                if not isinstance(a.get(k), str):
                    raise InputError(file, f"{ak}.{k}", "a string")
            if not _utc(a["at"]):
                raise InputError(file, f"{ak}.at", "a UTC date and time like 2026-12-01T10:00:00Z")
            if (
                not isinstance(a.get("item"), int)
                or isinstance(a["item"], bool)
                or not 0 <= a["item"] < len(items)
            ):
                raise InputError(file, f"{ak}.item", f"a case number from 0 to {len(items) - 1}")
            if (a["item"], a["question"]) in seen:
                raise InputError(file, ak, "one answer per question of a case")
            seen.add((a["item"], a["question"]))
            for k in ("answer",):
                if not isinstance(a.get(k), list) or not all(isinstance(x, str) for x in a[k]):
                    raise InputError(file, f"{ak}.{k}", "a list of option keys")
            if a.get("expected") is not None and (
                not isinstance(a["expected"], list) or not all(isinstance(x, str) for x in a["expected"])
            ):
                raise InputError(file, f"{ak}.expected", "a list of option keys or null")
            if not isinstance(a.get("correct"), bool):
                raise InputError(file, f"{ak}.correct", "true or false")
            w = a.get("weight")
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 <= w <= 10:
                raise InputError(file, f"{ak}.weight", "a number from 0 to 10")
            sec = a.get("seconds")
            if sec is not None and (isinstance(sec, bool) or not isinstance(sec, (int, float)) or sec < 0):
                raise InputError(file, f"{ak}.seconds", "a number of seconds >= 0 or null")
        e = s.get("exam")
        if e is not None and (
            not isinstance(e, dict)
            or not all(
                isinstance(e.get(k), (int, float)) for k in ("seconds_per_case", "replays", "pass_mark")
            )
        ):
            raise InputError(file, f"{sk}.exam", "null or a table with seconds_per_case, replays, pass_mark")
    return t["name"], sessions


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
                    target.write_bytes(z.read(m))
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
        from scenes.trainer.store import default_path

        with Store(default_path(settings.data_dir())) as store:
            n = import_results(store, path)
        print(ntr("trainer.pack.answers", n, settings.lang), file=out)
        return 0
    written = import_pack(path, settings)
    print(
        ntr("trainer.pack.cases", len(written), settings.lang, folder=str(user_cases_dir(settings))), file=out
    )
    return 0


def names(paths: Sequence[Path]) -> list[str]:
    return [p.stem for p in paths]
