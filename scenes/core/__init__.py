"""The application layer: what the window and the command line share, built on physics/ and rules/.

Modules here import neither ``panda3d`` nor ``direct`` themselves and no window module of ``scenes/``
(tests/test_architecture.py checks both, and that no window-free module is left outside): they run in a worker
process, a test or a terminal command. The match controller, settings, texts (i18n), statistics, drills,
archive, autosave, the trainer's cases, questions, sessions and store, and the computer opponent live here; the
window's screens, meshes, cameras and HUD drawing are the view around them.
"""
