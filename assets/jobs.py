"""Jobs, and the executor chosen by the COMBAT_ANALYSIS_EXECUTOR environment variable."""


import os

import dagster as dg

from assets.ingest import match_warehouse, raw_match_log
from assets.questions import question_assets
from assets.reports import daily_digest, match_report
from combat_analysis.handles import HandleStore
from resources import CombatHome

ingest_match_job = dg.define_asset_job(
    "ingest_match_job", selection=[raw_match_log, match_warehouse],
    description="Read a match's log into the warehouse (the incoming-logs sensor runs it).")
answer_question_job = dg.define_asset_job(
    "answer_question_job", selection=question_assets,
    description="Carry one question through the five stages to its report (one partition per question).")
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


@dg.job(description="Delete expired data handles (also: `combat-analysis cleanup-handles`).")
def cleanup_handles_job():
    remove_expired_handles()


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
    """in_process, multiprocess (default), celery, k8s or dask. The optional ones are extras
    (`pip install '.[celery]'` ...) imported only when chosen, so the base install stays light."""
    choice = os.environ.get("COMBAT_ANALYSIS_EXECUTOR", "multiprocess").strip().lower()
    if choice == "in_process":
        return dg.in_process_executor
    if choice == "multiprocess":
        return forkserver_multiprocess_executor
    if choice == "celery":
        from dagster_celery import celery_executor

        return celery_executor
    if choice in ("k8s", "kubernetes"):
        from dagster_k8s import k8s_job_executor

        return k8s_job_executor
    if choice == "dask":
        from dagster_dask import dask_executor

        return dask_executor
    raise ValueError(f"COMBAT_ANALYSIS_EXECUTOR={choice!r}: use in_process, multiprocess, celery, k8s or dask")
