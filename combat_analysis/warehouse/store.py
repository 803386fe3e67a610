"""The match warehouse: a DuckLake, a SQL catalog plus Parquet data files, with ACID snapshots and time travel.

Where it lives is two settings (`Lake`): the catalog, a SQLite file under the data home by default
(`<home>/warehouse/catalog.sqlite`, no server needed) or a PostgreSQL database for a team
(`COMBAT_ANALYSIS_CATALOG=postgres:dbname=... host=...`); and the data path, a folder
(`<home>/warehouse/data/` by default) or an `s3://` URL (`COMBAT_ANALYSIS_DATA_PATH`). docs/warehouse.md has
the whole design, docs/scaling.md what runs where past one machine.

- **One match is one transaction.** Its rows in every table are replaced together (`commit`), with a commit
  message naming the match and what happened to it, so a reader sees the old match or the whole new one, and
  the lake's own snapshot list is every match's history (`history`). Conflicting commits (two writers, a busy
  SQLite catalog) are retried with backoff, and fail with a clear error after the last try.
- **Time travel.** Every reader pins the snapshot it opened (`open_warehouse(..., snapshot=)`); a replaced or
  removed match stays readable at its earlier snapshots, and `restore_match` brings it back, until
  housekeeping expires those snapshots (`expire`); only then are their files deleted.
- **Reads across matches** use the tables that are small per match, merged into one file each (`compact`: a
  delete and an insert in one commit, an ordinary snapshot every reader sees whole); the large per-event tables
  keep one file per match, so a question about one match reads that match's files only, whatever the lake holds.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import logging
import math
import os
import random
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import duckdb

from combat_analysis.contracts.schema import TABLES, WAREHOUSE_SCHEMA
from combat_analysis.formatting import count
from combat_analysis.keys import KeyRefused, check_key
from combat_analysis.settings import Lake
from combat_analysis.warehouse import extensions

log = logging.getLogger(__name__)

ALIAS = "lake"  # the name the lake is attached under in every connection
AUTHOR = "combat-analysis"

# What the lake keeps of each match's source, beside the query tables; never part of the query surface.
SOURCES = "match_sources"
SOURCES_SCHEMA: dict[str, str] = {
    "match_id": "VARCHAR", "content_sha256": "VARCHAR", "source_file": "VARCHAR", "source_path": "VARCHAR",
    "matches_in_file": "VARCHAR[]", "first_line": "BIGINT", "last_line": "BIGINT", "lines_total": "BIGINT",
    "lines_parsed": "BIGINT", "lines_quarantined": "BIGINT", "duration_s": "INTEGER", "has_end": "BOOLEAN",
    "quarantine_reasons": "VARCHAR", "first_bad_lines": "VARCHAR", "event_counts": "VARCHAR",
    "table_rows": "VARCHAR", "ingested_at": "TIMESTAMP",
}
LAKE_TABLES: dict[str, dict[str, str]] = {**WAREHOUSE_SCHEMA, SOURCES: SOURCES_SCHEMA}
# Small per match and read across matches: merged into few files. The others keep one file per match.
MERGED_TABLES: tuple[str, ...] = ("matches", "players", "entities", "player_stats", "kills", "objectives",
                                  "gold_diff", "purchases", "timeline", "quarantine", SOURCES)
# DuckDB settings that keep a long-lived writer's memory low (its allocator caches, the file cache).
LEAN_SETTINGS = ("SET allocator_background_threads = true", "SET allocator_flush_threshold = '8MiB'",
                 "SET allocator_bulk_deallocation_flush_threshold = '8MiB'", "SET enable_external_file_cache = false")

# A table read across matches is merged once it has this many files: often enough that a season's reads open a
# few files, seldom enough that merging is not the cost of every ingest.
COMPACT_AFTER = 8
RETRIES = 8
FIRST_WAIT_S = 0.05
BACKOFF = 2.0
# Opening the lake waits longer for a busy SQLite catalog (about 30 s in all, at most 2 s a wait): on a loaded machine
# its probe of the catalog once met "database is locked" on all of the 8 tries a commit gets (about 13 s).
ATTACH_RETRIES = 20
ATTACH_MAX_WAIT_S = 2.0
# Failures a second try can get past: another writer committed first, or a SQLite catalog was busy.
RETRYABLE = ("conflict", "database is locked", "database is busy", "could not serialize", "deadlock",
             "failed to commit ducklake transaction", "unique constraint", "duplicate key")


class WarehouseError(RuntimeError):
    """The warehouse cannot do what was asked: no such match, nothing ingested yet, a commit that kept failing."""


class NoMatchYet(WarehouseError):
    """The lake has no catalog yet: nothing was ever ingested."""


NO_MATCH_YET = ("the warehouse holds no match yet: ingest a log first (combat-analysis ingest FILE), or ask with "
                "--log FILE")


class CommitFailed(WarehouseError):
    """A transaction that did not commit after every retry."""


# -- where the lake lives ---------------------------------------------------------------------------------------


def lake_extensions(lake: Lake) -> tuple[str, ...]:
    """The extensions a lake needs: its catalog's scanner, DuckLake, and httpfs for an s3:// data path."""
    return (extensions.CATALOG_EXTENSIONS[lake.kind], "ducklake", *((extensions.REMOTE_EXTENSION,) if lake.remote else ()))


Where = Lake | Path | str


def as_lake(where: Where) -> Lake:
    """A lake as given, or the lake of a warehouse folder (its settings from the environment)."""
    return where if isinstance(where, Lake) else Lake.from_env(where)


def sql_string(text: str) -> str:
    """A SQL string literal: for the statements DuckDB cannot parameterise (ATTACH, SET, a path), and for lookups
    where a constant lets DuckLake skip files by their statistics.

    >>> print(sql_string("it's"), sql_string("a" + chr(0) + "b"))
    'it''s' ('a' || chr(0) || 'b')
    """
    quoted = "'" + str(text).replace("'", "''") + "'"
    # a NUL ends a statement's text, so it is spelt as chr(0): a garbage line is kept byte for byte
    return "(" + quoted.replace("\0", "' || chr(0) || '") + ")" if "\0" in quoted else quoted


def sql_literal(value: object) -> str:
    """A SQL literal of a plain value (None, a bool, a number, a string, a list of them), for the statements the ingest
    runs in every process: binding a Python value makes DuckDB's client import pandas, 0.6 s of a process.

    >>> sql_literal([1, None, "it's", True])
    "[1, NULL, 'it''s', true]"
    """
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) or isinstance(value, float) and math.isfinite(value):
        return repr(value)
    if isinstance(value, float):
        return f"'{value}'::DOUBLE"  # nan, inf
    if isinstance(value, datetime):
        return f"TIMESTAMP{'TZ' if value.tzinfo else ''} '{value.isoformat(sep=' ')}'"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(sql_literal(v) for v in value) + "]"
    return sql_string(str(value))


# -- connections ----------------------------------------------------------------------------------------------


def _prepare_sqlite(path: Path) -> None:
    """A new SQLite catalog in WAL mode: readers never block a writer's commit, nor it them."""
    if path.exists():
        return
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA journal_mode=WAL")


def _s3_secret(con: duckdb.DuckDBPyConnection, lake: Lake) -> None:
    """S3 credentials from the environment, as the AWS tools name them; never written anywhere."""
    if not lake.remote:
        return
    names = {"KEY_ID": "AWS_ACCESS_KEY_ID", "SECRET": "AWS_SECRET_ACCESS_KEY", "REGION": "AWS_REGION",
             "SESSION_TOKEN": "AWS_SESSION_TOKEN", "ENDPOINT": "AWS_ENDPOINT_URL"}
    given = {key: os.environ[var] for key, var in names.items() if os.environ.get(var)}
    fields = [f"{key} {sql_string(value)}" for key, value in given.items() if key != "ENDPOINT"]
    if "ENDPOINT" in given:  # an S3-compatible store (MinIO, Ceph): host and port, path-style URLs
        scheme, _, host = given["ENDPOINT"].rpartition("://")
        fields += [f"ENDPOINT {sql_string(host)}", "URL_STYLE 'path'", f"USE_SSL {str(scheme != 'http').lower()}"]
    con.execute(f"CREATE TEMPORARY SECRET lake_s3 (TYPE s3{''.join(', ' + f for f in fields)})")


def attach(con: duckdb.DuckDBPyConnection, lake: Lake, *, read_only: bool) -> None:
    """Attach the lake as `lake`. A writer creates a new SQLite catalog; a reader of none finds no match."""
    if lake.catalog_file is not None:
        if read_only and not lake.catalog_file.exists():
            raise NoMatchYet(NO_MATCH_YET)
        if not read_only:
            lake.catalog_file.parent.mkdir(parents=True, exist_ok=True)
            with _commit_turn(lake):  # two writers making one new catalog at once would lock each other out
                _prepare_sqlite(lake.catalog_file)
    _s3_secret(con, lake)
    # A configured data path must be the one the catalog recorded (a machine that mounts the shared data
    # elsewhere is told so); the embedded default moves with its home, so its own folder always stands.
    options = ", ".join([*(["READ_ONLY"] if read_only else []),
                         *([f"DATA_PATH {sql_string(lake.data_path)}"] if lake.embedded or not read_only else []),
                         *(["OVERRIDE_DATA_PATH true"] if lake.embedded else [])])
    wait = FIRST_WAIT_S
    for attempt in range(1, ATTACH_RETRIES + 1):
        try:
            with _commit_turn(None if read_only else lake):  # a new lake's catalog is written on attach
                con.execute(f"ATTACH {sql_string('ducklake:' + lake.catalog)} AS {ALIAS} ({options})")
            return
        except duckdb.Error as error:
            if read_only and "creating a new DuckLake is explicitly disabled" in str(error):
                raise NoMatchYet(NO_MATCH_YET) from error  # its first writer is still setting it up
            # a new catalog being set up by another writer at this moment is busy: wait for it
            if not (retryable(error) or "already exists" in str(error)) or attempt == ATTACH_RETRIES:
                raise WarehouseError(f"cannot open the warehouse at {lake.describe()}: {_one_line(error)}") from error
            log.info("retrying (%d of %d) to open %s: %s", attempt, ATTACH_RETRIES, lake.describe(), _one_line(error))
            time.sleep(wait * (0.5 + random.random()))
            wait = min(wait * BACKOFF, ATTACH_MAX_WAIT_S)


def connect(where: Where, *, read_only: bool = False, config: dict | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the lake attached (and its extensions loaded from their packages)."""
    lake = as_lake(where)
    con = extensions.connect(lake_extensions(lake), config)
    try:
        attach(con, lake, read_only=read_only)
    except BaseException:
        con.close()
        raise
    return con


@contextmanager
def writer(where: Where, config: dict | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection that may write the lake, its tables created if the lake is new."""
    lake = as_lake(where)
    con = connect(lake, config=config)
    try:
        ensure_tables(con, lake)
        yield con
    finally:
        con.close()


@contextmanager
def reader(where: Where) -> Iterator[duckdb.DuckDBPyConnection]:
    con = connect(where, read_only=True)
    try:
        yield con
    finally:
        con.close()


def _has_tables(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the lake's tables exist yet (no Python parameters: binding them imports pandas)."""
    try:
        con.execute(f"SELECT 1 FROM {ALIAS}.{SOURCES} LIMIT 0")
    except duckdb.CatalogException:
        return False
    return True


def ensure_tables(con: duckdb.DuckDBPyConnection, lake: Lake) -> None:
    """Create the tables a new lake lacks; two writers racing to create them retry, and the loser finds them."""
    def create(cursor: duckdb.DuckDBPyConnection) -> None:
        existing = {r[0] for r in cursor.execute(
            f"SELECT table_name FROM duckdb_tables() WHERE database_name = {sql_string(ALIAS)}").fetchall()}
        for table, columns in LAKE_TABLES.items():
            if table not in existing:
                spec = ", ".join(f"{name} {kind}" for name, kind in columns.items())
                cursor.execute(f"CREATE TABLE {ALIAS}.{table} ({spec})")
        # Rows live in Parquet files only (none inlined in the catalog): one format, one place for the data.
        cursor.execute(f"CALL {ALIAS}.set_option('data_inlining_row_limit', 0)")

    if not _has_tables(con):
        commit(con, create, message="created the warehouse tables", info={"action": "created"}, lake=lake)


# -- transactions ---------------------------------------------------------------------------------------------


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:300]


def retryable(error: BaseException) -> bool:
    """A commit another try can get past: a conflict with another writer, or a busy catalog."""
    text = str(error).lower()
    return isinstance(error, duckdb.Error) and any(word in text for word in RETRYABLE)


@contextmanager
def _commit_turn(lake: Lake | None) -> Iterator[None]:
    """A SQLite catalog takes one writing transaction at a time (another one fails at once with "database is
    locked"), so the writers of one machine take turns; SQLite is a one-machine catalog anyway. A server catalog
    (PostgreSQL) needs no turns: its writers' conflicts are retried."""
    if lake is None or lake.catalog_file is None:
        yield
        return
    with open(f"{lake.catalog_file}.commit-lock", "a+b") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(turn, fcntl.LOCK_UN)


def commit(con: duckdb.DuckDBPyConnection, work: Callable[[duckdb.DuckDBPyConnection], Any], *, message: str,
           info: Mapping[str, Any], lake: Lake | None = None, retries: int = RETRIES,
           on_retry: Callable[[int, BaseException], None] | None = None) -> int | None:
    """Run `work(con)` as one transaction with a commit message, retried with backoff when another writer or a
    busy catalog got in the way (`lake`, when given, lets a SQLite catalog's writers take turns to commit).
    Returns the snapshot it committed (None if it changed nothing); after the last try, `CommitFailed`."""
    token = uuid.uuid4().hex
    extra = json.dumps({**info, "token": token}, sort_keys=True, default=str)
    wait = FIRST_WAIT_S
    for attempt in range(1, retries + 1):
        try:
            with _commit_turn(lake):
                con.execute("BEGIN TRANSACTION")
                # literals, not parameters: binding a Python value makes DuckDB import pandas (0.6 s a process)
                con.execute(f"CALL {ALIAS}.set_commit_message({sql_string(AUTHOR)}, {sql_string(message)}, "
                            f"extra_info => {sql_string(extra)})")
                work(con)
                con.execute("COMMIT")
            return snapshot_of(con, token)
        except duckdb.Error as error:
            _rollback(con)
            if not retryable(error) or attempt == retries:
                tries = "try" if attempt == 1 else "tries"
                raise CommitFailed(f"{message}: not committed after {attempt} {tries}: {_one_line(error)}") from error
            log.info("retrying (%d of %d) %s: %s", attempt, retries, message, _one_line(error))
            if on_retry is not None:
                on_retry(attempt, error)
            time.sleep(wait * (0.5 + random.random()))
            wait *= BACKOFF
        except BaseException:
            _rollback(con)
            raise
    raise AssertionError("unreachable: the loop returns or raises")


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    try:
        con.execute("ROLLBACK")
    except duckdb.Error:
        pass  # no transaction was open


def snapshot_of(con: duckdb.DuckDBPyConnection, token: str) -> int | None:
    """The snapshot a commit made, found by the token in its commit info (other writers commit too)."""
    row = con.execute(f"SELECT max(snapshot_id) FROM ducklake_snapshots('{ALIAS}') "
                      f"WHERE json_extract_string(commit_extra_info, '$.token') = {sql_string(token)}").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def current_snapshot(con: duckdb.DuckDBPyConnection) -> int:
    return int(scalar(con, f"SELECT id FROM {ALIAS}.current_snapshot()"))


def scalar(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> Any:
    """The one value a statement returns (a count, an id)."""
    row = con.execute(sql, params).fetchone()
    if row is None:
        raise WarehouseError(f"no row from: {sql[:80]}")
    return row[0]


def at_version(table: str, snapshot: int | None) -> str:
    return f"{ALIAS}.{table}" + (f" AT (VERSION => {int(snapshot)})" if snapshot is not None else "")


# -- one match ------------------------------------------------------------------------------------------------


def replace_match(cursor: duckdb.DuckDBPyConnection, match_id: str, rows: Mapping[str, str],
                  source: Mapping[str, Any] | None = None) -> None:
    """Inside a transaction: the match's rows in every table replaced by `rows` (table -> a SELECT of exactly
    that table's columns; a table not given is emptied for the match) and its source record by `source`."""
    held = source_record(cursor, match_id) is not None  # a new match has no rows to delete: skip the deletes
    for table in LAKE_TABLES:
        replace_table(cursor, table, match_id, rows.get(table), held=held)
    if source is not None:
        values = ", ".join(f"CAST({sql_literal(_source_value(source, column))} AS {kind})"
                           for column, kind in SOURCES_SCHEMA.items())
        cursor.execute(f"INSERT INTO {ALIAS}.{SOURCES} VALUES ({values})")


def replace_table(cursor: duckdb.DuckDBPyConnection, table: str, match_id: str, select: str | None, *,
                  held: bool = True) -> None:
    """Inside a transaction: one table's rows of the match replaced by what `select` gives (none if None).
    `held=False` says the lake holds no row of the match (its source record is absent), so nothing is deleted:
    a DELETE consults every file's statistics of the table, a cost that grows with the lake."""
    if held:
        cursor.execute(f"DELETE FROM {ALIAS}.{table} WHERE match_id = {sql_string(match_id)}")
    if select is not None:
        cursor.execute(f"INSERT INTO {ALIAS}.{table} ({', '.join(LAKE_TABLES[table])}) {select}")


def _source_value(source: Mapping[str, Any], column: str) -> Any:
    value = source.get(column)
    if column in ("quarantine_reasons", "first_bad_lines", "event_counts", "table_rows"):
        return json.dumps(value if value is not None else {}, sort_keys=True)
    return value


def source_record(con: duckdb.DuckDBPyConnection, match_id: str, snapshot: int | None = None) -> dict | None:
    """What the lake keeps of a match's source (its `match_sources` row) at a snapshot, or None."""
    if not _has_tables(con):
        return None
    # Literals, not parameters: DuckLake prunes files by their statistics only for a constant (and binding a
    # parameter imports pandas); 2 ms instead of 50 at 300 matches.
    cursor = con.execute(f"SELECT * FROM {at_version(SOURCES, snapshot)} WHERE match_id = {sql_string(match_id)}")
    row = cursor.fetchone()
    if row is None:
        return None
    record = dict(zip([d[0] for d in cursor.description], row, strict=True))
    for key in ("quarantine_reasons", "first_bad_lines", "event_counts", "table_rows"):
        record[key] = json.loads(record[key]) if record[key] else {}
    return record


def same_content(con: duckdb.DuckDBPyConnection, content_sha256: str) -> list[dict]:
    """The matches committed from exactly this content (one lookup, whatever the lake holds)."""
    if not _has_tables(con):
        return []
    # Compared through lower() (digests are lower-case hex) so DuckLake reads the table's few files instead of
    # pruning by the catalog's column statistics: that query grows with every file of every table (80 ms at a
    # thousand matches, 16 ms this way, as at fifty).
    cursor = con.execute(f"SELECT match_id, first_line, last_line, matches_in_file FROM {ALIAS}.{SOURCES} "
                         f"WHERE lower(content_sha256) = {sql_string(content_sha256.lower())} ORDER BY first_line")
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def match_ids(where: Where | duckdb.DuckDBPyConnection, snapshot: int | None = None) -> list[str]:
    """The matches in the lake (at a snapshot), in start order."""
    def read(con: duckdb.DuckDBPyConnection) -> list[str]:
        if not _has_tables(con):
            return []
        return [r[0] for r in con.execute(f"SELECT match_id FROM {at_version('matches', snapshot)} "
                                          "ORDER BY started_at NULLS LAST, match_id").fetchall()]

    if isinstance(where, duckdb.DuckDBPyConnection):
        return read(where)
    try:
        with reader(where) as con:
            return read(con)
    except NoMatchYet:
        return []


def committed_manifest(where: Where, match_id: str) -> dict | None:
    """What was committed for a match (source digest and path, line range and counts, quarantine reasons, event
    and row counts, when), or None if the lake holds no such match."""
    try:
        with reader(where) as con:
            return manifest_of(source_record(con, match_id))
    except NoMatchYet:
        return None


def manifest_of(record: dict | None) -> dict | None:
    """A source record in the shape the ingest results and reports read (None for none)."""
    return None if record is None else manifest_from(record)


def manifest_from(record: Mapping[str, Any]) -> dict:
    """A source record in the shape the ingest results and reports read."""
    return {
        "match_id": record["match_id"],
        "created_at": record["ingested_at"].replace(tzinfo=timezone.utc).isoformat(timespec="seconds"),
        "source_file": record["source_file"], "source_path": record["source_path"],
        "source_sha256": record["content_sha256"], "matches_in_file": list(record["matches_in_file"] or ()),
        "lines": {"first": record["first_line"], "last": record["last_line"], "total": record["lines_total"],
                  "parsed": record["lines_parsed"], "quarantined": record["lines_quarantined"]},
        "duration_s": record["duration_s"], "has_end": record["has_end"],
        "quarantine_reasons": record["quarantine_reasons"], "first_bad_lines": record["first_bad_lines"],
        "event_counts": record["event_counts"], "tables": record["table_rows"],
    }


def manifest(where: Where, match_id: str) -> dict:
    """`committed_manifest`, or `WarehouseError` saying how many matches there are."""
    try:
        data = committed_manifest(where, check_key(match_id, "match id"))
    except KeyRefused as exc:
        raise WarehouseError(str(exc)) from exc
    if data is None:
        raise WarehouseError(unknown_match(where, match_id))
    return data


def unknown_match(where: Where, match_id: str) -> str:
    # A count, never the list: at 1,000 matches a list of ids is 12 KB of error text.
    return (f"match {match_id!r} is not in the warehouse ({count(len(match_ids(where)), 'match')}; "
            "`combat-analysis matches` lists them)")


@dataclass(frozen=True)
class Version:
    """One commit that changed a match: what happened, when, and the snapshot that holds the result."""

    snapshot: int
    at: datetime
    action: str  # ingested, replaced, removed, restored, migrated
    message: str
    source: dict | None  # the match's source record at that snapshot (None once removed)


def _changes(con: duckdb.DuckDBPyConnection) -> Iterator[tuple[int, datetime, str, dict[str, str]]]:
    """Every kept snapshot that changed matches: (snapshot, when, message, {match id: what happened})."""
    for snapshot, at, message, extra in con.execute(
            f"SELECT snapshot_id, snapshot_time, commit_message, commit_extra_info FROM ducklake_snapshots('{ALIAS}') "
            "WHERE commit_extra_info IS NOT NULL ORDER BY snapshot_id").fetchall():
        matches = json.loads(extra).get("matches")
        if isinstance(matches, dict):
            yield int(snapshot), at, message or "", matches


def history(where: Where, match_id: str) -> list[Version]:
    """Every version of the match the lake still holds, oldest first (housekeeping expires old snapshots)."""
    try:
        con = connect(where, read_only=True)
    except NoMatchYet:
        return []
    with contextlib.closing(con):
        return [Version(snapshot, at, matches[match_id], message,
                        None if matches[match_id] == "removed" else source_record(con, match_id, snapshot))
                for snapshot, at, message, matches in _changes(con) if match_id in matches]


def remove_match(where: Where, match_id: str) -> int:
    """Take a match out of every table in one commit; `restore_match` brings it back until housekeeping."""
    lake = as_lake(where)
    with writer(lake) as con:
        if source_record(con, match_id) is None:
            raise WarehouseError(unknown_match(lake, match_id))
        snapshot = commit(con, lambda c: replace_match(c, match_id, {}), message=f"removed match {match_id}",
                          info={"matches": {match_id: "removed"}}, lake=lake)
    assert snapshot is not None  # a match was deleted
    return snapshot


def restore_match(where: Where, match_id: str, snapshot: int | None = None) -> int:
    """Put the match back as it was at `snapshot`; by default, its version before the last change (after a
    removal, the version removed; after a replacement, the one replaced)."""
    lake = as_lake(where)
    changes = history(lake, match_id)
    with writer(lake) as con:
        if snapshot is None:
            last = max((v.snapshot for v in changes), default=-1)
            earlier = [v for v in changes if v.source is not None and v.snapshot < last]
            if not earlier:
                raise WarehouseError(f"match {match_id!r} has no earlier version to restore (housekeeping may "
                                     "have expired it; `combat-analysis matches --history` lists what is kept)")
            snapshot = earlier[-1].snapshot
        elif source_record(con, match_id, snapshot) is None:
            raise WarehouseError(f"match {match_id!r} was not in the warehouse at snapshot {snapshot}")
        rows = {t: f"SELECT * FROM {at_version(t, snapshot)} WHERE match_id = {sql_string(match_id)}"
                for t in LAKE_TABLES}
        done = commit(con, lambda c: replace_match(c, match_id, rows),
                      message=f"restored match {match_id} as of snapshot {snapshot}",
                      info={"matches": {match_id: "restored"}, "from_snapshot": snapshot}, lake=lake)
    assert done is not None
    return done


# -- housekeeping ---------------------------------------------------------------------------------------------


def file_counts(con: duckdb.DuckDBPyConnection, tables: Sequence[str] = tuple(LAKE_TABLES)) -> dict[str, int]:
    """How many data files each table's current version reads."""
    return {t: scalar(con, f"SELECT count(*) FROM ducklake_list_files('{ALIAS}', '{t}')")
            for t in tables}


def compact(where: Where, tables: Sequence[str] = MERGED_TABLES, *, min_files: int = COMPACT_AFTER,
            config: dict | None = None) -> list[str]:
    """Merge the files of the tables read across matches once one has `min_files` or more (one commit per
    table), so a question across a thousand matches opens a few files per table; time travel still sees every
    snapshot, and the files merged away are deleted by `expire` once no reader can still be reading them.
    `config` sets the connection (a memory limit and a folder to spill to: a merge copies the whole table, 2.4
    million kill rows at a thousand matches). Returns the tables merged."""
    lake = as_lake(where)
    with writer(lake, config=config) as con:
        due = [table for table, files in file_counts(con, tables).items() if files >= min_files]
    for table in due:  # each on a connection of its own: what one merge held is freed before the next
        with writer(lake, config=config) as con:
            commit(con, functools.partial(_merge_into, table=table), message=f"merged the files of {table}",
                   info={"action": "compacted", "table": table}, lake=lake)
    return due


def _merge_into(cursor: duckdb.DuckDBPyConnection, *, table: str) -> None:
    merge_table(cursor, table)


def merge_table(cursor: duckdb.DuckDBPyConnection, table: str) -> None:
    """Inside a transaction: one table's files rewritten as one, in match order (its statistics then prune
    by match). Not DuckLake's `merge_adjacent_files`: that rewrites the catalog's file lists in place, and a
    reader of a SQLite catalog during its commit was seen to miss a match's rows at a pinned snapshot (about
    one read in a hundred under a merging writer; tests/system/test_lake_concurrency.py). A delete and an
    insert are an ordinary snapshot, which readers see whole or not at all."""
    # No `finally` drop: after a failed statement the transaction only accepts a rollback, which drops the
    # table too, and a drop there would hide the error that `commit` decides to retry on.
    cursor.execute(f"CREATE OR REPLACE TEMP TABLE merging AS SELECT * FROM {ALIAS}.{table}")
    cursor.execute(f"DELETE FROM {ALIAS}.{table}")
    cursor.execute(f"INSERT INTO {ALIAS}.{table} SELECT * FROM merging ORDER BY match_id")
    cursor.execute("DROP TABLE temp.merging")


@dataclass(frozen=True)
class Expired:
    snapshots: int  # snapshots expired
    files_deleted: int  # data files no snapshot needed any more, and files a crashed writer left behind
    files_waiting: int = 0  # files no snapshot needs, kept for a reader that may still be reading them


GRACE = timedelta(minutes=10)  # how long a file no snapshot needs is kept for readers still reading it


def expire(where: Where, older_than: timedelta, *, grace: timedelta | None = GRACE,
           now: datetime | None = None) -> Expired:
    """Housekeeping: snapshots older than `older_than` expire (a replaced or removed match's earlier versions
    with them; the latest snapshot never does), then the files no snapshot needs any more are deleted, and so
    are files a crashed writer left behind. A file that became unneeded less than `grace` ago may still be read
    by a reader that opened before, so then every such file waits for the next run (`grace=None`: none waits)."""
    lake = as_lake(where)
    try:
        connect(lake, read_only=True).close()
    except NoMatchYet:
        return Expired(0, 0)
    now = now or datetime.now(timezone.utc)
    with writer(lake) as con, _commit_turn(lake):
        # The snapshots are chosen here and expired by id: DuckLake's own `older_than` compares the times a
        # SQLite catalog keeps as text, and on the same day it takes every snapshot for older.
        ids = [r[0] for r in con.execute(
            f"SELECT snapshot_id FROM ducklake_snapshots('{ALIAS}') WHERE snapshot_time < ? AND snapshot_id < ?",
            [now - older_than, current_snapshot(con)]).fetchall()]
        if ids:
            con.execute(f"CALL ducklake_expire_snapshots('{ALIAS}', versions => {[int(i) for i in ids]})")
        young = 0 if grace is None else scalar(con, f"SELECT count(*) FROM __ducklake_metadata_{ALIAS}.ducklake_files_scheduled_for_deletion "
            "WHERE CAST(schedule_start AS TIMESTAMPTZ) > ?", [now - grace])
        waiting = scalar(con, f"SELECT count(*) FROM __ducklake_metadata_{ALIAS}.ducklake_files_scheduled_for_deletion") if young else 0
        deleted = [] if young else con.execute(
            f"CALL ducklake_cleanup_old_files('{ALIAS}', cleanup_all => true)").fetchall()
        orphans = con.execute(f"CALL ducklake_delete_orphaned_files('{ALIAS}', older_than => ?::TIMESTAMPTZ)",
                              [now - (grace or timedelta(0))]).fetchall()
    if waiting:
        log.info("%d unneeded file(s) wait for the next housekeeping: some became unneeded under %s ago",
                 waiting, grace)
    return Expired(snapshots=len(ids), files_deleted=len(deleted) + len(orphans), files_waiting=waiting)


@dataclass(frozen=True)
class Tidied:
    merged: list[str]  # tables whose small files were merged
    expired: Expired


def tidy(where: Where, older_than: timedelta) -> Tidied:
    """Housekeeping as the nightly job and `combat-analysis housekeeping` run it: merge small files, then expire
    versions older than `older_than` and delete the files nothing needs."""
    merged = compact(where)
    return Tidied(merged, expire(where, older_than))


# -- reading --------------------------------------------------------------------------------------------------


def view_sql(table: str, snapshot: int, match_id: str | None) -> str:
    """One warehouse table as a reader sees it: pinned at a snapshot, and scoped to a match if given."""
    columns = ", ".join(WAREHOUSE_SCHEMA[table])
    where = f" WHERE match_id = {sql_string(match_id)}" if match_id is not None else ""
    return f"SELECT {columns} FROM {at_version(table, snapshot)}{where}"


def pin(con: duckdb.DuckDBPyConnection, match_id: str | None, snapshot: int | None) -> int:
    """The snapshot a reader reads (`snapshot`, else the latest), checked to be kept and, with `match_id`, to hold
    that match; a `WarehouseError` otherwise."""
    try:
        latest = current_snapshot(con)
    except duckdb.Error as error:
        raise NoMatchYet(NO_MATCH_YET) from error
    if snapshot is None:
        snapshot = latest
    elif not 0 <= snapshot <= latest or not scalar(  # no Python parameters here: binding them imports pandas
            con, f"SELECT count(*) FROM ducklake_snapshots('{ALIAS}') WHERE snapshot_id = {int(snapshot)}"):
        raise WarehouseError(f"snapshot {snapshot} is not in the warehouse (the latest is {latest}; housekeeping "
                             "expires old ones)")
    if match_id is not None:
        try:
            found = scalar(con, f"SELECT count(*) FROM {at_version('matches', snapshot)} "
                                f"WHERE match_id = {sql_string(match_id)}")
        except duckdb.CatalogException as error:
            raise NoMatchYet(NO_MATCH_YET) from error
        if not found:
            raise WarehouseError(f"match {match_id!r} is not in the warehouse"
                                 + (f" at snapshot {snapshot}" if snapshot != latest else
                                    f" ({count(len(match_ids(con)), 'match')}; `combat-analysis matches` lists them)"))
    return snapshot


def create_view(con: duckdb.DuckDBPyConnection, table: str, snapshot: int, match_id: str | None) -> None:
    """A view of one warehouse table in the connection's own schema, under the table's name."""
    con.execute(f"CREATE VIEW main.{table} AS {view_sql(table, snapshot, match_id)}")


# Tables of at most a few hundred rows a match (a match's own row, its players, objectives, purchases, minutes): small
# enough to copy across every match of a season. The event tables (damage, kills with every minion's death ...)
# stay views there, so a long season never has to fit in one connection's memory.
SUMMARY_TABLES = frozenset({"matches", "players", "entities", "player_stats", "objectives", "purchases", "timeline",
                            "gold_diff", "match_sources"})


def copy_table(con: duckdb.DuckDBPyConnection, table: str, snapshot: int, match_id: str | None) -> None:
    """A warehouse table's rows (one match's, with `match_id`) copied into the connection's own in-memory schema,
    under the table's name. A lake scan finds its data files in the catalog on every statement (about 20 ms on
    SQLite); a question, its follow-ups and its report read the same few tables many times."""
    con.execute(f"CREATE TABLE main.{table} AS {view_sql(table, snapshot, match_id)}")


def open_warehouse(where: Where, match_id: str | None = None, *, snapshot: int | None = None,
                   memory_mb: int = 1024) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with one view per warehouse table, for our own code (reports, tests, benchmarks);
    planned SQL runs on the locked connection instead (`query_engine.open_locked`). With `match_id` every view
    holds that match only; the views read one snapshot (the latest, or `snapshot`) for the connection's life."""
    try:
        match_id = check_key(match_id, "match id") if match_id is not None else None
    except KeyRefused as exc:
        raise WarehouseError(str(exc)) from exc
    try:
        con = connect(where, read_only=True, config={"memory_limit": f"{memory_mb}MB"})
    except NoMatchYet:  # nothing ingested yet: the views are there, and empty, and hold no named match
        if match_id is not None:
            raise
        return _empty_warehouse(memory_mb)
    try:
        pinned = pin(con, match_id, snapshot)
        for table in TABLES:
            create_view(con, table, pinned, match_id)
    except BaseException:
        con.close()
        raise
    return con


def _empty_warehouse(memory_mb: int) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(config={"memory_limit": f"{memory_mb}MB"})
    for table, columns in WAREHOUSE_SCHEMA.items():
        empty = ", ".join(f"CAST(NULL AS {kind}) AS {name}" for name, kind in columns.items())
        con.execute(f"CREATE VIEW main.{table} AS SELECT {empty} WHERE false")
    return con


def reader_paths(lake: Lake) -> tuple[list[str], list[str]]:
    """What a locked reader may open once external access is off: the data path, and the catalog file with
    SQLite's write-ahead log and shared memory beside it."""
    files: list[str] = []
    if lake.catalog_file is not None:
        files = [str(lake.catalog_file), f"{lake.catalog_file}-wal", f"{lake.catalog_file}-shm"]
    return [lake.data_path], files
