"""Cross-match scope said in more forms, over both simulated seasons, checked against truth.py aggregated in plain
Python (tests/support/season.py, docs/season.md): a figure's verb in the simple present with no scope word ("who
dies ...", "which god deals ..."): every match loaded, while the past tense stays with the latest match; a minimum of
games said after its games ("(4 games min)"); only the games a player named in the middle won ("in the games <name>
won"); a "-ys" plural ("furys"); and asides that ask nothing ("just curious")."""

from __future__ import annotations

import pytest

from combat_analysis.contracts.plan import OneMatch
from combat_analysis.formatting import number
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    games_of,
    leaders,
    named_players,
    ranked_first,
    start_order,
    totals,
)

# ------------------------------------------------------------------ the simple present: every match

@pytest.mark.parametrize(("question", "metric", "key"), (("who dies to towers the most", "deaths_to_towers", "player"),
                                                         ("which god deals the most damage", "damage_dealt", "god"),
                                                         ("who gets the most assists?", "assists", "player"),
                                                         ("which player earns the most gold", "gold", "player")))
def test_a_figure_verb_in_the_simple_present_reads_every_match(seasons, question, metric, key):
    home, matches = seasons
    values = totals(event_games(matches), metric, key)
    pkg, rows = ask_across(home, question)
    answer = answered_across(pkg)
    top = leaders(values)
    assert answer.startswith(f"Across all {len(matches)} matches"), answer
    assert ranked_first(rows, key) == top and number(values[top[0]]) in answer, answer
    assert any("read as a habit" in a for a in pkg.plan.assumptions), pkg.plan.assumptions


@pytest.mark.parametrize("question", ("who died to towers the most", "which god dealt the most damage"))
def test_the_same_figure_in_the_past_stays_with_the_latest_match(seasons, question):
    home, matches = seasons
    pkg, _ = ask_across(home, question)
    assert isinstance(pkg.plan.scope, OneMatch), pkg.plan.scope
    assert pkg.plan.scope.match_id == start_order(matches)[-1].match_id


# ------------------------------------------------------------------ a minimum of games said after them

@pytest.mark.parametrize("template", ("which god has the most kills per game on avg ({n} games min)",
                                      "best average kills per game by a god, {n} matches minimum"))
def test_a_minimum_said_after_its_games_is_the_minimum_not_the_lowest(seasons, template):
    home, matches = seasons
    games = event_games(matches)
    played = totals([{**g, "one": 1} for g in games], "one", "god")
    least = sorted(set(played.values()))[len(set(played.values())) // 2]  # a minimum that leaves some gods out
    sums = totals(games, "kills", "god")
    means = {god: sums[god] / played[god] for god in sums if played[god] >= least}
    pkg, rows = ask_across(home, template.format(n=least))
    answer = answered_across(pkg)
    assert pkg.plan.season.min_matches == least and pkg.plan.order == "desc", pkg.plan
    assert ranked_first(rows, "god") == leaders(means), (answer, means)


# ------------------------------------------------------------------ the games a named player won or lost

@pytest.mark.parametrize(("template", "result"), (("in the games {n} won, what was the avg damage", "win"),
                                                  ("kills in matches {n} lost, per game", "loss")))
def test_the_games_a_player_named_in_the_middle_won_are_theirs(seasons, template, result):
    home, matches = seasons
    player = next(p for p in named_players(matches, least=3)
                  if sum(g["result"] == result for g in games_of(matches, p)) >= 2)
    metric = "damage_dealt" if "damage" in template else "kills"
    kept = [g[metric] for g in games_of(matches, player) if g["result"] == result]
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    assert player in answer and number(sum(kept) / len(kept), 2) in answer, (answer, kept)


# ------------------------------------------------------------------ a "-ys" plural, and asides

@pytest.mark.parametrize("question", ("who took the most gold furys across all games", "most gold furys secured overall"))
def test_a_plural_typed_with_ys_is_the_plural(seasons, question):
    home, matches = seasons
    furies = totals(event_games(matches), "gold_furies")
    pkg, rows = ask_across(home, question)
    assert ranked_first(rows, "player") == leaders(furies), answered_across(pkg)


@pytest.mark.parametrize("question", ("who got the most kills this season? asking for a friend",
                                      "just curious, most kills across all games, thanks"))
def test_asides_neither_refuse_nor_narrow_a_question(seasons, question):
    home, matches = seasons
    values = totals(event_games(matches), "kills")
    pkg, rows = ask_across(home, question)
    answer = answered_across(pkg)
    assert ranked_first(rows, "player") == leaders(values), answer
