"""A test-only plugin for the crash-safety tests: a `combat-analysis` command (or a Python statement) run in this
process with the warehouse's writes wrapped, so that it stops at the step named by `COMBAT_ANALYSIS_PAUSE_AT`,
says so on stderr ("paused at <step>") and waits there to be killed. The kill points are exact, not timed, and
the shipped code carries no hook for them: the real functions are wrapped here, in the child process only.

    python -m tests.support.pausing ingest LOG          # the CLI's arguments
    python -m tests.support.pausing -c "from ... import compact; compact(...)"

The steps, in the order an ingest passes them: `surveyed`, `parsed`, `written:<table>` (that table's rows of a
match written in the open transaction), `uncommitted` (every table written, the commit not yet made),
`committed`, and a compaction's `merged-uncommitted` (a table's files merged, the commit not yet made).
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from combat_analysis.ingest import derive
from combat_analysis.ingest.run import _Run
from combat_analysis.warehouse import store

PAUSE_ENV = "COMBAT_ANALYSIS_PAUSE_AT"


def pause(point: str) -> None:
    sys.stderr.write(f"paused at {point}\n")
    sys.stderr.flush()
    while True:
        time.sleep(3600)


def _wrap(owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    original = getattr(owner, name)
    setattr(owner, name, functools.wraps(original)(make(original)))


def before(owner: Any, name: str, point: str) -> None:
    """Stop when `owner.name` is called, before it runs."""
    def make(original):
        def wrapper(*args, **kwargs):
            pause(point)
            return original(*args, **kwargs)
        return wrapper
    _wrap(owner, name, make)


# One call of a wrapped step at a time: the thread that pauses keeps it, so another writer thread cannot pass the same
# step (commit a second file) in the moment before the kill
_ONE_AT_A_TIME = threading.RLock()


def after(owner: Any, name: str, point: str, when: Callable[..., bool] = lambda *a, **k: True) -> None:
    """Stop once `owner.name` has returned (from a call that `when` accepts)."""
    def make(original):
        def wrapper(*args, **kwargs):
            with _ONE_AT_A_TIME:
                result = original(*args, **kwargs)
                if when(*args, **kwargs):
                    pause(point)
            return result
        return wrapper
    _wrap(owner, name, make)


def install(point: str) -> None:
    """Wrap the one function whose step is `point`."""
    if point.startswith("written:"):
        table = point.split(":", 1)[1]
        after(store, "replace_table", point, when=lambda cursor, name, match_id, select, **_: name == table)
        return
    steps: dict[str, Callable[[], None]] = {
        "surveyed": lambda: before(_Run, "_derive", point),
        "parsed": lambda: before(derive, "quarantined_lines", point),
        "uncommitted": lambda: after(store, "replace_match", point),
        "committed": lambda: after(store, "commit", point,
                                   when=lambda *a, **k: bool(k.get("info", {}).get("matches"))),
        "merged-uncommitted": lambda: after(store, "merge_table", point),
    }
    steps[point]()


def main(argv: list[str]) -> int:
    install(os.environ[PAUSE_ENV])
    if argv[:1] == ["-c"]:
        exec(argv[1], {"__name__": "__main__"})  # noqa: S102 - the test's own statement
        return 0
    from combat_analysis.app.main import main as cli

    return cli(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
