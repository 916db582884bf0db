"""Broken files never crash: any bytes as settings.toml or a scenario file either load or raise InputError."""

from __future__ import annotations

import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from physics.errors import InputError
from physics.file_checks import rests_on_bed
from rules.scenarios import parse_scenario
from scenes.core.settings import parse_settings

SETTINGS_TEXT = (__import__("pathlib").Path(__file__).resolve().parent.parent / "settings.toml").read_text(
    "utf-8"
)

toml_scalars = st.one_of(
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=12),
    st.lists(st.floats(-5, 5), max_size=4),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "display",
                "language",
                "physics",
                "room",
                "game",
                "players",
                "sound",
                "trainer",
                "controls",
                "bogus",
            ]
        ),
        st.dictionaries(
            st.sampled_from(
                [
                    "width",
                    "ui",
                    "substep_hz",
                    "mu_slide",
                    "lamp_height",
                    "default",
                    "names",
                    "enabled",
                    "volume",
                    "shoot",
                    "x",
                ]
            ),
            toml_scalars,
            max_size=4,
        ),
        max_size=5,
    )
)
def test_settings_fuzz(data: dict) -> None:
    try:
        parse_settings(data, "fuzz.toml")
    except InputError as exc:
        assert exc.file == "fuzz.toml"
        assert exc.key


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(SETTINGS_TEXT)), st.binary(max_size=8))
def test_settings_truncated_or_corrupted(cut: int, junk: bytes) -> None:
    raw = SETTINGS_TEXT.encode()[:cut] + junk
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return  # load_settings turns these into InputError (tested in test_settings)
    try:
        parse_settings(data, "fuzz.toml")
    except InputError:
        pass


ball_ids = st.sampled_from(["cue", "1", "7", "15", "red3", "black", "16", "ball", "pink"])
positions = st.one_of(
    st.lists(st.one_of(st.floats(-3, 3), st.just(float("nan"))), min_size=0, max_size=3), st.text(max_size=3)
)


@settings(max_examples=300, deadline=None)
@given(
    game=st.sampled_from(["russian-pyramid", "snooker", "pool-9-ball", "golf", "practice", "nope", 3]),
    balls=st.dictionaries(ball_ids, positions, max_size=5),
    shot=st.dictionaries(
        st.sampled_from(["cue_speed", "direction", "elevation", "tip", "ball", "call", "spin"]),
        toml_scalars,
        max_size=5,
    ),
    objects=st.lists(
        st.dictionaries(
            st.sampled_from(["kind", "at"]),
            st.one_of(st.sampled_from(["chalk", "person", "lamp"]), positions),
        ),
        max_size=2,
    ),
)
def test_scenario_fuzz(game: object, balls: dict, shot: dict, objects: list) -> None:
    try:
        s = parse_scenario({"game": game, "balls": balls, "shot": shot, "objects": objects}, "fuzz.toml")
    except InputError as exc:
        assert exc.file == "fuzz.toml"
        assert exc.key
        return
    # What loads is physically sound: on the bed, no overlaps, a finite stroke.
    R = s.table.ball_radius
    pts = list(s.balls.values())
    for i, (x, y) in enumerate(pts):
        assert rests_on_bed(s.table, x, y)  # inside the noses, or in a pocket's mouth clear of its jaws
        for ox, oy in pts[i + 1 :]:
            assert (x - ox) ** 2 + (y - oy) ** 2 >= (2 * R - 2e-4) ** 2
    if s.shot is not None:
        assert 0 <= s.shot.cue_speed <= 20
        assert 0 <= s.shot.elevation <= 90
