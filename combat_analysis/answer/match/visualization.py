"""Stage 4 of one match, visualization: the analyst's recommended charts as `charts.draw` jobs, drawn as PNGs under
artifacts_dir/<query_id>/ (`answer.charting`).

Each chart gets alt text stating the data it shows and a small base64 thumbnail. KPI and table
recommendations produce no image, only their alt text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from combat_analysis.answer.charting import draw_charts
from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.match.chart_rules import MAX_BARS
from combat_analysis.answer.results import MetricInfo, all_rows, fmt_entity, metric_info, window_phrase
from combat_analysis.charts import style
from combat_analysis.charts.jobs import ChartJob
from combat_analysis.contracts.package import AgentDataPackage, Visualization, VisualizationSpec
from combat_analysis.formatting import clock, count, is_number, number

MAX_SERIES = 5
MAX_STACKS = 8
SECOND_COLUMNS = ("match_second", "start_second", "end_second")


def _cell(row: dict[str, Any], column: str | None) -> Any:
    """The row's value in an optional column (a spec's x or series may be absent)."""
    return row.get(column) if column is not None else None


def _label(column: str | None, value: Any) -> str:
    if column in SECOND_COLUMNS:  # an event's time, on the match clock
        return clock(value)
    return fmt_entity(column, value) if column else str(value)


def _axis_word(column: str | None) -> str:
    return "match time" if column in SECOND_COLUMNS else (column or "row").replace("_", " ")


def _summary(labels: Sequence[object], values: Sequence[float], decimals: int, limit: int = 3) -> str:
    return ", ".join(f"{lab} {number(v, decimals)}" for lab, v in list(zip(labels, values, strict=False))[:limit])


@dataclass(frozen=True)
class Chart:
    """What every chart kind reads: its spec, the rows of its source, where its PNG goes, and the answer's
    package (for the roster and the derived tables drawn beside the rows)."""

    spec: VisualizationSpec
    pkg: AgentDataPackage
    env: StageEnv
    rows: list[dict[str, Any]]
    path: Path

    @property
    def metric(self) -> str:
        """The figure a bar, line or stacked chart plots; without one the chart cannot be drawn."""
        if not self.spec.y:
            raise ValueError(f"a {self.spec.kind} chart needs a metric in y")
        return self.spec.y[0]

    @property
    def info(self) -> MetricInfo:
        return metric_info(self.metric)

    @property
    def axis(self) -> str:
        """The value axis: the figure's label and its unit, once ("damage dealt", "gold per minute (gold/min)")."""
        return style.axis_label(self.info.label, self.info.unit)

    def table(self, name: str) -> list[dict[str, Any]]:
        return all_rows(self.pkg, self.env, name)

    def team_color(self, row: dict[str, Any]) -> str:
        team_of = {r["player"]: r["team"] for r in self.table("roster")}
        return style.team_color(row.get("team") if "team" in row else team_of.get(_cell(row, self.spec.x)))

    def markers(self) -> list[tuple[float, str, str]]:
        return [(o["match_second"] / 60, o["objective"], style.team_color(o["team"]))
                for o in self.table("objective_events") or self.table("pattern_objective_timeline")]


Drawn = tuple[ChartJob, str]  # the job, and the alt text saying what it shows


def _bar_h(c: Chart) -> Drawn:
    valued = [r for r in c.rows if is_number(r.get(c.metric))]
    shown = valued[:MAX_BARS]
    labels = [_label(c.spec.x, r.get(c.spec.x)) if c.spec.x else c.metric for r in shown]
    values = [float(r[c.metric]) for r in shown]
    colors = [c.team_color(r) if c.spec.x in ("player", "team") else style.PALETTE[0] for r in shown]
    job = ChartJob.of("bar_h", c.path, labels, values, title=c.spec.title, xlabel=c.axis, colors=colors,
                      decimals=c.info.decimals)
    in_order = c.spec.x in SECOND_COLUMNS
    order = "in match order" if in_order else "largest first"
    # a cut list says what it leaves out: "the first 12 of 14 bars"
    bars = count(len(shown), "bar") if len(shown) == len(valued) else \
        f"the {'first' if in_order else 'top'} {len(shown)} of {count(len(valued), 'bar')}"
    return job, (f"Horizontal bar chart of {c.info.label} by {_axis_word(c.spec.x)}, {order}, "
                 f"{bars}: {_summary(labels, values, c.info.decimals)}.")


def _periods(c: Chart) -> Drawn:
    """Windows side by side for several entities: one group of bars per window, one bar per entity."""
    spec, entity = c.spec, c.spec.series or ""
    categories = list(dict.fromkeys(str(_cell(r, spec.x)) for r in c.rows))
    names = list(dict.fromkeys(_label(entity, r.get(entity)) for r in c.rows))
    cells = {(str(_cell(r, spec.x)), _label(entity, r.get(entity))): float(r.get(c.metric) or 0) for r in c.rows}
    series = {n: [cells.get((cat, n), 0.0) for cat in categories] for n in names[:MAX_SERIES]}
    job = ChartJob.of("grouped_bar", c.path, categories, series, title=spec.title, ylabel=c.axis)
    return job, (f"Bar chart of {c.info.label} per period for {', '.join(series)}: "
                 + "; ".join(f"{cat}: {_summary(list(series), [series[n][i] for n in series], c.info.decimals, 5)}"
                             for i, cat in enumerate(categories)) + ".")


def _grouped_bar(c: Chart) -> Drawn:
    """Entities compared: one metric as bars coloured by team, several side by side."""
    if c.spec.series:
        return _periods(c)
    spec, info = c.spec, c.info
    categories = [_label(spec.x, r.get(spec.x)) if spec.x else str(i) for i, r in enumerate(c.rows)]
    series = {metric_info(m).label: [float(r.get(m) or 0) for r in c.rows] for m in spec.y}
    if len(spec.y) == 1:
        job = ChartJob.of("bar_h", c.path, categories, series[info.label], title=spec.title, xlabel=c.axis,
                          colors=[c.team_color(r) for r in c.rows], decimals=info.decimals)
    else:
        units = {metric_info(m).unit for m in spec.y}
        job = ChartJob.of("grouped_bar", c.path, categories, series, title=spec.title,
                          ylabel=units.pop() if len(units) == 1 else "")
    return job, (f"Bar chart comparing {', '.join(series)} for {', '.join(categories)}: "
                 + "; ".join(f"{cat} {_summary(list(series), [series[k][i] for k in series], info.decimals)}"
                             for i, cat in enumerate(categories)) + ".")


def _line(c: Chart) -> Drawn:
    spec, info = c.spec, c.info
    per_series: dict[str, tuple[list[float], list[float]]] = {}
    for r in c.rows:
        if is_number(r.get(c.metric)):
            xs, ys = per_series.setdefault(_label(spec.series, r.get(spec.series)) if spec.series else info.label,
                                           ([], []))
            xs.append(r["minute"])
            ys.append(float(r[c.metric]))
    lines = {n: per_series[n] for n in sorted(per_series, key=lambda n: -sum(per_series[n][1]))[:MAX_SERIES]}
    colors = {n: style.team_color(n.split()[-1]) for n in lines} if spec.series == "team" else None
    markers = c.markers()
    ticks = [(k["match_second"] / 60, style.team_color(k["killer_team"])) for k in c.table("kill_events")]
    job = ChartJob.of("line_chart", c.path, lines, title=spec.title, xlabel="minute", ylabel=c.axis, colors=colors,
                      markers=markers, ticks=ticks)
    return job, (f"Line chart of {info.label} per minute" + (f" for {', '.join(lines)}" if spec.series else "")
                 + f", minutes {min(r['minute'] for r in c.rows)} to {max(r['minute'] for r in c.rows)}"
                 + (", with objective markers" if markers else "")
                 + (f" and {count(len(ticks), 'player kill')} marked along the bottom" if ticks else "") + ".")


def _gold_diff(c: Chart) -> Drawn:
    minutes = [r["minute"] for r in c.rows]
    diffs = [float(r["gold_diff"]) for r in c.rows]
    job = ChartJob.of("gold_diff_chart", c.path, minutes, diffs, title=c.spec.title, markers=c.markers())
    return job, (f"Line chart of team 1's gold minus team 2's over minutes {minutes[0]} to {minutes[-1]}; "
                 f"at minute {minutes[-1]} it stands at {number(diffs[-1])}.")


def _stacked_bar(c: Chart) -> Drawn:
    spec = c.spec
    order: list[Any] = []
    by_category: dict[str, dict[Any, float]] = {}
    for r in c.rows:
        if is_number(r.get(c.metric)):
            by_category.setdefault(_label(spec.x, r.get(spec.x)) if spec.x else "all", {})[
                _cell(r, spec.series)] = float(r[c.metric])
            order += [] if _cell(r, spec.series) in order else [_cell(r, spec.series)]
    kept = order[:MAX_STACKS]
    stacks = {str(s): [by_category[cat].get(s, 0.0) for cat in by_category] for s in kept}
    if len(order) > MAX_STACKS:
        stacks["other"] = [sum(v for s, v in by_category[cat].items() if s not in kept) for cat in by_category]
    categories = list(by_category)
    if categories == ["all"] and c.pkg.plan and c.pkg.plan.focus:
        categories = [", ".join(c.pkg.plan.focus)]
    job = ChartJob.of("stacked_bar", c.path, categories, stacks, title=spec.title, xlabel=c.axis)
    return job, (f"Stacked bar of {c.info.label} split by {spec.series}: "
                 + _summary(list(stacks), [sum(v) for v in stacks.values()], c.info.decimals, limit=4) + ".")


def _heatmap(c: Chart) -> Drawn:
    xs = [float(r["location_x"]) for r in c.rows if is_number(r.get("location_x"))]
    ys = [float(r["location_y"]) for r in c.rows if is_number(r.get("location_y"))]
    extent_rows = c.table("map_extent")
    e = extent_rows[0] if extent_rows else {"x_min": min(xs), "x_max": max(xs), "y_min": min(ys), "y_max": max(ys)}
    job = ChartJob.of("heatmap", c.path, xs, ys, extent=(e["x_min"], e["x_max"], e["y_min"], e["y_max"]),
                      title=c.spec.title)
    return job, f"Map heatmap of {count(len(xs), 'position')} over the map extent."


def _event_timeline(c: Chart) -> Drawn:
    """Player kills by the killer's team, deaths to non-players apart, and the objectives; first blood marked
    when the question asked for it."""
    kills = [(k["match_second"], k["killer_team"]) for k in c.table("kill_events")]
    deaths = [(d["match_second"], d["victim_team"]) for d in c.table("map_deaths")]
    objectives = [(o["match_second"], o["objective"], o["team"]) for o in c.table("objective_events")]
    first = c.rows[0] if c.rows else {}
    highlight = [(first["match_second"], f"{first['killer']} on {first['victim']}")] if (
        c.pkg.plan is not None and "first_blood" in c.pkg.plan.metrics and "match_second" in first) else []
    job = ChartJob.of("event_timeline", c.path, kills, objectives, title=c.spec.title, highlight=highlight,
                      map_deaths=deaths)
    window = window_phrase(c.pkg.plan) or " over the match"
    return job, (f"Timeline of {count(len(kills), 'player kill')} by team, {count(len(deaths), 'death')} to "
                 f"non-players and {count(len(objectives), 'objective')}{window}"
                 + (f", highlighting {highlight[0][1]}" if highlight else "") + ".")


CHART_KINDS: dict[str, Callable[[Chart], Drawn]] = {
    "bar_h": _bar_h, "grouped_bar": _grouped_bar, "line": _line, "gold_diff": _gold_diff,
    "stacked_bar": _stacked_bar, "heatmap": _heatmap, "event_timeline": _event_timeline,
}


def _text_only(spec: VisualizationSpec, rows: list[dict[str, Any]]) -> Visualization:
    """A KPI (the answer's one figure) or a table: alt text, no image."""
    if spec.kind == "kpi" and rows and spec.y:
        text = f"{spec.title}: {number(rows[0].get(spec.y[0]), metric_info(spec.y[0]).decimals)}"
    else:
        text = f"{spec.title}: a table of {count(len(rows), 'row')}"  # the report says how many it shows
    return Visualization(id=spec.id, type=spec.kind, title=spec.title, alt_text=text, source=spec.source)


def chart_job(spec: VisualizationSpec, pkg: AgentDataPackage, env: StageEnv) -> tuple[ChartJob | None, Visualization]:
    """What to draw for a spec (None for a KPI or a table, which have only alt text) and its entry, whose
    thumbnail is added once the chart is drawn."""
    rows = all_rows(pkg, env, spec.source)
    if spec.kind in ("kpi", "table"):
        return None, _text_only(spec, rows)
    kind = CHART_KINDS.get(spec.kind)
    if kind is None:
        raise ValueError(f"unknown chart kind {spec.kind!r}")
    path = env.query_dir(pkg.metadata.query_id) / f"{spec.id}_{spec.kind}.png"
    job, alt = kind(Chart(spec, pkg, env, rows, path))
    return job, Visualization(id=spec.id, type=spec.kind, title=spec.title, file_path=str(path), alt_text=alt,
                              source=spec.source)


def visualization(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    return draw_charts(pkg, env, chart_job)
