"""The trainer screen's parts (``scenes/trainer/screen.py`` owns one of each and keeps what they share: the
session, the case shown, the phase, the widgets). Each part keeps its own state and widgets:

- ``layout.py``: the 3D view beside the panel, and the scrolled panel the answer and the verdict are drawn in;
- ``pick.py``: the trainee, the rulebook, the topic and the session's length;
- ``watch.py``: the replay with the director's camera, the case's header and clock, the replay controls;
- ``answer.py``: the questions, one at a time;
- ``verdict.py``: each answer against its question, the ruling and the rule quoted;
- ``exam.py``: the exam's rules, time and replays, and its report;
- ``score.py``: the session's score and the variations of the missed cases;
- ``history.py``: the progress by topic and rulebook, and its plot.

Like the screen, these use Panda3D (imported where a widget is made).
"""
