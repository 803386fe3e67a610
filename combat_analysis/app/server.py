"""The answer server: `combat-analysis serve` keeps Python, the planner, DuckDB and matplotlib warm, and answers the
`ask` requests `app.client` sends over a socket in the data home.

A question from the command line costs a process: starting Python and importing pydantic, sqlglot, DuckDB and
the planner take about 0.4 s before any work, several times the query itself.

- Same answers: the server runs the CLI's own `ask` (handed to `serve` as a callable by `app.main`, so the
  server and the CLI never import each other) on the same warehouse, which it opens per question as a process
  of its own would, so matches ingested meanwhile are read.
- Private: the socket is created with mode 0600 in the data home; the server takes `ask` requests only.
- One question at a time, and it exits after `--idle-minutes` without one (default 60), removing its socket.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from combat_analysis.app.client import CLIENT_TIMEOUT_S, _receive, _send, code_fingerprint, socket_path
from combat_analysis.charts.jobs import DRAW_HERE, ChartDrawer

# argv -> the `ask` to run with the server's chart drawer (returning its exit code), or None when the server must
# not answer it here (another command, `--dagster`, a usage error): the CLI's `served_ask`.
AskRunner = Callable[[list[str]], "Callable[[ChartDrawer], int] | None"]


def serve(home: Path, ask: AskRunner, idle_minutes: float = 60.0, on_ready=None) -> int:
    """Answer `ask` requests on the home's socket with `ask` (the CLI's `served_ask`) until idle for
    `idle_minutes` or stopped (SIGTERM, Ctrl-C)."""
    # lazy: the server warms the whole answer path before its first question (the module itself stays light)
    from combat_analysis.answer.pipeline import answer_question  # noqa: F401

    _warm_charts()
    home.mkdir(parents=True, exist_ok=True)
    path = socket_path(home)
    if path.exists():
        if _alive(path):
            raise SystemExit(f"an answer server is already running on {path}")
        path.unlink()  # left by a server that did not exit cleanly
    fingerprint = code_fingerprint()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # the stop is caught from before the socket exists, so a SIGTERM at any moment after (even while `on_ready`
    # runs) removes it; only a socket this server bound is removed
    signal.signal(signal.SIGTERM, _stop)
    bound = False
    try:
        old_umask = os.umask(0o177)  # the socket is the user's own: mode 0600 from the start
        try:
            listener.bind(str(path))
            bound = True
        finally:
            os.umask(old_umask)
        listener.listen(8)
        listener.settimeout(idle_minutes * 60)
        if on_ready is not None:
            on_ready(path)
        # charts are drawn here: matplotlib is warm, which is all a chart worker process would have bought
        return _serve_until_idle(listener, fingerprint, DRAW_HERE, ask)
    except KeyboardInterrupt:
        return 0
    finally:
        listener.close()
        if bound:
            path.unlink(missing_ok=True)


def _serve_until_idle(listener: socket.socket, fingerprint: str, charts: ChartDrawer, ask: AskRunner) -> int:
    while True:
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            return 0  # idle: the next `ask` answers in its own process
        with conn:
            conn.settimeout(CLIENT_TIMEOUT_S)
            try:
                request = _receive(conn)
                _send(conn, _answer(request, fingerprint, charts, ask, functools.partial(_send, conn)))
            except (OSError, ValueError, ConnectionError):
                continue  # the client went away; the next one is served


class Serving:
    """`combat-analysis serve` on `home` in a child process, as a context manager that enters once its socket is
    there and gives the process (benchmarks and tests use it; `log` keeps what the server printed). SIGTERM stops
    it on the way out, unless it has stopped already."""

    def __init__(self, home: Path, env: Mapping[str, str] | None = None, *, log: Path | None = None,
                 timeout_s: float = 120.0) -> None:
        self.home, self.env, self.log, self.timeout_s = Path(home).resolve(), env, log, timeout_s

    def __enter__(self) -> subprocess.Popen[bytes]:
        out = open(self.log, "w") if self.log else subprocess.DEVNULL  # noqa: SIM115 - closed in __exit__
        self._out = out
        self.server = subprocess.Popen([sys.executable, "-m", "combat_analysis.app.main", "--home", str(self.home),
                                        "serve", "--idle-minutes", "30"],
                                       env=None if self.env is None else dict(self.env), stdout=out,
                                       stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.timeout_s
        while not socket_path(self.home).exists():
            if self.server.poll() is not None or time.monotonic() > deadline:
                self.__exit__()
                said = f": {self.log.read_text(errors='replace')[-2000:]}" if self.log else ""
                raise RuntimeError(f"combat-analysis serve did not start on {self.home}{said}")
            time.sleep(0.2)
        return self.server

    def __exit__(self, *exc_info: object) -> None:
        if self.server.poll() is None:
            self.server.terminate()
        self.server.wait(timeout=60)
        if not isinstance(self._out, int):
            self._out.close()


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt  # SIGTERM ends the server as Ctrl-C does: its socket is removed on the way out


def _alive(path: Path) -> bool:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(1.0)
            probe.connect(str(path))
        return True
    except OSError:
        return False


def _warm_charts() -> None:
    """Import matplotlib and draw one figure, so the first question does not pay for the font setup."""
    # lazy: only a starting server imports matplotlib (`Serving` users, the benchmarks and the tests, need not)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: after the backend is chosen

    figure, axes = plt.subplots(figsize=(2, 1))
    axes.bar(["a"], [1])
    figure.canvas.draw()
    plt.close(figure)


class _Streamed(io.StringIO):
    """The served `ask`'s stdout: what it flushes (the direct answer, printed before the charts and the report)
    goes to the client at once, as an "output" message; the rest with the final reply."""

    def __init__(self, send: Callable[[dict], None]) -> None:
        super().__init__()
        self._send, self._sent = send, 0

    def flush(self) -> None:
        text = self.getvalue()
        if len(text) > self._sent:
            self._send({"status": "output", "stdout": text[self._sent:]})
            self._sent = len(text)

    def rest(self) -> str:
        return self.getvalue()[self._sent:]


def _answer(request: dict, fingerprint: str, charts: ChartDrawer, ask: AskRunner,
            send: Callable[[dict], None] = lambda part: None) -> dict:
    """Run one `ask` as the client would have, in its folder and environment, and return what it printed
    (what it flushed on the way was handed to `send` already)."""
    if request.get("fingerprint") != fingerprint:
        return {"status": "stale"}
    argv = [str(a) for a in request.get("argv", [])]
    run = ask(argv)
    if run is None:
        return {"status": "refused"}  # the client's own CLI answers it (and prints any usage error)
    out, err = _Streamed(send), io.StringIO()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    try:
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in dict(request.get("env", {})).items()})
        os.chdir(str(request.get("cwd", saved_cwd)))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = run(charts)
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
            except Exception as exc:  # noqa: BLE001 - reported to the client as its own process would
                err.write(f"error: {type(exc).__name__}: {' '.join(str(exc).split())}\n")
                code = 1
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)
    return {"status": "answered", "stdout": out.rest(), "stderr": err.getvalue(), "code": code}
