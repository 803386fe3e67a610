"""A test-only plugin for the crash-safety tests: a `combat-analysis` command (or a Python statement) run in this
process with the warehouse's writes wrapped, so that it stops at the step named by `COMBAT_ANALYSIS_PAUSE_AT`,
says so on stderr ("paused at <step>") and waits there to be killed. The kill points are exact, not timed, and
the shipped code carries no hook for them: the real functions are wrapped here, in the child process only.

    python -m tests.support.pausing ingest LOG          # the CLI's arguments
    python -m tests.support.pausing -c "from ... import compact; compact(...)"

The steps, in the order an ingest passes them: `scratch-created`, `surveyed`, `parsed`,
`staged-table:<table>`, `staged`, `digest-temp-written`, `digest-indexed`, `garbage-marked`,
`snapshot-placed`, `pointer-temp-written`, `committed`, `swept`; and a compaction's
`layer-pointer-temp-written`. A `*-temp-written` step is inside an atomic write: the temporary file is
written and flushed, the replacement not yet made.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
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


def after(owner: Any, name: str, point: str, when: Callable[..., bool] = lambda *a, **k: True) -> None:
    """Stop once `owner.name` has returned (from a call that `when` accepts)."""
    def make(original):
        def wrapper(*args, **kwargs):
            result = original(*args, **kwargs)
            if when(*args, **kwargs):
                pause(point)
            return result
        return wrapper
    _wrap(owner, name, make)


def before_replacing(owner: Any, name: str, point: str, target: Callable[..., Path]) -> None:
    """Stop inside `owner.name` when it is about to replace the file `target(*its arguments)`: the temporary file
    of the atomic write is written and flushed, `os.replace` not yet done."""
    def make(original):
        def wrapper(*args, **kwargs):
            expected = Path(target(*args, **kwargs))
            real = os.replace

            def replace(src, dst, *rest, **options):
                if Path(dst) == expected:
                    pause(point)
                return real(src, dst, *rest, **options)

            os.replace = replace
            try:
                return original(*args, **kwargs)
            finally:
                os.replace = real
        return wrapper
    _wrap(owner, name, make)


def install(point: str) -> None:
    """Wrap the one function whose step is `point`."""
    if point.startswith("staged-table:"):
        table = point.split(":", 1)[1]
        after(derive, "copy_table", point, when=lambda con, seg, folder, name: name == table)
        return
    steps: dict[str, Callable[[], None]] = {
        "scratch-created": lambda: before(store, "sweep_garbage", point),
        "surveyed": lambda: before(_Run, "_derive", point),
        "parsed": lambda: before(derive, "quarantined_lines", point),
        "staged": lambda: before(store, "write_digest_entry", point),
        "digest-temp-written": lambda: before_replacing(
            store, "write_digest_entry", point, lambda root, sha256, snapshots: store.digest_entry_path(root, sha256)),
        "digest-indexed": lambda: after(store, "write_digest_entry", point),
        "garbage-marked": lambda: after(store, "mark_garbage", point),
        "snapshot-placed": lambda: after(store, "place_snapshot", point),
        "pointer-temp-written": lambda: before_replacing(
            store, "publish", point, lambda folder, snapshot_name: Path(folder) / store.POINTER),
        "committed": lambda: after(store, "publish", point),
        "swept": lambda: after(store, "forget_digest", point),
        "layer-pointer-temp-written": lambda: before_replacing(
            store, "compact", point, lambda root, *args, **kwargs: Path(root) / store.LAYER_DIR / store.POINTER),
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
