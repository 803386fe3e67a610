"""One warehouse, whichever door a match came in by: matches the CLI writes are recorded in Dagster (partition,
materialization with a sensor ingest's metadata, checks) and get their report by automation; the warehouse_sync
sensor records what was written with no instance configured; remove_match_job and restore_match_job."""

from __future__ import annotations

import dagster as dg

from assets.ingest import match_warehouse
from assets.jobs import remove_match_job, restore_match_job
from assets.record import REMOVED, dagster_versions, lake_state, record_matches_job
from assets.reports import match_report
from assets.season import ingested_match_ids, latest_materializations
from assets.sensors import warehouse_sync_sensor
from combat_analysis.settings import Paths
from combat_analysis.warehouse.store import history, match_ids, remove_match
from resources import CombatHome
from tests.support.dagster import automation_tick, new_instance, resources_for

WAREHOUSE = "match_warehouse"


def record(instance, home, run_config=None) -> dg.ExecuteInProcessResult:
    """A run of record_matches_job, as the CLI or the warehouse_sync sensor's request launches it."""
    return record_matches_job.execute_in_process(instance=instance, run_config=run_config,
                                                 resources={"home": CombatHome(home=str(home))})


def values(mat: dg.AssetMaterialization) -> dict:
    return {k: v.value for k, v in mat.metadata.items()}


def reports_requested(result) -> set[str]:
    return set(result.get_requested_partitions(match_report.key))


def test_cli_ingest_makes_partitions_with_the_metadata_of_a_sensor_ingest(cli_doors):
    home, dagster_home, ingest, again, through_run = cli_doors
    assert ingest.returncode == 0, ingest.stderr
    assert "Dagster: recorded 2 matches" in ingest.stderr
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        assert sorted(instance.get_dynamic_partitions("matches")) == ["door-one", "door-two"]
        recorded = latest_materializations(instance, WAREHOUSE)
        run_recorded = latest_materializations(through_run, WAREHOUSE)["door-one"]
        got, want = values(recorded["door-one"]), values(run_recorded)
        # the same keys and values; the snapshot is each lake's own (the CLI commits whichever match is ready first)
        assert {k: v for k, v in got.items() if k != "warehouse_snapshot"} == \
            {k: v for k, v in want.items() if k != "warehouse_snapshot"}
        assert got["warehouse_snapshot"] == history(Paths.from_env(home).lake, "door-one")[-1].snapshot
        assert values(recorded["door-two"])["match_id"] == "door-two"
        assert dagster_versions(instance)["door-one"] == dagster_versions(through_run)["door-one"]
        checks = instance.event_log_storage.get_asset_check_summary_records(
            [dg.AssetCheckKey(match_warehouse.key, "exactly_two_teams")])
        assert checks[dg.AssetCheckKey(match_warehouse.key, "exactly_two_teams")].last_check_execution_record \
            .status.value == "SUCCEEDED"


def test_ingesting_again_records_nothing_twice(cli_doors):
    _, dagster_home, _, again, _ = cli_doors
    assert again.returncode == 0, again.stderr
    assert "Dagster: recorded" not in again.stderr  # identical content: Dagster already has this version
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        page = instance.fetch_materializations(dg.AssetRecordsFilter(asset_key=match_warehouse.key), limit=10)
        assert len(page.records) == 2
        [run] = instance.get_runs(dg.RunsFilter(job_name="record_matches_job"))
        assert run.is_success


def test_recorded_matches_get_their_report_by_automation(cli_doors):
    home, dagster_home, *_ = cli_doors
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        # the automation sensor's first tick (nothing evaluated before the matches landed, as after `make dev`)
        first = automation_tick(home, instance)
        assert reports_requested(first) == {"door-one", "door-two"}


def test_a_match_recorded_after_a_tick_gets_its_report_on_the_next(lake_home):
    instance = new_instance()
    before = automation_tick(lake_home, instance)
    assert reports_requested(before) == set()
    assert record(instance, lake_home).success
    after = automation_tick(lake_home, instance, before.cursor)
    assert reports_requested(after) == {"lake-only"}


def sync(instance, home, cursor=None):
    with dg.build_sensor_context(instance=instance, resources={"home": CombatHome(home=str(home))},
                                 cursor=cursor) as context:
        return warehouse_sync_sensor(context)


def test_the_sync_sensor_records_a_match_written_without_an_instance(lake_home):
    instance = new_instance()
    first = sync(instance, lake_home)
    [request] = first.run_requests
    assert request.run_config["ops"]["record_warehouse_changes"]["config"]["match_ids"] == ["lake-only"]
    assert record(instance, lake_home, request.run_config).success  # what the daemon launches
    assert instance.get_dynamic_partitions("matches") == ["lake-only"]
    mat = latest_materializations(instance, WAREHOUSE)["lake-only"]
    assert values(mat)["status"] == "ingested" and values(mat)["lines"] > 0
    checks = instance.event_log_storage.get_asset_check_summary_records(
        [dg.AssetCheckKey(match_warehouse.key, name) for name in ("every_line_accounted_for", "exactly_two_teams")])
    assert all(r.last_check_execution_record.status.value == "SUCCEEDED" for r in checks.values())
    # the lake has not changed since: the next tick reads nothing more than its snapshot
    assert isinstance(sync(instance, lake_home, first.cursor), dg.SkipReason)


def test_the_sync_sensor_records_a_removal_made_outside_dagster(lake_home):
    instance = new_instance()
    paths = Paths.from_env(lake_home)
    first = sync(instance, lake_home)
    assert record(instance, lake_home, first.run_requests[0].run_config).success
    remove_match(paths.lake, "lake-only")
    removed = sync(instance, lake_home, first.cursor)
    [request] = removed.run_requests
    assert request.run_key == f"warehouse-snapshot-{lake_state(paths.lake).snapshot}"
    assert record(instance, lake_home, request.run_config).success
    assert values(latest_materializations(instance, WAREHOUSE)["lake-only"])["status"] == REMOVED
    # Dagster agrees with the lake now: recording again records nothing
    assert record(instance, lake_home).output_for_node("record_warehouse_changes") == 0


def test_remove_and_restore_jobs_take_a_match_out_of_every_view_and_back(lake_home):
    instance = new_instance()
    paths = Paths.from_env(lake_home)
    assert record(instance, lake_home).success
    resources = resources_for(lake_home)
    assert dg.materialize([match_report], partition_key="lake-only", instance=instance, resources=resources).success
    report_dir = paths.reports / "lake-only"
    assert (report_dir / "report.html").is_file()
    ticked = automation_tick(lake_home, instance)

    config = {"ops": {"remove_match_from_warehouse": {"config": {"match_id": "lake-only"}}}}
    removed = remove_match_job.execute_in_process(run_config=config, instance=instance,
                                                  resources={"home": CombatHome(home=str(lake_home))})
    assert removed.success
    assert match_ids(paths.lake) == []
    assert values(latest_materializations(instance, WAREHOUSE)["lake-only"])["status"] == REMOVED
    assert ingested_match_ids(instance) == set()  # the season's check no longer expects it
    after = automation_tick(lake_home, instance, ticked.cursor)
    assert reports_requested(after) == {"lake-only"}  # the report follows: it is taken down
    taken_down = dg.materialize([match_report], partition_key="lake-only", instance=instance, resources=resources)
    assert values(taken_down.asset_materializations_for_node("match_report")[0])["status"] == REMOVED
    assert not report_dir.exists()

    restore = {"ops": {"restore_match_to_warehouse": {"config": {"match_id": "lake-only"}}}}
    restored = restore_match_job.execute_in_process(run_config=restore, instance=instance,
                                                    resources={"home": CombatHome(home=str(lake_home))})
    assert restored.success
    assert match_ids(paths.lake) == ["lake-only"]
    latest = values(latest_materializations(instance, WAREHOUSE)["lake-only"])
    assert latest["status"] == "restored" and latest["match_id"] == "lake-only"
    assert ingested_match_ids(instance) == {"lake-only"}


def test_removing_an_unknown_match_fails_naming_it(lake_home):
    config = {"ops": {"remove_match_from_warehouse": {"config": {"match_id": "never-seen"}}}}
    result = remove_match_job.execute_in_process(run_config=config, instance=new_instance(), raise_on_error=False,
                                                 resources={"home": CombatHome(home=str(lake_home))})
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    assert "never-seen" in failure.step_failure_data.error.message
    assert match_ids(Paths.from_env(lake_home).lake) == ["lake-only"]
