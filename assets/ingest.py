"""Ingest assets: a match's raw log and its warehouse partitions, with the checks that guard them.

A run may cover one match partition or a range of them (a burst of logs: the incoming-logs sensor groups new
logs into runs of `CombatHome.logs_per_run`; the Launchpad can launch a range too). A range run ingests its logs in one `ingest_logs` call (one process, one DuckDB connection,
small files in batches), records a materialization for each match that landed, and fails at the end naming
the files that did not, so one bad file never costs the others.
"""


from pathlib import Path

import dagster as dg

from assets.partitions import match_partitions
from combat_analysis.inbox.requests import (
    RequestError,
    match_id_for_key,
    match_key,
    match_source,
    register_match_source,
)
from combat_analysis.ingest.logfile import survey_log
from combat_analysis.ingest.run import (
    READ_ERRORS,
    IngestError,
    IngestResult,
    as_ingest_error,
    check_log_file,
    ingest_log,
    ingest_logs,
)
from combat_analysis.keys import KeyRefused
from combat_analysis.render.document import md_table
from combat_analysis.warehouse.store import open_warehouse
from resources import CombatHome

OWNERS = ["team:data-engineering"]
# Dagster's own tags for an event's data version (dagster._core.definitions.data_version; not exported): a
# materialization logged for another partition carries its version as a run's `data_version=` does, so the
# warehouse sync (assets/record.py) sees it recorded.
DATA_VERSION_TAG = "dagster/data_version"
USER_PROVIDED_TAG = "dagster/data_version_is_user_provided"


def version_tags(version: str) -> dict[str, str]:
    """The tags that give a logged or reported materialization its data version."""
    return {DATA_VERSION_TAG: version, USER_PROVIDED_TAG: "true"}


class RawLogConfig(dg.Config):
    path: str = ""  # leave empty to use the file the incoming-logs sensor registered for this match


@dg.asset(
    partitions_def=match_partitions, group_name="ingest", kinds={"file"}, owners=OWNERS, code_version="1",
    description="The SMITE 2 combat log file a match was read from, fingerprinted by SHA-256.",
)
def raw_match_log(context: dg.AssetExecutionContext, config: RawLogConfig, home: CombatHome) -> dg.MaterializeResult:
    """The combat log as the game wrote it. Its data version is the file's SHA-256, so a changed file
    under the same match id shows up as a new version upstream of the warehouse. A range run records each
    file's fingerprint (or why it cannot be read) in its partition's metadata and leaves the verdict on a bad
    file to `match_warehouse`, so the good ones of the range are ingested."""
    if context.has_partition_key_range and len(context.partition_keys) > 1:
        return _survey_range(context, config, home)
    paths = home.paths
    key = context.partition_key
    log = Path(config.path) if config.path else match_source(paths, key)
    if config.path:
        register_match_source(paths, key, log)
    try:
        check_log_file(log)
        survey = survey_log(log)
    except READ_ERRORS as exc:  # the file itself is the problem: retrying cannot help
        raise dg.Failure(description=str(as_ingest_error(log, exc)), allow_retries=False) from exc
    return dg.MaterializeResult(
        metadata={
            "path": dg.MetadataValue.path(str(log)),
            "bytes": log.stat().st_size,
            "lines": survey.lines,
            "sha256": survey.sha256,
        },
        data_version=dg.DataVersion(survey.sha256),
    )


def _survey_range(context: dg.AssetExecutionContext, config: RawLogConfig, home: CombatHome) -> dg.MaterializeResult:
    if config.path:
        raise dg.Failure(description="`path` names one log; a run over several matches reads their registered logs",
                         allow_retries=False)
    for key in context.partition_keys:
        try:
            log = match_source(home.paths, key)
        except (RequestError, KeyRefused) as exc:
            context.log.error(f"match {key}: {exc}")
            context.add_asset_metadata({"error": str(exc)}, partition_key=key)
            continue
        try:
            check_log_file(log)
            survey = survey_log(log)
        except READ_ERRORS as exc:
            message = str(as_ingest_error(log, exc))
            context.log.error(f"match {key}: {message}")
            context.add_asset_metadata({"error": message}, partition_key=key)
            continue
        context.add_asset_metadata({"path": dg.MetadataValue.path(str(log)), "bytes": log.stat().st_size,
                                    "lines": survey.lines, "sha256": survey.sha256}, partition_key=key)
    return dg.MaterializeResult()


CHECKS = [
    dg.AssetCheckSpec("every_line_accounted_for", asset="match_warehouse",
                      description="parsed lines + quarantined lines == lines in the file"),
    dg.AssetCheckSpec("exactly_two_teams", asset="match_warehouse", description="the roster has teams 1 and 2"),
    dg.AssetCheckSpec("players_complete", asset="match_warehouse",
                      description="every player has a team, a role and a god"),
    dg.AssetCheckSpec("kills_balance_deaths", asset="match_warehouse",
                      description="player-vs-player kills == player deaths caused by players"),
]


def warehouse_checks(con, lines_in_match: int) -> list[dg.AssetCheckResult]:
    parsed, quarantined = con.execute("SELECT lines_parsed, lines_quarantined FROM matches").fetchone()
    teams = [r[0] for r in con.execute("SELECT DISTINCT team FROM players ORDER BY team").fetchall()]
    incomplete = [r[0] for r in con.execute(
        "SELECT player FROM players WHERE team IS NULL OR role IS NULL OR god IS NULL").fetchall()]
    kills = con.execute("SELECT count(*) FROM kills WHERE is_player_kill").fetchone()[0]
    deaths_to_players = con.execute(
        "SELECT count(*) FROM kills WHERE victim_kind = 'player' AND killer_kind = 'player'").fetchone()[0]
    return [
        dg.AssetCheckResult(check_name="every_line_accounted_for", passed=parsed + quarantined == lines_in_match,
                            metadata={"parsed": parsed, "quarantined": quarantined, "lines_in_match": lines_in_match}),
        dg.AssetCheckResult(check_name="exactly_two_teams", passed=teams == [1, 2],
                            metadata={"teams": str(teams)}),
        dg.AssetCheckResult(check_name="players_complete", passed=not incomplete,
                            metadata={"incomplete": ", ".join(incomplete) or "none"}),
        dg.AssetCheckResult(check_name="kills_balance_deaths", passed=kills == deaths_to_players,
                            metadata={"player_kills": kills, "player_deaths_to_players": deaths_to_players}),
    ]


@dg.asset(
    partitions_def=match_partitions, group_name="ingest", kinds={"duckdb", "parquet"}, owners=OWNERS,
    code_version="1", deps=[raw_match_log], check_specs=CHECKS, pool="warehouse_writes",
    retry_policy=dg.RetryPolicy(max_retries=2, delay=2, backoff=dg.Backoff.EXPONENTIAL),
    output_required=False,
    description="The match's immutable Parquet partitions: events, damage, kills with assists, rewards, "
                "purchases, objectives, player stats, timeline and gold difference.",
)
def match_warehouse(context: dg.AssetExecutionContext, home: CombatHome):
    """Parse the log losslessly (malformed lines and untrustworthy values are quarantined with their line
    numbers) and commit the match as one snapshot of Parquet tables. Re-ingesting identical content changes
    nothing. A log holding further matches commits them too, and records them as their own partitions."""
    if context.has_partition_key_range and len(context.partition_keys) > 1:
        yield from _ingest_range(context, home)
        return
    paths = home.paths
    key = context.partition_key
    log = match_source(paths, key)
    try:
        result = ingest_log(log, paths.lake, on_stage=lambda name: context.log.info(f"{log.name}: {name}"))
    except IngestError as exc:  # the file itself is the problem: retrying cannot help
        raise dg.Failure(description=str(exc), allow_retries=False) from exc
    mine = _own_match(key, log, result)
    for other in result.matches:
        if other is not mine:
            _record_other_match(context, paths, log, other)
    if mine.status == "replaced":
        context.log.warning(f"match {mine.match_id}: new content replaced the earlier snapshot")
    metadata, checks = match_metadata(paths, mine)
    yield dg.MaterializeResult(metadata=metadata, data_version=dg.DataVersion(mine.source_sha256),
                               check_results=checks)


def _own_match(key: str, log: Path, result: IngestResult) -> IngestResult:
    wanted = match_id_for_key(key)
    mine = next((r for r in result.matches if r.match_id == wanted), None)
    if mine is None:
        raise dg.Failure(description=f"{log} holds the matches {[r.match_id for r in result.matches]}, not {wanted!r}",
                         allow_retries=False)
    return mine


def _ingest_range(context: dg.AssetExecutionContext, home: CombatHome):
    """Every log of the run's matches in one ingest run; a materialization per match that landed, the checks
    over all of them, and at the end a failure naming every file that did not land."""
    paths = home.paths
    failures: list[str] = []
    logs: dict[str, Path] = {}
    for key in context.partition_keys:
        try:
            logs[key] = match_source(paths, key)
        except (RequestError, KeyRefused) as exc:
            failures.append(f"match {key}: {exc}")
    outcomes = {o.path: o for o in ingest_logs(
        list(dict.fromkeys(logs.values())), paths.lake, on_stage=lambda name: context.log.info(name))}
    context.log.info(f"{len(outcomes)} log(s) read for {len(context.partition_keys)} match partition(s)")
    results: dict[str, list[dg.AssetCheckResult]] = {}
    for key, log in logs.items():
        outcome = outcomes[log]
        try:
            result = outcome.result
            if outcome.error is not None or result is None:  # an outcome holds a result or an error
                raise dg.Failure(description=str(outcome.error), allow_retries=False)
            mine = _own_match(key, log, result)
        except dg.Failure as exc:
            failures.append(f"match {key}: {exc.description}")
            context.log.error(f"match {key} not ingested: {exc.description}")
            continue
        for other in result.matches:
            if other is not mine and match_key(other.match_id) not in logs:
                _record_other_match(context, paths, log, other)
        metadata, checks = match_metadata(paths, mine)
        yield dg.AssetMaterialization(asset_key=context.asset_key, partition=key, metadata=metadata,
                                      tags=version_tags(mine.source_sha256))
        results[key] = checks
    yield from _range_checks(results)
    if failures:
        raise dg.Failure(description=f"{len(failures)} of {len(context.partition_keys)} match(es) not ingested: "
                                     + "; ".join(failures), allow_retries=False)


def _range_checks(results: dict[str, list[dg.AssetCheckResult]]) -> list[dg.AssetCheckResult]:
    """Each check once for the run: passed when it passed for every match that landed, naming those it did
    not pass for."""
    if not results:
        return []
    merged = []
    for spec in CHECKS:
        failed = sorted(key for key, checks in results.items()
                        if not next(c for c in checks if c.check_name == spec.name).passed)
        merged.append(dg.AssetCheckResult(check_name=spec.name, passed=not failed, metadata={
            "matches": len(results), "failed": ", ".join(failed) or "none"}))
    return merged


def match_metadata(paths, result: IngestResult) -> tuple[dict, list[dg.AssetCheckResult]]:
    con = open_warehouse(paths.lake, result.match_id)
    players = con.execute(
        "SELECT player, team, role, god, kills, deaths, assists, damage_dealt::BIGINT, gold::BIGINT "
        "FROM player_stats ORDER BY team, damage_dealt DESC").fetchall()
    quarantined = con.execute("SELECT line_no, reason FROM quarantine ORDER BY line_no LIMIT 20").fetchall()
    metadata = {
        "match_id": result.match_id,
        "status": result.status,
        "lines": result.lines_total,
        "line_range": f"{result.first_line}-{result.last_line}",
        "quarantined_lines": result.lines_quarantined,
        "quarantine_reasons": dg.MetadataValue.json(result.quarantine_reasons),
        "quarantine_preview": dg.MetadataValue.md(
            md_table(["line", "reason"], quarantined) if quarantined else "no malformed lines"),
        "event_counts": dg.MetadataValue.json(result.event_counts),
        "table_rows": dg.MetadataValue.json(result.table_rows),
        "players": dg.MetadataValue.md(md_table(
            ["player", "team", "role", "god", "K", "D", "A", "damage", "gold"], players)),
        # the lake snapshot that committed this version: `ask --as-of` reads the match as it was then
        "warehouse_snapshot": result.snapshot if result.snapshot is not None else "unchanged",
        "dagster/row_count": result.table_rows.get("events", 0),
    }
    return metadata, warehouse_checks(con, result.lines_total)


def _record_other_match(context: dg.AssetExecutionContext, paths, log: Path, result: IngestResult) -> None:
    """A further match in the same log: committed by this ingest, so it becomes its own partition, recorded
    as materialized (its report follows by automation) and registered to the same file."""
    key = match_key(result.match_id)
    context.instance.add_dynamic_partitions(match_partitions.name, [key])
    register_match_source(paths, key, log)
    metadata, _ = match_metadata(paths, result)
    context.log_event(dg.AssetMaterialization(asset_key=context.asset_key, partition=key, metadata=metadata,
                                              tags=version_tags(result.source_sha256)))
    context.log.info(f"{log.name} also holds match {result.match_id} (lines {result.first_line:,}-"
                     f"{result.last_line:,}): committed and recorded as partition {key!r}")
