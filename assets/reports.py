"""Match reports that appear by themselves when a match lands, and a daily digest of the day's matches."""


import os
import shutil
from datetime import datetime, timedelta

import dagster as dg

from assets.ingest import match_warehouse
from assets.partitions import digest_days, match_partitions
from combat_analysis.charts.preview import preview_b64
from combat_analysis.formatting import number
from combat_analysis.inbox.requests import match_id_for_key
from combat_analysis.keys import check_key, path_for_key
from combat_analysis.render.document import (
    Bullets,
    Document,
    Item,
    link,
    md_bullets,
    md_chart,
    md_code_span,
    md_preview,
    para,
    spans,
    to_markdown,
)
from combat_analysis.reports.match import BATTERY, MVP_FORMULA, build_match_report
from combat_analysis.warehouse.store import committed_manifest, history, manifest, match_ids, open_warehouse
from resources import CombatHome, PlannerResource

OWNERS = ["team:analytics"]
# Eager, and built on the sensor's first evaluation if missing: eager alone ignores what landed before the
# automation sensor first ran (a match `combat-analysis ingest` recorded in the instance before `make dev`).
REPORT_AUTOMATION = (dg.AutomationCondition.eager() | (
    dg.AutomationCondition.missing() & dg.AutomationCondition.initial_evaluation()
    & ~dg.AutomationCondition.any_deps_missing() & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress())).with_label("eager, and built once if missing")


@dg.asset(
    partitions_def=match_partitions, group_name="reports", kinds={"markdown", "html", "matplotlib"},
    owners=OWNERS, code_version="1", deps=[match_warehouse], pool="report_writes",
    automation_condition=REPORT_AUTOMATION,
    description="The full report for a match: result, scoreboard, leaders, gold curve, objectives, team "
                "fights, MVP and a card per player. Built by itself whenever the match's ingest succeeds. "
                "Metadata: `chart` is the gold difference curve at a readable width with the report's path, "
                "`more_charts` the damage and kill charts (open them with \"Show Markdown\"); `report_html` and "
                "`report_url` point at the HTML report.",
)
def match_report(context: dg.AssetExecutionContext, home: CombatHome, planner: PlannerResource) -> dg.MaterializeResult:
    """Runs the standard battery of questions through the five-stage pipeline and composes one report, in
    markdown and self-contained HTML, kept per match under `<home>/reports/<match>/`."""
    paths = home.paths
    match_id = _match_id_for(paths, context.partition_key)
    if match_id is None:
        return _removed_report(paths, context.partition_key)
    report = build_match_report(paths.lake, match_id, path_for_key(paths.reports, match_id, what="match id"),
                                handles_dir=paths.handles, planner=planner.planner())
    main, *more = sorted(report.chart_info.values(), key=lambda c: c.path.name != "gold_difference.png")
    return dg.MaterializeResult(metadata={
        "match_id": match_id,
        "winner": f"team {report.winner_team}" if report.winner_team else "unknown",
        "duration_s": report.duration_s,
        "mvp": f"{report.mvp} ({number(report.mvp_score, 2)})",
        "mvp_formula": MVP_FORMULA,
        "headlines": dg.MetadataValue.md(md_bullets((q, a) for q, a in report.answers)),
        "chart": dg.MetadataValue.md(md_chart(main.title, main.alt, preview_b64(main.path), report.html_path)),
        "more_charts": dg.MetadataValue.md("\n\n".join(md_chart(c.title, c.alt, preview_b64(c.path, 480))
                                                        for c in more) or "none"),
        "report_html": dg.MetadataValue.path(str(report.html_path)),
        "report_url": dg.MetadataValue.url(home.report_url(report.html_path)),
        "report_markdown": dg.MetadataValue.path(str(report.markdown_path)),
        "preview": dg.MetadataValue.md(md_preview(report.markdown)),
        "battery": dg.MetadataValue.json(list(BATTERY)),
    })


def _match_id_for(paths, key: str) -> str | None:
    """The warehouse's match id for a partition key (the key is the id, see `requests.match_key`); None for a
    match taken out of the warehouse (`remove`), whose report goes with it."""
    match_id = check_key(match_id_for_key(key), "match id")  # an id no file may be named after fails here
    if committed_manifest(paths.lake, match_id) is None:
        changes = history(paths.lake, match_id)
        if changes and changes[-1].action == "removed":
            return None
        raise dg.Failure(f"match {match_id!r} is not in the warehouse yet; materialize match_warehouse first")
    return match_id


def _removed_report(paths, key: str) -> dg.MaterializeResult:
    """A removed match's report: its files deleted, so no link or page shows the match; a restore rebuilds it."""
    match_id = match_id_for_key(key)
    folder = path_for_key(paths.reports, match_id, what="match id")
    shutil.rmtree(folder, ignore_errors=True)
    return dg.MaterializeResult(metadata={
        "match_id": match_id, "status": "removed",
        "preview": dg.MetadataValue.md(f"The match was taken out of the warehouse, and its report with it "
                                       f"({md_code_span('combat-analysis restore ' + match_id)} brings both back).")})


@dg.asset(
    partitions_def=digest_days, group_name="reports", kinds={"markdown"}, owners=OWNERS, code_version="1",
    # every match's report feeds every day's digest; the digest itself picks the day's matches
    deps=[dg.AssetDep(match_report, partition_mapping=dg.AllPartitionMapping())],
    description="A digest of the matches that landed on a day, with links to their reports.",
)
def daily_digest(context: dg.AssetExecutionContext, home: CombatHome) -> dg.MaterializeResult:
    """One markdown page per day: each match ingested that day with its result, duration, MVP line and report."""
    paths = home.paths
    day = datetime.fromisoformat(context.partition_key)
    landed = []
    for match_id in match_ids(paths.lake):
        committed = datetime.fromisoformat(manifest(paths.lake, match_id)["created_at"]).astimezone()
        if day <= committed.replace(tzinfo=None) < day + timedelta(days=1):
            landed.append(match_id)
    out = paths.reports / "digests" / f"{context.partition_key}.md"
    items = []
    for match_id in landed:
        con = open_warehouse(paths.lake, match_id)
        winner, duration = con.execute("SELECT winner_team, duration_s FROM matches").fetchone() or (None, None)
        con.close()
        report = path_for_key(paths.reports, match_id, what="match id") / "report.html"
        items.append(Item(spans([f"{'team ' + str(winner) + ' won' if winner else 'winner unknown'}, "
                                 f"{(duration or 0) // 60} min; ",
                                 link("report", os.path.relpath(report, out.parent)) if report.exists()
                                 else "report not built yet"]), lead=f"{match_id}:"))
    doc = Document(f"Matches that landed on {context.partition_key}",
                   (Bullets(tuple(items)),) if items else (para("No match landed on this day."),), base=out.parent)
    markdown = to_markdown(doc)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(markdown, encoding="utf-8")
    return dg.MaterializeResult(metadata={"matches": len(landed), "digest": dg.MetadataValue.path(str(out)),
                                          "preview": dg.MetadataValue.md(markdown)})
