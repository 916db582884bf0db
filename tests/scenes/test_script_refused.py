"""A script action the app cannot carry out where the script stands is the script file's one-line error.

Found by running scripts as a user would (issue 17, second pass): ``aim_at`` a ball that is not on the table
was an internal KeyError; a call of pocket "kitchen" or of a ball not on the table reached the physics worker,
whose error broke the worker pool (BrokenProcessPool); a ball in hand placed off the table, or an action the
screen in front does not have, was an internal RuntimeError printed with Panda3D's traceback.
"""

from __future__ import annotations

from typing import Any

import pytest

from physics.errors import InputError

START = [{"do": "start", "game": "russian-pyramid"}, {"do": "frames", "n": 2}]


def _run(app: Any, actions: list[dict[str, Any]], frames: int = 400) -> None:
    from scenes.app import ScriptRunner

    runner = ScriptRunner(app, actions, file="s.json")
    for _ in range(frames):
        if not runner.step(1 / 60):
            return
        app.base.taskMgr.step()


@pytest.mark.parametrize(
    ("action", "key", "words"),
    [
        ({"do": "aim_at", "ball": "99"}, "actions[2].ball", "a ball on the table ("),
        ({"do": "call", "ball": "1", "pocket": "kitchen"}, "actions[2].pocket", "a pocket of pyramid-12ft"),
        ({"do": "call", "ball": "red1", "pocket": "foot-left"}, "actions[2].ball", "a ball on the table"),
        ({"do": "place_cue", "at": [9.0, 9.0]}, "actions[2].at", "a place the ball in hand may go now"),
        ({"do": "choose", "index": 3}, "actions[2]", "an action of the play screen"),
        ({"do": "trainer_next"}, "actions[2]", "an action of the play screen"),
    ],
)
def test_an_action_the_play_screen_cannot_carry_out_names_the_file_and_the_action(
    app: Any, action: dict[str, Any], key: str, words: str
) -> None:
    with pytest.raises(InputError) as exc:
        _run(app, [*START, action])
    assert exc.value.file == "s.json", exc.value
    assert exc.value.key == key, exc.value
    assert words in exc.value.expected, exc.value


def test_an_action_of_another_screen_is_refused_on_the_menu(app: Any) -> None:
    with pytest.raises(InputError) as exc:
        _run(app, [{"do": "menu"}, {"do": "choose", "index": 999}])
    assert exc.value.key == "actions[1]"
    assert "menu screen" in exc.value.expected


def test_a_wait_that_runs_out_is_the_scripts_timeout(app: Any) -> None:
    from scenes.app import ScriptRunner

    runner = ScriptRunner(
        app,
        [*START, {"do": "power", "speed": 3.0}, {"do": "shoot"}, {"do": "wait_rest", "timeout": 0.0}],
        file="s.json",
    )
    with pytest.raises(InputError) as exc:
        for _ in range(50):
            runner.step(0.5)
            app.base.taskMgr.step()
    assert exc.value.key == "actions[4].timeout"
    assert "the app ready within 0 s" in exc.value.expected


def test_a_call_on_the_break_is_refused_aloud_and_a_call_after_it_is_ringed_on_the_table(app: Any) -> None:
    """Issue 26 §4: the call made before the break was dropped silently, and a call was never shown on the table;
    the prompt now says the call is a right click."""
    from rules.notation import record
    from scenes.core.i18n import tr

    _run(app, START)
    play = app.manager.current
    m = play.match
    assert str(m.state.phase) == "break"
    with pytest.raises(InputError) as exc:
        _run(app, [{"do": "call", "ball": "1", "pocket": "foot-left"}])
    assert "the break takes none" in exc.value.expected
    assert play.status == tr("status.no_call_on_break", app.ctx.settings.lang)
    assert m.call_ball is None
    # After a break that counted nothing, the next player calls: the ball and the pocket are ringed.
    layout = " ".join(f"{b}={x},{y}" for b, (x, y) in m.state.balls.items()) + " cue=-0.7,0"
    m.judge(record(layout, "cue>1 1|foot 2|foot 3|head 4|foot"))
    m.apply(None)
    play._after_stroke_or_start()
    assert m.needs_call
    assert "right" in tr("hud.call_none", "en")
    assert "правой" in tr("hud.call_none", "ru")
    _run(app, [{"do": "call", "ball": "1", "pocket": "foot-left"}])
    marks = play.view._highlights
    assert "call-ball" in marks
    assert "call-pocket" in marks
    ring = marks["call-pocket"][0].getPos(play.view.root)
    assert (ring.x, ring.y) == pytest.approx(m.spec.pockets["foot-left"].centre, abs=1e-6)
    _run(app, [{"do": "call"}])  # the call withdrawn: the rings go
    assert "call-ball" not in play.view._highlights
    assert "call-pocket" not in play.view._highlights
