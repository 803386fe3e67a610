"""Stage 2 across matches, data engineer: the plan's season figure run on the locked connection.

The figure is one of `season.figures` (docs/season.md); `season.answers.figure_table` runs it, every statement
through the SQL gate, and lays it out as rows. The statements that ran are recorded as the result's SQL, and
the matches the figure read are a derived table of their own (`MATCHES_READ`), which the answer counts and the
Dagster metadata lists.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.results import derived_table
from combat_analysis.contracts.package import (
    AgentDataPackage,
    DataSection,
    ErrorEntry,
    QueryResult,
    ResultSummary,
)
from combat_analysis.contracts.plan import QueryPlan
from combat_analysis.keys import path_for_key
from combat_analysis.season.answers import figure_table
from combat_analysis.season.figures import SeasonError
from combat_analysis.warehouse.handles import column_type, json_row

STAGE = "data_engineer"
MATCHES_READ = "matches_read"  # the derived table of the matches a cross-match answer read


def data_engineer(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    started = datetime.now(timezone.utc)
    analysis = pkg.query_analysis
    if analysis is None or not analysis.sql_queries or pkg.plan is None:
        return pkg.next_version(stage=STAGE, started=started, status="skipped", data=DataSection())
    with env.connect() as locked:
        data, found = run_figure(pkg.plan, locked, env)
    return pkg.next_version(stage=STAGE, started=started, new_errors=found, data=data)


def run_figure(plan: QueryPlan, con, env: StageEnv) -> tuple[DataSection, list[ErrorEntry]]:
    """The figure's table and the matches it read."""
    try:
        table = figure_table(con, plan)
    except (SeasonError, ValueError, RuntimeError) as exc:
        message = " ".join(str(exc).split())[:300]
        result = QueryResult(query_id="q1", status="error", sql="", purpose=plan.summary, primary=True)
        return DataSection(query_results=(result,)), [ErrorEntry(
            stage=STAGE, error_type="season_error", description=message,
            recovery_action="the answer says why")]
    rows = [json_row(r) for r in with_report_links(table.rows, env)]
    handle = None
    if len(rows) > env.inline_row_cap:
        handle = env.handles.put_rows(rows, source=plan.summary)
    result = QueryResult(
        query_id="q1", status="ok", sql=";\n".join(table.statements), purpose=plan.summary, primary=True,
        column_types={c: column_type([r.get(c) for r in rows]) for c in table.columns},
        result_summary=ResultSummary(row_count=len(rows), top_row=rows[0] if rows else None),
        data=tuple(rows[: env.inline_row_cap]), truncated=handle is not None, handle=handle)
    matches = [json_row({"match_id": m.match_id, "started_at": m.started_at}) for m in table.matches]
    read = derived_table(matches, "the matches this answer read, in start order", env)
    return DataSection(query_results=(result,), transformed_data={MATCHES_READ: read}), []


def match_report_path(match_id: str, env: StageEnv) -> Path:
    """Where a match's own report is: `<home>/reports/<match>/report.html`, beside the answers' `<home>/artifacts`
    (settings.Paths; the warehouse itself may be a catalog in PostgreSQL, so it says nothing of the home)."""
    return path_for_key(env.artifacts_dir.parent / "reports", match_id, what="match id") / "report.html"


def with_report_links(rows: tuple[dict[str, Any], ...], env: StageEnv) -> list[dict[str, Any]]:
    """Rows that name a match (matches ranked) with a link to its report, or None where it is not built yet."""
    if not rows or "match_id" not in rows[0] or "rank" not in rows[0] or "duration_s" not in rows[0]:
        return list(rows)
    out = []
    for row in rows:
        path = match_report_path(str(row["match_id"]), env)
        out.append({**row, "report": str(path) if path.exists() else None})
    return out


def matches_read(pkg: AgentDataPackage) -> int:
    """How many matches a cross-match answer read (the rows of its `matches_read` table)."""
    table = pkg.data.transformed_data.get(MATCHES_READ) if pkg.data else None
    return table.row_count if table is not None else 0
