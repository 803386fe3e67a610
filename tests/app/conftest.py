"""Fixtures of the app tests: data homes the command line runs in, files it cannot ingest, a running answer server."""

from __future__ import annotations

import gzip
import http.server
import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from combat_analysis.app.server import Serving
from tests.support.commands import BIN, cli, env_for
from tests.support.paths import ROOT, SAMPLE_LOG


@pytest.fixture()
def dagster_home(tmp_path) -> Path:
    """An instance of the test's own: without DAGSTER_HOME, `ask --dagster` would record in the checkout's."""
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copyfile(ROOT / "deploy" / "dagster.local.yaml", home / "dagster.yaml")
    return home


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("cli-home")
    assert cli(home, "ingest", str(SAMPLE_LOG)).returncode == 0
    return home


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """Files that cannot be ingested, each with what its one-line error must say."""
    work = tmp_path_factory.mktemp("bad-files")
    (work / "a-folder.log").mkdir()
    corrupt = work / "corrupt.log.gz"
    data = bytearray(gzip.compress(SAMPLE_LOG.read_bytes()))
    data[40_000:40_400] = bytes(400)  # zeros in the middle of the stream: a cut archive is read, a corrupt one not
    corrupt.write_bytes(bytes(data))
    nul = work / "nul.log"
    nul.write_bytes(b'{"eventType": "start", "matchID": "a\\u0000b"},\r\n' + SAMPLE_LOG.read_bytes().split(b"\r\n", 1)[1])
    (work / "empty.log").write_bytes(b"")
    return {
        "missing": (work / "missing.log", "no such log file"),
        "folder": (work / "a-folder.log", "is a folder holding no combat log"),
        "corrupt gzip": (corrupt, "the gzip archive is corrupt"),
        "NUL in the id": (nul, "the match id on line 1 contains a NUL character"),
        "empty": (work / "empty.log", "is empty"),
    }


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A data home holding the sample match, with `combat-analysis serve` running on it."""
    home = tmp_path_factory.mktemp("resident") / "home"
    subprocess.run([str(BIN / "combat-analysis"), "ingest", str(SAMPLE_LOG)], env=env_for(home), check=True,
                   capture_output=True)
    with Serving(home, env_for(home), log=home / "serve.log") as server:
        yield home, server


@pytest.fixture()
def dead_url() -> str:
    """An address where nothing listens: a port the system just gave out and took back."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


class _NotDagster(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        self.send_error(404, "no GraphQL here")

    def log_message(self, *args) -> None:  # keep the test output clean
        pass


@pytest.fixture()
def plain_web_server():
    """A real HTTP server that is not Dagster: every POST gets 404."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _NotDagster)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
