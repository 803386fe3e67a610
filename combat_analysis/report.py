"""The answer as a Markdown report and a self-contained HTML page (charts embedded as data URIs).

Both are rendered from the package alone. The HTML needs no network: inline CSS (responsive, readable on a
phone) and a tiny inline script that records on <body> whether every image decoded, for the browser test.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import Any

from combat_analysis.package import AgentDataPackage

FOLLOWUP_HEADING = "## You might also ask"
METHOD_HEADING = "## Methodology"
ERRORS_HEADING = "## Notes and errors"


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}".rstrip("0").rstrip(".") if not value.is_integer() else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return "" if value is None else str(value)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def md_text(text: Any) -> str:
    """Text as inert markdown: it renders as exactly these characters, on one line. Line breaks become
    spaces (no new block can start: no heading, list, fence or HTML block) and every character that could
    open markup is backslash-escaped (no link, image, HTML tag, emphasis, code span or table cell)."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).splitlines()))


def md_code_block(code: str, language: str = "") -> str:
    """A fenced code block that its content cannot close: the fence is longer than any backtick run in it."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code}\n{fence}"


def pretty_sql(sql: str) -> str:
    """The SQL laid out on several lines for reading; the text that ran is unchanged in the package."""
    import sqlglot

    try:
        return sqlglot.transpile(sql, read="duckdb", write="duckdb", pretty=True)[0]
    except sqlglot.errors.SqlglotError:
        return sql


def _sql_blocks(pkg: AgentDataPackage) -> list[tuple[str, str, str]]:
    if pkg.query_analysis is None:
        return []
    return [(q.query_id, q.purpose, pretty_sql(q.sql)) for q in pkg.query_analysis.sql_queries]


def _relative(path: str, base: Path) -> str:
    try:
        return os.path.relpath(path, base)
    except ValueError:
        return path


def render_markdown(pkg: AgentDataPackage) -> str:
    """The report as markdown. Every text that is not ours (the question, names from the log, anything a
    language model wrote: refusal reasons, labels, assumptions) goes through `md_text`, SQL through
    `md_code_block`, so no text can add a link, an image, HTML or structure to the page."""
    esc = md_text
    resp = pkg.response
    lines = [f"# {esc(pkg.input.raw_query)}", ""]
    if resp is None:
        return "\n".join(lines + ["_No answer was composed._", ""])
    lines += [f"**Answer:** {esc(resp.direct_answer)}", ""]
    findings = pkg.analysis.key_findings + pkg.analysis.comparisons if pkg.analysis else ()
    if resp.key_insights:
        lines += ["## Key insights", ""] + [f"- {esc(i)}" for i in resp.key_insights] + [""]
    if findings:
        lines += ["## Findings", ""] + [f"- **{esc(f.significance)}** — {esc(f.description)}" for f in findings] + [""]
    base = Path(pkg.final_output.markdown_path).parent if pkg.final_output and pkg.final_output.markdown_path \
        else None
    charts = [pkg.visualizations[v] for v in resp.visualizations if v in pkg.visualizations]
    if charts:
        lines += ["## Charts", ""]
        for chart in charts:
            if chart.file_path:
                target = Path(chart.file_path).name if base is None else _relative(chart.file_path, base)
                lines += [f"![{esc(chart.alt_text)}]({target})", f"*{esc(chart.title)}*", ""]
            else:
                lines += [f"> {esc(chart.alt_text)}", ""]
    table = resp.supporting_data
    if table and table.rows:
        lines += ["## Supporting data", ""]
        lines.append("| " + " | ".join(esc(c) for c in table.columns) + " |")
        lines.append("|" + "|".join("---" for _ in table.columns) + "|")
        for row in table.rows:
            lines.append("| " + " | ".join(esc(_cell(v)) for v in row) + " |")
        if table.total_rows > len(table.rows):
            lines.append(f"\n_Top {len(table.rows)} of {table.total_rows} rows._")
        lines.append("")
    if resp.additional_context:
        lines += ["## Context", "", esc(resp.additional_context), ""]
    if resp.followup_answers:
        lines += [FOLLOWUP_HEADING, ""]
        for f in resp.followup_answers:
            lines += [f"**{esc(f.question)}**  ", esc(f.direct_answer), ""]
    lines += [METHOD_HEADING, ""]
    plan = pkg.plan
    if plan is not None:
        lines.append(f"- Question type: {plan.intent.value}; planner: {plan.planner}.")
        if plan.summary:
            lines.append(f"- Plan: {esc(plan.summary)}")
        for a in plan.assumptions:
            lines.append(f"- Assumption: {esc(a)}")
    for qid, purpose, sql in _sql_blocks(pkg):
        lines += ["", f"{esc(qid)} — {esc(purpose)}", "", md_code_block(sql.strip(), "sql")]
    if pkg.errors:
        lines += ["", ERRORS_HEADING, ""]
        lines += [f"- {esc(e.stage)} {esc(e.error_type)}: {esc(e.description)} ({esc(e.recovery_action)})"
                  for e in pkg.errors]
    lines += ["", f"<sub>query {esc(pkg.metadata.query_id)} · package v{pkg.version} · "
                  f"{pkg.metadata.timestamp.isoformat(timespec='seconds')}</sub>", ""]
    return "\n".join(lines)


CSS = """
:root { --ink:#1f2430; --muted:#5b6372; --line:#e3e6ec; --bg:#f6f7f9; --card:#fff; --t1:#2f6fde; --t2:#d64541; }
* { box-sizing: border-box; }
body { margin:0; font:16px/1.55 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color:var(--ink); background:var(--bg); }
main { max-width: 880px; margin: 0 auto; padding: 16px; }
header h1 { font-size: 1.35rem; margin: 8px 0 12px; line-height: 1.3; }
.answer { background: var(--card); border-left: 5px solid var(--t1); border-radius: 10px; padding: 14px 16px;
          font-size: 1.12rem; box-shadow: 0 1px 3px rgba(0,0,0,.06); }
.answer.refusal { border-left-color: #f0a202; }
section { background: var(--card); border-radius: 10px; padding: 4px 16px 12px; margin: 16px 0;
          box-shadow: 0 1px 3px rgba(0,0,0,.06); }
h2 { font-size: 1.05rem; margin: 14px 0 8px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
ul { padding-left: 1.2em; margin: 6px 0; }
li { margin: 4px 0; }
.sig { display:inline-block; font-size:.72rem; padding:1px 7px; border-radius:9px; margin-right:6px;
       vertical-align: 1px; background:#eef1f6; color:var(--muted); }
.sig.high { background:#fde8e7; color:#a12a22; } .sig.medium { background:#fff3d6; color:#8a6100; }
figure { margin: 12px 0 18px; }
figure img { width: 100%; height: auto; border: 1px solid var(--line); border-radius: 8px; background:#fff; }
figcaption { font-size: .88rem; color: var(--muted); margin-top: 4px; }
.kpi { font-size: 1.05rem; padding: 10px 12px; background: #eef4ff; border-radius: 8px; margin: 10px 0; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
th { background: #f0f2f6; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #1f2430; color: #e8ecf3; padding: 10px 12px; border-radius: 8px; overflow-x: auto;
      font-size: .8rem; line-height: 1.45; }
.followup { border-top: 1px solid var(--line); padding: 8px 0; }
.followup b { display:block; }
footer { color: var(--muted); font-size: .78rem; text-align: center; margin: 18px 0 30px; word-break: break-all; }
@media (max-width: 480px) { body { font-size: 15px; } main { padding: 10px; } section { padding: 2px 12px 10px; } }
"""

IMAGE_CHECK = """
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var broken = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
  document.body.setAttribute('data-images', String(imgs.length));
  document.body.setAttribute('data-images-broken', String(broken.length));
});
"""


def _h(text: Any) -> str:
    return html.escape(str(text), quote=True)


def render_html(pkg: AgentDataPackage) -> str:
    resp = pkg.response
    parts = [f"<header><h1>{_h(pkg.input.raw_query)}</h1></header>"]
    if resp is None:
        parts.append('<div class="answer">No answer was composed.</div>')
    else:
        css = "answer refusal" if pkg.is_refusal else "answer"
        parts.append(f'<div class="{css}" id="direct-answer">{_h(resp.direct_answer)}</div>')
        if resp.key_insights:
            parts.append("<section><h2>Key insights</h2><ul>"
                         + "".join(f"<li>{_h(i)}</li>" for i in resp.key_insights) + "</ul></section>")
        charts = [pkg.visualizations[v] for v in resp.visualizations if v in pkg.visualizations]
        if charts:
            # Only a report with charts needs matplotlib, which comes with the charts module.
            from combat_analysis.charts import png_data_uri

            figs = []
            for chart in charts:
                if chart.file_path and Path(chart.file_path).exists():
                    figs.append(f'<figure><img src="{png_data_uri(Path(chart.file_path))}" alt="{_h(chart.alt_text)}">'
                                f"<figcaption>{_h(chart.title)}</figcaption></figure>")
                else:
                    figs.append(f'<div class="kpi">{_h(chart.alt_text)}</div>')
            parts.append("<section><h2>Charts</h2>" + "".join(figs) + "</section>")
        findings = pkg.analysis.key_findings + pkg.analysis.comparisons + pkg.analysis.patterns if pkg.analysis \
            else ()
        if findings:
            parts.append("<section><h2>Findings</h2><ul>" + "".join(
                f'<li><span class="sig {f.significance}">{f.significance}</span>{_h(f.description)}</li>'
                for f in findings) + "</ul></section>")
        table = resp.supporting_data
        if table and table.rows:
            head = "".join(f"<th>{_h(c)}</th>" for c in table.columns)
            body = "".join("<tr>" + "".join(
                f'<td class="{"num" if isinstance(v, (int, float)) and not isinstance(v, bool) else ""}">'
                f"{_h(_cell(v))}</td>" for v in row) + "</tr>" for row in table.rows)
            more = (f"<p><small>Top {len(table.rows)} of {table.total_rows} rows.</small></p>"
                    if table.total_rows > len(table.rows) else "")
            parts.append(f'<section><h2>Supporting data</h2><div class="table-wrap"><table><thead><tr>{head}'
                         f"</tr></thead><tbody>{body}</tbody></table></div>{more}</section>")
        if resp.followup_answers:
            parts.append("<section><h2>You might also ask</h2>" + "".join(
                f'<div class="followup"><b>{_h(f.question)}</b>{_h(f.direct_answer)}</div>'
                for f in resp.followup_answers) + "</section>")
        method = []
        if resp.additional_context:
            method.append(f"<p>{_h(resp.additional_context)}</p>")
        plan = pkg.plan
        if plan is not None:
            method.append(f"<p>Question type: <b>{_h(plan.intent.value)}</b>; planner: {_h(plan.planner)}.</p>")
        for qid, purpose, sql in _sql_blocks(pkg):
            method.append(f"<p><code>{_h(qid)}</code> — {_h(purpose)}</p><pre><code>{_h(sql.strip())}</code></pre>")
        if pkg.errors:
            method.append("<h2>Notes and errors</h2><ul>" + "".join(
                f"<li>{_h(e.stage)} · {_h(e.error_type)}: {_h(e.description)}</li>" for e in pkg.errors) + "</ul>")
        parts.append("<section><h2>Methodology</h2>" + "".join(method) + "</section>")
    parts.append(f"<footer>query {_h(pkg.metadata.query_id)} · package v{pkg.version}</footer>")
    return html_page(pkg.input.raw_query, "".join(parts))


def html_page(title: str, body: str) -> str:
    """A self-contained, phone-friendly page in the reports' shared style (answers and match reports)."""
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_h(title)}</title><style>{CSS}</style>"
            f"<script>{IMAGE_CHECK}</script></head>"
            f"<body><main>{body}</main></body></html>\n")
