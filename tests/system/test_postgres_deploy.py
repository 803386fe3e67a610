"""The team deployment, for real: `deploy/dagster.team.yaml` on a PostgreSQL server this test starts itself
(Debian's `postgresql` package, in a temporary directory on 127.0.0.1), with a real `dagster-daemon run`
draining the run queue and the multiprocess executor running the ingests' steps (a question's run in process).

Two simulated logs dropped at once become two concurrent ingest runs; a question file then becomes a
question run. Everything is checked where the team would look: in Postgres's own tables.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.paths import ROOT, SHARED
from tests.support.postgres import Postgres
from tests.support.processes import stop_group

pytestmark = pytest.mark.slow  # a real PostgreSQL server and daemon

TEAM_INSTANCE = ROOT / "deploy" / "dagster.team.yaml"
DEADLINE_S = 360
SIM_SCALE = 0.5  # ~10,000 lines a match: the pool slot the test holds, not the logs' size, makes the runs overlap


def _truth(log: Path) -> dict:
    spec = importlib.util.spec_from_file_location("shared_truth", SHARED / "tools" / "truth.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.figures(*module.load(str(log)))


def test_team_instance_loads_as_documented(postgres, tmp_path, monkeypatch):
    import dagster as dg
    from dagster_postgres import PostgresEventLogStorage, PostgresRunStorage, PostgresScheduleStorage

    for name, value in postgres.env().items():
        monkeypatch.setenv(name, value)
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copyfile(TEAM_INSTANCE, home / "dagster.yaml")
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert isinstance(instance.run_storage, PostgresRunStorage)
        assert isinstance(instance.event_log_storage, PostgresEventLogStorage)
        assert isinstance(instance.schedule_storage, PostgresScheduleStorage)
        assert isinstance(instance.run_coordinator, dg.QueuedRunCoordinator)
        queue = instance.get_concurrency_config().run_queue_config
        assert queue.max_concurrent_runs == 8
        assert queue.tag_concurrency_limits == [{"key": "combat_analysis/log", "limit": 4}]
        pools = instance.get_concurrency_config().pool_config
        assert pools.default_pool_limit == 1 and pools.pool_granularity.value == "op"
    tables = {row[0] for row in postgres.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert {"runs", "event_logs", "asset_keys", "jobs", "job_ticks", "concurrency_slots"} <= tables


def _events(postgres: Postgres, run_id: str, event_type: str, step_key: str | None = None) -> list[tuple]:
    """A run's events of one `DagsterEventType` (by name: the stored values of run events are older names)."""
    import dagster as dg

    sql = "SELECT timestamp, step_key, event FROM event_logs WHERE run_id = %s AND dagster_event_type = %s"
    params: tuple = (run_id, dg.DagsterEventType[event_type].value)
    if step_key:
        sql += " AND step_key = %s"
        params += (step_key,)
    return postgres.rows(sql + " ORDER BY id", params)


def _messages(postgres: Postgres, run_id: str) -> list[str]:
    return [json.loads(event)["user_message"] for (event,) in postgres.rows(
        "SELECT event FROM event_logs WHERE run_id = %s ORDER BY id", (run_id,))]


def _runs(postgres: Postgres, job: str) -> list[tuple[str, str]]:
    if postgres.rows("SELECT to_regclass('runs')") == [(None,)]:
        return []  # the daemon creates the schema when it first connects
    return postgres.rows("SELECT run_id, status FROM runs WHERE pipeline_name = %s ORDER BY id", (job,))


def _ingested(postgres: Postgres) -> set[str]:
    """The match partitions whose ingest run succeeded."""
    return {partition for (partition,) in postgres.rows(
        "SELECT t.value FROM runs r JOIN run_tags t ON t.run_id = r.run_id "
        "WHERE r.pipeline_name = 'ingest_match_job' AND r.status = 'SUCCESS' AND t.key = 'dagster/partition'")
    } if _runs(postgres, "ingest_match_job") else set()


def _wait_for(what: str, predicate, deadline: float, daemon_log: Path, every: float = 1.0):
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    tail = daemon_log.read_text(encoding="utf-8", errors="replace")[-3000:]
    raise AssertionError(f"timed out waiting for {what}; daemon log ends:\n{tail}")


def _finished(postgres: Postgres, job: str, count: int) -> list[str] | None:
    runs = _runs(postgres, job)
    failed = [run_id for run_id, status in runs if status in ("FAILURE", "CANCELED")]
    assert not failed, f"{job} runs failed: {failed}"
    done = [run_id for run_id, status in runs if status == "SUCCESS"]
    return done if len(done) >= count else None


# The test's own claim on the pool (a run id no run has), held until both ingest runs are seen waiting.
POOL = "warehouse_writes"
HOLDER_RUN, HOLDER_STEP = "test-holds-the-pool", "holder"


def _both_blocked(postgres: Postgres, storage) -> list[str] | None:
    """The two ingest runs, once both are running and Dagster's own records show each one's
    `match_warehouse` step waiting for the pool: an engine event in the run, and a pending, unassigned
    step in the pool's queue."""
    runs = _runs(postgres, "ingest_match_job")
    if len(runs) != 2 or any(status != "STARTED" for _, status in runs):
        return None
    waiting = {(step.run_id, step.step_key) for step in storage.get_concurrency_info(POOL).pending_steps
               if step.assigned_timestamp is None}
    run_ids = [run_id for run_id, _ in runs]
    for run_id in run_ids:
        if (run_id, "match_warehouse") not in waiting:
            return None
        if not any(f"blocked by limit for pool {POOL}" in m for m in _messages(postgres, run_id)):
            return None
    return run_ids


def test_runs_queue_through_the_daemon_into_postgres(postgres, tmp_path, monkeypatch):
    import dagster as dg

    from combat_analysis.inbox.requests import peek_match_id
    from combat_analysis.ingest.simulate import write_match

    dagster_home, data = tmp_path / "dagster_home", tmp_path / "data"
    dagster_home.mkdir()
    shutil.copyfile(TEAM_INSTANCE, dagster_home / "dagster.yaml")
    env = {**os.environ, **postgres.env(), "DAGSTER_HOME": str(dagster_home), "COMBAT_ANALYSIS_HOME": str(data),
           "COMBAT_ANALYSIS_EXECUTOR": "multiprocess", "MPLBACKEND": "Agg"}
    for name, value in postgres.env().items():
        monkeypatch.setenv(name, value)

    # Two logs land at once: the incoming-logs sensor queues two ingest runs in the same tick.
    staging = tmp_path / "staging"
    staging.mkdir()
    logs = []
    for seed in (11, 12):
        log = staging / f"scrim-{seed}.log"
        write_match(log, seed=seed, scale=SIM_SCALE)
        logs.append(log)

    # Match reports (eager automation after each ingest) and the season's catch-up (which the daemon's first tick
    # starts on an empty season: four step processes) are not what this test is about; stopped, as an operator
    # would, so their runs do not compete for the machine.
    for automation in ("match_report_automation", "season_automation"):
        stop = subprocess.run([str(Path(sys.executable).parent / "dagster"), "sensor", "stop", automation,
                               "-w", str(ROOT / "workspace.yaml")], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300)
        assert stop.returncode == 0, stop.stdout + stop.stderr

    daemon_log = tmp_path / "daemon.log"
    deadline = time.monotonic() + DEADLINE_S
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance, open(daemon_log, "w") as out:
        # The test takes the pool's one slot first (through the same concurrency API the executor uses), so
        # both ingest runs must start and then wait for it, however fast or slow the machine is.
        storage = instance.event_log_storage
        storage.initialize_concurrency_limit_to_default(POOL)
        assert storage.claim_concurrency_slot(POOL, HOLDER_RUN, HOLDER_STEP).is_claimed
        assert storage.get_concurrency_info(POOL).slot_count == 1

        incoming = data / "incoming"
        incoming.mkdir(parents=True)
        for log in logs:
            shutil.copyfile(log, incoming / log.name)
        daemon = subprocess.Popen(
            [str(Path(sys.executable).parent / "dagster-daemon"), "run", "-w", str(ROOT / "workspace.yaml")],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            held = _wait_for(f"both ingest runs waiting for the {POOL} slot", lambda: _both_blocked(
                postgres, storage), deadline, daemon_log)
            # While the test holds the slot: both runs are in progress at once, neither writing step started.
            assert all(not _events(postgres, run_id, "STEP_START", "match_warehouse") for run_id in held)
            claimed = storage.get_concurrency_info(POOL).claimed_slots
            assert [(c.run_id, c.step_key) for c in claimed] == [(HOLDER_RUN, HOLDER_STEP)]
            storage.free_concurrency_slot_for_step(HOLDER_RUN, HOLDER_STEP)

            # A question about the first match, dropped as a file as soon as that match is in the warehouse.
            match_id = peek_match_id(logs[0])
            _wait_for(f"the ingest of {match_id}", lambda: match_id in _ingested(postgres), deadline, daemon_log)
            question = {"question": "Who dealt the most damage in the match?", "match_id": match_id,
                        "user_id": "coach"}
            questions = data / "questions"
            questions.mkdir(parents=True, exist_ok=True)
            (questions / "damage.json").write_text(json.dumps(question), encoding="utf-8")
            ingests = _wait_for("two successful ingest runs", lambda: _finished(
                postgres, "ingest_match_job", 2), deadline, daemon_log)
            (answer_run,) = _wait_for("a successful question run", lambda: _finished(
                postgres, "answer_question_job", 1), deadline, daemon_log)
            after = storage.get_concurrency_info(POOL)
        finally:
            stop_group(daemon)
    assert sorted(ingests) == sorted(held)

    # Every run waited in the queue until the daemon launched it, ran its steps with its executor (the
    # ingests with the multiprocess executor COMBAT_ANALYSIS_EXECUTOR names, the question in its own process,
    # whatever it names), and is recorded in Postgres.
    lifecycle = ("RUN_ENQUEUED", "RUN_STARTING", "RUN_START", "RUN_SUCCESS")
    for run_id, executor in (*((i, "multiprocess executor") for i in ingests), (answer_run, "steps in process")):
        moments = [_events(postgres, run_id, kind)[0][0] for kind in lifecycle]
        assert moments == sorted(moments), (run_id, moments)
        assert any(executor in m for m in _messages(postgres, run_id)), (run_id, executor)
    tags = dict(postgres.rows("SELECT key, value FROM run_tags WHERE run_id = %s", (ingests[0],)))
    assert tags["combat_analysis/log"] in {log.name for log in logs}

    # Asset materializations, by partition, in the event log table.
    materialized = {(row[0], row[1]) for row in postgres.rows(
        "SELECT asset_key, partition FROM event_logs WHERE dagster_event_type = 'ASSET_MATERIALIZATION'")}
    match_ids = {peek_match_id(log) for log in logs}
    for match in match_ids:
        assert ('["match_warehouse"]', match) in materialized
        assert ('["raw_match_log"]', match) in materialized
    (partition,) = {p for key, p in materialized if key == '["answer_report"]'}
    for asset in ("query_plan", "query_results", "findings", "charts", "answer_report"):
        assert (f'["{asset}"]', partition) in materialized
    assert set(match_ids) | {partition} <= {row[0] for row in postgres.rows(
        "SELECT partition FROM dynamic_partitions")}

    # The answer is the oracle's figure for that match.
    truth = _truth(logs[0])
    leader = max(truth["players"], key=lambda p: truth["players"][p]["damage_dealt"])
    package = json.loads(next((data / "packages" / "answer_report").rglob("v5-*.json")).read_text("utf-8"))
    answer = package["response"]["direct_answer"]
    assert leader in answer and f"{int(truth['players'][leader]['damage_dealt']):,}" in answer

    # The warehouse_writes pool: the two runs overlapped (both were running while the test held the slot),
    # their match_warehouse steps never did, and the pool's queue is empty again.
    def span(run_id: str, start: str, end: str, step: str | None = None) -> tuple[float, float]:
        (began, *_), (ended, *_) = _events(postgres, run_id, start, step)[0], _events(postgres, run_id, end, step)[-1]
        return began.timestamp(), ended.timestamp()

    runs = {run_id: span(run_id, "RUN_START", "RUN_SUCCESS") for run_id in ingests}
    steps = {run_id: span(run_id, "STEP_START", "STEP_SUCCESS", "match_warehouse") for run_id in ingests}
    a, b = sorted(runs.values())
    assert a[0] < b[1] and b[0] < a[1], f"the ingest runs did not overlap: {runs}"
    first, second = sorted(steps.values())
    assert first[1] <= second[0], f"match_warehouse steps overlapped: {steps}"
    assert after.slot_count == 1 and not after.claimed_slots and not after.pending_steps, after
