"""Boards across matches: players, gods, roles or sides ranked (or one of them looked up, or the ones named compared:
`Filters.named`) by any per-game figure (its total, its per-game mean, its best or worst single game) or by their
record; matches ranked by a match figure; and a match figure over the season. docs/season.md defines each one.

A **game** of a player, god or role is one player-game (a row of `player_stats`): a god played by both teams in
one match has two games there, and a role always has two per match. A game of a **side** (team 1, Order; team 2,
Chaos) is one match, with the figures of its five players added up (ratios from those sums). Each figure is a
registry entry (`GAME_FIGURES`, `MATCH_FIGURES`): the SQL expression of one game's value and the per-(match,
player) counts it needs joined in, so a new figure is one line, not a new query.

As in `season.figures`, the SQL text is fixed: figure ids come from the registries, limits are integers
checked here, and every value from a question (names, roles, ids) is a bound parameter.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from combat_analysis.catalog import metric
from combat_analysis.contracts.selection import ALL_MATCHES, MatchSelection
from combat_analysis.season.figures import (
    ADDITIVE_METRICS,
    SeasonError,
    bind,
    metric_label,
    require_player,
    selected,
    selected_ids,
)

Subject = Literal["player", "god", "role", "side"]
BoardStatistic = Literal["total", "average", "max", "min", "record"]
Order = Literal["desc", "asc"]
Kind = Literal["sum", "ratio", "max", "time"]
SIDE_NAMES = {1: "Order", 2: "Chaos"}
SUBJECT_COLUMN = {"player": "g.player", "god": "g.god", "role": "g.role"}
# the averages and rates a board ranks only over those with this many games, unless the question says otherwise
DEFAULT_MIN_GAMES = 3


@dataclass(frozen=True)
class Source:
    """Counts per (match, player) joined into the player-games: a CTE, its join and the columns it adds."""

    cte: str
    join: str
    columns: str
    side_cte: str = ""  # for a side's game, where its figure is not its players' sum (objectives by team)
    side_join: str = ""


@dataclass(frozen=True)
class GameFigure:
    """A figure of one game: `expr` over a row of `games` (player_stats' columns, `match_duration_s` and the
    source's columns); `side_expr` is a side's game from its players' rows (their sum unless given)."""

    id: str
    label: str
    expr: str
    kind: Kind = "sum"
    source: str = ""
    side_expr: str = ""
    lower_is_better: bool = False
    # a ratio's numerator and denominator over a row of `games`: the ratio of their season sums ("K/D from the
    # season totals") beside the mean of per-game ratios
    pooled: tuple[str, str] | None = None

    def side(self) -> str:
        return self.side_expr or f"sum({self.expr})"


_FIRST_BLOOD = Source(
    cte="""first_blood AS (
        SELECT match_id, killer, victim, match_second FROM (
            SELECT match_id, killer, victim, match_second,
                   row_number() OVER (PARTITION BY match_id ORDER BY match_second, line_no) AS n
            FROM kills WHERE is_player_kill AND {sel}) ranked WHERE n = 1)""",
    join="LEFT JOIN first_blood fb ON fb.match_id = ps.match_id",
    columns="CASE WHEN fb.killer = ps.player THEN 1 ELSE 0 END AS first_bloods, "
            "CASE WHEN fb.victim = ps.player THEN 1 ELSE 0 END AS first_blood_deaths")
OBJECTIVES = (("objectives_taken", "TRUE"), ("towers", "objective = 'tower'"), ("phoenixes", "objective = 'phoenix'"),
              ("titans", "objective = 'titan'"), ("gold_furies", "objective = 'gold fury'"),
              ("fire_giants", "objective = 'fire giant'"), ("bosses", "objective IN ('gold fury', 'fire giant')"))
# The kinds an objective is counted by, each on its own: no objective is of two kinds, so counts of two add up (the
# bosses hold the Gold Furies and the Fire Giants, so they are no kind of their own here).
OBJECTIVE_KINDS = tuple(name for name, _ in OBJECTIVES if name not in ("objectives_taken", "bosses"))
_COUNTS = ", ".join(f"count(*) FILTER (WHERE {cond}) AS {name}" for name, cond in OBJECTIVES)
_OBJECTIVES = Source(
    cte=f"""taken AS (
        SELECT match_id, killer AS player, {_COUNTS}
        FROM objectives WHERE killer_kind = 'player' AND {{sel}} GROUP BY match_id, killer)""",
    join="LEFT JOIN taken tk ON tk.match_id = ps.match_id AND tk.player = ps.player",
    columns=", ".join(f"coalesce(tk.{name}, 0) AS {name}" for name, _ in OBJECTIVES),
    # a side takes what METRICS.md says it took: a minion's last hit on a structure counts for its side
    side_cte=f"""side_taken AS (
        SELECT match_id, team, {_COUNTS} FROM objectives WHERE team IS NOT NULL AND {{sel}} GROUP BY match_id, team)""",
    side_join="LEFT JOIN side_taken st ON st.match_id = g.match_id AND st.team = g.team")
DEATH_CAUSES = (("players", "killer_kind = 'player'"), ("npcs", "coalesce(killer_kind, '') <> 'player'"),
                ("structures", "killer_kind = 'structure'"), ("minions", "killer_kind = 'minion'"),
                ("jungle", "killer_kind = 'jungle'"), ("bosses", "killer_kind = 'boss'"),
                # one kind of structure, by the word its name holds (METRICS.md: tower, phoenix, titan)
                ("towers", "killer_kind = 'structure' AND lower(killer) LIKE '%tower%'"),
                ("phoenixes", "killer_kind = 'structure' AND lower(killer) LIKE '%phoenix%'"),
                ("titans", "killer_kind = 'structure' AND lower(killer) LIKE '%titan%'"),
                # one boss, by its name (METRICS.md: Gold Fury, Fire Giant)
                ("gold_furies", "killer_kind = 'boss' AND lower(killer) LIKE '%gold fury%'"),
                ("fire_giants", "killer_kind = 'boss' AND lower(killer) LIKE '%fire giant%'"))
_DEATHS = Source(
    cte="""fell AS (
        SELECT match_id, victim AS player, """ + ", ".join(
        f"count(*) FILTER (WHERE {cond}) AS deaths_to_{name}" for name, cond in DEATH_CAUSES) + """
        FROM kills WHERE victim_kind = 'player' AND {sel} GROUP BY match_id, victim)""",
    join="LEFT JOIN fell fl ON fl.match_id = ps.match_id AND fl.player = ps.player",
    columns=", ".join(f"coalesce(fl.deaths_to_{name}, 0) AS deaths_to_{name}" for name, _ in DEATH_CAUSES))
# kills on one other player and deaths to them: only the games against that player count
_PAIR = Source(
    cte="""pair AS (
        SELECT match_id, killer, victim, count(*) AS n FROM kills
        WHERE is_player_kill AND (killer = $versus OR victim = $versus) AND {sel} GROUP BY match_id, killer, victim)""",
    join="""JOIN players rival ON rival.match_id = ps.match_id AND rival.player = $versus AND rival.team <> ps.team
        LEFT JOIN pair p_on ON p_on.match_id = ps.match_id AND p_on.killer = ps.player AND p_on.victim = $versus
        LEFT JOIN pair p_to ON p_to.match_id = ps.match_id AND p_to.victim = ps.player AND p_to.killer = $versus""",
    columns="coalesce(p_on.n, 0) AS kills_on, coalesce(p_to.n, 0) AS deaths_to")
# kills no teammate assisted (the catalog's solo_kills): the kills table keeps each kill's assists
_SOLO = Source(
    cte="""solo AS (
        SELECT match_id, killer AS player, count(*) AS solo_kills FROM kills
        WHERE is_player_kill AND len(assists) = 0 AND {sel} GROUP BY match_id, killer)""",
    join="LEFT JOIN solo sk ON sk.match_id = ps.match_id AND sk.player = ps.player",
    columns="coalesce(sk.solo_kills, 0) AS solo_kills")
SOURCES: dict[str, Source] = {"first_blood": _FIRST_BLOOD, "objectives": _OBJECTIVES, "deaths": _DEATHS, "pair": _PAIR,
                              "solo": _SOLO}


def _ratio(numerator: str, denominator: str) -> str:
    return f"({numerator}) / greatest({denominator}, 1)"


def _per_minute(column: str, side: bool) -> str:
    total = f"sum(g.{column})" if side else f"g.{column}"
    duration = "any_value(g.match_duration_s)" if side else "g.match_duration_s"
    return f"{total} / nullif({duration} / 60.0, 0)"


def _over_a_game(formula: str) -> str:
    """A catalog formula over a row of `games`: each figure named is that game's column ("kills" -> "g.kills")."""
    return re.sub(r"\b([a-z_]+)\b", r"g.\1", formula)


def _game_figures() -> dict[str, GameFigure]:
    figures = [GameFigure(m, metric_label(m), f"g.{m}") for m in ADDITIVE_METRICS]
    figures += [
        GameFigure("kda", "KDA", "g.kda", "ratio",
                   side_expr=_ratio("sum(g.kills) + sum(g.assists)", "sum(g.deaths)"),
                   pooled=("g.kills + g.assists", "g.deaths")),
        GameFigure("kd", "K/D", _ratio("g.kills", "g.deaths"), "ratio", side_expr=_ratio("sum(g.kills)", "sum(g.deaths)"),
                   pooled=("g.kills", "g.deaths")),
        GameFigure("gpm", "GPM", "g.gpm", "ratio", side_expr=_per_minute("gold", True)),
        GameFigure("dpm", "DPM", "g.dpm", "ratio", side_expr=_per_minute("damage_dealt", True)),
        GameFigure("xpm", "XPM", _per_minute("experience", False), "ratio", side_expr=_per_minute("experience", True)),
        GameFigure("biggest_hit", "biggest single hit", "g.biggest_hit", "max", side_expr="max(g.biggest_hit)"),
        # a game's MVP score by the match report's rule (the catalog's formula over that game's figures): a mean per
        # game, never a total
        GameFigure("mvp_score", "MVP score", _over_a_game(metric("mvp_score").formula or "0"), "ratio",
                   source="objectives"),
        GameFigure("first_bloods", "first bloods", "g.first_bloods", source="first_blood"),
        GameFigure("first_blood_deaths", "deaths as first blood", "g.first_blood_deaths", source="first_blood",
                   lower_is_better=True),
        GameFigure("solo_kills", "solo kills", "g.solo_kills", source="solo"),
        GameFigure("kills_on", "kills on", "g.kills_on", source="pair"),
        GameFigure("deaths_to", "deaths to", "g.deaths_to", source="pair", lower_is_better=True),
    ]
    figures += [GameFigure(name, OBJECTIVE_LABELS[name], f"g.{name}", source="objectives",
                           side_expr=f"coalesce(any_value(st.{name}), 0)") for name, _ in OBJECTIVES]
    figures += [GameFigure(f"deaths_to_{name}", f"deaths to {DEATH_LABELS[name]}", f"g.deaths_to_{name}",
                           source="deaths", lower_is_better=True) for name, _ in DEATH_CAUSES]
    return {f.id: f for f in figures}


OBJECTIVE_LABELS = {"objectives_taken": "objectives taken", "towers": "towers destroyed",
                    "phoenixes": "phoenixes destroyed", "titans": "Titans destroyed", "gold_furies": "Gold Fury kills",
                    "fire_giants": "Fire Giant kills", "bosses": "boss kills"}
DEATH_LABELS = {"players": "players", "npcs": "non-players", "structures": "structures", "minions": "minions",
                "jungle": "jungle monsters", "bosses": "bosses", "towers": "towers", "phoenixes": "phoenixes",
                "titans": "Titans", "gold_furies": "the Gold Fury", "fire_giants": "the Fire Giant"}
GAME_FIGURES: dict[str, GameFigure] = _game_figures()
# Counts of events that may be asked together ("towers and phoenixes", "first bloods and towers", "deaths to towers
# and to minions"): each one is answered on its own, named
COUNTED_TOGETHER = frozenset((*OBJECTIVE_KINDS, "first_bloods", *(f"deaths_to_{name}" for name, _ in DEATH_CAUSES)))
# Counts of events: a board of one says the total it ranks (every entry's games together)
EVENT_COUNTS = frozenset(("kills", "deaths", "assists", "solo_kills", "first_bloods", "first_blood_deaths", "kills_on", "deaths_to",
                          "objectives_taken", *COUNTED_TOGETHER))
# A kind of death that holds others ("deaths to structures" holds those to towers): a sum with one of them would count
# a death twice
_HOLDS = {"deaths_to_npcs": frozenset(f"deaths_to_{n}" for n, _ in DEATH_CAUSES if n not in ("players", "npcs")),
          "deaths_to_structures": frozenset({"deaths_to_towers", "deaths_to_phoenixes", "deaths_to_titans"}),
          "deaths_to_bosses": frozenset({"deaths_to_gold_furies", "deaths_to_fire_giants"})}


def adds_up(kinds: Sequence[str]) -> bool:
    """Whether counts of `kinds` may be summed: all objective kinds (no objective is of two kinds), or all kinds of
    death none of which holds another; a sum of objectives and deaths, or of first bloods, says nothing."""
    if all(k in OBJECTIVE_KINDS for k in kinds):
        return True
    return all(k.startswith("deaths_to_") for k in kinds) and not any(
        other in _HOLDS.get(k, ()) for k in kinds for other in kinds)
RECORD_FIGURES: tuple[str, ...] = ("matches", "wins", "losses", "win_rate")
_RECORD_VALUE = {
    "matches": "count(*)",
    "wins": "count(*) FILTER (WHERE result = 'win')",
    "losses": "count(*) FILTER (WHERE result = 'loss')",
    "win_rate": "count(*) FILTER (WHERE result = 'win') / nullif(count(*) FILTER (WHERE result <> 'unknown'), 0)",
}
_STATISTIC_VALUE = {"total": "sum(value)", "average": "avg(value)", "max": "max(value)", "min": "min(value)"}
STATISTICS_OF_KIND: dict[str, tuple[str, ...]] = {
    "sum": ("total", "average", "max", "min"), "ratio": ("average", "max", "min"), "max": ("max", "average", "min"),
    "time": ("average", "max", "min", "total")}


# --- result models --------------------------------------------------------------------------------------------

class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BoardRow(_Frozen):
    rank: int  # ties share a rank (1, 2, 2, 4)
    name: str  # a player, god or role as the log writes it; a side as "Order (team 1)"
    games: int
    wins: int
    losses: int
    unknown_results: int
    value: float | None  # the statistic of the figure, or the record figure
    total: float | None = None  # the figure's sum over the games (for a figure that adds up)
    pooled: float | None = None  # a ratio of the season sums (K/D: total kills over total deaths), where defined
    average: float | None = None  # its per-game mean
    match_id: str | None = None  # for max / min: the game it came from (the earlier one on a tie)
    started_at: datetime | None = None


class Board(_Frozen):
    subject: Subject
    figure: str
    statistic: BoardStatistic
    order: Order
    min_games: int
    rows: tuple[BoardRow, ...]  # rank <= limit, ties at the last rank included
    below_minimum: tuple[BoardRow, ...] = ()  # with fewer games than min_games but a better value than the leader
    most_games_below: int = 0  # the most games any left-out entry has (for "nobody qualifies yet")


@dataclass(frozen=True)
class Filters:
    """Only these games: one player's, a god's, a role's (case-insensitive), a side's; `versus`: the other
    player of `kills_on` / `deaths_to`."""

    player: str | None = None
    god: str | None = None
    role: str | None = None
    side: int | None = None
    versus: str | None = None
    result: str | None = None  # "win" or "loss": only the games won (lost); a game with no winner is neither
    # only the games of these entries of the board's subject (gods and roles case-insensitive, sides "1" and "2"):
    # two or more named and set against each other
    named: tuple[str, ...] = ()

    def where(self, subject: Subject = "player") -> list[str]:
        found = {"player": "ps.player = $player", "god": "lower(ps.god) = lower($god)",
                 "role": "lower(ps.role) = lower($role)", "side": "ps.team = $side"}
        kept = [sql for name, sql in found.items() if getattr(self, name) is not None]
        return (kept + ([_RESULT_WHERE[self.result]] if self.result else [])
                + ([_NAMED_WHERE[subject]] if self.named else []))

    def params(self) -> dict[str, Any]:
        named = (("named", list(self.named)),) if self.named else ()
        return {k: v for k, v in (("player", self.player), ("god", self.god), ("role", self.role),
                                  ("side", self.side), ("versus", self.versus), *named) if v is not None}


_RESULT_WHERE = {"win": "m.winner_team = ps.team", "loss": "m.winner_team <> ps.team"}
_NAMED_WHERE = {"player": "ps.player IN (SELECT unnest($named::VARCHAR[]))",
                "god": "lower(ps.god) IN (SELECT lower(unnest($named::VARCHAR[])))",
                "role": "lower(ps.role) IN (SELECT lower(unnest($named::VARCHAR[])))",
                "side": "CAST(ps.team AS VARCHAR) IN (SELECT unnest($named::VARCHAR[]))"}
NO_FILTERS = Filters()


# --- the SQL ----------------------------------------------------------------------------------------------------

def _games_sql(figure: GameFigure | None, filters: Filters, ids: list[str] | None,
               subject: Subject = "player") -> tuple[list[str], str]:
    """The CTEs before `games`, and `games`: the selected player-games with the match, the result and the
    figure's source columns."""
    source = SOURCES.get(figure.source) if figure is not None and figure.source else None
    ctes = [source.cte.format(sel=selected("match_id", ids))] if source else []
    where = [selected("ps.match_id", ids), *filters.where(subject)]
    if filters.versus is not None:
        where.append("ps.player <> $versus")
    games = f"""games AS (
        SELECT ps.*, m.started_at, m.duration_s AS match_duration_s,
               CASE WHEN m.winner_team IS NULL THEN 'unknown' WHEN m.winner_team = ps.team THEN 'win'
                    ELSE 'loss' END AS result{', ' + source.columns if source else ''}
        FROM player_stats ps JOIN matches m ON m.match_id = ps.match_id {source.join if source else ''}
        WHERE {' AND '.join(where)})"""
    return ctes, games


def _units_sql(subject: Subject, figure: GameFigure | None, ids: list[str] | None) -> tuple[list[str], str]:
    """One row per game of the subject: (name, match_id, started_at, result, value)."""
    if subject != "side":
        value = figure.expr if figure is not None else "0"
        parts = figure.pooled if figure is not None and figure.pooled else ("NULL", "NULL")
        return [], (f"units AS (SELECT {SUBJECT_COLUMN[subject]} AS name, g.match_id, g.started_at, g.result, "
                    f"{value} AS value, {parts[0]} AS pooled_num, {parts[1]} AS pooled_den FROM games g)")
    source = SOURCES.get(figure.source) if figure is not None and figure.source else None
    ctes = [source.side_cte.format(sel=selected("match_id", ids))] if source and source.side_cte else []
    join = source.side_join if source and source.side_cte else ""
    value = figure.side() if figure is not None else "0"
    return ctes, (f"units AS (SELECT CAST(g.team AS VARCHAR) AS name, g.match_id, any_value(g.started_at) AS started_at, "
                  f"any_value(g.result) AS result, {value} AS value, NULL AS pooled_num, NULL AS pooled_den "
                  f"FROM games g {join} GROUP BY g.match_id, g.team)")


_PER_NAME = """ranked AS (
        SELECT *, row_number() OVER (PARTITION BY name ORDER BY value DESC NULLS LAST, started_at, match_id) AS high,
                  row_number() OVER (PARTITION BY name ORDER BY value ASC NULLS LAST, started_at, match_id) AS low
        FROM units),
    per_name AS (
        SELECT name, count(*) AS games, count(*) FILTER (WHERE result = 'win') AS wins,
               count(*) FILTER (WHERE result = 'loss') AS losses, count(*) FILTER (WHERE result = 'unknown') AS unknown,
               {value} AS value, sum(value) AS total, avg(value) AS average,
               sum(pooled_num) / greatest(sum(pooled_den), 1) AS pooled,
               max(CASE WHEN {pick} = 1 THEN match_id END) AS match_id,
               max(CASE WHEN {pick} = 1 THEN started_at END) AS started_at
        FROM ranked GROUP BY name)"""


@dataclass(frozen=True)
class BoardQuery:
    """What a board asks, checked: `board()` runs it."""

    subject: Subject
    figure: str  # a GAME_FIGURES or RECORD_FIGURES id
    statistic: BoardStatistic
    filters: Filters = field(default=NO_FILTERS)
    order: Order = "desc"
    limit: int = 10
    min_games: int = 1

    def checked(self) -> BoardQuery:
        game = GAME_FIGURES.get(self.figure)
        if game is None and self.figure not in RECORD_FIGURES:
            raise SeasonError(f"unknown figure {self.figure!r}; use one of: "
                              f"{', '.join((*GAME_FIGURES, *RECORD_FIGURES))}")
        if game is not None and self.statistic not in STATISTICS_OF_KIND[game.kind]:
            raise SeasonError(f"{game.label} has no {self.statistic} across matches (it is a "
                              f"{'ratio' if game.kind == 'ratio' else 'maximum'}); use the average")
        if self.order not in ("desc", "asc") or not 1 <= self.limit <= 100_000 or self.min_games < 1:
            raise SeasonError("the order must be desc or asc, the limit 1 to 100,000 and the minimum of games at least 1")
        if (game is not None and game.source == "pair") != (self.filters.versus is not None):
            raise SeasonError("kills on and deaths to one player need that player, and only they do")
        return self


def _board_sql(q: BoardQuery, ids: list[str] | None, qualified: bool) -> str:
    figure = GAME_FIGURES.get(q.figure)
    ctes, games = _games_sql(figure, q.filters, ids, q.subject)
    side_ctes, units = _units_sql(q.subject, figure, ids)
    value = _RECORD_VALUE[q.figure] if figure is None else _STATISTIC_VALUE[q.statistic]
    pick = "low" if q.statistic == "min" else "high"
    per_name = _PER_NAME.format(value=value, pick=pick)
    direction = "ASC" if q.order == "asc" else "DESC"
    keep = f"games >= {int(q.min_games)}" if qualified else f"games < {int(q.min_games)}"
    limit = f"WHERE rank <= {int(q.limit)}" if qualified else ""
    return f"""WITH {', '.join([*ctes, *side_ctes, games, units, per_name])}
        SELECT * FROM (
            SELECT rank() OVER (ORDER BY value {direction}) AS rank, * FROM per_name
            WHERE {keep} AND value IS NOT NULL) board
        {limit} ORDER BY value {direction}, name"""


def _board_rows(con, sql: str, params: Mapping[str, Any], subject: Subject) -> tuple[BoardRow, ...]:
    cursor = con.execute(sql, dict(params))
    names = [d[0] for d in cursor.description]
    rows = []
    for values in cursor.fetchall():
        r = dict(zip(names, values, strict=True))
        rows.append(BoardRow(rank=r["rank"], name=side_name(r["name"]) if subject == "side" else r["name"],
                             games=r["games"], wins=r["wins"], losses=r["losses"], unknown_results=r["unknown"],
                             value=r["value"], total=r["total"], average=r["average"], pooled=r["pooled"],
                             match_id=r["match_id"],
                             started_at=r["started_at"]))
    return tuple(rows)


def side_name(team: Any) -> str:
    """'Order (team 1)', 'Chaos (team 2)'."""
    number = int(team)
    return f"{SIDE_NAMES.get(number, 'team')} (team {number})"


def board(con, query: BoardQuery, selection: MatchSelection = ALL_MATCHES) -> Board:
    """A board (see the module docstring): the qualifying rows ranked, ties at the last rank included, and the
    entries with fewer games than the minimum whose value would lead."""
    q = query.checked()
    ids = selected_ids(con, selection)
    for name in (q.filters.player, q.filters.versus):
        if name is not None:
            require_player(con, name, ids, selection)
    params = bind(ids, **q.filters.params())
    rows = _board_rows(con, _board_sql(q, ids, qualified=True), params, q.subject)
    below: tuple[BoardRow, ...] = ()
    most_below = 0
    if q.min_games > 1:
        left_out = _board_rows(con, _board_sql(q, ids, qualified=False), params, q.subject)
        most_below = max((r.games for r in left_out), default=0)
        # of entries named and compared, every one left out is said; of a board, those that would lead
        below = left_out if q.filters.named else tuple(
            r for r in left_out if not rows or _beats(r.value, rows[0].value, q.order))[:3]
    return Board(subject=q.subject, figure=q.figure, statistic=q.statistic, order=q.order, min_games=q.min_games,
                 rows=rows, below_minimum=below, most_games_below=most_below)


def _beats(value: float | None, bar: float | None, order: Order) -> bool:
    if value is None or bar is None:
        return False
    return value < bar if order == "asc" else value > bar


# --- matches ranked, and a match figure over the season ---------------------------------------------------------

@dataclass(frozen=True)
class MatchFigure:
    """A figure of one match: `expr` over `matches m` and the source's columns."""

    id: str
    label: str
    expr: str
    kind: Kind = "sum"
    source: str = ""
    extra: str = ""  # more columns shown beside the value (the first blood's killer and victim)


_MATCH_SOURCES = {
    "kills": """match_kills AS (
        SELECT match_id, count(*) FILTER (WHERE is_player_kill) AS kills,
               count(*) FILTER (WHERE victim_kind = 'player') AS deaths
        FROM kills WHERE {sel} GROUP BY match_id)""",
    "first_blood": _FIRST_BLOOD.cte,
    "objectives": f"""match_taken AS (SELECT match_id, {_COUNTS} FROM objectives WHERE {{sel}} GROUP BY match_id)""",
    # the final gold difference: the teams' final gold (their players' gold, METRICS.md) apart
    "final_gold": """match_final_gold AS (SELECT match_id, abs(coalesce(sum(gold) FILTER (WHERE team = 1), 0)
        - coalesce(sum(gold) FILTER (WHERE team = 2), 0)) AS final_gold_difference FROM player_stats
        WHERE {sel} GROUP BY match_id)""",
    "gold": """match_gold AS (SELECT match_id, max(abs(gold_diff)) AS largest_gold_lead FROM gold_diff
        WHERE {sel} GROUP BY match_id)""",
    "stats": """match_stats AS (SELECT match_id, {sums} FROM player_stats WHERE {sel} GROUP BY match_id)""",
    # players' deaths by what killed them, every player of the match together
    "deaths": """match_fell AS (SELECT match_id, """ + ", ".join(
        f"count(*) FILTER (WHERE {cond}) AS deaths_to_{name}" for name, cond in DEATH_CAUSES) + """
        FROM kills WHERE victim_kind = 'player' AND {sel} GROUP BY match_id)""",
}
# The first of each kind of objective in a match: its match second ("which game had the earliest first tower").
FIRST_TAKEN = {"objectives_taken": ("first_objective_s", "first objective time"),
               "towers": ("first_tower_s", "first tower time"), "phoenixes": ("first_phoenix_s", "first phoenix time"),
               "titans": ("first_titan_s", "Titan kill time"),
               "gold_furies": ("first_gold_fury_s", "first Gold Fury time"),
               "fire_giants": ("first_fire_giant_s", "first Fire Giant time"),
               "bosses": ("first_boss_s", "first boss time")}
_MATCH_SOURCES["first_taken"] = ("match_first_taken AS (SELECT match_id, " + ", ".join(
    f"min(match_second) FILTER (WHERE {cond}) AS {FIRST_TAKEN[name][0]}" for name, cond in OBJECTIVES)
    + " FROM objectives WHERE {sel} GROUP BY match_id)")
# The match's single largest hit (METRICS.md: one Damage or CritDamage event by a player): who, with what, on whom;
# on a tie the earlier line of the log.
_MATCH_SOURCES["biggest_hit"] = """match_hit AS (SELECT match_id, source AS hit_by, ability AS hit_with, target AS hit_target,
        amount FROM (SELECT match_id, source, ability, target, amount,
                            row_number() OVER (PARTITION BY match_id ORDER BY amount DESC, line_no) AS n
                     FROM damage WHERE source_kind = 'player' AND {sel}) WHERE n = 1)"""
_MATCH_JOINS = {
    "biggest_hit": "LEFT JOIN match_hit bh ON bh.match_id = m.match_id",
    "first_taken": "LEFT JOIN match_first_taken mft ON mft.match_id = m.match_id",
    "kills": "LEFT JOIN match_kills mk ON mk.match_id = m.match_id",
    "first_blood": "LEFT JOIN first_blood fb ON fb.match_id = m.match_id",
    "objectives": "LEFT JOIN match_taken mo ON mo.match_id = m.match_id",
    "gold": "LEFT JOIN match_gold mg ON mg.match_id = m.match_id",
    "final_gold": "LEFT JOIN match_final_gold fg ON fg.match_id = m.match_id",
    "stats": "LEFT JOIN match_stats ms ON ms.match_id = m.match_id",
    "deaths": "LEFT JOIN match_fell mf ON mf.match_id = m.match_id",
}
_STAT_SUMS = tuple(m for m in ADDITIVE_METRICS if m not in ("kills", "deaths"))


def _match_figures() -> dict[str, MatchFigure]:
    figures = [
        MatchFigure("duration_s", "match length", "m.duration_s", "time"),
        MatchFigure("first_blood_s", "first blood time", "fb.match_second", "time", "first_blood",
                    extra="fb.killer AS first_blood_killer, fb.victim AS first_blood_victim"),
        MatchFigure("kills", "kills", "coalesce(mk.kills, 0)", source="kills"),
        MatchFigure("deaths", "deaths", "coalesce(mk.deaths, 0)", source="kills"),
        MatchFigure("largest_gold_lead", "largest gold lead", "mg.largest_gold_lead", "max", "gold"),
        MatchFigure("final_gold_difference", "final gold difference", "fg.final_gold_difference", "max", "final_gold"),
        MatchFigure("biggest_hit", "biggest single hit", "bh.amount", "max", "biggest_hit",
                    extra="bh.hit_by, bh.hit_with, bh.hit_target"),
    ]
    # a match has at most one first blood: counted over matches, the matches that had one
    figures.append(MatchFigure("first_bloods", "first bloods", "CASE WHEN fb.match_second IS NULL THEN 0 ELSE 1 END",
                               source="first_blood"))
    figures += [MatchFigure(name, OBJECTIVE_LABELS[name], f"coalesce(mo.{name}, 0)", source="objectives")
                for name, _ in OBJECTIVES]
    figures += [MatchFigure(FIRST_TAKEN[name][0], FIRST_TAKEN[name][1], f"mft.{FIRST_TAKEN[name][0]}", "time",
                            "first_taken") for name, _ in OBJECTIVES]
    figures += [MatchFigure(m, metric_label(m), f"ms.{m}", source="stats") for m in _STAT_SUMS]
    figures += [MatchFigure(f"deaths_to_{name}", f"deaths to {DEATH_LABELS[name]}", f"coalesce(mf.deaths_to_{name}, 0)",
                            source="deaths") for name, _ in DEATH_CAUSES]
    return {f.id: f for f in figures}


MATCH_FIGURES: dict[str, MatchFigure] = _match_figures()


class MatchRow(_Frozen):
    rank: int
    match_id: str
    started_at: datetime | None
    duration_s: int | None
    winner_team: int | None
    value: float | None
    details: dict[str, Any] = {}  # the figure's extra columns (first blood killer and victim)


class SeasonValue(_Frozen):
    """A match figure over the selected matches: their number, how many have a value (a match without a player
    kill has no first blood), and its total, mean, highest and lowest."""

    figure: str
    matches: int
    counted: int
    total: float | None
    average: float | None
    highest: float | None
    lowest: float | None


def _match_rows_sql(figure: MatchFigure, ids: list[str] | None) -> str:
    source = figure.source
    ctes = []
    if source:
        cte = _MATCH_SOURCES[source]
        if source == "stats":
            cte = cte.replace("{sums}", f"sum({figure.id}) AS {figure.id}")
        ctes.append(cte.format(sel=selected("match_id", ids)))
    extra = f", {figure.extra}" if figure.extra else ""
    rows = (f"match_rows AS (SELECT m.match_id, m.started_at, m.duration_s, m.winner_team, {figure.expr} AS value"
            f"{extra} FROM matches m {_MATCH_JOINS.get(source, '')} WHERE {selected('m.match_id', ids)})")
    return "WITH " + ", ".join([*ctes, rows])


def _match_figure(name: str) -> MatchFigure:
    found = MATCH_FIGURES.get(name)
    if found is None:
        raise SeasonError(f"unknown match figure {name!r}; use one of: {', '.join(MATCH_FIGURES)}")
    return found


def rank_matches(con, figure: str, selection: MatchSelection = ALL_MATCHES, *, order: Order = "desc",
                 limit: int = 10) -> tuple[MatchRow, ...]:
    """The selected matches ranked by a match figure, ties at the last rank included (earlier match first)."""
    found = _match_figure(figure)
    if order not in ("desc", "asc") or not 1 <= limit <= 100_000:
        raise SeasonError("the order must be desc or asc and the limit 1 to 100,000")
    ids = selected_ids(con, selection)
    direction = "ASC" if order == "asc" else "DESC"
    cursor = con.execute(f"""{_match_rows_sql(found, ids)}
        SELECT * FROM (SELECT rank() OVER (ORDER BY value {direction}) AS rank, * FROM match_rows
                       WHERE value IS NOT NULL) ranked
        WHERE rank <= {int(limit)} ORDER BY rank, started_at, match_id""", bind(ids))
    names = [d[0] for d in cursor.description]
    fixed = ("rank", "match_id", "started_at", "duration_s", "winner_team", "value")
    out = []
    for values in cursor.fetchall():
        r = dict(zip(names, values, strict=True))
        out.append(MatchRow(**{k: r[k] for k in fixed}, details={k: v for k, v in r.items() if k not in fixed}))
    return tuple(out)


def hit_of(con, match_id: str, player: str, amount: float) -> tuple[str | None, str | None]:
    """With what and on whom `player` landed a hit of `amount` in one match (the earliest such hit): the ability
    (`itemname`) and the target, as the log writes them; (None, None) when no such hit is logged."""
    row = con.execute("""SELECT ability, target FROM damage WHERE match_id = $match AND source = $player
        AND amount = $amount ORDER BY line_no LIMIT 1""", {"match": match_id, "player": player, "amount": amount}).fetchone()
    return (row[0], row[1]) if row else (None, None)


def season_value(con, figure: str, selection: MatchSelection = ALL_MATCHES) -> SeasonValue:
    """A match figure over the selected matches (docs/season.md): total, per-match mean, highest, lowest."""
    found = _match_figure(figure)
    ids = selected_ids(con, selection)
    row = con.execute(f"""{_match_rows_sql(found, ids)}
        SELECT count(*), count(value), sum(value), avg(value), max(value), min(value) FROM match_rows""",
                      bind(ids)).fetchone()
    return SeasonValue(figure=figure, matches=row[0], counted=row[1], total=row[2], average=row[3], highest=row[4],
                       lowest=row[5])


# --- who took part ---------------------------------------------------------------------------------------------

SEASON_COUNTS: tuple[str, ...] = ("players", "gods")  # the season's different players and gods, beside its matches


class SeasonCounts(_Frozen):
    """Who took part in the selected matches: different players (exact names) and gods, and player-games."""

    matches: int
    players: int
    gods: int
    player_games: int


def season_counts(con, selection: MatchSelection = ALL_MATCHES) -> SeasonCounts:
    ids = selected_ids(con, selection)
    row = con.execute(f"""SELECT count(DISTINCT match_id), count(DISTINCT player), count(DISTINCT god), count(*)
        FROM player_stats WHERE {selected("match_id", ids)}""", bind(ids)).fetchone()
    return SeasonCounts(matches=row[0], players=row[1], gods=row[2], player_games=row[3])
