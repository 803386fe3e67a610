"""`ask --dagster-url` without a webserver: what it checks before anything is launched, the errors it gives for an
address with nothing or something else behind it, and the small pure parts (addresses, keys, progress lines).
The asks against a real webserver are in tests/system/test_webserver.py."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from annotated_types import MaxLen

from combat_analysis.app import remote
from combat_analysis.inbox.requests import QuestionRequest
from combat_analysis.keys import check_key
from tests.support.commands import cli


def question_limit() -> int:
    return next(m.max_length for m in QuestionRequest.model_fields["question"].metadata if isinstance(m, MaxLen))


@pytest.mark.parametrize(("given", "base"), [
    ("http://localhost:3000", "http://localhost:3000"),
    ("localhost:3000/", "http://localhost:3000"),
    ("https://dagster.example.org/graphql", "https://dagster.example.org"),
    ("http://host:8080/dagster/", "http://host:8080/dagster"),  # a webserver behind a path prefix
])
def test_the_webserver_address_is_taken_as_users_write_it(given, base):
    assert remote.webserver_url(given) == base


def test_an_address_that_is_not_http_is_bad_input():
    with pytest.raises(remote.RemoteBadInput, match="not an http"):
        remote.webserver_url("ftp://host/x")


def test_a_question_over_the_limit_is_refused_before_anything_is_asked(tmp_path, dead_url):
    """Exit 2 naming the limit, though nothing answers at the address: the request is checked first."""
    limit = question_limit()
    run = cli(tmp_path, "ask", "--dagster-url", dead_url, "w" * (limit + 1))
    assert run.returncode == remote.BAD_INPUT, run.stderr
    assert f"the limit is {limit:,}" in run.stderr and run.stdout == ""


@pytest.mark.parametrize("match", ["a\x00b", "x" * 201, "bell\x07"])
def test_a_match_id_that_cannot_be_a_key_is_bad_input(match):
    with pytest.raises(remote.RemoteBadInput, match="match_id"):
        remote.question_request("who won", match, (), True)


def test_match_ids_are_data_and_an_empty_one_lets_the_run_choose():
    assert remote.question_request("who won", "../a/b", (), True).match_id == "../a/b"  # keys are never paths
    assert remote.question_request("who won", "", (), True).match_id is None


def test_nothing_at_the_address_exits_3_and_says_what_to_start(tmp_path, dead_url):
    run = cli(tmp_path, "ask", "--dagster-url", dead_url, "who won")
    assert run.returncode == remote.INTERNAL_ERROR
    assert f"cannot reach the Dagster webserver at {dead_url}" in run.stderr and "make dev" in run.stderr
    assert run.stdout == ""


def test_a_web_server_that_is_not_dagster_exits_3(tmp_path, plain_web_server):
    run = cli(tmp_path, "ask", "--dagster-url", plain_web_server, "who won")
    assert run.returncode == remote.INTERNAL_ERROR
    assert "HTTP 404" in run.stderr and "Dagster webserver's address" in run.stderr


@pytest.mark.parametrize("option", [["--log", "x.log"], ["--dagster"], ["--as-of", "3"]])
def test_local_only_options_are_bad_input_with_a_remote_ask(tmp_path, dead_url, option):
    run = cli(tmp_path, "ask", "--dagster-url", dead_url, *option, "who won")
    assert run.returncode == remote.BAD_INPUT and "use --match" in run.stderr


def test_each_ask_gets_a_partition_key_of_its_own():
    request = remote.question_request("Who   dealt the most damage?", None, (), True)
    first = remote.partition_key(request, datetime(2025, 3, 2, 19, 18, 7, 1, tzinfo=timezone.utc))
    second = remote.partition_key(request, datetime(2025, 3, 2, 19, 18, 7, 2, tzinfo=timezone.utc))
    assert first != second and first.startswith(request.key()) and check_key(first) == first
    assert request.question == "Who dealt the most damage?"  # spacing is not part of the question


def test_progress_says_what_changed_between_two_looks():
    queued = remote.RunState("QUEUED", ())
    running = remote.RunState("STARTED", (("query_plan", "SUCCESS"), ("query_results", "IN_PROGRESS")))
    later = remote.RunState("STARTED", (("query_plan", "SUCCESS"), ("query_results", "SUCCESS")))
    assert remote.news(None, queued) == ["run queued"]
    assert remote.news(queued, running) == ["run started", "query_plan: success", "query_results: in progress"]
    assert remote.news(running, later) == ["query_results: success"]
    assert remote.news(later, later) == []


def test_metadata_entries_read_as_text_whatever_their_type():
    assert remote.entry_value({"label": "a", "text": "36,033"}) == "36,033"
    assert remote.entry_value({"label": "b", "path": "/x/report.html"}) == "/x/report.html"
    assert remote.entry_value({"label": "c", "intRepr": "3"}) == "3"
    assert remote.entry_value({"label": "d", "boolValue": False}) == "False"
    assert remote.entry_value({"label": "e"}) == ""


def test_an_answer_without_a_final_report_is_a_failed_run():
    with pytest.raises(remote.RemoteRunFailed, match="no answer_report"):
        remote.answer_from({"query_plan": {"intent": "lookup"}}, "k", "run-1", "http://h/runs/run-1")
    refused = remote.answer_from({"query_plan": {"intent": "refuse"}, "answer_report": {"direct_answer": "no"}},
                                 "k", "run-1", "http://h/runs/run-1")
    assert refused.refused and refused.exit_code == remote.REFUSED
