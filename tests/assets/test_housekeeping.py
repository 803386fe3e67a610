"""Housekeeping with real Dagster runs: the nightly job deletes expired data handles and expires question
partitions inactive for longer than the retention setting, with their packages, artifacts (follow-ups' too),
request and runs, and nothing else."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import dagster as dg
import pytest

import definitions
from assets.jobs import housekeeping_job
from combat_analysis.inbox.retention import request_file, sort_questions
from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import write_match
from combat_analysis.keys import path_for_key
from combat_analysis.settings import Paths
from combat_analysis.warehouse.handles import HandleStore
from combat_analysis.warehouse.store import WarehouseError, history, match_ids, restore_match
from resources import CombatHome
from resources.io_managers import package_folder
from tests.support.dagster import NEW, OLD, ask_question, resources_for
from tests.support.paths import SAMPLE_MATCH_ID
from tests.support.simulated import doubled_damage, roster

ASSETS = ("query_plan", "query_results", "findings", "charts", "answer_report")


def ask(home, instance, question: str, key: str) -> dg.ExecuteInProcessResult:
    result = ask_question(home, instance, question, key)
    assert result.success
    return result


def housekeeping(home, instance, as_of: datetime, *, dry_run: bool = False, home_resource=None):
    resources = {**resources_for(home), **({"home": home_resource} if home_resource is not None else {})}
    result = housekeeping_job.execute_in_process(
        instance=instance, resources=resources,
        run_config={"ops": {"expire_old_questions": {"config": {"as_of": as_of.isoformat(), "dry_run": dry_run}}}})
    assert result.success
    return result


def question_runs(instance, key: str) -> list:
    return instance.get_run_records(dg.RunsFilter(tags={"dagster/partition": key}))


def stored(home, key: str) -> list[bool]:
    return [package_folder(home / "packages", asset, key).is_dir() for asset in ASSETS]


def test_housekeeping_expires_old_questions_and_handles(two_questions):
    home, instance, between = two_questions
    paths = Paths.from_env(home)
    old_final = resources_for(home)["package_io_manager"].latest("answer_report", OLD)
    followups = [f.query_id for f in old_final.response.followup_answers]
    # follow-ups are answered without files of their own (StageEnv.answer_only); the sweep still covers
    # any a package from before wrote, checked at the end
    assert followups
    a_month_after = between + timedelta(days=30)

    # a dry run lists the old question and removes nothing
    dry = housekeeping(home, instance, a_month_after, dry_run=True)
    assert dry.output_for_node("expire_old_questions") == [OLD]
    assert sorted(instance.get_dynamic_partitions("questions")) == sorted([OLD, NEW]) and all(stored(home, OLD))

    # retention 0 keeps every question
    keep = housekeeping(home, instance, a_month_after + timedelta(days=365),
                        home_resource=CombatHome(home=str(home), question_retention_days=0))
    assert keep.output_for_node("expire_old_questions") == [] and all(stored(home, OLD))

    store = HandleStore(paths.handles)
    before = set(store.ids())
    stale = store.put_rows([{"a": 1}], source="test", now=datetime.now(timezone.utc) - timedelta(days=2))
    live = store.put_rows([{"a": 2}], source="test")
    result = housekeeping(home, instance, a_month_after)
    assert result.output_for_node("remove_expired_handles") == [stale.handle_id]
    assert set(store.ids()) == before | {live.handle_id}
    assert result.output_for_node("expire_old_questions") == [OLD]
    [step] = [e for e in result.all_node_events if e.step_key == "expire_old_questions" and e.is_successful_output]
    meta = step.event_specific_data.metadata
    assert (meta["retention_days"].value, meta["expired"].value, meta["kept"].value) == (30, 1, 1)

    # the old question is gone as a whole ...
    assert instance.get_dynamic_partitions("questions") == [NEW]
    assert stored(home, OLD) == [False] * 5
    assert not path_for_key(paths.artifacts, OLD).exists()
    assert not any(path_for_key(paths.artifacts, q).exists() for q in followups)
    assert not request_file(paths, OLD).exists() and question_runs(instance, OLD) == []
    # ... and nothing else is
    assert stored(home, NEW) == [True] * 5
    assert path_for_key(paths.artifacts, NEW).is_dir() and request_file(paths, NEW).exists()
    assert len(question_runs(instance, NEW)) == 1
    assert instance.get_dynamic_partitions("matches") == [SAMPLE_MATCH_ID]
    assert (home / "warehouse").is_dir() and len(question_runs(instance, SAMPLE_MATCH_ID)) == 1  # the ingest run stays

    # a month later still, the newer question goes too; the key can then be asked again from scratch
    assert housekeeping(home, instance, a_month_after + timedelta(minutes=5)).output_for_node(
        "expire_old_questions") == [NEW]
    again = ask(home, instance, "Who got first blood?", OLD)
    answer = again.asset_materializations_for_node("answer_report")[0].metadata["direct_answer"].value
    assert answer.startswith("Tsunami88 got first blood") and all(stored(home, OLD))

    # a question with a run not yet finished (here: created, not started) is never expired, however old
    job = definitions.defs.resolve_job_def("answer_question_job")
    instance.create_run_for_job(job, tags={"dagster/partition": OLD}, status=dg.DagsterRunStatus.NOT_STARTED)
    later = housekeeping(home, instance, a_month_after + timedelta(days=365))
    assert later.output_for_node("expire_old_questions") == [] and instance.get_dynamic_partitions("questions") == [OLD]


def test_the_retention_setting_comes_from_the_environment(two_questions, monkeypatch):
    home, instance, between = two_questions
    monkeypatch.setenv("COMBAT_ANALYSIS_QUESTION_RETENTION_DAYS", "3650")
    from_env = CombatHome.from_env()  # the variable's name, resolved when a run starts (the UI shows the name)
    assert getattr(from_env.question_retention_days, "env_var_name", None) == "COMBAT_ANALYSIS_QUESTION_RETENTION_DAYS"
    result = housekeeping(home, instance, between + timedelta(days=400),
                          home_resource=CombatHome(home=str(home), question_retention_days=from_env.question_retention_days))
    [step] = [e for e in result.all_node_events if e.step_key == "expire_old_questions" and e.is_successful_output]
    assert step.event_specific_data.metadata["retention_days"].value == 3650
    assert result.output_for_node("expire_old_questions") == []


def test_the_job_and_schedule_are_named_as_documented():
    defs = definitions.defs
    assert defs.resolve_job_def("housekeeping_job").name == "housekeeping_job"
    schedule = defs.resolve_schedule_def("housekeeping_schedule")
    assert schedule.job_name == "housekeeping_job" and schedule.cron_schedule == "15 4 * * *"


def test_questions_are_sorted_by_last_activity():
    now = datetime(2025, 6, 30, tzinfo=timezone.utc)
    activity = {"old": now - timedelta(days=40), "recent": now - timedelta(days=2), "running": now - timedelta(days=90)}
    got = sort_questions(["old", "recent", "running", "never-run"], activity, {"running"}, now - timedelta(days=30))
    assert (got.expired, got.kept, got.busy, got.unknown) == (("old",), ("recent",), ("running",), ("never-run",))


def test_housekeeping_tidies_the_warehouse_by_its_own_retention(tmp_path):
    """A replaced match's earlier version stays restorable for `version_retention_days`, and the nightly job then
    expires it (and its files), never the current version."""
    home = tmp_path / "home"
    lake = Paths.from_env(home).lake
    log = tmp_path / "m.log"
    write_match(log, 5, minutes=4)
    assert ingest_log(log, lake).status == "ingested"
    assert ingest_log(doubled_damage(log, tmp_path / "m2.log", roster(log)[0]), lake).status == "replaced"
    [match_id] = match_ids(lake)
    instance = dg.DagsterInstance.ephemeral()

    def tidy(days: int) -> dict:
        resources = {**resources_for(home), "home": CombatHome(home=str(home), version_retention_days=days)}
        result = housekeeping_job.execute_in_process(instance=instance, resources=resources)
        assert result.success
        [step] = [e for e in result.all_node_events if e.step_key == "tidy_warehouse" and e.is_successful_output]
        return {k: v.value for k, v in step.event_specific_data.metadata.items()}

    assert tidy(7)["snapshots_expired"] == 0
    assert [v.action for v in history(lake, match_id)] == ["ingested", "replaced"]
    meta = tidy(0)
    assert meta["snapshots_expired"] >= 1 and meta["retention_days"] == 0
    assert [v.action for v in history(lake, match_id)] == ["replaced"]
    with pytest.raises(WarehouseError, match="no earlier version"):
        restore_match(lake, match_id)
    assert match_ids(lake) == [match_id]  # the current version is never expired
