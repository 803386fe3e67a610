"""Data handles: result tables too large to travel inline in a package, kept as Parquet files.

A handle is a small reference (id, type, columns, shape, dtypes, source SQL, expiry) that a package carries
in place of the rows. The store writes each table with DuckDB's `COPY ... TO ... (FORMAT parquet)` next to a
JSON sidecar holding the handle, so `get` can check expiry without the package that named it.
"""

from __future__ import annotations

import json
import math
import re
import tempfile
import uuid
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from combat_analysis.contracts.package import DataHandle, DerivedTable, HandleMetadata, QueryResult

if TYPE_CHECKING:
    import pandas as pd  # imported where a table is written or read back: most answers never need it

DEFAULT_TTL = timedelta(hours=24)
HANDLE_ID = re.compile(r"h_[0-9a-f]{32}")
# A type name spliced into a CAST: plain DuckDB type names only (no quoted struct field names); others are
# left to DuckDB's inference from the Python values.
PLAIN_TYPE = re.compile(r"[A-Z][A-Z0-9_ ]*(\(\d+(, ?\d+)?\))?(\[\])*")


class HandleError(LookupError):
    """A data handle that cannot be resolved."""


class HandleNotFoundError(HandleError):
    pass


class HandleExpiredError(HandleError):
    pass


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _sql_string(text: Path | str) -> str:
    return "'" + str(text).replace("'", "''") + "'"


def _identifier(name: str) -> str:
    return '"' + str(name).replace('"', '""') + '"'


class HandleStore:
    """Parquet-backed handles under one directory: `<root>/<handle id>.parquet` + `.json`."""

    def __init__(self, root: Path | str, ttl: timedelta = DEFAULT_TTL):
        self.root = Path(root)
        self.ttl = ttl
        self.root.mkdir(parents=True, exist_ok=True)

    def __repr__(self) -> str:
        return f"HandleStore({str(self.root)!r}, ttl={self.ttl})"

    def _paths(self, handle_id: str) -> tuple[Path, Path]:
        # Handle ids are ours (`h_` + 32 hex digits); one from a package is checked, never used as a path as is.
        if not isinstance(handle_id, str) or not HANDLE_ID.fullmatch(handle_id):
            raise HandleNotFoundError(f"data handle {handle_id!r} is not a valid handle id")
        return self.root / f"{handle_id}.parquet", self.root / f"{handle_id}.json"

    def put_table(
        self,
        con: duckdb.DuckDBPyConnection,
        table: str,
        *,
        source_sql: str,
        data_type: str = "table",
        ttl: timedelta | None = None,
        now: datetime | None = None,
    ) -> DataHandle:
        """Write the relation `table` (a table or view name on `con`) to Parquet and return its handle."""
        handle_id = f"h_{uuid.uuid4().hex}"
        parquet, sidecar = self._paths(handle_id)
        con.execute(f"COPY (SELECT * FROM {table}) TO {_sql_string(parquet)} (FORMAT parquet)")
        described = con.execute(f"DESCRIBE SELECT * FROM {table}").fetchall()
        counted = con.execute(f"SELECT count(*) FROM {table}").fetchone()
        if counted is None:  # count(*) always returns one row; fetchone is typed for any query
            raise RuntimeError(f"count(*) of {table} returned no row")
        (rows,) = counted
        created = now or _now()
        handle = DataHandle(
            handle_id=handle_id,
            data_type=data_type,
            path=str(parquet),
            metadata=HandleMetadata(
                columns=tuple(name for name, *_ in described),
                shape=(int(rows), len(described)),
                dtypes={name: str(dtype) for name, dtype, *_ in described},
                source_sql=source_sql,
                created_at=created,
                expires_at=created + (ttl or self.ttl),
            ),
        )
        sidecar.write_text(handle.model_dump_json(), encoding="utf-8")
        return handle

    def put_result(self, columns: Sequence[str], types: Sequence[str], rows: Sequence[Sequence[Any]], *,
                   source_sql: str, ttl: timedelta | None = None, now: datetime | None = None) -> DataHandle:
        """Write a query result (from the locked query connection, which may write nothing) to Parquet with
        exactly its DuckDB column types, through a private in-memory connection."""
        import pandas as pd  # lazy: a 0.4 s import, only where a large result is written

        con = duckdb.connect()
        try:
            # object columns: pandas never turns an integer column with a NULL into floats
            frame = pd.DataFrame(list(rows), columns=[f"c{i}" for i in range(len(columns))], dtype=object)
            con.register("result_rows", frame)
            casts = ", ".join(
                (f"CAST(c{i} AS {kind})" if PLAIN_TYPE.fullmatch(kind) else f"c{i}") + f" AS {_identifier(name)}"
                for i, (name, kind) in enumerate(zip(columns, types, strict=True)))
            con.execute(f"CREATE TABLE result_table AS SELECT {casts} FROM result_rows")
            return self.put_table(con, "result_table", source_sql=source_sql, ttl=ttl, now=now)
        finally:
            con.close()

    def put_rows(self, rows: list[dict[str, Any]], *, source: str, data_type: str = "derived_table",
                 ttl: timedelta | None = None, now: datetime | None = None) -> DataHandle:
        """Write Python rows (scalar cells) to Parquet through an in-memory DuckDB table.

        The rows reach DuckDB as newline-delimited JSON with the column types given, not inferred: going
        through pandas cost a 0.4 s import on answers that need nothing else from it."""
        columns = list(dict.fromkeys(k for row in rows for k in row))
        types = {c: column_type([row.get(c) for row in rows]) for c in columns}
        con = duckdb.connect()
        try:
            with tempfile.TemporaryDirectory(dir=self.root) as scratch:
                lines = Path(scratch) / "rows.jsonl"
                lines.write_text("".join(json.dumps(r, default=str) + "\n" for r in rows), encoding="utf-8")
                spec = "{" + ", ".join(f"{_sql_string(c)}: {_sql_string(t)}" for c, t in types.items()) + "}"
                con.execute(f"CREATE TABLE derived_rows AS SELECT * FROM read_json({_sql_string(str(lines))}, "
                            f"format = 'newline_delimited', columns = {spec})" if columns else
                            "CREATE TABLE derived_rows AS SELECT 1 AS empty WHERE false")
            return self.put_table(con, "derived_rows", source_sql=source, data_type=data_type, ttl=ttl, now=now)
        finally:
            con.close()

    def handle(self, handle_id: str, *, now: datetime | None = None) -> DataHandle:
        """The live handle, or a clear error naming it when it is missing or expired."""
        parquet, sidecar = self._paths(handle_id)
        if not sidecar.exists() or not parquet.exists():
            raise HandleNotFoundError(f"data handle {handle_id!r} not found in {self.root}")
        handle = DataHandle.model_validate_json(sidecar.read_text(encoding="utf-8"))
        if (now or _now()) >= handle.metadata.expires_at:
            raise HandleExpiredError(
                f"data handle {handle_id!r} expired at {handle.metadata.expires_at.isoformat()}; "
                "re-run the question to rebuild it"
            )
        return handle

    def get(self, handle_id: str, *, now: datetime | None = None) -> list[dict[str, Any]]:
        """All rows behind a handle, as dicts in file order."""
        parquet = Path(self.handle(handle_id, now=now).path)
        con = duckdb.connect()
        try:
            cursor = con.execute(f"SELECT * FROM read_parquet({_sql_string(parquet)})")
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
        finally:
            con.close()

    def get_frame(self, handle_id: str, *, now: datetime | None = None) -> pd.DataFrame:
        parquet = Path(self.handle(handle_id, now=now).path)
        con = duckdb.connect()
        try:
            return con.execute(f"SELECT * FROM read_parquet({_sql_string(parquet)})").df()
        finally:
            con.close()

    def ids(self) -> list[str]:
        return sorted(p.stem for p in self.root.glob("h_*.json"))

    def cleanup_expired(self, now: datetime | None = None) -> list[str]:
        """Delete every expired handle's files; returns the removed ids."""
        moment = now or _now()
        removed = []
        for handle_id in self.ids():
            parquet, sidecar = self._paths(handle_id)
            try:
                handle = DataHandle.model_validate_json(sidecar.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if moment >= handle.metadata.expires_at:
                parquet.unlink(missing_ok=True)
                sidecar.unlink(missing_ok=True)
                removed.append(handle_id)
        return removed

    def __getstate__(self) -> dict[str, Any]:
        return {"root": str(self.root), "ttl": self.ttl.total_seconds()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.root = Path(state["root"])
        self.ttl = timedelta(seconds=state["ttl"])


def json_value(value: Any) -> Any:
    """A DuckDB cell as a JSON-native value, so a package round-trips exactly."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if hasattr(value, "item"):  # numpy scalars
        return json_value(value.item())
    return str(value)


def column_type(values: Sequence[Any]) -> str:
    """The column type a list of scalar cells needs: the narrowest of BOOLEAN, BIGINT, DOUBLE, else text."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return "BOOLEAN"
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return "BIGINT"
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return "DOUBLE"
    return "VARCHAR"


def json_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: json_value(v) for k, v in row.items()}


def rows_of(result: QueryResult | DerivedTable, store: HandleStore | None) -> list[dict[str, Any]]:
    """Every row of a query result or derived table: from its handle when it has one, else inline."""
    if result.handle is not None and store is not None:
        return [json_row(r) for r in store.get(result.handle.handle_id)]
    return [dict(r) for r in (result.data if isinstance(result, QueryResult) else result.rows)]
