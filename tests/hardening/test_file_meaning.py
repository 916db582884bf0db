"""Scenario files checked for what they mean, at every depth (issue 17 §1).

A file that parses as TOML can still describe something impossible: a recorded stroke whose events name a
ball that is not there, a NaN time, a pocket called "kitchen", a ball pocketed by the events but "on the
table" in the final, an object inside a ball, a typo three tables deep. Each is one InputError naming the
file, the full dotted key and what was expected; through main.py, one line and exit 2.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from physics.errors import InputError
from rules.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[2]

HEAD = """game = "russian-pyramid"
[balls]
cue = [-0.9, 0.0]
"7" = [0.4, 0.1]
"""
STRIKE = """
[[events]]
t = 0.0
type = "cue_strike"
ball = "cue"
"""
SHOT = """
[shot]
cue_speed = 3.0
"""


def _load(tmp_path: Path, text: str, name: str = "case.toml") -> object:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return load_scenario(p)


def _refused(tmp_path: Path, text: str, key: str, name: str = "case.toml") -> InputError:
    with pytest.raises(InputError) as exc:
        _load(tmp_path, text, name)
    assert exc.value.key == key, exc.value
    assert exc.value.file == str(tmp_path / name)
    return exc.value


def _event(**fields: object) -> str:
    out = "\n[[events]]\n"
    for k, v in fields.items():
        out += f"{k} = {_toml(v)}\n"
    return out


def _toml(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return repr(v)


def _final(ball: str, **fields: object) -> str:
    return f"\n[final.{ball}]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in fields.items())


POT_7 = _event(t=0.9, type="pocketed", ball="7", pocket="foot-left") + _final(
    "7", status="pocketed", pocket="foot-left"
)

# (what is wrong, the events/final text after HEAD + STRIKE, the key the error names)
RECORDED_BAD = [
    ("NaN time", _event(t=float("nan"), type="rest", ball="7"), "events[1].t"),
    ("infinite time", _event(t=float("inf"), type="rest", ball="7"), "events[1].t"),
    ("negative time", _event(t=-2.0, type="rest", ball="7"), "events[1].t"),
    (
        "times out of order",
        _event(t=1.0, type="rest", ball="7") + _event(t=0.5, type="rest", ball="cue"),
        "events[2].t",
    ),
    ("a ghost ball in an event", _event(t=0.5, type="rest", ball="9"), "events[1].ball"),
    ("a ghost ball in a pair", _event(t=0.5, type="ball_ball", balls=["cue", "9"]), "events[1].balls"),
    ("a ball meeting itself", _event(t=0.5, type="ball_ball", balls=["7", "7"]), "events[1].balls"),
    ("a ghost ball jumped over", _event(t=0.5, type="jumped_over", ball="cue", over="9"), "events[1].over"),
    ("a ghost ball in the final", _final("9", status="pocketed", pocket="foot-left"), "final.9"),
    (
        "pocket kitchen",
        _event(t=0.9, type="pocketed", ball="7", pocket="kitchen")
        + _final("7", status="pocketed", pocket="kitchen"),
        "events[1].pocket",
    ),
    ("pocket kitchen in the final", _final("7", status="pocketed", pocket="kitchen"), "final.7.pocket"),
    ("cushion sofa", _event(t=0.5, type="cushion", ball="7", cushion="sofa"), "events[1].cushion"),
    ("line nowhere", _event(t=0.5, type="line_crossed", ball="7", line="equator"), "events[1].line"),
    ("an unknown event type", _event(t=0.5, type="teleported", ball="7"), "events[1].type"),
    ("an unknown event key", _event(t=0.5, type="rest", ball="7", balll="7"), "events[1].balll"),
    ("a ball id that is a number", _event(t=0.5, type="rest", ball=7), "events[1].ball"),
    ("a pocketed event without its pocket", _event(t=0.5, type="pocketed", ball="7"), "events[1].pocket"),
    ("a cushion event without its ball", _event(t=0.5, type="cushion", cushion="foot"), "events[1].ball"),
    ("miscue not a flag", _event(t=0.0, type="cue_strike", ball="cue", miscue="no"), "events[1].miscue"),
    ("a NaN position", _event(t=0.5, type="rest", ball="7", pos=[0.1, float("nan"), 0.034]), "events[1].pos"),
    ("a position of 2 numbers", _event(t=0.5, type="rest", ball="7", pos=[0.1, 0.2]), "events[1].pos"),
    (
        "an infinite speed",
        _event(t=0.5, type="cushion", ball="7", cushion="foot", speed=float("inf")),
        "events[1].speed",
    ),
    (
        "a negative delay",
        _event(t=0.5, type="dropped", ball="7", pocket="foot-left", after=-1.0),
        "events[1].after",
    ),
    (
        "pocketed by the events, on the table in the final",
        _event(t=0.9, type="pocketed", ball="7", pocket="foot-left")
        + _final("7", status="on_table", pos=[0.4, 0.1, 0.034]),
        "final.7.status",
    ),
    (
        "pocketed by the events, absent from the final (so it stayed on the table)",
        _event(t=0.9, type="pocketed", ball="7", pocket="foot-left"),
        "final.7",
    ),
    (
        "pocketed in one pocket, final in another",
        _event(t=0.9, type="pocketed", ball="7", pocket="foot-left")
        + _final("7", status="pocketed", pocket="foot-right"),
        "final.7.pocket",
    ),
    (
        "pocketed in the final with no event pocketing it",
        _final("7", status="pocketed", pocket="foot-left"),
        "final.7.status",
    ),
    (
        "off the table by the events, on the table in the final",
        _event(t=0.9, type="off_table", ball="7", rest="floor")
        + _final("7", status="on_table", pos=[0.4, 0.1, 0.034]),
        "final.7.status",
    ),
    ("an unknown status", _final("7", status="lost"), "final.7.status"),
    ("on the table without a position", _final("7", status="on_table"), "final.7.pos"),
    ("on the table off the bed", _final("7", status="on_table", pos=[3.0, 0.1, 0.034]), "final.7.pos"),
    ("on the table in the air", _final("7", status="on_table", pos=[0.4, 0.1, 0.5]), "final.7.pos"),
    (
        "on the table inside another ball",
        _final("7", status="on_table", pos=[-0.88, 0.0, 0.034]),
        "final.7.pos",
    ),
    (
        "a NaN final position",
        _final("7", status="off_table", rest="floor", pos=[float("nan"), 0.0, -0.7]),
        "final.7.pos",
    ),
    (
        "an unknown final key",
        _final("7", status="pocketed", pocket="foot-left", pockett="x"),
        "final.7.pockett",
    ),
    ("final not a table", 'TOP:final = "all pocketed"\n', "final"),
    ("events not an array of tables", 'TOP:events = "none"\n', "events"),
]


@pytest.mark.parametrize(("what", "tail", "key"), RECORDED_BAD, ids=[c[0] for c in RECORDED_BAD])
def test_recorded_stroke_is_checked_for_meaning(tmp_path: Path, what: str, tail: str, key: str) -> None:
    if tail.startswith("TOP:"):  # a top-level key must come before the first table
        text = tail[4:] + HEAD + (STRIKE if "final" in tail else "")
    else:
        text = HEAD + STRIKE + tail
    _refused(tmp_path, text, key)


@pytest.mark.parametrize(("what", "tail", "key"), RECORDED_BAD[:12], ids=[c[0] for c in RECORDED_BAD[:12]])
def test_undisturbed_stroke_gets_the_same_checks(tmp_path: Path, what: str, tail: str, key: str) -> None:
    inner = tail.replace("[[events]]", "[[undisturbed.events]]").replace("[final.", "[undisturbed.final.")
    text = HEAD + STRIKE + POT_7 + STRIKE.replace("[[events]]", "[[undisturbed.events]]") + inner
    _refused(tmp_path, text, "undisturbed." + key)


def test_a_consistent_recorded_stroke_loads(tmp_path: Path) -> None:
    s = _load(
        tmp_path,
        HEAD
        + STRIKE
        + _event(t=0.4, type="ball_ball", balls=["cue", "7"], pos=[0.36, 0.09, 0.034])
        + _event(t=0.6, type="cushion", ball="7", cushion="left-foot", speed=1.2)
        + POT_7
        + _final("cue", status="on_table", pos=[0.1, 0.2, 0.034]),
    )
    assert s.recorded_final["7"].pocket == "foot-left"  # type: ignore[attr-defined]


def test_a_negative_duration_is_never_printed(tmp_path: Path) -> None:
    p = tmp_path / "neg.toml"
    p.write_text(HEAD + _event(t=-5.0, type="cue_strike", ball="cue"), encoding="utf-8")
    r = _main("referee", str(p))
    assert r.returncode == 2, r.stdout[-500:]
    assert r.stderr.strip().splitlines() == [
        f"error: {p}: events[0].t: " + r.stderr.split("events[0].t: ")[1].strip()
    ]
    assert "-5" not in r.stdout


@pytest.mark.parametrize("command", ["simulate", "referee"])
def test_a_ghost_ball_with_a_nan_time_is_one_line_exit_2(tmp_path: Path, command: str) -> None:
    p = tmp_path / "ghost.toml"
    p.write_text(
        HEAD + STRIKE + _event(t=float("nan"), type="pocketed", ball="9", pocket="kitchen"), encoding="utf-8"
    )
    r = _main(command, str(p), "--json", "-")
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"error: {p}: events[1]"), r.stderr
    assert r.stdout == ""


def _main(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "main.py", "--lang", "en", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


# --- [[objects]] ------------------------------------------------------------------------------

OBJECTS_BAD = [
    ('kind = "cue-on-rail"\nat = [0.0, 0.95, 0.0]\nlength = "long"', "objects[0].length"),
    ('kind = "cue-on-rail"\nat = [0.0, 0.95, 0.0]\nlength = 9.0', "objects[0].length"),
    ('kind = "chalk"\nat = [1.7, 0.95, 0.0]\ncolour = "blue"', "objects[0].colour"),
    ('kind = "chalk"\nat = [1.7, 0.95, 0.0]\nowner = "dog"', "objects[0].owner"),
    ('kind = "chalk"\nat = [1.7, 0.95, 0.0]\nowner = 1', "objects[0].owner"),
    ('kind = "lamp"\nat = [1.7, 0.95, 0.0]', "objects[0].kind"),
    ('kind = "chalk"\nat = [1.7, "x", 0.0]', "objects[0].at"),
    ('kind = "chalk"\nat = [1.7, 0.95]', "objects[0].at"),
    ('kind = "chalk"\nat = [25.0, 0.95, 0.0]', "objects[0].at"),
    # The chalk inside the cue ball, and a ball inside a cue lying on the bed.
    ('kind = "chalk"\nat = [-0.9, 0.0, 0.0]', "objects[0].at"),
    ('kind = "cue-on-rail"\nat = [0.4, 0.1, 0.0]', "objects[0].at"),
    # A person must stand beside the table, not on it: the file is named, not "scenario".
    ('kind = "person"\nat = [0.0, 0.0, 0.0]', "objects[0].at"),
]


@pytest.mark.parametrize(("body", "key"), OBJECTS_BAD)
def test_objects_are_checked_for_types_and_room(tmp_path: Path, body: str, key: str) -> None:
    _refused(tmp_path, HEAD + SHOT + "\n[[objects]]\n" + body + "\n", key)


@pytest.mark.parametrize("owner", ["striker", "opponent", "spectator", "referee"])
def test_object_owner_is_accepted(tmp_path: Path, owner: str) -> None:
    s = _load(
        tmp_path, HEAD + SHOT + f'\n[[objects]]\nkind = "person"\nat = [0.0, 1.3, 0.0]\nowner = "{owner}"\n'
    )
    assert len(s.objects) == 1  # type: ignore[attr-defined]


def test_an_object_error_through_main_names_the_file(tmp_path: Path) -> None:
    p = tmp_path / "objlen.toml"
    p.write_text(
        HEAD + SHOT + '\n[[objects]]\nkind = "cue-on-rail"\nat = [0.0, 0.95, 0.0]\nlength = "long"\n', "utf-8"
    )
    r = _main("simulate", str(p))
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [r.stderr.strip()]
    assert r.stderr.startswith(f"error: {p}: objects[0].length: ")


# --- unknown keys at every depth -----------------------------------------------------------------

UNKNOWN_KEYS = [
    (HEAD + '\n[shot]\ncue_speed = 3.0\ncall = { balll = "7" }\n', "shot.call.balll"),
    (HEAD + SHOT + '\n[meta]\ntopicc = "jump"\n', "meta.topicc"),
    (HEAD + SHOT + '\n[expected."russian-pyramid"]\nfoull = true\n', "expected.russian-pyramid.foull"),
    (HEAD + SHOT + "\n[expected.chess]\nfoul = true\n", "expected.chess"),
    (HEAD + SHOT + '\n[expected]\n"russian-pyramid" = 3\n', "expected.russian-pyramid"),
    ('title = { en = "A", ru = "Б", de = "C" }\n' + HEAD + SHOT, "title.de"),
    (HEAD + STRIKE + "\n[undisturbed]\nevent = []\n", "undisturbed.event"),
]


@pytest.mark.parametrize(("text", "key"), UNKNOWN_KEYS, ids=[k for _t, k in UNKNOWN_KEYS])
def test_unknown_keys_are_refused_with_their_full_path(tmp_path: Path, text: str, key: str) -> None:
    _refused(tmp_path, text, key)


# --- limits before parsing -------------------------------------------------------------------------


def test_a_huge_scenario_is_refused_before_parsing(tmp_path: Path) -> None:
    big = HEAD + SHOT + "\n# " + "x" * (5 * 1024 * 1024) + "\n"
    e = _refused(tmp_path, big, "file")
    assert "MB" in e.expected or "kB" in e.expected or "bytes" in e.expected


@pytest.mark.parametrize("opener", ["[", "{ a = "])
def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path: Path, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    _refused(tmp_path, HEAD + SHOT + "x = " + opener * 900 + "1" + closer * 900 + "\n", "file")


def test_deep_nesting_through_main_is_one_line(tmp_path: Path) -> None:
    p = tmp_path / "deep.toml"
    p.write_text("x = " + "[" * 900 + "]" * 900 + "\n", encoding="utf-8")
    r = _main("referee", str(p))
    assert r.returncode == 2, r.stderr[-500:]
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr[-500:]
    assert "nesting" in r.stderr


def test_brackets_inside_strings_and_comments_do_not_count(tmp_path: Path) -> None:
    s = _load(
        tmp_path,
        'title = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n# {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n' + HEAD + SHOT,
    )
    assert s.title["en"].startswith("[[[")  # type: ignore[attr-defined]


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbf" + (HEAD + SHOT).encode("utf-8"))
    assert load_scenario(p).balls["7"] == (0.4, 0.1)


def test_a_settings_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    from scenes.core.settings import load_settings

    p = tmp_path / "settings.toml"
    p.write_bytes(b"\xef\xbb\xbf" + (ROOT / "settings.toml").read_bytes())
    assert load_settings(p).display.width > 0


# --- bound messages print the true bound ------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "axis"), [("pool-9ft", 1), ("pool-9ft", 0), ("pyramid-12ft", 1), ("snooker-12ft", 0)]
)
def test_the_printed_bound_is_accepted_and_just_beyond_is_refused(
    tmp_path: Path, table: str, axis: int
) -> None:
    """Along a cushion (away from the pockets, whose mouths take a ball beyond the noses)."""
    far = [0.5, 0.5]
    far[axis] = 5.0
    e = _refused(tmp_path, f'table = "{table}"\n[balls]\ncue = [{far[0]}, {far[1]}]\n', "balls.cue")
    bound = float(re.findall(r"\|[xy]\| <= ([0-9.]+)", e.expected)[axis])
    at = [0.0, 0.0]
    at[1 - axis] = 0.5  # 0.5 m along the cushion from its middle: no pocket there
    at[axis] = bound
    _load(tmp_path, f'table = "{table}"\n[balls]\ncue = [{at[0]!r}, {at[1]!r}]\n', "ok.toml")
    at[axis] = bound + 2e-5
    _refused(
        tmp_path, f'table = "{table}"\n[balls]\ncue = [{at[0]!r}, {at[1]!r}]\n', "balls.cue", "beyond.toml"
    )


# --- one set of limits: what the physics writes, a file may carry back ------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_every_record_the_physics_writes_reads_back_as_a_recorded_stroke(seed: int) -> None:
    """A stroke's JSON events and final, pasted into a scenario, pass every meaning check (checked over
    1,088 random strokes while writing them; 40 here)."""
    from physics.simulate import simulate
    from rules.scenarios import parse_scenario
    from tests.hardening.strategies import draw_stroke

    s = draw_stroke(seed)
    base = {"table": s.table, "balls": {b: list(p) for b, p in s.balls.items()}}
    try:
        parse_scenario(base, "layout")
    except InputError:
        pytest.skip("a layout only simulate() takes (a ball in a pocket's jaws)")
    d = simulate(s.table, s.balls, s.shot, objects=s.objects, lamp=s.lamp).to_dict()
    sc = parse_scenario({**base, "events": d["events"], "final": d["final"]}, "record")
    assert len(sc.recorded_events or ()) == len(d["events"])


def test_object_sizes_are_the_physics_bodies_sizes() -> None:
    from physics import geometry, objects

    assert objects.CHALK_SIZE == geometry.CHALK_SIZE
    assert objects.PERSON_SIZE == geometry.PERSON_SIZE
    assert objects.CUE_LENGTH == geometry.CUE_LENGTH
    assert objects.CUE_RADIUS == geometry.CUE_RADIUS
