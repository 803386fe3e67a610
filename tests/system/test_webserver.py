"""The real Dagster webserver and daemon (`dagster dev` on a free port, a DAGSTER_HOME of the test's own, the
project's workspace.yaml), one for the whole module, over a data home that holds the sample match:

- `combat-analysis ask --dagster-url` and `remote.ask`: the answer's figure is the truth file's, a refusal exits 1,
  a failed run names its stage's error, a timeout leaves the run going, a partition key keeps its first question,
  and a question file dropped into the data home is answered by the daemon's sensor, its run's steps in process;
- the asset graph over GraphQL, runs launched over GraphQL, and a log dropped into the incoming folder becoming an
  ingested match and its report by itself."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from combat_analysis.app import remote
from combat_analysis.formatting import number
from combat_analysis.ingest.simulate import simulated_match_id, write_match
from combat_analysis.keys import folder_name
from resources.io_managers import latest_package_file
from tests.support.commands import cli
from tests.support.paths import SAMPLE_MATCH_ID

pytestmark = pytest.mark.slow  # the real webserver and daemon

ANSWER_TIMEOUT_S = 300.0
DEADLINE_S = 240
REPO = {"repositoryLocationName": "combat_analysis", "repositoryName": "__repository__"}


def quiet(_line: str) -> None:
    pass


def test_the_cli_asks_the_webserver_in_one_call(webserver, truth):
    base_url, data = webserver
    name, stats = max(truth["players"].items(), key=lambda kv: kv[1]["damage_taken"])
    run = cli(data, "ask", "--dagster-url", base_url, "--match", SAMPLE_MATCH_ID, "--no-followups",
              "which player took the most damage?", env={"COMBAT_ANALYSIS_RESIDENT": "0"})
    assert run.returncode == remote.ANSWERED, run.stderr
    answer, report, link = run.stdout.splitlines()
    assert name in answer and number(stats["damage_taken"]) in answer
    assert report.startswith("report: ") and Path(report.removeprefix("report: ")).is_file()
    assert link.startswith(f"run: {base_url}/runs/")
    # progress went to stderr, stage by stage, and none of it to stdout
    for stage in ("query_plan", "query_results", "findings", "charts", "answer_report"):
        assert f"{stage}: success" in run.stderr
    assert "success" not in run.stdout


def test_the_python_call_returns_the_answer_and_where_it_came_from(webserver, truth):
    base_url, data = webserver
    name, stats = max(truth["players"].items(), key=lambda kv: kv[1]["kills"])
    lines: list[str] = []
    answer = remote.ask(base_url, "Who got the most kills", followups=False, progress=lines.append,
                        timeout=ANSWER_TIMEOUT_S)  # no match named: the run chooses the latest, the only one
    assert not answer.refused and answer.exit_code == remote.ANSWERED
    assert name in answer.direct_answer and number(stats["kills"]) in answer.direct_answer
    assert answer.match_id == SAMPLE_MATCH_ID and answer.question == "Who got the most kills"
    assert Path(answer.report_html).is_file() and Path(answer.report_markdown).is_file()
    assert Path(answer.report_html).parent == data / "artifacts" / folder_name(answer.partition)
    assert lines[0].startswith(f"asked {base_url} as question partition") and lines[-1] == "answered: 5 stages ran"


def test_a_refusal_exits_1_and_a_timeout_leaves_the_run_going(webserver):
    base_url, _ = webserver
    client = remote.GraphQL(base_url)
    with pytest.raises(remote.RemoteTimeout, match="the run goes on") as raised:
        remote.ask(base_url, "what was the weather during the match", followups=False, progress=quiet, timeout=0)
    assert raised.value.exit_code == remote.INTERNAL_ERROR
    run_id = str(raised.value).rsplit("/runs/", 1)[1]
    deadline = time.monotonic() + ANSWER_TIMEOUT_S
    while remote.run_state(client, run_id).status not in remote.DONE:
        assert time.monotonic() < deadline
        time.sleep(1)
    refused = remote.answer_from(remote.materialized(client, run_id), "k", run_id, "")
    assert refused.refused and refused.exit_code == remote.REFUSED and "weather" in refused.direct_answer


def test_a_run_that_fails_names_the_stage_and_its_error(webserver):
    base_url, data = webserver
    run = cli(data, "ask", "--dagster-url", base_url, "--match", "no-such-match", "--no-followups",
              "who dealt the most damage", env={"COMBAT_ANALYSIS_RESIDENT": "0"})
    assert run.returncode == remote.BAD_INPUT and run.stdout == ""
    assert "the query_plan stage failed: match 'no-such-match' is not in the warehouse" in run.stderr
    assert f"{base_url}/runs/" in run.stderr


def test_a_partition_key_keeps_its_first_question(webserver):
    base_url, _ = webserver
    first = remote.ask(base_url, "how many deaths did each team have", key="team-deaths", followups=False,
                       progress=quiet, timeout=ANSWER_TIMEOUT_S)
    report = Path(first.report_markdown)
    before = report.read_bytes()
    with pytest.raises(remote.RemoteBadInput, match="already holds another question"):
        remote.ask(base_url, "how many kills did each team have", key="team-deaths", followups=False,
                   progress=quiet, timeout=ANSWER_TIMEOUT_S)
    assert report.read_bytes() == before


RUNS_OF_FILE = """query($tags: [ExecutionTag!]) { runsOrError(filter: {tags: $tags}) { ... on Runs {
  results { runId status tags { key value } } } } }"""
MESSAGES = """query($id: ID!) { runOrError(runId: $id) { ... on Run {
  eventConnection(limit: 500) { events { ... on MessageEvent { message } } } } } }"""


def test_a_dropped_question_file_is_answered_by_the_daemon_in_process(webserver, truth):
    base_url, data = webserver
    client = remote.GraphQL(base_url)
    name = "support-healing.json"
    (data / "questions").mkdir(parents=True, exist_ok=True)
    (data / "questions" / name).write_text(json.dumps({"question": "how much healing did LunaSol do",
                                                       "match_id": SAMPLE_MATCH_ID, "followups": False}))
    tags = [{"key": "combat_analysis/file", "value": name}]

    def finished() -> dict | None:
        runs = client.query(RUNS_OF_FILE, {"tags": tags})["runsOrError"]["results"]
        return next((r for r in runs if r["status"] in ("SUCCESS", "FAILURE", "CANCELED")), None)

    deadline = time.monotonic() + ANSWER_TIMEOUT_S
    while (run := finished()) is None:
        assert time.monotonic() < deadline, f"no run answered {name}"
        time.sleep(1.0)
    assert run["status"] == "SUCCESS", run
    messages = [e.get("message") or "" for e in client.query(MESSAGES, {"id": run["runId"]})["runOrError"][
        "eventConnection"]["events"]]
    assert any("Executing steps in process" in m for m in messages)
    key = next(t["value"] for t in run["tags"] if t["key"] == "dagster/partition")
    stored = latest_package_file(data / "packages", "answer_report", key)
    answer = json.loads(stored.read_text(encoding="utf-8"))["response"]["direct_answer"]
    assert "LunaSol" in answer and number(truth["players"]["LunaSol"]["healing_done"]) in answer


# ---------------------------------------------------------------------------------------------------- the graph and the sensor

def wait_until(what: str, predicate, deadline: float, every: float = 2.0):
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except (OSError, remote.RemoteError):
            value = None
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def launch(dagit: remote.GraphQL, job: str, partition: str, run_config: dict | None = None) -> str:
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


def run_status(dagit: remote.GraphQL, run_id: str) -> str:
    return dagit.query("query($id: ID!) { runOrError(runId: $id) { ... on Run { status } } }",
                       {"id": run_id})["runOrError"]["status"]


def wait_for_run(dagit: remote.GraphQL, run_id: str, deadline: float) -> None:
    status = wait_until(f"run {run_id}", lambda: (s := run_status(dagit, run_id)) in (
        "SUCCESS", "FAILURE", "CANCELED") and s, deadline)
    assert status == "SUCCESS", f"run {run_id} ended {status}"


def materialized_partitions(dagit: remote.GraphQL, asset: str) -> set[str]:
    data = dagit.query("""
        query($key: AssetKeyInput!) {
          assetOrError(assetKey: $key) { ... on Asset { assetMaterializations(limit: 50) { partition } } }
        }""", {"key": {"path": [asset]}})
    found = data["assetOrError"].get("assetMaterializations") or []
    return {m["partition"] for m in found}


def test_the_graph_runs_launched_over_graphql_and_a_dropped_log(webserver):
    """Last in this module: the log it drops lands after the sample, and would become the latest match."""
    base_url, data = webserver
    deadline = time.monotonic() + DEADLINE_S
    dagit = remote.GraphQL(base_url)
    # the project's dagster.yaml turns Dagster's "Join the community" pop-up off: the UI opens on the graph
    assert dagit.query("{ shouldShowNux }")["shouldShowNux"] is False
    nodes = dagit.query("{ assetNodes { assetKey { path } dependencyKeys { path } } }")["assetNodes"]
    graph = {n["assetKey"]["path"][0]: {d["path"][0] for d in n["dependencyKeys"]} for n in nodes}
    assert graph["match_warehouse"] == {"raw_match_log"}
    assert graph["match_report"] == {"match_warehouse"}
    assert graph["answer_report"] == {"charts"}

    # Launched over GraphQL: a match's ingest, then its report.
    sim_log, sim_id = data.parent / "launched.log", simulated_match_id(6)
    write_match(sim_log, seed=6, scale=0.2)
    dagit.query("""
        mutation($repo: RepositorySelector!, $key: String!) {
          addDynamicPartition(repositorySelector: $repo, partitionsDefName: "matches", partitionKey: $key) {
            __typename }
        }""", {"repo": REPO, "key": sim_id})
    config = {"ops": {"raw_match_log": {"config": {"path": str(sim_log)}}}}
    wait_for_run(dagit, launch(dagit, "ingest_match_job", sim_id, config), deadline)
    wait_for_run(dagit, launch(dagit, "match_report_job", sim_id), deadline)
    assert sim_id in materialized_partitions(dagit, "match_report")
    assert (data / "reports" / sim_id / "report.html").exists()

    # Dropped into the incoming folder: the sensor ingests it and automation builds its report.
    dropped_id = simulated_match_id(5)  # numeric, as the game writes ids
    write_match(data / "incoming" / "scrim.log", seed=5, scale=0.3)  # the sensor, not the size
    wait_until("the dropped log's report", lambda: dropped_id in materialized_partitions(
        dagit, "match_report"), deadline, every=3.0)
    assert dropped_id in materialized_partitions(dagit, "match_warehouse")
    assert (data / "reports" / dropped_id / "report.html").exists()  # numeric ids are safe names
