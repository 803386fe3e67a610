"""Boards, matches ranked and season figures (`season.boards`), exact against the oracle over two seasons: the
24-match season of rewritten logs and the nine-match season of one roster (tests/support/season.py), each match
read by `../shared/tools/truth.py` and aggregated here in plain Python as docs/season.md defines the figures."""

from __future__ import annotations

import statistics
from datetime import datetime

import pytest

from combat_analysis.season import boards
from combat_analysis.season.boards import BoardQuery, Filters
from combat_analysis.season.figures import SeasonError
from tests.support.season import event_games, match_figures, same, side_games

# --- the oracle --------------------------------------------------------------------------------------------------

_STAT = {"total": sum, "average": statistics.fmean, "max": max, "min": min}


def _record_value(figure: str, rows: list[dict]) -> float | None:
    wins = sum(r["result"] == "win" for r in rows)
    losses = sum(r["result"] == "loss" for r in rows)
    return {"matches": len(rows), "wins": wins, "losses": losses,
            "win_rate": wins / (wins + losses) if wins + losses else None}[figure]


def _value(units: list[dict], figure: str, statistic: str, value) -> float | None:
    if figure in boards.RECORD_FIGURES:
        return _record_value(figure, units)
    return _STAT[statistic]([value(u) for u in units])


def _game_of(units: list[dict], statistic: str, value) -> str | None:
    """The game a best or worst single game came from: the earlier one on a tie."""
    if statistic not in ("max", "min"):
        return None
    wanted = _STAT[statistic]([value(u) for u in units])
    return min((u for u in units if value(u) == wanted), key=lambda u: (u["started_at"], u["match_id"]))["match_id"]


def expected_board(units: list[dict], key: str, q: BoardQuery, value=None) -> list[tuple]:
    """(rank, name, games, value, game of the value) of the qualifying entries, ranked, ties at the last rank kept."""
    value = value or (lambda u: u[q.figure])
    per = {}
    for name in {u[key] for u in units}:
        mine = [u for u in units if u[key] == name]
        v = _value(mine, q.figure, q.statistic, value)
        if len(mine) >= q.min_games and v is not None:
            per[name] = (len(mine), v, _game_of(mine, q.statistic, value))
    sign = 1 if q.order == "asc" else -1
    ordered = sorted(per.items(), key=lambda kv: (sign * kv[1][1], kv[0]))
    ranked = [(1 + sum(sign * o[1] < sign * v[1] for o in per.values()), name, *v) for name, v in ordered]
    if key == "side":  # sides are listed by team number, and named "Order (team 1)"
        ranked = [(r[0], boards.side_name(r[1]), *r[2:]) for r in ranked]
    return [r for r in ranked if r[0] <= q.limit]


def assert_board(got: boards.Board, want: list[tuple]) -> None:
    assert [(r.rank, r.name, r.games) for r in got.rows] == [w[:3] for w in want]
    for row, w in zip(got.rows, want, strict=True):
        assert same(row.value, w[3]), (row.name, row.value, w[3])
        if w[4] is not None:
            assert row.match_id == w[4], row.name


def units_of(matches, subject: str) -> tuple[list[dict], str]:
    if subject == "side":
        units = side_games(matches)
        starts = {g["match_id"]: g["started_at"] for g in event_games(matches)}
        return [{**u, "started_at": starts[u["match_id"]], "side": str(u["side"])} for u in units], "side"
    return event_games(matches), subject


# --- players, gods and roles ranked by any figure ----------------------------------------------------------------

FIGURES = ("kills", "deaths", "damage_dealt", "gold", "healing_done", "kda", "gpm", "biggest_hit", "assists")


@pytest.mark.parametrize("subject", ["player", "god", "role"])
@pytest.mark.parametrize("figure", FIGURES)
@pytest.mark.parametrize("statistic", ["total", "average", "max", "min"])
def test_boards_by_any_figure_and_statistic(seasons, subject, figure, statistic):
    con, matches = seasons
    if statistic not in boards.STATISTICS_OF_KIND[boards.GAME_FIGURES[figure].kind]:
        with pytest.raises(SeasonError, match="has no total"):
            boards.board(con, BoardQuery(subject, figure, statistic))
        return
    for order in ("desc", "asc"):
        q = BoardQuery(subject, figure, statistic, order=order, limit=4)
        units, key = units_of(matches, subject)
        assert_board(boards.board(con, q), expected_board(units, key, q))


@pytest.mark.parametrize("subject", ["player", "god", "role", "side"])
@pytest.mark.parametrize("figure", boards.RECORD_FIGURES)
def test_records_of_every_subject(seasons, subject, figure):
    con, matches = seasons
    q = BoardQuery(subject, figure, "record", limit=100)
    units, key = units_of(matches, subject)
    got = boards.board(con, q)
    assert_board(got, expected_board(units, key, q))
    for row in got.rows:
        mine = [u for u in units if (boards.side_name(u[key]) if key == "side" else u[key]) == row.name]
        assert (row.wins, row.losses, row.unknown_results) == (
            _record_value("wins", mine), _record_value("losses", mine),
            len(mine) - _record_value("wins", mine) - _record_value("losses", mine))


@pytest.mark.parametrize("figure", ["kills", "deaths", "assists", "gold", "damage_dealt", "kda", "gpm", "wins",
                                    "win_rate", "towers", "objectives_taken", "gold_furies"])
def test_sides_add_up_their_players(seasons, figure):
    con, matches = seasons
    statistic = ("record" if figure in boards.RECORD_FIGURES else
                 "average" if boards.GAME_FIGURES[figure].kind == "ratio" else "total")
    q = BoardQuery("side", figure, statistic)
    units, key = units_of(matches, "side")
    per_minute = {"gpm": "gold", "dpm": "damage_dealt"}
    value = {"kda": lambda u: (u["kills"] + u["assists"]) / max(u["deaths"], 1)}.get(
        figure, (lambda u: u[per_minute[figure]] / (u["duration_s"] / 60)) if figure in per_minute else None)
    assert_board(boards.board(con, q), expected_board(units, key, q, value))


# --- events counted per player --------------------------------------------------------------------------------------

EVENTS = ("first_bloods", "first_blood_deaths", "objectives_taken", "towers", "phoenixes", "titans", "gold_furies",
          "fire_giants", "bosses", "deaths_to_players", "deaths_to_npcs", "deaths_to_structures", "deaths_to_bosses")


@pytest.mark.parametrize("figure", EVENTS)
@pytest.mark.parametrize("subject", ["player", "god", "role"])
def test_counts_of_events(seasons, figure, subject):
    con, matches = seasons
    for statistic in ("total", "average", "max"):
        q = BoardQuery(subject, figure, statistic, limit=100)
        units, key = units_of(matches, subject)
        assert_board(boards.board(con, q), expected_board(units, key, q))


def test_the_second_season_has_deaths_to_every_kind_of_non_player(roster_matches):
    games = event_games(roster_matches)
    assert all(sum(g[f"deaths_to_{kind}"] for g in games) > 0 for kind in ("npcs", "structures", "bosses"))
    assert any(not o["killer_is_player"] for m in roster_matches for o in m.truth["objectives"])


def test_deaths_to_minions_and_jungle_are_the_rest_of_the_deaths_to_non_players(seasons):
    con, matches = seasons
    want = {}
    for g in event_games(matches):
        want[g["player"]] = want.get(g["player"], 0) + g["deaths_to_npcs"] - g["deaths_to_structures"] - g["deaths_to_bosses"]
    got = {}
    for figure in ("deaths_to_minions", "deaths_to_jungle"):
        for row in boards.board(con, BoardQuery("player", figure, "total", limit=100)).rows:
            got[row.name] = got.get(row.name, 0) + row.value
    assert got == want


@pytest.mark.parametrize("statistic", ["total", "average", "max"])
def test_kills_on_one_player_and_deaths_to_them(seasons, statistic):
    con, matches = seasons
    games = event_games(matches)
    team = {(g["match_id"], g["player"]): g["team"] for g in games}
    for rival in sorted({g["player"] for g in games})[:4]:
        against = [g for g in games if (g["match_id"], rival) in team and team[(g["match_id"], rival)] != g["team"]]
        q = BoardQuery("player", "kills_on", statistic, filters=Filters(versus=rival), limit=100)
        assert_board(boards.board(con, q), expected_board(against, "player", q,
                                                          lambda g, rival=rival: g["kills_on"][rival]))
        killer_of = {g["match_id"]: g for g in games if g["player"] == rival}
        q = BoardQuery("player", "deaths_to", statistic, filters=Filters(versus=rival), limit=100)
        assert_board(boards.board(con, q), expected_board(
            against, "player", q, lambda g, of=killer_of: of[g["match_id"]]["kills_on"][g["player"]]))


# --- filters, the minimum of games and ties -----------------------------------------------------------------------------


def test_a_players_god_pool_and_the_players_of_a_god(seasons):
    con, matches = seasons
    games = event_games(matches)
    for player in sorted({g["player"] for g in games})[:5]:
        q = BoardQuery("god", "matches", "record", filters=Filters(player=player), limit=100)
        assert_board(boards.board(con, q), expected_board([g for g in games if g["player"] == player], "god", q))
    for god in sorted({g["god"] for g in games})[:5]:
        q = BoardQuery("player", "win_rate", "record", filters=Filters(god=god.upper()), limit=100)
        assert_board(boards.board(con, q), expected_board([g for g in games if g["god"] == god], "player", q))


@pytest.mark.parametrize("filters", [Filters(role="carry"), Filters(side=2), Filters(role="Support", side=1),
                                     Filters(god="Thor", role="Jungle")])
def test_filters_keep_only_those_games(seasons, filters):
    con, matches = seasons
    games = [g for g in event_games(matches) if (filters.role is None or g["role"].lower() == filters.role.lower())
             and (filters.side is None or g["team"] == filters.side) and (filters.god is None or g["god"] == filters.god)]
    for figure, statistic in (("kills", "total"), ("wins", "record"), ("kda", "average")):
        q = BoardQuery("player", figure, statistic, filters=filters, limit=100)
        assert_board(boards.board(con, q), expected_board(games, "player", q))


def test_one_player_looked_up(seasons):
    con, matches = seasons
    games = event_games(matches)
    player = games[0]["player"]
    role = games[0]["role"]
    q = BoardQuery("player", "wins", "record", filters=Filters(player=player, role=role))
    (row,) = boards.board(con, q).rows
    mine = [g for g in games if g["player"] == player and g["role"] == role]
    assert (row.name, row.games, row.value) == (player, len(mine), _record_value("wins", mine))


def test_a_minimum_of_games_and_who_it_leaves_out(seasons):
    con, matches = seasons
    games = event_games(matches)
    counts = sorted({sum(g["player"] == p for g in games) for p in {g["player"] for g in games}})
    least = counts[len(counts) // 2] if len(counts) > 1 else counts[0] + 1
    q = BoardQuery("player", "kills", "average", min_games=least, limit=100)
    got = boards.board(con, q)
    assert_board(got, expected_board(games, "player", q))
    fewer = BoardQuery("player", "kills", "average", limit=100)
    everyone = {w[1]: w for w in expected_board(games, "player", fewer)}
    left_out = [w for w in everyone.values() if w[2] < least]
    leader = got.rows[0].value if got.rows else None
    better = sorted((w for w in left_out if leader is None or w[3] > leader), key=lambda w: (-w[3], w[1]))[:3]
    assert [(r.name, r.games) for r in got.below_minimum] == [(w[1], w[2]) for w in better]
    assert got.most_games_below == max(w[2] for w in left_out)


def test_nobody_qualifies_yet(seasons):
    con, matches = seasons
    got = boards.board(con, BoardQuery("god", "win_rate", "record", min_games=1000))
    assert got.rows == () and 0 < len(got.below_minimum) <= 3
    assert got.most_games_below == max(sum(g["god"] == god for g in event_games(matches))
                                       for god in {g["god"] for g in event_games(matches)})


def test_ties_share_a_rank_and_the_last_rank_is_kept_whole(seasons):
    con, matches = seasons
    games = event_games(matches)
    q = BoardQuery("player", "first_bloods", "total", limit=1)
    got = boards.board(con, q)
    assert_board(got, expected_board(games, "player", q))
    assert all(r.rank == 1 for r in got.rows)


def test_an_unknown_figure_or_a_pair_without_its_player_is_an_error(seasons):
    con, _ = seasons
    with pytest.raises(SeasonError, match="unknown figure"):
        boards.board(con, BoardQuery("player", "team_fights", "total"))
    with pytest.raises(SeasonError, match="need that player"):
        boards.board(con, BoardQuery("player", "kills_on", "total"))
    with pytest.raises(SeasonError, match="no player named"):
        boards.board(con, BoardQuery("player", "kills", "total", filters=Filters(player="Nobody At All")))


# --- matches ranked, and match figures over the season -----------------------------------------------------------------

MATCH_FIGURES = ("duration_s", "kills", "deaths", "first_blood_s", "largest_gold_lead", "objectives_taken", "towers",
                 "gold_furies", "fire_giants", "bosses", "damage_dealt", "biggest_hit")


@pytest.mark.parametrize("figure", MATCH_FIGURES)
@pytest.mark.parametrize("order", ["desc", "asc"])
def test_matches_ranked_by_a_match_figure(seasons, figure, order):
    con, matches = seasons
    rows = [r for r in match_figures(matches) if r[figure] is not None]
    sign = 1 if order == "asc" else -1
    want = sorted(rows, key=lambda r: (sign * r[figure], r["started_at"], r["match_id"]))
    got = boards.rank_matches(con, figure, order=order, limit=3)
    ranks = [1 + sum(sign * o[figure] < sign * r[figure] for o in rows) for r in want]
    kept = [(rank, r) for rank, r in zip(ranks, want, strict=True) if rank <= 3]
    assert [(m.rank, m.match_id) for m in got] == [(rank, r["match_id"]) for rank, r in kept]
    assert all(same(m.value, r[figure]) for m, (_, r) in zip(got, kept, strict=True))
    if figure == "first_blood_s":
        assert [m.details["first_blood_killer"] for m in got] == [r["first_blood_killer"] for _, r in kept]
    if figure == "biggest_hit":  # who landed the match's biggest hit, with what, on whom
        assert [(m.details["hit_by"], m.details["hit_with"], m.details["hit_target"]) for m in got] == \
            [(r["hit_by"], r["hit_with"], r["hit_target"]) for _, r in kept]


@pytest.mark.parametrize("figure", MATCH_FIGURES)
def test_a_match_figure_over_the_season(seasons, figure):
    con, matches = seasons
    values = [r[figure] for r in match_figures(matches) if r[figure] is not None]
    got = boards.season_value(con, figure)
    assert (got.matches, got.counted) == (len(matches), len(values))
    assert same(got.total, sum(values)) and same(got.average, statistics.fmean(values))
    assert (got.highest, got.lowest) == (max(values), min(values))


def test_side_names_say_order_and_chaos():
    assert boards.side_name(1) == "Order (team 1)" and boards.side_name("2") == "Chaos (team 2)"
    assert datetime  # the oracle's starts are datetimes, compared as they are
