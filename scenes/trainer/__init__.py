"""The referee trainer: a case library of simulated strokes, questions, scoring, sessions and progress.

Everything here except ``screen.py`` is pure Python (no Panda3D), so the text trainer and the tests run
without a display.
"""
