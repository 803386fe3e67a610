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


def match_ids(root: Path) -> list[str]:
    """Every match in the warehouse, by the id recorded in its `matches` partition."""
    files = sorted((Path(root) / "matches").glob("match_id=*/data.parquet"))
    if not files:
        return []
    con = duckdb.connect()
    rows = con.execute("SELECT match_id FROM read_parquet(?) ORDER BY match_id", [[str(f) for f in files]])
    return [r[0] for r in rows.fetchall()]


def _empty_select(table: str) -> str:
    columns = ", ".join(f"CAST(NULL AS {kind}) AS {name}" for name, kind in WAREHOUSE_SCHEMA[table].items())
    return f"SELECT {columns} WHERE false"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


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
        source = f"SELECT * FROM read_parquet({_quote(str(pattern))})" if present else _empty_select(table)
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
