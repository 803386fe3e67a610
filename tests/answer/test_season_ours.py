"""Cross-match classes over both simulated seasons, against truth.py aggregated in plain Python
(tests/support/season.py): the asker's own games said with "we" and "our" (contractions too) are every match; the
shortest or longest match asked in chat words is named with its clock; objective kinds counted together are each
answered with their sum; and deaths of players to a boss, a kind of non-player or non-players in general are
per-player figures (a leaderboard, a player's total and per-game mean, the season's total); and a loss said to a side
("lost to chaos") is that side's wins."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import clock, number
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    match_figures,
    named_players,
    side_games,
    start_order,
    truth_tool,
)


def leaders(values: dict[str, int]) -> list[str]:
    best = max(values.values())
    return sorted(p for p, v in values.items() if v == best)


def per_player(games: list[dict], metric: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for g in games:
        out[g["player"]] = out.get(g["player"], 0) + g[metric]
    return out


# --- the asker's own games: "we", "our", and their contractions -------------------------------------------------

@pytest.mark.parametrize(("template", "metric"), (
    ("in the games we've had, who dealt the most damage", "damage_dealt"),
    ("who's been the top killer in games we're in", "kills"),
    ("if we'd count all our matches, who has the most deaths", "deaths"),
    ("most assists across the matches weve played?", "assists"),
    ("who healed the most in our games", "healing_done"),
    ("among the games we played who earned the most gold", "gold"),
))
def test_the_askers_own_games_are_every_match(seasons, template, metric):
    home, matches = seasons
    values = per_player(event_games(matches), metric)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert answer.startswith(f"Across all {len(matches)} matches"), answer
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top, answer
    assert top[0] in answer and number(values[top[0]], 0) in answer, answer


@pytest.mark.parametrize("template", ("how many games have we played", "how many matches we've had",
                                      "number of games we played?", "how many matches have we got loaded"))
def test_the_askers_games_counted_are_the_loaded_matches(seasons, template):
    home, matches = seasons
    answer = answered_across(ask_across(home, template)[0])
    assert f"{len(matches)} matches" in answer, answer


# --- the shortest or longest match, with its clock -------------------------------------------------------------------

@pytest.mark.parametrize(("template", "longest"), (
    ("of the games we played, which was shortest and what was its length", False),
    ("the longest of our matches, and its length?", True),
    ("our quickest game - how long did it last?", False),
    ("which of our matches went the longest, and for how long", True),
    ("whats the shortest game weve played n how long", False),
    ("longest game ever? how long did it run", True),
))
def test_the_shortest_or_longest_match_is_named_with_its_length(seasons, template, longest):
    home, matches = seasons
    order = [m.match_id for m in start_order(matches)]
    figures = sorted(match_figures(matches), key=lambda f: ((-1 if longest else 1) * f["duration_s"],
                                                            order.index(f["match_id"])))
    first = figures[0]
    answer = answered_across(ask_across(home, template)[0])
    said = f"match {first['match_id']} ({first['started_at'].date().isoformat()}) with {clock(first['duration_s'])}"
    assert said in answer, (said, answer)
    assert ("longest" if longest else "shortest") in answer.split(":")[0], answer


# --- objective kinds counted together ------------------------------------------------------------------------------

_LABELS = {"gold_furies": "Gold Fury kills", "fire_giants": "Fire Giant kills", "towers": "towers destroyed",
           "phoenixes": "phoenixes destroyed", "titans": "Titans destroyed"}


@pytest.mark.parametrize(("template", "kinds"), (
    ("how many fire giants and gold furies were slain over every match", ("gold_furies", "fire_giants")),
    ("total fire giant n gold fury kills across our games", ("fire_giants", "gold_furies")),
    ("how many towers and phoenixes fell this season", ("towers", "phoenixes")),
    ("total towers, phoenixes and titans destroyed overall", ("towers", "phoenixes", "titans")),
    ("how many fire giants & gold furies have we killed in total", ("fire_giants", "gold_furies")),
))
def test_objective_kinds_counted_together_are_each_answered_with_their_sum(seasons, template, kinds):
    home, matches = seasons
    totals = {k: sum(f[k] for f in match_figures(matches)) for k in kinds}
    answer = answered_across(ask_across(home, template)[0])
    for kind in kinds:
        assert f"{number(totals[kind], 0)} {_LABELS[kind]}" in answer, (kind, totals[kind], answer)
    assert f"{number(sum(totals.values()), 0)} together" in answer, answer


@pytest.mark.parametrize("template", ("fury and giant kills by {n} over every match?",
                                      "{n}'s fire giant and gold fury kills this season"))
def test_objective_kinds_together_for_one_player_are_each_answered_with_their_sum(seasons, template):
    home, matches = seasons
    games = event_games(matches)
    player = max(named_players(matches, least=3),
                 key=lambda p: sum(g["gold_furies"] + g["fire_giants"] for g in games if g["player"] == p))
    mine = [g for g in games if g["player"] == player]
    furies, giants = sum(g["gold_furies"] for g in mine), sum(g["fire_giants"] for g in mine)
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    assert f"{furies} Gold Fury kills in total" in answer or f"{furies} Gold Fury kill in total" in answer, answer
    assert f"{giants} Fire Giant kills in total" in answer or f"{giants} Fire Giant kill in total" in answer, answer
    assert f"{furies + giants} Gold Fury kills and Fire Giant kills together" in answer or \
        f"{furies + giants} Fire Giant kills and Gold Fury kills together" in answer, answer


@pytest.mark.parametrize(("template", "side"), (("how many fire giants and gold furies did order take overall", 1),
                                                ("chaos's gold fury and fire giant kills across all games", 2)))
def test_objective_kinds_together_for_one_side_are_each_answered_with_their_sum(seasons, template, side):
    home, matches = seasons
    games = [g for g in side_games(matches) if g["side"] == side]
    total = sum(g["gold_furies"] + g["fire_giants"] for g in games)
    answer = answered_across(ask_across(home, template)[0])
    assert f"{total} " in answer.split(";")[-1] and "together" in answer, (total, answer)
    for kind in ("gold_furies", "fire_giants"):
        assert f"{sum(g[kind] for g in games)} {_LABELS[kind][:-1]}" in answer, (kind, answer)


@pytest.mark.parametrize("template", ("who took the most fire giants and gold furies this season",
                                      "which player took the most towers and phoenixes across all matches"))
def test_objective_kinds_together_are_not_ranked_by_one_of_them(seasons, template):
    home, _ = seasons
    pkg, _ = ask_across(home, template)
    assert pkg.is_refusal, pkg.response.direct_answer
    assert "one objective kind at a time" in pkg.response.direct_answer


# --- deaths of players to non-players, per player -------------------------------------------------------------------

def deaths_to_named(matches, word: str) -> list[dict]:
    """Each player-game with its deaths to the non-players whose name holds `word` (METRICS.md: bosses by name)."""
    out = []
    for g in event_games(matches):
        t = next(m.truth for m in matches if m.match_id == g["match_id"])
        n = sum(word in (d["killer"] or "").lower() for d in t["deaths_to_npcs"] if d["victim"] == g["player"])
        out.append({**g, "named": n})
    return out


@pytest.mark.parametrize(("template", "word", "label"), (
    ("who died to the fire giant the most across all matches", "fire giant", "deaths to the Fire Giant"),
    ("which player got killed by gold fury the most this season", "gold fury", "deaths to the Gold Fury"),
    ("most deaths to the fire giant overall", "fire giant", "deaths to the Fire Giant"),
))
def test_deaths_to_a_boss_rank_players(seasons, template, word, label):
    home, matches = seasons
    values = per_player(deaths_to_named(matches, word), "named")
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top, answer
    assert label in answer and top[0] in answer, answer


@pytest.mark.parametrize(("template", "word", "average"), (
    ("how many times has {n} been killed by the fire giant this season", "fire giant", False),
    ("{n}'s deaths to the fire giant across all games", "fire giant", False),
    ("average deaths to gold fury per game for {n}", "gold fury", True),
    ("how often does {n} die to the fire giant per game", "fire giant", True),
))
def test_a_players_deaths_to_a_boss_total_and_per_game(seasons, template, word, average):
    home, matches = seasons
    games = deaths_to_named(matches, word)
    player = max(named_players(matches, least=3), key=lambda p: sum(g["named"] for g in games if g["player"] == p))
    mine = [g for g in games if g["player"] == player]
    total = sum(g["named"] for g in mine)
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    assert answer.startswith(f"Across all {len(matches)} matches, {player}"), answer
    if average:
        assert f"{number(total / len(mine), 2)} deaths to the" in answer and f"over {len(mine)} games" in answer, answer
    else:
        assert f"{total} death" in answer and f"in total over {len(mine)} games" in answer, answer


@pytest.mark.parametrize(("template", "word"), (("how many times did people die to the fire giant across our games",
                                                 "fire giant"),
                                                ("how often did anyone get killed by the gold fury this season",
                                                 "gold fury")))
def test_deaths_to_a_boss_over_the_season_are_every_players_together(seasons, template, word):
    home, matches = seasons
    total = sum(g["named"] for g in deaths_to_named(matches, word))
    answer = answered_across(ask_across(home, template)[0])
    assert f": {number(total, 0)} deaths to the" in answer and "in total" in answer, (total, answer)


@pytest.mark.parametrize(("template", "metric"), (
    ("who got killed by bosses the most overall", "deaths_to_bosses"),
    ("which player died to structures the most across all matches", "deaths_to_structures"),
    ("who was killed by non-players most this season", "deaths_to_npcs"),
    ("most deaths to towers across our games", "deaths_to_towers"),
))
def test_deaths_to_a_kind_of_non_player_rank_players(seasons, template, metric):
    home, matches = seasons
    values = per_player(event_games(matches), metric)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top, answer
    assert top[0] in answer and f"{values[top[0]]} death" in answer, answer


@pytest.mark.parametrize("template", ("how much damage did the fire giant deal across all matches",
                                      "what did the gold fury deal in damage this season"))
def test_a_non_player_as_the_subject_stays_refused(seasons, template):
    home, _ = seasons
    pkg, _ = ask_across(home, template)
    assert pkg.is_refusal and "non-players" in pkg.response.direct_answer, pkg.response.direct_answer


@pytest.mark.parametrize("template", ("who died to the brute the most across all matches",
                                      "how many times was {n} killed by a satyr this season"))
def test_deaths_to_another_non_player_by_name_are_refused_with_the_kinds_counted(seasons, template):
    home, matches = seasons
    pkg, _ = ask_across(home, template.format(n=named_players(matches, least=3)[0]))
    said = pkg.response.direct_answer
    assert pkg.is_refusal and "deaths to minions, jungle monsters" in said, said


def test_the_oracle_names_bosses_as_metrics_md_does():
    assert truth_tool.entity_kind("Fire Giant", {}) == "boss" and truth_tool.entity_kind("Gold Fury", {}) == "boss"


@pytest.mark.parametrize(("template", "side"), (("have we ever lost to chaos", 2),
                                                ("how many times did we lose against order this season", 1),
                                                ("how often have we been beaten by the chaos side", 2)))
def test_a_loss_said_to_a_side_is_that_sides_wins(seasons, template, side):
    home, matches = seasons
    wins = sum(g["result"] == "win" for g in side_games(matches) if g["side"] == side)
    pkg, _ = ask_across(home, template)
    answer = answered_across(pkg)
    assert f"{'Order' if side == 1 else 'Chaos'} (team {side}): {wins} win" in answer, answer
    assert any("read as the games" in a for a in pkg.plan.assumptions), pkg.plan.assumptions
