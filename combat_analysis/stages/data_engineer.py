"""Stage 2, data engineer: run the validated SQL on the match warehouse, in dependency order.

Each result lands in a temporary table first, so the row count, the inline rows and (over the inline cap)
the Parquet handle all come from one execution. Named parameters are bound from the first row of the query
they depend on, never spliced into SQL text.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any

from combat_analysis.handles import json_row
from combat_analysis.package import AgentDataPackage, DataSection, ErrorEntry, QueryResult, ResultSummary
from combat_analysis.stages import StageEnv

STAGE = "data_engineer"


def _ordered(queries) -> list:
    """Queries so that each comes after its dependencies (stable; unknown dependencies keep order)."""
    done: set[str] = set()
    ordered = []
    pending = list(queries)
    while pending:
        ready = [q for q in pending if all(d in done or d not in {p.query_id for p in pending}
                                           for d in q.dependencies)]
        if not ready:  # a cycle: run the rest as listed, their bindings will fail loudly
            ready = pending[:1]
        for q in ready:
            ordered.append(q)
            done.add(q.query_id)
            pending.remove(q)
    return ordered


def _bind(query, first_rows: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name, ref in query.parameters.items():
        source, _, column = ref.partition(".")
        row = first_rows.get(source)
        if row is None:
            raise LookupError(f"parameter ${name} needs {ref}, but query {source} returned no rows")
        if column not in row:
            raise LookupError(f"parameter ${name} needs column {column!r}, which query {source} does not return")
        params[name] = row[column]
    return params


def data_engineer(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    started = datetime.now(timezone.utc)
    analysis = pkg.query_analysis
    if analysis is None or not analysis.sql_queries:
        return pkg.next_version(stage=STAGE, started=started, status="skipped", data=DataSection())
    errors: list[ErrorEntry] = []
    results: list[QueryResult] = []
    first_rows: dict[str, dict[str, Any] | None] = {}
    con = env.connect()
    try:
        for query in _ordered(analysis.sql_queries):
            base = {"query_id": query.query_id, "sql": query.sql, "purpose": query.purpose,
                    "primary": query.primary}
            try:
                params = _bind(query, first_rows)
            except LookupError as exc:
                errors.append(ErrorEntry(stage=STAGE, error_type="missing_data", description=str(exc),
                                         recovery_action=f"skipped {query.query_id}"))
                results.append(QueryResult(status="skipped", **base))
                first_rows[query.query_id] = None
                continue
            try:
                result = _run(con, query, params, env)
            except Exception as exc:  # noqa: BLE001 - any DuckDB failure becomes an error entry
                errors.append(ErrorEntry(stage=STAGE, error_type="sql_error",
                                         description=f"{query.query_id}: {type(exc).__name__}: {exc}",
                                         handled=True, recovery_action="later stages use the other results"))
                results.append(QueryResult(status="error", **base))
                first_rows[query.query_id] = None
                continue
            results.append(result)
            first_rows[query.query_id] = result.data[0] if result.data else None
    finally:
        con.close()
    primary = next((r for r in results if r.primary), None)
    if primary is not None and primary.status == "ok" and primary.result_summary.row_count == 0:
        errors.append(ErrorEntry(stage=STAGE, error_type="empty_result",
                                 description=f"{primary.query_id} returned no rows",
                                 recovery_action="the answer says no matching data was found"))
    return pkg.next_version(stage=STAGE, started=started, new_errors=errors,
                            data=DataSection(query_results=tuple(results)))


def _run(con, query, params: dict[str, Any], env: StageEnv) -> QueryResult:
    table = f"_result_{query.query_id}".replace("-", "_")
    t0 = time.perf_counter()
    sql = query.sql.strip().rstrip(";")
    con.execute(f"CREATE OR REPLACE TEMP TABLE {table} AS {sql}", params or None)
    elapsed_ms = (time.perf_counter() - t0) * 1000
    (row_count,) = con.execute(f"SELECT count(*) FROM {table}").fetchone()
    cursor = con.execute(f"SELECT * FROM {table} LIMIT {int(env.inline_row_cap)}")
    names = [d[0] for d in cursor.description]
    rows = tuple(json_row(dict(zip(names, row, strict=True))) for row in cursor.fetchall())
    column_types = {name: str(dtype) for name, dtype, *_ in con.execute(f"DESCRIBE {table}").fetchall()}
    handle = None
    if row_count > env.inline_row_cap:
        handle = env.handles.put_table(con, table, source_sql=query.sql)
    con.execute(f"DROP TABLE {table}")
    return QueryResult(
        query_id=query.query_id,
        status="ok",
        sql=query.sql,
        purpose=query.purpose,
        primary=query.primary,
        bound_parameters={k: json_row({"v": v})["v"] for k, v in params.items()},
        column_types=column_types,
        result_summary=ResultSummary(row_count=int(row_count), top_row=rows[0] if rows else None),
        data=rows,
        truncated=handle is not None,
        handle=handle,
        execution_time_ms=round(elapsed_ms, 3),
    )
