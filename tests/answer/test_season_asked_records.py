"""Cross-match classes, over both simulated seasons, checked against truth.py aggregated in plain Python
(tests/support/season.py, docs/season.md): a record asked with wins, losses and a rate (the win rate, whichever figure
word comes last), question words run on with an auxiliary ("how'd", "whatre"), framing words (who asks, and the ties
asked for), the largest single hit over every match (who, how much, with what, in which match), two match figures
averaged in one question, and a minimum of games said of gods or roles in front of the question."""

from __future__ import annotations

import re
from statistics import fmean

import pytest

from combat_analysis.formatting import clock, number, percent
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    expected_record,
    games_of,
    leaders,
    match_figures,
    named_players,
    ranked_first,
    side_games,
    totals,
)

SIDES = {1: "order", 2: "chaos"}


def _rate(record: dict) -> str:
    return percent(record['win_rate'] * 100)


def _says_record(answer: str, record: dict) -> None:
    assert _rate(record) in answer, (record, answer)
    assert re.search(rf"\b{record['wins']} wins?\b", answer) and re.search(rf"\b{record['losses']} loss(?:es)?\b",
                                                                          answer), (record, answer)
    assert re.search(rf"\b{record['games']} (?:games|matches)\b", answer), (record, answer)
    assert "loss rate" not in answer, answer


def _most_played_god(matches) -> str:
    counts = totals([{**g, "one": 1} for g in event_games(matches)], "one", "god")
    return sorted(counts, key=lambda g: (-counts[g], g))[0]


# --- 1: a record with wins, losses and a rate -------------------------------------------------------------------------

@pytest.mark.parametrize("template", ("{n}'s wins, losses and rate across all matches",
                                      "wins losses and percentage for {n} over all games",
                                      "what is {n}'s record with wins, losses and loss rate overall",
                                      "give me the losses, the wins and the % of {n} this season"))
def test_a_players_record_with_a_rate_is_the_win_rate(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    pkg, _ = ask_across(home, template.format(n=player))
    _says_record(answered_across(pkg), expected_record(games_of(matches, player)))


@pytest.mark.parametrize("template", ("{g} wins and losses and % across all matches",
                                      "losses, wins, percentage of {g} overall"))
def test_a_gods_record_with_a_rate_is_the_win_rate(seasons, template):
    home, matches = seasons
    god = _most_played_god(matches)
    pkg, _ = ask_across(home, template.format(g=god))
    _says_record(answered_across(pkg), expected_record([g for g in event_games(matches) if g["god"] == god]))


@pytest.mark.parametrize(("template", "role"), (("support wins losses and rate across all matches", "Support"),
                                                ("record of the junglers across all matches: losses, wins, pct",
                                                 "Jungle")))
def test_a_roles_record_with_a_rate_is_the_win_rate(seasons, template, role):
    home, matches = seasons
    pkg, _ = ask_across(home, template)
    _says_record(answered_across(pkg), expected_record([g for g in event_games(matches) if g["role"] == role]))


@pytest.mark.parametrize(("template", "side"), (("order's wins and losses and rate across all matches", 1),
                                                ("chaos: losses, wins and percentage over all games", 2)))
def test_a_sides_record_with_a_rate_is_the_win_rate(seasons, template, side):
    home, matches = seasons
    pkg, _ = ask_across(home, template)
    _says_record(answered_across(pkg), expected_record([s for s in side_games(matches) if s["side"] == side]))


# --- 2: question words run on with an auxiliary -----------------------------------------------------------------------

@pytest.mark.parametrize("template", ("how'd {n} do across all matches", "howd {n} do over all games",
                                      "how’ve {n} done this season"))
def test_a_contracted_how_asks_for_the_players_record(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    record = expected_record(games_of(matches, player))
    assert f"{record['wins']} win" in answer and f"{record['losses']} loss" in answer, answer


@pytest.mark.parametrize(("template", "metric"), (("who'd the most kills across all matches", "kills"),
                                                  ("who've got the most deaths overall", "deaths"),
                                                  ("whod the most assists across all games", "assists")))
def test_a_contracted_who_ranks_players(seasons, template, metric):
    home, matches = seasons
    values = totals(event_games(matches), metric)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    assert ranked_first(rows, "player") == leaders(values), rows[:3]
    assert f"{values[leaders(values)[0]]} {metric}" in answer, answer


@pytest.mark.parametrize("template", ("what'd {n} average in kills across all matches",
                                      "whatre {n}'s kills per game overall"))
def test_a_contracted_what_reads_the_figure(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    assert number(fmean(g["kills"] for g in games_of(matches, player)), 2) in answer, answer


def test_a_contracted_when_reads_the_time(seasons):
    home, matches = seasons
    times = [f["first_blood_s"] for f in match_figures(matches) if f["first_blood_s"] is not None]
    pkg, _ = ask_across(home, "when's the earliest first blood across all matches")
    assert clock(min(times)) in answered_across(pkg)


# --- 3: framing words: who asks, and the ties asked for ----------------------------------------------------------------

@pytest.mark.parametrize(("template", "metric"), (
    ("analyst here: who has the most kills across all matches, with ties", "kills"),
    ("quick one - who died the most overall? count the tied ones", "deaths"),
    ("Coach: who has the most assists across all games, tied players too", "assists"),
    ("who has the most kills across all matches? asking for my team", "kills"),
    ("most deaths across all matches (ties counted)", "deaths"),
    ("Scout here, quick q: most assists this season including ties", "assists"),
))
def test_framing_words_are_neither_refused_nor_a_name(seasons, template, metric):
    home, matches = seasons
    values = totals(event_games(matches), metric)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert ranked_first(rows, "player") == top, rows[:3]
    assert all(p in answer for p in top[:5]) and f"{values[top[0]]} {metric}" in answer, answer
    assert any("read as" in a and ("who asks" in a or "tied" in a) for a in pkg.plan.assumptions), pkg.plan.assumptions


def test_a_players_name_before_a_colon_is_no_framing(seasons):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    pkg, _ = ask_across(home, f"{player}: kills across all matches")
    answer = answered_across(pkg)
    assert player in answer and f"{sum(g['kills'] for g in games_of(matches, player))} in total" in answer, answer


# --- 4: the largest single hit over every match -------------------------------------------------------------------------

def _biggest_hit(matches) -> dict:
    figures = match_figures(matches)
    best = max(f["biggest_hit"] for f in figures)
    return min((f for f in figures if f["biggest_hit"] == best), key=lambda f: (f["started_at"], f["match_id"]))


@pytest.mark.parametrize("template", ("which match had the biggest hit", "in which game was the largest single hit landed",
                                      "what game saw the biggest single hit across all matches"))
def test_the_match_with_the_biggest_hit_says_who_with_what(seasons, template):
    home, matches = seasons
    hit = _biggest_hit(matches)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    assert rows[0]["match_id"] == hit["match_id"] and rows[0]["biggest_hit"] == hit["biggest_hit"], rows[:2]
    for said in (hit["match_id"], number(hit["biggest_hit"], 0), hit["hit_by"], hit["hit_with"], hit["hit_target"]):
        assert said in answer, (said, answer)


@pytest.mark.parametrize("template", ("who landed the biggest single hit across all matches", "biggest hit ever",
                                      "what's the hardest hit anyone landed in a single game overall"))
def test_the_biggest_hit_of_any_player_says_how_much_with_what_and_where(seasons, template):
    home, matches = seasons
    hit = _biggest_hit(matches)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    assert rows[0]["biggest_hit"] == hit["biggest_hit"] and rows[0]["match_id"] == hit["match_id"], rows[:2]
    assert hit["hit_by"] in ranked_first(rows, "player"), rows[:2]
    for said in (hit["match_id"], number(hit["biggest_hit"], 0), hit["hit_by"], hit["hit_with"]):
        assert said in answer, (said, answer)
    assert "most biggest" not in answer, answer


# --- 5: two match figures averaged in one question -----------------------------------------------------------------------

@pytest.mark.parametrize(("template", "other"), (
    ("average match length and deaths per game across all matches", "deaths"),
    ("deaths per game and the mean game length across all matches", "deaths"),
    ("what's the mean game length? and kills per game over all matches", "kills"),
    ("avg duration, deaths per match over all matches", "deaths"),
))
def test_two_match_figures_averaged_are_both_answered(seasons, template, other):
    home, matches = seasons
    figures = match_figures(matches)
    length, per_game = fmean(f["duration_s"] for f in figures), fmean(f[other] for f in figures)
    pkg, _ = ask_across(home, template)
    answer = answered_across(pkg)
    assert f"{clock(round(length))} ({number(length, 1)} seconds)" in answer, answer
    assert f"{number(per_game, 2)} {other} per match on average" in answer, answer
    assert answer.count(f"the mean over {len(matches)} matches") == 2, answer


# --- 6: a minimum of games said of gods or roles in front ----------------------------------------------------------------

def _win_rates(games: list[dict], key: str, least: int) -> dict:
    out = {}
    for name in {g[key] for g in games}:
        record = expected_record([g for g in games if g[key] == name])
        if record["games"] >= least and record["win_rate"] is not None:
            out[name] = record["win_rate"]
    return out


@pytest.mark.parametrize("template", ("among gods played at least {k} times, which has the top win rate across all matches",
                                      "for gods with at least {k} games, highest win rate overall",
                                      "of the gods picked {k}+ times, which has the best win rate across all matches"))
def test_a_minimum_said_of_gods_ranks_gods(seasons, template):
    home, matches = seasons
    least = 4
    rates = _win_rates(event_games(matches), "god", least)
    pkg, rows = ask_across(home, template.format(k=least))
    answer = answered_across(pkg)
    assert pkg.plan.season.subject == "god" and pkg.plan.season.min_matches == least, pkg.plan.season
    top = leaders(rates)
    assert ranked_first(rows, "god") == top, rows[:3]
    assert top[0] in answer and f"at least {least} games" in answer, answer


def test_a_minimum_said_of_roles_ranks_roles(seasons):
    home, matches = seasons
    pkg, rows = ask_across(home, "among roles played at least 3 times, top win rate across all matches")
    answered_across(pkg)
    rates = _win_rates(event_games(matches), "role", 3)
    assert pkg.plan.season.subject == "role" and pkg.plan.season.min_matches == 3, pkg.plan.season
    assert ranked_first(rows, "role") == leaders(rates), rows[:3]
