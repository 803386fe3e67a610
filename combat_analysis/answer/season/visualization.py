"""Stage 4 across matches, visualization: the analyst's chart as a `charts.season` job, drawn as a PNG under
artifacts_dir/<query_id>/ (`answer.charting`).
"""

from __future__ import annotations

from pathlib import Path

from combat_analysis.answer.charting import draw_charts
from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.results import all_rows
from combat_analysis.charts.jobs import ChartJob
from combat_analysis.contracts.package import AgentDataPackage, Visualization, VisualizationSpec
from combat_analysis.formatting import number
from combat_analysis.season.figures import metric_label


def visualization(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    return draw_charts(pkg, env, chart_job)


def _leaderboard(spec: VisualizationSpec, rows: list[dict], out: Path) -> tuple[ChartJob, str]:
    key, column = spec.x or "player", spec.y[0]
    ranked = [r for r in rows if r.get("rank") is not None]
    shown = [c for c in dict.fromkeys(("rank", key, "matches", column)) if c in ranked[0]]
    cells = [[number(r[c], 2) if not isinstance(r[c], str) else r[c] for c in shown] for r in ranked]
    job = ChartJob.of("leaderboard_table", out, [metric_label(c) for c in shown], cells, title=spec.title)
    return job, f"{spec.title}: {ranked[0][key]} leads; {len(ranked)} shown."


def _form(spec: VisualizationSpec, rows: list[dict], out: Path) -> tuple[ChartJob, str]:
    metric = spec.y[0]
    job = ChartJob.of("form_chart", out, [r["match_id"] for r in rows], {metric_label(metric): [r[metric] for r in rows]},
                      [r["result"] for r in rows], title=spec.title)
    return job, f"{spec.title}: {len(rows)} matches in start order, each marked win, loss or unknown."


def _win_rates(spec: VisualizationSpec, rows: list[dict], out: Path) -> tuple[ChartJob, str]:
    name = spec.x or "god"
    shown = [r for r in rows if r.get("rank") is not None][:15]
    job = ChartJob.of("win_rate_bars", out, [r[name] for r in shown],
                      [None if r["win_rate_pct"] is None else r["win_rate_pct"] / 100 for r in shown],
                      [r["matches"] for r in shown], title=spec.title)
    return job, f"{spec.title}: {len(shown)} {name}s with their win rate and games."


_CHARTS = {"leaderboard_table": _leaderboard, "form_chart": _form, "win_rate_bars": _win_rates}


def chart_job(spec: VisualizationSpec, pkg: AgentDataPackage, env: StageEnv) -> tuple[ChartJob, Visualization]:
    """The `charts.season` chart for a cross-match answer, and its entry (the thumbnail comes once drawn)."""
    rows = all_rows(pkg, env, spec.source)
    out: Path = env.query_dir(pkg.metadata.query_id) / f"{spec.id}_{spec.kind}.png"
    job, alt = _CHARTS[spec.kind](spec, rows, out)
    return job, Visualization(id=spec.id, type=spec.kind, title=spec.title, file_path=str(out), alt_text=alt,
                              source=spec.source)
