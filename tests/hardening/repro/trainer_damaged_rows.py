"""Reproducer: a trainer database with a damaged row makes `main.py train --text --history` fail with
"internal error ... exit 1" instead of one InputError line and exit 2.

    python tests/hardening/repro/trainer_damaged_rows.py /tmp/repro-data
    XDG_DATA_HOME=/tmp/repro-data python main.py --lang en train --text --history; echo "exit $?"

Seen: ``internal error: JSONDecodeError: Expecting value: line 1 column 1 (char 0)``, exit 1
(``items = '[1, 2, 3]'``: ``TypeError: 'int' object is not iterable``; ``position = 'two'``:
``ValueError: invalid literal for int()``). Expected: ``error: <db path>: sessions.items: ...``, exit 2,
the file untouched. Cause: scenes/core/trainer/store.py ``_session_row`` trusts every column.
"""

import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from scenes.core.trainer.store import Store, default_path  # noqa: E402

path = default_path(Path(sys.argv[1]) / "billiards3d")
with Store(path) as s:
    s.new_session("russian-pyramid", None, 1, [("case-a", "russian-pyramid", "jump")])
con = sqlite3.connect(path)
con.execute("UPDATE sessions SET items = 'case-a, case-b'")
con.commit()
con.close()
print(path)
