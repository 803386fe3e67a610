"""Reads across matches on a lake of many matches: the tables read across matches are merged into few files by
one delete and insert each (`store.merge_table`), while the per-event tables keep one file per match. Merging changes no
figure, time travel still sees every snapshot, a reader keeps what it opened, and an ingest run merges by itself."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from combat_analysis.contracts.schema import TABLES
from combat_analysis.ingest.run import ingest_logs
from combat_analysis.season import figures as season
from combat_analysis.warehouse.store import (
    MERGED_TABLES,
    compact,
    expire,
    file_counts,
    match_ids,
    open_warehouse,
    pin,
    writer,
)


def rounded(value):
    """Floats to 9 significant digits: an average's last bits depend on the order DuckDB adds in."""
    if isinstance(value, float):
        return float(f"{value:.9g}")
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    return value


def figures(root: Path, snapshot: int | None = None) -> dict:
    """What readers across matches see: every table's rows and totals, and the season's figures."""
    con = open_warehouse(root, snapshot=snapshot)
    seen = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    seen["damage"] = (seen["damage"], con.execute("SELECT sum(amount), sum(mitigated) FROM damage").fetchone())
    for name, board in (("board", season.leaderboard(con, "damage_dealt", limit=50)),
                        ("kda", season.leaderboard(con, "kda", statistic="average", limit=50))):
        # an average's last bits depend on the order DuckDB adds in, so two equal averages may swap places
        seen[name] = sorted((r["player"], rounded(r["value"]), r["matches"]) for r in board.model_dump()["rows"])
    seen["profiles"] = [p.model_dump() for p in season.player_profiles(con)]
    seen["gods"] = [g.model_dump() for g in season.god_stats(con)]
    seen["matches"] = [m.model_dump() for m in season.selected_matches(con)]
    con.close()
    return rounded(seen)


def counts(root: Path) -> dict[str, int]:
    with writer(root) as con:
        return file_counts(con)


def test_merging_changes_no_figure_and_keeps_one_file_per_match_where_one_match_reads(warehouse):
    matches = len(match_ids(warehouse))
    before, files = figures(warehouse), counts(warehouse)
    assert files["player_stats"] == files["matches"] == matches  # one file per match and table as ingested
    merged = compact(warehouse, min_files=2)
    assert sorted(merged) == sorted(t for t in MERGED_TABLES if files[t] >= 2)
    after = counts(warehouse)
    assert all(after[t] <= 1 for t in MERGED_TABLES), after  # one, or none for a table without rows
    assert all(after[t] == files[t] for t in TABLES if t not in MERGED_TABLES), after  # events, damage, ...
    assert figures(warehouse) == before


def test_time_travel_and_an_open_reader_survive_a_merge(warehouse):
    con = open_warehouse(warehouse)
    snapshot = pin(con, None, None)
    before = figures(warehouse, snapshot)
    rows = con.execute("SELECT count(*), sum(kills) FROM player_stats").fetchone()
    compact(warehouse, min_files=2)
    expire(warehouse, timedelta(days=1))  # housekeeping with its grace period: the merged-away files stay
    assert con.execute("SELECT count(*), sum(kills) FROM player_stats").fetchone() == rows
    con.close()
    assert figures(warehouse, snapshot) == before


def test_an_ingest_run_merges_once_there_are_enough_files(logs, tmp_path):
    root = tmp_path / "wh"
    ingest_logs(logs[:2], root)
    assert counts(root)["player_stats"] == 2  # under the threshold: left as they are
    ingest_logs(logs[2:], root)
    after = counts(root)
    assert all(after[t] <= 1 for t in MERGED_TABLES), after
    assert after["events"] == len(logs)
