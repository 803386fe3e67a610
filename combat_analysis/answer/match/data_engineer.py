"""Stage 2 of one match, data engineer: run the validated SQL on the match warehouse, in dependency order.

Every query runs on the locked query connection (`warehouse.query`), which validates the exact
text it executes, stops it after the time limit and caps its rows; a refusal or failure is an error entry
and the other results stand. The row count, the inline rows and (over the inline cap) the Parquet handle all
come from one execution. Named parameters are bound from the first row of the query they depend on, never
spliced into SQL text.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from combat_analysis.answer.env import StageEnv
from combat_analysis.contracts.package import (
    AgentDataPackage,
    DataSection,
    ErrorEntry,
    QueryResult,
    ResultSummary,
)
from combat_analysis.warehouse.handles import json_row

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
    output = con.run(query.sql, params)  # validated as it runs, timed, row-capped, on the locked connection
    rows = tuple(json_row(dict(zip(output.columns, row, strict=True))) for row in output.rows[: env.inline_row_cap])
    handle = None
    if len(output.rows) > env.inline_row_cap:
        handle = env.handles.put_result(output.columns, output.types, output.rows, source_sql=query.sql)
    return QueryResult(
        query_id=query.query_id,
        status="ok",
        sql=query.sql,
        purpose=query.purpose,
        primary=query.primary,
        bound_parameters={k: json_row({"v": v})["v"] for k, v in params.items()},
        column_types=dict(zip(output.columns, output.types, strict=True)),
        result_summary=ResultSummary(row_count=len(output.rows), top_row=rows[0] if rows else None),
        data=rows,
        truncated=handle is not None,
        handle=handle,
        execution_time_ms=output.elapsed_ms,
    )
