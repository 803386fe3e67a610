"""Fixtures shared by the test folders: the real sample match, ingested once per test process into a temporary
warehouse, the stages' env over it, and the stub language-model endpoint. Each folder's own fixtures are in its
conftest.py; helpers that are not fixtures are in tests/support/."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from hypothesis import settings

from combat_analysis.answer.env import StageEnv
from combat_analysis.ingest.run import ingest_log
from combat_analysis.warehouse.store import open_warehouse
from tests.support.llm_stub import Stub
from tests.support.paths import SAMPLE_LOG, SAMPLE_MATCH_ID, TRUTH_FILE
from tests.support.season import season_once

# CI explores the same examples on every run, so a red build always means a change broke something;
# local runs keep exploring new inputs.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# Matplotlib must never try to open a window in tests or CI.
os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(scope="session")
def truth() -> dict:
    return json.loads(TRUTH_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def sample_warehouse(tmp_path_factory) -> Path:
    """A warehouse root holding the sample match (match id `00000001-sample`)."""
    root = tmp_path_factory.mktemp("warehouse")
    ingest_log(SAMPLE_LOG, root)
    return root


@pytest.fixture()
def sample_con(sample_warehouse):
    con = open_warehouse(sample_warehouse, SAMPLE_MATCH_ID)
    yield con
    con.close()


@pytest.fixture(scope="module")
def stage_warehouse(sample_warehouse) -> Path:
    """The session's sample warehouse: the stages only read it, so it is ingested once per test process rather
    than once per module."""
    return sample_warehouse


@pytest.fixture(scope="module")
def stage_env(stage_warehouse, tmp_path_factory) -> Iterator[StageEnv]:
    """The stages' env on the sample match, follow-ups off, holding one locked connection for the module's questions
    (tests/support/asking.py says why; tests/support/stages.py has the helpers)."""
    artifacts = tmp_path_factory.mktemp("artifacts")
    env = StageEnv.build(warehouse_root=stage_warehouse, match_id=SAMPLE_MATCH_ID, artifacts_dir=artifacts,
                         followups=False)
    with env.session() as session:
        yield session


@pytest.fixture(scope="module")
def server():
    """The stub chat-completions endpoint (`tests.support.llm_stub.Stub`) on a free port; yields its base URL."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def season_matches(tmp_path_factory):
    """The 24 simulated matches of a season and their truth (tests/support/season.py), written once."""
    return season_once(tmp_path_factory)


@pytest.fixture(scope="module")
def import_graph():
    """The project's import graph as import-linter builds it (grimp): every import statement, at module level or
    inside a function, and those under `TYPE_CHECKING` too."""
    import grimp  # lazy: only the architecture test reads the graph

    return grimp.build_graph("combat_analysis", "assets", "resources", cache_dir=None)


def pytest_collection_modifyitems(config, items):
    """Files with slow tests (servers, browsers, daemons: tests/system/) run first: under pytest-xdist (`make test`,
    one file per worker at a time) the longest files then start at once on separate workers instead of one of
    them starting last while the other workers sit idle. The order within a file is kept."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)
