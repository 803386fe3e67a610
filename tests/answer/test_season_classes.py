"""Cross-match classes with no scope word, over both simulated seasons, checked against truth.py aggregated in
plain Python (tests/support/season.py): losses ranked, the most games in a role, a player's best or worst game
asked as "which game", and several figures of one player at once."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import number
from tests.support.season import answered_across, ask_across, event_games, games_of, named_players

ROLES = ("Support", "Jungle", "Carry", "Solo", "Middle")




def leaders(values: dict[str, int]) -> list[str]:
    best = max(values.values())
    return sorted(p for p, v in values.items() if v == best)




@pytest.mark.parametrize("template", ("who lost the most games", "which player has lost the most matches",
                                      "who lost the most"))
def test_losses_rank_players_across_matches_without_a_scope_word(seasons, template):
    home, matches = seasons
    losses: dict[str, int] = {}
    for g in event_games(matches):
        losses[g["player"]] = losses.get(g["player"], 0) + (g["result"] == "loss")
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(losses)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top
    assert top[0] in answer and f"{losses[top[0]]} loss" in answer, answer


@pytest.mark.parametrize(("template", "role"), (("who played {r} the most", "Support"),
                                                ("who has played {r} the most often", "Jungle"),
                                                ("which player played {r} most", "Middle")))
def test_the_most_games_in_a_role_lists_every_player_tied(seasons, template, role):
    home, matches = seasons
    games: dict[str, int] = {}
    for g in event_games(matches):
        if g["role"] == role:
            games[g["player"]] = games.get(g["player"], 0) + 1
    pkg, rows = ask_across(home, template.format(r=role.lower()))
    answer = answered_across(pkg)
    top = leaders(games)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top
    assert all(p in answer for p in top) and f"{games[top[0]]} games" in answer, answer


@pytest.mark.parametrize(("template", "metric", "worst_is_most"), (
    ("which game was {n}'s worst for deaths", "deaths", True),
    ("what match was {n}'s best for deaths", "deaths", False),
    ("which game was {n}'s best for kills", "kills", True),
))
def test_which_game_was_a_players_best_or_worst(seasons, template, metric, worst_is_most):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    games_ = sorted(games_of(matches, player),
                    key=lambda g: (g["started_at"], g["match_id"]))
    want = (max if worst_is_most else min)(g[metric] for g in games_)
    first = next(g for g in games_ if g[metric] == want)
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    assert first["match_id"] in answer and f"({number(want)})" in answer, answer
    assert answer.index(first["match_id"]) < answer.index(" played "), answer
