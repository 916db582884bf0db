"""``python main.py validate``: the physics re-measured against its published sources (docs/physics.md §Validation).

Each validation fact simulates real strokes through the public entry (:func:`physics.simulate.simulate`), so it
measures whatever the physics is today, and sets them beside the published points or curve
(:mod:`physics.validation_models`). The result is plain data (:mod:`physics.validation_data`) - series to draw
and checks (published value, simulated value, tolerance) - which ``scenes/core/validate.py`` turns into plots, an
HTML page and the terminal table.
Nothing here draws.

``quick`` measures fewer points (CI); the full run is what the README's plots show.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from physics.validation_data import Fact

Measure = Callable[[bool], Fact]


def registry() -> tuple[tuple[str, Measure], ...]:
    """Every fact in the report's order (docs/physics.md §Validation: cushions, ball-ball, cue, cloth, jumps, pockets)."""
    from physics import validation_facts as V  # the facts pull the engine and Bullet: only when measuring

    return (
        ("cushion-speed", V.cushion_speed),
        ("cushion-angle", V.cushion_angle),
        ("throw", V.throw),
        ("squirt", V.squirt),
        ("draw-follow", V.draw_follow),
        ("masse", V.masse),
        ("jump", V.jump),
        ("rollout", V.rollout),
        ("slate-bounce", V.slate_bounce),
        ("pocket-target", V.pocket_target),
    )


def fact_ids() -> tuple[str, ...]:
    return tuple(fid for fid, _ in registry())


def run_validation(
    quick: bool = False, only: Sequence[str] = (), progress: Callable[[str], None] | None = None
) -> list[Fact]:
    """Measure every fact (or those in ``only``), in order."""
    out = []
    for fid, measure in registry():
        if only and fid not in only:
            continue
        if progress is not None:
            progress(fid)
        out.append(measure(quick))
    return out
