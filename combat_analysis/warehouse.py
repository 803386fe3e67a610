"""The match warehouse: immutable per-match Parquet partitions, queried only through DuckDB views.

Layout: `<root>/<table>/match_id=<safe id>/data.parquet`. A partition is written beside its final place and
renamed in, so readers never see a half-written table.
"""

from __future__ import annotations

import os
import re
import shutil
import uuid
from pathlib import Path

import duckdb

from combat_analysis.schema import TABLES, WAREHOUSE_SCHEMA


class WarehouseError(RuntimeError):
    """The warehouse cannot answer: no such match, or nothing ingested yet."""


def partition_name(match_id: str) -> str:
    # Match ids come from the log; keep directory names portable and unambiguous.
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", match_id)
    return f"match_id={safe}"


def partition_dir(root: Path, table: str, match_id: str) -> Path:
    return Path(root) / table / partition_name(match_id)


def _over_matches(root: Path, select: str, params: list | tuple = ()) -> list[tuple]:
    """Run `select` over every match's `matches` partition; `{matches}` in it names the partitions."""
    files = sorted(str(f) for f in (Path(root) / "matches").glob("match_id=*/data.parquet"))
    if not files:
        return []
    return duckdb.connect().execute(select.format(matches="read_parquet(?, hive_partitioning = false)"), [files, *params]).fetchall()


def match_ids(root: Path) -> list[str]:
    """Every match in the warehouse, by the id recorded in its `matches` partition."""
    return [r[0] for r in _over_matches(root, "SELECT match_id FROM {matches} ORDER BY match_id")]


def match_with_sha256(root: Path, sha256: str) -> str | None:
    """The match already ingested from a file with exactly this content, if any."""
    rows = _over_matches(root, "SELECT match_id FROM {matches} WHERE source_sha256 = ? LIMIT 1", [sha256])
    return rows[0][0] if rows else None


def table_sources(root: Path, match_id: str | None = None, *, hold_for: object | None = None) -> dict[str, list[Path]]:
    """For each table of `schema.TABLES`, the committed Parquet files a view over it must read: the match's
    partition, or every match's without `match_id`. An empty list means an empty view with the schema's
    columns. Raises `WarehouseError` for a match that is not in the warehouse. `hold_for` (the object reading
    the files) is accepted for the snapshot layout, where files are held while read; partitions here are
    replaced by rename, so there is nothing to hold."""
    root = Path(root)
    if match_id is None:
        return {table: sorted((root / table).glob("match_id=*/data.parquet")) for table in TABLES}
    files = {table: partition_dir(root, table, match_id) / "data.parquet" for table in TABLES}
    if not files["matches"].is_file():
        known = ", ".join(match_ids(root)) or "none"
        raise WarehouseError(f"match {match_id!r} is not in the warehouse at {root} (matches: {known})")
    return {table: [file] if file.is_file() else [] for table, file in files.items()}


def _empty_select(table: str) -> str:
    columns = ", ".join(f"CAST(NULL AS {kind}) AS {name}" for name, kind in WAREHOUSE_SCHEMA[table].items())
    return f"SELECT {columns} WHERE false"


def sql_string(text: str) -> str:
    """A SQL string literal, for the few statements DuckDB cannot parameterise (paths in FROM, SET)."""
    return "'" + text.replace("'", "''") + "'"


def view_sql(table: str, files: list[Path]) -> str:
    """The SELECT behind one warehouse view: exactly these Parquet files, never a folder name read as data."""
    if not files:
        return _empty_select(table)
    listed = ", ".join(sql_string(str(f)) for f in files)
    return f"SELECT * FROM read_parquet([{listed}], hive_partitioning = false)"


def open_warehouse(root: Path, match_id: str | None = None, *, read_only_memory_mb: int = 1024):
    """A DuckDB connection with one view per warehouse table.

    With `match_id`, every view holds that match only, so a question about one match needs no filter.
    Tables with no partition yet are empty views with the right columns, so SQL always binds.
    """
    root = Path(root)
    if match_id is not None and not partition_dir(root, "matches", match_id).exists():
        known = ", ".join(match_ids(root)) or "none"
        raise WarehouseError(f"match {match_id!r} is not in the warehouse at {root} (matches: {known})")
    con = duckdb.connect()
    con.execute(f"SET memory_limit = '{read_only_memory_mb}MB'")
    for table in TABLES:
        if match_id is None:
            pattern = root / table / "match_id=*" / "data.parquet"
            present = any((root / table).glob("match_id=*/data.parquet"))
        else:
            pattern = partition_dir(root, table, match_id) / "data.parquet"
            present = pattern.exists()
        source = f"SELECT * FROM read_parquet({sql_string(str(pattern))}, hive_partitioning = false)" if present else _empty_select(table)
        con.execute(f"CREATE VIEW {table} AS {source}")
    return con


def replace_partition(root: Path, table: str, match_id: str, staged_file: Path) -> bool:
    """Move a fully written Parquet file into place as the table's partition for the match.

    Returns True if an earlier partition was replaced. The old directory is renamed aside before the new
    one is renamed in, then removed, so a reader sees either the old or the new table, never a mix.
    """
    final = partition_dir(root, table, match_id)
    final.parent.mkdir(parents=True, exist_ok=True)
    incoming = final.parent / f".incoming-{uuid.uuid4().hex}"
    incoming.mkdir()
    os.replace(staged_file, incoming / "data.parquet")
    replaced = final.exists()
    if replaced:
        retired = final.parent / f".retired-{uuid.uuid4().hex}"
        os.replace(final, retired)
        os.replace(incoming, final)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        os.replace(incoming, final)
    return replaced
