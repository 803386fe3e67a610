"""`make dev`: `dg dev` (the Dagster webserver and daemon on this project), stopped cleanly by SIGTERM too.

`dg dev` shuts its webserver and daemon down on Ctrl-C (SIGINT) but not promptly on SIGTERM, which is what a
process manager, `kill` or a CI step sends to a background `make dev`. This wrapper runs it in a process group of
its own, turns SIGTERM (and SIGHUP) into the SIGINT it handles, and kills whatever is left after a grace period,
so nothing keeps the port or the instance busy.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

GRACE_SECONDS = 15


def main(argv: list[str]) -> int:
    venv = Path(sys.executable).parent
    command = [str(venv / "dg"), "dev", "--no-check-yaml", *argv]
    child = subprocess.Popen(command, start_new_session=True,
                             env={**os.environ, "VIRTUAL_ENV": str(venv.parent)})

    def stop(signum: int, _frame) -> None:
        print(f"\nstopping Dagster ({signal.Signals(signum).name}) ...", file=sys.stderr, flush=True)
        _signal_group(child.pid, signal.SIGINT)

    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, stop)
    try:
        return child.wait()
    finally:
        try:
            child.wait(timeout=GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            _signal_group(child.pid, signal.SIGKILL)
            child.wait()
        _signal_group(child.pid, signal.SIGKILL)  # a webserver or daemon the CLI left behind


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
