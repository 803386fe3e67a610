"""The thin resident client: `combat-analysis ask` handed to a running answer server over a socket in the data
home (`combat-analysis serve`, `app.server`), the way `dmypy` serves mypy.

It imports nothing of the answer path, so an `ask` answered by the server pays only for Python's start-up and
this module. It sends its arguments, working folder and environment, and prints what the server's `ask`
printed, with its exit code. Never in the way: no socket, a refused connection, a server started from other
code (after an upgrade or an edit: the fingerprint of the package's files differs) or any failure of the
exchange, and `ask` answers in its own process as before. `--dagster` always does.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys
from pathlib import Path

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
    """The package's Python files, templates, catalog and SQL by name, size and modification time: a server
    started from other code (an upgrade, an edit) is not used."""
    root = Path(__file__).resolve().parents[1]  # the combat_analysis package
    parts = []
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.j2"), *root.rglob("*.yaml"), *root.rglob("*.sql")]):
        stat = path.stat()
        parts.append(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}")
    import hashlib  # lazy: only an `ask` with a server's socket in its data home pays for it

    return hashlib.blake2b("\n".join(parts).encode("utf-8"), digest_size=12).hexdigest()


def home_of(argv: list[str]) -> Path:
    """The data home `argv` names (--home, before or after the command), as `Paths.from_env` resolves it."""
    # lazy: only `ask` reads its data home here (settings imports dataclasses, and with it inspect)
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
    streamed = False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(CLIENT_TIMEOUT_S)
            sock.connect(str(path))
            _send(sock, {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ),
                         "fingerprint": code_fingerprint()})
            reply = _receive(sock)
            while reply.get("status") == "output":  # the direct answer, before the charts and the report
                sys.stdout.write(reply.get("stdout", ""))
                sys.stdout.flush()
                streamed = True
                reply = _receive(sock)
    except (OSError, ValueError, ConnectionError) as exc:
        if streamed:  # the answer is printed already: asking again here would print it twice
            sys.stderr.write(f"error: the answer server stopped before the report was written: {exc}\n")
            return 3  # Exit.INTERNAL (app.exits), not imported: the client stays this module alone
        return None  # no server behind the socket, or it died: answer here
    if reply.get("status") != "answered":
        return None  # a server of other code, or one that could not take the request
    sys.stdout.write(reply.get("stdout", ""))
    sys.stdout.flush()
    sys.stderr.write(reply.get("stderr", ""))
    return int(reply.get("code", 1))


RESIDENT_ENV = "COMBAT_ANALYSIS_RESIDENT"  # "0": never hand a question to the server
