"""Cross-match answers: a plan's `SeasonFigure` run through `season.figures`, as a result table, the matches it
read, and the sentence that answers the question.

The figures are exactly those of `season.figures` (docs/season.md); this module only lays them out as rows for the
package and words them. Every statement the figures run goes through `validate_sql` first and then the
locked query connection (`ValidatedConnection`), like any planned SQL.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlglot

from combat_analysis.contracts.plan import ManyMatches, QueryPlan, SeasonFigure
from combat_analysis.contracts.selection import AllMatches, LastMatches, MatchSelection, describe
from combat_analysis.formatting import count, number, percent
from combat_analysis.season import figures as season
from combat_analysis.season.figures import MatchInfo, metric_label
from combat_analysis.warehouse.gate import validate_sql


@dataclass
class ValidatedConnection:
    """The locked connection for the season figures: each statement validated as planned SQL is, and kept
    (with its parameter names) so the package records the SQL that produced the figures."""

    con: Any
    statements: list[str] = field(default_factory=list)

    def execute(self, sql: str, params: Mapping[str, Any] | None = None):
        sql = bounded(sql, self.con.limits.max_rows)
        validate_sql(sql, parameters=frozenset(params or {}))
        self.statements.append(" ".join(sql.split()))
        return self.con.execute(sql, params)


def bounded(sql: str, max_rows: int) -> str:
    """The statement with a LIMIT on its outermost query, as every planned statement has: the season figures
    return one row per player, god or match, so the row cap (`QueryLimits.max_rows`) bounds them."""
    if sqlglot.parse_one(sql, read="duckdb").args.get("limit") is not None:
        return sql
    return f"{sql.rstrip()}\nLIMIT {max_rows}"


@dataclass(frozen=True)
class FigureTable:
    columns: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]
    matches: tuple[MatchInfo, ...]  # the matches the figure read, in start order
    statements: tuple[str, ...]


def _pct(rate: float | None) -> float | None:
    return None if rate is None else round(rate * 100, 1)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat(sep=" ") if moment else None


def _record(record: season.Record) -> dict[str, Any]:
    return {"matches": record.games, "wins": record.wins, "losses": record.losses,
            "unknown_results": record.unknown_results, "win_rate_pct": _pct(record.win_rate)}


def figure_table(con: Any, plan: QueryPlan) -> FigureTable:
    """Run the plan's season figure over its selection and lay it out as rows (see the module docstring)."""
    figure = plan.season
    assert figure is not None and isinstance(plan.scope, ManyMatches)
    selection = plan.scope.selection
    checked = ValidatedConnection(con)
    matches = season.selected_matches(checked, selection)
    rows = _ROWS[figure.figure](checked, figure, selection, plan)
    columns = tuple(dict.fromkeys(c for row in rows for c in row))
    return FigureTable(columns=columns, rows=tuple(rows), matches=matches, statements=tuple(checked.statements))


def _leaderboard(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    metric = figure.metric or "damage_dealt"
    statistic: season.Statistic = "average" if figure.statistic == "average" else "total"
    board = season.leaderboard(con, metric, selection, statistic=statistic, order=plan.order,
                               limit=max(plan.limit, plan.position), min_matches=figure.min_matches)
    value = "value" if metric == "matches" else metric
    return [{"rank": r.rank, "player": r.player, "matches": r.matches,
             **({} if metric == "matches" else
                {value: _pct(r.value) if metric == "win_rate" else r.value})} for r in board.rows]


def _profiles(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    metric = figure.metric or "damage_dealt"
    best_by = metric if metric in season.PLAYER_METRICS else "damage_dealt"
    rows = []
    for player in figure.players:
        profile = season.player_profile(con, player, selection, best_by=best_by)
        row: dict[str, Any] = {"player": profile.player, **_record(profile.record)}
        if best_by in season.ADDITIVE_METRICS:
            row[f"total_{best_by}"] = profile.totals[best_by]
        row[f"average_{best_by}"] = profile.averages[best_by]
        if best_by == "kda":
            row["overall_kda"] = profile.overall_kda
        row.update({"best_match_id": profile.best_match.match_id, "best_value": profile.best_match.value,
                    "worst_match_id": profile.worst_match.match_id, "worst_value": profile.worst_match.value})
        rows.append(row)
    return rows


def _groups(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    found = (season.god_stats(con, selection, role=figure.role) if figure.group == "god"
             else season.role_stats(con, selection))
    rows = [{figure.group or "god": g.name, **_record(g.record), "players": g.players,
             "average_kda": g.average_kda, "average_damage": g.average_damage, "average_gold": g.average_gold}
            for g in found]
    if figure.by != "games":
        key = "win_rate_pct" if figure.by == "win_rate" else figure.by
        sign = -1 if plan.order == "desc" else 1
        rows.sort(key=lambda r: (r[key] is None, sign * (r[key] or 0), -r["matches"], str(r[figure.group or "god"])))
    elif plan.order == "asc":
        rows.sort(key=lambda r: (r["matches"], str(r[figure.group or "god"])))
    return rows


def _head_to_head(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    a, b = figure.players
    h = season.head_to_head(con, a, b, selection)
    return [{"player_a": h.player_a, "player_b": h.player_b, "matches_together": h.matches_together,
             "as_teammates": h.as_teammates, "teammate_wins": h.teammate_wins, "teammate_losses": h.teammate_losses,
             "as_opponents": h.as_opponents, "wins_a": h.wins_a, "wins_b": h.wins_b,
             "opponent_unknown_results": h.opponent_unknown_results, "kills_a_on_b": h.kills_a_on_b,
             "kills_b_on_a": h.kills_b_on_a}]


def _trend(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    metric = figure.metric or "kda"
    trend = season.player_trend(con, figure.players[0], [metric], selection)
    return [{"match_id": p.match_id, "started_at": _iso(p.started_at), "result": p.result, "god": p.god,
             "role": p.role, metric: p.values[metric]} for p in trend.points]


_ROWS = {"leaderboard": _leaderboard, "profile": _profiles, "groups": _groups, "head_to_head": _head_to_head,
         "trend": _trend}


# --- words ----------------------------------------------------------------------------------------------------


def _value(metric: str, value: Any, statistic: str) -> str:
    """A season figure as an answer states it: a win rate as a percentage, totals and counts whole, averages
    with up to two decimals."""
    if metric == "win_rate":
        return percent(value)
    if statistic == "total" or metric in ("matches", "wins"):
        return number(value, 0)
    return number(value, 2)


def scope_phrase(selection: MatchSelection, matches: int) -> str:
    """'Across all 24 matches', "Over VoidWalker's last 10 matches (10 found)"."""
    if isinstance(selection, AllMatches):
        return f"Across all {matches:,} matches"
    if isinstance(selection, LastMatches):
        return f"Over {describe(selection)} ({matches:,} found)"
    return f"Over {describe(selection)} ({count(matches, 'match')})"


def answer_text(plan: QueryPlan, rows: list[dict[str, Any]], matches: int) -> str:
    """The direct answer to a cross-match plan from its rows (`figure_table`) and the number of matches it
    read; the figures as `season.py` computed them."""
    figure = plan.season
    assert figure is not None and isinstance(plan.scope, ManyMatches)
    lead = scope_phrase(plan.scope.selection, matches)
    if not rows and matches and figure.figure == "leaderboard" and figure.metric == "win_rate":
        # a win rate counts decided games only (docs/season.md); say why there is none instead of "no data"
        return (f"{lead}: no win rate can be given, as none of these matches has a known winner "
                "(the log records no Titan kill).")
    among = f" among the players with at least {figure.min_matches:,} matches" if figure.min_matches > 1 else ""
    if not rows and among:
        return f"{lead}: no player has played at least {figure.min_matches:,} of them."
    if not rows:
        return f"{lead}: no matching data was found."
    return f"{lead}{among and ','}{among}, " + _SENTENCES[figure.figure](plan, figure, list(rows))


def _leader_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[dict[str, Any]]) -> str:
    metric = figure.metric or "damage_dealt"
    column = "matches" if metric == "matches" else metric
    wanted = min(plan.position, len(rows))
    row = rows[wanted - 1]
    most = "the fewest" if plan.order == "asc" else "the most"
    if metric == "win_rate":
        most = "the lowest" if plan.order == "asc" else "the highest"
    rank = {1: "", 2: "second ", 3: "third ", 4: "fourth ", 5: "fifth "}.get(wanted, f"number {wanted}: ")
    label = metric_label(metric)
    if figure.statistic == "average":
        what = (f"had the {rank}{'lowest' if plan.order == 'asc' else 'highest'} per-match average {label}: "
                f"{_value(metric, row[column], 'average')} (the mean of per-match figures over "
                f"{row['matches']:,} matches)")
    elif figure.statistic == "record":
        what = f"had {rank}{most} {label}: {_value(metric, row[column], 'record')}"
        if metric != "matches":
            what += f" over {row['matches']:,} matches"
    else:
        what = (f"had {rank}{most} {label}: {_value(metric, row[column], 'total')} in total over "
                f"{row['matches']:,} matches")
    sentence = f"{row['player']} {what}."
    others = [r for r in rows if r is not row][:1] if wanted == 1 else []
    if others:
        sentence += f" Next: {others[0]['player']} with {_value(metric, others[0][column], figure.statistic)}."
    return sentence


def _profile_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[dict[str, Any]]) -> str:
    metric = figure.metric or "damage_dealt"
    best_by = metric if metric in season.PLAYER_METRICS else "damage_dealt"
    label = metric_label(best_by)
    parts = []
    for row in rows:
        record = (f"{row['player']} played {row['matches']:,} matches: {row['wins']:,} wins, {row['losses']:,} "
                  f"losses, {row['unknown_results']:,} with no winner (win rate "
                  f"{_value('win_rate', row['win_rate_pct'], 'record')})")
        average = f"{number(row[f'average_{best_by}'], 2)} per match (the mean of per-match figures)"
        figures = (f"{label[:1].upper() + label[1:]}: {number(row[f'total_{best_by}'], 0)} in total, {average}"
                   if f"total_{best_by}" in row else f"{label[:1].upper() + label[1:]}: {average}")
        if "overall_kda" in row:
            figures += f"; overall KDA {number(row['overall_kda'], 2)}"
        best = (f"best match by {label}: {row['best_match_id']} ({number(row['best_value'], 2)}); worst: "
                f"{row['worst_match_id']} ({number(row['worst_value'], 2)})")
        if figure.best == "worst":
            best = (f"worst match by {label}: {row['worst_match_id']} ({number(row['worst_value'], 2)}); best: "
                    f"{row['best_match_id']} ({number(row['best_value'], 2)})")
        if figure.best is not None:
            parts.append(f"{row['player']}'s {best}. {record}. {figures}.")
        elif metric in ("win_rate", "wins", "matches"):
            parts.append(f"{record}.")
        elif figure.statistic == "average":
            parts.append(f"{row['player']}'s per-match average {label} was {number(row[f'average_{best_by}'], 2)} "
                         f"(the mean of per-match figures over {row['matches']:,} matches). {best[:1].upper() + best[1:]}.")
        else:
            parts.append(f"{record}. {figures}; {best}.")
    return " ".join(parts)


def _groups_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[dict[str, Any]]) -> str:
    name = figure.group or "god"
    where = f" in the {figure.role} role" if figure.role else ""
    by = {"games": "most played", "win_rate": "by win rate", "average_kda": "by average KDA",
          "average_damage": "by average damage", "average_gold": "by average gold"}[figure.by]
    # the figure the list is ordered by is always shown, with the record beside it
    ordered_by = {"average_damage": ("average damage", "average_damage"),
                  "average_gold": ("average gold", "average_gold")}.get(figure.by)
    shown = []
    for row in rows[:3]:
        extra = f"; {ordered_by[0]} {number(row[ordered_by[1]], 2)}" if ordered_by and ordered_by[1] in row else ""
        shown.append(f"{row[name]} ({_value('win_rate', row['win_rate_pct'], 'record')} win rate over "
                     f"{row['matches']:,} games, {row['wins']:,} wins; average KDA {number(row['average_kda'], 2)}"
                     f"{extra})")
    return f"the {name}s{where}, {by}: " + "; ".join(shown) + f". {len(rows):,} {name}s in all."


def _h2h_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[dict[str, Any]]) -> str:
    h = rows[0]
    a, b = h["player_a"], h["player_b"]
    if not h["matches_together"]:
        return f"{a} and {b} never played in the same match."
    return (f"{a} and {b} played {h['matches_together']:,} matches together: {h['as_teammates']:,} as teammates "
            f"({h['teammate_wins']:,} won, {h['teammate_losses']:,} lost) and {h['as_opponents']:,} as opponents "
            f"({a}'s team won {h['wins_a']:,}, {b}'s {h['wins_b']:,}, {h['opponent_unknown_results']:,} with no "
            f"winner). {a} killed {b} {h['kills_a_on_b']:,} times; {b} killed {a} {h['kills_b_on_a']:,} times.")


def _trend_sentence(plan: QueryPlan, figure: SeasonFigure, rows: list[dict[str, Any]]) -> str:
    metric = figure.metric or "kda"
    label = metric_label(metric)
    player = figure.players[0]
    first, last = rows[0], rows[-1]
    values = [r[metric] for r in rows if r[metric] is not None]
    best = max(rows, key=lambda r: r[metric] if r[metric] is not None else float("-inf"))
    worst = min(rows, key=lambda r: r[metric] if r[metric] is not None else float("inf"))
    if len(rows) == 1:
        return f"{player} played one match: {label} {number(first[metric], 2)} in {first['match_id']}."
    move = "rose" if last[metric] > first[metric] else "fell" if last[metric] < first[metric] else "held"
    return (f"{player}'s {label} {move} from {number(first[metric], 2)} in {first['match_id']} to {number(last[metric], 2)} in "
            f"{last['match_id']} over {len(rows):,} matches; mean {number(sum(values) / len(values), 2)}, best "
            f"{number(best[metric], 2)} ({best['match_id']}), worst {number(worst[metric], 2)} ({worst['match_id']}).")


_SENTENCES = {"leaderboard": _leader_sentence, "profile": _profile_sentence, "groups": _groups_sentence,
              "head_to_head": _h2h_sentence, "trend": _trend_sentence}
