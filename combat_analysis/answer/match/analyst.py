"""Stage 3 of one match, analyst: deterministic findings, match patterns and chart recommendations.

Every finding names the cells it rests on (query id or derived table, rows, columns). Anything the analyst
computes beyond plain arithmetic on the result (team totals, a player's rank in the match, pattern rows) is
stored as a derived table in `data.transformed_data`, so the fidelity check can trace every number.
"""

from __future__ import annotations

import statistics
from datetime import datetime, timezone
from typing import Any

from combat_analysis import formatting as fmt
from combat_analysis.answer import patterns as match_patterns
from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.results import (
    Shape,
    derived_table,
    dimension_word,
    fmt_entity,
    metric_info,
    primary_rows,
    result_shape,
    window_phrase,
)
from combat_analysis.catalog import metric as catalog_metric
from combat_analysis.contracts.package import (
    AgentDataPackage,
    AnalysisSection,
    CellRef,
    ErrorEntry,
    Finding,
    Significance,
    VisualizationSpec,
)
from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.formatting import clock, is_number

STAGE = "analyst"
RECAP_LIMIT = 50  # a death recap question lists every death of the player

KILL_METRICS = {"kills", "deaths", "assists", "kda", "first_blood", "kill_events"}
MATCH_FLOW_METRICS = {"winner", "objectives_taken", "towers", "phoenixes", "titans", "gold_furies", "fire_giants",
                      "objective_events", "gold_diff"}
PLAYER_STATS_COLUMNS = {"damage_dealt", "damage_to_players", "damage_to_structures", "damage_to_minions",
                        "damage_to_jungle", "damage_to_bosses", "damage_taken", "damage_mitigated", "healing_done",
                        "healing_received", "crits", "biggest_hit", "kills", "deaths", "assists", "kda", "gold",
                        "experience", "gpm", "dpm", "cc_applied", "items_purchased"}
COMPOSITION_DIMENSIONS = {"ability", "target_kind", "item", "objective"}


def _significance(pct: float) -> Significance:
    return "high" if pct >= 20 else "medium" if pct >= 5 else "low"


class _Findings:
    """Collects findings with sequential ids."""

    def __init__(self) -> None:
        self.items: list[Finding] = []

    def add(self, kind: str, text: str, significance: Significance, *refs: CellRef) -> None:
        self.items.append(Finding(id=f"f{len(self.items) + 1}", kind=kind, description=text,
                                  significance=significance, supporting_data=tuple(refs)))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _window(plan: QueryPlan) -> str:
    return window_phrase(plan)


def _values(rows, metric) -> list[float]:
    return [float(r[metric]) for r in rows if is_number(r.get(metric))]


# -- findings per result shape -------------------------------------------------------------------------------


def ranking_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan, derived, roster) -> None:
    if not rows or not shape.metrics:
        return
    metric = shape.metrics[0]
    dim = shape.dimensions[0] if shape.dimensions else None
    info = metric_info(metric)
    ranked = [r for r in rows if is_number(r.get(metric))]
    if not ranked:
        return
    # Names of players, gods, abilities and items keep their spelling; team 2 or jungle start a sentence.
    keep = dim in ("player", "god", "ability", "item", "role")
    name = (lambda r: fmt_entity(dim, r.get(dim)) if keep else _cap(fmt_entity(dim, r.get(dim)))) if dim \
        else (lambda r: "The match")
    top = ranked[0]
    best = "lowest" if plan.order == "asc" else "highest"
    out.add("leader", f"{name(top)} has the {best} {info.label}{_window(plan)}: "
            f"{fmt.number(top[metric], info.decimals)}.", "high", CellRef(query_id=qid, rows=(0,), columns=(dim or metric, metric)))
    if len(ranked) >= 2:
        second = ranked[1]
        diff = float(top[metric]) - float(second[metric])
        pct = abs(diff) / abs(float(second[metric])) * 100 if second[metric] else 0.0
        if diff == 0:
            out.add("tie", f"{name(top)} and {name(second)} are tied on {info.label} at "
                    f"{fmt.number(top[metric], info.decimals)}.", "high", CellRef(query_id=qid, rows=(0, 1), columns=(metric,)))
        else:
            out.add("margin", f"{name(top)} is {fmt.number(abs(diff), info.decimals)} ({fmt.percent(pct)}) "
                    f"{'ahead of' if plan.order != 'asc' else 'below'} {name(second)} "
                    f"({fmt.number(second[metric], info.decimals)}).", _significance(pct),
                    CellRef(query_id=qid, rows=(0, 1), columns=(metric,)))
    values = _values(ranked, metric)
    # Totals and shares are only the team's or the match's when every member is listed: never for a top N.
    members = {d: len({p[d] for p in roster}) for d in ("player", "team", "role", "god")} if roster else {}
    # every player (or team...) is in the rows: not a top N, and not only those meeting a condition on the figure
    complete = plan.shape != "top" and plan.condition is None and (
        len(rows) < plan.limit or len(rows) >= members.get(dim or "", 10 ** 9))
    scope = "" if complete else f" of the {len(rows)} listed"
    if info.additive and len(values) >= 2 and all(v >= 0 for v in values) and sum(values) > 0:
        total = sum(values)
        share = values[0] / total * 100
        out.add("share", f"{name(top)} accounts for {fmt.share(share, f'the total {info.label}{scope}')} "
                f"({fmt.number(total, info.decimals)}).", _significance(share - 100 / len(values)),
                CellRef(query_id=qid, rows=tuple(range(len(values))), columns=(metric,)))
        if len(values) >= 5:
            top3 = sum(sorted(values, reverse=True)[:3]) / total * 100
            out.add("concentration", f"The top three account for {fmt.share(top3, f'the total{scope}')}.",
                    "medium" if top3 >= 50 else "low",
                    CellRef(query_id=qid, rows=tuple(range(len(values))), columns=(metric,)))
    if len(values) >= 3:
        mean, median = statistics.fmean(values), statistics.median(values)
        listed = f"{len(values)} {fmt.plural(dimension_word(dim))}" if complete else f"{len(values)} listed {fmt.plural(dimension_word(dim))}"
        out.add("average", f"Across the {listed}, the average {info.label} is "
                f"{fmt.number(mean, info.decimals)} and the median {fmt.number(median, info.decimals)}.", "low",
                CellRef(query_id=qid, rows=tuple(range(len(values))), columns=(metric,)))
        if len(values) >= 5:
            q1, _, q3 = statistics.quantiles(values, n=4)
            fence_hi, fence_lo = q3 + 1.5 * (q3 - q1), q1 - 1.5 * (q3 - q1)
            for i, r in enumerate(ranked):
                v = float(r[metric])
                if v > fence_hi or v < fence_lo:
                    out.add("outlier", f"{name(r)} is an outlier on {info.label}: {fmt.number(v, info.decimals)} "
                            f"against a median of {fmt.number(median, info.decimals)}.", "medium",
                            CellRef(query_id=qid, rows=(i,), columns=(dim or metric, metric)))
    if dim == "player" and info.additive and roster:
        team_of = {p["player"]: p["team"] for p in roster}
        totals: dict[int, float] = {}
        for r in ranked:
            if r.get("player") in team_of:
                totals[team_of[r["player"]]] = totals.get(team_of[r["player"]], 0.0) + float(r[metric])
        if len(totals) == 2 and complete:
            table = f"team_totals_{metric}"
            derived[table] = ([{"team": t, metric: v} for t, v in sorted(totals.items())],
                              f"{info.label} of the listed players, summed per team (roster join)")
            lead, trail = sorted(totals, key=lambda t: -totals[t])
            diff = totals[lead] - totals[trail]
            out.add("team", f"Team {lead}'s players total {fmt.number(totals[lead], info.decimals)} {info.label} "
                    f"against team {trail}'s {fmt.number(totals[trail], info.decimals)} "
                    f"(a difference of {fmt.number(diff, info.decimals)}).",
                    _significance(diff / totals[trail] * 100 if totals[trail] else 100),
                    CellRef(query_id=table, rows=(0, 1), columns=("team", metric)))


def window_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan, derived, con) -> None:
    """A windowed figure against the whole match: how much of the leader's total fell in the window."""
    if plan.window is None or not rows or not shape.metrics or not shape.dimensions:
        return
    metric, dim = shape.metrics[0], shape.dimensions[0]
    info = metric_info(metric)
    if dim != "player" or metric not in PLAYER_STATS_COLUMNS or not info.additive:
        return
    table = f"match_{metric}"
    in_window = {r.get("player"): r.get(metric) for r in rows}
    whole = []
    for player, total in con.execute(
            f"SELECT player, {metric} FROM player_stats ORDER BY {metric} DESC, player").fetchall():
        part = in_window.get(player)
        share = float(part) / float(total) * 100 if is_number(part) and total else None
        whole.append({"player": player, metric: total, "in_window": part, "window_share_pct": share})
    derived[table] = (whole, f"{info.label} over the whole match and the share that fell in the window "
                             "(player_stats joined to the result)")
    top = rows[0]
    index = next((i for i, w in enumerate(whole) if w["player"] == top.get("player")), None)
    if index is None or whole[index]["window_share_pct"] is None:
        return
    row = whole[index]
    out.add("window", f"{top['player']}'s {fmt.number(top[metric], info.decimals)}{_window(plan)} is "
            f"{fmt.share(row['window_share_pct'], f'their {info.label} over the whole match')} "
            f"({fmt.number(row[metric], info.decimals)}).", "medium",
            CellRef(query_id=qid, rows=(0,), columns=("player", metric)),
            CellRef(query_id=table, rows=(index,), columns=("player", metric, "window_share_pct")))


def lookup_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan, derived, con) -> None:
    if not rows or not shape.metrics:
        return
    row = rows[0]
    dim = shape.dimensions[0] if shape.dimensions else None
    who = fmt_entity(dim, row.get(dim)) if dim else "The match"
    for metric in shape.metrics:
        info = metric_info(metric)
        if not is_number(row.get(metric)):
            continue
        out.add("value", f"{who}'s {info.label}{_window(plan)}: {fmt.number(row[metric], info.decimals)}."
                if dim else f"{info.label.capitalize()}{_window(plan)}: {fmt.number(row[metric], info.decimals)}.",
                "high", CellRef(query_id=qid, rows=(0,), columns=tuple(c for c in (dim, metric) if c)))
    metric = shape.metrics[0]
    if dim == "player" and metric in PLAYER_STATS_COLUMNS and plan.window is None:
        context = [dict(zip(("player", "team", metric), r, strict=True)) for r in con.execute(
            f"SELECT player, team, {metric} FROM player_stats ORDER BY {metric} DESC, player").fetchall()]
        table = f"context_{metric}"
        derived[table] = (context, f"{metric} of every player in the match, for context (player_stats)")
        names = [c["player"] for c in context]
        if row.get("player") in names:
            info = metric_info(metric)
            rank = names.index(row["player"]) + 1
            values = [float(c[metric]) for c in context]
            leader = context[0]
            text = (f"{row['player']} ranks {rank} of {len(context)} players on {info.label}; "
                    f"the match median is {fmt.number(statistics.median(values), info.decimals)}")
            text += "." if rank == 1 else (f" and the leader is {leader['player']} "
                                             f"({fmt.number(leader[metric], info.decimals)}).")
            out.add("context", text, "medium", CellRef(query_id=table, rows=tuple(range(len(context))),
                                                       columns=("player", metric)))
            if info.additive:
                share_findings(out, row["player"], metric, context, derived)
    if dim == "team" and metric in PLAYER_STATS_COLUMNS and plan.window is None and metric_info(metric).additive:
        team_share_findings(out, row.get("team"), metric, con, derived)


def team_share_findings(out: _Findings, team, metric: str, con, derived) -> None:
    """A team's figure as a share of the match's: "Team 2's 53 kills are 76.8% of the match's 69"."""
    info = metric_info(metric)
    totals = dict(con.execute(f"SELECT team, sum({metric}) FROM player_stats GROUP BY team").fetchall())
    match_total = sum(float(v) for v in totals.values())
    if team not in totals or not match_total:
        return
    share = float(totals[team]) / match_total * 100
    table = f"team_share_{metric}"
    derived[table] = ([{"team": team, metric: totals[team], "match_total": match_total, "match_share_pct": share}],
                      f"{info.label} of team {team} against the match's total (player_stats)")
    whole = f"the match's {info.label}"
    out.add("share_of_team", f"That is {fmt.share(share, whole)} ({fmt.number(match_total, info.decimals)}).", "high",
            CellRef(query_id=table, rows=(0,), columns=("match_share_pct",)))


def share_findings(out: _Findings, player: str, metric: str, context: list[dict], derived) -> None:
    """A player's figure as a share of their team's total and of the match's."""
    info = metric_info(metric)
    mine = next(c for c in context if c["player"] == player)
    team_total = sum(float(c[metric]) for c in context if c["team"] == mine["team"])
    match_total = sum(float(c[metric]) for c in context)
    if not team_total or not match_total:
        return
    table = f"share_{metric}"
    derived[table] = ([{"player": player, "team": mine["team"], metric: mine[metric], "team_total": team_total,
                        "team_share_pct": float(mine[metric]) / team_total * 100, "match_total": match_total,
                        "match_share_pct": float(mine[metric]) / match_total * 100}],
                      f"{info.label} of {player} against their team's and the match's totals (player_stats)")
    team_share = fmt.share(float(mine[metric]) / team_total * 100, f"team {mine['team']}'s {info.label}")
    match_share = fmt.share(float(mine[metric]) / match_total * 100, "the match's")
    out.add("share_of_team", f"That is {team_share} ({fmt.number(team_total, info.decimals)}) and {match_share} "
            f"({fmt.number(match_total, info.decimals)}).", "high",
            CellRef(query_id=table, rows=(0,), columns=("team_share_pct", "match_share_pct")))


def comparison_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan) -> None:
    if len(rows) < 2 or not shape.metrics:
        return
    dim = shape.dimensions[0] if shape.dimensions else None
    for metric in shape.metrics:
        info = metric_info(metric)
        valued = [(i, r) for i, r in enumerate(rows) if is_number(r.get(metric))]
        if len(valued) < 2:
            continue
        parts = "; ".join(f"{fmt_entity(dim, r.get(dim))}: {fmt.number(r[metric], info.decimals)}" for _, r in valued)
        out.add("comparison", f"{info.label.capitalize()}{_window(plan)} — {parts}.", "high",
                CellRef(query_id=qid, rows=tuple(i for i, _ in valued), columns=tuple(c for c in (dim, metric) if c)))
        (hi_i, hi), (lo_i, lo) = max(valued, key=lambda x: x[1][metric]), min(valued, key=lambda x: x[1][metric])
        diff = float(hi[metric]) - float(lo[metric])
        if diff > 0:
            pct = diff / float(lo[metric]) * 100 if lo[metric] else 0.0
            more = f" ({fmt.percent(pct)} more)" if lo[metric] else ""
            out.add("difference", f"{_cap(fmt_entity(dim, hi.get(dim)))} is ahead of {fmt_entity(dim, lo.get(dim))} by "
                    f"{fmt.number(diff, info.decimals)} {info.label}{more}.", _significance(pct),
                    CellRef(query_id=qid, rows=(hi_i, lo_i), columns=(metric,)))


def timeline_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan, derived) -> None:
    if not rows or not shape.metrics or "minute" not in rows[0]:
        return
    metric = shape.metrics[0]
    info = metric_info(metric)
    series_dim = next((d for d in shape.dimensions if d != "minute"), None)
    if metric == "gold_diff":
        final = rows[-1]
        best1 = max(range(len(rows)), key=lambda i: rows[i][metric])
        best2 = min(range(len(rows)), key=lambda i: rows[i][metric])
        leader = 1 if final[metric] > 0 else 2
        out.add("final", f"Team {leader} ends minute {final['minute']} ahead by "
                f"{fmt.number(abs(final[metric]))} gold.", "high",
                CellRef(query_id=qid, rows=(len(rows) - 1,), columns=("minute", metric)))
        if rows[best1][metric] > 0:
            out.add("peak", f"Team 1's biggest lead: {fmt.number(rows[best1][metric])} gold at minute "
                    f"{rows[best1]['minute']}.", "medium", CellRef(query_id=qid, rows=(best1,), columns=("minute", metric)))
        if rows[best2][metric] < 0:
            out.add("peak", f"Team 2's biggest lead: {fmt.number(-rows[best2][metric])} gold at minute "
                    f"{rows[best2]['minute']}.", "medium", CellRef(query_id=qid, rows=(best2,), columns=("minute", metric)))
        return
    if series_dim:
        totals: dict[Any, float] = {}
        for r in rows:
            if is_number(r.get(metric)):
                totals[r[series_dim]] = totals.get(r[series_dim], 0.0) + float(r[metric])
        table = f"series_totals_{metric}"
        ordered = sorted(totals.items(), key=lambda kv: -kv[1])
        derived[table] = ([{series_dim: k, metric: v} for k, v in ordered],
                          f"{info.label} summed over the minutes, per {series_dim}")
        if ordered:
            out.add("leader", f"Over the period, {fmt_entity(series_dim, ordered[0][0])} leads with "
                    f"{fmt.number(ordered[0][1], info.decimals)} {info.label}.", "high",
                    CellRef(query_id=table, rows=(0,), columns=(series_dim, metric)))
    per_minute: dict[int, float] = {}
    for r in rows:
        if is_number(r.get(metric)):
            per_minute[r["minute"]] = per_minute.get(r["minute"], 0.0) + float(r[metric])
    if not per_minute:
        return
    if series_dim:
        table = f"minute_totals_{metric}"
        derived[table] = ([{"minute": m, metric: v} for m, v in sorted(per_minute.items())],
                          f"{info.label} per minute, all series summed")
        source, rows_ref = table, list(sorted(per_minute))
    else:
        source, rows_ref = qid, [r["minute"] for r in rows]
    peak_minute = max(per_minute, key=lambda m: per_minute[m])
    out.add("peak", f"{info.label.capitalize()} peaks at minute {peak_minute} with "
            f"{fmt.number(per_minute[peak_minute], info.decimals)}.", "high",
            CellRef(query_id=source, rows=(rows_ref.index(peak_minute),), columns=("minute", metric)))
    minutes = sorted(per_minute)
    if len(minutes) >= 4:
        half = len(minutes) // 2
        early = statistics.fmean(per_minute[m] for m in minutes[:half])
        late = statistics.fmean(per_minute[m] for m in minutes[half:])
        trend = "rising" if late > early * 1.1 else "falling" if late < early * 0.9 else "flat"
        out.add("trend", f"The trend is {trend}: {fmt.number(early, info.decimals)} per minute on average in the "
                f"first half of the period against {fmt.number(late, info.decimals)} in the second.", "medium",
                CellRef(query_id=source, rows=tuple(range(len(minutes))), columns=("minute", metric)))


def event_findings(out: _Findings, qid: str, rows, plan: QueryPlan, derived) -> None:
    if not rows:
        return
    cols = set(rows[0])
    if "winner_team" in cols:
        winner = rows[0]["winner_team"]
        if winner is None:
            out.add("winner", "No Titan fell in this log, so the winner is not recorded.", "high",
                    CellRef(query_id=qid, rows=(0,), columns=("winner_team",)))
        else:
            out.add("winner", f"Team {winner} won the match by destroying the enemy Titan.", "high",
                    CellRef(query_id=qid, rows=(0,), columns=("winner_team",)))
        return
    if {"killer", "victim", "match_second"} <= cols and "objective" not in cols:
        first = rows[0]
        if "first_blood" in plan.metrics:
            out.add("first_blood", f"{first['killer']} drew first blood on {first['victim']} at "
                    f"{clock(first['match_second'])}.", "high",
                    CellRef(query_id=qid, rows=(0,), columns=("killer", "victim", "match_second")))
            if first.get("assists"):
                out.add("assists", f"Assisted by {', '.join(first['assists'])}.", "low",
                        CellRef(query_id=qid, rows=(0,), columns=("assists",)))
        else:
            out.add("count", f"{len(rows)} kills are listed; the first at {clock(first['match_second'])} "
                    f"({first['killer']} on {first['victim']}).", "medium",
                    CellRef(query_id=qid, rows=tuple(range(len(rows))), columns=("killer", "victim")))
        return
    if "objective" in cols:
        team_col = "team" if "team" in cols else None
        counts: dict[Any, int] = {}
        for r in rows:
            counts[r.get(team_col)] = counts.get(r.get(team_col), 0) + 1
        table = "objective_counts"
        derived[table] = ([{"team": t, "objectives": n} for t, n in sorted(counts.items(), key=lambda kv: str(kv[0]))],
                          "listed objectives counted per team")
        parts = ", ".join(f"team {t}: {n}" for t, n in sorted(counts.items(), key=lambda kv: str(kv[0])))
        out.add("count", f"{len(rows)} objectives listed ({parts}).", "high",
                CellRef(query_id=qid, rows=tuple(range(len(rows))), columns=("objective", team_col or "objective")))
        return
    out.add("count", f"{len(rows)} events listed.", "low", CellRef(query_id=qid, rows=tuple(range(len(rows)))))


def build_findings(out: _Findings, qid: str, rows, plan: QueryPlan) -> None:
    if not rows:
        return
    by_player: dict[Any, list[int]] = {}
    for i, r in enumerate(rows):
        by_player.setdefault(r.get("player"), []).append(i)
    for player, indexes in by_player.items():
        items = [rows[i].get("item") for i in indexes]
        out.add("build", f"{player} bought {len(items)} items, starting with {items[0]} and ending with {items[-1]}.",
                "high", CellRef(query_id=qid, rows=tuple(indexes), columns=("player", "seq", "item")))
        repeats = sorted({i for i in items if items.count(i) > 1})
        if repeats:
            out.add("repeats", f"{player} bought more than once: {', '.join(repeats)}.", "low",
                    CellRef(query_id=qid, rows=tuple(indexes), columns=("item",)))
        last = rows[indexes[-1]]
        if is_number(last.get("match_second")):
            out.add("timing", f"{player}'s last purchase came at {clock(last['match_second'])}.", "low",
                    CellRef(query_id=qid, rows=(indexes[-1],), columns=("match_second",)))


# -- patterns and chart rules --------------------------------------------------------------------------------


def wanted_patterns(plan: QueryPlan, rows) -> tuple[tuple[str, ...], str | None]:
    """Which match patterns bear on this question, and whose deaths to recap."""
    metrics = set(plan.metrics)
    asked = [p for m in plan.metrics if catalog_metric(m).kind == "pattern" and (p := catalog_metric(m).pattern)]
    if asked:
        # a pattern question ("which fights decided the game") is answered by that pattern
        recap = plan.focus[0] if "death_recap" in asked and plan.focus else None
        return tuple(a for a in asked if a != "death_recap"), recap
    names: list[str] = []
    cols = set(rows[0]) if rows else set()
    if metrics & KILL_METRICS or {"killer", "victim"} <= cols:
        # A first-blood question already states first blood; the pattern would repeat it.
        names += [n for n in ("first_blood", "kill_streaks", "team_fights")
                  if not (n == "first_blood" and "first_blood" in metrics)]
    if metrics & MATCH_FLOW_METRICS or "winner_team" in cols or "objective" in cols or (
            "team" in plan.group_by and plan.intent != Intent.TIMELINE):
        names += ["objective_timeline", "gold_swing"]
    if plan.intent == Intent.TIMELINE and "objective_timeline" not in names:
        names.append("objective_timeline")
    recap = None
    if metrics & {"deaths", "damage_taken"} and plan.focus:
        recap = plan.focus[0]
    elif "first_blood" in metrics and rows and rows[0].get("victim"):
        recap = rows[0]["victim"]
    return tuple(dict.fromkeys(names)), recap


def recommend_charts(plan: QueryPlan, qid: str, rows, shape: Shape, derived: dict) -> list[VisualizationSpec]:
    """The rule table: the result's shape picks the chart."""
    specs: list[VisualizationSpec] = []

    def add(kind: str, source: str, title: str, reason: str, **kw) -> None:
        specs.append(VisualizationSpec(id=f"v{len(specs) + 1}", kind=kind, source=source, title=title,
                                       reason=reason, **kw))

    metric = shape.metrics[0] if shape.metrics else None
    label = metric_info(metric).label if metric else ""
    window = f" ({plan.window.label})" if plan.window and plan.window.label else ""
    cols = set(rows[0]) if rows else set()
    positions = {"location_x", "location_y"} <= cols
    if positions:
        add("heatmap", qid, "Where it happened", "positions -> map heatmap", x="location_x", y=("location_y",))
    if plan.intent == Intent.TIMELINE and metric:
        if metric == "gold_diff":
            add("gold_diff", qid, "Team gold difference (team 1 - team 2)",
                "team gold difference -> line around zero, filled above/below", x="minute", y=(metric,))
        else:
            series = next((d for d in shape.dimensions if d != "minute"), None)
            add("line", qid, f"{label.capitalize()} per minute{window}", "value over minutes -> line",
                x="minute", y=(metric,), series=series)
    elif plan.intent in (Intent.EVENT_LIST,) or "winner_team" in cols:
        if "kill_events" in derived or "pattern_objective_timeline" in derived:
            add("event_timeline", qid, "Kills and objectives over the match", "events -> kill and objective timeline")
        if "gold_curve" in derived:
            add("gold_diff", "gold_curve", "Team gold difference (team 1 - team 2)",
                "team gold difference -> line around zero, filled above/below", x="minute", y=("gold_diff",))
        if "kill_positions" in derived and not positions:
            add("heatmap", "kill_positions", "Where players died", "positions -> map heatmap",
                x="location_x", y=("location_y",))
    elif plan.intent == Intent.BUILD_ORDER:
        add("table", qid, "Build order", "items in order -> table (no chart)")
    elif plan.windows and metric and rows and "period" in rows[0]:
        entity = next((d for d in shape.dimensions if d != "period"), None)
        add("grouped_bar", qid, f"{label.capitalize()} by period", "windows side by side -> grouped bar",
            x="period", y=(metric,), series=entity)
    elif plan.metrics and plan.metrics[0] == "gold_swing" and rows and "gold_diff" in rows[0]:
        add("gold_diff", qid, "Team gold difference (team 1 - team 2)",
            "comeback or stomp -> the gold difference curve", x="minute", y=("gold_diff",))
    elif len(rows) == 1 and len(shape.metrics) <= 1:
        add("kpi", qid, label.capitalize() or "Answer", "one value -> KPI text (no chart)", y=shape.metrics)
    elif plan.intent == Intent.COMPARISON or len(shape.metrics) > 1:
        labels = [metric_info(m).label for m in shape.metrics]
        title = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
        add("grouped_bar", qid, f"{title.capitalize()}{window}", "comparison -> grouped bar",
            x=shape.dimensions[0] if shape.dimensions else None, y=shape.metrics)
    elif plan.intent == Intent.BREAKDOWN and metric:
        comp = [d for d in shape.dimensions if d in COMPOSITION_DIMENSIONS]
        others = [d for d in shape.dimensions if d not in COMPOSITION_DIMENSIONS]
        if comp:
            add("stacked_bar", qid, f"{label.capitalize()} by {comp[0].replace('_', ' ')}{window}",
                "composition -> stacked bar", x=others[0] if others else None, y=(metric,), series=comp[0])
        add("bar_h", qid, f"{label.capitalize()} by {shape.dimensions[0].replace('_', ' ')}{window}"
            if shape.dimensions else label, "ranking -> sorted horizontal bar",
            x=shape.dimensions[0] if shape.dimensions else None, y=(metric,))
    elif metric and rows:
        add("bar_h", qid, f"{label.capitalize()}{window}", "ranking -> sorted horizontal bar",
            x=shape.dimensions[0] if shape.dimensions else None, y=(metric,))
    return specs


def primary_step(plan: QueryPlan | None, result) -> QueryPlan | None:
    """The step of the plan whose rows the primary result holds (the last of a dependent chain), with the
    player it was bound to as its focus."""
    if plan is None:
        return None
    step = plan
    while step.then is not None:
        step = step.then
    bound = [str(v) for v in (result.bound_parameters.values() if result is not None else ())]
    if bound:
        step = step.model_copy(update={"focus": tuple(bound) + tuple(f for f in step.focus if not f.startswith("$"))})
    return step


# -- the stage -----------------------------------------------------------------------------------------------


def analyst(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    started = datetime.now(timezone.utc)
    result, rows = primary_rows(pkg, env)
    plan = primary_step(pkg.plan, result)
    if plan is None or plan.intent == Intent.REFUSE or result is None or result.status != "ok" or pkg.data is None:
        return pkg.next_version(stage=STAGE, started=started, status="skipped", analysis=AnalysisSection())
    errors: list[ErrorEntry] = []
    qid = result.query_id
    shape = result_shape(rows, list(result.column_types), plan)
    derived: dict[str, tuple[list[dict[str, Any]], str]] = {}
    findings, comparisons = _Findings(), _Findings()
    pattern_findings: list[Finding] = []
    con = env.connect()
    try:
        roster = [dict(zip(("player", "team", "role", "god"), r, strict=True)) for r in con.execute(
            "SELECT player, team, role, god FROM players ORDER BY team, player").fetchall()]
        derived["roster"] = (roster, "the match roster (players table)")
        intent = plan.intent
        if intent in (Intent.RANKING, Intent.BREAKDOWN):
            ranking_findings(findings, qid, rows, shape, plan, derived, roster)
            window_findings(findings, qid, rows, shape, plan, derived, con)
        elif intent == Intent.LOOKUP:
            lookup_findings(findings, qid, rows, shape, plan, derived, con)
        elif intent == Intent.COMPARISON:
            comparison_findings(comparisons, qid, rows, shape, plan)
            if len(rows) < 2:
                lookup_findings(findings, qid, rows, shape, plan, derived, con)
        elif intent == Intent.TIMELINE:
            timeline_findings(findings, qid, rows, shape, plan, derived)
        elif intent == Intent.EVENT_LIST:
            event_findings(findings, qid, rows, plan, derived)
        elif intent == Intent.BUILD_ORDER:
            build_findings(findings, qid, rows, plan)

        names, recap_player = wanted_patterns(plan, rows)
        try:
            found = match_patterns.match_patterns(con, names, death_recap_player=recap_player,
                                                  recap_limit=RECAP_LIMIT if "death_recap" in plan.metrics else 5)
        except Exception as exc:  # noqa: BLE001 - patterns are context; the answer stands without them
            found = []
            errors.append(ErrorEntry(stage=STAGE, error_type="pattern_error", description=str(exc),
                                     recovery_action="answer given without match patterns"))
        for p in found:
            table = f"pattern_{p.id}"
            derived[table] = ([dict(r) for r in p.rows], f"match pattern: {p.kind} (patterns.{p.id})")
            pattern_findings.append(Finding(id=f"p{len(pattern_findings) + 1}", kind=p.kind, description=p.description,
                                            significance=p.significance,
                                            supporting_data=(CellRef(query_id=table, rows=tuple(range(len(p.rows))),
                                                                     columns=p.columns),)))
        if intent == Intent.TIMELINE:
            derived["kill_events"] = ([{"match_second": k["match_second"], "killer_team": k["killer_team"]}
                                       for k in match_patterns.player_kills(con)], "player kills over time (kills table)")
        if intent == Intent.EVENT_LIST or "winner_team" in (rows[0] if rows else {}):
            derived["kill_events"] = ([{"match_second": k["match_second"], "killer_team": k["killer_team"]}
                                       for k in match_patterns.player_kills(con)], "player kills over time (kills table)")
            if "pattern_objective_timeline" not in derived:
                ot = match_patterns.objective_timeline(con)
                if ot:
                    derived["pattern_objective_timeline"] = ([dict(r) for r in ot.rows], "objectives over time")
            if "winner_team" in (rows[0] if rows else {}):
                derived["gold_curve"] = ([dict(zip(("minute", "gold_diff"), r, strict=True)) for r in con.execute(
                    "SELECT minute, gold_diff FROM gold_diff ORDER BY minute").fetchall()],
                    "team gold difference per minute (gold_diff table)")
            if set(plan.metrics) & KILL_METRICS or "victim" in (rows[0] if rows else {}):
                extent = match_patterns.map_extent(con)
                positions = match_patterns.kill_positions(con)
                if extent and positions:
                    derived["kill_positions"] = (positions, "where each player died (kills table)")
                    derived["map_extent"] = ([extent], "the map extent seen in damage locations")
    finally:
        con.close()

    tables = {}
    for name, (table_rows, description) in derived.items():
        tables[name] = derived_table(table_rows, description, env)
    charts = recommend_charts(plan, qid, rows, shape, derived)
    data = pkg.data.model_copy(update={"transformed_data": {**pkg.data.transformed_data, **tables}})
    analysis = AnalysisSection(key_findings=tuple(findings.items), patterns=tuple(pattern_findings),
                               comparisons=tuple(comparisons.items), recommended_visualizations=tuple(charts))
    return pkg.next_version(stage=STAGE, started=started, new_errors=errors, analysis=analysis, data=data)
