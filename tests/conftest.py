"""Every test, and every process a test starts, keeps its progress (the trainer's database, the match autosave)
in a data folder of this test process: never the user's own, and never one another process of a parallel
run (``pytest -n``) is writing. A test that needs its own sets XDG_DATA_HOME or ``[trainer] data_dir``."""

import atexit
import os
import shutil
import tempfile

_DATA = tempfile.mkdtemp(prefix="billiards-test-data-")
os.environ["XDG_DATA_HOME"] = _DATA
atexit.register(shutil.rmtree, _DATA, ignore_errors=True)
