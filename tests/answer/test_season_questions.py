"""Cross-match questions of every kind the season answers, end to end over two seasons (the 24-match season and the
nine-match season of one roster): phrasings of our own, several per kind, each answer's rows and words checked
against `../shared/tools/truth.py` aggregated in plain Python (tests/support/season.py).

Kinds: career words without a scope word, top N, the best single game, god pools, records of players, gods, roles
and sides, the default minimum of games, kills between two players, matches ranked, match figures over the season,
counts of events, ties, denied counts ("never", "zero"), figures named by their own words (plurals, abbreviations,
"win/loss", a game named by a superlative of its figure, picks "most often"), scope from a minimum of games or a
god's average, and the season check's six questions."""

from __future__ import annotations

import statistics

import pytest

from combat_analysis.formatting import clock, number, percent
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    games_of,
    match_figures,
    named_players,
    same,
    side_games,
    start_order,
)

FIGURES = (("kills", "kills"), ("assists", "assists"), ("gold", "gold"), ("damage", "damage_dealt"),
           ("healing", "healing_done"))








def said(value, decimals: int = 0) -> str:
    return number(value, decimals)


def leaders(values: dict[str, float], high: bool = True) -> list[str]:
    best = max(values.values()) if high else min(values.values())
    return sorted(p for p, v in values.items() if v == best)


# --- career words: a question about a player's totals or habits reads every match --------------------------------

CAREER = (("how many {m} has {n} got in total", "total"), ("{n} {m} per game", "average"),
          ("what is {n}'s typical {m}", "average"), ("{n}'s usual {m} output", "average"),
          ("how many {m} does {n} usually get", "average"), ("what is {n}'s average {m}", "average"),
          ("how many {m} has {n} had", "total"), ("{n}'s {m} a game", "average"))


@pytest.mark.parametrize("template,statistic", CAREER)
@pytest.mark.parametrize("figure", FIGURES[:3])
def test_career_words_read_every_match(seasons, template, statistic, figure):
    home, matches = seasons
    said_as, metric = figure
    player = named_players(matches, 2)[1]
    pkg, rows = ask_across(home, template.format(m=said_as, n=player))
    answer = answered_across(pkg)
    values = [g[metric] for g in games_of(matches, player)]
    (row,) = rows
    key = f"total_{metric}" if statistic == "total" else f"average_{metric}"
    want = sum(values) if statistic == "total" else statistics.fmean(values)
    assert same(row[key], want)
    assert said(want, 0 if statistic == "total" else 2) in answer
    assert f"Across all {len(matches)} matches" in answer


@pytest.mark.parametrize("question", ("how many deaths has {n} had so far", "how often has {n} died in total",
                                      "{n}'s deaths in total"))
def test_deaths_in_total(seasons, question):
    home, matches = seasons
    player = named_players(matches, 2)[0]
    pkg, rows = ask_across(home, question.format(n=player))
    answered_across(pkg)
    assert rows[0]["total_deaths"] == sum(g["deaths"] for g in games_of(matches, player))


# --- top N and the best single game ---------------------------------------------------------------------------------

TOP = ("top {k} {m} this season", "the {k} players with the most {m} overall", "top{k} by {m} across all matches")


@pytest.mark.parametrize("template", TOP)
@pytest.mark.parametrize("figure", FIGURES)
def test_top_n_lists_n_with_their_totals(seasons, template, figure):
    home, matches = seasons
    said_as, metric = figure
    pkg, rows = ask_across(home, template.format(k=3, m=said_as))
    answer = answered_across(pkg)
    totals: dict[str, float] = {}
    for g in event_games(matches):
        totals[g["player"]] = totals.get(g["player"], 0) + g[metric]
    want = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    assert [(r["player"], r[metric]) for r in rows[:3]] == want
    for name, value in want:
        assert name in answer and said(value) in answer


SINGLE = ("most {m} anyone had in one game this season", "highest {m} in a single match across all games",
          "biggest {m} game of the season", "what is the record for {m} in one game")


@pytest.mark.parametrize("template", SINGLE)
@pytest.mark.parametrize("figure", (("kills", "kills"), ("damage", "damage_dealt"), ("assists", "assists")))
def test_the_best_single_game(seasons, template, figure):
    home, matches = seasons
    said_as, metric = figure
    pkg, rows = ask_across(home, template.format(m=said_as))
    answer = answered_across(pkg)
    games = sorted(event_games(matches), key=lambda g: (-g[metric], g["started_at"], g["match_id"]))
    best = games[0]
    assert pkg.plan.season.statistic == "max"
    assert rows[0][metric] == best[metric] and said(best[metric]) in answer
    assert rows[0]["player"] in {g["player"] for g in games if g[metric] == best[metric]}
    assert rows[0]["match_id"] in answer


# --- god pools -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("template", ("what gods has {n} been playing", "list the gods {n} has picked this season",
                                      "{n}'s god pool"))
def test_a_players_god_pool(seasons, template):
    home, matches = seasons
    player = named_players(matches, 3)[2]
    pkg, rows = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    counts: dict[str, int] = {}
    for g in games_of(matches, player):
        counts[g["god"]] = counts.get(g["god"], 0) + 1
    assert {r["god"]: r["matches"] for r in rows} == counts
    assert all(god in answer for god in counts)
    # how each went: every god's wins and losses beside its games
    for god in counts:
        games_, wins, losses = record([g for g in games_of(matches, player) if g["god"] == god])
        (row,) = [r for r in rows if r["god"] == god]
        assert (row["wins"], row["losses"]) == (wins, losses)
    assert ("win" in answer) and ("loss" in answer)


@pytest.mark.parametrize("template", ("{n}'s most played god", "which god does {n} play the most",
                                      "what is {n}'s favourite god across all matches"))
def test_a_players_most_played_god(seasons, template):
    home, matches = seasons
    player = named_players(matches, 3)[0]
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    counts: dict[str, int] = {}
    for g in games_of(matches, player):
        counts[g["god"]] = counts.get(g["god"], 0) + 1
    assert all(god in answer for god in leaders(counts))
    assert f"{max(counts.values())} game" in answer


@pytest.mark.parametrize("template", ("who has played {g}", "which players picked {g} this season",
                                      "everyone who has played {g}"))
def test_the_players_of_a_god(seasons, template):
    home, matches = seasons
    god = sorted({g["god"] for g in event_games(matches)})[1]
    pkg, rows = ask_across(home, template.format(g=god))
    answer = answered_across(pkg)
    counts: dict[str, int] = {}
    for g in event_games(matches):
        if g["god"] == god:
            counts[g["player"]] = counts.get(g["player"], 0) + 1
    assert {r["player"]: r["matches"] for r in rows} == counts
    named = [r["player"] for r in rows][:10]  # a list names ten and counts the rest
    assert all(p in answer for p in named)
    if len(rows) > 10:
        assert f"and {len(rows) - 10} more" in answer


# --- records: players, gods, roles, sides ------------------------------------------------------------------------------


def record(games: list[dict]) -> tuple[int, int, int]:
    return (len(games), sum(g["result"] == "win" for g in games), sum(g["result"] == "loss" for g in games))


@pytest.mark.parametrize("template,figure", (("how many games has {n} won", "wins"),
                                             ("how many losses does {n} have this season", "losses"),
                                             ("what's {n}'s win rate", "win_rate"),
                                             ("{n} record across all matches", "win_rate")))
def test_a_players_record_always_shows_the_games(seasons, template, figure):
    home, matches = seasons
    player = named_players(matches, 2)[3]
    pkg, rows = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    games, wins, losses = record(games_of(matches, player))
    assert (rows[0]["matches"], rows[0]["wins"], rows[0]["losses"]) == (games, wins, losses)
    assert f"{games} matches" in answer or f"{games} games" in answer


@pytest.mark.parametrize("template", ("win rate of {g}", "how does {g} do? win rate", "{g}'s record this season"))
def test_a_gods_win_rate(seasons, template):
    home, matches = seasons
    god = sorted({g["god"] for g in event_games(matches)})[0]
    pkg, rows = ask_across(home, template.format(g=god))
    answer = answered_across(pkg)
    games, wins, losses = record([g for g in event_games(matches) if g["god"] == god])
    (row,) = rows
    assert (row["god"], row["matches"], row["wins"], row["losses"]) == (god, games, wins, losses)
    assert percent(100 * wins / (wins + losses)) in answer and f"{games} games" in answer


@pytest.mark.parametrize("template,role", (("{r} win rate this season", "Jungle"), ("how do supports do overall", "Support"),
                                           ("how many kills do the mid laners average per game", "Middle")))
def test_a_roles_figures(seasons, template, role):
    home, matches = seasons
    pkg, rows = ask_across(home, template.format(r=role.lower()))
    answer = answered_across(pkg)
    games = [g for g in event_games(matches) if g["role"] == role]
    (row,) = rows
    assert (row["role"], row["matches"]) == (role, len(games))
    if "kills" in row:
        assert same(row["kills"], statistic_mean([g["kills"] for g in games]))
        assert said(row["kills"], 2) in answer


def statistic_mean(values):
    return statistics.fmean(values)


@pytest.mark.parametrize("template", ("does chaos or order have more wins", "which side has won more games",
                                      "order vs chaos: who wins more often"))
def test_which_side_wins_more(seasons, template):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    wins = {s: sum(x["result"] == "win" for x in side_games(matches) if x["side"] == s) for s in (1, 2)}
    best = max(wins, key=lambda s: (wins[s], -s))
    assert rows[0]["side"] == ("Order (team 1)" if best == 1 else "Chaos (team 2)")
    assert rows[0]["wins"] == wins[best] and rows[0]["matches"] == len(matches)
    # "wins more often" is the win rate (docs/season.md, sides set against each other), said with the wins
    said = (f"win rate over {len(matches)} games ({wins[best]} wins," if "often" in template else
            f"{wins[best]} wins over {len(matches)} games")
    assert said in answer, answer


@pytest.mark.parametrize("template,figure", (("total kills by each side this season", "kills"),
                                             ("towers destroyed per side across all matches", "towers")))
def test_sides_totals(seasons, template, figure):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answered_across(pkg)
    want = {s: sum(x[figure] for x in side_games(matches) if x["side"] == s) for s in (1, 2)}
    got = {1 if r["side"].startswith("Order") else 2: r[figure] for r in rows}
    assert got == want


@pytest.mark.parametrize("template,side", (("how often does order win", 1), ("order's win rate this season", 1),
                                           ("how often does chaos lose", 2)))
def test_a_side_named_by_its_name_is_looked_up(seasons, template, side):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    games_ = [x for x in side_games(matches) if x["side"] == side]
    wins, losses = sum(x["result"] == "win" for x in games_), sum(x["result"] == "loss" for x in games_)
    (row,) = rows
    assert (row["matches"], row["wins"], row["losses"]) == (len(games_), wins, losses)
    assert f"over {len(games_)} games" in answer


# --- the default minimum of games ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("template", ("highest average {m} this season", "who averages the most {m} per game",
                                      "best {m} per game of anyone"))
def test_averages_rank_those_with_three_games_by_default_and_say_so(roster_home, roster_matches, template):
    pkg, rows = ask_across(roster_home, template.format(m="kills"))
    answer = answered_across(pkg)
    per: dict[str, list] = {}
    for g in event_games(roster_matches):
        per.setdefault(g["player"], []).append(g["kills"])
    means = {p: statistics.fmean(v) for p, v in per.items() if len(v) >= 3}
    assert rows[0]["player"] in leaders(means) and same(rows[0]["kills"], max(means.values()))
    assert "among players with at least 3 games (the default" in answer
    newcomer = statistics.fmean(per["Rookie Ann"])
    assert len(per["Rookie Ann"]) == 2
    if newcomer > max(means.values()):
        assert "Not counted, with fewer than 3 games: Rookie Ann" in answer


@pytest.mark.parametrize("template", ("best win rate with at least {k} games", "top win rate, min {k} games",
                                      "highest win rate among players with {k}+ games"))
def test_a_minimum_said_in_the_question(seasons, template):
    home, matches = seasons
    per: dict[str, list] = {}
    for g in event_games(matches):
        per.setdefault(g["player"], []).append(g["result"])
    k = sorted(len(v) for v in per.values())[len(per) // 2]
    pkg, rows = ask_across(home, template.format(k=k))
    answer = answered_across(pkg)
    rates = {p: v.count("win") / (v.count("win") + v.count("loss")) for p, v in per.items()
             if len(v) >= k and v.count("win") + v.count("loss")}
    assert pkg.plan.season.min_matches == k and not pkg.plan.season.min_default
    assert rows[0]["player"] in leaders(rates)
    assert f"among players with at least {k} games," in answer


@pytest.mark.parametrize("template", ("best win rate with at least 500 games", "which god has the best win rate, "
                                      "minimum 400 games"))
def test_nobody_qualifies_yet(seasons, template):
    home, _ = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    assert "nobody qualifies yet" in answer and all(not r["qualifies"] for r in rows)


# --- kills between two players ----------------------------------------------------------------------------------------


def kills_on(matches, killer: str, victim: str) -> int:
    return sum(g["kills_on"].get(victim, 0) for g in games_of(matches, killer))


def pair(matches) -> tuple[str, str]:
    names = named_players(matches, 4)
    best = max(((a, b) for a in names for b in names if a != b), key=lambda ab: (kills_on(matches, *ab), ab))
    return best


@pytest.mark.parametrize("template", ("how many times has {a} killed {b}", "how many kills does {a} have on {b} in total",
                                      "{a} kills on {b} across all matches"))
def test_kills_of_one_player_on_another(seasons, template):
    home, matches = seasons
    a, b = pair(matches)
    pkg, rows = ask_across(home, template.format(a=a, b=b))
    answer = answered_across(pkg)
    want = kills_on(matches, a, b)
    assert rows[0]["player"] == a and rows[0].get("kills_on", rows[0].get("total_kills_on")) == want
    assert f"{want} kills on {b}" in answer


@pytest.mark.parametrize("template", ("who has killed {b} the most", "which player kills {b} most often this season",
                                      "who has the most kills on {b} overall"))
def test_who_kills_a_player_the_most(seasons, template):
    home, matches = seasons
    _, b = pair(matches)
    pkg, rows = ask_across(home, template.format(b=b))
    answer = answered_across(pkg)
    totals = {p: kills_on(matches, p, b) for p in {g["player"] for g in event_games(matches)} if p != b}
    assert rows[0]["player"] in leaders(totals) and rows[0]["kills_on"] == max(totals.values())
    assert f"{max(totals.values())} kills on {b}" in answer


# --- matches ranked, and match figures over the season --------------------------------------------------------------


@pytest.mark.parametrize("template,figure,high", (
    ("which match saw the most kills", "kills", True), ("the match with the fewest deaths", "deaths", False),
    ("what was our longest match", "duration_s", True), ("the shortest game we have played", "duration_s", False),
    ("which game had the most towers destroyed this season", "towers", True),
    ("earliest first blood across all games", "first_blood_s", False),
))
def test_matches_ranked_are_named_by_id_and_date(seasons, template, figure, high):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    ranked = [r for r in match_figures(matches) if r[figure] is not None]
    best = (max if high else min)(r[figure] for r in ranked)
    tied = sorted((r for r in ranked if r[figure] == best), key=lambda r: (r["started_at"], r["match_id"]))
    assert [r["match_id"] for r in rows if r["rank"] == 1] == [r["match_id"] for r in tied]
    first = tied[0]
    assert first["match_id"] in answer and first["started_at"].date().isoformat() in answer
    shown = clock(best) if figure in ("duration_s", "first_blood_s") else said(best)
    assert shown in answer
    if figure == "first_blood_s":
        assert first["first_blood_killer"] in answer
    assert "report" in rows[0]  # a link to the match's report, or None before it is built


@pytest.mark.parametrize("template,figure,statistic", (
    ("average match length", "duration_s", "average"), ("how long do our games usually last", "duration_s", "average"),
    ("whats our avrage match length", "duration_s", "average"),  # a slip of "average" that the cue words once held
    ("how many kills per game on average", "kills", "average"),
    ("how many towers have been destroyed in total", "towers", "total"),
    ("total fire giants killed across all matches", "fire_giants", "total"),
))
def test_match_figures_over_the_season(seasons, template, figure, statistic):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    values = [r[figure] for r in match_figures(matches)]
    want = sum(values) if statistic == "total" else statistics.fmean(values)
    assert same(rows[0][f"{statistic}_{figure}"], want)
    shown = clock(round(want)) if figure == "duration_s" else said(want, 0 if statistic == "total" else 2)
    assert shown in answer


@pytest.mark.parametrize("question", ("how many games does the warehouse hold", "how many matches have been ingested",
                                      "number of matches loaded so far", "how many games have been loaded in our db"))
def test_how_many_matches(seasons, question):
    home, matches = seasons
    pkg, rows = ask_across(home, question)
    answer = answered_across(pkg)
    ordered = start_order(matches)
    assert rows[0]["matches"] == len(matches) and f"{len(matches)} matches" in answer
    assert ordered[0].truth["match_start"][:10] in answer and ordered[-1].truth["match_start"][:10] in answer


# --- counts of events, and ties ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("template,figure", (
    ("who has drawn first blood most often this season", "first_bloods"),
    ("who has given up first blood the most", "first_blood_deaths"),
    ("who has taken the most objectives overall", "objectives_taken"),
    ("most towers destroyed by one player across all matches", "towers"),
    ("who has died to towers the most this season", "deaths_to_structures"),
    ("which player died to non-players most often across all games", "deaths_to_npcs"),
))
def test_counts_of_events_with_everyone_tied_named(seasons, template, figure):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    totals: dict[str, int] = {}
    for g in event_games(matches):
        totals[g["player"]] = totals.get(g["player"], 0) + g[figure]
    top = leaders(totals)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top
    for name in top[:5]:
        assert name in answer
    if len(top) > 5:
        assert f"and {len(top) - 5} more tied" in answer


# --- the season check ---------------------------------------------------------------------------------------------------


def test_the_season_checks_six_questions(seasons):
    home, matches = seasons
    games = event_games(matches)
    wins: dict[str, int] = {}
    damage: dict[str, float] = {}
    for g in games:
        wins[g["player"]] = wins.get(g["player"], 0) + (g["result"] == "win")
        damage[g["player"]] = damage.get(g["player"], 0) + g["damage_dealt"]
    pkg, rows = ask_across(home, "Who won the most matches?")
    assert rows[0]["player"] in leaders(wins) and f"{max(wins.values())} wins" in answered_across(pkg)
    pkg, rows = ask_across(home, "Who dealt the most damage this season?")
    assert rows[0]["player"] in leaders(damage) and said(max(damage.values())) in answered_across(pkg)
    player = named_players(matches, 3)[0]
    pkg, rows = ask_across(home, f"What is {player}'s average KDA over all matches?")
    assert same(rows[0]["average_kda"], statistics.fmean(g["kda"] for g in games_of(matches, player)))
    answered_across(pkg)
    pkg, rows = ask_across(home, "Which gods win most in the Solo lane?")
    assert pkg.plan.season.subject == "god" and pkg.plan.season.role == "Solo" and answered_across(pkg)
    a, b = named_players(matches, 3)[:2]
    pkg, rows = ask_across(home, f"{a} vs {b} head to head")
    assert pkg.plan.season.figure == "head_to_head" and answered_across(pkg)
    assert rows[0]["kills_a_on_b"] == kills_on(matches, a, b)
    pkg, rows = ask_across(home, f"How has {a}'s KDA moved over the last 10 games?")
    assert [r["match_id"] for r in rows] == [g["match_id"] for g in sorted(
        games_of(matches, a), key=lambda g: (g["started_at"], g["match_id"]))][-10:]
    answered_across(pkg)


# --- denied counts: those whose count is zero, or nobody with the fewest said ---------------------------------------


def _count_of(games: list[dict], figure: str) -> int:
    if figure in ("wins", "losses"):
        return sum(g["result"] == figure[:-1].replace("losse", "loss") for g in games)
    return sum(g[figure] for g in games)


@pytest.mark.parametrize("template,figure,least", (
    ("who has never won a game", "wins", 1), ("which players have not lost once across all matches", "losses", 1),
    ("who has zero first bloods across all matches", "first_bloods", 1),
    ("who hasn't died to a tower this season", "deaths_to_towers", 1),
    ("which players have never died to a structure across all matches", "deaths_to_structures", 1),
    ("which players with 4+ games never won", "wins", 4),
))
def test_denied_counts_name_those_at_zero(seasons, template, figure, least):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    by_player: dict[str, list[dict]] = {}
    for g in event_games(matches):
        by_player.setdefault(g["player"], []).append(g)
    counted = {p: _count_of(gs, figure) for p, gs in by_player.items() if len(gs) >= least}
    zero = sorted(p for p, n in counted.items() if n == 0)
    column = figure if figure not in ("wins", "losses") else figure
    assert sorted(r["player"] for r in rows if r.get("qualifies", True) and not r[column]) == zero
    if zero:
        assert "with 0 " in answer and all(p in answer for p in zero[:10])
    else:
        fewest = min(counted.values())
        assert "no player has 0" in answer and any(p in answer for p, n in counted.items() if n == fewest)


# --- figures named by their own words ---------------------------------------------------------------------------------


@pytest.mark.parametrize("template,figure", (
    ("how many first bloods has {n} drawn", "first_bloods"), ("fbs for {n} this season", "first_bloods"),
    ("{n} first-bloods in total", "first_bloods"),
))
def test_first_bloods_by_plural_and_abbreviation(seasons, template, figure):
    home, matches = seasons
    player = named_players(matches, 2)[0]
    pkg, rows = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    want = sum(g[figure] for g in games_of(matches, player))
    assert rows[0][figure] == want and f"{want} first blood" in answer


@pytest.mark.parametrize("template", ("who dies first most often", "which player died first the most this season"))
def test_dying_first_is_first_blood_given(seasons, template):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answered_across(pkg)
    totals: dict[str, int] = {}
    for g in event_games(matches):
        totals[g["player"]] = totals.get(g["player"], 0) + g["first_blood_deaths"]
    assert pkg.plan.season.metric == "first_blood_deaths"
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == leaders(totals)


@pytest.mark.parametrize("template", ("{n} win/loss", "w/l of {n}", "{n}'s win-loss record"))
def test_win_loss_is_the_record(seasons, template):
    home, matches = seasons
    player = named_players(matches, 2)[1]
    pkg, rows = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    games_, wins, losses = record(games_of(matches, player))
    assert (rows[0]["matches"], rows[0]["wins"], rows[0]["losses"]) == (games_, wins, losses)
    assert f"{wins} win" in answer and f"{losses} loss" in answer


@pytest.mark.parametrize("template,metric,best", (
    ("{n}'s lowest-kill game", "kills", False), ("{n}'s highest damage game", "damage_dealt", True),
    ("the fewest-assist match {n} had", "assists", False),
))
def test_a_game_named_by_a_superlative_of_its_figure(seasons, template, metric, best):
    home, matches = seasons
    player = named_players(matches, 3)[1]
    pkg, rows = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    games_ = sorted(games_of(matches, player), key=lambda g: (g["started_at"], g["match_id"]))
    want = (max if best else min)(g[metric] for g in games_)
    first = next(g for g in games_ if g[metric] == want)
    key = "best_match_id" if best else "worst_match_id"
    assert rows[0][key] == first["match_id"] and first["match_id"] in answer


@pytest.mark.parametrize("template,high", (("which god gets picked most often", True),
                                           ("the god chosen the least", False), ("god played most often", True)))
def test_picks_most_or_least_often(seasons, template, high):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    counts: dict[str, int] = {}
    for g in event_games(matches):
        counts[g["god"]] = counts.get(g["god"], 0) + 1
    top = leaders(counts, high)
    assert sorted(r["god"] for r in rows if r["rank"] == 1) == top
    assert top[0] in answer


# --- scope from meaning: a minimum of games, a god's average -------------------------------------------------------


@pytest.mark.parametrize("template,least", (("who has the best average kda with 4+ games", 4),
                                            ("lowest average deaths, at least 3 matches", 3)))
def test_a_minimum_of_games_reads_every_match(seasons, template, least):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answered_across(pkg)
    metric = "kda" if "kda" in template else "deaths"
    per: dict[str, list[float]] = {}
    for g in event_games(matches):
        per.setdefault(g["player"], []).append(g[metric])
    means = {p: statistics.fmean(v) for p, v in per.items() if len(v) >= least}
    want = (max if "best" in template else min)(means.values())
    assert pkg.plan.season.min_matches == least
    assert same(rows[0][metric], want)


@pytest.mark.parametrize("template,metric", (("which god deals the most damage on average", "damage_dealt"),
                                             ("the god with the highest mean kills", "kills")))
def test_a_gods_average_reads_every_match(seasons, template, metric):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answered_across(pkg)
    per: dict[str, list[float]] = {}
    for g in event_games(matches):
        per.setdefault(g["god"], []).append(g[metric])
    least = pkg.plan.season.min_matches
    means = {god: statistics.fmean(v) for god, v in per.items() if len(v) >= least}
    assert pkg.plan.season.subject == "god" and pkg.plan.season.statistic == "average"
    assert same(rows[0][metric], max(means.values()))


@pytest.mark.parametrize("template,high,figure", (("which game had the closest gold race", False, "final_gold_difference"),
                                                  ("the most one-sided game", True, "largest_gold_lead"),
                                                  ("our tightest match", False, "final_gold_difference"),
                                                  ("which match was the closest on gold", False, "final_gold_difference")))
def test_gold_races_rank_matches_closest_by_final_difference_one_sided_by_largest_lead(seasons, template, high, figure):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    ranked = match_figures(matches)
    best = (max if high else min)(r[figure] for r in ranked)
    tied = sorted((r for r in ranked if r[figure] == best), key=lambda r: (r["started_at"], r["match_id"]))
    assert [r["match_id"] for r in rows if r["rank"] == 1] == [r["match_id"] for r in tied]
    assert tied[0]["match_id"] in answer and said(best) in answer
    assert pkg.plan.shape == "leader"


@pytest.mark.parametrize("template", ("did {a} or {b} win more of their games against each other",
                                      "{a} against {b}: who has won more", "wins of {a} vs {b}"))
def test_a_record_between_two_players_is_their_head_to_head(seasons, template):
    home, matches = seasons
    a, b = named_players(matches, 3)[:2]
    pkg, rows = ask_across(home, template.format(a=a, b=b))
    answer = answered_across(pkg)
    assert pkg.plan.season.figure == "head_to_head"
    by_match: dict[str, dict[str, dict]] = {}
    for g in event_games(matches):
        by_match.setdefault(g["match_id"], {})[g["player"]] = g
    opposed = [m for m in by_match.values() if a in m and b in m and m[a]["team"] != m[b]["team"]]
    wins_a = sum(m[a]["result"] == "win" for m in opposed)
    wins_b = sum(m[b]["result"] == "win" for m in opposed)
    assert (rows[0]["as_opponents"], rows[0]["wins_a"], rows[0]["wins_b"]) == (len(opposed), wins_a, wins_b)
    assert f"{len(opposed)} as opponents" in answer


@pytest.mark.parametrize("template", ("{n}'s best gods", "what are the strongest gods of {n}"))
def test_a_players_best_gods_are_by_win_rate(seasons, template):
    home, matches = seasons
    player = named_players(matches, 3)[0]
    pkg, rows = ask_across(home, template.format(n=player))
    answered_across(pkg)
    figure = pkg.plan.season
    assert (figure.subject, figure.metric, figure.players) == ("god", "win_rate", (player,))
    per: dict[str, list[dict]] = {}
    for g in games_of(matches, player):
        per.setdefault(g["god"], []).append(g)
    qualified = [r for r in rows if r.get("qualifies", True)]
    for row in qualified:
        games_, wins, losses = record(per[row["god"]])
        assert (row["matches"], row["wins"], row["losses"]) == (games_, wins, losses)
        assert games_ >= figure.min_matches


@pytest.mark.parametrize("template,what", (("how many different players have we seen", "players"),
                                           ("number of distinct gods played this season", "gods"),
                                           ("how many unique players are in the warehouse", "players")))
def test_who_took_part(seasons, template, what):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    games_ = event_games(matches)
    want = {"players": len({g["player"] for g in games_}), "gods": len({g["god"] for g in games_})}
    assert (rows[0]["players"], rows[0]["gods"], rows[0]["player_games"]) == (want["players"], want["gods"], len(games_))
    assert f"{want[what]} different {what[:-1]}" in answer


@pytest.mark.parametrize("template,k", (("who are the {k} biggest {m} leaders overall", 4),
                                        ("the three highest {m} totals this season", 3)))
def test_a_number_before_a_superlative_is_a_top_n(seasons, template, k):
    home, matches = seasons
    pkg, rows = ask_across(home, template.format(k=k, m="kills"))
    answer = answered_across(pkg)
    totals: dict[str, float] = {}
    for g in event_games(matches):
        totals[g["player"]] = totals.get(g["player"], 0) + g["kills"]
    want = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
    assert pkg.plan.shape == "top" and pkg.plan.limit == k
    assert [(r["player"], r["kills"]) for r in rows[:k]] == want
    assert all(name in answer for name, _ in want)


@pytest.mark.parametrize("template,most", (("who has the worst average deaths, at least 3 games", True),
                                           ("best deaths per game this season, 3+ games", False),
                                           ("who has the most deaths per game with at least 3 games", True)))
def test_best_and_worst_of_deaths_mean_fewest_and_most(seasons, template, most):
    home, matches = seasons
    pkg, rows = ask_across(home, template)
    answered_across(pkg)
    per: dict[str, list[float]] = {}
    for g in event_games(matches):
        per.setdefault(g["player"], []).append(g["deaths"])
    means = {p: statistics.fmean(v) for p, v in per.items() if len(v) >= 3}
    want = max(means.values()) if most else min(means.values())
    assert same(rows[0]["deaths"], want)


@pytest.mark.parametrize("template,best", (("how much dmg does {g} do a game", False),
                                           ("on avg how much damage does {g} deal a game?", False),
                                           ("on avg what damage does a {g} pick deal in a game", False),
                                           ("most damage {g} did in a game", True),
                                           ("{g}'s damage in a single game, the highest", True)))
def test_a_figure_a_game_is_the_per_game_mean_and_in_a_game_the_best(seasons, template, best):
    home, matches = seasons
    per: dict[str, list[float]] = {}
    for g in event_games(matches):
        per.setdefault(g["god"], []).append(g["damage_dealt"])
    god = max(per, key=lambda k: (len(per[k]), k))  # the god with the most games
    pkg, rows = ask_across(home, template.format(g=god.lower()))
    answered_across(pkg)
    text = pkg.response.direct_answer
    want = max(per[god]) if best else statistics.fmean(per[god])
    assert number(want, 0 if best else 2) in text, text
