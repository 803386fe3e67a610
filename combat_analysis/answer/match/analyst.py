"""Stage 3 of one match, analyst: deterministic findings, match patterns and chart recommendations.

Every finding is a typed fact (`answer.facts`) worded by its kind's one function, and names the cells it rests on
(query id or derived table, rows, columns). Anything the analyst computes beyond plain arithmetic on the result
(team totals, a player's rank in the match, pattern rows) is stored as a derived table in `data.transformed_data`,
so the fidelity check can trace every number. Only the facts that bear on the question are kept: those computed
in its window that state its figure, and name its subject when both name someone (`facts.bears_on`).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

from combat_analysis import formatting as fmt
from combat_analysis.answer import facts as F
from combat_analysis.answer import patterns as match_patterns
from combat_analysis.answer.env import StageEnv
from combat_analysis.answer.match import chart_rules, wording
from combat_analysis.answer.results import (
    PAIR_TABLE,
    Shape,
    derived_table,
    dimension_word,
    metric_info,
    pair_name,
    pair_ranked,
    primary_rows,
    result_shape,
    window_phrase,
)
from combat_analysis.catalog import metric as catalog_metric
from combat_analysis.catalog.parts import is_part_of
from combat_analysis.contracts.package import (
    AgentDataPackage,
    AnalysisSection,
    CellRef,
    ErrorEntry,
    Finding,
    Significance,
)
from combat_analysis.contracts.plan import Intent, QueryPlan
from combat_analysis.formatting import is_number
from combat_analysis.planner.plans.shares import group_share
from combat_analysis.planner.read.timewords import WHOLE_MATCH

STAGE = "analyst"
RECAP_SHOWN = 50  # a death recap question lists every death of the player

KILL_METRICS = {"kills", "deaths", "assists", "kda", "first_blood", "kill_events"}
MATCH_FLOW_METRICS = {"winner", "objectives_taken", "towers", "phoenixes", "titans", "gold_furies", "fire_giants",
                      "objective_events", "gold_diff"}
PLAYER_STATS_COLUMNS = {"damage_dealt", "damage_to_players", "damage_to_structures", "damage_to_minions",
                        "damage_to_jungle", "damage_to_bosses", "damage_taken", "damage_mitigated", "healing_done",
                        "healing_received", "crits", "biggest_hit", "kills", "deaths", "assists", "kda", "gold",
                        "experience", "gpm", "dpm", "cc_applied", "items_purchased"}
# Dimensions whose filters say who a figure belongs to, not what narrows it
OWNER_DIMENSIONS = {"player", "team", "role", "god"}
Derived = dict[str, tuple[list[dict[str, Any]], str]]


def _significance(pct: float) -> Significance:
    return "high" if pct >= 20 else "medium" if pct >= 5 else "low"


@dataclass
class _Findings:
    """Collects findings with sequential ids, each worded from its fact."""

    window: str | None = None
    items: list[tuple[Finding, F.Fact]] = field(default_factory=list)

    def add(self, kind: str, fact: F.Fact, significance: Significance, *refs: CellRef) -> None:
        finding = Finding(id=f"f{len(self.items) + 1}", kind=kind, description=F.say(fact),
                          significance=significance, supporting_data=tuple(refs))
        self.items.append((finding, fact))

    def all(self) -> tuple[Finding, ...]:
        return tuple(finding for finding, _ in self.items)


def window_key(plan: QueryPlan) -> str | None:
    """The window a plan's answer is computed in, as facts and questions are matched on it."""
    if plan.window is not None:
        return plan.window.label
    if plan.windows:
        return " | ".join(w.label for w in plan.windows)
    return None


def _values(rows, metric) -> list[float]:
    return [float(r[metric]) for r in rows if is_number(r.get(metric))]


def _owner(dim: str | None, row: dict[str, Any]) -> F.Entity:
    return F.entity(dim, row.get(dim)) if dim else F.MATCH


# -- findings per result shape -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    """A ranking's rows as the findings read them."""

    qid: str
    rows: list[dict[str, Any]]
    metric: str
    dim: str | None
    plan: QueryPlan

    @property
    def window(self) -> str | None:
        return window_key(self.plan)

    @property
    def figure(self) -> str:
        """The figure as the facts name it: damage to a kind of target narrowed to one target is the damage
        dealt against it (the direct answer's "dealt the most damage against Fire Giant")."""
        if self.metric.startswith("damage_to") and any(f.dimension == "target" for f in self.plan.filters):
            return "damage_dealt"
        return self.metric

    @property
    def said(self) -> str:
        """What narrows the figure and its window, as the sentences say them: " against Fire Giant in the first
        10 minutes"; "" for the whole match's plain figure."""
        return wording.qualifier_phrase(self.plan) + window_phrase(self.plan)

    def amount(self, row: dict[str, Any], narrowed: bool = True) -> F.Amount:
        """The row's figure with what narrows it (" against Fire Giant"), or, for a fact that says the
        narrowing once for the sentence (`said`), without it."""
        # deaths counted per attacker are the deaths it caused, not its own
        caused = " caused" if self.metric == "deaths" and self.dim in ("source", "source_kind") else ""
        return F.Amount(_owner(self.dim, row), self.figure, float(row[self.metric]),
                        caused + (wording.qualifier_phrase(self.plan) if narrowed else ""))


def _complete(ranked: Ranked, roster) -> bool:
    """Every player (or team...) is in the rows: not a top N, and not only those meeting a condition."""
    plan, dim = ranked.plan, ranked.dim
    members = {d: len({p[d] for p in roster}) for d in ("player", "team", "role", "god")} if roster else {}
    return plan.shape != "top" and plan.condition is None and (
        len(ranked.rows) < plan.limit or len(ranked.rows) >= members.get(dim or "", 10 ** 9))


def _listed_noun(r: Ranked, complete: bool) -> str:
    """Who the rows are, for a base: "player", "Support player" (a ranking narrowed to a role), "listed player"."""
    narrowed = wording.among_players(r.plan)[1] if r.dim == "player" else ""
    if r.dim == "source" and r.metric == "npc_damage":
        narrowed = wording.attacker_noun(r.plan)  # "the 4 minions", not "the 4 sources"
    noun = narrowed or dimension_word(r.dim)
    return noun if complete else f"listed {noun}"  # "the 3 listed team 2 players": a top 3, not the whole side


def leader_findings(out: _Findings, r: Ranked) -> None:
    top, refs = r.rows[0], (r.dim or r.metric, r.metric)
    out.add("leader", F.Leader(top=r.amount(top), lowest=r.plan.order == "asc", said_window=r.said,
                               window=r.window), "high", CellRef(query_id=r.qid, rows=(0,), columns=refs))
    if len(r.rows) < 2:
        return
    second = r.rows[1]
    if float(top[r.metric]) == float(second[r.metric]):
        # every row level with the top, not the first two: the rows are ranked, so they come first
        level = [row for row in r.rows if float(row[r.metric]) == float(top[r.metric])]
        out.add("tie", F.Tie(owners=tuple(_owner(r.dim, row) for row in level), figure=r.figure,
                             value=float(top[r.metric]), window=r.window, said_window=r.said), "high",
                CellRef(query_id=r.qid, rows=tuple(range(len(level))), columns=(r.metric,)))
        return
    margin = F.Margin(first=r.amount(top, False), second=r.amount(second, False), below=r.plan.order == "asc",
                      window=r.window,
                      said_window=r.said)
    out.add("margin", margin, _significance(margin.percent or 0.0),
            CellRef(query_id=r.qid, rows=(0, 1), columns=(r.metric,)))


def share_of_listed(out: _Findings, r: Ranked, complete: bool) -> None:
    """The leader's share of the listed rows' total, and the top three's."""
    values = _values(r.rows, r.metric)
    if not metric_info(r.metric).additive or len(values) < 2 or any(v < 0 for v in values) or sum(values) <= 0:
        return
    noun = _listed_noun(r, complete)
    whole = F.Amount(F.Entity("group", f"the {fmt.count(len(values), noun)}"), r.figure, sum(values),
                     r.amount(r.rows[0]).qualifier + window_phrase(r.plan))
    refs = CellRef(query_id=r.qid, rows=tuple(range(len(values))), columns=(r.metric,))
    share = F.Share(part=r.amount(r.rows[0]), bases=(whole,), window=r.window)
    out.add("share", share, _significance(share.percents()[0] - 100 / len(values)), refs)
    if len(values) >= 5:
        top3 = F.Amount(F.Entity("group", "the top three"), r.figure, sum(sorted(values, reverse=True)[:3]))
        top3_share = F.Share(part=top3, bases=(whole,), window=r.window)
        out.add("concentration", top3_share, "medium" if top3_share.percents()[0] >= 50 else "low", refs)


def spread_findings(out: _Findings, r: Ranked, complete: bool) -> None:
    """The average and median of the listed rows, and any outlier among them."""
    values = _values(r.rows, r.metric)
    if len(values) < 3:
        return
    median = statistics.median(values)
    noun = _listed_noun(r, complete)
    out.add("average", F.Average(figure=r.figure, rows=len(values), noun=noun, mean=statistics.fmean(values),
                                 median=median, window=r.window, said_window=r.said), "low",
            CellRef(query_id=r.qid, rows=tuple(range(len(values))), columns=(r.metric,)))
    if len(values) < 5:
        return
    q1, _, q3 = statistics.quantiles(values, n=4)
    fence_hi, fence_lo = q3 + 1.5 * (q3 - q1), q1 - 1.5 * (q3 - q1)
    for i, row in enumerate(r.rows):
        if not fence_lo <= float(row[r.metric]) <= fence_hi:
            out.add("outlier", F.Outlier(value=r.amount(row), median=median, window=r.window,
                                                   said_window=r.said), "medium",
                    CellRef(query_id=r.qid, rows=(i,), columns=(r.dim or r.metric, r.metric)))


def team_totals(out: _Findings, r: Ranked, roster, derived: Derived) -> None:
    """The listed players' figure summed per team (every player listed)."""
    team_of = {p["player"]: p["team"] for p in roster}
    totals: dict[int, float] = {}
    for row in r.rows:
        if row.get("player") in team_of:
            totals[team_of[row["player"]]] = totals.get(team_of[row["player"]], 0.0) + float(row[r.metric])
    if len(totals) != 2:
        return
    table = f"team_totals_{r.metric}"
    derived[table] = ([{"team": t, r.metric: v} for t, v in sorted(totals.items())],
                      f"{metric_info(r.metric).label} of the listed players, summed per team (roster join)")
    lead, trail = sorted(totals, key=lambda t: -totals[t])
    fact = F.Totals(larger=F.Amount(F.Entity("team", str(lead)), r.figure, totals[lead]),
                    smaller=F.Amount(F.Entity("team", str(trail)), r.figure, totals[trail]), window=r.window,
                    said_window=r.said)
    diff = totals[lead] - totals[trail]
    out.add("team", fact, _significance(diff / totals[trail] * 100 if totals[trail] else 100),
            CellRef(query_id=table, rows=(0, 1), columns=("team", r.metric)))


def _per_player_hits(qid: str, rows, plan: QueryPlan, derived: Derived) -> tuple[str, list[dict[str, Any]]]:
    """The biggest hit ranked as one event (rows by player, ability and target, largest first) is read by the findings
    as each player's own biggest hit, kept as a table of its own so every number they state traces to it."""
    if tuple(plan.group_by) != wording.HIT_GROUPS:
        return qid, rows
    best: dict[Any, dict[str, Any]] = {}
    for r in rows:
        best.setdefault(r.get("player"), r)
    table = "biggest_hit_per_player"
    derived[table] = (list(best.values()), "each player's biggest hit, with its ability and target (the answer's "
                                           "rows, the first of each player)")
    return table, list(best.values())


def ranking_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan, derived: Derived,
                     roster) -> None:
    if not rows or not shape.metrics:
        return
    if pair_ranked(plan):  # a pair's figure is no player's own total: only the pairs, named for the chart
        other, metric = plan.group_by[1], shape.metrics[0]
        derived[PAIR_TABLE] = ([{"pair": pair_name(r, other), metric: r.get(metric)} for r in rows],
                               f"the answer's rows, each player and {other} named as one pair")
        return
    qid, rows = _per_player_hits(qid, rows, plan, derived)
    metric = shape.metrics[0]
    ranked = Ranked(qid, [r for r in rows if is_number(r.get(metric))], metric,
                    shape.dimensions[0] if shape.dimensions else None, plan)
    if not ranked.rows:
        return
    complete = _complete(ranked, roster)
    leader_findings(out, ranked)
    share_of_listed(out, ranked, complete)
    spread_findings(out, ranked, complete)
    # per-team totals of a role's players would read as the teams' totals
    if ranked.dim == "player" and metric_info(metric).additive and roster and complete and not _by_role(plan):
        team_totals(out, ranked, roster, derived)


def _by_role(plan: QueryPlan) -> bool:
    return any(f.dimension == "role" for f in plan.filters)


def qualified(plan: QueryPlan) -> bool:
    """The figure is narrowed beyond its owner (a victim, an ability, a target, a cause, a condition)."""
    narrowing = [f for f in plan.filters if f.dimension not in OWNER_DIMENSIONS or f.op == "!="]
    return bool(narrowing) or plan.condition is not None


def window_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan, derived: Derived, con) -> None:
    """A windowed figure against the whole match: how much of the leader's total fell in the window."""
    if plan.window is None or not rows or not shape.metrics or not shape.dimensions or qualified(plan):
        return
    metric, dim = shape.metrics[0], shape.dimensions[0]
    if dim != "player" or metric not in PLAYER_STATS_COLUMNS or not metric_info(metric).additive:
        return
    table = f"match_{metric}"
    in_window = {r.get("player"): r.get(metric) for r in rows}
    whole = []
    for player, total in con.execute(
            f"SELECT player, {metric} FROM player_stats ORDER BY {metric} DESC, player").fetchall():
        part = in_window.get(player)
        share = float(part) / float(total) * 100 if is_number(part) and total else None
        whole.append({"player": player, metric: total, "in_window": part, "window_share_pct": share})
    derived[table] = (whole, f"{metric_info(metric).label} over the whole match and the share that fell in the window "
                             "(player_stats joined to the result)")
    top = rows[0]
    index = next((i for i, w in enumerate(whole) if w["player"] == top.get("player")), None)
    if index is None or whole[index]["window_share_pct"] is None:
        return
    owner = F.Entity("player", str(top["player"]))
    fact = F.Share(part=F.Amount(owner, metric, float(top[metric]), window_phrase(plan)),
                   bases=(F.Amount(owner, metric, float(whole[index][metric]), " over the whole match"),),
                   window=window_key(plan))
    out.add("window", fact, "medium", CellRef(query_id=qid, rows=(0,), columns=("player", metric)),
            CellRef(query_id=table, rows=(index,), columns=("player", metric, "window_share_pct")))


def lookup_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan, derived: Derived, con) -> None:
    if not rows or not shape.metrics:
        return
    if group_share_findings(out, qid, rows, shape.metrics[0], plan, derived):
        return
    row = rows[0]
    dim = shape.dimensions[0] if shape.dimensions else None
    metric = shape.metrics[0]
    if own_share(out, qid, row, dim, shape.metrics, plan, derived):
        return
    if plan.window is not None or metric not in PLAYER_STATS_COLUMNS or not is_number(row.get(metric)):
        return
    if dim == "player" and qualified(plan):
        part_of_total(out, qid, row, metric, plan, derived, con)
    elif dim == "player":
        context = [dict(zip(("player", "team", metric), r, strict=True)) for r in con.execute(
            f"SELECT player, team, {metric} FROM player_stats ORDER BY {metric} DESC, player").fetchall()]
        table = f"context_{metric}"
        derived[table] = (context, f"{metric} of every player in the match, for context (player_stats)")
        rank_findings(out, row["player"], metric, context, table)
        if metric_info(metric).additive:
            share_findings(out, row["player"], metric, context, derived)
    elif dim == "team" and metric_info(metric).additive and not qualified(plan):
        team_share_findings(out, row.get("team"), metric, con, derived)
    elif dim in ("team", None) and plan.shape == "share" and metric_info(metric).additive:
        part_of_whole(out, qid, row, metric, plan, derived, con)


def rank_findings(out: _Findings, player: str, metric: str, context: list[dict], table: str) -> None:
    """Where the player stands among every player of the match on the figure."""
    names = [c["player"] for c in context]
    if player not in names:
        return
    values = [float(c[metric]) for c in context]
    mine, leader = context[names.index(player)], context[0]
    fact = F.Rank(value=F.Amount(F.Entity("player", player), metric, float(mine[metric])), rank=names.index(player) + 1,
                  of=len(context), median=statistics.median(values),
                  leader=F.Amount(F.Entity("player", leader["player"]), metric, float(leader[metric])))
    out.add("context", fact, "medium",
            CellRef(query_id=table, rows=tuple(range(len(context))), columns=("player", metric)))


def group_share_findings(out: _Findings, qid: str, rows, metric: str, plan: QueryPlan, derived: Derived) -> bool:
    """A group's share of the match's total (`wording.group_share_fact`), as a finding with the rows it sums; whether
    the plan asked one."""
    if group_share(plan) is None:
        return False
    found = wording.group_share_fact(plan, rows)
    if found is None:
        return True
    fact, mine, valued = found
    dim = plan.group_by[0]
    table = f"group_share_{metric}"
    derived[table] = ([{"group": ", ".join(plan.focus), metric: fact.part.value, "total": fact.bases[0].value,
                        "share_pct": fact.percents()[0]}],
                      f"{metric_info(metric).label} of {', '.join(plan.focus)} over the sum of every {dim}'s (the query's rows)")
    out.add("group_share", replace(fact, window=window_key(plan)), "high",
            CellRef(query_id=qid, rows=tuple(mine), columns=(dim, metric)),
            CellRef(query_id=qid, rows=tuple(valued), columns=(metric,)),
            CellRef(query_id=table, rows=(0,), columns=("total", "share_pct")))
    return True


def part_of_whole(out: _Findings, qid: str, row, metric: str, plan: QueryPlan, derived: Derived, con) -> None:
    """A narrowed figure of a side or of the match ("the match's deaths to non-players") as a share of the same
    side's or the match's whole figure, its base named: "... are 29.7% of the match's 91 deaths"."""
    team = row.get("team")
    where, params = ("WHERE team = $t", {"t": team}) if team is not None else ("", {})
    found = con.execute(f"SELECT sum({metric}) FROM player_stats {where}", params).fetchone()
    if found is None or not found[0] or not is_number(row.get(metric)):
        return
    total, part = float(found[0]), float(row[metric])
    owner = F.Entity("team", str(team)) if team is not None else F.MATCH
    table = f"whole_{metric}"
    derived[table] = ([{"team": team, metric: part, "total": total, "share_pct": part / total * 100}],
                      f"{metric_info(metric).label} as asked, against the whole {metric} of "
                      f"{'team ' + str(team) if team is not None else 'the match'} (player_stats)")
    # the kind asked about is said even of the match, where the answer's subject leaves it out
    said = wording.qualifier_phrase(plan.model_copy(update={"group_by": plan.group_by or ("match",)}))
    fact = F.Share(part=F.Amount(owner, metric, part, said + wording.condition_phrase(plan)),
                   bases=(F.Amount(owner, metric, total, " in all"),))
    out.add("share_of_total", fact, "high", CellRef(query_id=qid, rows=(0,), columns=(metric,)),
            CellRef(query_id=table, rows=(0,), columns=("total", "share_pct")))


def part_of_total(out: _Findings, qid: str, row, metric: str, plan: QueryPlan, derived: Derived, con) -> None:
    """A narrowed figure ("kills on O'Malley") as a share of the same player's whole figure."""
    player = row["player"]
    found = con.execute(f"SELECT {metric} FROM player_stats WHERE player = $p", {"p": player}).fetchone()
    if found is None or not metric_info(metric).additive or not found[0]:
        return
    total, part = float(found[0]), float(row[metric])
    table = f"total_{metric}"
    derived[table] = ([{"player": player, metric: part, "total": total, "share_pct": part / total * 100}],
                      f"{metric_info(metric).label} of {player} as asked, against their whole {metric} (player_stats)")
    owner = F.Entity("player", str(player))
    fact = F.Share(part=F.Amount(owner, metric, part, wording.qualifier_phrase(plan) + wording.condition_phrase(plan)),
                   bases=(F.Amount(owner, metric, total, " in all"),))
    out.add("share_of_total", fact, "high", CellRef(query_id=qid, rows=(0,), columns=("player", metric)),
            CellRef(query_id=table, rows=(0,), columns=("total", "share_pct")))


def own_share(out: _Findings, qid: str, row, dim: str | None, metrics, plan: QueryPlan, derived: Derived) -> bool:
    """"How much of X's damage went into gods": the part over the same subject's whole, both in the row; whether
    it was said (then no team or match base is, since the question named its base)."""
    if plan.shape != "share" or dim not in ("player", "team", "role", "god") or len(metrics) < 2 \
            or not is_part_of(*metrics[:2]):
        return False
    part_id, whole_id = metrics[:2]
    part, whole = row.get(part_id), row.get(whole_id)
    if not (is_number(part) and is_number(whole) and float(whole)):
        return False
    table = f"own_share_{part_id}"
    derived[table] = ([{dim: row.get(dim), part_id: part, whole_id: whole, "share_pct": float(part) / float(whole) * 100}],
                      f"{catalog_metric(part_id).label} of the {dim} asked about over their own "
                      f"{catalog_metric(whole_id).label} (the query's row)")
    owner = F.Entity(dim, str(row.get(dim)))
    fact = F.Share(part=F.Amount(owner, part_id, float(part), wording.scope(plan)),
                   bases=(F.Amount(owner, whole_id, float(whole), wording.scope(plan)),), window=window_key(plan))
    out.add("share_of_total", fact, "high", CellRef(query_id=qid, rows=(0,), columns=(dim, part_id, whole_id)),
            CellRef(query_id=table, rows=(0,), columns=("share_pct",)))
    return True


def team_share_findings(out: _Findings, team, metric: str, con, derived: Derived) -> None:
    """A team's figure as a share of the match's: "Team 2's 53 kills are 76.8% of the match's 69 kills"."""
    totals = dict(con.execute(f"SELECT team, sum({metric}) FROM player_stats GROUP BY team").fetchall())
    match_total = sum(float(v) for v in totals.values())
    if team not in totals or not match_total:
        return
    share = float(totals[team]) / match_total * 100
    table = f"team_share_{metric}"
    derived[table] = ([{"team": team, metric: totals[team], "match_total": match_total, "match_share_pct": share}],
                      f"{metric_info(metric).label} of team {team} against the match's total (player_stats)")
    fact = F.Share(part=F.Amount(F.Entity("team", str(team)), metric, float(totals[team])),
                   bases=(F.Amount(F.MATCH, metric, match_total),))
    out.add("share_of_team", fact, "high", CellRef(query_id=table, rows=(0,), columns=("match_share_pct",)))


def share_findings(out: _Findings, player: str, metric: str, context: list[dict], derived: Derived) -> None:
    """A player's figure as a share of their team's total and of the match's."""
    mine = next(c for c in context if c["player"] == player)
    team_total = sum(float(c[metric]) for c in context if c["team"] == mine["team"])
    match_total = sum(float(c[metric]) for c in context)
    if not team_total or not match_total:
        return
    table = f"share_{metric}"
    derived[table] = ([{"player": player, "team": mine["team"], metric: mine[metric], "team_total": team_total,
                        "team_share_pct": float(mine[metric]) / team_total * 100, "match_total": match_total,
                        "match_share_pct": float(mine[metric]) / match_total * 100}],
                      f"{metric_info(metric).label} of {player} against their team's and the match's totals (player_stats)")
    fact = F.Share(part=F.Amount(F.Entity("player", player), metric, float(mine[metric])),
                   bases=(F.Amount(F.Entity("team", str(mine["team"])), metric, team_total),
                          F.Amount(F.MATCH, metric, match_total)))
    out.add("share_of_team", fact, "high",
            CellRef(query_id=table, rows=(0,), columns=("team_share_pct", "match_share_pct")))


def _beside_whole(dim: str | None, valued) -> bool:
    """Windows side by side where one is the whole match: the others are parts of it, so no margin between them."""
    return dim == "period" and any(r.get("period") == WHOLE_MATCH for _, r in valued)


def comparison_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan) -> None:
    if len(rows) < 2 or not shape.metrics:
        return
    dim = shape.dimensions[0] if shape.dimensions else None
    for metric in shape.metrics:
        valued = [(i, r) for i, r in enumerate(rows) if is_number(r.get(metric))]
        # a figure only the planner uses (a team's kills counted for each of its players) is a base, not a finding
        if len(valued) < 2 or catalog_metric(metric).generated and catalog_metric(metric).kind == "figure" \
                and not catalog_metric(metric).is_derived:
            continue
        amounts = tuple(F.Amount(_owner(dim, r), metric, float(r[metric])) for _, r in valued)
        out.add("comparison", F.Values(figure=metric, values=amounts, said_window=window_phrase(plan),
                                       window=window_key(plan)), "high",
                CellRef(query_id=qid, rows=tuple(i for i, _ in valued), columns=tuple(c for c in (dim, metric) if c)))
        (hi_i, hi), (lo_i, lo) = max(valued, key=lambda x: x[1][metric]), min(valued, key=lambda x: x[1][metric])
        if float(hi[metric]) > float(lo[metric]) and not _beside_whole(dim, valued):
            margin = F.Margin(first=F.Amount(_owner(dim, hi), metric, float(hi[metric])),
                              second=F.Amount(_owner(dim, lo), metric, float(lo[metric])), window=window_key(plan),
                              said_window=window_phrase(plan))
            out.add("difference", margin, _significance(margin.percent or 0.0),
                    CellRef(query_id=qid, rows=(hi_i, lo_i), columns=(metric,)))


def gold_lead_findings(out: _Findings, qid: str, rows, plan: QueryPlan) -> None:
    """The team ahead at the last minute, and each team's biggest lead."""
    metric = "gold_diff"
    final = rows[-1]
    best1 = max(range(len(rows)), key=lambda i: rows[i][metric])
    best2 = min(range(len(rows)), key=lambda i: rows[i][metric])
    window = window_key(plan)
    out.add("final", F.GoldLead(team=1 if final[metric] > 0 else 2, minute=final["minute"], lead=final[metric],
                                window=window), "high",
            CellRef(query_id=qid, rows=(len(rows) - 1,), columns=("minute", metric)))
    for team, best, sign in ((1, best1, 1), (2, best2, -1)):
        if sign * rows[best][metric] > 0:
            out.add("peak", F.GoldLead(team=team, minute=rows[best]["minute"], lead=rows[best][metric], biggest=True,
                                       window=window), "medium",
                    CellRef(query_id=qid, rows=(best,), columns=("minute", metric)))


def series_findings(out: _Findings, rows, metric: str, series_dim: str, plan: QueryPlan, derived: Derived) -> None:
    """Which series led over the whole period."""
    totals: dict[Any, float] = {}
    for r in rows:
        if is_number(r.get(metric)):
            totals[r[series_dim]] = totals.get(r[series_dim], 0.0) + float(r[metric])
    table = f"series_totals_{metric}"
    ordered = sorted(totals.items(), key=lambda kv: -kv[1])
    derived[table] = ([{series_dim: k, metric: v} for k, v in ordered],
                      f"{metric_info(metric).label} summed over the minutes, per {series_dim}")
    if ordered:
        out.add("leader", F.Leader(top=F.Amount(F.entity(series_dim, ordered[0][0]), metric, ordered[0][1]),
                                   said_window=" over the period", window=window_key(plan)), "high",
                CellRef(query_id=table, rows=(0,), columns=(series_dim, metric)))


def timeline_findings(out: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan, derived: Derived) -> None:
    if not rows or not shape.metrics or "minute" not in rows[0]:
        return
    metric = shape.metrics[0]
    if metric == "gold_diff":
        gold_lead_findings(out, qid, rows, plan)
        return
    series_dim = next((d for d in shape.dimensions if d != "minute"), None)
    if series_dim:
        series_findings(out, rows, metric, series_dim, plan, derived)
    per_minute: dict[int, float] = {}
    for r in rows:
        if is_number(r.get(metric)):
            per_minute[r["minute"]] = per_minute.get(r["minute"], 0.0) + float(r[metric])
    if not per_minute:
        return
    if series_dim:
        table = f"minute_totals_{metric}"
        derived[table] = ([{"minute": m, metric: v} for m, v in sorted(per_minute.items())],
                          f"{metric_info(metric).label} per minute, all series summed")
        source, rows_ref = table, list(sorted(per_minute))
    else:
        source, rows_ref = qid, [r["minute"] for r in rows]
    peak = max(per_minute, key=lambda m: per_minute[m])
    out.add("peak", F.Peak(figure=metric, minute=peak, value=per_minute[peak], window=window_key(plan)), "high",
            CellRef(query_id=source, rows=(rows_ref.index(peak),), columns=("minute", metric)))
    minutes = sorted(per_minute)
    if len(minutes) >= 4:
        half = len(minutes) // 2
        out.add("trend", F.Trend(figure=metric, early=statistics.fmean(per_minute[m] for m in minutes[:half]),
                                 late=statistics.fmean(per_minute[m] for m in minutes[half:]), window=window_key(plan)),
                "medium", CellRef(query_id=source, rows=tuple(range(len(minutes))), columns=("minute", metric)))


def objective_noun(rows) -> str:
    """What the listed objectives are: their one kind ("tower", "Fire Giant"), or "objective"."""
    kinds = {str(r.get("objective") or "") for r in rows}
    if len(kinds) != 1:
        return "objective"
    kind = kinds.pop()
    targets = {str(r.get("target") or "") for r in rows}
    return targets.pop() if kind in ("gold fury", "fire giant") and len(targets) == 1 else kind or "objective"


def objective_findings(out: _Findings, qid: str, rows, plan: QueryPlan, derived: Derived) -> None:
    """How many of the listed objectives each team took (of how many, unless the list is one team's)."""
    counts = {t: sum(1 for r in rows if r.get("team") == t) for t in (1, 2)}
    table = "objective_counts"
    derived[table] = ([{"team": t, "objectives": n} for t, n in sorted(counts.items())],
                      "listed objectives counted per team")
    one_team = any(f.dimension == "team" for f in plan.filters)
    if plan.limit == 1:  # the first or the last: the answer names it and who took it
        return
    noun = objective_noun(rows)
    for i, (team, n) in enumerate(sorted(counts.items())):
        if n or not one_team:
            out.add("count", F.Tally(team=team, verb="took", noun=noun, count=n, of=None if one_team else len(rows),
                                     said_window=window_phrase(plan), window=window_key(plan)), "high",
                    CellRef(query_id=table, rows=(i,), columns=("team", "objectives")))


def event_findings(out: _Findings, qid: str, rows, plan: QueryPlan, derived: Derived, roster) -> None:
    if not rows:
        return
    cols = set(rows[0])
    team_of = {p["player"]: p["team"] for p in roster}
    if "winner_team" in cols:
        out.add("winner", F.Winner(team=rows[0]["winner_team"]), "high",
                CellRef(query_id=qid, rows=(0,), columns=("winner_team",)))
    elif {"killer", "victim", "match_second"} <= cols and "objective" not in cols and "first_blood" in plan.metrics:
        first = rows[0]
        out.add("first_blood", F.FirstBlood(killer=first["killer"], killer_team=team_of.get(first["killer"]),
                                            victim=first["victim"], second=first["match_second"]), "high",
                CellRef(query_id=qid, rows=(0,), columns=("killer", "victim", "match_second")))
    elif "objective" in cols:
        objective_findings(out, qid, rows, plan, derived)


def build_findings(out: _Findings, qid: str, rows, plan: QueryPlan) -> None:
    if plan.limit is not None and len(rows) >= plan.limit:
        return  # the rows may be cut ("his first 3 items"): how many a player bought in all is not in them
    if any(f.dimension == "item" for f in plan.filters):
        return  # the purchases of some items only, not a player's build
    by_player: dict[Any, list[int]] = {}
    for i, r in enumerate(rows):
        by_player.setdefault(r.get("player"), []).append(i)
    for player, indexes in by_player.items():
        items = tuple(str(rows[i].get("item")) for i in indexes)
        out.add("build", F.Build(player=str(player), items=items, window=plan.window.label if plan.window else None,
                                 said_window=window_phrase(plan)), "high",
                CellRef(query_id=qid, rows=tuple(indexes), columns=("player", "seq", "item")))


# -- what the question is about, and which patterns bear on it -------------------------------------------------


def asked_of(plan: QueryPlan, rows) -> F.Asked:
    """The question's subjects (the entities it names and those its answer leads with), figures and window."""
    subjects: set[F.Entity] = set()
    figures: set[str] = set()
    for _, step in plan.steps():
        figures.update(step.metrics)
        figures.update(p for m in step.metrics if (p := catalog_metric(m).pattern))
        subjects.update(F.Entity("player", f) for f in step.focus if not f.startswith("$"))
        subjects.update(F.entity(f.dimension, v) for f in step.filters if f.op != "!=" for v in f.values
                        if not str(v).startswith("$"))
    subjects.update(lead_entities(plan, rows[0] if rows else {}))
    named = {F.entity(f.dimension, v) for f in plan.filters if f.op != "!=" for v in f.values
             if not str(v).startswith("$")}
    named |= {F.Entity("player", f) for f in plan.focus if not f.startswith("$")}
    return F.Asked(subjects=frozenset(e.key for e in subjects), figures=frozenset(figures), window=window_key(plan),
                   narrowed=frozenset(e.key for e in named) if qualified(plan) else frozenset())


def lead_entities(plan: QueryPlan, first: dict[str, Any]) -> list[F.Entity]:
    """Whom or what the answer's first row is about: the winner (of a question about who won), the killer and
    the victim of a kill, the objective that fell (not the team that took it), or the row's player, team, role,
    god or attacker."""
    if "winner" in plan.metrics and first.get("winner_team") is not None:
        return [F.entity("team", first["winner_team"])]
    if first.get("objective") is not None:
        return [F.Entity("objective", str(first.get("target") or first["objective"]))]
    if first.get("killer") is not None or first.get("victim") is not None:
        return [F.Entity("player", str(first[c])) for c in ("killer", "victim") if first.get(c) is not None]
    column = next((c for c in ("player", "team", "role", "god", "source") if first.get(c) is not None), None)
    return [F.entity(column, first[column])] if column else []


def _unknown_winner(plan: QueryPlan, rows) -> bool:
    return "winner" in plan.metrics and bool(rows) and "winner_team" in rows[0] and rows[0]["winner_team"] is None


def wanted_patterns(plan: QueryPlan, rows) -> tuple[tuple[str, ...], str | None]:
    """Which match patterns may bear on this question (each is kept only if its facts do), and whose deaths to
    recap. A windowed question has none: the patterns are of the whole match."""
    asked = [p for m in plan.metrics if catalog_metric(m).kind == "pattern" and (p := catalog_metric(m).pattern)]
    if asked:
        # a pattern question ("which fights decided the game") is answered by that pattern
        recap = plan.focus[0] if "death_recap" in asked and plan.focus else None
        return tuple(a for a in asked if a != "death_recap"), recap
    if window_key(plan) is not None:
        return (), None
    metrics = set(plan.metrics)
    if _unknown_winner(plan, rows):
        return (), None  # an unknown winner is said so (METRICS.md); who was ahead would read as a guess at it
    names: list[str] = []
    cols = set(rows[0]) if rows else set()
    if metrics & KILL_METRICS or {"killer", "victim"} <= cols:
        names += [n for n in ("first_blood", "kill_streaks") if not (n == "first_blood" and "first_blood" in metrics)]
    if metrics & MATCH_FLOW_METRICS or "objective" in cols:
        # a list of the objectives already says who took them
        names += ["gold_swing"] if "objective" in cols else ["objective_timeline", "gold_swing"]
    recap = None
    if metrics & {"deaths", "damage_taken"} and plan.focus:
        recap = plan.focus[0]
    elif "first_blood" in metrics and rows and rows[0].get("victim"):
        recap = rows[0]["victim"]
    return tuple(dict.fromkeys(names)), recap


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


def _result_findings(out: _Findings, comparisons: _Findings, qid: str, rows, shape: Shape, plan: QueryPlan,
                     derived: Derived, roster, con) -> None:
    intent = plan.intent
    if intent in (Intent.RANKING, Intent.BREAKDOWN):
        ranking_findings(out, qid, rows, shape, plan, derived, roster)
        window_findings(out, qid, rows, shape, plan, derived, con)
    elif intent == Intent.LOOKUP:
        lookup_findings(out, qid, rows, shape, plan, derived, con)
    elif intent == Intent.COMPARISON:
        comparison_findings(comparisons, qid, rows, shape, plan)
        if len(rows) < 2:
            lookup_findings(out, qid, rows, shape, plan, derived, con)
    elif intent == Intent.TIMELINE:
        timeline_findings(out, qid, rows, shape, plan, derived)
    elif intent == Intent.EVENT_LIST and not (set(plan.metrics) & {"death_recap"}):
        event_findings(out, qid, rows, plan, derived, roster)
    elif intent == Intent.BUILD_ORDER and rows:
        build_findings(out, qid, rows, plan)


def _pattern_findings(con, plan: QueryPlan, rows, derived: Derived, asked: F.Asked,
                      errors: list[ErrorEntry]) -> list[Finding]:
    names, recap_player = wanted_patterns(plan, rows)
    try:
        found = match_patterns.match_patterns(con, names, death_recap_player=recap_player,
                                              recap_shown=RECAP_SHOWN if "death_recap" in plan.metrics else 0)
    except Exception as exc:  # noqa: BLE001 - patterns are context; the answer stands without them
        errors.append(ErrorEntry(stage=STAGE, error_type="pattern_error", description=str(exc),
                                 recovery_action="answer given without match patterns"))
        return []
    kept: list[Finding] = []
    for p in found:
        table = f"pattern_{p.id}"
        if p.id == "team_fights" and plan.window is not None:
            # the fights that began in the window asked; the pattern's facts count the whole match's, so none is kept
            inside = in_window(con, plan)
            derived[table] = ([dict(r) for r in p.rows if inside(r["start_second"])],
                              f"match pattern: {p.kind} (patterns.{p.id}), begun in the window")
            continue
        derived[table] = ([dict(r) for r in p.rows], f"match pattern: {p.kind} (patterns.{p.id})")
        if any(F.bears_on(fact, asked) for fact in p.facts):
            kept.append(Finding(id=f"p{len(kept) + 1}", kind=p.kind, description=p.description,
                                significance=p.significance,
                                supporting_data=(CellRef(query_id=table, rows=tuple(range(len(p.rows))),
                                                         columns=p.columns),)))
    return kept


def in_window(con, plan: QueryPlan) -> Callable[[int], bool]:
    """Whether a match second is in the plan's window (METRICS.md's windows, as the SQL reads them)."""
    window = plan.window
    if window is None:
        return lambda second: True
    starts = [window.start_s] if window.start_s is not None else []
    if window.from_end_s is not None:
        starts.append(con.execute("SELECT duration_s FROM matches").fetchone()[0] - window.from_end_s)
    lo, hi = max(starts, default=None), window.end_s
    return lambda second: (lo is None or second >= lo) and (hi is None or second < hi)


def _timeline_tables(con, plan: QueryPlan, rows, derived: Derived) -> None:
    """Player kills and deaths to the map over time, and the objectives: the answer's own objective rows, or
    else every objective; all in the answer's window."""
    inside = in_window(con, plan)
    derived["kill_events"] = ([{"match_second": k["match_second"], "killer_team": k["killer_team"]}
                               for k in match_patterns.player_kills(con) if inside(k["match_second"])],
                              "player kills over time (kills table)")
    derived["map_deaths"] = ([{"match_second": d["match_second"], "victim_team": d["victim_team"], "killer": d["killer"]}
                              for d in match_patterns.deaths_to_the_map(con) if inside(d["match_second"])],
                             "deaths of players to non-players over time (kills table)")
    first = rows[0] if rows else {}
    if "objective" in first and "match_second" in first:
        listed = rows
    else:
        timeline = match_patterns.objective_timeline(con)
        listed = [r for r in (timeline.rows if timeline else ()) if inside(r["match_second"])]
    derived["objective_events"] = ([{k: r.get(k) for k in ("match_second", "objective", "target", "team")}
                                    for r in listed], "objectives over time")


def _chart_tables(con, plan: QueryPlan, rows, derived: Derived) -> None:
    """What the match-level charts draw: the kills, deaths and objectives over time, the gold curve and where
    players died."""
    first = rows[0] if rows else {}
    if plan.intent not in (Intent.TIMELINE, Intent.EVENT_LIST) and "winner_team" not in first or "duration_s" in first:
        return
    _timeline_tables(con, plan, rows, derived)
    if plan.intent == Intent.TIMELINE:
        return
    if "winner_team" in first:
        derived["gold_curve"] = ([dict(zip(("minute", "gold_diff"), r, strict=True)) for r in con.execute(
            "SELECT minute, gold_diff FROM gold_diff ORDER BY minute").fetchall()],
            "team gold difference per minute (gold_diff table)")
    if set(plan.metrics) & KILL_METRICS or "victim" in first:
        extent = match_patterns.map_extent(con)
        inside = in_window(con, plan)
        positions = [p for p in match_patterns.kill_positions(con) if inside(p["match_second"])]
        if extent and positions:
            derived["kill_positions"] = (positions, "where each player died (kills table)")
            derived["map_extent"] = ([extent], "the map extent seen in damage locations")


def analyst(pkg: AgentDataPackage, env: StageEnv) -> AgentDataPackage:
    started = datetime.now(timezone.utc)
    result, rows = primary_rows(pkg, env)
    plan = primary_step(pkg.plan, result)
    if plan is None or plan.intent == Intent.REFUSE or result is None or result.status != "ok" or pkg.data is None:
        return pkg.next_version(stage=STAGE, started=started, status="skipped", analysis=AnalysisSection())
    errors: list[ErrorEntry] = []
    qid = result.query_id
    shape = result_shape(rows, list(result.column_types), plan)
    derived: Derived = {}
    findings, comparisons = _Findings(), _Findings()
    asked = asked_of(plan, rows)
    con = env.connect()
    try:
        roster = [dict(zip(("player", "team", "role", "god"), r, strict=True)) for r in con.execute(
            "SELECT player, team, role, god FROM players ORDER BY team, player").fetchall()]
        derived["roster"] = (roster, "the match roster (players table)")
        _result_findings(findings, comparisons, qid, rows, shape, plan, derived, roster, con)
        pattern_findings = _pattern_findings(con, plan, rows, derived, asked, errors)
        if not env.answer_only:  # the words alone draw no chart (a follow-up, `ask --answer-only`)
            _chart_tables(con, plan, rows, derived)
    finally:
        con.close()

    tables = {name: derived_table(table_rows, description, env) for name, (table_rows, description) in derived.items()}
    charts = chart_rules.recommend_charts(plan, qid, rows, shape, derived)
    data = pkg.data.model_copy(update={"transformed_data": {**pkg.data.transformed_data, **tables}})
    # the findings are read from the answer's own rows (or, for context, its owner's whole figure): all bear on it
    analysis = AnalysisSection(key_findings=findings.all(), patterns=tuple(pattern_findings),
                               comparisons=comparisons.all(), recommended_visualizations=tuple(charts))
    return pkg.next_version(stage=STAGE, started=started, new_errors=errors, analysis=analysis, data=data)


__all__ = ["analyst", "asked_of", "primary_step", "wanted_patterns", "window_key"]
