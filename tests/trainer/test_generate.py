"""Generated cases land in the requested category, load as cases, and carry the referee's rulings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from physics.errors import InputError
from physics.record import ShotParams
from scenes.core.settings import Settings
from scenes.core.trainer.cases import Expected, load_case, load_library, record_for, rule
from scenes.core.trainer.generate import CATEGORIES, SIGMA_DIRECTION, category_of, features, generate, vary

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = Settings()


@pytest.mark.parametrize(("game", "category"), [("russian-pyramid", "jumped_over"), ("snooker", "foul")])
def test_generated_cases_are_in_the_category(tmp_path: Path, game: str, category: str) -> None:
    library = load_library()
    paths = generate(library, 2, game, category, 1, tmp_path, SETTINGS)
    assert len(paths) == 2
    for p in paths:
        case = load_case(p)
        assert game in case.games
        record = record_for(case, SETTINGS)
        ruling = rule(case, record, game)
        assert CATEGORIES[category_of(category)](features(record), ruling)
        for g in case.games:
            assert not case.expected[g].differences(Expected.from_ruling(rule(case, record, g), record))
    # Same seed, same files, bit for bit.
    again = generate(library, 2, game, category, 1, tmp_path / "again", SETTINGS)
    assert [p.read_bytes() for p in paths] == [p.read_bytes() for p in again]


def test_noise_model_statistics() -> None:
    import random

    rng = random.Random(0)
    base = ShotParams(cue_speed=4.0, direction=10.0, elevation=30.0, tip=(0.0, 0.1))
    d = [vary(base, 0.034, rng, 1.0).direction - 10.0 for _ in range(4000)]
    mean = sum(d) / len(d)
    sd = (sum((x - mean) ** 2 for x in d) / (len(d) - 1)) ** 0.5
    # docs/physics.md §Cues: sigma 0.125 deg; 4000 samples give the SD within about 3 % (rounding to 1e-4 deg).
    assert abs(mean) < 0.01
    assert abs(sd - SIGMA_DIRECTION) < 0.006


def test_bad_category_and_game() -> None:
    with pytest.raises(InputError):
        category_of("teleported")
    with pytest.raises(InputError):
        generate(load_library(), 1, "chess", None, 0, Path("/nonexistent"), SETTINGS)


def test_generate_command_line(tmp_path: Path) -> None:
    r = subprocess.run(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "--lang",
            "en",
            "train",
            "--generate",
            "1",
            "--game",
            "russian-pyramid",
            "--category",
            "bogus",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "--category" in r.stderr


def test_generated_cases_pass_the_library_s_row_checks(tmp_path: Path) -> None:
    """`--generate` and the variations of a missed case keep only strokes that show their row cleanly."""
    from scenes.core.trainer.cases import rule_all
    from scenes.core.trainer.generate import variations
    from scenes.core.trainer.rows import case_problems

    library = load_library()
    for p in generate(library, 2, "pool-9-ball", "airborne", 5, tmp_path / "gen", SETTINGS):
        case = load_case(p)
        record = record_for(case, SETTINGS)
        assert not case_problems(case, record, rule_all(case, record)), p
    base = next(c for c in library if c.id == "pyramid-jump-over-blocker")
    made = variations(base, "russian-pyramid", 2, 1, tmp_path / "var", SETTINGS)
    assert made
    assert all(p.name.startswith("var-pyramid-jump-over-blocker-") for p in made)
    for p in made:
        case = load_case(p)
        assert case.topic == base.topic
        assert case.subject == base.subject
        assert case.row == 7
        record = record_for(case, SETTINGS)
        assert not case_problems(case, record, rule_all(case, record)), p
