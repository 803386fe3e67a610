"""`combat-analysis ask --dagster-url` and `remote.ask` against the real webserver and daemon (`dagster dev` on a
free port, a DAGSTER_HOME of the test's own, the project's workspace.yaml), the sample match ingested first:
the answer's figure is the truth file's, a refusal exits 1, a failed run names its stage's error, a timeout
leaves the run going, and a partition key keeps its first question."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from combat_analysis.app import remote
from combat_analysis.formatting import number
from combat_analysis.keys import folder_name
from tests.support.commands import cli
from tests.support.dagster import local_dagster_home
from tests.support.paths import ROOT, SAMPLE_LOG, SAMPLE_MATCH_ID, TRUTH_FILE
from tests.support.postgres import free_port

pytestmark = pytest.mark.slow  # the real webserver and daemon

START_DEADLINE_S = 240
ANSWER_TIMEOUT_S = 300.0


def _serving(base_url: str) -> bool:
    try:
        remote.find_repository(remote.GraphQL(base_url))
    except remote.RemoteError:
        return False
    return True


@pytest.fixture(scope="module")
def webserver(tmp_path_factory):
    """`dagster dev` serving the project, over a data home that already holds the sample match."""
    tmp = tmp_path_factory.mktemp("remote-ask")
    data = tmp / "data"
    ingested = cli(data, "ingest", str(SAMPLE_LOG))
    assert ingested.returncode == 0, ingested.stderr
    env = {**os.environ, "DAGSTER_HOME": str(local_dagster_home(tmp / "dagster_home")),
           "COMBAT_ANALYSIS_HOME": str(data), "COMBAT_ANALYSIS_EXECUTOR": "in_process", "MPLBACKEND": "Agg"}
    base_url = f"http://127.0.0.1:{free_port()}"
    with open(tmp / "dagster_dev.log", "w") as log:
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "dagster"), "dev", "-w", str(ROOT / "workspace.yaml"),
             "-h", "127.0.0.1", "-p", base_url.rsplit(":", 1)[1]],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + START_DEADLINE_S
            while not _serving(base_url):
                assert server.poll() is None, (tmp / "dagster_dev.log").read_text()
                assert time.monotonic() < deadline, "the webserver did not serve the project in time"
                time.sleep(2)
            yield base_url, data
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            # `dagster dev`'s code servers can outlive it by minutes: nothing of the group is left behind
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@pytest.fixture(scope="module")
def truth() -> dict:
    return json.loads(TRUTH_FILE.read_text(encoding="utf-8"))


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
