"""The real Dagster webserver and daemon (`dagster dev`): the asset graph over GraphQL, runs launched over
GraphQL, and a log dropped into the incoming folder becoming an ingested match and its report by itself."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.dagster import local_dagster_home
from tests.support.paths import ROOT, SAMPLE_LOG, SAMPLE_MATCH_ID
from tests.support.processes import stop_group

pytestmark = pytest.mark.slow  # the real webserver and daemon

DEADLINE_S = 240


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Dagit:
    def __init__(self, port: int):
        self.url = f"http://127.0.0.1:{port}/graphql"

    def query(self, text: str, variables: dict | None = None) -> dict:
        body = json.dumps({"query": text, "variables": variables or {}}).encode()
        request = urllib.request.Request(self.url, body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            payload = json.loads(response.read())
        assert "errors" not in payload, payload.get("errors")
        return payload["data"]

    def wait_until(self, what: str, predicate, deadline: float, every: float = 2.0):
        while time.monotonic() < deadline:
            try:
                value = predicate()
            except OSError:
                value = None
            if value:
                return value
            time.sleep(every)
        raise AssertionError(f"timed out waiting for {what}")


REPO = {"repositoryLocationName": "combat_analysis", "repositoryName": "__repository__"}


def launch(dagit: Dagit, job: str, partition: str, run_config: dict | None = None) -> str:
    data = dagit.query("""
        mutation Launch($params: ExecutionParams!) {
          launchRun(executionParams: $params) {
            __typename
            ... on LaunchRunSuccess { run { runId } }
            ... on PythonError { message }
            ... on RunConfigValidationInvalid { errors { message } }
          }
        }""", {"params": {"selector": {**REPO, "jobName": job}, "runConfigData": run_config or {},
                          "executionMetadata": {"tags": [{"key": "dagster/partition", "value": partition}]}}})
    result = data["launchRun"]
    assert result["__typename"] == "LaunchRunSuccess", result
    return result["run"]["runId"]


def run_status(dagit: Dagit, run_id: str) -> str:
    return dagit.query("query($id: ID!) { runOrError(runId: $id) { ... on Run { status } } }",
                       {"id": run_id})["runOrError"]["status"]


def wait_for_run(dagit: Dagit, run_id: str, deadline: float) -> None:
    status = dagit.wait_until(f"run {run_id}", lambda: (s := run_status(dagit, run_id)) in (
        "SUCCESS", "FAILURE", "CANCELED") and s, deadline)
    assert status == "SUCCESS", f"run {run_id} ended {status}"


def materialized_partitions(dagit: Dagit, asset: str) -> set[str]:
    data = dagit.query("""
        query($key: AssetKeyInput!) {
          assetOrError(assetKey: $key) { ... on Asset { assetMaterializations(limit: 50) { partition } } }
        }""", {"key": {"path": [asset]}})
    found = data["assetOrError"].get("assetMaterializations") or []
    return {m["partition"] for m in found}


def test_dagster_dev_end_to_end(tmp_path):
    port = free_port()
    env = {**os.environ, "DAGSTER_HOME": str(local_dagster_home(tmp_path / "dagster_home")),
           "COMBAT_ANALYSIS_HOME": str(tmp_path / "data"), "COMBAT_ANALYSIS_EXECUTOR": "in_process",
           "MPLBACKEND": "Agg"}
    log_file = open(tmp_path / "dagster_dev.log", "w")
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "dagster"), "dev", "-w", str(ROOT / "workspace.yaml"), "-h", "127.0.0.1",
         "-p", str(port)], cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + DEADLINE_S
    dagit = Dagit(port)
    try:
        dagit.wait_until("the webserver", lambda: dagit.query("{ version }")["version"], deadline)
        # the project's dagster.yaml turns Dagster's "Join the community" pop-up off: the UI opens on the graph
        assert dagit.query("{ shouldShowNux }")["shouldShowNux"] is False
        nodes = dagit.wait_until("the code location", lambda: dagit.query(
            "{ assetNodes { assetKey { path } dependencyKeys { path } } }")["assetNodes"], deadline)
        graph = {n["assetKey"]["path"][0]: {d["path"][0] for d in n["dependencyKeys"]} for n in nodes}
        assert graph["match_warehouse"] == {"raw_match_log"}
        assert graph["match_report"] == {"match_warehouse"}
        assert graph["answer_report"] == {"charts"}

        # Launched over GraphQL: ingest the sample match, then its report.
        dagit.query("""
            mutation($repo: RepositorySelector!, $key: String!) {
              addDynamicPartition(repositorySelector: $repo, partitionsDefName: "matches", partitionKey: $key) {
                __typename }
            }""", {"repo": REPO, "key": SAMPLE_MATCH_ID})
        config = {"ops": {"raw_match_log": {"config": {"path": str(SAMPLE_LOG)}}}}
        wait_for_run(dagit, launch(dagit, "ingest_match_job", SAMPLE_MATCH_ID, config), deadline)
        wait_for_run(dagit, launch(dagit, "match_report_job", SAMPLE_MATCH_ID), deadline)
        assert SAMPLE_MATCH_ID in materialized_partitions(dagit, "match_report")
        assert (tmp_path / "data" / "reports" / SAMPLE_MATCH_ID / "report.html").exists()

        # Dropped into the incoming folder: the sensor ingests it and automation builds its report.
        from combat_analysis.ingest.simulate import simulated_match_id, write_match

        sim_id = simulated_match_id(5)  # numeric, as the game writes ids
        write_match(tmp_path / "data" / "incoming" / "scrim.log", seed=5, scale=0.3)  # the sensor, not the size
        dagit.wait_until("the dropped log's report", lambda: sim_id in materialized_partitions(
            dagit, "match_report"), deadline, every=3.0)
        assert sim_id in materialized_partitions(dagit, "match_warehouse")
        assert (tmp_path / "data" / "reports" / sim_id / "report.html").exists()  # numeric ids are safe names
    finally:
        stop_group(server)
        log_file.close()
    assert server.returncode is not None
