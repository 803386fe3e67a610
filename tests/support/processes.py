"""Processes the tests start: stopping servers and daemons, each in a process group of its own, and measuring a
command's own peak memory."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

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


# Runs a module as `python -m` would, then writes the process's VmHWM at exit. The kernel's ru_maxrss is no use
# here: across fork and exec it keeps the parent's peak, so a child of a pytest worker that has grown past 1 GB
# would report the worker's memory, not its own.
_WITH_PEAK = """
import atexit, os, runpy, sys

def _record():
    with open('/proc/self/status') as status:
        peak = next(line.split()[1] for line in status if line.startswith('VmHWM:'))
    with open(os.environ['PEAK_RSS_FILE'], 'w') as out:
        out.write(peak)

atexit.register(_record)
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)
"""


def run_module_with_peak(module: str, args: list[str], *, env: dict[str, str], cwd: Path,
                         peak_file: Path) -> tuple[subprocess.CompletedProcess, int]:
    """Run `python -m module args`; return the finished run and its own peak resident memory in KB."""
    run = subprocess.run([sys.executable, "-c", _WITH_PEAK, module, *args], env={**env, "PEAK_RSS_FILE": str(peak_file)},
                         cwd=cwd, capture_output=True, text=True, timeout=300)
    return run, int(peak_file.read_text())
