"""The code location loads, validates, and reads like the product."""

from __future__ import annotations

import dagster as dg

import definitions


def test_definitions_load_and_validate():
    dg.Definitions.validate_loadable(definitions.defs)
    keys = {spec.key.to_user_string() for spec in definitions.defs.resolve_all_asset_specs()}
    assert keys == {"raw_match_log", "match_warehouse", "query_plan", "query_results", "findings", "charts",
                    "answer_report", "match_report", "daily_digest", "player_profiles", "god_stats",
                    "season_leaderboard", "season_report"}


def test_every_asset_has_docs_group_kinds_owner_and_code_version():
    for spec in definitions.defs.resolve_all_asset_specs():
        assert spec.description, spec.key
        assert spec.group_name in {"ingest", "questions", "reports", "season"}, spec.key
        assert spec.kinds, spec.key
        assert spec.owners, spec.key
        assert spec.code_version, spec.key


def test_sensors_schedules_and_jobs_are_on_by_default():
    defs = definitions.defs
    for name in ("incoming_logs_sensor", "question_files_sensor", "match_report_automation"):
        assert defs.resolve_sensor_def(name).default_status == dg.DefaultSensorStatus.RUNNING
    for schedule in defs.schedules:
        assert schedule.default_status == dg.DefaultScheduleStatus.RUNNING
    for job in ("ingest_match_job", "answer_question_job", "match_report_job", "daily_digest_job",
                "cleanup_handles_job"):
        assert defs.resolve_job_def(job).name == job


def test_lineage_runs_from_raw_log_to_report():
    graph = definitions.defs.resolve_asset_graph()
    parents = {key.to_user_string(): {p.to_user_string() for p in graph.get(key).parent_keys}
               for key in graph.get_all_asset_keys()}
    assert parents["match_warehouse"] == {"raw_match_log"}
    assert parents["match_report"] == {"match_warehouse"}
    assert parents["answer_report"] == {"charts"}
    assert parents["query_results"] == {"query_plan"}
    assert parents["query_plan"] == {"match_warehouse"}


def test_executor_is_chosen_by_environment(monkeypatch):
    from assets.jobs import executor_from_env

    monkeypatch.setenv("COMBAT_ANALYSIS_EXECUTOR", "in_process")
    assert executor_from_env() is dg.in_process_executor
    monkeypatch.setenv("COMBAT_ANALYSIS_EXECUTOR", "multiprocess")
    assert executor_from_env() is dg.multiprocess_executor
    monkeypatch.setenv("COMBAT_ANALYSIS_EXECUTOR", "carrier-pigeon")
    try:
        executor_from_env()
    except ValueError as exc:
        assert "carrier-pigeon" in str(exc)
    else:
        raise AssertionError("an unknown executor must be refused")
