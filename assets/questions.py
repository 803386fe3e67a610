"""The question pipeline, one asset per stage: query_plan -> query_results -> findings -> charts -> answer_report.

Each asset runs one stage (`pipeline.run_stage`: the query analyst, then the stage of the sequence its plan
chose, one match or across matches). Each takes the previous Agent Data Package version and returns the next; the package IO manager stores
every version under its digest, which is also the asset's data version. Each question is its own partition.
"""


import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict

import dagster as dg

from assets.ingest import match_warehouse
from assets.partitions import question_partitions
from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.fidelity import check_package
from combat_analysis.answer.pipeline import MatchChoice, choose_match, run_stage
from combat_analysis.answer.report import no_chart_reason
from combat_analysis.answer.season.data_engineer import MATCHES_READ
from combat_analysis.charts.preview import preview_b64
from combat_analysis.contracts.package import AgentDataPackage, Visualization, new_package
from combat_analysis.inbox.requests import QuestionRequest, RequestError, load_question, save_question
from combat_analysis.keys import KeyRefused, check_key
from combat_analysis.render.document import (
    Bullets,
    Item,
    bullets,
    md_blocks,
    md_chart,
    md_code_block,
    md_preview,
    spans,
)
from combat_analysis.warehouse.handles import rows_of
from combat_analysis.warehouse.store import committed_manifest, unknown_match
from resources import CombatHome, PlannerResource

OWNERS = ["team:analytics"]


class _QuestionAssetArgs(TypedDict):
    """What every question asset passes to @dg.asset; typed, so `**COMMON` checks against its overloads."""

    partitions_def: dg.DynamicPartitionsDefinition
    group_name: str
    owners: list[str]
    io_manager_key: str


COMMON = _QuestionAssetArgs(partitions_def=question_partitions, group_name="questions", owners=OWNERS,
                            io_manager_key="package_io_manager")


class QuestionConfig(dg.Config):
    """Ask in the Launchpad: add a partition for the question, then give the question here. Leave it
    empty for partitions registered by a question file (see data/questions/README.md)."""

    question: str = ""
    match_id: str = ""
    previous_queries: list[str] = []
    user_id: str = "analyst"
    followups: bool = True


def question_key(context) -> str:
    """The run's question partition key, checked before anything is written: keys are data, never paths
    (`combat_analysis.keys`), and one that cannot be mapped fails the run with the reason."""
    try:
        return check_key(context.partition_key, "question partition key")
    except KeyRefused as exc:
        raise dg.Failure(description=f"refused before anything was written: {exc}") from None


def _request(key: str, config: QuestionConfig, home: CombatHome) -> QuestionRequest:
    """The partition's question: the one registered under its key, or the one in the run config, registered
    now. A key belongs to one question: asking another under it fails before anything is written, so no earlier
    answer is overwritten; asking the same again keeps the lake snapshot its first answer read."""
    if not config.question:
        return load_question(home.paths, key)
    request = QuestionRequest(question=config.question, match_id=config.match_id or None,
                              previous_queries=tuple(config.previous_queries), user_id=config.user_id,
                              followups=config.followups)
    try:
        stored = load_question(home.paths, key)
    except RequestError:
        save_question(home.paths, request, key=key)
        return request
    if stored.model_copy(update={"as_of": None}) != request:
        raise dg.Failure(description=f"the question partition {key!r} already holds another question "
                                     f"({stored.question!r}); ask this one under a new key. Nothing of the earlier "
                                     "answer was changed.", allow_retries=False)
    return stored


# The tag of a question run asked after its match did not land within the question sensor's wait.
WAITED_TAG = "combat_analysis/waited_for_match"


def _match_for(request: QuestionRequest, home: CombatHome, tags: Mapping[str, str]) -> MatchChoice:
    """The named match, else what the question's scope words say (across matches, or the latest match). A named
    match not in the warehouse fails the run with that reason (and how long the question waited for it)."""
    if request.match_id is not None and request.as_of is None \
            and committed_manifest(home.paths.lake, request.match_id) is None:
        waited = f"; the question waited for it: {tags[WAITED_TAG]}" if WAITED_TAG in tags else ""
        raise dg.Failure(description=unknown_match(home.paths.lake, request.match_id) + waited, allow_retries=False)
    return choose_match(request.question, home.paths.lake, request.match_id, snapshot=request.as_of)


# How many match partitions a cross-match answer's metadata lists by id (with their data versions); the count
# is always exact. Dagster's partition-mapping lineage cannot say which of 1,000 partitions one run read, so
# the answer's own metadata does (docs/season.md, "Lineage of a cross-match answer").
LINEAGE_IDS_SHOWN = 25


def match_partitions(pkg: AgentDataPackage, env: StageEnv) -> dict:
    """The match partitions a cross-match answer read: their count, and the first ones in start order with
    the data version their `match_warehouse` materialization recorded (the source log's SHA-256)."""
    table = pkg.data.transformed_data.get(MATCHES_READ) if pkg.data else None
    if table is None:
        return {}
    ids = [r["match_id"] for r in rows_of(table, env.handles)]
    shown = ids[:LINEAGE_IDS_SHOWN]
    versions = {}
    for match_id in shown:
        found = committed_manifest(env.warehouse_root, match_id)
        versions[match_id] = (found or {}).get("source_sha256", "")
    return {"count": len(ids), "shown": len(shown), "truncated": len(ids) > len(shown), "data_versions": versions}


def _package_metadata(pkg: AgentDataPackage) -> dict:
    return {"digest": pkg.digest, "version": pkg.version, "parent_digest": pkg.parent_digest or "",
            "errors": len(pkg.errors)}


def _output(pkg: AgentDataPackage, **metadata) -> dg.Output:
    return dg.Output(pkg, data_version=dg.DataVersion(pkg.digest), metadata={**metadata, **_package_metadata(pkg)})


@dg.asset(kinds={"python", "sqlglot"}, code_version="1",
          # Questions read the warehouse; which match each one asks about is only known at run time,
          # so the lineage edge spans every match partition.
          deps=[dg.AssetDep(match_warehouse, partition_mapping=dg.AllPartitionMapping())], **COMMON)
def query_plan(context: dg.AssetExecutionContext, config: QuestionConfig, home: CombatHome,
               planner: PlannerResource) -> dg.Output[AgentDataPackage]:
    """The query analyst's output: the question as a typed QueryPlan and validated SQL (package v1)."""
    key = question_key(context)
    request = _request(key, config, home)
    choice = _match_for(request, home, context.run.tags)
    match_id = choice.match_id
    start = new_package(request.question, match_id, request.previous_queries, user_id=request.user_id,
                        session_id=request.session_id, query_id=key)
    env = dataclasses.replace(home.stage_env(match_id, planner.planner()), scope_how=choice.how, scope=choice.scope,
                              snapshot=choice.snapshot)
    pkg = run_stage("query_analyst", start, env)
    if request.as_of is None and pkg.metadata.warehouse_snapshot is not None:  # answered again, it reads the same
        save_question(home.paths, request.model_copy(update={"as_of": pkg.metadata.warehouse_snapshot}), key=key)
    analysis = pkg.query_analysis
    # Metadata the UI renders as markdown: text that is not ours is escaped, SQL is fenced unbreakably.
    sql = "\n\n".join(f"-- {q.query_id}: {' '.join(q.purpose.split())}\n{q.sql}"
                       for q in analysis.sql_queries) if analysis else ""
    return _output(
        pkg,
        question=request.question,
        match_id=match_id or "all matches in the scope",
        # the lake snapshot this answer read (`combat-analysis ask --as-of` it to read the same)
        warehouse_snapshot=pkg.metadata.warehouse_snapshot if pkg.metadata.warehouse_snapshot is not None else "none",
        scope=pkg.plan.scope.kind if pkg.plan and pkg.plan.scope else "match",
        intent=analysis.query_type if analysis else "refuse",
        plan=analysis.intent if analysis else "",
        assumptions=dg.MetadataValue.md(md_blocks(bullets(pkg.plan.assumptions)) if pkg.plan and pkg.plan.assumptions
                                        else "none"),
        sql=dg.MetadataValue.md(md_code_block(sql, "sql") if sql else "no SQL: the question was refused"),
    )


@dg.asset(kinds={"duckdb"}, code_version="1", **COMMON)
def query_results(context: dg.AssetExecutionContext, query_plan: AgentDataPackage, home: CombatHome,
                  planner: PlannerResource) -> dg.Output[AgentDataPackage]:
    """The data engineer's output: every planned query run in DuckDB over the warehouse views (package v2).
    Small results travel inline; large ones as Parquet data handles."""
    env = home.stage_env(query_plan.input.context.match_id, planner.planner())
    pkg = run_stage("data_engineer", query_plan, env)
    results = pkg.data.query_results if pkg.data else ()
    rows = {r.query_id: r.result_summary.row_count for r in results}
    read = match_partitions(pkg, env)
    lineage = {"match_partitions": dg.MetadataValue.json(read)} if read else {}
    return _output(
        pkg,
        **lineage,
        row_counts=dg.MetadataValue.json(rows),
        handles=dg.MetadataValue.json({r.query_id: r.handle.handle_id for r in results if r.handle}),
        execution_ms=dg.MetadataValue.json({r.query_id: r.execution_time_ms for r in results}),
        **{"dagster/row_count": sum(rows.values())},
    )


@dg.asset(kinds={"python"}, code_version="1", **COMMON)
def findings(context: dg.AssetExecutionContext, query_results: AgentDataPackage, home: CombatHome,
             planner: PlannerResource) -> dg.Output[AgentDataPackage]:
    """The analyst's output: findings with significance and the cells that support them, match patterns,
    and the recommended charts (package v3)."""
    pkg = run_stage("analyst", query_results, home.stage_env(query_results.input.context.match_id, planner.planner()))
    found = pkg.analysis.key_findings if pkg.analysis else ()
    return _output(
        pkg,
        findings=dg.MetadataValue.md(md_blocks(Bullets(tuple(Item(spans([f.description]), badge=f.significance)
                                                            for f in found))) if found else "none"),
        recommended_charts=dg.MetadataValue.json(
            [v.kind for v in pkg.analysis.recommended_visualizations] if pkg.analysis else []),
    )


def drawn_charts(pkg: AgentDataPackage) -> list[Visualization]:
    """The package's charts that have an image, in the order the report shows them."""
    order = pkg.response.visualizations if pkg.response else tuple(pkg.visualizations)
    return [chart for v in order
            if (chart := pkg.visualizations.get(v)) is not None and chart.file_path
            and Path(chart.file_path).is_file()]


def chart_markdown(chart: Visualization, width: int = 720, report: str | None = None) -> str:
    if chart.file_path is None:  # drawn_charts gives only charts with an image
        raise ValueError(f"chart {chart.id} has no image")
    return md_chart(chart.title, chart.alt_text, preview_b64(Path(chart.file_path), width), report)


@dg.asset(kinds={"matplotlib"}, code_version="1", **COMMON)
def charts(context: dg.AssetExecutionContext, findings: AgentDataPackage, home: CombatHome,
           planner: PlannerResource) -> dg.Output[AgentDataPackage]:
    """The visualization stage's output: PNG charts chosen by result shape, with alt text (package v4).
    Metadata `charts`: every chart at a readable width (open it with "Show Markdown")."""
    pkg = run_stage("visualization", findings, home.stage_env(findings.input.context.match_id, planner.planner()))
    drawn = drawn_charts(pkg)
    return _output(
        pkg,
        charts=dg.MetadataValue.md("\n\n".join(chart_markdown(c) for c in drawn) or no_chart_reason(pkg)),
        chart_paths=dg.MetadataValue.json({k: v.file_path for k, v in pkg.visualizations.items() if v.file_path}),
    )


FIDELITY = dg.AssetCheckSpec(
    "numbers_trace_to_data", asset="answer_report",
    description="Every number in the findings, the response and the report appears in the query results or "
                "follows from them (sums, differences, percentages): nothing is invented.")


@dg.asset(kinds={"markdown", "html"}, code_version="1", check_specs=[FIDELITY], **COMMON)
def answer_report(context: dg.AssetExecutionContext, charts: AgentDataPackage, home: CombatHome,
                  planner: PlannerResource):
    """The composer's output: the direct answer with its exact figure, insights, charts, supporting data and
    methodology, as markdown and a self-contained HTML report (package v5). Metadata: `chart` is the main
    chart at a readable width with the report's path (open it with "Show Markdown"); `report_html` and
    `report_url` point at the HTML report."""
    request = load_question(home.paths, question_key(context))  # saved by query_plan, whichever way it came
    env = home.stage_env(charts.input.context.match_id, planner.planner(), followups=request.followups)
    pkg = run_stage("composer", charts, env)
    final = pkg.final_output
    drawn = drawn_charts(pkg)
    metadata = {
        "question": pkg.input.raw_query,
        "direct_answer": pkg.response.direct_answer if pkg.response else "",
        "chart": dg.MetadataValue.md(chart_markdown(drawn[0], report=final.html_path if final else None) if drawn
                                     else no_chart_reason(pkg)),
        "report_preview": dg.MetadataValue.md(md_preview(final.markdown) if final else ""),
    }
    if final and final.html_path:
        metadata["report_html"] = dg.MetadataValue.path(final.html_path)
        metadata["report_url"] = dg.MetadataValue.url(home.report_url(final.html_path))
    if final and final.markdown_path:
        metadata["report_markdown"] = dg.MetadataValue.path(final.markdown_path)
    yield _output(pkg, **metadata)
    unsupported = check_package(pkg, env.handles)
    yield dg.AssetCheckResult(
        check_name="numbers_trace_to_data", passed=not unsupported,
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={"unsupported": dg.MetadataValue.json([u.__dict__ for u in unsupported[:20]])},
    )


question_assets = [query_plan, query_results, findings, charts, answer_report]
