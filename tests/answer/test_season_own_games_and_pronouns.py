"""Cross-match classes of round s44, over the simulated season, each figure from truth.py: a player's own last game
is that one match (so one-match figures such as the build answer it); a pronoun after a god said alone is the god;
someone "'s on" a god is the god's own games; a label for the person asked ("who's the offender") asks for a
player; and "the fights" between two players set against each other are their kills on each other."""

from __future__ import annotations

import pytest

from combat_analysis.contracts.plan import OneMatch
from combat_analysis.contracts.selection import LastMatches
from combat_analysis.formatting import number
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    expected_h2h,
    expected_record,
    leaders,
    named_players,
    ranked_first,
    start_order,
)


def _latest_of(matches, player: str):
    return [m for m in start_order(matches) if player in m.truth["players"]][-1]


@pytest.mark.parametrize("template", ["which items did {n} buy in their most recent game",
                                      "in her latest match, what was {n}'s build"])
def test_a_players_own_last_game_is_that_match(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=2)[0]
    latest = _latest_of(matches, player)
    pkg, _ = ask_across(home, template.format(n=player))
    scope = pkg.plan.scope
    assert isinstance(scope, OneMatch) and scope.how == "own" and scope.match_id == latest.match_id, scope
    answer = pkg.response.direct_answer
    assert answer.startswith(f"In {player}'s latest match, {latest.match_id}"), answer
    items = latest.truth["players"][player]["items"]
    assert f"{len(items)} items" in answer and items[0] in answer, (items, answer)


def test_a_players_own_last_game_counts_that_matchs_figure(seasons):
    home, matches = seasons
    player = named_players(matches, least=2)[-1]
    latest = _latest_of(matches, player)
    pkg, _ = ask_across(home, f"deaths for {player} in his most recent match?")
    deaths = latest.truth["players"][player]["deaths"]
    assert isinstance(pkg.plan.scope, OneMatch), pkg.plan.scope
    assert pkg.response.direct_answer.endswith(f"{player} died {number(deaths)} times."), (deaths, pkg.response.direct_answer)


def _a_god_of(matches, least: int) -> str:
    counts: dict[str, int] = {}
    for g in event_games(matches):
        counts[g["god"]] = counts.get(g["god"], 0) + 1
    return sorted(g for g, n in counts.items() if n >= least)[0]


def test_a_pronoun_after_a_god_alone_is_that_god(seasons):
    home, matches = seasons
    god = _a_god_of(matches, 2)
    record = expected_record([g for g in event_games(matches) if g["god"] == god])
    pkg, _ = ask_across(home, f"{god}? what is his record, how often does he win")
    answer = answered_across(pkg)
    assert answer.startswith(f"Across all {len(matches)} matches, {god}:"), answer
    assert f"over {record['games']} games" in answer, (record, answer)
    assert any(f"read as {god}" in a for a in pkg.plan.assumptions), pkg.plan.assumptions


def test_somebody_contracted_on_a_god_is_the_gods_own_games(seasons):
    home, matches = seasons
    god = _a_god_of(matches, 2)
    deaths = [g["deaths"] for g in event_games(matches) if g["god"] == god]
    answer = answered_across(ask_across(home, f"whenever somebody's on {god}, deaths per game on average?")[0])
    assert f"{god}: {number(sum(deaths) / len(deaths), 2)} deaths per game" in answer, (deaths, answer)


def test_a_label_for_the_person_asked_asks_for_a_player(seasons):
    home, matches = seasons
    tally: dict[str, int] = {}
    for g in event_games(matches):
        tally[g["player"]] = tally.get(g["player"], 0) + g["deaths_to_towers"]
    pkg, rows = ask_across(home, "over every game, the most deaths to towers: who is the offender?")
    assert not pkg.is_refusal, pkg.response.direct_answer
    assert ranked_first(rows, "player") == leaders(tally), (rows[:3], tally)


def test_the_fights_of_two_players_set_against_each_other_are_their_kills_on_each_other(seasons):
    home, matches = seasons
    a, b = named_players(matches, least=3)[:2]
    want = expected_h2h(matches, a, b)
    answer = answered_across(ask_across(home, f"over all our games, {a} against {b}: which of them comes out on top in the fights")[0])
    assert f"{a} killed {b} {number(want['kills_a_on_b'])} time" in answer, (want, answer)
    assert f"{b} killed {a} {number(want['kills_b_on_a'])} time" in answer, (want, answer)


def test_team_fights_said_as_such_across_matches_are_still_refused(seasons):
    home, matches = seasons
    a, b = named_players(matches, least=3)[:2]
    pkg, _ = ask_across(home, f"{a} vs {b}, team fights won across every game")
    assert pkg.is_refusal and "team fights" in pkg.response.direct_answer, pkg.response.direct_answer


def test_a_players_last_games_stay_across_matches(seasons):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    pkg, _ = ask_across(home, f"kills for {player} in her 3 latest matches")
    assert pkg.plan.scope.selection == LastMatches(player=player, count=3), pkg.plan.scope


def test_adding_every_game_up_gives_the_totals_ratio(seasons):
    home, matches = seasons
    player = named_players(matches, least=3)[1]
    mine = [g for g in event_games(matches) if g["player"] == player]
    totals = sum(g["kills"] for g in mine) / max(sum(g["deaths"] for g in mine), 1)
    answer = answered_across(ask_across(home, f"{player}'s k/d once you add every game of theirs together")[0])
    assert f"{number(totals, 2)} from the season totals" in answer, (totals, answer)


def test_by_an_abbreviated_average_is_no_players_name(seasons):
    home, matches = seasons
    pkg, rows = ask_across(home, "top god by avg deaths, with 2+ games")
    per: dict[str, list[int]] = {}
    for g in event_games(matches):
        per.setdefault(g["god"], []).append(g["deaths"])
    means = {god: sum(v) / len(v) for god, v in per.items() if len(v) >= 2}
    assert not pkg.is_refusal, pkg.response.direct_answer
    assert ranked_first(rows, "god") == leaders(means), (rows[:3], means)


def test_a_record_asked_of_recent_games_is_counted_not_drawn(seasons):
    home, matches = seasons
    player = named_players(matches, least=5)[0]
    last = [m for m in start_order(matches) if player in m.truth["players"]][-5:]
    won = sum(m.truth["winner"] == m.truth["players"][player]["team"] for m in last)
    lost = sum(m.truth["winner"] not in (None, m.truth["players"][player]["team"]) for m in last)
    pkg, _ = ask_across(home, f"wins and losses for {player} lately")
    answer = answered_across(pkg)
    assert pkg.plan.season.figure != "trend", pkg.plan.season
    assert f"{won} win" in answer and f"{lost} loss" in answer, (won, lost, answer)
