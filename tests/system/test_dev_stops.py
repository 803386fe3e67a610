"""`make dev` (scripts/dev.py around `dg dev`) run in the background stops cleanly when its process group gets
SIGTERM, as from a process manager or `kill`: the webserver and the daemon go, and the port is free again."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.dagster import local_dagster_home
from tests.support.paths import ROOT

pytestmark = pytest.mark.slow
START_S, STOP_S = 240, 60  # bounds on a shared machine, not speed claims


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/server_info", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def processes_of(dagster_home: Path) -> list[int]:
    """The processes running with this test's DAGSTER_HOME in their environment (dg dev, webserver, daemon)."""
    marker = f"DAGSTER_HOME={dagster_home}".encode()
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and marker in (proc / "environ").read_bytes().split(b"\0"):
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def test_make_dev_stops_on_sigterm_to_its_process_group(tmp_path):
    port = free_port()
    dagster_home = local_dagster_home(tmp_path / "dagster_home")
    env = {**os.environ, "DAGSTER_HOME": str(dagster_home),
           "COMBAT_ANALYSIS_HOME": str(tmp_path / "data"), "MPLBACKEND": "Agg"}
    with open(tmp_path / "dev.log", "w") as log:
        dev = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "dev.py"), "-h", "127.0.0.1", "-p", str(port)],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_S
        while not answers(port):
            assert dev.poll() is None, (tmp_path / "dev.log").read_text()
            assert time.monotonic() < deadline, "the webserver never answered"
            time.sleep(1)
        assert len(processes_of(dagster_home)) >= 3  # the wrapper, dg dev, and its webserver and daemon
        os.killpg(dev.pid, signal.SIGTERM)  # what `kill -- -PGID` of a background `make dev` does
        assert dev.wait(timeout=STOP_S) is not None
        deadline = time.monotonic() + STOP_S
        while processes_of(dagster_home) and time.monotonic() < deadline:
            time.sleep(1)
        assert processes_of(dagster_home) == [], "a Dagster process outlived `make dev`"
        assert not answers(port)
        assert "stopping Dagster (SIGTERM)" in (tmp_path / "dev.log").read_text()
    finally:
        if dev.poll() is None:
            os.killpg(dev.pid, signal.SIGKILL)
        for pid in processes_of(dagster_home):  # whatever outlived a failed stop, so no test leaks a server
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
