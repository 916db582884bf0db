"""The application layer: what the window and the command line share, built on physics/ and rules/.

Modules here import neither ``panda3d`` nor ``direct`` themselves (tests/test_architecture.py checks it) and no
window module of ``scenes/``: they can run in a worker process, a test or a terminal command. The physics they
call runs on Bullet, but through ``physics.simulate`` only. The other window-free modules of ``scenes/`` (the
match controller, the statistics...) are to move here as the architecture issue goes on.
"""
