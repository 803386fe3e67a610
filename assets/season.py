"""Season assets: player profiles, god and role records, leaderboards and the season report, across every match.

Each reads the warehouse views over all matches (every `matches` partition of `match_warehouse`) and is brought
up to date by its automation condition whenever a match lands; the `season_automation` sensor evaluates it.
Their tables are JSON files under `<home>/season/` (models in `combat_analysis.season`); docs/season.md
defines every figure.
"""


from pathlib import Path
from typing import TypedDict

import dagster as dg

from assets.ingest import match_warehouse
from assets.reports import match_report
from combat_analysis.charts.preview import preview_b64
from combat_analysis.formatting import number, rate
from combat_analysis.render.document import md_chart, md_preview, md_table, md_text
from combat_analysis.reports.season import (
    BoardsTable,
    GroupsTable,
    ProfilesTable,
    board_title,
    board_value,
    build_season_report,
    load_table,
    save_table,
    season_boards,
)
from combat_analysis.season import figures as season
from combat_analysis.warehouse.store import open_warehouse
from resources import CombatHome

OWNERS = ["team:analytics"]
PREVIEW_ROWS = 20
# Every match partition feeds the season; which ones exist is only known at run time.
ALL_MATCHES = dg.AllPartitionMapping()
WAREHOUSE = dg.AssetDep(match_warehouse, partition_mapping=ALL_MATCHES)
# Eager: run when any match lands, once nothing upstream is in progress. Two changes to eager: a match whose
# ingest failed stays a missing partition for good, so missing upstream partitions must not hold the season back;
# and a season table still missing when the sensor first evaluates (a warehouse filled before the sensor ran,
# as `make demo` does) is built then, instead of waiting for the next match.
_EAGER_ALLOWING_MISSING_MATCHES = dg.AutomationCondition.eager().without(~dg.AutomationCondition.any_deps_missing())
# (outside eager's since_last_handled, whose reset also fires on the first evaluation)
_NEVER_BUILT = (dg.AutomationCondition.missing() & dg.AutomationCondition.initial_evaluation()
                & ~dg.AutomationCondition.any_deps_in_progress() & ~dg.AutomationCondition.in_progress())
SEASON_AUTOMATION = (_EAGER_ALLOWING_MISSING_MATCHES | _NEVER_BUILT).with_label(
    "eager, allowing missing matches, and built once if missing")


class _SeasonAssetArgs(TypedDict):
    """What every season asset passes to @dg.asset; typed, so `**COMMON` checks against its overloads."""

    group_name: str
    owners: list[str]
    code_version: str
    automation_condition: dg.AutomationCondition


COMMON = _SeasonAssetArgs(group_name="season", owners=OWNERS, code_version="1",
                          automation_condition=SEASON_AUTOMATION)


def season_dir(home: CombatHome) -> Path:
    return home.paths.home / "season"


def _snapshot(con) -> tuple[tuple[season.MatchInfo, ...], season.MatchSelection]:
    """The matches in the warehouse now, and a selection of exactly those, so that every figure of one
    materialization covers the same matches even if another lands meanwhile."""
    matches = season.selected_matches(con)
    selection = season.MatchList(match_ids=tuple(m.match_id for m in matches)) if matches else season.ALL_MATCHES
    return matches, selection


def latest_materializations(instance: dg.DagsterInstance, asset_key: str) -> dict[str, dg.AssetMaterialization]:
    """The newest materialization of each partition of an asset, by partition key."""
    latest: dict[str, dg.AssetMaterialization] = {}
    cursor = None
    while True:
        page = instance.fetch_materializations(dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset_key)), limit=1000,
                                               cursor=cursor)
        for record in page.records:  # newest first
            mat = record.asset_materialization
            if mat is not None and mat.partition is not None:
                latest.setdefault(mat.partition, mat)
        if not page.has_more:
            return latest
        cursor = page.cursor


def _metadata_text(mat: dg.AssetMaterialization, key: str) -> str | None:
    entry = mat.metadata.get(key)
    return None if entry is None else str(entry.value)


def ingested_match_ids(instance: dg.DagsterInstance) -> set[str]:
    """The match ids that `match_warehouse` materializations report ingesting (and not since removed)."""
    found = (_metadata_text(m, "match_id") for m in latest_materializations(instance, "match_warehouse").values()
             if _metadata_text(m, "status") != "removed")
    return {m for m in found if m}


def match_report_files(instance: dg.DagsterInstance) -> dict[str, Path]:
    """Each match's latest report HTML, by match id, as its `match_report` materialization recorded it."""
    out = {}
    for mat in latest_materializations(instance, "match_report").values():
        match_id, html = _metadata_text(mat, "match_id"), _metadata_text(mat, "report_html")
        if match_id and html:
            out[match_id] = Path(html)
    return out


# --- player profiles and their checks ---------------------------------------------------------------------------

PROFILE_CHECKS = [
    dg.AssetCheckSpec("every_match_counted_once", asset="player_profiles",
                      description="Each match in the warehouse is one row of `matches`, every match ingested "
                                  "through Dagster is in the season, and each player-game of the season's matches "
                                  "is counted in exactly one profile, once."),
    dg.AssetCheckSpec("player_match_counts", asset="player_profiles",
                      description="Each profile's match count equals the number of matches whose roster names the "
                                  "player (the `players` table, counted separately from the profile query)."),
]


def profile_checks(con, table: ProfilesTable, ingested: set[str]) -> list[dg.AssetCheckResult]:
    ids = [m.match_id for m in table.matches]
    repeated = con.execute("SELECT match_id, count(*) FROM matches GROUP BY match_id HAVING count(*) > 1 "
                           "ORDER BY match_id").fetchall()
    selected = "match_id IN (SELECT unnest($ids::VARCHAR[]))"
    player_games = con.execute(f"SELECT count(*) FROM (SELECT DISTINCT match_id, player FROM players WHERE {selected})",
                               {"ids": ids}).fetchone()[0]
    counted_games = sum(p.record.games for p in table.profiles)
    not_counted = sorted(ingested - set(ids))
    appearances = dict(con.execute(
        f"SELECT player, count(DISTINCT match_id) FROM players WHERE {selected} GROUP BY player",
        {"ids": ids}).fetchall())
    counted = {p.player: p.record.games for p in table.profiles}
    wrong = sorted((p, counted.get(p, 0), appearances.get(p, 0)) for p in set(counted) | set(appearances)
                   if counted.get(p, 0) != appearances.get(p, 0))
    return [
        dg.AssetCheckResult(
            check_name="every_match_counted_once",
            passed=not repeated and len(set(ids)) == len(ids) and not not_counted and counted_games == player_games,
            metadata={"matches_counted": len(ids), "matches_ingested_through_dagster": len(ingested),
                      "repeated_in_matches_table": dg.MetadataValue.json([list(r) for r in repeated[:20]]),
                      "ingested_but_not_counted": dg.MetadataValue.json(not_counted[:20]),
                      "player_games_counted": counted_games, "player_games_in_rosters": player_games}),
        dg.AssetCheckResult(
            check_name="player_match_counts", passed=not wrong,
            metadata={"players": len(counted),
                      "mismatches": dg.MetadataValue.md(
                          md_table(["player", "counted", "appears in"], wrong[:20]) if wrong else "none")}),
    ]


@dg.asset(kinds={"duckdb", "json"}, deps=[WAREHOUSE], check_specs=PROFILE_CHECKS,
          description="Every player across all matches: record (unknown winners count as games only), totals, "
                      "per-match averages and best and worst match by damage dealt.", **COMMON)
def player_profiles(context: dg.AssetExecutionContext, home: CombatHome) -> dg.MaterializeResult:
    """One profile per player name (exact, as the logs spell it), over every match in the warehouse."""
    with open_warehouse(home.paths.lake) as con:
        matches, selection = _snapshot(con)
        table = ProfilesTable(matches=matches, profiles=season.player_profiles(con, selection))
        checks = profile_checks(con, table, ingested_match_ids(context.instance))
    path = save_table(season_dir(home) / "player_profiles.json", table)
    ranked = sorted(table.profiles, key=lambda p: (-p.record.games, p.player))[:PREVIEW_ROWS]
    return dg.MaterializeResult(
        metadata={
            "matches": len(matches),
            "players": len(table.profiles),
            "preview": dg.MetadataValue.md(md_table(
                ["player", "matches", "W-L-unknown", "win rate", "avg KDA", "avg damage", "best match (damage)"],
                [(p.player, p.record.games, f"{p.record.wins}-{p.record.losses}-{p.record.unknown_results}",
                  rate(p.record.win_rate), number(p.averages["kda"], 2),
                  number(p.averages["damage_dealt"]), f"{p.best_match.match_id} ({number(p.best_match.value)})")
                 for p in ranked]) if ranked else "no player yet"),
            "path": dg.MetadataValue.path(str(path)),
            "dagster/row_count": len(table.profiles),
        },
        check_results=checks,
    )


# --- gods and roles ----------------------------------------------------------------------------------------------

def _groups_md(groups: tuple[season.GroupStats, ...], what: str) -> str:
    if not groups:
        return f"no {what} yet"
    return md_table([what, "games", "W-L-unknown", "win rate", "avg KDA", "avg damage", "avg gold"], [
        (g.name, g.record.games, f"{g.record.wins}-{g.record.losses}-{g.record.unknown_results}",
         rate(g.record.win_rate), number(g.average_kda, 2), number(g.average_damage),
         number(g.average_gold)) for g in groups[:PREVIEW_ROWS]])


@dg.asset(kinds={"duckdb", "json"}, deps=[WAREHOUSE],
          description="Per god and per role across all matches: games, wins, losses, win rate, average KDA, "
                      "damage and gold.", **COMMON)
def god_stats(context: dg.AssetExecutionContext, home: CombatHome) -> dg.MaterializeResult:
    """Gods (most played first) and roles, over every player-game in the warehouse."""
    with open_warehouse(home.paths.lake) as con:
        matches, selection = _snapshot(con)
        table = GroupsTable(gods=season.god_stats(con, selection), roles=season.role_stats(con, selection))
    path = save_table(season_dir(home) / "god_stats.json", table)
    return dg.MaterializeResult(metadata={
        "matches": len(matches),
        "gods": len(table.gods),
        "gods_preview": dg.MetadataValue.md(_groups_md(table.gods, "god")),
        "roles_preview": dg.MetadataValue.md(_groups_md(table.roles, "role")),
        "path": dg.MetadataValue.path(str(path)),
        "dagster/row_count": len(table.gods),
    })


# --- leaderboards -------------------------------------------------------------------------------------------------

@dg.asset(kinds={"duckdb", "json"}, deps=[WAREHOUSE],
          description="The season's leaderboards: total damage, kills, assists, healing and gold; average KDA and "
                      "damage per match and win rate (at least 3 matches).", **COMMON)
def season_leaderboard(context: dg.AssetExecutionContext, home: CombatHome) -> dg.MaterializeResult:
    """The top ten of each standard board (`SEASON_BOARDS`); ties share a rank."""
    with open_warehouse(home.paths.lake) as con:
        matches, selection = _snapshot(con)
        table = season_boards(con, selection)
    path = save_table(season_dir(home) / "season_leaderboard.json", table)
    previews = "\n\n".join(
        f"**{md_text(board_title(b))}**\n\n" + (md_table(["#", "player", "matches", "value"], [
            (r.rank, r.player, r.matches, board_value(b, r.value)) for r in b.rows[:5]]) if b.rows else "nobody yet")
        for b in table.boards)
    leaders = {board_title(b): (f"{b.rows[0].player} ({board_value(b, b.rows[0].value)})" if b.rows else "")
               for b in table.boards}
    return dg.MaterializeResult(metadata={
        "matches": len(matches),
        "leaders": dg.MetadataValue.json(leaders),
        "preview": dg.MetadataValue.md(previews),
        "path": dg.MetadataValue.path(str(path)),
        "dagster/row_count": sum(len(b.rows) for b in table.boards),
    })


# --- the season report ------------------------------------------------------------------------------------------

@dg.asset(kinds={"markdown", "html", "matplotlib"},
          deps=[player_profiles, god_stats, season_leaderboard, WAREHOUSE,
                dg.AssetDep(match_report, partition_mapping=ALL_MATCHES)],
          description="The season in one page: leaderboards, players, the leaders' form, gods, roles and every "
                      "match with a link to its report; markdown and self-contained HTML. Metadata: `chart` is the "
                      "total damage leaderboard at a readable width with the report's path, `more_charts` the form "
                      "and win-rate charts (open them with \"Show Markdown\"); `report_html` and `report_url` point "
                      "at the HTML report.", **COMMON)
def season_report(context: dg.AssetExecutionContext, home: CombatHome) -> dg.MaterializeResult:
    """Reads the three season tables as their assets stored them, and links each match report that Dagster
    has built."""
    folder = season_dir(home)
    with open_warehouse(home.paths.lake) as con:
        report = build_season_report(
            con, folder, load_table(folder / "player_profiles.json", ProfilesTable),
            load_table(folder / "god_stats.json", GroupsTable),
            load_table(folder / "season_leaderboard.json", BoardsTable), match_report_files(context.instance))
    main, *more = report.figures or (None,)
    return dg.MaterializeResult(metadata={
        "matches": report.matches,
        "linked_match_reports": report.linked_reports,
        "form_players": dg.MetadataValue.json(list(report.form_players)),
        "chart": dg.MetadataValue.md(md_chart(main.caption or main.alt, main.alt, preview_b64(main.path),
                                              report.html_path) if main else "no chart yet"),
        "more_charts": dg.MetadataValue.md("\n\n".join(
            md_chart(f.caption or f.alt, f.alt, preview_b64(f.path, 480)) for f in more if f) or "none"),
        "report_html": dg.MetadataValue.path(str(report.html_path)),
        "report_url": dg.MetadataValue.url(home.report_url(report.html_path)),
        "report_markdown": dg.MetadataValue.path(str(report.markdown_path)),
        "preview": dg.MetadataValue.md(md_preview(report.markdown)),
    })


season_assets = [player_profiles, god_stats, season_leaderboard, season_report]

# Evaluates SEASON_AUTOMATION: the season catches up by itself whenever a match lands.
season_automation_sensor = dg.AutomationConditionSensorDefinition(
    "season_automation", target=dg.AssetSelection.assets(*season_assets),
    default_status=dg.DefaultSensorStatus.RUNNING, minimum_interval_seconds=30,
    description="Brings the season assets up to date after each match lands.",
)
