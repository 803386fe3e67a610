"""The locked query connection: the only DuckDB connection that runs planned SQL.

It reads the warehouse lake, attached read-only and pinned at one snapshot, and nothing else, whatever the SQL
says, because DuckDB itself enforces it:

- the lake is attached `READ_ONLY` (its PostgreSQL catalog too: a statement sent there runs in a read-only
  transaction), and every table is read `AT (VERSION => snapshot)` (a view, or its rows copied into the connection's
  memory when it is first read: see `_views_for`), so a question, its follow-ups and its report read one state of the
  warehouse, recorded in the package (`metadata.warehouse_snapshot`);
- `enable_external_access = false` with `allowed_directories` = the lake's data path and `allowed_paths` = its
  catalog file: no other file, directory, URL, extension or secret store can be opened, so
  `read_csv('/etc/passwd')`, `ATTACH`, `INSTALL` and `LOAD` all fail with a permission error (SQL that names a
  data file directly, or writes one, never gets past `validate_sql`);
- `temp_directory = ''`: a query that outgrows memory fails instead of spilling files to disk;
- `python_enable_replacements = false`: a table name never resolves to a Python variable of the caller;
- no extension is auto-installed or auto-loaded, community extensions and persistent secrets are off;
- `memory_limit` and `threads` bound what one statement may use;
- `lock_configuration = true` last, so no statement can change any of the above (`SET`, `RESET`, `PRAGMA`).

On top of that every statement must be exactly one SELECT by DuckDB's own parser (so DDL, DML, `SET`,
`PRAGMA`, `CALL` and `EXPLAIN` never reach the engine, and a second statement cannot hide behind a
sqlglot/DuckDB disagreement), runs under a timer that calls `interrupt()` when it takes too long, and
`run` (planned SQL) validates the exact text it executes with `validate_sql` and caps the rows it returns.
Whatever stops a statement is a `QueryError` (refused, timed out, over the row cap, failed) with a one-line
message.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from combat_analysis.contracts.schema import TABLES
from combat_analysis.warehouse.gate import UnsafeSqlError, validate_sql
from combat_analysis.warehouse.store import (
    SUMMARY_TABLES,
    Lake,
    as_lake,
    connect,
    copy_table,
    create_view,
    pin,
    reader_paths,
    sql_string,
)


@dataclass(frozen=True)
class QueryLimits:
    """What one statement on a locked connection may use."""

    timeout_s: float = 30.0
    max_rows: int = 100_000
    memory_limit_mb: int = 1024
    threads: int = 2


class QueryError(RuntimeError):
    """A statement the locked connection did not run to the end; the message says why, in one line."""


class QueryRefused(QueryError):
    """Not allowed: not one SELECT, SQL that fails validation, or a file outside the warehouse."""


class QueryTimeout(QueryError):
    """Stopped after `QueryLimits.timeout_s`."""


class RowCapExceeded(QueryError):
    """More rows than `QueryLimits.max_rows`."""


class QueryFailed(QueryError):
    """DuckDB could not run it (an unknown column, a type error, the memory limit)."""


@dataclass(frozen=True)
class QueryOutput:
    """A planned query's whole result: column names, DuckDB type names and rows, in order."""

    columns: tuple[str, ...]
    types: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    elapsed_ms: float


class Result:
    """The result of one statement: the DB-API reading methods, and nothing that could run another."""

    def __init__(self, cursor: duckdb.DuckDBPyConnection):
        self._cursor = cursor

    @property
    def description(self):
        return self._cursor.description

    def fetchall(self) -> list[tuple]:
        return self._cursor.fetchall()

    def fetchone(self) -> tuple | None:
        return self._cursor.fetchone()

    def fetchmany(self, size: int = 1) -> list[tuple]:
        return self._cursor.fetchmany(size)


# statement text -> the tables it names: DuckDB parses a statement to tell (a few milliseconds), and the season's
# figures and a vocabulary's reads are the same few statements question after question.
_TABLE_NAMES: dict[str, frozenset[str]] = {}
_KEEP_TABLE_NAMES = 512


def _remember_tables(sql: str, names: frozenset[str]) -> None:
    if len(_TABLE_NAMES) >= _KEEP_TABLE_NAMES:
        _TABLE_NAMES.pop(next(iter(_TABLE_NAMES)))
    _TABLE_NAMES[sql] = names


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:300]


class LockedConnection:
    """A DuckDB connection over the warehouse views that can read nothing else (see the module docstring).

    `execute(sql, params)` runs one SELECT of our own code; `run(sql, params)` runs planned SQL: validated,
    timed and row-capped. Both raise a `QueryError` with a one-line reason for anything else."""

    def __init__(self, con: duckdb.DuckDBPyConnection, limits: QueryLimits, lake: Lake, snapshot: int,
                 match_id: str | None = None, tables: Sequence[str] = TABLES):
        self._con = con
        self.limits = limits
        self.lake = lake
        self.snapshot = snapshot  # the lake snapshot every view reads: a snapshot never changes
        self.match_id = match_id
        self._tables = frozenset(tables)  # the tables it may read
        self._viewed: set[str] = set()
        self._running = threading.Lock()

    def _views_for(self, sql: str) -> None:
        """The tables a statement reads, made the first time one is read: binding a lake table costs a few
        milliseconds, and a question reads two or three of the sixteen. A one-match connection copies the match's
        rows (`copy_table`); one over every match copies the small per-match tables (`SUMMARY_TABLES`) and keeps a
        view of the event tables, which reads only what a statement needs."""
        names = _TABLE_NAMES.get(sql)
        if names is None:
            try:
                names = frozenset(self._con.get_table_names(sql))
            except duckdb.Error:
                names = self._tables  # DuckDB will say what is wrong with it
            _remember_tables(sql, names)
        for table in sorted((set(names) & self._tables) - self._viewed):
            if self.match_id is None and table not in SUMMARY_TABLES:
                create_view(self._con, table, self.snapshot, None)
            else:
                copy_table(self._con, table, self.snapshot, self.match_id)
            self._viewed.add(table)

    @property
    def data_key(self) -> tuple:
        """What this connection reads, as a key: the same key always means the same data."""
        return (self.lake, self.snapshot, self.match_id)

    def __enter__(self) -> LockedConnection:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._con.close()

    def lend(self) -> LockedConnection:
        """This connection for a borrower whose `close()` must leave it open (one stage of a question whose
        session owns it): the same DuckDB connection, limits and lock."""
        return _Lent(self)

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> Result:
        """Run one SELECT statement under the timer; anything else, or any failure, raises a `QueryError`."""
        statement = self._single_select(sql)
        with self._running:  # one statement at a time, so the timer can only interrupt its own statement
            self._views_for(sql)
            timer = threading.Timer(self.limits.timeout_s, self._con.interrupt)
            timer.daemon = True
            timer.start()
            try:
                self._con.execute(statement, dict(params) if params else None)
            except duckdb.InterruptException:
                raise QueryTimeout(f"the query ran longer than {self.limits.timeout_s:g} s and was stopped") from None
            except duckdb.PermissionException as error:
                raise QueryRefused(f"the query may read only the warehouse: {_one_line(error)}") from None
            except duckdb.OutOfMemoryException:
                raise QueryFailed(f"the query needed more than the {self.limits.memory_limit_mb} MB it may use "
                                  "and was stopped") from None
            except duckdb.Error as error:
                raise QueryFailed(_one_line(error)) from None
            finally:
                timer.cancel()
        return Result(self._con)

    def run(self, sql: str, params: Mapping[str, Any] | None = None) -> QueryOutput:
        """Run planned SQL: the exact text validated by `validate_sql`, then executed, with at most
        `limits.max_rows` rows returned."""
        try:
            validate_sql(sql, parameters=frozenset(params or {}))
        except UnsafeSqlError as error:
            raise QueryRefused(f"unsafe SQL: {error}") from None
        started = time.perf_counter()
        result = self.execute(sql, params)
        rows = result.fetchmany(self.limits.max_rows + 1)
        if len(rows) > self.limits.max_rows:
            raise RowCapExceeded(f"the query returned more than {self.limits.max_rows:,} rows; "
                                 "ask for fewer (a LIMIT, a filter or a grouping)")
        description = result.description or []
        return QueryOutput(
            columns=tuple(d[0] for d in description),
            types=tuple(str(d[1]) for d in description),
            rows=tuple(rows),
            elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
        )

    def _single_select(self, sql: str):
        if not isinstance(sql, str) or not sql.strip():
            raise QueryRefused("empty SQL")
        try:
            statements = self._con.extract_statements(sql)
        except duckdb.Error as error:
            raise QueryRefused(f"SQL does not parse: {_one_line(error)}") from None
        if len(statements) != 1:
            raise QueryRefused(f"exactly one statement is allowed, found {len(statements)}")
        (statement,) = statements
        if statement.type != duckdb.StatementType.SELECT:
            raise QueryRefused(f"only SELECT queries may run, not {statement.type.name}")
        return statement


class _Lent(LockedConnection):
    """A lent connection: closing it is the borrower saying it is done, not the end of the connection."""

    def __init__(self, owner: LockedConnection):  # the owner's DuckDB connection, limits, files and lock
        self.__dict__.update(owner.__dict__)

    def close(self) -> None:
        pass


def open_locked(root: Lake | Path | str, match_id: str | None = None, limits: QueryLimits | None = None, *,
                tables: Sequence[str] = TABLES, snapshot: int | None = None) -> LockedConnection:
    """The locked connection over the warehouse lake: one view per table, scoped to `match_id` if given, all
    pinned at `snapshot` (default: the latest). `tables` narrows it to some tables (choosing the match reads
    only `matches`). A match or snapshot the lake does not hold raises `WarehouseError`."""
    limits = limits or QueryLimits()
    unknown = set(tables) - set(TABLES)
    if unknown:
        raise ValueError(f"not warehouse tables: {', '.join(sorted(unknown))}")
    lake = as_lake(root)
    con = connect(lake, read_only=True, config={
        "threads": limits.threads,
        "memory_limit": f"{limits.memory_limit_mb}MB",
        "temp_directory": "",
        # A PostgreSQL catalog's attach looks in the secret store; once external access is off no secret can
        # reach anything else, and a SQLite lake needs none.
        "allow_persistent_secrets": lake.catalog_file is None,
        "python_enable_replacements": False,
    })
    try:
        pinned = pin(con, match_id, snapshot)
        directories, files = reader_paths(lake)
        # Both can only be set on a running database, and only before external access is turned off.
        con.execute(f"SET allowed_directories = [{', '.join(sql_string(d) for d in directories)}]")
        con.execute(f"SET allowed_paths = [{', '.join(sql_string(f) for f in files)}]")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return LockedConnection(con, limits, lake, pinned, match_id, tables)
