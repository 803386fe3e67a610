"""The answer to a question as a report: markdown and a self-contained HTML page (charts as data URIs).

Both are the same `render.Document`, built from the package alone and rendered by the shared templates
(`combat_analysis.render`). When the supporting table shows only the first rows of a larger result, the whole
table is written beside the report as CSV and linked.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import sqlglot

from combat_analysis.contracts.package import AgentDataPackage, FinalOutput, SupportingTable, Visualization
from combat_analysis.formatting import MATCH_SECOND_COLUMNS, clock, count, number
from combat_analysis.keys import path_for_key
from combat_analysis.render import document as render
from combat_analysis.render.document import (  # noqa: F401 - md_text and md_code_block are this module's API too
    Block,
    CodeBlock,
    Document,
    Figure,
    Item,
    Section,
    bullets,
    code,
    link,
    md_code_block,
    md_text,
    para,
)
from combat_analysis.warehouse.handles import rows_of

FOLLOWUP_HEADING = "## You might also ask"
METHOD_HEADING = "## Methodology"
ERRORS_HEADING = "## Notes and errors"


def _column_heading(column: str) -> str:
    """A table column as a person reads it: match seconds are shown as m:ss under a time word; the CSV keeps the
    column's own name and the seconds."""
    return MATCH_SECOND_COLUMNS.get(column, column).replace("_", " ")


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return number(value, 2)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_cell(v) for v in value)
    return "" if value is None else str(value)


def _csv_value(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return "" if value is None else value


def pretty_sql(sql: str) -> str:
    """The SQL laid out on several lines for reading; the text that ran is unchanged in the package."""
    try:
        return sqlglot.transpile(sql, read="duckdb", write="duckdb", pretty=True)[0]
    except sqlglot.errors.SqlglotError:
        return sql


def full_table_path(folder: Path, source: str) -> Path:
    """Where the whole supporting table is written beside the report: `<folder>/<source, encoded>.csv`."""
    return path_for_key(folder, source, ".csv", what="table id")


def _heading(constant: str) -> str:
    return constant.removeprefix("## ")


def _rest_of_table(table: SupportingTable, folder: Path | None) -> list[render.Inline]:
    """Where every row of a table that shows only its first rows is: the CSV beside the report."""
    csv_file = full_table_path(folder, table.source) if folder is not None else None
    if csv_file is None or not csv_file.exists():
        return []
    return ["all of them are in ", link(csv_file.name, csv_file.name)]


def _table_note(table: SupportingTable, folder: Path | None) -> list[render.Inline]:
    """Under a table that shows only its first rows: how many it shows, and where the rest are."""
    if table.total_rows <= len(table.rows):
        return []
    rest = _rest_of_table(table, folder)
    return [f"The first {len(table.rows)} of {table.total_rows:,} rows" + ("; " if rest else "."), *rest,
            *(["."] if rest else [])]


def no_chart_reason(pkg: AgentDataPackage) -> str:
    """Why an answer has no chart image, in the words of what it has instead (for Dagster's `chart` metadata)."""
    if pkg.is_refusal:
        return "no chart: the question was not answered, so there is nothing to draw"
    table = pkg.response.supporting_data if pkg.response else None
    kinds = {v.type for v in pkg.visualizations.values() if not v.file_path}
    if "table" in kinds and table is not None:
        return f"no chart: the answer is a list of {count(table.total_rows, 'row')}, under the report's Supporting data"
    if "kpi" in kinds:
        return "no chart: the answer is a single figure"
    return "no chart was drawn for this answer"


def _chart_block(chart: Visualization, table: SupportingTable | None, folder: Path | None) -> Block:
    if chart.file_path:
        return Figure(Path(chart.file_path), chart.alt_text, chart.title)
    if chart.type == "table" and table is not None and table.source == chart.source:
        if table.total_rows <= len(table.rows):
            return para(f"{chart.title}: {table.total_rows:,} rows, all under Supporting data.", role="kpi")
        rest = _rest_of_table(table, folder)
        return para(f"{chart.title}: {table.total_rows:,} rows; the first {len(table.rows)} are under Supporting "
                    "data" + (", " if rest else "."), *rest, *(["."] if rest else []), role="kpi")
    return para(chart.alt_text, role="kpi")


def answer_document(pkg: AgentDataPackage, folder: Path | None = None) -> Document:
    """The report as a document. `folder` is where it is written (charts and the CSV are linked from there)."""
    resp = pkg.response
    footer = (f"query {pkg.metadata.query_id} · package v{pkg.version} · "
              f"{pkg.metadata.timestamp.isoformat(timespec='seconds')}")
    if resp is None:
        return Document(pkg.input.raw_query, (para("No answer was composed."),), footer=footer, base=folder)
    lead = (para(resp.direct_answer, role="refusal" if pkg.is_refusal else "answer"),)
    sections: list[Section] = []
    if resp.key_insights:
        sections.append(Section("Key insights", (bullets(resp.key_insights),)))
    table = resp.supporting_data if resp.supporting_data and resp.supporting_data.rows else None
    charts = [pkg.visualizations[v] for v in resp.visualizations if v in pkg.visualizations]
    if charts:
        sections.append(Section("Charts", tuple(_chart_block(c, table, folder) for c in charts)))
    sections += _findings_section(pkg, resp.key_insights)
    if table is not None:
        sections.append(_supporting_section(table, folder))
    if resp.followup_answers:
        sections.append(Section(_heading(FOLLOWUP_HEADING), (render.QandA(tuple(
            (f.question, f.direct_answer) for f in resp.followup_answers)),)))
    sections.append(Section(_heading(METHOD_HEADING), tuple(_method(pkg))))
    if pkg.errors:
        sections.append(Section(_heading(ERRORS_HEADING), (bullets(
            f"{e.stage} {e.error_type}: {e.description} ({e.recovery_action})" for e in pkg.errors),)))
    return Document(pkg.input.raw_query, lead, tuple(sections), footer=footer, base=folder)


def _findings_section(pkg: AgentDataPackage, insights: tuple[str, ...]) -> list[Section]:
    """The findings not already said as key insights (the insights are the strongest findings): nothing twice."""
    analysis = pkg.analysis
    findings = (*analysis.key_findings, *analysis.comparisons, *analysis.patterns) if analysis else ()
    findings = tuple(f for f in findings if f.description not in insights)
    if not findings:
        return []
    return [Section("Other findings" if insights else "Findings", (render.Bullets(tuple(
        Item(render.spans([f.description]), badge=f.significance) for f in findings)),))]


def _supporting_section(table: SupportingTable, folder: Path | None) -> Section:
    """The supporting table as a person reads it (match seconds on the clock), and where the rest of it is."""
    clocks = [c in MATCH_SECOND_COLUMNS for c in table.columns]
    blocks: list[Block] = [render.table([_column_heading(c) for c in table.columns], (
        [clock(v) if on_clock else _cell(v) for v, on_clock in zip(row, clocks, strict=True)] for row in table.rows))]
    note = _table_note(table, folder)
    if note:
        blocks.append(para(*note, role="note"))
    return Section("Supporting data", tuple(blocks))


def _method(pkg: AgentDataPackage) -> list[Block]:
    blocks: list[Block] = []
    if pkg.response is not None and pkg.response.additional_context:
        blocks.append(para(pkg.response.additional_context))
    plan = pkg.plan
    if plan is not None:
        items = [f"Question type: {plan.intent.value}; planner: {plan.planner}."]
        if plan.summary:
            items.append(f"Plan: {plan.summary}")
        items += [f"Assumption: {a}" for a in plan.assumptions]
        blocks.append(bullets(items))
    for q in pkg.query_analysis.sql_queries if pkg.query_analysis else ():
        blocks.append(CodeBlock(pretty_sql(q.sql).strip(), "sql", render.spans([code(q.query_id), f" — {q.purpose}"])))
    return blocks


def write_full_table(pkg: AgentDataPackage, folder: Path, store=None) -> Path | None:
    """The supporting table's whole result as CSV beside the report, when the report shows only its first
    rows; the same columns, every row (read through its data handle when it has one)."""
    table = pkg.response.supporting_data if pkg.response else None
    result = pkg.result(table.source) if table is not None else None
    if table is None or result is None or table.total_rows <= len(table.rows):
        return None
    path = full_table_path(folder, table.source)
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(table.columns)
        writer.writerows([_csv_value(row.get(c)) for c in table.columns] for row in rows_of(result, store))
    return path


def write_report(pkg: AgentDataPackage, folder: Path, store=None) -> FinalOutput:
    """Write `report.md`, `report.html` and, when the table shows only its first rows, the whole table as
    CSV, into `folder`; returns where they are."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_full_table(pkg, folder, store)
    doc = answer_document(pkg, folder)
    markdown = render.to_markdown(doc)
    md_path, html_path = folder / "report.md", folder / "report.html"
    md_path.write_text(markdown, encoding="utf-8")
    html_path.write_text(render.to_html(doc), encoding="utf-8")
    return FinalOutput(markdown=markdown, markdown_path=str(md_path), html_path=str(html_path))
