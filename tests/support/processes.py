"""Stopping the servers and daemons the system tests start, each in a process group of its own."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess

# How long a stopped server may take to finish on its own before the rest of its group is killed: long enough
# for the webserver and daemon to close their storage, short of waiting on `dagster dev`'s code servers, which
# can outlive it by minutes (tests/system/test_dev_stops.py checks that `make dev` itself stops promptly).
GRACE_S = 5.0


def stop_group(process: subprocess.Popen, grace_s: float = GRACE_S) -> None:
    """SIGTERM to the process's group, then SIGKILL to whatever of it is left after `grace_s`."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=grace_s)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
