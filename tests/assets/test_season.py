"""The season assets in real Dagster runs: matches ingested as partitions, automation that brings the season up to
date when a match lands, the two checks, the stored tables against the oracle, and the season report."""

from __future__ import annotations

import re
from pathlib import Path

import dagster as dg

from assets.season import profile_checks, season_assets
from combat_analysis.reports.season import BoardsTable, GroupsTable, ProfilesTable, load_table
from tests.support.dagster import automation_tick, ingest_match
from tests.support.season import LATER

SEASON_KEYS = [a.key for a in season_assets]


def requested(result) -> set:
    return {k for k in SEASON_KEYS if result.get_num_requested(k)}


def test_a_season_never_built_is_built_on_the_first_tick(season_home):
    *_, first_tick, _ = season_home
    assert requested(first_tick) == set(SEASON_KEYS)


def test_a_landed_match_brings_the_season_up_to_date(season_home, season_matches):
    home, instance, _, first_tick, _ = season_home
    settled = automation_tick(home, instance, first_tick.cursor)
    assert requested(settled) == set()  # materialized since: nothing to do
    assert requested(automation_tick(home, instance, settled.cursor)) == set()
    ingest_match(home, instance, season_matches[LATER])
    instance.add_dynamic_partitions("matches", ["a-log-that-never-ingested"])  # must not hold the season back
    landed = automation_tick(home, instance, settled.cursor)
    assert requested(landed) == set(SEASON_KEYS)


def metadata(result, asset: str) -> dict:
    [mat] = result.asset_materializations_for_node(asset)
    return {k: v.value for k, v in mat.metadata.items()}


def test_checks_pass_and_count_every_match(season_home):
    _, _, result, _, first = season_home
    checks = {c.check_name: c for c in result.get_asset_check_evaluations()}
    assert {name: c.passed for name, c in checks.items()} == {"every_match_counted_once": True,
                                                              "player_match_counts": True}
    counted = {k: v.value for k, v in checks["every_match_counted_once"].metadata.items()}
    assert counted["matches_counted"] == counted["matches_ingested_through_dagster"] == len(first)
    assert counted["player_games_counted"] == counted["player_games_in_rosters"] == 10 * len(first)


def test_checks_fail_when_a_match_or_a_count_is_off(season_home):
    from combat_analysis.warehouse.store import open_warehouse

    home, _, _, _, first = season_home
    table = load_table(home / "season" / "player_profiles.json", ProfilesTable)
    con = open_warehouse(home / "warehouse")
    ingested = {m.match_id for m in first}
    assert all(c.passed for c in profile_checks(con, table, ingested))
    missing = profile_checks(con, table, ingested | {"ingested-elsewhere"})
    assert [c.passed for c in missing] == [False, True]
    off = table.profiles[0]
    tampered = table.model_copy(update={"profiles": (
        off.model_copy(update={"record": off.record.model_copy(update={"games": off.record.games + 1})}),
        *table.profiles[1:])})
    assert [c.passed for c in profile_checks(con, tampered, ingested)] == [False, False]


def test_stored_tables_match_the_oracle(season_home):
    home, _, result, _, first = season_home
    profiles = load_table(home / "season" / "player_profiles.json", ProfilesTable)
    assert sorted(m.match_id for m in profiles.matches) == sorted(m.match_id for m in first)
    for p in profiles.profiles:
        played = [m for m in first if p.player in m.truth["players"]]
        assert p.record.games == len(played)
        assert p.totals["damage_dealt"] == sum(m.truth["players"][p.player]["damage_dealt"] for m in played)
        assert p.totals["kills"] == sum(m.truth["players"][p.player]["kills"] for m in played)
    gods = load_table(home / "season" / "god_stats.json", GroupsTable)
    assert sum(g.record.games for g in gods.gods) == 10 * len(first)
    assert {g.name: g.record.games for g in gods.roles} == {r: 2 * len(first) for r in
                                                           ("Carry", "Jungle", "Middle", "Solo", "Support")}
    boards = load_table(home / "season" / "season_leaderboard.json", BoardsTable)
    totals: dict[str, float] = {}
    for m in first:
        for name, row in m.truth["players"].items():
            totals[name] = totals.get(name, 0) + row["damage_dealt"]
    leader = sorted(totals, key=lambda n: (-totals[n], n))[0]
    damage = boards.boards[0]
    assert (damage.metric, damage.statistic) == ("damage_dealt", "total")
    assert (damage.rows[0].player, damage.rows[0].value) == (leader, totals[leader])
    meta = metadata(result, "season_leaderboard")
    assert meta["leaders"]["Total damage dealt"] == f"{leader} ({round(totals[leader]):,})"
    assert meta["matches"] == len(first)
    assert metadata(result, "player_profiles")["players"] == len({p for m in first for p in m.truth["players"]})
    assert "| player | matches |" in metadata(result, "player_profiles")["preview"]


def test_season_report_links_every_built_match_report(season_home):
    home, instance, result, _, first = season_home
    meta = metadata(result, "season_report")
    html_path, md_path = Path(meta["report_html"]), Path(meta["report_markdown"])
    page, markdown = html_path.read_text(encoding="utf-8"), md_path.read_text(encoding="utf-8")
    assert meta["matches"] == len(first) and meta["linked_match_reports"] == 1
    for m in first:
        assert m.match_id in markdown
    built = first[0]
    links = re.findall(r'href="([^"]+)"', page)
    assert links and all((html_path.parent / link).resolve().exists() for link in links)
    assert any(str((html_path.parent / link).resolve()).endswith("report.html") for link in links)
    assert "[match report](" in markdown and markdown.count("not built yet") == len(first) - 1
    assert built.match_id in meta["preview"]
    # self-contained: every image is inline, nothing is fetched
    assert "src=\"http" not in page and page.count("data:image/png;base64,") == len(meta["form_players"]) + 3
    assert "data:image/png;base64," in meta["chart"]
    for png in (html_path.parent / "charts").glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_code_location_registers_the_season():
    import definitions

    defs = definitions.defs
    graph = defs.resolve_asset_graph()
    parents = {k.to_user_string(): {p.to_user_string() for p in graph.get(k).parent_keys} for k in SEASON_KEYS}
    assert parents == {"player_profiles": {"match_warehouse"}, "god_stats": {"match_warehouse"},
                       "season_leaderboard": {"match_warehouse"},
                       "season_report": {"player_profiles", "god_stats", "season_leaderboard", "match_warehouse",
                                         "match_report"}}
    sensor = defs.resolve_sensor_def("season_automation")
    assert sensor.default_status == dg.DefaultSensorStatus.RUNNING
    for spec in defs.resolve_all_asset_specs():
        if spec.key in SEASON_KEYS:
            assert spec.group_name == "season" and spec.kinds and spec.owners and spec.description
            assert spec.automation_condition is not None
