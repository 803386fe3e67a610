"""The code location loads, validates, and reads like the product."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dagster as dg

import definitions
from resources import CombatHome, PlannerResource
from tests.support.paths import ROOT


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
                "housekeeping_job"):
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
    multiprocess = executor_from_env()
    assert multiprocess.name == "multiprocess"
    # Steps start from a forkserver that imported the code location once (the Postgres test runs it for real).
    resolved = multiprocess.config_schema.resolve_config({"config": {"max_concurrent": 2}}).value["config"]
    assert resolved["max_concurrent"] == 2
    assert resolved["start_method"] == {"forkserver": {"preload_modules": ["definitions"]}}
    monkeypatch.setenv("COMBAT_ANALYSIS_EXECUTOR", "carrier-pigeon")
    try:
        executor_from_env()
    except ValueError as exc:
        assert "carrier-pigeon" in str(exc)
    else:
        raise AssertionError("an unknown executor must be refused")


def test_question_runs_are_in_process_and_the_rest_follow_the_environment(monkeypatch):
    """The executor each job of the code location resolves to: a question's always in process, every other
    job's the one COMBAT_ANALYSIS_EXECUTOR names (the default: multiprocess)."""
    import assets.jobs

    for choice, others in (("multiprocess", "multiprocess"), ("in_process", "in_process")):
        monkeypatch.setenv("COMBAT_ANALYSIS_EXECUTOR", choice)
        defs = dg.Definitions(assets=definitions.defs.assets, jobs=definitions.defs.jobs,
                              resources=definitions.defs.resources, executor=assets.jobs.executor_from_env())
        executors = {job.name: job.executor_def.name for job in defs.get_repository_def().get_all_jobs()
                     if not job.name.startswith("__")}
        assert executors.pop("answer_question_job") == "in_process"
        assert executors and set(executors.values()) == {others}, executors
        assert {"ingest_match_job", "housekeeping_job", "match_report_job"} <= set(executors)


def test_schedules_have_the_names_the_readme_gives():
    names = {schedule.name for schedule in definitions.defs.schedules}
    assert names == {"daily_digest_schedule", "housekeeping_schedule"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in readme for name in names)


@dg.asset
def configuration_seen(home: CombatHome, planner: PlannerResource) -> dict:
    """What the resources hold when a run executes (a harness for the test below)."""
    return {"home": str(home.paths.home), "llm_base_url": planner.llm_base_url, "llm_model": planner.llm_model,
            "api_key_env": planner.api_key_env}


def _materialize_with(resources: dict) -> dict:
    result = dg.materialize([configuration_seen], resources=resources, instance=dg.DagsterInstance.ephemeral())
    return result.output_for_node("configuration_seen")


def test_resources_read_configuration_through_envvar_at_run_time(monkeypatch, tmp_path):
    monkeypatch.setenv("COMBAT_ANALYSIS_HOME", str(tmp_path / "first"))
    monkeypatch.setenv("COMBAT_ANALYSIS_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("COMBAT_ANALYSIS_LLM_MODEL", "model-a")
    resources = {"home": CombatHome.from_env(), "planner": PlannerResource.from_env()}
    # An EnvVar is resolved when the run starts, not when the code location loads:
    monkeypatch.setenv("COMBAT_ANALYSIS_HOME", str(tmp_path / "second"))
    monkeypatch.setenv("COMBAT_ANALYSIS_LLM_MODEL", "model-b")
    seen = _materialize_with(resources)
    assert seen == {"home": str(tmp_path / "second"), "llm_base_url": "http://127.0.0.1:9/v1", "llm_model": "model-b",
                    "api_key_env": "COMBAT_ANALYSIS_LLM_API_KEY"}
    # ... and the UI sees the variable's name, never its value.
    config = resources["planner"].get_resource_definition().config_schema.default_value
    assert config["llm_base_url"] == {"env": "COMBAT_ANALYSIS_LLM_BASE_URL"}


def test_unset_variables_mean_the_defaults(monkeypatch, tmp_path):
    for name in ("COMBAT_ANALYSIS_HOME", "COMBAT_ANALYSIS_LLM_BASE_URL", "COMBAT_ANALYSIS_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    resources = {"home": CombatHome.from_env(), "planner": PlannerResource.from_env()}
    seen = _materialize_with(resources)
    assert seen == {"home": str(tmp_path / "data"), "llm_base_url": "", "llm_model": "gpt-4o-mini",
                    "api_key_env": "COMBAT_ANALYSIS_LLM_API_KEY"}
    assert resources["planner"].planner() is None  # the offline planner


def test_code_location_is_importable_from_anywhere(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", "import definitions, assets.launch; print(definitions.__file__)"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert Path(run.stdout.strip()) == ROOT / "definitions.py"
    for script in ("assets/launch.py", "scripts/demo.py"):
        assert "sys.path" not in (ROOT / script).read_text(encoding="utf-8"), script


def test_package_data_globs_match_files():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for package, patterns in project["tool"]["setuptools"]["package-data"].items():
        for pattern in patterns:
            assert list((ROOT / package).glob(pattern)), f"{package}: {pattern} matches nothing"


def test_dg_loads_the_project_from_tool_dg(tmp_path):
    env = {**os.environ, "VIRTUAL_ENV": str(Path(sys.executable).parents[1]),
           "DAGSTER_HOME": str(tmp_path)}
    run = subprocess.run([str(Path(sys.executable).parent / "dg"), "check", "defs", "--no-check-yaml"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "All definitions loaded successfully" in run.stdout + run.stderr


def test_loading_the_definitions_imports_no_matplotlib():
    """Every code server, run worker, step process and `dagster` command loads the definitions; matplotlib (half a
    second) is imported only where a chart is drawn (a chart's metadata preview needs Pillow alone)."""
    probe = "import sys, definitions; print(sorted(m for m in ('matplotlib', 'pandas') if m in sys.modules))"
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, "MPLBACKEND": "Agg"})
    assert run.stdout.strip() == "[]", run.stdout + run.stderr
