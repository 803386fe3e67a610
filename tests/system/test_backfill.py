"""A burst of logs through Dagster, for real: logs dropped at once into the incoming folder become runs over
ranges of new match partitions (`logs_per_run` each), which wait in the run queue until a real `dagster-daemon`
launches them, run their steps with the multiprocess executor, and take the one `warehouse_writes` slot in
turn. Each run ingests its logs in one process; a bad log fails its run naming it, and the good log of the
same run still lands and is recorded."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest

from assets.sensors import RANGE_END_TAG, RANGE_START_TAG, incoming_logs_sensor
from combat_analysis.inbox.requests import peek_match_id
from combat_analysis.ingest.simulate import write_match
from combat_analysis.warehouse.store import match_ids, open_warehouse
from resources import CombatHome
from tests.support.dagster import local_dagster_home, new_instance
from tests.support.paths import ROOT
from tests.support.processes import stop_group
from tests.support.truth_checks import assert_player_figures, truth_of

pytestmark = pytest.mark.slow  # a real dagster-daemon drains the run queue

DEADLINE_S = 420


def logs_for(folder: Path) -> dict[str, Path]:
    """Four good logs and one a reader can name (its start event is fine) but not ingest (6% junk lines)."""
    folder.mkdir(parents=True)
    logs = {}
    for seed in (71, 72, 73, 74):
        write_match(folder / f"scrim-{seed}.log", seed, minutes=3, id_style="text")
        logs[f"scrim-{seed}.log"] = folder / f"scrim-{seed}.log"
    write_match(folder / "junk.log", 70, minutes=3, id_style="text")  # the first key: in a range with a good log
    lines = (folder / "junk.log").read_bytes().split(b"\n")
    (folder / "junk.log").write_bytes(b"\n".join(lines[:100] + [b"garbage"] * (len(lines) // 16) + lines[100:]))
    logs["junk.log"] = folder / "junk.log"
    return logs


def test_a_burst_of_new_logs_becomes_runs_of_ranges(tmp_path):
    home = tmp_path / "home"
    logs_for(home / "incoming")
    instance = new_instance()
    with dg.build_sensor_context(instance=instance, resources={"home": CombatHome(home=str(home), logs_per_run=2)}
                                 ) as context:
        result = incoming_logs_sensor(context)
    keys = sorted(peek_match_id(p) for p in (home / "incoming").iterdir())
    assert [r.partition_keys for r in result.dynamic_partitions_requests] == [keys]
    ranges = [(r.tags.get(RANGE_START_TAG), r.tags.get(RANGE_END_TAG), r.partition_key) for r in result.run_requests]
    assert ranges == [(keys[0], keys[1], None), (keys[2], keys[3], None), (None, None, keys[4])]
    # a corrected log of a match Dagster knows already is a run of its own
    instance.add_dynamic_partitions("matches", keys)
    write_match(home / "incoming" / "scrim-71.log", 71, minutes=4, id_style="text")
    with dg.build_sensor_context(instance=instance, cursor=result.cursor,
                                 resources={"home": CombatHome(home=str(home), logs_per_run=2)}) as context:
        again = incoming_logs_sensor(context)
    assert [r.partition_key for r in again.run_requests] == [peek_match_id(home / "incoming" / "scrim-71.log")]
    assert again.dynamic_partitions_requests == []
    # a few new logs (no more than logs_per_run) get a run each, as before
    with dg.build_sensor_context(instance=new_instance(), resources={"home": CombatHome(home=str(home))}) as context:
        few = incoming_logs_sensor(context)
    assert [r.partition_key for r in few.run_requests] == keys and all(
        RANGE_START_TAG not in r.tags for r in few.run_requests)


def _wait(what: str, predicate, deadline: float, log: Path, daemon: subprocess.Popen):
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if daemon.poll() is not None:  # a dead daemon launches nothing more: say so now, not at the deadline
            raise AssertionError(f"the daemon exited ({daemon.returncode}) before {what}; its log ends:\n"
                                 f"{log.read_text(errors='replace')[-3000:]}")
        time.sleep(1)
    raise AssertionError(f"timed out waiting for {what}; daemon log ends:\n{log.read_text(errors='replace')[-3000:]}")


def test_the_daemon_drains_ingest_runs_of_ranges_through_the_queue(tmp_path):
    dagster_home, data = local_dagster_home(tmp_path / "dagster_home"), tmp_path / "data"
    staging = logs_for(tmp_path / "staging")
    keys = {name: peek_match_id(path) for name, path in staging.items()}
    shutil.copytree(tmp_path / "staging", data / "incoming")
    env = {**os.environ, "DAGSTER_HOME": str(dagster_home), "COMBAT_ANALYSIS_HOME": str(data),
           "COMBAT_ANALYSIS_EXECUTOR": "multiprocess", "COMBAT_ANALYSIS_LOGS_PER_RUN": "2", "MPLBACKEND": "Agg"}
    daemon_log = tmp_path / "daemon.log"
    with open(daemon_log, "w") as out:
        daemon = subprocess.Popen(
            [str(Path(sys.executable).parent / "dagster-daemon"), "run", "-f", str(ROOT / "tests" / "support" / "ingest_location.py")],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
                def finished():
                    runs = instance.get_runs(dg.RunsFilter(job_name="ingest_match_job"))
                    return runs if len(runs) == 3 and all(r.is_finished for r in runs) else None

                runs = sorted(_wait("three finished ingest runs", finished, time.monotonic() + DEADLINE_S,
                                    daemon_log, daemon), key=lambda r: r.tags.get(RANGE_START_TAG, r.tags.get("dagster/partition")))
                records = {r.run_id: list(instance.all_logs(r.run_id)) for r in runs}
                partitions = instance.get_materialized_partitions(dg.AssetKey("match_warehouse"))
        finally:
            stop_group(daemon)
    ordered = sorted(keys.values())
    # Five new logs, two per run: two runs over ranges and one over the last partition.
    assert [(r.tags.get(RANGE_START_TAG), r.tags.get(RANGE_END_TAG)) for r in runs[:2]] == [
        (ordered[0], ordered[1]), (ordered[2], ordered[3])]
    assert runs[2].tags["dagster/partition"] == ordered[4]
    junk_run = runs[0]
    assert junk_run.tags[RANGE_START_TAG] == keys["junk.log"]  # its run holds a good log too
    for run in runs:
        kinds = [e.dagster_event.event_type_value for e in records[run.run_id] if e.dagster_event]
        # queued first, launched by the daemon, steps in their own processes (the events and the run's own messages
        # are printed when not, so a run that ended before it started says why)
        said = [(e.dagster_event.event_type_value, e.user_message or "") for e in records[run.run_id] if e.dagster_event]
        assert {"PIPELINE_ENQUEUED", "PIPELINE_STARTING", "PIPELINE_START"} <= set(kinds), (run.status, said)
        assert kinds.index("PIPELINE_ENQUEUED") < kinds.index("PIPELINE_STARTING") < kinds.index("PIPELINE_START")
        assert any("multiprocess executor" in (e.user_message or "") for e in records[run.run_id])
        assert run.status == (dg.DagsterRunStatus.FAILURE if run is junk_run else dg.DagsterRunStatus.SUCCESS)
    failure = next(e for e in records[junk_run.run_id] if e.dagster_event
                   and e.dagster_event.event_type_value == "STEP_FAILURE")
    assert "junk.log" in failure.dagster_event.step_failure_data.error.message
    assert "lines are malformed" in failure.dagster_event.step_failure_data.error.message
    # Every good log landed, exactly, and is a materialized partition; the junk one is neither.
    good = {name: key for name, key in keys.items() if name != "junk.log"}
    assert sorted(match_ids(data / "warehouse")) == sorted(good.values())
    assert set(partitions) == set(good.values())
    for name, key in good.items():
        assert_player_figures(open_warehouse(data / "warehouse", key), truth_of(staging[name]))
    # One warehouse writer at a time: the match_warehouse steps of the three runs never overlapped.
    spans = []
    for run in runs:
        times = [e.timestamp for e in records[run.run_id] if e.dagster_event and e.step_key == "match_warehouse"
                 and e.dagster_event.event_type_value in ("STEP_START", "STEP_SUCCESS", "STEP_FAILURE")]
        spans.append((min(times), max(times)))
    spans.sort()
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False)), spans
