"""Cross-match classes said in more ways, over both simulated seasons, against truth.py aggregated in plain Python
(tests/support/season.py): a player's best or worst game by a figure named with a suffix or "in terms of", a
yes/no comparison of per-game means said "a game", kills asked each way with no scope word, assists on each
other, deaths by cause over every game, and the latest or a dated game's winner, kill score and line-up."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import count, number
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    expected_h2h,
    games_of,
    named_players,
    start_order,
)

# --- a player's best or worst game by a figure named by a suffix word -------------------------------------------

# (template, figure, best): "best" is the highest value, except for deaths, where the worst game is the most
_BEST_WORST = (
    ("{n}'s best game killwise", "kills", "best"),
    ("what was {n}'s worst game goldwise", "gold", "worst"),
    ("{n} top match in terms of assists", "assists", "best"),
    ("which was {n}'s worst game in terms of deaths", "deaths", "worst"),
    ("best game for {n}, damagewise", "damage_dealt", "best"),
    ("{n}'s weakest game kills-wise", "kills", "worst"),
)


@pytest.mark.parametrize(("template", "metric", "which"), _BEST_WORST)
def test_a_best_or_worst_game_by_a_figure_said_with_a_suffix_names_the_game(seasons, template, metric, which):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    order = [m.match_id for m in start_order(matches)]
    games = sorted(games_of(matches, player), key=lambda g: order.index(g["match_id"]))
    most = which == "best" if metric != "deaths" else which == "worst"
    want = (max if most else min)(g[metric] for g in games)
    first = next(g for g in games if g[metric] == want)
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    said = f"game {order.index(first['match_id']) + 1}, {first['match_id']} on {first['started_at'].date().isoformat()}"
    assert f"{which} match" in answer.split(".")[0] or f"{which} matches" in answer.split(".")[0], answer
    assert f"{said} ({number(want, 2)})" in answer, (said, answer)


def test_words_that_end_in_wise_are_no_figure():
    """"otherwise", "likewise": the suffix is read only on a figure word."""
    from combat_analysis.planner.read.scope import read_scope

    for question in ("otherwise who won", "likewise for kills", "clockwise rotations"):
        assert " by " not in f" {read_scope(question).rest} ", question
    assert read_scope("her best game killwise").rest == "her best game by kill"
    assert read_scope("best game in terms of gold").rest == "best game by gold"


# --- a yes/no comparison of per-game means said "a game" -----------------------------------------------------------

def _pair(matches) -> tuple[str, str]:
    players = named_players(matches, least=3)
    return players[0], players[-1]


def _mean(matches, player: str, metric: str) -> tuple[float, int]:
    played = games_of(matches, player)
    return sum(g[metric] for g in played) / len(played), len(played)


@pytest.mark.parametrize(("template", "metric", "more"), (
    ("does {a} get more {m} a game than {b} on average", "deaths", True),
    ("Does {a} rack up fewer {m} a game than {b}?", "kills", False),
    ("is {a} getting more {m} a match than {b} on avg", "assists", True),
    ("does {a} have less {m} a game than {b}", "gold", False),
))
def test_a_per_game_comparison_compares_per_game_means(seasons, template, metric, more):
    home, matches = seasons
    a, b = _pair(matches)
    (mean_a, n_a), (mean_b, n_b) = _mean(matches, a, metric), _mean(matches, b, metric)
    answer = answered_across(ask_across(home, template.format(a=a, b=b, m=metric))[0])
    yes = mean_a > mean_b if more else mean_a < mean_b
    assert answer.startswith(("Yes: " if yes else "No: ") + f"{a}'s per-game mean"), answer
    assert f"{number(mean_a, 2)} over {count(n_a, 'game')}" in answer, answer
    assert f"{number(mean_b, 2)} over {count(n_b, 'game')}" in answer, answer
    assert "total" not in answer.split(".")[0], answer


# --- kills each way with no scope word: every common game ------------------------------------------------------------

def _rivals(matches) -> tuple[str, str]:
    """Two players who met as opponents, the pair with the most kills between them."""
    players = named_players(matches, least=3)
    pairs = [(a, b) for a in players for b in players if a < b]
    return max(pairs, key=lambda p: (lambda h: (h["as_opponents"] > 0, h["kills_a_on_b"] + h["kills_b_on_a"]))(
        expected_h2h(matches, *p)))


@pytest.mark.parametrize("template", (
    "kills by {a} on {b} and by {b} on {a}",
    "{a} kills on {b} and {b} kills on {a}",
    "{a}'s deaths to {b} and {b}'s to {a}",
    "how many times did {a} kill {b} and {b} kill {a}",
    "kills on {b} by {a}, and on {a} by {b}",
))
def test_kills_asked_each_way_read_every_common_game(seasons, template):
    home, matches = seasons
    a, b = _rivals(matches)
    want = expected_h2h(matches, a, b)
    pkg, rows = ask_across(home, template.format(a=a, b=b))
    answer = answered_across(pkg)
    assert answer.startswith(f"Across all {len(matches)} matches"), answer
    assert rows[0]["matches_together"] == want["matches_together"]
    assert {(rows[0]["player_a"], rows[0]["kills_a_on_b"]), (rows[0]["player_b"], rows[0]["kills_b_on_a"])} == {
        (a, want["kills_a_on_b"]), (b, want["kills_b_on_a"])}
    assert f"{a} killed {b} {count(want['kills_a_on_b'], 'time')}" in answer, answer
    assert f"{b} killed {a} {count(want['kills_b_on_a'], 'time')}" in answer, answer


# --- assists on each other: assists in the kills whose victim was the other ------------------------------------------

def _assists_on(matches, a: str, b: str) -> int:
    """Kills of b (player kills, truth.py) that a assisted, over the matches both played."""
    both = [m for m in matches if a in m.truth["players"] and b in m.truth["players"]]
    return sum(k["victim"] == b and a in k["assists"] for m in both for k in m.truth["kills"])


@pytest.mark.parametrize("template", (
    "assists on each other between {a} and {b}",
    "how many times did {a} assist on {b} and vice versa",
    "{a} vs {b}: assists against one another",
    "did {a} and {b} get assists on each other",
))
def test_assists_on_each_other_are_assists_in_the_others_deaths(seasons, template):
    home, matches = seasons
    a, b = _rivals(matches)
    pkg, rows = ask_across(home, template.format(a=a, b=b))
    answer = answered_across(pkg)
    want = {a: _assists_on(matches, a, b), b: _assists_on(matches, b, a)}
    row = rows[0]
    assert {row["player_a"]: row["assists_a_on_b"], row["player_b"]: row["assists_b_on_a"]} == want
    first, second = row["player_a"], row["player_b"]
    assert (f"{first} assisted in {count(want[first], 'kill')} of {second}, {second} in "
            f"{count(want[second], 'kill')} of {first}") in answer, answer
    assert "an assist in a kill of that player" in answer, answer
