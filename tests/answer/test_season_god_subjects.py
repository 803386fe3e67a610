"""A god, role or side as the subject of a per-game average across matches, said by its players ("when someone is on
<god>", "<god> players", "anyone playing <god>", "support mains", "order players"): the god's (role's, side's) own
mean over all of its games, whoever played them, with the number of games, not a board of the players who played it;
"who" or "which player" still asks for a player. Both simulated seasons, checked against truth.py."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import number
from tests.support.season import answered_across, ask_across, event_games, side_games

LABELS = {"kills": "kills", "deaths": "deaths", "assists": "assists", "gold": "gold", "damage_dealt": "damage dealt"}


def most_played_god(matches) -> str:
    games: dict[str, int] = {}
    for g in event_games(matches):
        games[g["god"]] = games.get(g["god"], 0) + 1
    return min(games, key=lambda god: (-games[god], god))


def _kills_on(matches, god: str) -> dict[str, int]:
    """Each player's kills over their games on `god`."""
    kills: dict[str, int] = {}
    for g in event_games(matches):
        if g["god"] == god:
            kills[g["player"]] = kills.get(g["player"], 0) + g["kills"]
    return kills


def _mean(rows: list[dict], figure: str) -> tuple[float, int]:
    return sum(r[figure] for r in rows) / len(rows), len(rows)


@pytest.mark.parametrize(("template", "figure"), [
    ("average kills when someone is on {g} across all matches", "kills"),
    ("what do {g} players average in deaths per game", "deaths"),
    ("avg assists for {g} players over every game", "assists"),
    ("how much damage does anyone playing {g} deal per game on average", "damage_dealt"),
    ("{g} mains - average gold a game across all games", "gold"),
    ("whats the mean kills per game when somebody picks {g}", "kills"),
])
def test_a_gods_players_are_the_god(seasons, template, figure):
    home, matches = seasons
    god = most_played_god(matches)
    pkg, _ = ask_across(home, template.format(g=god.lower()))
    answer = answered_across(pkg)
    assert pkg.plan.season.subject == "god" and pkg.plan.season.god == god, pkg.plan.season
    mean, games = _mean([g for g in event_games(matches) if g["god"] == god], figure)
    assert answer.index(god) < answer.index(LABELS[figure]), answer
    assert f"{god}: {number(mean, 2)} {LABELS[figure]} per game" in answer, (mean, answer)
    assert f"over {number(games)} games" in answer, answer


@pytest.mark.parametrize(("question", "role", "figure"), [
    ("average kills for support players across all matches", "Support", "kills"),
    ("what do jungle mains average in deaths per game over every game", "Jungle", "deaths"),
    ("mean assists a game when someone is on mid, across all games", "Middle", "assists"),
])
def test_a_roles_players_are_the_role(seasons, question, role, figure):
    home, matches = seasons
    pkg, _ = ask_across(home, question)
    answer = answered_across(pkg)
    mean, games = _mean([g for g in event_games(matches) if g["role"] == role], figure)
    assert f"{role}: {number(mean, 2)} {LABELS[figure]} per game" in answer, (mean, answer)
    assert f"over {number(games)} games" in answer, answer


@pytest.mark.parametrize(("question", "team", "name", "figure"), [
    ("what do order players average in kills per game across all matches", 1, "Order (team 1)", "kills"),
    ("average deaths per game for chaos players over every game", 2, "Chaos (team 2)", "deaths"),
])
def test_a_sides_players_are_the_side(seasons, question, team, name, figure):
    home, matches = seasons
    pkg, _ = ask_across(home, question)
    answer = answered_across(pkg)
    mean, games = _mean([s for s in side_games(matches) if s["side"] == team], figure)
    assert f"{name}: {number(mean, 2)} {LABELS[figure]} per game" in answer, (mean, answer)
    assert f"over {number(games)} games" in answer, answer


def test_which_of_a_gods_players_still_ranks_players(seasons):
    home, matches = seasons
    god = most_played_god(matches)
    pkg, rows = ask_across(home, f"which {god.lower()} player has the most kills in total across all matches")
    answered_across(pkg)
    assert pkg.plan.season.subject == "player" and pkg.plan.season.god == god, pkg.plan.season
    kills = _kills_on(matches, god)
    assert rows[0]["player"] in {p for p, k in kills.items() if k == max(kills.values())}, rows[0]


def test_which_of_a_gods_players_needs_no_scope_word(seasons):
    """One match has one player on a god: ranking a god's players is over every match, with no scope word."""
    home, matches = seasons
    god = most_played_god(matches)
    pkg, rows = ask_across(home, f"what {god.lower()} player scored the most kills")
    answered_across(pkg)
    assert pkg.plan.season.subject == "player" and pkg.plan.season.god == god, pkg.plan.season
    kills = _kills_on(matches, god)
    assert rows[0]["player"] in {p for p, k in kills.items() if k == max(kills.values())}, rows[0]
    assert max(kills.values()) in rows[0].values(), rows[0]
