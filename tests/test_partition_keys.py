"""Partition keys are data, never paths: hostile keys through the Dagster API, for both partition sets.

Anyone with UI or GraphQL access can add a dynamic partition with any key. Through real runs
(`dg.materialize` on an instance that has the key), nothing may be written outside the data home: every
key-derived file lands inside it under the key's encoded name (`combat_analysis.keys`), and a key that cannot
be mapped fails the run with a clear reason before anything is written. The data home sits a few folders deep
in the test's temporary folder, so a relative escape would land where it is seen; absolute keys carry a unique
tag that is looked for under /tmp afterwards.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import dagster as dg
import pytest

from assets.ingest import match_warehouse, raw_match_log
from assets.questions import QuestionConfig, question_assets
from assets.reports import match_report
from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.keys import folder_name, key_from_folder_name
from resources.io_managers import latest_package_file
from tests.dagster_fixtures import new_instance, resources_for
from tests.simulated import simulated_log

TAG = uuid.uuid4().hex[:12]
MAPPABLE = [f"../../../evil_{TAG}", f"/tmp/evil_{TAG}_abs", "..", ".", f"a/../../{TAG}", f"..\\..\\evil_{TAG}",
            f"😈/../{TAG}", "CON", f"~/{TAG}"]
# too long, NUL, control characters; and "" which Dagster itself runs as no partition at all
UNMAPPABLE = ["x" * 300, "nul\x00key", "bell\x07", f"evil\nline_{TAG}", ""]


def _files(folder: Path, skip: Path) -> set[str]:
    return {str(p) for p in folder.rglob("*") if skip not in p.parents and p != skip}


def _nothing_escaped(top: Path, home: Path, before: set[str]) -> None:
    assert _files(top, home) == before, "a file was written outside the data home"
    assert not list(Path("/tmp").glob(f"*{TAG}*")), "an absolute key became a path under /tmp"


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    top = tmp_path_factory.mktemp("keys")
    home = top / "deep" / "er" / "still" / "home"
    home.mkdir(parents=True)
    return top, home


def _failure_text(result: dg.ExecuteInProcessResult) -> str:
    """Every failed step's error and the errors that caused it, as the UI shows them."""
    texts = []
    for event in result.all_events:
        error = event.event_specific_data.error if event.event_type_value == "STEP_FAILURE" else None
        while error is not None:
            texts.append(error.message)
            error = error.cause
    return " ".join(texts)


# ------------------------------------------------------------------------------------------- matches

MATCH_KEYS = [f"../../../evil_{TAG}_m", f"/tmp/evil_{TAG}_m", "..", f"😈/../{TAG}", "Ünï 'cödé' #1"]
REPORTED = MATCH_KEYS[:2]  # a match report takes seconds; the two escapes that matter most get one


@pytest.fixture(scope="module")
def matches(place):
    top, home = place
    logs = top / "logs"
    logs.mkdir()
    instance = new_instance()
    instance.add_dynamic_partitions("matches", MATCH_KEYS + UNMAPPABLE)
    before = _files(top, home) | {str(logs / f"match-{40 + i}.log") for i in range(len(MATCH_KEYS))}
    runs = {}
    for i, key in enumerate(MATCH_KEYS):
        log = simulated_log(logs, 40 + i, key)
        runs[key] = dg.materialize(
            [raw_match_log, match_warehouse], partition_key=key, instance=instance, resources=resources_for(home),
            run_config={"ops": {"raw_match_log": {"config": {"path": str(log)}}}}, raise_on_error=False)
    for key in REPORTED:
        runs[("report", key)] = dg.materialize([match_report], partition_key=key, instance=instance,
                                               resources=resources_for(home), raise_on_error=False)
    for key in UNMAPPABLE:
        runs[key] = dg.materialize(
            [raw_match_log, match_warehouse], partition_key=key, instance=instance, resources=resources_for(home),
            run_config={"ops": {"raw_match_log": {"config": {"path": str(logs / 'match-40.log')}}}}, raise_on_error=False)
        runs[("report", key)] = dg.materialize([match_report], partition_key=key, instance=instance,
                                               resources=resources_for(home), raise_on_error=False)
    return top, home, before, runs


def test_match_keys_stay_inside_the_data_home(matches):
    top, home, before, runs = matches
    for key in MATCH_KEYS:
        assert runs[key].success, key
        assert (home / "requests" / "matches" / f"{folder_name(key)}.json").is_file()
    for key in REPORTED:
        assert runs[("report", key)].success, key
        meta = runs[("report", key)].asset_materializations_for_node("match_report")[0].metadata
        html = Path(meta["report_html"].value)
        assert html == home / "reports" / folder_name(key) / "report.html" and html.is_file()
        assert meta["match_id"].value == key
    _nothing_escaped(top, home, before)


def test_unmappable_match_keys_fail_before_anything_is_written(matches):
    top, home, before, runs = matches
    for key in UNMAPPABLE:
        for run in (runs[key], runs[("report", key)]):
            assert not run.success, repr(key)
        if key:  # the reason names what is wrong with the key
            for run in (runs[key], runs[("report", key)]):
                assert re.search(r"characters long|NUL character|control or unassigned character",
                                 _failure_text(run)), repr(key)
    assert len(list((home / "requests" / "matches").iterdir())) == len(MATCH_KEYS)
    assert len([p for p in (home / "reports").iterdir()]) == len(REPORTED)
    _nothing_escaped(top, home, before)


# ----------------------------------------------------------------------------------------- questions

MATCH_ID = "4417029581"


@pytest.fixture(scope="module")
def questions(place):
    top, home = place
    home = home.parent / "qhome"
    home.mkdir()
    from combat_analysis.ingest.run import ingest_log

    ingest_log(simulated_log(top, 50, MATCH_ID), home / "warehouse")
    instance = new_instance()
    instance.add_dynamic_partitions("questions", MAPPABLE + UNMAPPABLE)
    before = _files(top, home)
    runs = {}
    for i, key in enumerate(MAPPABLE + UNMAPPABLE):
        # one real answer (queries, charts, handles); the rest are refusals, which still write every
        # key-derived file: the registry entry, five packages and the report
        question = "Who got first blood?" if i == 0 else "What was the weather during the match?"
        config = QuestionConfig(question=question, match_id=MATCH_ID)
        runs[key] = dg.materialize(question_assets, partition_key=key, instance=instance,
                                   resources=resources_for(home), run_config=dg.RunConfig(ops={"query_plan": config}),
                                   raise_on_error=False)
    return top, home, before, runs


def test_question_keys_stay_inside_the_data_home(questions):
    top, home, before, runs = questions
    for key in MAPPABLE:
        assert runs[key].success, repr(key)
        name = folder_name(key)
        assert (home / "requests" / "questions" / f"{name}.json").is_file()
        final = AgentDataPackage.from_json(latest_package_file(home / "packages", "answer_report", key).read_text())
        assert final.metadata.query_id == key
        assert Path(final.final_output.html_path) == home / "artifacts" / name / "report.html"
        for asset in ("query_plan", "query_results", "findings", "charts", "answer_report"):
            assert (home / "packages" / asset / name / "latest.json").is_file()
    first = AgentDataPackage.from_json(latest_package_file(home / "packages", "answer_report", MAPPABLE[0]).read_text())
    assert not first.is_refusal and first.response.direct_answer
    _nothing_escaped(top, home, before)


def test_unmappable_question_keys_fail_before_anything_is_written(questions):
    top, home, before, runs = questions
    for key in UNMAPPABLE:
        assert not runs[key].success, repr(key)
        if key:
            assert "refused before anything was written: question partition key" in _failure_text(runs[key])
    for folder in ("requests/questions", "packages/query_plan"):
        assert len(list((home / folder).iterdir())) == len(MAPPABLE), folder
    # artifacts also hold the first answer's follow-ups (their own query ids); every name is an encoded key
    names = {p.name for p in (home / "artifacts").iterdir()}
    assert {folder_name(k) for k in MAPPABLE} <= names
    assert all(folder_name(key_from_folder_name(n)) == n for n in names)
    _nothing_escaped(top, home, before)
