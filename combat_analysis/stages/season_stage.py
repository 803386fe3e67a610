"""The five stages for a cross-match plan (`QueryPlan.season`) and for the latest-match default.

Each stage calls in here when the plan has a `ManyMatches` scope, so a cross-match question travels the same
package through the same stages: the query analyst reads its scope and plans it (`plan_for_matches`), the data
engineer runs the `season.py` figure on the locked connection (`run_figure`), the analyst states the findings,
the visualization stage draws `season_charts.py` charts, and the composer words the answer
(`season_answers.answer_text`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from combat_analysis.charts.jobs import ChartJob
from combat_analysis.contracts.package import (
    AgentDataPackage,
    AnalysisSection,
    CellRef,
    DataSection,
    ErrorEntry,
    Finding,
    QueryResult,
    ResultSummary,
    Visualization,
    VisualizationSpec,
)
from combat_analysis.contracts.plan import ManyMatches, OneMatch, QueryPlan
from combat_analysis.planner.vocabulary import PlayerInfo, Vocabulary
from combat_analysis.season.figures import SeasonError, metric_label

MATCHES_READ = "matches_read"  # the derived table of the matches a cross-match answer read


def warehouse_matches(con) -> list[tuple[str, datetime | None]]:
    """The connection's matches in start order (docs/season.md): (match id, start)."""
    return [(r[0], r[1]) for r in con.execute(
        "SELECT match_id, started_at FROM matches ORDER BY started_at, match_id").fetchall()]


@dataclass(frozen=True)
class SeasonVocabulary(Vocabulary):
    """The names of every match, one entry per player name (team, role and god vary by match, so the
    entries carry none), with the roles and gods seen in any match. Cheap: it never reads abilities or
    items, which a cross-match plan does not use."""

    roles_seen: tuple[str, ...] = ()
    gods_seen: tuple[str, ...] = ()

    @property
    def roles(self) -> tuple[str, ...]:
        return self.roles_seen

    @property
    def gods(self) -> tuple[str, ...]:
        return self.gods_seen


def season_vocabulary(con) -> SeasonVocabulary:
    def column(sql: str) -> tuple[str, ...]:
        return tuple(r[0] for r in con.execute(sql).fetchall())

    return SeasonVocabulary(
        players=tuple(PlayerInfo(player=n) for n in column("SELECT DISTINCT player FROM players ORDER BY player")),
        roles_seen=column("SELECT DISTINCT role FROM players WHERE role IS NOT NULL ORDER BY role"),
        gods_seen=column("SELECT DISTINCT god FROM players WHERE god IS NOT NULL ORDER BY god"),
        # non-players are read so a question about one ("the Fire Giant") is recognised, and refused across
        # matches rather than answered about the players
        npcs=column("SELECT DISTINCT name FROM entities WHERE kind <> 'player' AND name IS NOT NULL ORDER BY name"))


def plan_for_matches(question: str, con, matches: list[tuple[str, datetime | None]]) -> QueryPlan:
    """The plan of a question asked across the matches of `con` (`warehouse_matches(con)`; its scope words
    say which ones)."""
    from combat_analysis.contracts.selection import AllMatches
    from combat_analysis.planner.plans.crossmatch import plan_across
    from combat_analysis.planner.read.scope import ScopeReading, read_scope

    ids = tuple(m for m, _ in matches)
    latest = max((s for _, s in matches if s is not None), default=None)
    scope = read_scope(question, ids, latest)
    if not scope.cross_match:
        scope = ScopeReading(kind="all", selection=AllMatches(), rest=scope.rest, words=scope.words)
    return plan_across(question, scope, season_vocabulary(con), ids)


def latest_match_scope(plan: QueryPlan, con, match_id: str, how: str, matches_in_warehouse: int) -> QueryPlan:
    """A one-match plan marked with its scope; the latest-match default says which match it read."""
    row = con.execute("SELECT started_at FROM matches LIMIT 1").fetchone()
    started = row[0] if row else None
    scope = OneMatch(match_id=match_id, how=how, started_at=started.date().isoformat() if started else None,  # type: ignore[arg-type]
                     matches_in_warehouse=matches_in_warehouse)
    update: dict[str, Any] = {"scope": scope}
    if how == "latest":
        when = f" ({scope.started_at})" if scope.started_at else ""
        update["assumptions"] = (*plan.assumptions, f"no match was named: read as the latest match, {match_id}{when}, "
                                                    f"of the {matches_in_warehouse} in the warehouse")
    return plan.model_copy(update=update)


def latest_prefix(plan: QueryPlan | None) -> str:
    """'In the latest match, 6963307283 (2025-03-05): ' for an answer given by the latest-match default."""
    scope = plan.scope if plan is not None else None
    if not isinstance(scope, OneMatch) or scope.how != "latest":
        return ""
    when = f" ({scope.started_at})" if scope.started_at else ""
    return f"In the latest match, {scope.match_id}{when}: "


def run_figure(plan: QueryPlan, con, env) -> tuple[DataSection, list[ErrorEntry]]:
    """The data engineer's work for a cross-match plan: the figure's table and the matches it read."""
    from combat_analysis.season.answers import figure_table
    from combat_analysis.stages.analyst import _derived_table
    from combat_analysis.warehouse.handles import column_type, json_row

    try:
        table = figure_table(con, plan)
    except (SeasonError, ValueError, RuntimeError) as exc:
        message = " ".join(str(exc).split())[:300]
        result = QueryResult(query_id="q1", status="error", sql="", purpose=plan.summary, primary=True)
        return DataSection(query_results=(result,)), [ErrorEntry(
            stage="data_engineer", error_type="season_error", description=message,
            recovery_action="the answer says why")]
    rows = [json_row(r) for r in table.rows]
    handle = None
    if len(rows) > env.inline_row_cap:
        handle = env.handles.put_rows(rows, source=plan.summary)
    result = QueryResult(
        query_id="q1", status="ok", sql=";\n".join(table.statements), purpose=plan.summary, primary=True,
        column_types={c: column_type([r.get(c) for r in rows]) for c in table.columns},
        result_summary=ResultSummary(row_count=len(rows), top_row=rows[0] if rows else None),
        data=tuple(rows[: env.inline_row_cap]), truncated=handle is not None, handle=handle)
    matches = [json_row({"match_id": m.match_id, "started_at": m.started_at}) for m in table.matches]
    read = _derived_table(matches, "the matches this answer read, in start order", env)
    return DataSection(query_results=(result,), transformed_data={MATCHES_READ: read}), []


def season_analysis(pkg: AgentDataPackage, rows: list[dict[str, Any]]) -> AnalysisSection:
    """The answer as the headline finding, and the chart that fits the figure."""
    from combat_analysis.season.answers import answer_text

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


def matches_read(pkg: AgentDataPackage) -> int:
    """How many matches a cross-match answer read (the rows of its `matches_read` table)."""
    table = pkg.data.transformed_data.get(MATCHES_READ) if pkg.data else None
    return table.row_count if table is not None else 0


def _column(plan: QueryPlan) -> str:
    metric = plan.season.metric if plan.season else None
    return "value" if metric in (None, "matches") else metric


def _title(plan: QueryPlan) -> str:
    figure = plan.season
    assert figure is not None
    scope = plan.scope
    where = ""
    if isinstance(scope, ManyMatches):
        from combat_analysis.contracts.selection import describe

        where = f" ({describe(scope.selection)})"
    if figure.figure == "leaderboard":
        return f"{figure.statistic.title()} {metric_label(figure.metric or '')}{where}"
    if figure.figure == "trend":
        return f"{figure.players[0]}: {metric_label(figure.metric or 'kda')} by match{where}"
    return f"Win rate by {figure.group}" + (f" in the {figure.role} role" if figure.role else "") + where


def season_chart_job(spec: VisualizationSpec, pkg: AgentDataPackage, env,
                     rows: list[dict[str, Any]]) -> tuple[ChartJob, Visualization]:
    """The `season_charts.py` chart for a cross-match answer, and its entry (the thumbnail comes once drawn)."""
    from combat_analysis.season.answers import _num

    out: Path = env.query_dir(pkg.metadata.query_id) / f"{spec.id}_{spec.kind}.png"
    plan = pkg.plan
    assert plan is not None and plan.season is not None
    if spec.kind == "leaderboard_table":
        column = spec.y[0]
        shown = [c for c in ("rank", "player", "matches", column) if c in rows[0]]
        job = ChartJob.of("leaderboard_table", out, [metric_label(c) for c in shown],
                          [[_num(r[c]) if not isinstance(r[c], str) else r[c] for c in shown] for r in rows],
                          title=spec.title)
        alt = f"{spec.title}: {rows[0]['player']} leads; {len(rows)} players shown."
    elif spec.kind == "form_chart":
        metric = spec.y[0]
        job = ChartJob.of("form_chart", out, [r["match_id"] for r in rows],
                          {metric_label(metric): [r[metric] for r in rows]}, [r["result"] for r in rows],
                          title=spec.title)
        alt = f"{spec.title}: {len(rows)} matches in start order, each marked win, loss or unknown."
    else:
        name = plan.season.group or "god"
        shown_rows = rows[:15]
        job = ChartJob.of(
            "win_rate_bars", out, [r[name] for r in shown_rows],
            [None if r["win_rate_pct"] is None else r["win_rate_pct"] / 100 for r in shown_rows],
            [r["matches"] for r in shown_rows], title=spec.title)
        alt = f"{spec.title}: {len(shown_rows)} {name}s with their win rate and games."
    return job, Visualization(id=spec.id, type=spec.kind, title=spec.title, file_path=str(out), alt_text=alt,
                              source=spec.source)


def refusal_for_error(pkg: AgentDataPackage) -> str:
    """The one-line reason a cross-match figure could not be computed (an unknown name, say)."""
    reason = next((e.description for e in reversed(pkg.errors) if e.error_type == "season_error"), "")
    return (f"I cannot answer that across matches: {reason[:1].lower() + reason[1:]}." if reason else
            "I cannot answer that right now: the figures across matches could not be computed.")

