"""One warehouse, whichever door a match came in by: the lake's matches recorded in Dagster.

A match can reach the warehouse without a Dagster run: `combat-analysis ingest`, `ask --log`, `remove` and
`restore` write the lake directly. Dagster then learns of it here, as if a run had done it: the match becomes a
`matches` partition and gets a `match_warehouse` materialization with the metadata, data version and checks of
a sensor ingest (`records_for` reads them back from the lake), so `match_report` and the season follow by their
automation. A match taken out of the lake gets a materialization saying `removed` (data version `removed`), so
its report and the season drop it.

Two ways in: `python -m assets.record MATCH ...` (what the CLI runs after an ingest when $DAGSTER_HOME is set;
the core never imports dagster), and the `warehouse_sync` sensor (assets/sensors.py), which compares the lake
with Dagster whenever the lake's snapshot changes, so a match written with no instance configured is recorded
as soon as `make dev` runs.
"""

import argparse
import json
import sys
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import dagster as dg

from assets.ingest import DATA_VERSION_TAG, match_metadata, match_warehouse, version_tags
from assets.partitions import MATCH_PARTITIONS
from assets.season import latest_materializations
from combat_analysis.formatting import count
from combat_analysis.inbox.requests import (
    RequestError,
    match_id_for_key,
    match_key,
    match_source,
    register_match_source,
)
from combat_analysis.ingest.run import IngestResult
from combat_analysis.keys import KeyRefused
from combat_analysis.settings import Lake, Paths
from combat_analysis.warehouse import store
from resources import CombatHome

REMOVED = "removed"  # the data version, and metadata status, of a match taken out of the warehouse


@dataclass(frozen=True)
class LakeState:
    """The lake now: its snapshot, each match's content digest (its data version), and the last change to each
    match the lake still remembers (snapshot, what happened)."""

    snapshot: int | None
    versions: dict[str, str] = field(default_factory=dict)
    changes: dict[str, tuple[int, str]] = field(default_factory=dict)


def lake_snapshot(lake: Lake) -> int | None:
    """The lake's current snapshot id, or None for a lake that does not exist yet."""
    try:
        with store.reader(lake) as con:
            return store.current_snapshot(con)
    except store.NoMatchYet:
        return None


def _last_changes(con) -> dict[str, tuple[int, str]]:
    """Each match's latest change the lake keeps: one read of the snapshot list (`store.history` per match would
    read it once for each)."""
    rows = con.execute(f"SELECT snapshot_id, commit_extra_info FROM ducklake_snapshots('{store.ALIAS}') "
                       "WHERE commit_extra_info IS NOT NULL ORDER BY snapshot_id").fetchall()
    changes: dict[str, tuple[int, str]] = {}
    for snapshot, extra in rows:
        matches = _matches_of(extra)
        changes.update({match_id: (int(snapshot), what) for match_id, what in matches.items()})
    return changes


def _matches_of(extra: str) -> dict[str, str]:
    try:
        matches = json.loads(extra).get("matches")
    except (ValueError, AttributeError):
        return {}
    return matches if isinstance(matches, dict) else {}


def lake_state(lake: Lake) -> LakeState:
    try:
        with store.reader(lake) as con:
            snapshot = store.current_snapshot(con)
            if not store.match_ids(con):
                return LakeState(snapshot, {}, _last_changes(con))
            versions = dict(con.execute(
                f"SELECT match_id, content_sha256 FROM {store.ALIAS}.{store.SOURCES}").fetchall())
            return LakeState(snapshot, versions, _last_changes(con))
    except store.NoMatchYet:
        return LakeState(None)


def dagster_versions(instance: dg.DagsterInstance) -> dict[str, str]:
    """Each match partition's data version as its latest `match_warehouse` materialization recorded it ("" for
    one that carries none)."""
    return {key: (mat.tags or {}).get(DATA_VERSION_TAG, "")
            for key, mat in latest_materializations(instance, match_warehouse.key.to_user_string()).items()}


@dataclass(frozen=True)
class Records:
    """What Dagster must be told so it agrees with the lake: partitions to add, then events to log."""

    new_keys: tuple[str, ...] = ()
    events: tuple[dg.AssetMaterialization | dg.AssetCheckEvaluation, ...] = ()
    said: tuple[str, ...] = ()  # one phrase per match, for logs: "00000001-sample (ingested)"

    @property
    def matches(self) -> int:
        return len(self.said)


def differing(instance: dg.DagsterInstance, state: LakeState, only: Collection[str] | None = None) -> list[str]:
    """The match ids on which Dagster and the lake disagree, of every match or `only` these: in the lake with
    content Dagster has not recorded, or last seen materialized by Dagster and no longer in the lake."""
    seen = dagster_versions(instance)
    wanted = set(only) if only is not None else None
    landed = [m for m, version in sorted(state.versions.items())
              if (wanted is None or m in wanted) and seen.get(match_key(m)) != version]
    gone = [match_id_for_key(k) for k, version in sorted(seen.items())
            if version != REMOVED and match_id_for_key(k) not in state.versions
            and (wanted is None or match_id_for_key(k) in wanted)]
    return landed + gone


def records_for(instance: dg.DagsterInstance, paths: Paths, only: Collection[str] | None = None, *,
                state: LakeState | None = None) -> Records:
    """The partitions and events that bring Dagster level with the lake, for every match or `only` these ids.

    A match the lake holds whose content Dagster has not recorded gets a materialization read from the lake; a
    match Dagster last saw materialized that the lake no longer holds gets a `removed` one. A match whose
    version Dagster already has is left alone, so calling this twice records nothing the second time."""
    state = state or lake_state(paths.lake)
    todo = differing(instance, state, only)
    known = set(instance.get_dynamic_partitions(MATCH_PARTITIONS))
    events: list[dg.AssetMaterialization | dg.AssetCheckEvaluation] = []
    said = []
    for match_id in todo:
        snapshot, what = state.changes.get(match_id, (state.snapshot, "ingested"))
        if match_id in state.versions:
            events.extend(landed_events(paths, match_id, state.versions[match_id], what, snapshot))
        else:
            events.append(removed_event(match_id, snapshot))
        said.append(f"{match_id} ({what if match_id in state.versions else REMOVED})")
    new_keys = tuple(dict.fromkeys(match_key(m) for m in todo if match_key(m) not in known))
    return Records(new_keys, tuple(events), tuple(said))


def result_from_lake(paths: Paths, match_id: str, status: str, snapshot: int | None) -> IngestResult:
    """The match as its ingest reported it, read back from what the lake keeps of its source."""
    data = store.manifest(paths.lake, match_id)
    lines = data["lines"]
    return IngestResult(
        match_id=match_id, status=status, source_file=data["source_path"] or data["source_file"] or "",
        source_sha256=data["source_sha256"], lines_total=lines["total"], lines_parsed=lines["parsed"],
        lines_quarantined=lines["quarantined"], event_counts=dict(data["event_counts"]),
        table_rows=dict(data["tables"]), first_bad_lines=tuple((n, r) for n, r in data["first_bad_lines"]),
        quarantine_reasons=dict(data["quarantine_reasons"]), snapshot=snapshot, first_line=lines["first"],
        last_line=lines["last"])


def landed_events(paths: Paths, match_id: str, version: str, status: str,
                  snapshot: int | None) -> Iterator[dg.AssetMaterialization | dg.AssetCheckEvaluation]:
    """A `match_warehouse` materialization of the match as the lake holds it, and its checks, as a run records
    them; its log file is registered for the partition, so a later run of the partition can read it again."""
    key = match_key(match_id)
    result = result_from_lake(paths, match_id, status, snapshot)
    _register_source(paths, key, result.source_file)
    metadata, checks = match_metadata(paths, result)
    yield dg.AssetMaterialization(asset_key=match_warehouse.key, partition=key, metadata=metadata,
                                  tags=version_tags(version))
    for check in checks:
        yield dg.AssetCheckEvaluation(asset_key=match_warehouse.key, check_name=str(check.check_name),
                                      passed=bool(check.passed), metadata=dict(check.metadata), partition=key)


def _register_source(paths: Paths, key: str, source: str) -> None:
    try:
        match_source(paths, key)
        return  # a file already registered (the incoming folder's) stays the partition's
    except RequestError:
        pass
    except KeyRefused:
        return
    if source and Path(source).is_file():
        register_match_source(paths, key, Path(source))


def removed_event(match_id: str, snapshot: int | None) -> dg.AssetMaterialization:
    return dg.AssetMaterialization(
        asset_key=match_warehouse.key, partition=match_key(match_id), tags=version_tags(REMOVED),
        description="taken out of the warehouse: no answer, season figure or report reads it; "
                    "`combat-analysis restore` (or restore_match_job) brings it back until housekeeping",
        metadata={"match_id": match_id, "status": REMOVED,
                  "warehouse_snapshot": snapshot if snapshot is not None else "unknown",
                  "recorded_at": datetime.now(timezone.utc).isoformat(timespec="seconds")})


def log_records(context: dg.OpExecutionContext, records: Records) -> None:
    """Record them in this run: the partitions added, each materialization and check logged as the run's."""
    if records.new_keys:
        context.instance.add_dynamic_partitions(MATCH_PARTITIONS, list(records.new_keys))
    for event in records.events:
        # a check evaluation logged in a run is that run's (Dagster's stub names only the other event kinds)
        context.log_event(event)  # type: ignore[arg-type]


class RecordConfig(dg.Config):
    """`match_ids`: the matches to record (empty: every match on which Dagster and the warehouse disagree)."""

    match_ids: list[str] = []


@dg.op(description="Record in Dagster the matches written to the warehouse outside a run: each becomes a `matches` "
                   "partition with a `match_warehouse` materialization and checks like a sensor ingest's (or "
                   "`removed`), so its report and the season follow by automation.")
def record_warehouse_changes(context: dg.OpExecutionContext, config: RecordConfig,
                             home: CombatHome) -> dg.Output[int]:
    records = records_for(context.instance, home.paths, config.match_ids or None)
    log_records(context, records)
    context.log.info(f"recorded {count(records.matches, 'match')}: {', '.join(records.said) or 'none'}")
    return dg.Output(records.matches, metadata={"recorded": dg.MetadataValue.json(list(records.said))})


@dg.job(description="Record matches written to the warehouse outside a run (`combat-analysis ingest`, `ask --log`, "
                    "`remove`, `restore`): run by the CLI when $DAGSTER_HOME is set, and by the warehouse_sync "
                    "sensor for what was written with no instance configured.", tags={"combat_analysis/door": "cli"})
def record_matches_job():
    record_warehouse_changes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record matches the CLI wrote to the warehouse in the Dagster "
                                                 "instance at $DAGSTER_HOME (partitions, materializations, checks).")
    parser.add_argument("--home", default=None, help="the data home (default: $COMBAT_ANALYSIS_HOME, else ./data)")
    parser.add_argument("matches", nargs="*", metavar="MATCH", help="match ids (default: every match in the lake)")
    args = parser.parse_args(argv)
    paths = Paths.from_env(args.home)
    with dg.DagsterInstance.get() as instance:
        todo = differing(instance, lake_state(paths.lake), args.matches or None)
        if not todo:
            return 0
        result = record_matches_job.execute_in_process(
            instance=instance, resources={"home": CombatHome(home=str(paths.home), catalog=paths.catalog,
                                                             data_path=paths.data_path)},
            run_config={"ops": {"record_warehouse_changes": {"config": {"match_ids": todo}}}})
        said = result.output_for_node("record_warehouse_changes")
    print(f"Dagster: recorded {count(said, 'match')} in run {result.run_id} ({', '.join(todo)}); their reports and "
          "the season follow by automation", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
