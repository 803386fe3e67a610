"""Stage 3 across matches, analyst: the answer as the headline finding, and the chart that fits the figure (a
table for a leaderboard, a line for a player's form, bars for win rates).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.results import primary_rows
from combat_analysis.answer.season.data_engineer import matches_read
from combat_analysis.contracts.package import (
    AgentDataPackage,
    AnalysisSection,
    CellRef,
    Finding,
    VisualizationSpec,
)
from combat_analysis.contracts.plan import ManyMatches, QueryPlan
from combat_analysis.contracts.selection import describe
from combat_analysis.season.answers import answer_text
from combat_analysis.season.figures import metric_label

STAGE = "analyst"


def analyst(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    started = datetime.now(timezone.utc)
    result, rows = primary_rows(pkg, env)
    if pkg.plan is None or result is None or result.status != "ok" or pkg.data is None:
        return pkg.next_version(stage=STAGE, started=started, status="skipped", analysis=AnalysisSection())
    return pkg.next_version(stage=STAGE, started=started, analysis=season_analysis(pkg, rows))


def season_analysis(pkg: AgentDataPackage, rows: list[dict[str, Any]]) -> AnalysisSection:
    """The answer as the headline finding, and the chart that fits the figure."""
    plan = pkg.plan
    assert plan is not None and plan.season is not None
    ref = CellRef(query_id="q1", rows=tuple(range(min(len(rows), 3))), columns=tuple(rows[0]) if rows else ())
    finding = Finding(id="f1", kind="season", description=answer_text(plan, rows, matches_read(pkg)), significance="high",
                      supporting_data=(ref,))
    figure = plan.season
    specs: list[VisualizationSpec] = []
    if rows and figure.figure == "leaderboard":
        specs.append(VisualizationSpec(id="v1", kind="leaderboard_table", source="q1", title=_title(plan),
                                       reason="a ranking across matches reads best as a table", y=(_column(plan),)))
    elif rows and figure.figure == "trend":
        specs.append(VisualizationSpec(id="v1", kind="form_chart", source="q1", title=_title(plan),
                                       reason="a player's figure match by match is a line", x="match_id",
                                       y=(figure.metric or "kda",)))
    elif rows and figure.figure == "groups":
        specs.append(VisualizationSpec(id="v1", kind="win_rate_bars", source="q1", title=_title(plan),
                                       reason="win rates with the games behind them", y=("win_rate_pct",)))
    return AnalysisSection(key_findings=(finding,), recommended_visualizations=tuple(specs))


def _column(plan: QueryPlan) -> str:
    metric = plan.season.metric if plan.season else None
    return "value" if metric in (None, "matches") else metric


def _title(plan: QueryPlan) -> str:
    figure = plan.season
    assert figure is not None
    scope = plan.scope
    where = ""
    if isinstance(scope, ManyMatches):
        where = f" ({describe(scope.selection)})"
    if figure.figure == "leaderboard":
        return f"{figure.statistic.title()} {metric_label(figure.metric or '')}{where}"
    if figure.figure == "trend":
        return f"{figure.players[0]}: {metric_label(figure.metric or 'kda')} by match{where}"
    return f"Win rate by {figure.group}" + (f" in the {figure.role} role" if figure.role else "") + where
