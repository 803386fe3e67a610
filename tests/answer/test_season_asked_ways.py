"""Cross-match classes said in more ways, over both simulated seasons, against truth.py aggregated in plain Python
(tests/support/season.py): a player's best or worst game by a figure named with a suffix or "in terms of", a
yes/no comparison of per-game means said "a game", kills asked each way with no scope word, assists on each
other, deaths by cause over every game, and the latest or a dated game's winner, kill score and line-up."""

from __future__ import annotations

import re

import pytest

from combat_analysis.formatting import count, number, times
from tests.support.season import (
    answered_across,
    ask_across,
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
    assert f"{a} killed {b} {times(want['kills_a_on_b'])}" in answer, answer
    assert f"{b} killed {a} {times(want['kills_b_on_a'])}" in answer, answer


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


# --- deaths by cause over every game, per player and for everyone -------------------------------------------------

_MINION = ("swordsman", "archer", "brute")  # METRICS.md's minions (the Champion and Fire variants contain these)


def _deaths_to(matches, cause: str, player: str | None = None) -> int:
    """Deaths by cause from truth.py's deaths to non-players: towers by the word in the killer's name, minions by
    METRICS.md's minion names."""
    words = ("tower",) if cause == "towers" else _MINION
    return sum(any(w in (d["killer"] or "").lower() for w in words)
               for m in matches for d in m.truth["deaths_to_npcs"] if player is None or d["victim"] == player)


@pytest.mark.parametrize(("template", "cause"), (
    ("how many times have we died to minions across every game", "minions"),
    ("total deaths to towers this season", "towers"),
    ("across all matches, how often did someone get killed by minions", "minions"),
    ("number of times anybody was killed by a tower over all our matches", "towers"),
))
def test_deaths_by_a_cause_over_every_game(seasons, template, cause):
    home, matches = seasons
    answer = answered_across(ask_across(home, template)[0])
    assert f": {number(_deaths_to(matches, cause))} deaths to {cause} in total" in answer, answer


@pytest.mark.parametrize(("template", "cause"), (
    ("how many times has {n} died to minions across all games", "minions"),
    ("{n}'s total deaths to towers over the season", "towers"),
    ("how often was {n} killed by minions in all our games", "minions"),
))
def test_a_players_deaths_by_a_cause_over_every_game(seasons, template, cause):
    home, matches = seasons
    player = named_players(matches, least=3)[1]
    want, games = _deaths_to(matches, cause, player), len(games_of(matches, player))
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    label = "death" if want == 1 else "deaths"
    assert f"{player}: {number(want)} {label} to {cause} in total over {count(games, 'game')}" in answer, answer


# --- the latest or a dated game: winner, kill score, line-up ------------------------------------------------------

def _one_match_answer(home, question: str) -> str:
    pkg, _ = ask_across(home, question)
    assert not pkg.is_refusal, pkg.response.direct_answer
    assert not [e for e in pkg.errors if not e.handled], pkg.errors
    return pkg.response.direct_answer


def _team_kills(match) -> dict[int, int]:
    players = match.truth["players"].values()
    return {team: sum(p["kills"] for p in players if p["team"] == team) for team in (1, 2)}


def _days_of_one_match(matches) -> list:
    """The matches that are the only one of their day, in start order."""
    days: dict[str, list] = {}
    for m in start_order(matches):
        days.setdefault(m.truth["match_start"][:10], []).append(m)
    return [ms[0] for ms in days.values() if len(ms) == 1]


def _dated(matches):
    """A match alone on its day, one with no winner when there is one (no Titan fell)."""
    alone = _days_of_one_match(matches)
    return next((m for m in alone if m.truth["winner"] is None), alone[0])


def _assert_winner_and_score(answer: str, match) -> None:
    winner = match.truth["winner"]
    if winner is None:
        assert "winner is unknown" in answer and "no Titan fell" in answer, answer
    else:
        assert f"team {winner} won" in answer, answer
    for team, kills in _team_kills(match).items():
        assert f"team {team}: {kills}" in answer, (team, kills, answer)


@pytest.mark.parametrize("template", (
    "who won the last game and what was the kill score",
    "latest match: which side won, and the kills for each team?",
    "our most recent game - who was the winner, and how many kills did each team have",
))
def test_the_latest_games_winner_and_kill_score(seasons, template):
    home, matches = seasons
    latest = start_order(matches)[-1]
    answer = _one_match_answer(home, template)
    assert latest.match_id in answer, answer
    _assert_winner_and_score(answer, latest)


@pytest.mark.parametrize("template", (
    "who won on {d} and what was the kill score",
    "the game on {d}: winner and kills per team",
))
def test_a_dated_games_winner_and_kill_score(seasons, template):
    home, matches = seasons
    match = _dated(matches)
    answer = _one_match_answer(home, template.format(d=match.truth["match_start"][:10]))
    assert match.match_id in answer, answer
    _assert_winner_and_score(answer, match)


@pytest.mark.parametrize("template", ("final kill score on {d}", "what was the final kill score of the {d} game",
                                      "kill score on {d} at the end", "the final kill-score in the {d} match"))
def test_the_final_kill_score_of_a_day_is_its_team_kills_not_its_last_kill(seasons, template):
    home, matches = seasons
    match = _days_of_one_match(matches)[-1]
    answer = _one_match_answer(home, template.format(d=match.truth["match_start"][:10]))
    assert match.match_id in answer and "last player kill" not in answer, answer
    for team, kills in _team_kills(match).items():
        assert f"team {team}: {kills}" in answer, (team, kills, answer)


@pytest.mark.parametrize("template", ("what was the line up in the last game", "lineup of the latest match",
                                      "show the line-up for our most recent game", "who played in the last match"))
def test_the_line_up_of_the_latest_game_is_its_ten_players_by_side(seasons, template):
    home, matches = seasons
    latest = start_order(matches)[-1]
    answer = _one_match_answer(home, template)
    assert latest.match_id in answer and "10 players" in answer, answer
    said = []
    for name, p in latest.truth["players"].items():
        entry = f"{name} (team {p['team']} {p['role']}, {p['god']})"
        assert entry in answer, (entry, answer)
        said.append((p["team"], answer.index(entry)))
    assert [team for team, _ in sorted(said, key=lambda s: s[1])] == [1] * 5 + [2] * 5, answer


# --- wording: one clause for every comparison of two players, counts said with their nouns --------------------------

def _figure(compare: str, metric: str = "kills", statistic: str = "total"):
    from combat_analysis.contracts.plan import SeasonFigure

    return SeasonFigure(figure="profile", players=("Ann", "Bo"), metric=metric, statistic=statistic, compare=compare)


def _row(player: str, games: int, total: int) -> dict:
    return {"player": player, "matches": games, "total_kills": total, "average_kills": total / games}


@pytest.mark.parametrize(("compare", "head", "first", "second"), (
    ("more", "No", "Ann", "Bo"), ("less", "Yes", "Ann", "Bo"), ("which_more", "Bo", "Bo", "Ann"),
    ("which_less", "Ann", "Ann", "Bo")))
def test_every_comparison_of_two_players_says_one_clause(compare, head, first, second):
    from combat_analysis.season.wording import _verdict

    rows = [_row("Ann", 1, 1), _row("Bo", 2, 5)]
    said = _verdict(_figure(compare), rows)
    values = {"Ann": "1 over 1 game", "Bo": "5 over 2 games"}
    relation = "less than" if first == "Ann" else "more than"
    assert said == f"{head}: {first}'s total kills: {values[first]}, {relation} {second}'s {values[second]}. ", said


def test_a_tie_between_two_players_is_said_by_the_same_clause():
    from combat_analysis.season.wording import _verdict

    said = _verdict(_figure("which_more"), [_row("Ann", 1, 3), _row("Bo", 1, 3)])
    assert said == "Neither: Ann's total kills: 3 over 1 game, the same as Bo's 3 over 1 game. ", said


def test_counts_of_one_say_their_noun_in_the_singular():
    """"1 game", "once", "1 match": never "1 games" or "1 times" (formatting.count and times)."""
    from combat_analysis.contracts.plan import Intent, ManyMatches, QueryPlan, SeasonFigure
    from combat_analysis.contracts.selection import AllMatches
    from combat_analysis.season.wording import answer_text

    plan = QueryPlan(question="a vs b", intent=Intent.COMPARISON, scope=ManyMatches(selection=AllMatches()),
                     season=SeasonFigure(figure="head_to_head", players=("Ann", "Bo")))
    row = {"player_a": "Ann", "player_b": "Bo", "matches_together": 1, "as_teammates": 0, "teammate_wins": 0,
           "teammate_losses": 0, "as_opponents": 1, "wins_a": 1, "wins_b": 0, "opponent_unknown_results": 0,
           "kills_a_on_b": 1, "kills_b_on_a": 2}
    said = answer_text(plan, [row], 1)
    assert said.startswith("Across all 1 match, Ann and Bo played 1 match together"), said
    assert "Ann killed Bo once; Bo killed Ann 2 times." in said, said
    assert not re.search(r"\b1 (?:games|matches|times|kills)\b", said), said


# --- "his (her) best game" after a question that named the player ---------------------------------------------------

def _ask_after(home, question: str, previous: tuple[str, ...]):
    from combat_analysis.answer.pipeline import answer_question, choose_match

    choice = choose_match(question, home / "warehouse", None)
    return answer_question(question, warehouse_root=home / "warehouse", match_id=choice.match_id,
                           scope_how=choice.how, scope=choice.scope, artifacts_dir=home / "artifacts", followups=False,
                           answer_only=True, previous_queries=previous)


@pytest.mark.parametrize(("earlier", "template", "metric", "which"), (
    ("{n}'s best game kills-wise", "his worst game damage wise", "damage_dealt", "worst"),
    ("how many kills does {n} have across all games", "and her top match in terms of gold", "gold", "best"),
))
def test_a_pronoun_names_the_player_of_the_earlier_question(seasons, earlier, template, metric, which):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    order = [m.match_id for m in start_order(matches)]
    games = sorted(games_of(matches, player), key=lambda g: order.index(g["match_id"]))
    want = (max if which == "best" else min)(g[metric] for g in games)
    first = next(g for g in games if g[metric] == want)
    answer = answered_across(_ask_after(home, template, (earlier.format(n=player),)))
    assert answer.startswith(f"Across all {len(matches)} matches, {player}'s {which} match"), answer
    assert f"{first['match_id']} on {first['started_at'].date().isoformat()} ({number(want, 2)})" in answer, answer


def test_a_pronoun_with_no_player_named_before_is_refused(seasons):
    home, _ = seasons
    pkg = _ask_after(home, "his worst game damage wise", ())
    assert pkg.is_refusal and "names no player" in pkg.response.direct_answer, pkg.response.direct_answer
