"""Cross-match scope said in more forms, over both simulated seasons, checked against truth.py aggregated in plain
Python (tests/support/season.py, docs/season.md): a figure's verb in the simple present with no scope word ("who
dies ...", "which god deals ..."): every match loaded, while the past tense stays with the latest match; a minimum of
games said after its games ("(4 games min)"); only the games a player named in the middle won ("in the games <name>
won"); a "-ys" plural ("furys"); asides that ask nothing ("just curious"); a kind of player asked with "do" ("do
supports ..."): every match too; the players or gods counted with a verb of taking part; and little words typed with
two letters swapped ("teh")."""

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


# ------------------------------------------------------------------ a kind of player asked with "do": every match

def _role_means(matches, metric: str) -> dict[str, float]:
    games = event_games(matches)
    sums, played = totals(games, metric, "role"), totals([{**g, "one": 1} for g in games], "one", "role")
    return {role: sums[role] / played[role] for role in sums}


@pytest.mark.parametrize(("question", "metric", "roles"), (
    ("do junglers die more than supports on average?", "deaths", ("Jungle", "Support")),
    ("do the carries usually deal more damage than the mids per game", "damage_dealt", ("Carry", "Middle")),
    ("do solo laners tend to earn more gold than supports, on average", "gold", ("Solo", "Support"))))
def test_a_kind_of_player_asked_with_do_reads_every_match(seasons, question, metric, roles):
    home, matches = seasons
    means = _role_means(matches, metric)
    first, second = (means[r] for r in roles)
    pkg, _ = ask_across(home, question)
    answer = answered_across(pkg)
    assert answer.startswith("Yes" if first > second else "No"), (answer, means)
    assert number(first, 2) in answer and number(second, 2) in answer, (answer, means)


def test_the_same_asked_with_did_stays_with_the_latest_match(seasons):
    home, matches = seasons
    pkg, _ = ask_across(home, "did junglers die more than supports")
    assert isinstance(pkg.plan.scope, OneMatch) and pkg.plan.scope.match_id == start_order(matches)[-1].match_id


# ------------------------------------------------------------------ who took part, said with a verb of taking part

@pytest.mark.parametrize(("question", "key"), (("how many diff people showed up overall", "player"),
                                               ("count the gods that have featured this season", "god"),
                                               ("number of unique people who took part overall", "player"),
                                               ("how many different players joined our games so far", "player")))
def test_the_players_or_gods_that_took_part_are_counted(seasons, question, key):
    home, matches = seasons
    want = len({g[key] for g in event_games(matches)})
    answer = answered_across(ask_across(home, question)[0])
    noun = "players" if key == "player" else "gods"
    assert f"{want} different {noun}" in answer, (answer, want)


# ------------------------------------------------------------------ little words with two letters swapped

@pytest.mark.parametrize(("question", "metric"), (("who has teh most assists across all games", "assists"),
                                                  ("across all games, waht player has teh most deaths", "deaths"),
                                                  ("most kills adn the games they took, overall", "kills")))
def test_a_little_word_with_two_letters_swapped_is_read(seasons, question, metric):
    home, matches = seasons
    values = totals(event_games(matches), metric)
    pkg, rows = ask_across(home, question)
    assert ranked_first(rows, "player") == leaders(values), answered_across(pkg)
