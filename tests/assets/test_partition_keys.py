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
from pathlib import Path

import dagster as dg

from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.keys import folder_name, key_from_folder_name
from resources.io_managers import latest_package_file
from tests.support.hostile_keys import MAPPABLE, MATCH_KEYS, REPORTED, TAG, UNMAPPABLE, file_names


def _nothing_escaped(top: Path, home: Path, before: set[str]) -> None:
    assert file_names(top, home) == before, "a file was written outside the data home"
    assert not list(Path("/tmp").glob(f"*{TAG}*")), "an absolute key became a path under /tmp"


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
