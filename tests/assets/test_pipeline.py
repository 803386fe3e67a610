"""Real Dagster runs: ingest a match partition with its checks, answer a question through the five assets,
build the match report, and let the sensors turn dropped files into runs."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import pytest

from assets.questions import QuestionConfig, question_assets
from assets.reports import match_report
from assets.sensors import incoming_logs_sensor, question_files_sensor
from combat_analysis.contracts.package import AgentDataPackage
from combat_analysis.ingest.run import ingest_log
from resources.io_managers import latest_package_file
from tests.support.dagster import ask_question, drop_log, new_instance, resources_for
from tests.support.paths import SAMPLE_LOG, SAMPLE_MATCH_ID
from tests.support.simulated import doubled_damage, simulated_log

KEY = SAMPLE_MATCH_ID  # the sample's match id is already a safe partition key


def test_ingest_asset_metadata_and_checks(dagster_home):
    _, _, result = dagster_home
    [materialization] = [m for m in result.asset_materializations_for_node("match_warehouse")]
    meta = materialization.metadata
    assert meta["lines"].value == 26671
    assert meta["quarantined_lines"].value == 0
    assert meta["event_counts"].value == {"CombatMsg": 23308, "RewardMsg": 3082, "itemmsg": 241,
                                          "playermsg": 39, "start": 1}
    assert "VoidWalker" in meta["players"].value
    checks = {c.check_name: c.passed for c in result.get_asset_check_evaluations()}
    assert checks == {"every_line_accounted_for": True, "exactly_two_teams": True, "players_complete": True,
                      "kills_balance_deaths": True}


def stored_packages(home: Path, key: str) -> list[AgentDataPackage]:
    return [AgentDataPackage.from_json(latest_package_file(home / "packages", asset, key).read_text())
            for asset in ("query_plan", "query_results", "findings", "charts", "answer_report")]


def test_question_chain_end_to_end(dagster_home):
    home, instance, _ = dagster_home
    result = ask_question(home, instance, "Who dealt the most damage in the match?", "top-damage")
    assert result.success
    packages = stored_packages(home, "top-damage")
    final = packages[-1]
    assert final.response.direct_answer.startswith("VoidWalker dealt the most damage: 192,395")
    assert [p.version for p in packages] == [1, 2, 3, 4, 5]
    for parent, child in zip(packages, packages[1:], strict=False):
        assert child.parent_digest == parent.digest
    assert [s.stage for s in final.metadata.processing_history] == [
        "query_analyst", "data_engineer", "analyst", "visualization", "composer"]
    checks = {c.check_name: c.passed for c in result.get_asset_check_evaluations()}
    assert checks == {"numbers_trace_to_data": True}
    report = result.asset_materializations_for_node("answer_report")[0].metadata
    assert report["direct_answer"].value == final.response.direct_answer
    assert report["digest"].value == final.digest
    assert Path(report["report_html"].value).exists()
    charts = result.asset_materializations_for_node("charts")[0].metadata
    assert "data:image/png;base64," in charts["charts"].value
    # the data version the UI shows is the package digest
    record = instance.get_latest_materialization_event(dg.AssetKey("answer_report"))
    assert record.asset_materialization.tags["dagster/data_version"] == final.digest


def test_a_second_question_keeps_the_first_answer(dagster_home):
    home, instance, _ = dagster_home
    ask_question(home, instance, "Who healed the most?", "top-healer")
    first = stored_packages(home, "top-damage")[-1]
    second = stored_packages(home, "top-healer")[-1]
    assert "VoidWalker" in first.response.direct_answer
    assert "PapiTacos" in second.response.direct_answer and "28,752" in second.response.direct_answer


def test_a_question_partition_answers_as_it_first_did_after_its_match_is_replaced(tmp_path, truth):
    """Time travel through Dagster: the partition keeps the lake snapshot of its first answer, so answering it
    again after the match was replaced gives the same answer; and its key holds that one question only."""
    home, instance = tmp_path / "home", new_instance()
    ingest_log(SAMPLE_LOG, home / "warehouse")
    first = ask_question(home, instance, "Who dealt the most damage in the match?", "as-it-was")
    before = stored_packages(home, "as-it-was")[-1]
    leader = max(truth["players"], key=lambda p: truth["players"][p]["damage_dealt"])
    assert ingest_log(doubled_damage(SAMPLE_LOG, tmp_path / "doubled.log", leader), home / "warehouse").status == "replaced"
    again = dg.materialize(question_assets, partition_key="as-it-was", instance=instance,
                           resources=resources_for(home), run_config=dg.RunConfig(ops={"query_plan": QuestionConfig()}))
    assert first.success and again.success
    after = stored_packages(home, "as-it-was")[-1]
    assert after.response.direct_answer == before.response.direct_answer
    assert after.metadata.warehouse_snapshot == before.metadata.warehouse_snapshot is not None
    assert f"{int(truth['players'][leader]['damage_dealt']):,}" in after.response.direct_answer
    other = dg.materialize(question_assets, partition_key="as-it-was", instance=instance, raise_on_error=False,
                           resources=resources_for(home),  # another question under the same key
                           run_config=dg.RunConfig(ops={"query_plan": QuestionConfig(question="Who healed the most?")}))
    assert not other.success
    assert stored_packages(home, "as-it-was")[-1].digest == after.digest


def test_refusal_runs_to_the_end_without_failing(dagster_home):
    home, instance, _ = dagster_home
    result = ask_question(home, instance, "What was the weather during the match?", "weather")
    assert result.success
    final = stored_packages(home, "weather")[-1]
    assert final.is_refusal
    assert not any(ch.isdigit() for ch in final.response.direct_answer)


def test_tampered_package_stops_the_next_stage(dagster_home, tmp_path):
    home, instance, _ = dagster_home
    ask_question(home, instance, "Who got first blood?", "first-blood")
    stored = latest_package_file(home / "packages", "charts", "first-blood")
    stored.write_text(stored.read_text().replace("Tsunami88", "Mallory"))
    with pytest.raises(Exception, match="does not match its content"):
        dg.materialize(question_assets, selection=["answer_report"], partition_key="first-blood",
                       instance=instance, resources=resources_for(home))


def test_match_report_asset(dagster_home):
    home, instance, _ = dagster_home
    result = dg.materialize([match_report], partition_key=KEY, instance=instance, resources=resources_for(home))
    meta = result.asset_materializations_for_node("match_report")[0].metadata
    assert meta["winner"].value == "team 2"
    assert meta["duration_s"].value == 1919
    html = Path(meta["report_html"].value)
    text = html.read_text()
    assert "Team 2 won" in text and text.count("data:image/png;base64,") == 3
    assert "VoidWalker dealt the most damage: 192,395" in meta["headlines"].value


def test_incoming_sensor_registers_each_new_log_once(tmp_path):
    home = tmp_path / "home"
    drop_log(home, SAMPLE_LOG, "scrim.log")
    instance = new_instance()
    with dg.build_sensor_context(instance=instance, resources=resources_for(home)) as context:
        first = incoming_logs_sensor(context)
        assert [r.partition_key for r in first.run_requests] == [KEY]
        assert first.dynamic_partitions_requests[0].partition_keys == [KEY]
        context.update_cursor(first.cursor)
        again = incoming_logs_sensor(context)
        assert again.run_requests == []


def test_question_file_sensor_turns_files_into_partitions(tmp_path):
    home = tmp_path / "home"
    (home / "questions").mkdir(parents=True)
    (home / "questions" / "q1.json").write_text(json.dumps({"question": "Who healed the most?",
                                                            "match_id": SAMPLE_MATCH_ID}))
    (home / "questions" / "broken.json").write_text("{not json")
    ingest_log(simulated_log(tmp_path, 65, SAMPLE_MATCH_ID), home / "warehouse")  # its match is in: no wait
    instance = new_instance()
    with dg.build_sensor_context(instance=instance, resources=resources_for(home)) as context:
        result = question_files_sensor(context)
    [request] = result.run_requests
    assert request.partition_key.startswith("who-healed-the-most-")
    registered = json.loads((home / "requests" / "questions" / f"{request.partition_key}.json").read_text())
    assert registered["question"] == "Who healed the most?"
