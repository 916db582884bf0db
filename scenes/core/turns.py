"""What happens between two strokes, shared by the window's match controller and the computer player.

:func:`offered_options`: the choices a ruling leaves the next player, as the window offers them (the
referee's options, the ball to remove, and leaving them: :data:`ACCEPT`); :func:`break_gain`: what a legal
stroke adds to the striker's break. Moved here from ``scenes/core/match.py`` unchanged, so the computer decides
among exactly what a person is offered.
"""

from __future__ import annotations

from typing import Any

from rules.contract import Option

ACCEPT = "accept_table"  # a decision of the window's: none of the ruling's options, the ruling as it stands


def offered_options(ruling: Any, n_players: int) -> tuple[str, ...]:
    """What the next player must or may choose before play goes on after ``ruling`` (empty: nothing)."""
    if ruling is None:
        return ()
    opts: list[str] = []
    for o in ruling.options:
        if o == Option.LAG:
            # The lag's winner is entered by the players (they play it on the table themselves).
            opts += [f"lag:{i}" for i in range(n_players)]
        elif o != Option.REMOVE_BALL:
            opts.append(str(o))
    if ruling.choice is not None:
        opts += list(ruling.choice.among)
    elif opts and Option.LAG not in ruling.options:
        # Every option is the next player's to take or leave: leaving them is a choice too (the ruling as
        # it stands, the incoming player at the table), and the window must offer it.
        opts.append(ACCEPT)
    return tuple(opts)


def decision_of(option: str | None) -> str | None:
    """The decision ``MatchState.apply`` takes for an offered option (:data:`ACCEPT` is none)."""
    return None if option in (None, ACCEPT) else option


def break_gain(ruling: Any) -> int:
    """What a legal stroke adds to the striker's break: its points where the game scores them (the pyramids,
    snooker, 14.1), the balls it potted where only frames count (8-ball, 9-ball: a run of balls)."""
    striker = ruling.striker
    points = int(ruling.points[striker]) if striker < len(ruling.points) else 0
    if points == 0 and not any(ruling.points):
        return len(ruling.counted)
    return max(0, points)
