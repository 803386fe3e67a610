"""The command line, run as users run it: a real process, real files, real output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_LOG, SAMPLE_MATCH_ID

ROOT = Path(__file__).resolve().parents[1]


def cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COMBAT_ANALYSIS_HOME": str(home), "MPLBACKEND": "Agg"}
    env.pop("DAGSTER_HOME", None)
    return subprocess.run([sys.executable, "-m", "combat_analysis.cli", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("cli-home")
    assert cli(home, "ingest", str(SAMPLE_LOG)).returncode == 0
    return home


def test_simulate_writes_the_real_framing_deterministically(tmp_path):
    a, b, c = tmp_path / "a.log", tmp_path / "b.log", tmp_path / "c.log"
    runs = {}
    for path, seed in ((a, "3"), (b, "3"), (c, "4")):
        runs[path] = cli(tmp_path, "simulate", "--seed", seed, "--out", str(path))
        assert runs[path].returncode == 0, runs[path].stderr
    data = a.read_bytes()
    assert data == b.read_bytes() and data != c.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf{") and data.endswith(b"}\r\n")
    lines = data.decode("utf-8-sig").split("\r\n")[:-1]
    assert all(line.endswith("},") for line in lines[:-1]) and lines[-1].endswith("}")
    assert f"wrote {len(lines):,} lines to {a}" in runs[a].stderr
    event = json.loads(lines[20].rstrip(","))
    assert all(isinstance(v, str) for v in event.values())


def test_ingest_reports_each_file_and_fails_clearly(tmp_path, home):
    again = cli(home, "ingest", str(SAMPLE_LOG))
    assert again.returncode == 0
    assert "unchanged" in again.stderr and SAMPLE_MATCH_ID in again.stderr
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    bad = cli(home, "ingest", str(empty))
    assert bad.returncode == 1
    assert "is empty" in bad.stderr


def test_ask_json_prints_the_package(home):
    run = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--json", "--no-followups", "Who got first blood?")
    assert run.returncode == 0, run.stderr
    package = json.loads(run.stdout)
    answer = package["response"]["direct_answer"]
    assert "Tsunami88" in answer and "ÁngelDeth" in answer
    assert package["version"] == 5


def test_ask_with_log_reuses_an_identical_ingest(home):
    parquet = next((home / "warehouse" / "matches").rglob("events.parquet"))
    before = parquet.stat().st_mtime_ns
    run = cli(home, "ask", "--log", str(SAMPLE_LOG), "--no-followups", "How many kills did mid_or_feed get?")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("mid_or_feed") and "10" in run.stdout.splitlines()[0]
    assert parquet.stat().st_mtime_ns == before


def test_ask_without_a_match_says_how_to_name_one(tmp_path):
    run = cli(tmp_path, "ask", "Who healed the most?")
    assert run.returncode != 0
    assert "--match ID or --log FILE" in run.stderr


def test_ask_an_unknown_match_lists_the_known_ones(home):
    run = cli(home, "ask", "--match", "nope", "Who healed the most?")
    assert run.returncode == 2
    assert "nope" in run.stderr and SAMPLE_MATCH_ID in run.stderr


def comparable(package: dict) -> dict:
    """A package without what legitimately differs between runs: times, ids, paths and digests."""
    response = package["response"]
    return {
        "answer": response["direct_answer"],
        "insights": response["key_insights"],
        "sql": [q["sql"] for q in package["query_analysis"]["sql_queries"]],
        "rows": [r["data"] for r in package["data"]["query_results"]],
        "findings": [f["description"] for f in package["analysis"]["key_findings"]],
        "charts": sorted(v["type"] for v in package["visualizations"].values()),
        "stages": [s["stage"] for s in package["metadata"]["processing_history"]],
    }


def test_dagster_path_gives_the_same_package_content(home):
    question = "Which player had the best KDA?"
    direct = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--json", question)
    through_dagster = cli(home, "ask", "--match", SAMPLE_MATCH_ID, "--json", "--dagster", question)
    assert direct.returncode == 0 and through_dagster.returncode == 0, through_dagster.stderr
    a, b = json.loads(direct.stdout), json.loads(through_dagster.stdout)
    assert comparable(a) == comparable(b)
    assert "VoidWalker" in a["response"]["direct_answer"] and "34" in a["response"]["direct_answer"]


def test_matches_lists_the_warehouse(home):
    run = cli(home, "matches")
    assert run.returncode == 0
    assert SAMPLE_MATCH_ID[:8] in run.stdout and "1919" in run.stdout


def test_cleanup_handles_runs(home):
    run = cli(home, "cleanup-handles")
    assert run.returncode == 0
    assert "expired handle" in run.stderr
