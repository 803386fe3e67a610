"""Shared fixtures: the real sample match, ingested once per test session into a temporary warehouse."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples on every run, so a red build always means a change broke something;
# local runs keep exploring new inputs.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

SHARED = Path(__file__).resolve().parents[2] / "shared"
SAMPLE_LOG = SHARED / "data" / "sample_match.log"
TRUTH_FILE = SHARED / "data" / "sample_match.truth.json"
FIXTURE_LINES = SHARED / "data" / "real_fixture_lines.log"
DEV_QUESTIONS = SHARED / "eval" / "dev_questions.jsonl"
SAMPLE_MATCH_ID = "00000001-sample"

# Matplotlib must never try to open a window in tests or CI.
os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(scope="session")
def truth() -> dict:
    return json.loads(TRUTH_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def sample_warehouse(tmp_path_factory) -> Path:
    """A warehouse root holding the sample match (match id `00000001-sample`)."""
    from combat_analysis.ingest.run import ingest_log

    root = tmp_path_factory.mktemp("warehouse")
    ingest_log(SAMPLE_LOG, root)
    return root


@pytest.fixture()
def sample_con(sample_warehouse):
    from combat_analysis.warehouse.store import open_warehouse

    con = open_warehouse(sample_warehouse, SAMPLE_MATCH_ID)
    yield con
    con.close()


def pytest_collection_modifyitems(config, items):
    """Files with slow tests (servers, browsers, daemons) run first: under pytest-xdist (`make test`, one file
    per worker at a time) the longest files then start at once on separate workers instead of one of them
    starting last while the other workers sit idle. The order within a file is kept."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)
