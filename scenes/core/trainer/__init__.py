"""The referee trainer's application side: the case library of simulated strokes, questions, scoring,
sessions, the store and progress. The window's trainer screen and its phases live in ``scenes.trainer``."""
