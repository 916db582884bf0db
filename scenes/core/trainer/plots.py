"""Progress pictures: the weighted score per topic and per rulebook over a trainee's sessions.

matplotlib draws them (``train --history --plot [PNG]`` and the history screen of the 3D trainer); it is
imported here only, with the Agg backend (no display needed).
"""

from __future__ import annotations

import io
from pathlib import Path

from physics.errors import InputError
from physics.files import atomic_bytes
from scenes.core.i18n import game_name, tr
from scenes.core.trainer.store import Store
from scenes.core.trainer.text import topic_title
from scenes.core.trainer.verdict import trainee_name


def series(store: Store, profile_id: int, by: str) -> dict[str, list[tuple[int, float]]]:
    """For each topic (or rulebook): (session number, weighted score in %) of every session that asked it,
    the score counting all answers of that key up to and including the session (the trainee's standing)."""
    sessions = [s.id for s in store.sessions(profile_id)]
    order = {sid: k + 1 for k, sid in enumerate(sessions)}
    rows = store.answer_rows(profile_id=profile_id)
    sums: dict[str, list[float]] = {}
    out: dict[str, list[tuple[int, float]]] = {}
    for sid in sessions:
        mine = [r for r in rows if r.session_id == sid]
        keys = sorted({r.topic if by == "topic" else r.game for r in mine})
        for r in mine:
            k = r.topic if by == "topic" else r.game
            acc = sums.setdefault(k, [0.0, 0.0])
            acc[0] += r.weight * r.correct
            acc[1] += r.weight
        for k in keys:
            got, possible = sums[k]
            out.setdefault(k, []).append((order[sid], 100.0 * got / possible if possible else 0.0))
    return out


def plot_progress(store: Store, profile_id: int, path: Path, lang: str, name: str | None = None) -> Path:
    """Write the progress plot (two panels: by topic, by rulebook) to ``path`` (.png)."""
    if path.suffix.lower() != ".png":
        raise InputError("--plot", str(path), "a path ending in .png")
    if not path.parent.exists():
        raise InputError("--plot", str(path), f"a path in an existing folder ({path.parent} does not exist)")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(1, 2, figsize=(12.8, 5.4), dpi=100, sharey=True)
    for ax, by, title in (
        (axes[0], "topic", tr("trainer.by_topic", lang)),
        (axes[1], "game", tr("trainer.by_game", lang)),
    ):
        data = series(store, profile_id, by)
        for k, pts in sorted(data.items()):
            label = topic_title(k, lang) if by == "topic" else game_name(k, lang)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
        ax.set_title(title)
        ax.set_xlabel(tr("trainer.plot.session", lang))
        last = max((p[0] for pts in data.values() for p in pts), default=1)
        ax.set_xlim(0.5, last + 0.5)
        if last <= 20:
            ax.set_xticks(range(1, last + 1))
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(0, 105)
        ax.grid(True, alpha=0.3)
        if data:
            ax.legend(fontsize=7, loc="lower right")
        else:
            ax.text(0.5, 0.5, tr("trainer.plot.empty", lang), ha="center", transform=ax.transAxes)
    axes[0].set_ylabel(tr("trainer.plot.score", lang))
    fig.suptitle(
        tr("trainer.plot.title", lang, name=trainee_name(name or store.profile_name(profile_id), lang))
    )
    fig.tight_layout()
    picture = io.BytesIO()
    try:
        fig.savefig(picture, format=path.suffix.lstrip(".").lower() or "png")
    finally:
        plt.close(fig)
    # Atomically (physics.files): a full disk leaves the last plot as it was, not an empty file.
    atomic_bytes(path, "--plot", picture.getvalue())
    return path
