"""Cross-match answers by class, second set, over the two seasons of `seasons` (the 24-match season and the
nine-match roster season), each checked against truth.py aggregated in plain Python (tests/support/season.py):
a player's season summary names career totals beside the record, one value per game for each of a player's last N
games, and the single best game of a figure named with its player and its game."""

from __future__ import annotations

import statistics

import pytest

from combat_analysis.formatting import number
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    games_of,
    named_players,
    start_order,
)

# --- a season summary: the record and the career totals beside it ----------------------------------------------

@pytest.mark.parametrize("template", ["how has {n} done this season", "how did {n} perform across all matches",
                                      "{n}'s season record"])
def test_a_season_summary_names_career_totals(seasons, template):
    home, matches = seasons
    player = named_players(matches, 2)[-1]
    games = games_of(matches, player)
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    assert f"played {len(games)} matches" in answer, answer
    for figure in ("kills", "deaths", "assists"):
        values = [g[figure] for g in games]
        assert f"{number(sum(values))} {figure}" in answer, answer
        assert number(statistics.fmean(values), 2) in answer, answer
    kda = (sum(g["kills"] for g in games) + sum(g["assists"] for g in games)) / max(sum(g["deaths"] for g in games), 1)
    assert f"KDA {number(kda, 2)}" in answer, answer


# --- one value per game for each of a player's last N games ------------------------------------------------------

@pytest.mark.parametrize("template", ["{n} kills in each of his last {k} games", "{n}'s assists in each of the last {k} "
                                      "matches", "{n} gold for every one of their last {k} games"])
@pytest.mark.parametrize("k", [2, 3])
def test_each_of_the_last_n_games_has_its_own_value(seasons, template, k):
    home, matches = seasons
    player = named_players(matches, 4)[0]
    figure = next(f for f in ("kills", "assists", "gold") if f in template)
    ordered = {m.match_id: i for i, m in enumerate(start_order(matches))}
    last = sorted(games_of(matches, player), key=lambda g: ordered[g["match_id"]])[-k:]
    answer = answered_across(ask_across(home, template.format(n=player, k=k))[0])
    each = answer.split("Game by game, oldest first:")[1]
    for g in last:
        assert f"{number(g[figure], 2)} ({g['match_id']}, " in each, answer
    assert each.count("(") == k, answer


# --- the single best game of a figure: whose and which --------------------------------------------------------

@pytest.mark.parametrize("template", ["most {m} in a single game this season, who and which game",
                                      "highest {m} in one match across all games - which player and which match"])
@pytest.mark.parametrize(("said_as", "metric"), [("kills", "kills"), ("assists", "assists")])
def test_the_best_single_game_names_its_player_and_game(seasons, template, said_as, metric):
    home, matches = seasons
    best = max(g[metric] for g in event_games(matches))
    holders = [g for g in event_games(matches) if g[metric] == best]
    answer = answered_across(ask_across(home, template.format(m=said_as))[0])
    assert any(g["player"] in answer and g["match_id"] in answer for g in holders), answer
    assert number(best) in answer, answer


# --- games counted per player read every match, ties listed -----------------------------------------------------

@pytest.mark.parametrize(("question", "fewest"), [("who played the fewest games", True),
                                                  ("which player has the fewest matches", True),
                                                  ("who has played in the most games", False)])
def test_games_counted_per_player_read_every_match_with_ties(seasons, question, fewest):
    home, matches = seasons
    counts: dict[str, int] = {}
    for g in event_games(matches):
        counts[g["player"]] = counts.get(g["player"], 0) + 1
    edge = min(counts.values()) if fewest else max(counts.values())
    tied = sorted(p for p, n in counts.items() if n == edge)
    answer = answered_across(ask_across(home, question)[0])
    assert f"with {edge} games" in answer, answer
    shown = tied[:5]
    assert all(p in answer for p in shown), answer
    if len(tied) > 1:
        assert f"{len(tied)} tied" in answer, answer


# --- objective last hits by player, the kinds that make up objectives said beside the figure --------------------

@pytest.mark.parametrize("question", ["who has the most objective last hits this season (structures and bosses)",
                                      "most objectives taken across all matches (towers, phoenixes and bosses)",
                                      "who secured the most objectives overall (structures, bosses)"])
def test_season_objective_last_hits_by_player(seasons, question):
    home, matches = seasons
    totals: dict[str, int] = {}
    for g in event_games(matches):
        totals[g["player"]] = totals.get(g["player"], 0) + g["objectives_taken"]
    top = max(totals.values())
    answer = answered_across(ask_across(home, question)[0])
    assert any(p in answer.split("Next:")[0] for p, n in totals.items() if n == top), answer
    assert f"{number(top)} objectives taken" in answer, answer


# --- recent form: a figure over a player's last N games, asked as how they have been going -----------------------

@pytest.mark.parametrize("template", ["what has {n} been like recently, deaths in the last {k} games",
                                      "{n} assists of late, last {k} matches"])
def test_recent_form_gives_each_of_the_last_n_games(seasons, template):
    home, matches = seasons
    player = named_players(matches, 4)[1]
    figure = "deaths" if "deaths" in template else "assists"
    ordered = {m.match_id: i for i, m in enumerate(start_order(matches))}
    last = sorted(games_of(matches, player), key=lambda g: ordered[g["match_id"]])[-3:]
    answer = answered_across(ask_across(home, template.format(n=player, k=3))[0])
    each = answer.split("Game by game, oldest first:")[1]
    for g in last:
        assert f"{number(g[figure], 2)} ({g['match_id']}, " in each, answer
    assert each.count("(") == 3, answer


def _last_games(matches, player: str, n: int) -> list[dict]:
    ordered = {m.match_id: i for i, m in enumerate(start_order(matches))}
    return sorted(games_of(matches, player), key=lambda g: ordered[g["match_id"]])[-n:]


# --- recent form with no games counted: the player's last five games, never the latest match alone ---------------

@pytest.mark.parametrize(("template", "figure"), [("{n} kills recently", "kills"),
                                                  ("how have {n}'s assists been going lately", "assists")])
def test_recent_form_with_no_count_is_the_last_five_games(seasons, template, figure):
    home, matches = seasons
    player = named_players(matches, 6)[0]
    last = _last_games(matches, player, 5)
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    each = answer.split("Game by game, oldest first:")[1]
    assert [f"{number(g[figure], 2)} ({g['match_id']}, " in each for g in last] == [True] * 5, answer
    assert each.count("(") == 5, answer
    assert f"mean {number(statistics.fmean(g[figure] for g in last), 2)}" in answer, answer


# --- a figure over a player's last N games with nothing asked of it: each game, the total, best the better -----

def test_a_figure_over_the_last_games_with_nothing_asked_gives_each_game(seasons):
    home, matches = seasons
    player = named_players(matches, 5)[-1]
    last = _last_games(matches, player, 4)
    deaths = [g["deaths"] for g in last]
    answer = answered_across(ask_across(home, f"{player} deaths last 4 games")[0])
    assert f"{number(sum(deaths))} in total" in answer, answer
    assert f"best {number(min(deaths), 2)} (" in answer and f"worst {number(max(deaths), 2)} (" in answer, answer
    each = answer.split("Game by game, oldest first:")[1]
    assert [f"{number(g['deaths'], 2)} ({g['match_id']}, " in each for g in last] == [True] * 4, answer
