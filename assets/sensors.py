"""Sensors: new logs in the incoming folder become match partitions; question files become question runs."""


import hashlib
import json

import dagster as dg

from assets.jobs import answer_question_job, ingest_match_job
from assets.partitions import MATCH_PARTITIONS, match_partitions, question_partitions
from assets.reports import match_report
from combat_analysis.inbox.requests import (
    RequestError,
    incoming_logs,
    match_key,
    peek_match_id,
    read_question_file,
    register_match_source,
    save_question,
)
from combat_analysis.keys import KeyRefused
from resources import CombatHome

# Dagster's tags for a run over a range of partitions (what the Launchpad sets for a partition range).
RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"


@dg.sensor(job=ingest_match_job, minimum_interval_seconds=10, default_status=dg.DefaultSensorStatus.RUNNING,
           description="Registers each new log in the incoming folder as a match partition and ingests it; a "
                       "burst of more than `logs_per_run` new logs becomes runs of that many matches each.")
def incoming_logs_sensor(context: dg.SensorEvaluationContext, home: CombatHome) -> dg.SensorResult:
    # The cursor maps each file to the size and mtime it was handled at: a file is ingested once, and again
    # only if it changes (a log still being written, or a corrected re-upload).
    seen: dict[str, str] = json.loads(context.cursor or "{}")
    found: dict[str, tuple[str, str]] = {}  # partition key -> (log name, signature), the last file naming it
    refused = {}
    for log in incoming_logs(home.incoming):
        signature = _signature(log)
        if signature is None or seen.get(str(log)) == signature:
            continue
        try:
            key = match_key(peek_match_id(log))
            register_match_source(home.paths, key, log)
        except (RequestError, KeyRefused, OSError) as exc:
            # One bad file never blocks the others: it is logged now and named in a skip reason.
            message = str(exc) if str(log) in str(exc) else f"{log}: {exc}"
            context.log.error(f"not ingested: {message}")
            refused[str(log)] = (signature, message)
            continue
        found[key] = (log.name, signature)
        seen[str(log)] = signature
    requests, new_keys = _ingest_requests(context.instance, found, max(1, home.logs_per_run))
    if refused and not requests:
        # A refused file is settled (until it changes) only once a skip reason has named it; a tick that
        # also launches runs cannot carry one, so the next tick names it.
        seen.update({name: signature for name, (signature, _) in refused.items()})
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[match_partitions.build_add_request(new_keys)] if new_keys else [],
        cursor=json.dumps(seen, sort_keys=True),
        skip_reason="; ".join(f"not ingested: {m}" for _, m in refused.values()) if refused and not requests else None,
    )


def _ingest_requests(instance: dg.DagsterInstance, found: dict[str, tuple[str, str]],
                     per_run: int) -> tuple[list[dg.RunRequest], list[str]]:
    """The runs for these partitions, and the keys to add. A few new logs get a run each, so each match's
    report follows as soon as it lands. A burst of more than `per_run` gets runs over ranges of `per_run`
    (each ingested in one process): keys new to Dagster are added in sorted order, so they follow one another
    in the partition order. A key Dagster has already (a corrected log) gets a run of its own."""
    known = set(instance.get_dynamic_partitions(MATCH_PARTITIONS)) if found else set()
    new_keys = sorted(k for k in found if k not in known)
    requests = [_request([key], found) for key in sorted(k for k in found if k in known)]
    if len(new_keys) <= per_run:
        per_run = 1
    for start in range(0, len(new_keys), per_run):
        requests.append(_request(new_keys[start:start + per_run], found))
    return requests, new_keys


def _request(keys: list[str], found: dict[str, tuple[str, str]]) -> dg.RunRequest:
    names = [found[k][0] for k in keys]
    signature = hashlib.sha256("\n".join(f"{k}:{found[k][1]}" for k in keys).encode()).hexdigest()[:16]
    if len(keys) == 1:
        return dg.RunRequest(run_key=f"{keys[0]}:{found[keys[0]][1]}", partition_key=keys[0],
                             tags={"combat_analysis/log": names[0]})
    return dg.RunRequest(run_key=f"{keys[0]}..{keys[-1]}:{signature}", tags={
        RANGE_START_TAG: keys[0], RANGE_END_TAG: keys[-1],
        "combat_analysis/log": f"{names[0]} and {len(names) - 1} more"})


def _signature(log) -> str | None:
    try:
        stat = log.stat()
    except OSError:  # gone since the folder was listed
        return None
    return f"{stat.st_size}:{stat.st_mtime_ns}"


@dg.sensor(job=answer_question_job, minimum_interval_seconds=10, default_status=dg.DefaultSensorStatus.RUNNING,
           description="Answers each question file dropped into the questions folder (format: its README).")
def question_files_sensor(context: dg.SensorEvaluationContext, home: CombatHome) -> dg.SensorResult:
    seen: dict[str, str] = json.loads(context.cursor or "{}")
    new_keys, requests = [], []
    for path in sorted(home.questions.glob("*.json")) if home.questions.exists() else []:
        stat = path.stat()
        signature = f"{stat.st_size}:{stat.st_mtime_ns}"
        if seen.get(str(path)) == signature:
            continue
        seen[str(path)] = signature
        try:
            request = read_question_file(path)
        except RequestError as exc:
            context.log.error(str(exc))
            continue
        key = save_question(home.paths, request)
        new_keys.append(key)
        requests.append(dg.RunRequest(run_key=key, partition_key=key, tags={"combat_analysis/file": path.name}))
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[question_partitions.build_add_request(new_keys)] if new_keys else [],
        cursor=json.dumps(seen, sort_keys=True),
    )


# Builds each match's report as soon as its ingest succeeds (the report's eager automation condition).
report_automation_sensor = dg.AutomationConditionSensorDefinition(
    "match_report_automation", target=[match_report], default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=10,
)
