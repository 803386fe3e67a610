"""Ingest assets: a match's raw log and its warehouse partitions, with the checks that guard them."""


from pathlib import Path

import dagster as dg

from assets.partitions import match_partitions
from combat_analysis.ingest import (
    READ_ERRORS,
    IngestError,
    IngestResult,
    as_ingest_error,
    check_log_file,
    ingest_log,
)
from combat_analysis.logfile import survey_log
from combat_analysis.render import md_table
from combat_analysis.requests import match_id_for_key, match_key, match_source, register_match_source
from combat_analysis.warehouse import open_warehouse
from resources import CombatHome

OWNERS = ["team:data-engineering"]


class RawLogConfig(dg.Config):
    path: str = ""  # leave empty to use the file the incoming-logs sensor registered for this match


@dg.asset(
    partitions_def=match_partitions, group_name="ingest", kinds={"file"}, owners=OWNERS, code_version="1",
    description="The SMITE 2 combat log file a match was read from, fingerprinted by SHA-256.",
)
def raw_match_log(context: dg.AssetExecutionContext, config: RawLogConfig, home: CombatHome) -> dg.MaterializeResult:
    """The combat log as the game wrote it. Its data version is the file's SHA-256, so a changed file
    under the same match id shows up as a new version upstream of the warehouse."""
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
    description="The match's immutable Parquet partitions: events, damage, kills with assists, rewards, "
                "purchases, objectives, player stats, timeline and gold difference.",
)
def match_warehouse(context: dg.AssetExecutionContext, home: CombatHome) -> dg.MaterializeResult:
    """Parse the log losslessly (malformed lines and untrustworthy values are quarantined with their line
    numbers) and commit the match as one snapshot of Parquet tables. Re-ingesting identical content changes
    nothing. A log holding further matches commits them too, and records them as their own partitions."""
    paths = home.paths
    key = context.partition_key
    log = match_source(paths, key)
    try:
        result = ingest_log(log, paths.warehouse, on_stage=lambda name: context.log.info(f"{log.name}: {name}"))
    except IngestError as exc:  # the file itself is the problem: retrying cannot help
        raise dg.Failure(description=str(exc), allow_retries=False) from exc
    wanted = match_id_for_key(key)
    mine = next((r for r in result.matches if r.match_id == wanted), None)
    if mine is None:
        raise dg.Failure(description=f"{log} holds the matches {[r.match_id for r in result.matches]}, not {wanted!r}",
                         allow_retries=False)
    for other in result.matches:
        if other is not mine:
            _record_other_match(context, paths, log, other)
    if mine.status == "replaced":
        context.log.warning(f"match {mine.match_id}: new content replaced the earlier snapshot")
    metadata, checks = _match_metadata(paths, mine)
    return dg.MaterializeResult(metadata=metadata, data_version=dg.DataVersion(mine.source_sha256),
                                check_results=checks)


def _match_metadata(paths, result: IngestResult) -> tuple[dict, list[dg.AssetCheckResult]]:
    con = open_warehouse(paths.warehouse, result.match_id)
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
        "snapshot_path": dg.MetadataValue.path(result.snapshot_dir),
        "dagster/row_count": result.table_rows.get("events", 0),
    }
    return metadata, warehouse_checks(con, result.lines_total)


def _record_other_match(context: dg.AssetExecutionContext, paths, log: Path, result: IngestResult) -> None:
    """A further match in the same log: committed by this ingest, so it becomes its own partition, recorded
    as materialized (its report follows by automation) and registered to the same file."""
    key = match_key(result.match_id)
    context.instance.add_dynamic_partitions(match_partitions.name, [key])
    register_match_source(paths, key, log)
    metadata, _ = _match_metadata(paths, result)
    context.log_event(dg.AssetMaterialization(asset_key=context.asset_key, partition=key, metadata=metadata))
    context.log.info(f"{log.name} also holds match {result.match_id} (lines {result.first_line:,}-"
                     f"{result.last_line:,}): committed and recorded as partition {key!r}")
