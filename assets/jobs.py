"""Jobs (among them the nightly housekeeping), and their executors.

Question runs (`answer_question_job`) always run their steps in the run's own process (the in-process
executor); every other run (ingest, match reports, the season, housekeeping) runs on the executor chosen by
COMBAT_ANALYSIS_EXECUTOR (`executor_from_env`, the code location's default: multiprocess unless set).
"""


import os
from datetime import datetime, timedelta, timezone

import dagster as dg

from assets.ingest import match_warehouse, raw_match_log
from assets.partitions import QUESTION_PARTITIONS
from assets.questions import question_assets
from assets.record import log_records, records_for
from assets.reports import daily_digest, match_report
from combat_analysis.inbox.retention import cutoff, remove_question_files, request_activity, sort_questions
from combat_analysis.warehouse import store
from combat_analysis.warehouse.handles import HandleStore
from resources import CombatHome, PackageIOManager

ingest_match_job = dg.define_asset_job(
    "ingest_match_job", selection=[raw_match_log, match_warehouse],
    description="Read a match's log into the warehouse (the incoming-logs sensor runs it).")
# In process, whatever COMBAT_ANALYSIS_EXECUTOR says: a question's five steps run one after the other, each
# milliseconds to a second of work on one small match, and a person waits for the run. A process per step
# (even from a forkserver) costs more than the steps, and there is no parallelism to win. Ingest and season
# runs keep the configured executor: their steps are long, write the lake, run side by side in a backfill or a
# season, take pool slots, and a step that dies (memory, a killed worker) must not take the run with it.
answer_question_job = dg.define_asset_job(
    "answer_question_job", selection=question_assets, executor_def=dg.in_process_executor,
    description="Carry one question through the five stages to its report (one partition per question), its "
                "steps in the run's own process.")
match_report_job = dg.define_asset_job(
    "match_report_job", selection=[match_report],
    description="Build a match's full report.")
daily_digest_job = dg.define_asset_job(
    "daily_digest_job", selection=[daily_digest],
    description="Write the digest of the matches that landed on a day.")


@dg.op(description="Delete data handles whose time to live has passed.")
def remove_expired_handles(context: dg.OpExecutionContext, home: CombatHome) -> list[str]:
    removed = HandleStore(home.paths.handles).cleanup_expired()
    context.log.info(f"removed {len(removed)} expired handle(s)")
    return removed


class ExpiryConfig(dg.Config):
    """`as_of`: judge ages as of this ISO time instead of now (e.g. to see what a later night will expire);
    `dry_run`: only list what would expire."""

    as_of: str = ""
    dry_run: bool = False


QUESTION_ASSETS = tuple(a.key for a in question_assets)
PARTITION_TAG = "dagster/partition"
UNFINISHED = [dg.DagsterRunStatus.QUEUED, dg.DagsterRunStatus.NOT_STARTED, dg.DagsterRunStatus.STARTING,
              dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.CANCELING, dg.DagsterRunStatus.SUSPENDED]


QUESTION_STEPS = frozenset(key.to_python_identifier() for key in QUESTION_ASSETS)


def _is_question_run(instance: dg.DagsterInstance, run: dg.DagsterRun) -> bool:
    """A run that materializes question assets and nothing else: by its asset selection when it names one,
    else by the steps of its execution plan (a run of `materialize` or of a whole asset job names none)."""
    if run.asset_selection:
        return set(run.asset_selection) <= set(QUESTION_ASSETS)
    snapshot = instance.get_execution_plan_snapshot(run.execution_plan_snapshot_id) \
        if run.execution_plan_snapshot_id else None
    steps = set(snapshot.step_keys_to_execute or [s.key for s in snapshot.steps]) if snapshot else set()
    return bool(steps) and steps <= QUESTION_STEPS


def _question_runs(instance: dg.DagsterInstance, keys: list[str], statuses=None) -> list[dg.RunRecord]:
    """Runs of these question partitions: tagged with one of the keys, and materializing question assets only
    (a run of another partitioned asset that happens to share a key is never a question's)."""
    if not keys:
        return []
    records = instance.get_run_records(dg.RunsFilter(tags={PARTITION_TAG: keys}, statuses=statuses))
    return [r for r in records if _is_question_run(instance, r.dagster_run)]


def question_activity(instance: dg.DagsterInstance, paths, keys: list[str]) -> dict[str, datetime]:
    """Each question's last activity: its newest materialization of any question asset, its newest run, or
    its request file, whichever is latest."""
    wanted = set(keys)
    seen: dict[str, datetime] = {}

    def note(key: str | None, when: datetime | None) -> None:
        if key in wanted and when is not None and (key not in seen or when > seen[key]):
            seen[key] = when

    for asset_key in QUESTION_ASSETS:
        cursor = None
        while True:
            page = instance.fetch_materializations(dg.AssetRecordsFilter(asset_key=asset_key), limit=1000,
                                                   cursor=cursor)
            for record in page.records:
                note(record.partition_key, datetime.fromtimestamp(record.timestamp, tz=timezone.utc))
            if not page.has_more:
                break
            cursor = page.cursor
    for run_record in _question_runs(instance, keys):
        note(run_record.dagster_run.tags.get(PARTITION_TAG), run_record.update_timestamp.astimezone(timezone.utc))
    for key in keys:
        note(key, request_activity(paths, key))
    return seen


@dg.op(description="Expire question partitions inactive for longer than the retention setting "
                   "(CombatHome.question_retention_days): their stored packages, artifacts (with their "
                   "follow-ups'), request, runs and the dynamic partition itself.")
def expire_old_questions(context: dg.OpExecutionContext, config: ExpiryConfig, home: CombatHome,
                         package_io_manager: dg.ResourceParam[PackageIOManager]) -> dg.Output[list[str]]:
    days = home.question_retention_days
    instance = context.instance
    keys = list(instance.get_dynamic_partitions(QUESTION_PARTITIONS))
    if days <= 0:
        context.log.info(f"question retention is {days} days: every question is kept")
        return dg.Output([], metadata={"retention_days": days, "questions": len(keys), "expired": 0})
    now = datetime.fromisoformat(config.as_of) if config.as_of else datetime.now(timezone.utc)
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    busy = {key for r in _question_runs(instance, keys, UNFINISHED)
            if (key := r.dagster_run.tags.get(PARTITION_TAG)) is not None}
    sorted_out = sort_questions(keys, question_activity(instance, home.paths, keys), busy,
                                cutoff(now, days))
    for key in sorted_out.expired if not config.dry_run else ():
        final = package_io_manager.latest("answer_report", key)
        followups = [f.query_id for f in final.response.followup_answers if f.query_id] \
            if final is not None and final.response is not None else []
        for asset_key in QUESTION_ASSETS:
            package_io_manager.remove_partition("/".join(asset_key.path), key)
        remove_question_files(home.paths, key, followups)
        for record in _question_runs(instance, [key]):
            if record.dagster_run.status not in UNFINISHED:
                instance.delete_run(record.dagster_run.run_id)
        instance.delete_dynamic_partition(QUESTION_PARTITIONS, key)
        context.log.info(f"expired question {key!r} and {len(followups)} follow-up answer(s)")
    verb = "would expire" if config.dry_run else "expired"
    context.log.info(f"{verb} {len(sorted_out.expired)} of {len(keys)} question(s) inactive for over {days} days; "
                     f"{len(sorted_out.busy)} running, {len(sorted_out.unknown)} with no recorded activity kept")
    return dg.Output(list(sorted_out.expired), metadata={
        "retention_days": days, "as_of": now.isoformat(timespec="seconds"), "dry_run": config.dry_run,
        "questions": len(keys), "expired": len(sorted_out.expired), "kept": len(sorted_out.kept),
        "running": len(sorted_out.busy), "no_recorded_activity": len(sorted_out.unknown),
        "expired_keys": dg.MetadataValue.json(list(sorted_out.expired)[:100]),
    })


@dg.op(description="Merge the warehouse's small files, then expire the lake snapshots older than "
                   "CombatHome.version_retention_days (a replaced or removed match's earlier versions with them) "
                   "and delete the files no snapshot needs any more.")
def tidy_warehouse(context: dg.OpExecutionContext, home: CombatHome) -> dg.Output[int]:
    done = store.tidy(home.paths.lake, timedelta(days=home.version_retention_days))
    merged, expired = done.merged, done.expired
    context.log.info(f"merged the files of {len(merged)} table(s); expired {expired.snapshots} snapshot(s) older "
                     f"than {home.version_retention_days} days; deleted {expired.files_deleted} file(s), "
                     f"{expired.files_waiting} wait for readers")
    return dg.Output(expired.snapshots, metadata={
        "retention_days": home.version_retention_days, "tables_merged": dg.MetadataValue.json(merged),
        "snapshots_expired": expired.snapshots, "files_deleted": expired.files_deleted,
        "files_waiting": expired.files_waiting})


@dg.job(description="Nightly housekeeping: delete expired data handles (also `combat-analysis cleanup-handles`), "
                    "expire question partitions inactive for longer than the retention setting "
                    "(COMBAT_ANALYSIS_QUESTION_RETENTION_DAYS, default 30), and tidy the warehouse: merge small "
                    "files and expire match versions older than COMBAT_ANALYSIS_VERSION_RETENTION_DAYS "
                    "(default 7; also `combat-analysis housekeeping`).")
def housekeeping_job():
    remove_expired_handles()
    expire_old_questions()
    tidy_warehouse()


class MatchChangeConfig(dg.Config):
    """`match_id`: the match (`combat-analysis matches` lists them). `snapshot`, for a restore only: the version
    to bring back (`combat-analysis matches --history MATCH` lists them; default: the one before the last
    change)."""

    match_id: str
    snapshot: int | None = None


def _record_change(context: dg.OpExecutionContext, home: CombatHome, match_id: str) -> list[str]:
    """Dagster told of the change as the warehouse sync would: the match partition's new materialization and its
    checks, logged by this run, so its report and the season follow by their automation."""
    records = records_for(context.instance, home.paths, [match_id])
    log_records(context, records)
    return list(records.said)


@dg.op(description="Take the match out of the warehouse in one commit (`store.remove_match`), and record it on its "
                   "match_warehouse partition as removed: answers, the season and its match report drop it.")
def remove_match_from_warehouse(context: dg.OpExecutionContext, config: MatchChangeConfig,
                                home: CombatHome) -> dg.Output[int]:
    try:
        snapshot = store.remove_match(home.paths.lake, config.match_id)
    except store.WarehouseError as exc:
        raise dg.Failure(description=str(exc), allow_retries=False) from exc
    recorded = _record_change(context, home, config.match_id)
    return dg.Output(snapshot, metadata={"match_id": config.match_id, "warehouse_snapshot": snapshot,
                                         "recorded": dg.MetadataValue.json(recorded)})


@dg.op(description="Bring back a removed or replaced match's earlier version (`store.restore_match`) and record it "
                   "on its match_warehouse partition: its report and the season follow by automation.")
def restore_match_to_warehouse(context: dg.OpExecutionContext, config: MatchChangeConfig,
                               home: CombatHome) -> dg.Output[int]:
    try:
        snapshot = store.restore_match(home.paths.lake, config.match_id, config.snapshot)
    except store.WarehouseError as exc:
        raise dg.Failure(description=str(exc), allow_retries=False) from exc
    recorded = _record_change(context, home, config.match_id)
    return dg.Output(snapshot, metadata={"match_id": config.match_id, "warehouse_snapshot": snapshot,
                                         "recorded": dg.MetadataValue.json(recorded)})


@dg.job(description="Take a match out of every view: answers, the season and its match report (also "
                    "`combat-analysis remove MATCH`). restore_match_job undoes it until housekeeping expires the "
                    "match's earlier versions.")
def remove_match_job():
    remove_match_from_warehouse()


@dg.job(description="Bring back a removed or replaced match's earlier version (also `combat-analysis restore MATCH`).")
def restore_match_job():
    restore_match_to_warehouse()


@dg.configured(dg.multiprocess_executor, name="multiprocess", config_schema={
    "max_concurrent": dg.Field(int, is_required=False, description="Steps of one run at once (default: CPU count)."),
})
def forkserver_multiprocess_executor(config: dict) -> dict:
    """The multiprocess executor, starting steps from a forkserver that has imported the code location once.

    With the default `spawn` every step is a fresh interpreter that imports Dagster, DuckDB, matplotlib and
    the project again: seconds per step, most of a question run's time on a busy machine. Steps still run
    in processes of their own."""
    return {**config, "start_method": {"forkserver": {"preload_modules": ["definitions"]}}}


def executor_from_env() -> dg.ExecutorDefinition:
    """The executor of every run but a question's (which runs in process: `answer_question_job`):
    in_process, multiprocess (default), celery, k8s or dask. The optional ones are extras
    (`pip install '.[celery]'` ...) imported only when chosen, so the base install stays light."""
    choice = os.environ.get("COMBAT_ANALYSIS_EXECUTOR", "multiprocess").strip().lower()
    if choice == "in_process":
        return dg.in_process_executor
    if choice == "multiprocess":
        return forkserver_multiprocess_executor
    if choice == "celery":
        from dagster_celery import celery_executor  # lazy: an optional extra, imported only when chosen

        return celery_executor
    if choice in ("k8s", "kubernetes"):
        from dagster_k8s import k8s_job_executor  # lazy: an optional extra, imported only when chosen

        return k8s_job_executor
    if choice == "dask":
        from dagster_dask import dask_executor  # lazy: an optional extra, imported only when chosen

        return dask_executor
    raise ValueError(f"COMBAT_ANALYSIS_EXECUTOR={choice!r}: use in_process, multiprocess, celery, k8s or dask")
