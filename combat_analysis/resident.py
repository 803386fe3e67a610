"""A resident answer process: `combat-analysis serve` keeps Python, the planner, DuckDB and matplotlib warm, and
`combat-analysis ask` hands its question to it over a socket in the data home instead of starting all of that
again (the way `dmypy` serves mypy).

A question from the command line costs a process: starting Python and importing pydantic, sqlglot, DuckDB and
the planner take about 0.4 s before any work, several times the query itself. With the server running, `ask`
is a small client that imports nothing of the project beyond this module (`main` is the console script), sends
its arguments, working folder and environment, and prints what the server's `ask` printed, with its exit code.

- Same answers: the server runs the same `cli._ask` on the same warehouse, which it opens per question as a
  process of its own would, so matches ingested meanwhile are read.
- Never in the way: no socket, a refused connection, a server started from other code (after an upgrade or an
  edit: the fingerprint of the package's files differs) or any failure of the exchange, and `ask` answers in its
  own process as before. `--dagster` always does.
- Private: the socket is created with mode 0600 in the data home; the server takes `ask` requests only.
- One question at a time, and it exits after `--idle-minutes` without one (default 60), removing its socket.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys
from pathlib import Path

TYPE_CHECKING = False  # the client imports no more than it needs: not even `typing` (mypy reads this name as true)
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Mapping

SOCKET_NAME = "answer.sock"
CLIENT_TIMEOUT_S = 600.0  # a question with --log ingests that log first
_HEADER = struct.Struct("!I")


# ------------------------------------------------------------------------------------------ the exchange

def _send(sock: socket.socket, payload: dict) -> None:
    data = json.dumps(payload).encode("utf-8")
    sock.sendall(_HEADER.pack(len(data)) + data)


def _receive(sock: socket.socket) -> dict:
    header = _exactly(sock, _HEADER.size)
    return json.loads(_exactly(sock, _HEADER.unpack(header)[0]).decode("utf-8"))


def _exactly(sock: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise ConnectionError("the answer server closed the connection")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def code_fingerprint() -> str:
    """The package's Python files and templates by name, size and modification time: a server started from other
    code (an upgrade, an edit) is not used."""
    root = Path(__file__).resolve().parent
    parts = []
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.j2"), *root.rglob("*.yaml")]):
        stat = path.stat()
        parts.append(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}")
    import hashlib

    return hashlib.blake2b("\n".join(parts).encode("utf-8"), digest_size=12).hexdigest()


def home_of(argv: list[str]) -> Path:
    """The data home `argv` names (--home, before or after the command), as `Paths.from_env` resolves it."""
    from combat_analysis.settings import Paths

    home = None
    for i, arg in enumerate(argv):
        if arg == "--home" and i + 1 < len(argv):
            home = argv[i + 1]
        elif arg.startswith("--home="):
            home = arg.split("=", 1)[1]
    return Paths.from_env(home).home


def socket_path(home: Path) -> Path:
    return home / SOCKET_NAME


# -------------------------------------------------------------------------------------------- the client

def ask_resident(argv: list[str]) -> int | None:
    """`ask` answered by a running server: its exit code, or None when it must be answered here."""
    if "--dagster" in argv or "-h" in argv or "--help" in argv:
        return None
    path = socket_path(home_of(argv))
    if not path.exists():
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(CLIENT_TIMEOUT_S)
            sock.connect(str(path))
            _send(sock, {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ),
                         "fingerprint": code_fingerprint()})
            reply = _receive(sock)
    except (OSError, ValueError, ConnectionError):
        return None  # no server behind the socket, or it died: answer here
    if reply.get("status") != "answered":
        return None  # a server of other code, or one that could not take the request
    sys.stdout.write(reply.get("stdout", ""))
    sys.stdout.flush()
    sys.stderr.write(reply.get("stderr", ""))
    return int(reply.get("code", 1))


def main(argv: list[str] | None = None) -> int:
    """The console script: `ask` through the resident server when one is running, else the CLI itself."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if "ask" in argv[:3] and os.environ.get(RESIDENT_ENV, "1") != "0":
        code = ask_resident(argv)
        if code is not None:
            return code
    from combat_analysis.cli import main as cli_main

    return cli_main(argv)


RESIDENT_ENV = "COMBAT_ANALYSIS_RESIDENT"  # "0": never hand a question to the server


# -------------------------------------------------------------------------------------------- the server

def serve(home: Path, idle_minutes: float = 60.0, on_ready=None) -> int:
    """Answer `ask` requests on the home's socket until idle for `idle_minutes` or stopped (SIGTERM, Ctrl-C)."""
    import signal

    from combat_analysis.charts.jobs import DRAW_HERE
    from combat_analysis.pipeline import answer_question  # noqa: F401  (warm: the whole answer path)
    from combat_analysis.stages import visualization  # noqa: F401

    _warm_charts()
    home.mkdir(parents=True, exist_ok=True)
    path = socket_path(home)
    if path.exists():
        if _alive(path):
            raise SystemExit(f"an answer server is already running on {path}")
        path.unlink()  # left by a server that did not exit cleanly
    fingerprint = code_fingerprint()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o177)  # the socket is the user's own: mode 0600 from the start
    try:
        listener.bind(str(path))
    finally:
        os.umask(old_umask)
    listener.listen(8)
    listener.settimeout(idle_minutes * 60)
    signal.signal(signal.SIGTERM, _stop)
    if on_ready is not None:
        on_ready(path)
    try:
        # charts are drawn here: matplotlib is warm, which is all a chart worker process would have bought
        return _serve_until_idle(listener, fingerprint, DRAW_HERE)
    except KeyboardInterrupt:
        return 0
    finally:
        listener.close()
        path.unlink(missing_ok=True)


def _serve_until_idle(listener: socket.socket, fingerprint: str, charts) -> int:
    while True:
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            return 0  # idle: the next `ask` answers in its own process
        with conn:
            conn.settimeout(CLIENT_TIMEOUT_S)
            try:
                request = _receive(conn)
                _send(conn, _answer(request, fingerprint, charts))
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
        import subprocess
        import time

        out = open(self.log, "w") if self.log else subprocess.DEVNULL  # noqa: SIM115 - closed in __exit__
        self._out = out
        self.server = subprocess.Popen([sys.executable, "-m", "combat_analysis.cli", "--home", str(self.home),
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
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(2, 1))
    axes.bar(["a"], [1])
    figure.canvas.draw()
    plt.close(figure)


def _answer(request: dict, fingerprint: str, charts) -> dict:
    """Run one `ask` as the client would have, in its folder and environment, and return what it printed."""
    import contextlib
    import io

    from combat_analysis import cli

    if request.get("fingerprint") != fingerprint:
        return {"status": "stale"}
    argv = [str(a) for a in request.get("argv", [])]
    try:
        args = cli.build_parser().parse_args(argv)
    except SystemExit:
        return {"status": "refused"}  # the client's own CLI prints the usage error
    if args.func is not cli.cmd_ask or args.dagster:
        return {"status": "refused"}
    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    try:
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in dict(request.get("env", {})).items()})
        os.chdir(str(request.get("cwd", saved_cwd)))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli._ask(args, charts)
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
            except Exception as exc:  # noqa: BLE001 - reported to the client as its own process would
                err.write(f"error: {type(exc).__name__}: {' '.join(str(exc).split())}\n")
                code = 1
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)
    return {"status": "answered", "stdout": out.getvalue(), "stderr": err.getvalue(), "code": code}


if __name__ == "__main__":
    sys.exit(main())
