"""Match reports that appear by themselves when a match lands, and a daily digest of the day's matches."""


from datetime import datetime, timedelta
from pathlib import Path

import dagster as dg

from assets.ingest import match_warehouse
from assets.partitions import digest_days, match_partitions
from combat_analysis.keys import KeyRefused, path_for_key
from combat_analysis.match_report import BATTERY, MVP_FORMULA, build_match_report
from combat_analysis.requests import match_key
from combat_analysis.warehouse import match_ids, open_warehouse, partition_dir
from resources import CombatHome, PlannerResource

OWNERS = ["team:analytics"]


@dg.asset(
    partitions_def=match_partitions, group_name="reports", kinds={"markdown", "html", "matplotlib"},
    owners=OWNERS, code_version="1", deps=[match_warehouse], pool="report_writes",
    automation_condition=dg.AutomationCondition.eager(),
    description="The full report for a match: result, scoreboard, leaders, gold curve, objectives, team "
                "fights, MVP and a card per player. Built by itself whenever the match's ingest succeeds.",
)
def match_report(context: dg.AssetExecutionContext, home: CombatHome, planner: PlannerResource) -> dg.MaterializeResult:
    """Runs the standard battery of questions through the five-stage pipeline and composes one report, in
    markdown and self-contained HTML, kept per match under `<home>/reports/<match>/`."""
    paths = home.paths
    out_dir = report_dir(paths, context.partition_key)
    match_id = _match_id_for(paths, context.partition_key)
    report = build_match_report(paths.warehouse, match_id, out_dir, handles_dir=paths.handles,
                                planner=planner.planner())
    from combat_analysis.charts import thumbnail_b64

    thumbs = "\n\n".join(f"![{name}](data:image/png;base64,{thumbnail_b64(path, width=320)})"
                         for name, path in report.charts.items())
    return dg.MaterializeResult(metadata={
        "match_id": match_id,
        "winner": f"team {report.winner_team}" if report.winner_team else "unknown",
        "duration_s": report.duration_s,
        "mvp": f"{report.mvp} ({report.mvp_score:,.2f})",
        "mvp_formula": MVP_FORMULA,
        "headlines": dg.MetadataValue.md("\n".join(f"- **{q}** {a}" for q, a in report.answers)),
        "charts": dg.MetadataValue.md(thumbs),
        "report_html": dg.MetadataValue.path(str(report.html_path)),
        "report_markdown": dg.MetadataValue.path(str(report.markdown_path)),
        "preview": dg.MetadataValue.md(report.markdown[:20000]),
        "battery": dg.MetadataValue.json(list(BATTERY)),
    })


def report_dir(paths, key: str) -> Path:
    """`<home>/reports/<match partition key, encoded>`: keys are data, never paths (`combat_analysis.keys`);
    one that cannot be mapped fails the run before anything is written."""
    try:
        return path_for_key(paths.reports, key, what="match partition key")
    except KeyRefused as exc:
        raise dg.Failure(description=f"refused before anything was written: {exc}") from None


def _match_id_for(paths, key: str) -> str:
    """The warehouse's match id for a partition key: the id itself, or the id as `match_key` writes it."""
    for match_id in match_ids(paths.warehouse):
        if key in (match_id, match_key(match_id)):
            return match_id
    raise dg.Failure(f"match {key!r} is not in the warehouse yet; materialize match_warehouse first")


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
    for match_id in match_ids(paths.warehouse):
        part = partition_dir(paths.warehouse, "matches", match_id) / "data.parquet"
        if day <= datetime.fromtimestamp(part.stat().st_mtime) < day + timedelta(days=1):
            landed.append(match_id)
    lines = [f"# Matches that landed on {context.partition_key}", ""]
    for match_id in landed:
        con = open_warehouse(paths.warehouse, match_id)
        winner, duration = con.execute("SELECT winner_team, duration_s FROM matches").fetchone()
        report = report_dir(paths, match_key(match_id)) / "report.html"
        lines.append(f"- **{match_id}**: {'team ' + str(winner) + ' won' if winner else 'winner unknown'}, "
                     f"{duration // 60} min; report: {report if report.exists() else 'not built yet'}")
    if not landed:
        lines.append("No match landed on this day.")
    out = path_for_key(paths.reports / "digests", context.partition_key, ".md", what="day")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dg.MaterializeResult(metadata={"matches": len(landed), "digest": dg.MetadataValue.path(str(out)),
                                          "preview": dg.MetadataValue.md("\n".join(lines))})
