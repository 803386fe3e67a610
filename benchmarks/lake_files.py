"""The lake's own Parquet files, for the benchmarks' hand-written baselines.

A baseline reads the very files the lake's catalog names for a table (at a snapshot), with plain DuckDB and no
DuckLake: what DuckDB costs with no catalog in the way. The benchmarks' lakes are written once, never replaced,
so a table's files hold no deleted rows; `table_files` refuses a table with delete files rather than give a
baseline that counts rows the lake does not.
"""

from __future__ import annotations

from pathlib import Path

from combat_analysis.contracts.schema import WAREHOUSE_SCHEMA
from combat_analysis.warehouse.store import ALIAS, current_snapshot, reader, sql_string


def table_files(root: Path, tables: tuple[str, ...], snapshot: int | None = None) -> dict[str, list[str]]:
    """Each table's data files at `snapshot` (the latest if None), as the catalog lists them."""
    with reader(root) as con:
        version = current_snapshot(con) if snapshot is None else int(snapshot)
        files = {}
        for table in tables:
            rows = con.execute(f"SELECT data_file, delete_file FROM ducklake_list_files('{ALIAS}', '{table}', "
                               f"snapshot_version => {version})").fetchall()
            if any(delete is not None for _, delete in rows):
                raise SystemExit(f"{table} has delete files at snapshot {version}: a baseline over its data files "
                                 "would count deleted rows")
            files[table] = [data for data, _ in rows]
    return files


def hand_view(table: str, files: list[str], match_id: str | None = None) -> str:
    """A SELECT of one table's columns over its files with `read_parquet` (scoped to a match if given)."""
    columns = WAREHOUSE_SCHEMA[table]
    if not files:  # a table with no rows yet (no quarantined line): empty, with its columns and types
        return "SELECT " + ", ".join(f"CAST(NULL AS {kind}) AS {name}" for name, kind in columns.items()) + \
            " WHERE false"
    listed = ", ".join(sql_string(f) for f in files)
    where = f" WHERE match_id = {sql_string(match_id)}" if match_id is not None else ""
    return f"SELECT {', '.join(columns)} FROM read_parquet([{listed}]){where}"


def hand_views(root: Path, match_id: str | None = None, snapshot: int | None = None) -> dict[str, str]:
    """Every warehouse table as a `read_parquet` view over the lake's files, the views a bare DuckDB runs."""
    files = table_files(root, tuple(WAREHOUSE_SCHEMA), snapshot)
    return {table: hand_view(table, files[table], match_id) for table in WAREHOUSE_SCHEMA}
