"""`make dev`: `dg dev` (the Dagster webserver and daemon on this project), stopped cleanly by SIGTERM too, with
the report server beside it, so a materialization's `report_url` opens the report in one click.

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
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the checkout

from combat_analysis.app.report_server import DEFAULT_PORT, REPORTS_URL_ENV, make_server  # noqa: E402
from combat_analysis.settings import Paths  # noqa: E402

GRACE_SECONDS = 15


def start_report_server() -> str:
    """The data home's reports on http://127.0.0.1:3001 (or a free port if that one is taken); its address."""
    home = Paths.from_env().home
    try:
        server = make_server(home, port=int(os.environ.get("COMBAT_ANALYSIS_REPORTS_PORT", DEFAULT_PORT)))
    except OSError:
        server = make_server(home, port=0)
    threading.Thread(target=server.serve_forever, name="reports", daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    print(f"reports of {home} on {url} (report_url links there)", file=sys.stderr, flush=True)
    return url


def main(argv: list[str]) -> int:
    venv = Path(sys.executable).parent
    command = [str(venv / "dg"), "dev", "--no-check-yaml", *argv]
    reports_url = os.environ.get(REPORTS_URL_ENV) or start_report_server()
    child = subprocess.Popen(command, start_new_session=True,
                             env={**os.environ, "VIRTUAL_ENV": str(venv.parent), REPORTS_URL_ENV: reports_url})

    stopping: list[float] = []  # when a stop was asked for

    def stop(signum: int, _frame) -> None:
        if not stopping:
            print(f"\nstopping Dagster ({signal.Signals(signum).name}) ...", file=sys.stderr, flush=True)
            stopping.append(time.monotonic())
        _signal_group(child.pid, signal.SIGINT)

    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, stop)
    try:
        while True:
            try:
                return child.wait(timeout=1)
            except subprocess.TimeoutExpired:
                # dg dev does not always act on SIGINT (under load, or mid-start): after the grace, kill it all
                if stopping and time.monotonic() - stopping[0] > GRACE_SECONDS:
                    _signal_group(child.pid, signal.SIGKILL)
    finally:
        _signal_group(child.pid, signal.SIGKILL)  # a webserver, daemon or code server the CLI left behind


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
