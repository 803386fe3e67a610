"""Yes/no comparisons of two players across matches, over both simulated seasons, against truth.py aggregated in
plain Python (tests/support/season.py): the verdict first, then each one's value with the games behind it."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import count, number, percent
from combat_analysis.planner.read.names import fold
from tests.support.season import answered_across, ask_across, expected_record, games_of, named_players


def _pair(matches) -> tuple[str, str]:
    players = named_players(matches, least=3)
    return players[0], players[-1]


def _figure(matches, player: str, metric: str, average: bool = True) -> tuple[float, list[dict]]:
    """The player's per-game mean (or total) of a figure over their games, and those games."""
    played = games_of(matches, player)
    return sum(g[metric] for g in played) / (len(played) if average else 1), played


@pytest.mark.parametrize(("template", "metric", "more"), (
    ("does {a} average more {m} a game than {b}, or not", "assists", True),
    ("is {a}'s per-game {m} lower than {b}'s?", "kills", False),
    ("do {a}'s {m} per game come out higher than {b}'s or no", "damage_dealt", True),
))
def test_a_yes_no_comparison_of_per_game_means_says_the_verdict_and_both_means(seasons, template, metric, more):
    home, matches = seasons
    a, b = _pair(matches)
    (mean_a, games_a), (mean_b, games_b) = _figure(matches, a, metric), _figure(matches, b, metric)
    said = metric.replace("_", " ")
    pkg, _ = ask_across(home, template.format(a=a, b=b, m=said))
    answer = answered_across(pkg)
    yes = mean_a > mean_b if more else mean_a < mean_b
    assert answer.startswith("Yes: " if yes else "No: "), answer
    assert f"{number(mean_a, 2)} over {count(len(games_a), 'game')}" in answer, answer
    assert f"{number(mean_b, 2)} over {count(len(games_b), 'game')}" in answer, answer


@pytest.mark.parametrize("template", ("has {a} got a better win rate than {b}?", "is {a}'s win rate worse than {b}'s"))
def test_a_yes_no_comparison_of_win_rates_says_both_records(seasons, template):
    home, matches = seasons
    a, b = _pair(matches)
    ra, rb = expected_record(games_of(matches, a)), expected_record(games_of(matches, b))
    rate_a = 100 * ra["wins"] / (ra["wins"] + ra["losses"])
    rate_b = 100 * rb["wins"] / (rb["wins"] + rb["losses"])
    pkg, _ = ask_across(home, template.format(a=a, b=b))
    answer = answered_across(pkg)
    yes = rate_a > rate_b if "better" in template else rate_a < rate_b
    assert answer.startswith("Yes: " if yes else "No: "), answer
    assert f"{percent(rate_a)} over {count(ra['games'], 'game')}" in answer, answer
    assert f"{percent(rate_b)} over {count(rb['games'], 'game')}" in answer, answer


_SIDES = {1: "order", 2: "chaos"}


@pytest.mark.parametrize(("template", "key"), (
    ("how does {n} do on {side} side", "team"),
    ("how well does {n} perform on the {side} team", "team"),
    ("how does {n} fare as {role}", "role"),
    ("how does {n} do when playing {god}", "god"),
))
def test_how_a_player_does_on_one_side_role_or_god_is_their_record_there(seasons, template, key):
    """A present-tense "how does X do" is a habit, so every match; the side, role or god said keeps those games."""
    home, matches = seasons
    player = named_players(matches, least=3)[1]
    games_ = games_of(matches, player)
    kept = games_[0][key]
    there = [g for g in games_ if g[key] == kept]
    want = expected_record(there)
    said = {"side": _SIDES[games_[0]["team"]], "role": games_[0]["role"].lower(), "god": games_[0]["god"]}
    pkg, rows = ask_across(home, template.format(n=player, **said))
    answer = answered_across(pkg)
    assert (rows[0]["matches"], rows[0]["wins"], rows[0]["losses"]) == (want["games"], want["wins"], want["losses"])
    assert count(want["games"], "game") in answer and count(want["wins"], "win") in answer, answer


@pytest.mark.parametrize(("template", "metric", "more"), (
    ("who averages more {m} per game, {a} or {b}?", "kills", True),
    ("which of the two has fewer {m} in total: {a} or {b}", "deaths", False),
))
def test_which_of_two_players_has_more_names_the_one_with_both_values(seasons, template, metric, more):
    home, matches = seasons
    a, b = _pair(matches)
    average = "average" in template
    (value_a, games_a), (value_b, games_b) = (_figure(matches, p, metric, average) for p in (a, b))
    pkg, _ = ask_across(home, template.format(a=a, b=b, m=metric))
    answer = answered_across(pkg)
    if value_a != value_b:
        top = a if (value_a > value_b) == more else b
        assert answer.startswith(f"{top}: "), answer
    assert f"{number(value_a, 2)} over {count(len(games_a), 'game')}" in answer, answer
    assert f"{number(value_b, 2)} over {count(len(games_b), 'game')}" in answer, answer


def test_an_average_of_a_player_named_without_accents_is_over_every_match(seasons):
    """"does jose nunez die less than X on average": the name said without its accents still makes it a career
    average, read across every match."""
    home, matches = seasons
    players = named_players(matches, least=3)
    a = next(p for p in players if fold(p) != p.lower() and fold(p).isascii())
    b = next(p for p in players if p != a)
    games_a, games_b = games_of(matches, a), games_of(matches, b)
    mean_a = sum(g["deaths"] for g in games_a) / len(games_a)
    mean_b = sum(g["deaths"] for g in games_b) / len(games_b)
    pkg, _ = ask_across(home, f"does {fold(a)} die less than {b} on average")
    answer = answered_across(pkg)
    assert answer.startswith("Yes: " if mean_a < mean_b else "No: "), answer
    assert f"{number(mean_a, 2)} over {count(len(games_a), 'game')}" in answer, answer
