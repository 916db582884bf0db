"""The frame benchmark's figures hang together (no timing asserts: speed is for ``python main.py bench``)."""

from __future__ import annotations

from typing import Any

import pytest

from scenes.bench import FRAME_MS, format_frame_bench, frame_bench
from scenes.core.settings import Settings


def test_frame_bench_reports_consistent_shares(offscreen_base: Any) -> None:
    r = frame_bench(Settings(), base=offscreen_base, frames=12)
    assert r["balls"] == 16
    assert r["frames_measured"] == 12
    assert 0 < r["mean_moving_balls"] <= 16
    for key in ("physics_ms_per_frame", "scene_update_ms", "cull_traversal_ms", "draw_ms"):
        assert r[key] >= 0.0, key
    assert r["cull_traversal_ms"] <= r["scene_update_ms"]
    assert r["physics_share"] == pytest.approx(r["physics_ms_per_frame"] / FRAME_MS, abs=1e-3)
    assert r["physics_plus_scene_share"] == pytest.approx(
        (r["physics_ms_per_frame"] + r["scene_update_ms"]) / FRAME_MS, abs=1e-3
    )
    assert r["ok"] == (r["physics_plus_scene_share"] < 0.5)
    for lang, word in (("en", "physics"), ("ru", "физика")):
        text = format_frame_bench(r, lang)
        assert word in text
        assert len(text.splitlines()) == 5


def test_the_quality_figures_read_in_one_language() -> None:
    from scenes.bench import format_quality_bench

    r = {
        "renderer": "llvmpipe",
        "results": [{"quality": "high", "size": "640x360", "median_ms": 812.0, "fps": 1.2}],
    }
    ru, en = format_quality_bench(r, "ru"), format_quality_bench(r, "en")
    assert "высокое" in ru
    assert "мс" in ru
    assert "high" not in ru
    assert "high" in en
    assert " ms " in en
    assert "мс" not in en
    assert format_quality_bench({"error": "no EGL"}, "ru").startswith("Время кадра")
