"""The analyst's chart rules for one match: the result's shape picks the chart, and each chart draws the answer's
own data (the primary result, or the derived table the answer's sentence was read from)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from combat_analysis.answer.results import PAIR_TABLE, Shape, metric_info, pair_ranked, window_phrase
from combat_analysis.contracts.package import VisualizationSpec
from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.formatting import capital

COMPOSITION_DIMENSIONS = {"ability", "target_kind", "item", "objective"}
MAX_BARS = 12  # the most bars a horizontal bar chart draws; its title and alt text say when it is cut
GOLD_TITLE = "Team gold difference (team 1 - team 2)"
GOLD_REASON = "team gold difference -> line around zero, filled above/below"


@dataclass
class _Specs:
    specs: list[VisualizationSpec] = field(default_factory=list)

    def add(self, kind: str, source: str, title: str, reason: str, **kw: Any) -> None:
        self.specs.append(VisualizationSpec(id=f"v{len(self.specs) + 1}", kind=kind, source=source, title=title,
                                            reason=reason, **kw))


def _title(plan: QueryPlan, shape: Shape) -> tuple[str | None, str, str]:
    metric = shape.metrics[0] if shape.metrics else None
    label = metric_info(metric).label if metric else ""
    window = f" ({plan.window.label})" if plan.window and plan.window.label else ""
    return metric, label, window


def _events(out: _Specs, plan: QueryPlan, qid: str, derived: dict, positions: bool) -> None:
    if "kill_events" in derived or "objective_events" in derived:
        window = window_phrase(plan) or " over the match"
        out.add("event_timeline", qid, f"Kills and objectives{window}", "events -> kill and objective timeline")
    if "gold_curve" in derived:
        out.add("gold_diff", "gold_curve", GOLD_TITLE, GOLD_REASON, x="minute", y=("gold_diff",))
    if "kill_positions" in derived and not positions:
        out.add("heatmap", "kill_positions", "Where players died", "positions -> map heatmap",
                x="location_x", y=("location_y",))


def _recap(out: _Specs, plan: QueryPlan, derived: dict) -> None:
    """A death recap: the damage each death took before it, from the recap's own rows."""
    if "pattern_death_recap" in derived:
        who = plan.focus[0] if plan.focus else "the player"
        deaths = len(derived["pattern_death_recap"][0])
        which = "each death" if deaths <= MAX_BARS else f"the first {MAX_BARS} of {deaths} deaths"
        out.add("bar_h", "pattern_death_recap", f"Damage taken before {which} of {who}",
                "deaths -> damage taken before each, in match order", x="match_second", y=("damage_taken",))


def _timeline(out: _Specs, qid: str, shape: Shape, metric: str, label: str, window: str) -> None:
    if metric == "gold_diff":
        out.add("gold_diff", qid, GOLD_TITLE, GOLD_REASON, x="minute", y=(metric,))
        return
    series = next((d for d in shape.dimensions if d != "minute"), None)
    out.add("line", qid, f"{capital(label)} per minute{window}", "value over minutes -> line",
            x="minute", y=(metric,), series=series)


def _breakdown(out: _Specs, qid: str, shape: Shape, metric: str, label: str, window: str) -> None:
    comp = [d for d in shape.dimensions if d in COMPOSITION_DIMENSIONS]
    others = [d for d in shape.dimensions if d not in COMPOSITION_DIMENSIONS]
    if comp:
        out.add("stacked_bar", qid, f"{capital(label)} by {comp[0].replace('_', ' ')}{window}",
                "composition -> stacked bar", x=others[0] if others else None, y=(metric,), series=comp[0])
    out.add("bar_h", qid, f"{capital(label)} by {shape.dimensions[0].replace('_', ' ')}{window}"
            if shape.dimensions else label, "ranking -> sorted horizontal bar",
            x=shape.dimensions[0] if shape.dimensions else None, y=(metric,))


def _figures(out: _Specs, plan: QueryPlan, qid: str, rows, shape: Shape) -> None:
    """A figure's result: one value, a comparison, a breakdown or a ranking."""
    metric, label, window = _title(plan, shape)
    if len(rows) == 1 and len(shape.metrics) <= 1:
        out.add("kpi", qid, capital(label) or "Answer", "one value -> KPI text (no chart)", y=shape.metrics)
    elif plan.intent == Intent.COMPARISON or len(shape.metrics) > 1:
        labels = [metric_info(m).label for m in shape.metrics]
        title = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
        out.add("grouped_bar", qid, f"{capital(title)}{window}", "comparison -> grouped bar",
                x=shape.dimensions[0] if shape.dimensions else None, y=shape.metrics)
    elif plan.intent == Intent.BREAKDOWN and metric:
        _breakdown(out, qid, shape, metric, label, window)
    elif metric and rows and pair_ranked(plan):
        out.add("bar_h", PAIR_TABLE, f"{capital(label)} by player and {plan.group_by[1]}{window}",
                "pairs ranked -> sorted horizontal bar, one bar a pair", x="pair", y=(metric,))
    elif metric and rows:
        out.add("bar_h", qid, f"{capital(label)}{window}", "ranking -> sorted horizontal bar",
                x=shape.dimensions[0] if shape.dimensions else None, y=(metric,))


def recommend_charts(plan: QueryPlan, qid: str, rows, shape: Shape, derived: dict) -> list[VisualizationSpec]:
    """The rule table: the result's shape picks the chart."""
    out = _Specs()
    metric, label, window = _title(plan, shape)
    cols = set(rows[0]) if rows else set()
    if "death_recap" in plan.metrics:
        _recap(out, plan, derived)
        return out.specs
    if "duration_s" in cols:  # the match's facts: its length is the answer
        out.add("kpi", qid, "Match length in seconds", "one value -> KPI text (no chart)", y=("duration_s",))
        return out.specs
    positions = {"location_x", "location_y"} <= cols
    if positions:
        out.add("heatmap", qid, "Where it happened", "positions -> map heatmap", x="location_x", y=("location_y",))
    if plan.metrics and plan.metrics[0] == "gold_swing" and "gold_diff" in cols:
        out.add("gold_diff", qid, GOLD_TITLE, "comeback or stomp -> the gold difference curve", x="minute",
                y=("gold_diff",))
    elif plan.intent == Intent.TIMELINE and metric:
        _timeline(out, qid, shape, metric, label, window)
    elif plan.intent == Intent.EVENT_LIST or "winner_team" in cols:
        _events(out, plan, qid, derived, positions)
    elif plan.intent == Intent.BUILD_ORDER:
        out.add("table", qid, "Build order", "items in order -> table (no chart)")
    elif plan.windows and metric and rows and "period" in rows[0]:
        entity = next((d for d in shape.dimensions if d != "period"), None)
        out.add("grouped_bar", qid, f"{capital(label)} by period", "windows side by side -> grouped bar",
                x="period", y=(metric,), series=entity)
    else:
        _figures(out, plan, qid, rows, shape)
    return out.specs
