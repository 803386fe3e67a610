"""The resident answer server (`combat-analysis serve`): `ask` hands its question to a warm process over a socket
in the data home and prints what that process's `ask` printed. Real processes throughout: the server, the
client as the console script runs it, and the same question answered without the server for comparison."""

from __future__ import annotations

import json
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

from combat_analysis.app import client
from combat_analysis.app.server import Serving
from tests.support.commands import BIN, env_for
from tests.support.paths import SAMPLE_LOG

QUESTION = "who dealt the most damage"
HEAVY = ("duckdb", "sqlglot", "pydantic", "matplotlib", "jinja2", "rich")


def _client(home: Path, *argv: str, cwd: Path | None = None, **env: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """The console script's own code path in a fresh process; also which heavy libraries it imported."""
    code = ("import sys; from combat_analysis.app.main import main; rc = main(sys.argv[1:]); "
            f"sys.stderr.write('\\nIMPORTED ' + repr(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))); "
            "sys.exit(rc)")
    run = subprocess.run([sys.executable, "-c", code, *argv], env=env_for(home, **env), capture_output=True, text=True,
                         cwd=cwd or Path.cwd())
    imported = eval(run.stderr.rsplit("IMPORTED ", 1)[1])  # noqa: S307 - our own repr of a list of names
    return run, imported


def test_ask_is_answered_by_the_server_with_the_same_answer(served):
    home, _ = served
    run, imported = _client(home, "ask", "--json", "--no-followups", QUESTION)
    assert run.returncode == 0, run.stderr
    assert imported == [], "the client imported the answer path: the question was answered in its own process"
    here, imported_here = _client(home, "ask", "--json", "--no-followups", QUESTION, COMBAT_ANALYSIS_RESIDENT="0")
    assert here.returncode == 0 and set(imported_here) >= {"duckdb", "sqlglot", "pydantic"}
    served_pkg, own_pkg = json.loads(run.stdout), json.loads(here.stdout)
    assert served_pkg["response"]["direct_answer"] == own_pkg["response"]["direct_answer"] == (
        "VoidWalker dealt the most damage: 192,395 (ahead of Kraken_Mid with 150,742).")
    assert served_pkg["query_analysis"] == own_pkg["query_analysis"]  # the same plan and SQL
    findings = [[f["description"] for f in pkg["analysis"]["key_findings"]] for pkg in (served_pkg, own_pkg)]
    assert findings[0] == findings[1] and findings[0]
    assert Path(served_pkg["final_output"]["html_path"]).is_file()


def test_errors_and_exit_codes_come_back_as_the_cli_gives_them(served):
    home, _ = served
    run, imported = _client(home, "ask", "--match", "no-such-match", QUESTION)
    assert imported == [] and run.returncode == 2
    assert "error:" in run.stderr and "no-such-match" in run.stderr and run.stdout == ""


def test_a_relative_log_path_is_read_from_the_clients_folder(served, tmp_path):
    home, _ = served
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "match.log").write_bytes(SAMPLE_LOG.read_bytes())
    run, imported = _client(home, "ask", "--log", "logs/match.log", "--no-followups", "how many kills did Brisk get",
                            cwd=tmp_path)
    assert imported == [] and run.returncode == 0, run.stderr
    assert run.stdout.startswith("Brisk got 17 kills."), run.stdout


def test_the_socket_is_private_and_only_ask_is_taken(served):
    home, _ = served
    path = client.socket_path(home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(str(path))
        client._send(sock, {"argv": ["ingest", "/etc/passwd"], "cwd": "/", "env": {},
                              "fingerprint": client.code_fingerprint()})
        assert client._receive(sock) == {"status": "refused"}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:  # a server of other code is not used
        sock.connect(str(path))
        client._send(sock, {"argv": ["ask", QUESTION], "cwd": "/", "env": {}, "fingerprint": "other code"})
        assert client._receive(sock) == {"status": "stale"}


def test_the_direct_answer_comes_as_its_own_message_before_the_report(served):
    home, _ = served
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(str(client.socket_path(home)))
        client._send(sock, {"argv": ["ask", "how many deaths did Brisk have"], "cwd": "/", "env": env_for(home),
                            "fingerprint": client.code_fingerprint()})
        first, last = client._receive(sock), client._receive(sock)
    assert first["status"] == "output" and first["stdout"].startswith("Brisk died 5 times")
    assert "report:" not in first["stdout"]
    assert last["status"] == "answered" and last["code"] == 0
    report = last["stdout"].strip().splitlines()
    assert len(report) == 1 and report[0].startswith("report: ") and Path(report[0].split(" ", 1)[1]).is_file()


def test_without_a_live_server_ask_answers_in_its_own_process(tmp_path):
    home = tmp_path / "home"
    subprocess.run([str(BIN / "combat-analysis"), "ingest", str(SAMPLE_LOG)], env=env_for(home), check=True,
                   capture_output=True)
    leftover = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # a socket file nobody listens on
    leftover.bind(str(client.socket_path(home)))
    leftover.close()
    run, imported = _client(home, "ask", "--no-followups", QUESTION)
    assert run.returncode == 0 and run.stdout.startswith("VoidWalker dealt the most damage: 192,395")
    assert "duckdb" in imported


def test_a_stop_while_the_server_starts_still_removes_its_socket(tmp_path):
    """A SIGTERM that lands while the server is still getting ready (here from its ready callback) ends it cleanly:
    exit 0 and no socket left, never an uncaught interrupt (which a busy machine once showed as exit -2)."""
    import os

    from combat_analysis.app.server import serve

    previous = signal.getsignal(signal.SIGTERM)
    try:
        code = serve(tmp_path, ask=None, idle_minutes=0.05,  # type: ignore[arg-type]
                     on_ready=lambda path: os.kill(os.getpid(), signal.SIGTERM))
    except KeyboardInterrupt:
        code = None
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert code == 0 and not client.socket_path(tmp_path).exists()


def test_sigterm_stops_the_server_and_removes_its_socket(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    with Serving(home, env_for(home)) as server:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
        assert not client.socket_path(home).exists()
