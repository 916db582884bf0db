"""The trainer in a terminal (issue 17 §2): what a user types, what a file says, what the disk allows.

Before: a typed ``²`` was an internal error; ``--seed 10**30`` an OverflowError from SQLite; a second
trainer on the same session lost the answer just typed to an IntegrityError; a case title with an escape
sequence reached the terminal raw; a read-only data folder made ``--history`` fail and told the user to
move a valid database away.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from scenes.core.trainer.store import Store, default_path

ROOT = Path(__file__).resolve().parents[2]
CASE = ROOT / "assets" / "cases" / "pyramid-lamp.toml"


def _env(data_home: Path, root: Path = ROOT) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(data_home), "PYTHONPATH": str(root)}


@dataclass(frozen=True)
class User:
    """Who runs the program: the command prefix that drops to that user, and a checkout the user can read."""

    prefix: list[str]
    root: Path


def _train(
    data_home: Path, *args: str, stdin: str = "", user: User | None = None
) -> subprocess.CompletedProcess[str]:
    root = user.root if user else ROOT
    return subprocess.run(
        [*(user.prefix if user else []), sys.executable, "main.py", "--lang", "en", "train", *args],
        cwd=root,
        env=_env(data_home, root),
        capture_output=True,
        text=True,
        timeout=600,
        input=stdin,
    )


def _one_line(r: subprocess.CompletedProcess[str]) -> str:
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert len(lines) == 1, r.stderr[-2000:]
    return lines[0]


# --- answers and arguments ----------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["²", "٣", "１", "9" * 5000, "1²", "-1", "+1", "0x1"])
def test_only_ascii_option_numbers_are_answers(typed: str) -> None:
    from scenes.core.trainer.questions import Kind, Option, Question

    q = Question(
        Kind.LEGAL,
        "?",
        "?",
        (Option("yes", "yes", "да"), Option("no", "no", "нет")),
        False,
        frozenset({"yes"}),
    )
    assert q.parse(typed) is None
    assert q.parse("1") == frozenset({"yes"})


def test_a_superscript_digit_typed_at_the_prompt_asks_again(tmp_path: Path) -> None:
    r = _train(tmp_path, "--text", "--cases", "1", "--topic", "lamp", stdin="²\n")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Type option numbers" in r.stdout
    assert "internal error" not in r.stderr


@pytest.mark.parametrize("seed", [str(10**30), str(-(10**30))])
def test_a_huge_seed_is_one_line(tmp_path: Path, seed: str) -> None:
    line = _one_line(_train(tmp_path, "--text", "--cases", "1", "--seed", seed))
    assert "--seed" in line


def test_a_huge_case_count_is_one_line(tmp_path: Path) -> None:
    line = _one_line(_train(tmp_path, "--text", "--cases", str(10**30)))
    assert "--cases" in line


# --- two trainers on one session ---------------------------------------------------------------------


class _Trainer:
    """A text trainer driven prompt by prompt."""

    def __init__(self, data_home: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "main.py", "--lang", "en", "train", "--text", *args],
            cwd=ROOT,
            env=_env(data_home),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=0,
        )
        self.seen = ""

    def until_prompt(self, timeout: float = 300.0) -> str:
        assert self.proc.stdout is not None
        end = time.monotonic() + timeout
        start = len(self.seen)
        while len(self.seen) == start or not self.seen.endswith("> "):
            ch = self.proc.stdout.read(1)
            if ch == "" or time.monotonic() > end:
                raise AssertionError(f"no prompt: {self.seen[-1500:]!r}")
            self.seen += ch
        return self.seen[start:]

    def answer(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def finish(self) -> tuple[int, str, str]:
        out, err = self.proc.communicate(timeout=300)
        return self.proc.returncode, self.seen + out, err


def _answers(data_home: Path) -> list[tuple]:
    con = sqlite3.connect(default_path(data_home / "billiards3d"))
    try:
        return con.execute("SELECT session_id, item, question, answer FROM answers ORDER BY id").fetchall()
    finally:
        con.close()


def test_a_second_trainer_on_an_open_session_says_so_and_loses_no_answer(tmp_path: Path) -> None:
    a = _Trainer(tmp_path, "--cases", "2", "--topic", "lamp")
    a.until_prompt()
    a.answer("1")
    a.until_prompt()
    line = _one_line(_train(tmp_path, "--text", stdin="1\n1\n1\n"))
    assert "open in another trainer" in line
    assert "move" not in line
    a.answer("2")
    a.until_prompt()
    code, out, err = a.finish()  # end of input: the session stays resumable
    assert code == 0, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    stored = _answers(tmp_path)
    assert len(stored) == 2, stored
    assert len({(s, i, q) for s, i, q, _a in stored}) == 2, stored


def test_the_session_is_free_again_when_its_trainer_is_killed(tmp_path: Path) -> None:
    a = _Trainer(tmp_path, "--cases", "2", "--topic", "lamp")
    a.until_prompt()
    a.answer("1")
    a.until_prompt()
    a.proc.send_signal(signal.SIGKILL)
    a.proc.wait(timeout=30)
    r = _train(tmp_path, "--text", stdin="")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "resumed" in r.stdout
    assert len(_answers(tmp_path)) == 1


def test_a_store_refuses_a_session_claimed_by_another_process(tmp_path: Path) -> None:
    from physics.errors import InputError

    path = default_path(tmp_path)
    code = (
        "import sys, time\n"
        "from scenes.core.trainer.store import Store\n"
        "s = Store(sys.argv[1])\n"
        "row = s.new_session(None, None, 1, [('c', 'snooker', 'jump')])\n"
        "s.claim(row.id)\n"
        "print(row.id, flush=True)\n"
        "sys.stdin.read()\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(path)],
        cwd=ROOT,
        env=_env(tmp_path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        sid = int(holder.stdout.readline())
        with Store(path) as s:
            with pytest.raises(InputError) as exc:
                s.claim(sid)
            assert "open in another trainer" in exc.value.expected
    finally:
        holder.kill()
        holder.wait(timeout=30)
    with Store(path) as s:
        s.claim(sid)  # free once its holder is gone


# --- texts from files are printed with control characters escaped -----------------------------------


def test_a_case_title_with_escape_sequences_is_printed_escaped(tmp_path: Path) -> None:
    cases = tmp_path / "billiards3d" / "cases"
    cases.mkdir(parents=True)
    text = CASE.read_text("utf-8")
    head, _, rest = text.partition("\ntitle = ")
    _old, _, rest = rest.partition("\n")
    (cases / "zz-evil.toml").write_text(
        head
        + '\ntitle = { en = "Evil \\u001b[2J\\u001b]0;pwned\\u0007 case\\r", ru = "Злой \\u001b[31m" }\n'
        + rest,
        "utf-8",
    )
    r = _train(
        tmp_path, "--text", "--cases", "2", "--game", "russian-pyramid", "--topic", "lamp", stdin="1\n" * 40
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "\x1b" not in r.stdout
    assert "\x07" not in r.stdout
    assert "\r" not in r.stdout
    assert "Evil \\x1b[2J" in r.stdout


def test_an_error_line_escapes_what_the_file_said(tmp_path: Path) -> None:
    p = tmp_path / "evil.toml"
    p.write_text('[balls]\n"\\u001b[2Jcue" = [0.0, 0.0]\n', "utf-8")
    r = subprocess.run(
        [sys.executable, "main.py", "simulate", str(p)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    line = _one_line(r)
    assert "\x1b" not in line
    assert "\\x1b[2Jcue" in line


# --- a read-only data folder -----------------------------------------------------------------------------


# What the trainer's commands read from the checkout: the code, the data, the default settings.
_RUNTIME = ("main.py", "settings.toml", "physics", "rules", "scenes", "assets")


@pytest.fixture(scope="module")
def other_user() -> Iterator[User]:
    """A user for whom a read-only folder is read-only. Not root, whom no mode stops: as root, ``nobody``
    (65534), who runs a world-readable copy of the checkout's runtime files, since the checkout itself may
    sit where only root can enter (a clone under /root or in a ``mktemp -d``)."""
    if os.geteuid() != 0:
        yield User([], ROOT)
        return
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot make a folder read-only for the trainer")
    prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    copy = Path(tempfile.mkdtemp(prefix="billiards-checkout-"))
    try:
        copy.chmod(0o755)
        for name in _RUNTIME:
            src = ROOT / name
            if src.is_dir():
                shutil.copytree(src, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(src, copy / name)
        # The catalogs compiled here, as ``make setup`` does: a fresh clone has none, and the other user could
        # neither write them into the copy nor reach the venv's babel to compile them at first use.
        subprocess.run(
            [sys.executable, "-m", "scenes.core.i18n", "compile"], cwd=copy, check=True, timeout=300
        )
        for p in copy.rglob("*"):
            p.chmod(0o755 if p.is_dir() else 0o644)
        probe = subprocess.run(
            [*prefix, sys.executable, "-c", "import main"],
            cwd=copy,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if probe.returncode != 0:
            pytest.skip(
                f"user 65534 cannot start {sys.executable} on a copy of the checkout: {probe.stderr[-300:]}"
            )
        yield User(prefix, copy)
    finally:
        shutil.rmtree(copy)


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A folder another user can reach (pytest's own is private to its user)."""
    d = Path(tempfile.mkdtemp(prefix="billiards-ro-"))
    d.chmod(0o755)
    yield d
    for p in d.rglob("*"):
        p.chmod(0o755)
    shutil.rmtree(d)


def _read_only_history(tmp_path: Path, clean_close: bool) -> Path:
    """A history with one answer, then the folder made read-only: as a trainer killed mid-session leaves it
    (the -wal and -shm files beside the database) or as one closed cleanly leaves it (neither)."""
    home = tmp_path / "home"
    path = default_path(home / "billiards3d")
    s = Store(path)
    sid = s.new_session("russian-pyramid", "lamp", 1, [("pyramid-lamp", "russian-pyramid", "lamp")])
    s.record_answer(
        sid.id, 0, "pyramid-lamp", "russian-pyramid", "lamp", "legal", ["foul"], True, False, False
    )
    if clean_close:
        s.close()
        assert not path.with_name(path.name + "-wal").exists()
    for p in [home, path.parent, *path.parent.iterdir()]:
        p.chmod(0o555 if p.is_dir() else 0o444)
    return home


@pytest.mark.parametrize("clean_close", [False, True])
def test_history_works_in_a_read_only_data_folder(
    open_tmp: Path, other_user: User, clean_close: bool
) -> None:
    home = _read_only_history(open_tmp, clean_close)
    r = _train(home, "--history", user=other_user)
    assert r.returncode == 0, r.stderr[-2000:]
    # the first session, numbered as the plot numbers it
    assert "  1. " in r.stdout
    assert "1/1" in r.stdout


def test_a_session_in_a_read_only_data_folder_is_one_line_that_keeps_the_database(
    open_tmp: Path, other_user: User
) -> None:
    home = _read_only_history(open_tmp, True)
    db = default_path(home / "billiards3d")
    before = db.read_bytes()
    line = _one_line(_train(home, "--text", stdin="1\n", user=other_user))
    assert "read-only" in line
    assert "move" not in line
    assert "damaged" not in line
    assert db.read_bytes() == before


@pytest.mark.parametrize("attempted", [False, True])
def test_the_drills_list_works_in_a_read_only_data_folder(
    open_tmp: Path, other_user: User, attempted: bool
) -> None:
    """``drill --list`` only reads (attempts and success rates); before, it opened the database for writing
    and said the folder was read-only, exit 2."""
    from scenes.core.archive import Archive

    home = open_tmp / "home"
    with Archive(default_path(home / "billiards3d")) as arch:
        if attempted:
            arch.record_drill("pool-stop-shot-2", True, {})
    for p in [home, *home.rglob("*")]:
        p.chmod(0o555 if p.is_dir() else 0o444)
    r = subprocess.run(
        [*other_user.prefix, sys.executable, "main.py", "--lang", "en", "drill", "--list"],
        cwd=other_user.root,
        env=_env(home, other_user.root),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    line = next(ln for ln in r.stdout.splitlines() if "pool-stop-shot-2 " in ln)
    assert ("1 of 1" in line or "1/1" in line or "100" in line) if attempted else "not tried" in line, line
