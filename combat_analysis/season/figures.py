"""Figures across matches: player profiles, god and role records, head-to-head, trends and leaderboards.

Every figure is one SQL query over the warehouse views opened across matches (`open_warehouse(root)` with no
match id) and takes a `MatchSelection`: all matches, a player's last N, a date range on `matches.started_at`,
or a named list of match ids. docs/season.md defines each figure exactly. The SQL text is fixed: metric names
are checked against the allow-lists below before they become column names, and every value from a user
(player names, match ids, dates, counts) travels as a query parameter; only the limits this module has
checked as integers are written into the SQL.

A selection of all matches binds no match ids: every match counts, so the figure reads the tables whole. That
also spares the question a third of a second: binding any value makes DuckDB's Python client import pandas.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from combat_analysis.contracts.selection import (
    ALL_MATCHES,
    AllMatches,
    DateRange,
    LastMatches,
    MatchList,
    MatchSelection,
    describe,
)

# Per-match player figures (columns of `player_stats`) whose sum over matches means something.
ADDITIVE_METRICS: tuple[str, ...] = (
    "damage_dealt", "damage_to_players", "damage_to_structures", "damage_to_minions", "damage_to_jungle",
    "damage_to_bosses", "damage_taken", "damage_mitigated", "healing_done", "healing_received", "crits",
    "kills", "deaths", "assists", "gold", "experience", "cc_applied", "items_purchased",
)
# Per-match figures that are ratios or maxima: they have per-match averages, never totals.
RATIO_METRICS: tuple[str, ...] = ("kda", "gpm", "dpm", "biggest_hit")
PLAYER_METRICS: tuple[str, ...] = ADDITIVE_METRICS + RATIO_METRICS
# The best match of a player is the one with the highest value, except for these, where lower is better.
LOWER_IS_BETTER: frozenset[str] = frozenset({"deaths"})
# Record figures that are not per-match columns: counts of games and results.
RECORD_METRICS: tuple[str, ...] = ("matches", "wins", "win_rate")
# How a metric is named in titles and answers, where its column name would read badly.
METRIC_LABELS: dict[str, str] = {"kda": "KDA", "gpm": "GPM", "dpm": "DPM", "cc_applied": "crowd control applied",
                                 "win_rate": "win rate", "items_purchased": "items bought"}
Statistic = Literal["total", "average"]


def metric_label(metric: str) -> str:
    return METRIC_LABELS.get(metric, metric.replace("_", " "))
Result = Literal["win", "loss", "unknown"]


class SeasonError(ValueError):
    """A cross-match question the warehouse cannot answer as asked; the message says why in one line."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- result models --------------------------------------------------------------------------------------

class MatchInfo(_Frozen):
    match_id: str
    started_at: datetime | None
    duration_s: int | None
    winner_team: int | None


class MatchRef(_Frozen):
    """One match of a player, with the value of the metric that picked it."""

    match_id: str
    started_at: datetime | None
    value: float


class Record(_Frozen):
    """Games and results. Unknown-winner games count as games, but as neither wins nor losses."""

    games: int
    wins: int
    losses: int
    unknown_results: int
    win_rate: float | None  # wins / (wins + losses); None when no game had a known winner


class PlayerProfile(_Frozen):
    player: str
    record: Record
    totals: dict[str, int | float]  # sum over the matches, ADDITIVE_METRICS (counts stay integers)
    averages: dict[str, float]  # mean of the per-match figures, PLAYER_METRICS
    overall_kda: float  # (total kills + total assists) / max(total deaths, 1)
    best_by: str
    best_match: MatchRef
    worst_match: MatchRef
    # every match at the best (worst) value, the first one included, earliest first: ties are listed
    best_matches: tuple[MatchRef, ...] = ()
    worst_matches: tuple[MatchRef, ...] = ()


class GroupStats(_Frozen):
    """A god's or a role's record over the player-games that had it."""

    name: str
    players: int  # distinct players who played it
    record: Record
    average_kda: float
    average_damage: float  # mean per-game damage dealt
    average_gold: float


class HeadToHead(_Frozen):
    player_a: str
    player_b: str
    matches_together: int
    as_teammates: int
    teammate_wins: int
    teammate_losses: int
    as_opponents: int
    wins_a: int  # as opponents, games player_a's team won
    wins_b: int
    opponent_unknown_results: int
    kills_a_on_b: int
    kills_b_on_a: int
    match_ids: tuple[str, ...]  # the matches together, in start order
    # assists of a in the player kills whose victim was b (an assist is on a kill, so "on b" is on b's deaths)
    assists_a_on_b: int = 0
    assists_b_on_a: int = 0


class TrendPoint(_Frozen):
    match_id: str
    started_at: datetime | None
    team: int
    role: str | None
    god: str | None
    result: Result
    values: dict[str, int | float]


class PlayerTrend(_Frozen):
    player: str
    metrics: tuple[str, ...]
    points: tuple[TrendPoint, ...]  # one per match, in start order


class LeaderboardRow(_Frozen):
    rank: int  # ties share a rank (1, 2, 2, 4)
    player: str
    matches: int
    value: float | None


class Leaderboard(_Frozen):
    metric: str
    statistic: str  # "total", "average", or "record" for matches, wins and win rate
    order: Literal["desc", "asc"]
    min_matches: int
    rows: tuple[LeaderboardRow, ...]


# --- the selection as match ids -------------------------------------------------------------------------

def _rows(con, sql: str, params: dict | None = None) -> list[tuple]:
    return con.execute(sql, params or {}).fetchall()


def selected_matches(con, selection: MatchSelection = ALL_MATCHES) -> tuple[MatchInfo, ...]:
    """The matches a selection stands for, in start order (`started_at`, then `match_id`)."""
    columns = "m.match_id, m.started_at, m.duration_s, m.winner_team"
    order = "ORDER BY m.started_at, m.match_id"
    if isinstance(selection, LastMatches):
        require_player(con, selection.player, None)
        sql = (f"SELECT * FROM (SELECT {columns} FROM matches m JOIN players p ON p.match_id = m.match_id "
               "WHERE p.player = $player ORDER BY m.started_at DESC, m.match_id DESC LIMIT $count) m " + order)
        rows = _rows(con, sql, {"player": selection.player, "count": selection.count})
    elif isinstance(selection, DateRange):
        rows = _rows(con, f"SELECT {columns} FROM matches m WHERE ($since IS NULL OR m.started_at >= $since) "
                          f"AND ($until IS NULL OR m.started_at < $until) {order}",
                     {"since": selection.since, "until": selection.until})
    elif isinstance(selection, MatchList):
        rows = _rows(con, f"SELECT {columns} FROM matches m WHERE {selected('m.match_id', list(selection.match_ids))} {order}",
                     {"ids": list(selection.match_ids)})
        missing = sorted(set(selection.match_ids) - {r[0] for r in rows})
        if missing:
            raise SeasonError(f"not in the warehouse: match {', '.join(missing)}")
    else:
        rows = _rows(con, f"SELECT {columns} FROM matches m {order}")
    return tuple(MatchInfo(match_id=r[0], started_at=r[1], duration_s=r[2], winner_team=r[3]) for r in rows)


def selected_ids(con, selection: MatchSelection) -> list[str] | None:
    """The selected match ids for `$ids`, or None for all matches (see `selected`)."""
    if isinstance(selection, AllMatches):
        return None
    return [m.match_id for m in selected_matches(con, selection)]


def selected(column: str, ids: list[str] | None) -> str:
    """"`column` is one of the selected matches": a semi-join on `$ids`, over thousands of ids far cheaper than a
    list lookup per row; no condition at all for all matches."""
    return "TRUE" if ids is None else f"{column} IN (SELECT unnest($ids::VARCHAR[]))"


def bind(ids: list[str] | None, **params: Any) -> dict[str, Any]:
    """A query's parameters, with `$ids` only when `selected` wrote it into the SQL."""
    return params if ids is None else {**params, "ids": ids}


def _games(ids: list[str] | None) -> str:
    """The player-games of the selected matches, each with its match's start and the player's result."""
    return f"""
    games AS (
        SELECT ps.*, m.started_at,
               CASE WHEN m.winner_team IS NULL THEN 'unknown'
                    WHEN m.winner_team = ps.team THEN 'win' ELSE 'loss' END AS result
        FROM player_stats ps JOIN matches m ON m.match_id = ps.match_id
        WHERE {selected("ps.match_id", ids)})
"""
_RECORD = """count(*) AS games, count(*) FILTER (WHERE result = 'win') AS wins,
             count(*) FILTER (WHERE result = 'loss') AS losses,
             count(*) FILTER (WHERE result = 'unknown') AS unknown_results"""


def _record(games: int, wins: int, losses: int, unknown: int) -> Record:
    decided = wins + losses
    return Record(games=games, wins=wins, losses=losses, unknown_results=unknown,
                  win_rate=wins / decided if decided else None)


def _check_metrics(metrics: Sequence[str], allowed: Sequence[str], what: str = "metric") -> tuple[str, ...]:
    metrics = tuple(metrics)
    for m in metrics:
        if m not in allowed:
            raise SeasonError(f"unknown {what} {m!r}; use one of: {', '.join(allowed)}")
    if not metrics:
        raise SeasonError(f"name at least one {what}")
    return metrics


def require_player(con, player: str, ids: list[str] | None, selection: MatchSelection | None = None) -> None:
    """A player is the exact name in the log; a near miss gets a one-line hint, never a silent match."""
    found = _rows(con, f"SELECT 1 FROM players WHERE player = $p AND {selected('match_id', ids)} LIMIT 1",
                  bind(ids, p=player))
    if found:
        return
    names: dict[str, list[str]] = {}
    for (name,) in _rows(con, "SELECT DISTINCT player FROM players ORDER BY player"):
        names.setdefault(name.casefold(), []).append(name)
    close = [n for key in difflib.get_close_matches(player.casefold(), list(names), n=3, cutoff=0.75)
             for n in names[key] if n != player]
    scope = f" in {describe(selection)}" if selection is not None else ""
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise SeasonError(f"no player named {player!r}{scope}{hint}")


# --- figures ----------------------------------------------------------------------------------------------

def player_profiles(con, selection: MatchSelection = ALL_MATCHES, *, best_by: str = "damage_dealt",
                    players: Sequence[str] | None = None) -> tuple[PlayerProfile, ...]:
    """Every player's record, totals, per-match averages and best and worst match (by `best_by`), by name."""
    (best_by,) = _check_metrics([best_by], PLAYER_METRICS)
    ids = selected_ids(con, selection)
    names = list(players) if players is not None else None
    sums = ", ".join(f"sum({m}) AS total_{m}" for m in ADDITIVE_METRICS)
    means = ", ".join(f"avg({m}) AS avg_{m}" for m in PLAYER_METRICS)
    best_order = "ASC" if best_by in LOWER_IS_BETTER else "DESC"
    worst_order = "DESC" if best_by in LOWER_IS_BETTER else "ASC"
    # Ties go to the earlier match: started_at, then match_id.
    sql = f"""
        WITH {_games(ids)},
        picked AS (SELECT * FROM games
                   WHERE $players IS NULL OR player IN (SELECT unnest($players::VARCHAR[]))),
        ranked AS (
            SELECT player, match_id, started_at, {best_by} AS value,
                   row_number() OVER (PARTITION BY player ORDER BY {best_by} {best_order}, started_at, match_id) AS best,
                   row_number() OVER (PARTITION BY player ORDER BY {best_by} {worst_order}, started_at, match_id)
                       AS worst
            FROM picked),
        ties AS (
            SELECT player, value, list(match_id ORDER BY started_at, match_id) AS ids,
                   list(started_at ORDER BY started_at, match_id) AS starts
            FROM ranked GROUP BY player, value),
        figures AS (
            SELECT player, {_RECORD}, {sums}, {means},
                   (sum(kills) + sum(assists)) / greatest(sum(deaths), 1) AS overall_kda
            FROM picked GROUP BY player)
        SELECT f.*, b.match_id, b.started_at, b.value, w.match_id, w.started_at, w.value,
               bt.ids, bt.starts, wt.ids, wt.starts
        FROM figures f
        JOIN ranked b ON b.player = f.player AND b.best = 1
        JOIN ranked w ON w.player = f.player AND w.worst = 1
        LEFT JOIN ties bt ON bt.player = f.player AND bt.value = b.value
        LEFT JOIN ties wt ON wt.player = f.player AND wt.value = w.value
        ORDER BY f.player
    """
    if names is not None:
        for name in names:
            require_player(con, name, ids, selection)
    cursor = con.execute(sql, bind(ids, players=names))
    columns = [d[0] for d in cursor.description][:-10]
    out = []
    for row in cursor.fetchall():
        values = dict(zip(columns, row[:-10], strict=True))
        best, worst = row[-10:-7], row[-7:-4]
        best_ties, worst_ties = _tied(row[-4], row[-3], best[2]), _tied(row[-2], row[-1], worst[2])
        out.append(PlayerProfile(
            player=values["player"],
            record=_record(values["games"], values["wins"], values["losses"], values["unknown_results"]),
            totals={m: values[f"total_{m}"] for m in ADDITIVE_METRICS},
            averages={m: values[f"avg_{m}"] for m in PLAYER_METRICS},
            overall_kda=values["overall_kda"],
            best_by=best_by,
            best_match=MatchRef(match_id=best[0], started_at=best[1], value=best[2]),
            worst_match=MatchRef(match_id=worst[0], started_at=worst[1], value=worst[2]),
            best_matches=best_ties, worst_matches=worst_ties,
        ))
    return tuple(out)


def _tied(ids: list[str] | None, starts: list[datetime | None] | None, value: float) -> tuple[MatchRef, ...]:
    """The matches that share one value (a null value ties with nothing: SQL equality)."""
    return tuple(MatchRef(match_id=m, started_at=s, value=value) for m, s in zip(ids or (), starts or (), strict=True))


def player_profile(con, player: str, selection: MatchSelection = ALL_MATCHES, *,
                   best_by: str = "damage_dealt") -> PlayerProfile:
    """One player's profile; `SeasonError` if the exact name is not in the selected matches."""
    (profile,) = player_profiles(con, selection, best_by=best_by, players=[player])
    return profile


def _group_stats(con, column: Literal["god", "role"], selection: MatchSelection, *, role: str | None,
                 player: str | None) -> tuple[GroupStats, ...]:
    ids = selected_ids(con, selection)
    if player is not None:
        require_player(con, player, ids, selection)
    sql = f"""
        WITH {_games(ids)}
        SELECT {column} AS name, count(DISTINCT player) AS players, {_RECORD},
               avg(kda) AS average_kda, avg(damage_dealt) AS average_damage, avg(gold) AS average_gold
        FROM games
        WHERE ($role IS NULL OR lower(role) = lower($role)) AND ($player IS NULL OR player = $player)
        GROUP BY {column}
        ORDER BY games DESC, name
    """
    return tuple(
        GroupStats(name=r[0], players=r[1], record=_record(*r[2:6]), average_kda=r[6], average_damage=r[7],
                   average_gold=r[8])
        for r in _rows(con, sql, bind(ids, role=role, player=player)))


def god_stats(con, selection: MatchSelection = ALL_MATCHES, *, role: str | None = None,
              player: str | None = None) -> tuple[GroupStats, ...]:
    """Each god's games, results, average KDA, damage and gold, most played first; optionally only the
    games played in one role (matched case-insensitively, e.g. "solo") or by one player."""
    return _group_stats(con, "god", selection, role=role, player=player)


def role_stats(con, selection: MatchSelection = ALL_MATCHES, *, player: str | None = None) -> tuple[GroupStats, ...]:
    """Each role's games, results, average KDA, damage and gold; optionally one player's games only."""
    return _group_stats(con, "role", selection, role=None, player=player)


def head_to_head(con, player_a: str, player_b: str, selection: MatchSelection = ALL_MATCHES) -> HeadToHead:
    """Two players across the matches they both played: together, as teammates, as opponents, who won,
    and how often each killed the other."""
    if player_a == player_b:
        raise SeasonError("a head-to-head needs two different players")
    ids = selected_ids(con, selection)
    for name in (player_a, player_b):
        require_player(con, name, ids, selection)
    params = bind(ids, a=player_a, b=player_b)
    row = _rows(con, f"""
        WITH a AS (SELECT match_id, team FROM players WHERE player = $a AND {selected("match_id", ids)}),
             b AS (SELECT match_id, team FROM players WHERE player = $b AND {selected("match_id", ids)}),
             together AS (
                SELECT a.match_id, a.team AS team_a, b.team AS team_b, m.winner_team AS winner, m.started_at
                FROM a JOIN b ON a.match_id = b.match_id JOIN matches m ON m.match_id = a.match_id)
        SELECT count(*),
               count(*) FILTER (WHERE team_a = team_b),
               count(*) FILTER (WHERE team_a = team_b AND winner = team_a),
               count(*) FILTER (WHERE team_a = team_b AND winner <> team_a),
               count(*) FILTER (WHERE team_a <> team_b),
               count(*) FILTER (WHERE team_a <> team_b AND winner = team_a),
               count(*) FILTER (WHERE team_a <> team_b AND winner = team_b),
               count(*) FILTER (WHERE team_a <> team_b AND winner IS NULL),
               list(match_id ORDER BY started_at, match_id)
        FROM together
    """, params)[0]
    kills = _rows(con, f"""
        SELECT count(*) FILTER (WHERE killer = $a AND victim = $b), count(*) FILTER (WHERE killer = $b AND victim = $a),
               count(*) FILTER (WHERE victim = $b AND list_contains(assists, $a)),
               count(*) FILTER (WHERE victim = $a AND list_contains(assists, $b))
        FROM kills WHERE is_player_kill AND {selected("match_id", ids)}
    """, params)[0]
    return HeadToHead(player_a=player_a, player_b=player_b, matches_together=row[0], as_teammates=row[1],
                      teammate_wins=row[2], teammate_losses=row[3], as_opponents=row[4], wins_a=row[5],
                      wins_b=row[6], opponent_unknown_results=row[7], kills_a_on_b=kills[0], kills_b_on_a=kills[1],
                      match_ids=tuple(row[8] or ()), assists_a_on_b=kills[2], assists_b_on_a=kills[3])


def player_trend(con, player: str, metrics: Sequence[str] = ("kda", "damage_dealt"),
                 selection: MatchSelection = ALL_MATCHES) -> PlayerTrend:
    """One row per match the player played, in start order, with the chosen per-match figures."""
    metrics = _check_metrics(metrics, PLAYER_METRICS)
    ids = selected_ids(con, selection)
    require_player(con, player, ids, selection)
    picked = ", ".join(metrics)
    rows = _rows(con, f"""
        WITH {_games(ids)}
        SELECT match_id, started_at, team, role, god, result, {picked}
        FROM games WHERE player = $player ORDER BY started_at, match_id
    """, bind(ids, player=player))
    return PlayerTrend(player=player, metrics=metrics, points=tuple(
        TrendPoint(match_id=r[0], started_at=r[1], team=r[2], role=r[3], god=r[4], result=r[5],
                   values=dict(zip(metrics, r[6:], strict=True)))
        for r in rows))


def leaderboard(con, metric: str, selection: MatchSelection = ALL_MATCHES, *, statistic: Statistic = "total",
                order: Literal["desc", "asc"] = "desc", limit: int = 10, min_matches: int = 1) -> Leaderboard:
    """Players ranked by a metric's total or per-match average over the selected matches, or by their record
    (`matches`, `wins`, `win_rate`). Ties share a rank and are listed by name; players with fewer than
    `min_matches` games are left out; a win rate ranks only players with a decided game."""
    (metric,) = _check_metrics([metric], PLAYER_METRICS + RECORD_METRICS)
    if statistic not in ("total", "average"):
        raise SeasonError(f"unknown statistic {statistic!r}; use total or average")
    if order not in ("desc", "asc"):
        raise SeasonError(f"unknown order {order!r}; use desc or asc")
    if not 1 <= limit <= 100_000 or min_matches < 1:
        raise SeasonError("the limit must be 1 to 100,000 and the minimum number of matches at least 1")
    if metric in RECORD_METRICS:
        value = {"matches": "count(*)", "wins": "count(*) FILTER (WHERE result = 'win')",
                 "win_rate": "count(*) FILTER (WHERE result = 'win') / "
                             "nullif(count(*) FILTER (WHERE result <> 'unknown'), 0)"}[metric]
        statistic_name = "record"
    elif statistic == "total":
        if metric not in ADDITIVE_METRICS:
            raise SeasonError(f"{metric} has no total across matches (it is a ratio or a maximum); use the average")
        value, statistic_name = f"sum({metric})", "total"
    else:
        value, statistic_name = f"avg({metric})", "average"
    direction = "DESC" if order == "desc" else "ASC"
    ids = selected_ids(con, selection)
    rows = _rows(con, f"""
        WITH {_games(ids)},
        per_player AS (SELECT player, count(*) AS matches, {value} AS value FROM games GROUP BY player)
        SELECT rank() OVER (ORDER BY value {direction}) AS rank, player, matches, value
        FROM per_player WHERE matches >= {int(min_matches)} AND value IS NOT NULL
        ORDER BY value {direction}, player LIMIT {int(limit)}
    """, bind(ids))
    return Leaderboard(metric=metric, statistic=statistic_name, order=order, min_matches=min_matches,
                       rows=tuple(LeaderboardRow(rank=r[0], player=r[1], matches=r[2], value=r[3]) for r in rows))
