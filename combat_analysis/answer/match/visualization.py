"""Stage 4 of one match, visualization: the analyst's recommended charts as `charts.draw` jobs, drawn as PNGs under
artifacts_dir/<query_id>/ (`answer.charting`).

Each chart gets alt text stating the data it shows and a small base64 thumbnail. KPI and table
recommendations produce no image, only their alt text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from combat_analysis.answer.charting import draw_charts
from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.results import MetricInfo, all_rows, fmt_entity, metric_info
from combat_analysis.charts import style
from combat_analysis.charts.jobs import ChartJob
from combat_analysis.contracts.package import AgentDataPackage, Visualization, VisualizationSpec
from combat_analysis.formatting import is_number, number

MAX_BARS = 12
MAX_SERIES = 5
MAX_STACKS = 8


def _team_of(pkg: AgentDataPackage, env: StageEnv) -> dict[str, int]:
    return {r["player"]: r["team"] for r in all_rows(pkg, env, "roster")}


def _cell(row: dict[str, Any], column: str | None) -> Any:
    """The row's value in an optional column (a spec's x or series may be absent)."""
    return row.get(column) if column is not None else None


def _label(column: str | None, value: Any) -> str:
    return fmt_entity(column, value) if column else str(value)


def _summary(labels: Sequence[object], values: Sequence[float], decimals: int, limit: int = 3) -> str:
    return ", ".join(f"{lab} {number(v, decimals)}" for lab, v in list(zip(labels, values, strict=False))[:limit])


def _required_metric(metric: str | None, info: MetricInfo | None, kind: str) -> tuple[str, MetricInfo]:
    """The metric a bar, line or stacked chart plots; without one the chart cannot be drawn."""
    if metric is None or info is None:
        raise ValueError(f"a {kind} chart needs a metric in y")
    return metric, info


def chart_job(spec: VisualizationSpec, pkg: AgentDataPackage, env: StageEnv) -> tuple[ChartJob | None, Visualization]:
    """What to draw for a spec (None for a KPI or a table, which have only alt text) and its entry, whose
    thumbnail is added once the chart is drawn."""
    rows = all_rows(pkg, env, spec.source)
    out_dir = env.query_dir(pkg.metadata.query_id)
    path = out_dir / f"{spec.id}_{spec.kind}.png"
    team_of = _team_of(pkg, env)
    metric = spec.y[0] if spec.y else None
    info = metric_info(metric) if metric else None
    unit = style.axis_label(info.label, info.unit).removeprefix(info.label) if info else ""  # " (unit)" or ""
    if spec.kind in ("kpi", "table"):
        if spec.kind == "kpi" and rows and metric and info:
            text = f"{spec.title}: {number(rows[0].get(metric), info.decimals)}"
        else:
            text = f"{spec.title}: a table of {len(rows)} rows"  # the report says how many it shows
        return None, Visualization(id=spec.id, type=spec.kind, title=spec.title, alt_text=text, source=spec.source)

    if spec.kind == "bar_h":
        metric, info = _required_metric(metric, info, spec.kind)
        shown = [r for r in rows if is_number(r.get(metric))][:MAX_BARS]
        labels = [_label(spec.x, r.get(spec.x)) if spec.x else metric for r in shown]
        values = [float(r[metric]) for r in shown]
        colors = [style.team_color(r.get("team") if "team" in r else team_of.get(_cell(r, spec.x)))
                  if spec.x in ("player", "team") else style.PALETTE[0] for r in shown]
        job = ChartJob.of("bar_h", path, labels, values, title=spec.title, xlabel=f"{info.label}{unit}",
                          colors=colors, decimals=info.decimals)
        alt = (f"Horizontal bar chart of {info.label} by {spec.x or 'row'}, largest first, {len(shown)} bars: "
               f"{_summary(labels, values, info.decimals)}.")
    elif spec.kind == "grouped_bar" and spec.series:
        metric, info = _required_metric(metric, info, spec.kind)
        # windows side by side for several entities: one group of bars per window, one bar per entity
        categories = list(dict.fromkeys(str(_cell(r, spec.x)) for r in rows))
        names = list(dict.fromkeys(_label(spec.series, r.get(spec.series)) for r in rows))
        cells = {(str(_cell(r, spec.x)), _label(spec.series, r.get(spec.series))): float(r.get(metric) or 0)
                 for r in rows}
        series = {n: [cells.get((c, n), 0.0) for c in categories] for n in names[:MAX_SERIES]}
        job = ChartJob.of("grouped_bar", path, categories, series, title=spec.title, ylabel=f"{info.label}{unit}")
        alt = (f"Bar chart of {info.label} per period for {', '.join(series)}: "
               + "; ".join(f"{c}: {_summary(list(series), [series[n][i] for n in series], info.decimals, 5)}"
                           for i, c in enumerate(categories)) + ".")
    elif spec.kind == "grouped_bar":
        metric, info = _required_metric(metric, info, spec.kind)
        categories = [_label(spec.x, r.get(spec.x)) if spec.x else str(i) for i, r in enumerate(rows)]
        series = {metric_info(m).label: [float(r.get(m) or 0) for r in rows] for m in spec.y}
        colors = None
        if len(spec.y) == 1:
            # One metric: bars per entity side by side, coloured by team.
            job = ChartJob.of("bar_h", path, categories, series[info.label], title=spec.title,
                              xlabel=f"{info.label}{unit}", colors=[style.team_color(r.get("team") if "team" in r else team_of.get(_cell(r, spec.x)))
                                 for r in rows], decimals=info.decimals)
        else:
            units = {metric_info(m).unit for m in spec.y}
            job = ChartJob.of("grouped_bar", path, categories, series, title=spec.title,
                              ylabel=units.pop() if len(units) == 1 else "", colors=colors)
        alt = (f"Bar chart comparing {', '.join(series)} for {', '.join(categories)}: "
               + "; ".join(f"{c} {_summary([k for k in series], [series[k][i] for k in series], info.decimals)}"
                           for i, c in enumerate(categories)) + ".")
    elif spec.kind == "line":
        metric, info = _required_metric(metric, info, spec.kind)
        per_series: dict[str, tuple[list[float], list[float]]] = {}
        for r in rows:
            if not is_number(r.get(metric)):
                continue
            name = _label(spec.series, r.get(spec.series)) if spec.series else info.label
            xs, ys = per_series.setdefault(name, ([], []))
            xs.append(r["minute"])
            ys.append(float(r[metric]))
        top = sorted(per_series, key=lambda n: -sum(per_series[n][1]))[:MAX_SERIES]
        lines = {n: per_series[n] for n in top}
        line_colors: dict[str, str] | None = {n: style.team_color(team_of.get(n)) for n in lines} if spec.series == "team" else None
        if spec.series == "team":
            line_colors = {n: style.team_color(n.split()[-1]) for n in lines}
        markers = [(o["match_second"] / 60, o["objective"], style.team_color(o["team"]))
                   for o in all_rows(pkg, env, "pattern_objective_timeline")]
        ticks = [(k["match_second"] / 60, style.team_color(k["killer_team"]))
                 for k in all_rows(pkg, env, "kill_events")]
        job = ChartJob.of("line_chart", path, lines, title=spec.title, xlabel="minute",
                          ylabel=f"{info.label}{unit}", colors=line_colors, markers=markers, ticks=ticks)
        alt = (f"Line chart of {info.label} per minute"
               + (f" for {', '.join(lines)}" if spec.series else "")
               + f", minutes {min(r['minute'] for r in rows)} to {max(r['minute'] for r in rows)}"
               + (", with objective markers" if markers else "")
               + (f" and {len(ticks)} player kills marked along the bottom" if ticks else "") + ".")
    elif spec.kind == "gold_diff":
        minutes = [r["minute"] for r in rows]
        diffs = [float(r["gold_diff"]) for r in rows]
        markers = [(o["match_second"] / 60, o["objective"], style.team_color(o["team"]))
                   for o in all_rows(pkg, env, "pattern_objective_timeline")]
        job = ChartJob.of("gold_diff_chart", path, minutes, diffs, title=spec.title, markers=markers)
        alt = (f"Line chart of team 1's gold minus team 2's over minutes {minutes[0]} to {minutes[-1]}; "
               f"at minute {minutes[-1]} it stands at {number(diffs[-1])}.")
    elif spec.kind == "stacked_bar":
        metric, info = _required_metric(metric, info, spec.kind)
        stacks_order: list[Any] = []
        by_category: dict[str, dict[Any, float]] = {}
        for r in rows:
            if not is_number(r.get(metric)):
                continue
            category = _label(spec.x, r.get(spec.x)) if spec.x else "all"
            by_category.setdefault(category, {})[_cell(r, spec.series)] = float(r[metric])
            if _cell(r, spec.series) not in stacks_order:
                stacks_order.append(_cell(r, spec.series))
        kept = stacks_order[:MAX_STACKS]
        stacks = {str(s): [by_category[c].get(s, 0.0) for c in by_category] for s in kept}
        if len(stacks_order) > MAX_STACKS:
            stacks["other"] = [sum(v for s, v in by_category[c].items() if s not in kept) for c in by_category]
        categories = list(by_category)
        if categories == ["all"] and pkg.plan and pkg.plan.focus:
            categories = [", ".join(pkg.plan.focus)]
        job = ChartJob.of("stacked_bar", path, categories, stacks, title=spec.title, xlabel=f"{info.label}{unit}")
        alt = (f"Stacked bar of {info.label} split by {spec.series}: "
               + _summary(list(stacks), [sum(v) for v in stacks.values()], info.decimals, limit=4) + ".")
    elif spec.kind == "heatmap":
        xs = [float(r["location_x"]) for r in rows if is_number(r.get("location_x"))]
        ys = [float(r["location_y"]) for r in rows if is_number(r.get("location_y"))]
        extent_rows = all_rows(pkg, env, "map_extent")
        if extent_rows:
            e = extent_rows[0]
            extent = (e["x_min"], e["x_max"], e["y_min"], e["y_max"])
        else:
            extent = (min(xs), max(xs), min(ys), max(ys))
        job = ChartJob.of("heatmap", path, xs, ys, extent=extent, title=spec.title)
        alt = f"Map heatmap of {len(xs)} positions over the map extent."
    elif spec.kind == "event_timeline":
        kills = [(k["match_second"], k["killer_team"]) for k in all_rows(pkg, env, "kill_events")]
        objectives = [(o["match_second"], o["objective"], o["team"])
                      for o in all_rows(pkg, env, "pattern_objective_timeline")]
        highlight = []
        first = rows[0] if rows else {}
        if "killer" in first and "victim" in first and "match_second" in first:
            highlight.append((first["match_second"], f"{first['killer']} on {first['victim']}"))
        job = ChartJob.of("event_timeline", path, kills, objectives, title=spec.title, highlight=highlight)
        alt = (f"Timeline of {len(kills)} player kills by team and {len(objectives)} objectives over the match"
               + (f", highlighting {highlight[0][1]}" if highlight else "") + ".")
    else:
        raise ValueError(f"unknown chart kind {spec.kind!r}")
    return job, Visualization(id=spec.id, type=spec.kind, title=spec.title, file_path=str(path), alt_text=alt,
                              source=spec.source)


def visualization(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    return draw_charts(pkg, env, chart_job)
