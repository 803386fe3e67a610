"""Cross-match answers as tables: a plan's `SeasonFigure` run through `season.figures` and `season.boards`, laid
out as result rows, with the matches it read. `season.wording` words the rows.

The figures are exactly those of `season.figures` and `season.boards` (docs/season.md); this module only lays them
out as rows for the package. Every statement the figures run goes through `validate_sql` first and then the
locked query connection (`ValidatedConnection`), like any planned SQL.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import sqlglot

from combat_analysis.contracts.plan import ManyMatches, QueryPlan, SeasonFigure
from combat_analysis.contracts.selection import AllMatches, MatchSelection
from combat_analysis.season import boards
from combat_analysis.season import figures as season
from combat_analysis.season.chains import chain_rows
from combat_analysis.season.figures import MatchInfo
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


@functools.lru_cache(maxsize=512)  # a few dozen statements, each parsed once per process
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
    return None if rate is None else round(rate * 100, 2)


def _shares(row: boards.BoardRow, which: str) -> dict[str, float]:
    """The wins' (or losses') share of the games with a winner and of all games, in percent to 0.01: both bases,
    as a game without a winner (no Titan fell) is in one and not the other."""
    decided, counted = row.wins + row.losses, getattr(row, which)
    if not decided:
        return {}
    return {"decided_games": decided, f"{which}_of_decided_pct": round(100 * counted / decided, 2),
            f"{which}_of_all_pct": round(100 * counted / row.games, 2)}


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
    if figure.metric == "kill_chains":  # the chains the question defined (season/chains.py)
        rows = chain_rows(checked, figure, matches)
    else:
        rows = _ROWS[figure.figure](checked, figure, selection, plan)
    columns = tuple(dict.fromkeys(c for row in rows for c in row))
    return FigureTable(columns=columns, rows=tuple(rows), matches=matches, statements=tuple(checked.statements))


def value_column(metric: str) -> str:
    """The column a board's figure is in: a record figure is one of the record's own columns."""
    return {"matches": "matches", "wins": "wins", "losses": "losses", "win_rate": "win_rate_pct"}.get(metric, metric)


def _board_row(row: boards.BoardRow, q: boards.BoardQuery, qualifies: bool | None) -> dict[str, Any]:
    out: dict[str, Any] = {"rank": row.rank if qualifies is not False else None, q.subject: row.name,
                           "matches": row.games, "wins": row.wins, "losses": row.losses,
                           "unknown_results": row.unknown_results,
                           "win_rate_pct": _pct(row.wins / (row.wins + row.losses)) if row.wins + row.losses else None}
    if q.figure in ("wins", "losses"):
        out.update(_shares(row, q.figure))
    if q.figure == "win_rate":
        out["win_rate_pct"] = _pct(row.value)
    elif q.figure not in boards.RECORD_FIGURES:
        out[q.figure] = row.value
        game = boards.GAME_FIGURES[q.figure]
        if game.kind == "sum" and q.statistic != "total":
            out[f"total_{q.figure}"] = row.total
        if q.statistic != "average":
            out[f"average_{q.figure}"] = row.average
        if row.pooled is not None:
            out[f"pooled_{q.figure}"] = row.pooled
        if q.statistic in ("max", "min"):
            out.update({"match_id": row.match_id, "started_at": _iso(row.started_at)})
    if qualifies is not None:
        out["qualifies"] = qualifies
    return out


def board_query(figure: SeasonFigure, plan: QueryPlan) -> boards.BoardQuery:
    """The board a plan asks for: its subject, figure, statistic, filters, order, and the minimum of games."""
    statistic = "record" if figure.metric in boards.RECORD_FIGURES else figure.statistic
    filters = boards.Filters(player=figure.players[0] if figure.players else None, god=figure.god, role=figure.role,
                             side=figure.side, versus=figure.versus, result=figure.result, named=figure.named)
    return boards.BoardQuery(subject=figure.subject, figure=figure.metric or "kills", statistic=statistic,  # type: ignore[arg-type]
                             filters=filters, order=plan.order, limit=max(plan.limit, plan.position),
                             min_games=figure.min_matches)


def _board(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    q = board_query(figure, plan)
    found = boards.board(con, q, selection)
    judged = True if q.min_games > 1 else None
    rows = [_board_row(r, q, judged) for r in found.rows]
    if q.figure == "biggest_hit" and q.statistic == "max" and q.subject == "player":
        for row in rows:  # a single hit is said with what landed it and on whom
            row["hit_with"], row["hit_target"] = boards.hit_of(con, row["match_id"], row["player"], row["biggest_hit"])
    if rows and len(found.rows) == 1:
        rows[0].update(_beside(con, q, selection, together_asked(plan, q.figure)))
    elif rows and q.statistic == "total" and q.figure in boards.EVENT_COUNTS and not figure.none:
        rows[0].update(_board_total(con, q, selection))
    return rows + [_board_row(r, q, False) for r in found.below_minimum] + _without_games(figure, found)


def entry_name(subject: str, named: str) -> str:
    """A named entry as its board row names it: a side as 'Order (team 1)', a god or role as it was named."""
    return boards.side_name(named) if subject == "side" else named


def _without_games(figure: SeasonFigure, found: boards.Board) -> list[dict[str, Any]]:
    """The entries named and compared that have no game in the selection, as rows of 0 games (not ranked)."""
    held = {str(r.name).casefold() for r in (*found.rows, *found.below_minimum)}
    missing = (entry_name(figure.subject, n) for n in figure.named)
    return [{"rank": None, figure.subject: name, "matches": 0, "wins": 0, "losses": 0, "unknown_results": 0,
             "win_rate_pct": None, "qualifies": False} for name in missing if name.casefold() not in held]


def together_asked(plan: QueryPlan, first: str) -> tuple[str, ...]:
    """The figures asked beside the first that add up with it (objective kinds, each counted on its own: the
    planner's `together`), so their sum is said too; () for one figure."""
    kinds = tuple(m for m in plan.metrics if m in boards.GAME_FIGURES and m in boards.COUNTED_TOGETHER)
    return tuple(m for m in kinds if m != first) if first in kinds and len(kinds) > 1 else ()


def _board_total(con, q: boards.BoardQuery, selection: MatchSelection) -> dict[str, Any]:
    """The total a board of a count ranks: every entry's games together, whatever its minimum of games or length."""
    everyone = boards.board(con, replace(q, limit=100_000, min_games=1), selection).rows
    return {"board_total": int(sum(r.total or 0 for r in everyone)), "board_games": sum(r.games for r in everyone)}


def _beside(con, q: boards.BoardQuery, selection: MatchSelection, others: Sequence[str]) -> dict[str, Any]:
    """One entry's other figures asked with the first, over the same games (the same filters), and their sum."""
    if not others:
        return {}
    row: dict[str, Any] = {}
    total = 0.0
    for other in others:
        entry = boards.board(con, replace(q, figure=other, statistic="total"), selection).rows[0]
        row.update({f"total_{other}": entry.total, f"average_{other}": entry.average})
        total += entry.total or 0
    if boards.adds_up((q.figure, *others)):
        first = boards.board(con, replace(q, statistic="total"), selection).rows[0]
        row["together"] = int(total + (first.total or 0))
    return row


def _matches(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    metric = figure.metric or "kills"
    ranked = boards.rank_matches(con, metric, selection, order=plan.order, limit=max(plan.limit, plan.position))
    return [{"rank": m.rank, "match_id": m.match_id, "started_at": _iso(m.started_at), metric: m.value,
             "duration_s": m.duration_s, "winner_team": m.winner_team, **m.details} for m in ranked]


def _undecided(con, selection: MatchSelection) -> list[dict[str, Any]]:
    """The selected matches with no winner (no Titan fell), by their number among all the warehouse's matches."""
    numbers = {m.match_id: n for n, m in enumerate(season.selected_matches(con, AllMatches()), start=1)}
    selected = season.selected_matches(con, selection)
    return [{"game_number": numbers.get(m.match_id), "match_id": m.match_id, "started_at": _iso(m.started_at),
             "duration_s": m.duration_s, "winner_team": m.winner_team, "of_matches": len(selected)}
            for m in selected if m.winner_team is None]


def _season(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    if figure.result == "unknown":
        return _undecided(con, selection)
    metric = figure.metric or "matches"
    if metric == "matches" or metric in boards.SEASON_COUNTS:
        found = season.selected_matches(con, selection)
        row: dict[str, Any] = {"matches": len(found), "first_started_at": _iso(found[0].started_at) if found else None,
               "last_started_at": _iso(found[-1].started_at) if found else None}
        if metric in boards.SEASON_COUNTS:
            counts = boards.season_counts(con, selection)
            row.update({"players": counts.players, "gods": counts.gods, "player_games": counts.player_games})
        return [row]
    v = boards.season_value(con, metric, selection)
    row = {"matches": v.matches, "counted": v.counted, f"total_{metric}": v.total, f"average_{metric}": v.average,
           f"highest_{metric}": v.highest, f"lowest_{metric}": v.lowest}
    others = together_asked(plan, metric)
    for other in others:  # kinds of event asked together: each one's total and mean, and their sum
        w = boards.season_value(con, other, selection)
        row.update({f"total_{other}": w.total, f"average_{other}": w.average})
    if others and boards.adds_up((metric, *others)):
        row["together"] = int(sum(row[f"total_{m}"] or 0 for m in (metric, *others)))
    if boards.MATCH_FIGURES[metric].kind == "time" and v.average is not None:
        row[f"average_{metric}_minutes"] = v.average / 60  # a mean length is also said in minutes
    for also in also_asked(plan, metric):  # another match figure asked in the same question, over the same matches
        w = boards.season_value(con, also, selection)
        row.update({f"counted_{also}": w.counted, f"total_{also}": w.total, f"average_{also}": w.average,
                    f"highest_{also}": w.highest, f"lowest_{also}": w.lowest})
        if boards.MATCH_FIGURES[also].kind == "time" and w.average is not None:
            row[f"average_{also}_minutes"] = w.average / 60
    return [row]


def also_asked(plan: QueryPlan, first: str) -> tuple[str, ...]:
    """The other match figures a question asks over the season beside the first ("the average match length and
    deaths per game"), each answered on its own; not the objective kinds asked together (`together_asked`)."""
    if together_asked(plan, first) or first not in boards.MATCH_FIGURES:
        return ()
    return tuple(m for m in plan.metrics if m != first and m in boards.MATCH_FIGURES)


def _named_games(matches: Sequence[season.MatchRef], numbers: dict[str, int]) -> str:
    """Matches as a reader finds them, earliest first, "; " between: "game 1, 5840704061 on 2026-02-03" (the game
    number counts every match of the warehouse in start order)."""
    return "; ".join(("" if m.match_id not in numbers else f"game {numbers[m.match_id]}, ") + m.match_id
                     + (f" on {m.started_at.date().isoformat()}" if m.started_at else "") for m in matches)


def _profiles(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    metric = figure.metric or "damage_dealt"
    best_by = metric if metric in season.PLAYER_METRICS else "damage_dealt"
    numbers = {m.match_id: n for n, m in enumerate(season.selected_matches(con, AllMatches()), start=1)}
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
                    "worst_match_id": profile.worst_match.match_id, "worst_value": profile.worst_match.value,
                    "best_matches": _named_games(profile.best_matches or (profile.best_match,), numbers),
                    "worst_matches": _named_games(profile.worst_matches or (profile.worst_match,), numbers),
                    "best_ties": len(profile.best_matches), "worst_ties": len(profile.worst_matches)})
        if best_by == "biggest_hit":  # the best hit is said with what landed it and on whom, as on a board
            row["hit_with"], row["hit_target"] = boards.hit_of(con, profile.best_match.match_id, profile.player,
                                                               profile.best_match.value)
        career = _with_career(metric, plan)
        if career:
            row.update(_career(profile))
        row.update(_others(profile, _other_figures(plan, best_by, career)))
        rows.append(row)
    return rows


def _other_figures(plan: QueryPlan, best_by: str, career: bool) -> tuple[str, ...]:
    """The player figures asked beside the first ("kills, deaths and gold per game"): each is answered, except
    those the career sentence already says."""
    said = CAREER_FIGURES if career else ()
    return tuple(m for m in plan.metrics if m in season.PLAYER_METRICS and m != best_by and m not in said)


def _others(profile: season.PlayerProfile, metrics: Sequence[str]) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for m in metrics:
        if m in season.ADDITIVE_METRICS:
            row[f"total_{m}"] = profile.totals[m]
        row[f"average_{m}"] = profile.averages[m]
    return row


# What a record alone leaves out of "how has X done": the career totals and per-game means of the core figures.
CAREER_FIGURES = ("kills", "deaths", "assists")


def _with_career(metric: str, plan: QueryPlan) -> bool:
    """A record, a KDA (its parts) or two or more of kills, deaths and assists asked at once: the three beside it."""
    return metric in boards.RECORD_FIGURES or metric == "kda" or len(set(plan.metrics) & set(CAREER_FIGURES)) > 1


def _career(profile: season.PlayerProfile) -> dict[str, Any]:
    """Career totals and per-game means (the mean of per-match figures) of kills, deaths and assists, and the KDA
    of the totals, beside a player's record."""
    row: dict[str, Any] = {}
    for m in CAREER_FIGURES:
        row[f"career_total_{m}"] = profile.totals[m]
        row[f"career_average_{m}"] = profile.averages[m]
    row["career_kda"] = profile.overall_kda
    return row


def _head_to_head(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    a, b = figure.players
    h = season.head_to_head(con, a, b, selection)
    return [{"player_a": h.player_a, "player_b": h.player_b, "matches_together": h.matches_together,
             "as_teammates": h.as_teammates, "teammate_wins": h.teammate_wins, "teammate_losses": h.teammate_losses,
             "as_opponents": h.as_opponents, "wins_a": h.wins_a, "wins_b": h.wins_b,
             "opponent_unknown_results": h.opponent_unknown_results, "kills_a_on_b": h.kills_a_on_b,
             "kills_b_on_a": h.kills_b_on_a, "assists_a_on_b": h.assists_a_on_b, "assists_b_on_a": h.assists_b_on_a}]


def _trend(con, figure: SeasonFigure, selection: MatchSelection, plan: QueryPlan) -> list[dict[str, Any]]:
    metric = figure.metric or "kda"
    trend = season.player_trend(con, figure.players[0], [metric], selection)
    # a game's number is its place among all the warehouse's matches in start order ("game 8" of a season of 9),
    # whatever the selection, so one game has one number
    numbers = {m.match_id: n for n, m in enumerate(season.selected_matches(con, AllMatches()), start=1)}
    return [{"match_id": p.match_id, "game_number": numbers.get(p.match_id), "started_at": _iso(p.started_at),
             "result": p.result, "god": p.god, "role": p.role, metric: p.values[metric]} for p in trend.points]


_ROWS = {"board": _board, "matches": _matches, "season": _season, "profile": _profiles,
         "head_to_head": _head_to_head, "trend": _trend}
