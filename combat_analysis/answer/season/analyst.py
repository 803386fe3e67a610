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
from combat_analysis.season.answers import value_column
from combat_analysis.season.wording import answer_text, figure_label

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
    specs = [spec for spec in (_chart(plan, rows),) if spec is not None]
    return AnalysisSection(key_findings=(finding,), recommended_visualizations=tuple(specs))


MIN_FORM_POINTS = 3  # a form line needs three games to show a form


def _chart(plan: QueryPlan, rows: list[dict[str, Any]]) -> VisualizationSpec | None:
    """The chart that fits the figure: a table for a ranking of players, gods, roles, sides or matches, bars for
    win rates with their games, a line for a player's form over at least three games; none for one figure."""
    figure = plan.season
    assert figure is not None
    ranked = [r for r in rows if r.get("rank") is not None]
    if figure.figure == "trend" and len(rows) >= MIN_FORM_POINTS:
        return VisualizationSpec(id="v1", kind="form_chart", source="q1", title=_title(plan),
                                 reason="a player's figure match by match is a line", x="match_id",
                                 y=(figure.metric or "kda",))
    if figure.figure == "board" and figure.metric == "win_rate" and len(ranked) > 1:
        return VisualizationSpec(id="v1", kind="win_rate_bars", source="q1", title=_title(plan),
                                 reason="win rates with the games behind them", x=figure.subject, y=("win_rate_pct",))
    if figure.figure in ("board", "matches") and len(ranked) > 1:
        key = "match_id" if figure.figure == "matches" else figure.subject
        column = (figure.metric or "kills") if figure.figure == "matches" else value_column(figure.metric or "")
        return VisualizationSpec(id="v1", kind="leaderboard_table", source="q1", title=_title(plan),
                                 reason="a ranking across matches reads best as a table", x=key, y=(column,))
    return None


def _title(plan: QueryPlan) -> str:
    figure = plan.season
    assert figure is not None
    scope = plan.scope
    where = f" ({describe(scope.selection)})" if isinstance(scope, ManyMatches) else ""
    label = figure_label(figure)
    if figure.figure == "trend":
        return f"{figure.players[0]}: {label} by match{where}"
    if figure.figure == "matches":
        return f"Matches by {label}{where}"
    statistic = {"average": "average ", "max": "best game: ", "min": "lowest game: "}.get(figure.statistic, "")
    return f"{figure.subject.title()}s by {statistic}{label}{where}"
