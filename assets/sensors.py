"""Sensors: new logs in the incoming folder become match partitions; question files become question runs (once
their match is in); matches written to the warehouse outside a run are recorded in Dagster."""


from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field

import dagster as dg

from assets.ingest import match_warehouse
from assets.jobs import UNFINISHED, answer_question_job, ingest_match_job
from assets.partitions import MATCH_PARTITIONS, match_partitions, question_partitions
from assets.questions import WAITED_TAG
from assets.record import differing, lake_state, record_matches_job
from assets.reports import match_report
from combat_analysis.formatting import count, number
from combat_analysis.inbox.requests import (
    QuestionRequest,
    RequestError,
    incoming_logs,
    match_key,
    peek_match_id,
    read_question_file,
    register_match_source,
    save_question,
)
from combat_analysis.keys import KeyRefused
from combat_analysis.warehouse.store import committed_manifest, match_ids
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


@dataclass
class QuestionCursor:
    """The question sensor's memory: each file handled at which size and mtime, and each file waiting for its
    match with the signature it waits with and since when (epoch seconds)."""

    seen: dict[str, str] = field(default_factory=dict)
    waiting: dict[str, tuple[str, float]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str | None) -> QuestionCursor:
        data = json.loads(text or "{}")
        if "seen" not in data and "waiting" not in data:  # the earlier cursor: {file: signature}
            return cls(seen=dict(data))
        return cls(seen=dict(data.get("seen", {})),
                   waiting={k: (v[0], float(v[1])) for k, v in data.get("waiting", {}).items()})

    def dumps(self) -> str:
        return json.dumps({"seen": self.seen, "waiting": {k: list(v) for k, v in self.waiting.items()}},
                          sort_keys=True)

    def waiting_since(self, name: str, signature: str, now: float) -> float:
        """When this version of the file started waiting (now, for a file new or changed since)."""
        held = self.waiting.get(name)
        return held[1] if held is not None and held[0] == signature else now


def missing_match(paths, request: QuestionRequest) -> str | None:
    """What the question waits for, or None when it can be asked now: the match it names, or any match at all
    for a question that names none (an empty warehouse)."""
    if request.match_id is not None:
        return None if committed_manifest(paths.lake, request.match_id) is not None else f"match {request.match_id!r}"
    return None if match_ids(paths.lake) else "a first match (the warehouse is empty)"


# Every pass of the daemon's sensor loop (it passes at most every 5 s, whatever a sensor asks): a person waits
# for a dropped question, and a look at one folder costs nothing.
QUESTION_SENSOR_INTERVAL_S = 1


@dg.sensor(job=answer_question_job, minimum_interval_seconds=QUESTION_SENSOR_INTERVAL_S,
           default_status=dg.DefaultSensorStatus.RUNNING,
           description="Answers each question file dropped into the questions folder (format: its README). A "
                       "question whose match is not in the warehouse yet waits for it, up to "
                       "`CombatHome.question_wait_minutes` (COMBAT_ANALYSIS_QUESTION_WAIT_MINUTES, default 30); "
                       "then it is asked anyway and its run fails naming the match, tagged "
                       "`combat_analysis/waited_for_match`. Saving a file again asks it again.")
def question_files_sensor(context: dg.SensorEvaluationContext, home: CombatHome) -> dg.SensorResult:
    cursor = QuestionCursor.parse(context.cursor)
    now = time.time()
    found = sorted(home.questions.glob("*.json")) if home.questions.exists() else []
    new_keys, requests, waits = [], [], []
    for path in found:
        signature = _signature(path)
        if signature is None or cursor.seen.get(str(path)) == signature:
            continue
        try:
            request = read_question_file(path)
        except RequestError as exc:
            context.log.error(str(exc))
            cursor.seen[str(path)] = signature
            continue
        missing = missing_match(home.paths, request)
        since = cursor.waiting_since(str(path), signature, now)
        waited_minutes = (now - since) / 60
        if missing is not None and waited_minutes < home.question_wait_minutes:
            cursor.waiting[str(path)] = (signature, since)
            waits.append(f"{path.name} waits for {missing} ({number(waited_minutes, 1)} of "
                         f"{count(home.question_wait_minutes, 'minute')})")
            continue
        cursor.seen[str(path)] = signature
        cursor.waiting.pop(str(path), None)
        key = save_question(home.paths, request)
        tags = {"combat_analysis/file": path.name}
        if missing is not None:
            tags[WAITED_TAG] = f"{missing} was not in the warehouse after {count(home.question_wait_minutes, 'minute')}"
        new_keys.append(key)
        # The file's signature is part of the run key: saving the file again asks it again.
        requests.append(dg.RunRequest(run_key=f"{key}:{signature}", partition_key=key, tags=tags))
    present = {str(p) for p in found}
    cursor.waiting = {k: v for k, v in cursor.waiting.items() if k in present}  # a deleted file waits no more
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[question_partitions.build_add_request(new_keys)] if new_keys else [],
        cursor=cursor.dumps(),
        skip_reason="; ".join(waits) if waits and not requests else None,
    )


def _warehouse_being_written(instance: dg.DagsterInstance) -> bool:
    """Whether a run that writes `match_warehouse` or records matches is unfinished: what it writes comes first."""
    for record in instance.get_run_records(dg.RunsFilter(statuses=UNFINISHED)):
        run = record.dagster_run
        if run.job_name in (ingest_match_job.name, record_matches_job.name) \
                or (run.asset_selection and match_warehouse.key in run.asset_selection):
            return True
    return False


@dg.sensor(job=record_matches_job, minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING,
           description="Records in Dagster the matches written to the warehouse outside a run (`combat-analysis "
                       "ingest`, `ask --log`, `remove`, `restore` with no instance configured) by a run of "
                       "record_matches_job: a `matches` partition and a `match_warehouse` materialization with the "
                       "metadata and checks of a sensor ingest, or `removed`; reports and the season follow.")
def warehouse_sync_sensor(context: dg.SensorEvaluationContext, home: CombatHome) -> dg.SensorResult | dg.SkipReason:
    state = lake_state(home.paths.lake)
    if state.snapshot is None or context.cursor == str(state.snapshot):
        return dg.SkipReason("the warehouse has not changed since Dagster last agreed with it")
    if _warehouse_being_written(context.instance):
        return dg.SkipReason("a run is writing the warehouse or recording matches; it comes first")
    todo = differing(context.instance, state)
    request = dg.RunRequest(run_key=f"warehouse-snapshot-{state.snapshot}", tags={"combat_analysis/door": "sync"},
                            run_config={"ops": {"record_warehouse_changes": {"config": {"match_ids": todo}}}})
    return dg.SensorResult(run_requests=[request] if todo else [], cursor=str(state.snapshot),
                           skip_reason=None if todo else "Dagster already agrees with the warehouse")


# Builds each match's report as soon as its ingest succeeds (the report's eager automation condition).
report_automation_sensor = dg.AutomationConditionSensorDefinition(
    "match_report_automation", target=[match_report], default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=10,
)
