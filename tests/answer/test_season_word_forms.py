"""Cross-match word forms by class, over both simulated seasons, checked against truth.py aggregated in plain Python
(tests/support/season.py, docs/season.md): a figure phrase written as one word ("goldearned"), a grouping said with
an article ("by a god", "for a role"), reflexive emphasis after a player's figure ("by herself", "solo"), a
non-player kind before "deaths" ("tower deaths": the deaths that kind dealt), and a habit said with no scope word
("who keeps dying", "who always"): every match loaded, not the latest."""

from __future__ import annotations

import pytest

from combat_analysis.contracts.plan import OneMatch
from combat_analysis.formatting import number, percent
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    games_of,
    leaders,
    named_players,
    ranked_first,
    side_games,
    start_order,
    totals,
    truth_tool,
)


def means(games: list[dict], metric: str, key: str) -> dict:
    sums, counts = totals(games, metric, key), totals([{**g, "one": 1} for g in games], "one", key)
    return {k: sums[k] / counts[k] for k in sums}


SIDES = {1: "Order (team 1)", 2: "Chaos (team 2)"}
_MINIONS = ("Swordsman", "Archer", "Brute")  # METRICS.md's minions (and their Champion and Fire kinds)


def _kind_of(killer: str, players) -> str:
    kind = truth_tool.entity_kind(killer, players)
    if kind == "npc":
        return "minion" if any(m in killer for m in _MINIONS) else "jungle"
    return kind


def with_kind_deaths(matches) -> list[dict]:
    """`event_games` with each player-game's deaths to minions and to jungle monsters (truth.py's killers, sorted by
    METRICS.md's kinds)."""
    truths = {m.match_id: m.truth for m in matches}
    out = []
    for g in event_games(matches):
        t = truths[g["match_id"]]
        kinds = [_kind_of(d["killer"], t["players"]) for d in t["deaths_to_npcs"] if d["victim"] == g["player"]]
        out.append({**g, "deaths_to_minions": kinds.count("minion"), "deaths_to_jungle": kinds.count("jungle")})
    return out


# ------------------------------------------------------------------ 1: a figure phrase written as one word

@pytest.mark.parametrize(("template", "metric"), (("who has the highest killcount across all matches", "kills"),
                                                  ("which player has the most goldearned this season", "gold"),
                                                  ("most healingdone over all games", "healing_done"),
                                                  ("who has the most firstbloods overall", "first_bloods")))
def test_a_figure_phrase_written_as_one_word_ranks_players_by_it(seasons, template, metric):
    home, matches = seasons
    values = totals(event_games(matches), metric)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert ranked_first(rows, "player") == top, answer
    assert top[0] in answer and number(values[top[0]]) in answer, answer
    assert any("' read as '" in a for a in pkg.plan.assumptions), pkg.plan.assumptions


@pytest.mark.parametrize("template", ("{n}'s dmgtaken across all games", "total damagedealt for {n} this season"))
def test_one_players_figure_written_as_one_word_is_their_total(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=3)[1]
    metric = "damage_taken" if "taken" in template else "damage_dealt"
    played = games_of(matches, player)
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    assert number(sum(g[metric] for g in played)) in answer and player in answer, answer


@pytest.mark.parametrize("template", ("who has the best winrate this season", "highest winrate across all games",
                                      "which player has the top winrate overall"))
def test_the_win_rate_written_as_one_word_is_the_win_rate(seasons, template):
    home, matches = seasons
    games = event_games(matches)
    records: dict[str, list[int]] = {}
    for g in games:
        wins, decided, played = records.setdefault(g["player"], [0, 0, 0])
        records[g["player"]] = [wins + (g["result"] == "win"), decided + (g["result"] != "unknown"), played + 1]
    rates = {p: w / d for p, (w, d, n) in records.items() if d and n >= 3}  # the default minimum of 3 games
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(rates)
    assert ranked_first(rows, "player") == top, answer
    assert f"{percent(rates[top[0]] * 100)} win rate" in answer, answer


@pytest.mark.parametrize("template", ("what is the average gamelength", "avg matchlength?"))
def test_a_match_figure_written_as_one_word_with_no_scope_word_is_over_the_season(seasons, template):
    home, matches = seasons
    durations = [m.truth["duration_seconds"] for m in matches]
    answer = answered_across(ask_across(home, template)[0])
    assert answer.startswith(f"Across all {len(matches)} matches"), answer
    assert f"({number(sum(durations) / len(durations), 1)} seconds)" in answer, answer


# ------------------------------------------------------------------ 2: a grouping said with an article

@pytest.mark.parametrize(("template", "metric", "key"), (("most kills by a god this season", "kills", "god"),
                                                         ("the most assists of any god across all matches", "assists",
                                                          "god"),
                                                         ("most deaths for a role over all games", "deaths", "role"),
                                                         ("most gold by any one player overall", "gold", "player"),
                                                         ("the most deaths across all matches, which role", "deaths",
                                                          "role")))
def test_a_grouping_said_with_an_article_ranks_that_kind(seasons, template, metric, key):
    home, matches = seasons
    values = totals(event_games(matches), metric, key)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert ranked_first(rows, key) == top, answer
    assert top[0] in answer and number(values[top[0]]) in answer, answer


def test_a_role_average_said_with_an_article_ranks_the_roles(seasons):
    home, matches = seasons
    values = means(event_games(matches), "damage_dealt", "role")
    pkg, rows = ask_across(home, "highest average damage for a role this season")
    answer = answered_across(pkg)
    top = leaders(values)
    assert ranked_first(rows, "role") == top and number(values[top[0]], 2) in answer, answer


@pytest.mark.parametrize("template", ("fewest deaths by a side across all matches", "fewest deaths for a team overall"))
def test_a_side_said_with_an_article_ranks_the_sides(seasons, template):
    home, matches = seasons
    values = totals(side_games(matches), "deaths", "side")
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values, lowest=True)
    assert ranked_first(rows, "side") == [SIDES[s] for s in top] and number(values[top[0]]) in answer, answer


@pytest.mark.parametrize("template", ("who was killed by a god the most this season",
                                      "who died to a god the most across all matches"))
def test_a_god_said_as_the_killer_is_no_grouping(seasons, template):
    home, matches = seasons
    values = totals(event_games(matches), "deaths_to_players")
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert ranked_first(rows, "player") == top and top[0] in answer, answer


# ------------------------------------------------------------------ 3: reflexive emphasis after a player's figure

@pytest.mark.parametrize(("template", "metric", "average"), (
    ("how many kills did {n} get himself across all matches", "kills", False),
    ("{n}'s damage on her own over all games", "damage_dealt", False),
    ("what did {n} average in deaths by themselves this season", "deaths", True),
    ("how many towers did {n} take all by himself overall", "towers", False),
))
def test_reflexive_emphasis_names_no_one_new(seasons, template, metric, average):
    home, matches = seasons
    player = named_players(matches, least=3)[2]
    played = games_of(matches, player)
    total = sum(g[metric] for g in played)
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    want = number(total / len(played), 2) if average else number(total)
    assert player in answer and want in answer, (want, answer)
    assert any("read as emphasis" in a for a in pkg.plan.assumptions), pkg.plan.assumptions


def _solo_and_other_games(matches) -> str:
    return next(p for p in named_players(matches, least=3)
                if 0 < sum(g["role"] == "Solo" for g in games_of(matches, p)) < len(games_of(matches, p)))


@pytest.mark.parametrize("template", ("how many assists did {n} get solo this season",
                                      "{n}'s kills, all solo, across all games"))
def test_solo_as_emphasis_after_a_players_figure_counts_every_game(seasons, template):
    home, matches = seasons
    player = _solo_and_other_games(matches)
    metric = "assists" if "assists" in template else "kills"
    played = games_of(matches, player)
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    assert number(sum(g[metric] for g in played)) in answer and f"{len(played)} matches" in answer, answer
    assert "as Solo" not in answer, answer


def test_solo_said_as_a_role_stays_the_role(seasons):
    home, matches = seasons
    player = _solo_and_other_games(matches)
    solo = [g for g in games_of(matches, player) if g["role"] == "Solo"]
    answer = answered_across(ask_across(home, f"{player}'s kills as solo this season")[0])
    assert "as Solo" in answer and f"{number(sum(g['kills'] for g in solo))} kill" in answer, answer


# ------------------------------------------------------------------ 4: a non-player kind before "deaths"

@pytest.mark.parametrize(("template", "metric"), (("which player has the most tower deaths this season", "deaths_to_towers"),
                                                  ("boss deaths per player across all matches", "deaths_to_bosses"),
                                                  ("which player has the most minion deaths overall",
                                                   "deaths_to_minions"),
                                                  ("most jungle deaths across all games", "deaths_to_jungle")))
def test_a_kind_before_deaths_ranks_the_deaths_it_dealt(seasons, template, metric):
    home, matches = seasons
    values = totals(with_kind_deaths(matches), metric)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert values[top[0]] > 0
    assert ranked_first(rows, "player") == top, answer
    assert f"{values[top[0]]} death" in answer and "destroyed" not in answer, answer


@pytest.mark.parametrize(("template", "metric"), (("{n}'s tower deaths across all games", "deaths_to_towers"),
                                                  ("how many minion deaths did {n} have this season",
                                                   "deaths_to_minions")))
def test_one_players_deaths_to_a_kind_said_before_deaths(seasons, template, metric):
    home, matches = seasons
    games = with_kind_deaths(matches)
    player = max(named_players(matches, least=3), key=lambda p: (sum(g[metric] for g in games if g["player"] == p), p))
    mine = [g for g in games if g["player"] == player]
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    assert f"{sum(g[metric] for g in mine)} death" in answer and f"over {len(mine)} games" in answer, answer


def test_deaths_to_a_kind_over_the_season_are_every_players_together(seasons):
    home, matches = seasons
    total = sum(g["deaths_to_towers"] for g in event_games(matches))
    answer = answered_across(ask_across(home, "how many tower deaths were there this season")[0])
    assert f": {number(total)} deaths to towers in total" in answer, (total, answer)


def test_tower_deaths_with_no_scope_word_are_the_latest_matchs_deaths_to_towers(seasons):
    home, matches = seasons
    latest = start_order(matches)[-1]
    deaths = {p: sum("tower" in (d["killer"] or "").lower() for d in latest.truth["deaths_to_npcs"] if d["victim"] == p)
              for p in latest.truth["players"]}
    pkg, _ = ask_across(home, "who had the most tower deaths")
    answer = pkg.response.direct_answer
    assert isinstance(pkg.plan.scope, OneMatch) and pkg.plan.scope.match_id == latest.match_id, pkg.plan
    top = leaders(deaths)
    assert "destroyed" not in answer and ("death" in answer or "died" in answer), answer
    if deaths[top[0]]:
        assert all(p in answer for p in top[:3]) and number(deaths[top[0]]) in answer, answer


# ------------------------------------------------------------------ 5: a habit said with no scope word

@pytest.mark.parametrize(("question", "metric"), (("who keeps dying to towers", "deaths_to_towers"),
                                                  ("who always gets first blood", "first_bloods"),
                                                  ("which player is constantly feeding", "deaths"),
                                                  ("who dies to minions all the time", "deaths_to_minions"),
                                                  ("who consistently deals the most damage", "damage_dealt"),
                                                  ("who never fails to get first blood", "first_bloods")))
def test_a_habit_with_no_scope_word_reads_every_match(seasons, question, metric):
    home, matches = seasons
    values = totals(with_kind_deaths(matches), metric)
    pkg, rows = ask_across(home, question)
    answer = answered_across(pkg)
    top = leaders(values)
    assert answer.startswith(f"Across all {len(matches)} matches"), answer
    assert ranked_first(rows, "player") == top and number(values[top[0]]) in answer, answer
    assert any("read as a habit" in a for a in pkg.plan.assumptions), pkg.plan.assumptions


@pytest.mark.parametrize("question", ("who kept dying to towers", "who was always dying to minions",
                                      "who always died first"))
def test_a_habit_told_in_the_past_stays_with_the_latest_match(seasons, question):
    home, matches = seasons
    pkg, _ = ask_across(home, question)
    assert isinstance(pkg.plan.scope, OneMatch), pkg.plan.scope
    assert pkg.plan.scope.match_id == start_order(matches)[-1].match_id
