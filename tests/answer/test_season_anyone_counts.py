"""A count across matches asked of anyone at all ("a player", "any player", "anyone", "somebody", "any of us", "one of
them", "players"): the season's total over every player, not a board of who; and a board of a count says the total it
ranks. Both simulated seasons, checked against truth.py."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import number
from tests.support.season import answered_across, ask_across, event_games, totals

LABELS = {"deaths_to_towers": "deaths to towers", "deaths_to_npcs": "deaths to non-players", "kills": "kills",
          "deaths": "deaths", "assists": "assists", "first_bloods": "first bloods",
          "deaths_to_bosses": "deaths to bosses", "deaths_to_structures": "deaths to structures"}


def season_total(matches, figure: str) -> int:
    return sum(g[figure] for g in event_games(matches))


@pytest.mark.parametrize(("question", "figure"), [
    ("how many times did a player die to a tower across all matches", "deaths_to_towers"),
    ("across all games how often has any player been killed by a tower", "deaths_to_towers"),
    ("how many times did any of us die to structures over every game", "deaths_to_structures"),
    ("number of times somebody died to a boss in all matches", "deaths_to_bosses"),
    ("how many times did one of them die to non-players across all games", "deaths_to_npcs"),
    ("in all matches, how many first bloods did a player draw", "first_bloods"),
    ("how many assists did players get in total across all matches", "assists"),
])
def test_a_count_of_anyone_is_the_seasons_total(seasons, question, figure):
    home, matches = seasons
    pkg, _ = ask_across(home, question)
    answer = answered_across(pkg)
    assert pkg.plan.season.figure == "season", pkg.plan.season
    want = season_total(matches, figure)
    assert f"{number(want)} {LABELS[figure]} in total" in answer, (want, answer)


@pytest.mark.parametrize(("question", "figure", "key"), [
    ("who died to towers the most across all matches", "deaths_to_towers", "player"),
    ("rank the players by kills across all games", "kills", "player"),
    ("which god has the most deaths in total across all matches", "deaths", "god"),
    ("most assists by role over every game", "assists", "role"),
])
def test_a_board_of_a_count_says_the_total_it_ranks(seasons, question, figure, key):
    home, matches = seasons
    pkg, rows = ask_across(home, question)
    answer = answered_across(pkg)
    games = event_games(matches)
    by = totals(games, figure, key)
    assert rows[0][key] in {k for k, v in by.items() if v == max(by.values())}, rows[0]
    assert f"In all, {number(sum(by.values()))} {LABELS[figure]} over {number(len(games))} player-games." in answer, answer
