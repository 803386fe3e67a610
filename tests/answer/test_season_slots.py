"""Cross-match slots asked in several wordings, over both simulated seasons, checked against truth.py aggregated
in plain Python (tests/support/season.py): slipped scope words, "<figure>-wise", the latest game as a selector, a
day by month and day, side win shares with both bases, first bloods drawn, K/D from the season totals beside
the per-game mean, kills, deaths and assists at once, and head-to-head said any way."""

from __future__ import annotations

from datetime import datetime

import pytest

from combat_analysis.contracts.plan import OneMatch
from combat_analysis.formatting import number, times
from tests.support.season import (
    answered_across,
    ask_across,
    event_games,
    expected_h2h,
    games_of,
    named_players,
    side_games,
    start_order,
)

MONTHS = ("jan", "feb", "march", "april", "may", "june", "july", "aug", "sept", "oct", "nov", "dec")


def totals(matches, metric: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for g in event_games(matches):
        out[g["player"]] = out.get(g["player"], 0) + g[metric]
    return out


def leaders(values: dict[str, int]) -> list[str]:
    best = max(values.values())
    return sorted(p for p, v in values.items() if v == best)


def assert_leaders_across(home, question: str, values: dict[str, int]) -> None:
    """The question, asked across matches, ranks first exactly the players with the most of `values`."""
    pkg, rows = ask_across(home, question)
    answered_across(pkg)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == leaders(values)


@pytest.mark.parametrize(("template", "metric"), (("top killer overal", "kills"),
                                                  ("who has the most assists thsi season", "assists"),
                                                  ("most deaths acros all games", "deaths")))
def test_a_slipped_scope_word_still_reads_the_season(seasons, template, metric):
    home, matches = seasons
    values = totals(matches, metric)
    pkg, rows = ask_across(home, template)
    answer = answered_across(pkg)
    top = leaders(values)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top
    assert top[0] in answer and number(values[top[0]]) in answer, answer
    assert any("read as '" in a for a in pkg.plan.assumptions), pkg.plan.assumptions


@pytest.mark.parametrize(("template", "metric", "best"), (("{n}'s best game kills-wise", "kills", True),
                                                          ("{n} worst match deaths-wise", "deaths", False),
                                                          ("best game for {n} assists-wise", "assists", True)))
def test_a_wise_suffix_names_the_figure_of_the_best_game(seasons, template, metric, best):
    home, matches = seasons
    player = named_players(matches, least=3)[-1]
    games_ = sorted(games_of(matches, player), key=lambda g: (g["started_at"], g["match_id"]))
    # deaths: the worst game is the one with the most (a figure where lower is better)
    want = max(g[metric] for g in games_) if best or metric == "deaths" else min(g[metric] for g in games_)
    first = next(g for g in games_ if g[metric] == want)
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    assert first["match_id"] in answer and f"({number(want)})" in answer, answer


@pytest.mark.parametrize("question", ("who won the latest game", "which team won the most recent match",
                                      "winner of the last game?"))
def test_the_latest_game_selects_the_latest_match(seasons, question):
    from combat_analysis.answer.pipeline import answer_question, choose_match

    home, matches = seasons
    latest = start_order(matches)[-1]
    choice = choose_match(question, home / "warehouse", None)
    assert choice.match_id == latest.match_id and choice.how == "latest"
    pkg = answer_question(question, warehouse_root=home / "warehouse", match_id=choice.match_id,
                          scope_how=choice.how, scope=choice.scope, artifacts_dir=home / "artifacts", followups=False)
    assert isinstance(pkg.plan.scope, OneMatch) and pkg.plan.scope.match_id == latest.match_id
    answer = pkg.response.direct_answer
    assert latest.match_id in answer, answer
    winner = latest.truth["winner"]
    assert (f"team {winner} won" in answer.lower()) if winner else not pkg.is_refusal, answer


@pytest.mark.parametrize("template", ("who dealt the most damage on {mon} {d}", "top damage on the {d}th of {mon}",
                                      "damage leader on {mon} {d}th"))
def test_a_day_named_by_month_and_day_reads_that_days_matches(seasons, template):
    home, matches = seasons
    day = datetime.fromisoformat(start_order(matches)[0].truth["match_start"]).date()
    that_day = [m for m in matches if datetime.fromisoformat(m.truth["match_start"]).date() == day]
    values = totals(that_day, "damage_dealt")
    mon = MONTHS[day.month - 1]
    pkg, rows = ask_across(home, template.format(mon=mon, d=day.day))
    top = leaders(values)
    if len(that_day) == 1:  # a day of one match answers as that match (docs/season.md, "A day as a selector")
        answer = pkg.response.direct_answer
        assert isinstance(pkg.plan.scope, OneMatch) and pkg.plan.scope.match_id == that_day[0].match_id, pkg.plan
        assert all(p in answer for p in top) and number(values[top[0]]) in answer, answer
        return
    answer = answered_across(pkg)
    assert sorted(r["player"] for r in rows if r["rank"] == 1) == top
    assert number(values[top[0]]) in answer, answer


@pytest.mark.parametrize(("template", "team"), (("how often does chaos win", 2), ("how many games has order won", 1),
                                                ("team 2 wins across all games", 2)))
def test_side_wins_say_the_share_of_decided_games_and_of_all(seasons, template, team):
    home, matches = seasons
    rows = [s for s in side_games(matches) if s["side"] == team]
    wins = sum(s["result"] == "win" for s in rows)
    decided = sum(s["result"] != "unknown" for s in rows)
    pkg, _ = ask_across(home, template)
    answer = answered_across(pkg)
    assert f"{number(100 * wins / decided, 2)}% of the {decided} games with a winner" in answer, answer
    if decided < len(rows):
        assert f"{number(100 * wins / len(rows), 2)}% of all {len(rows)}" in answer, answer


@pytest.mark.parametrize("question", ("who got first blood the most", "who gets first blood most often",
                                      "which player got first blood the most times across all games"))
def test_getting_first_blood_is_drawing_it(seasons, question):
    home, matches = seasons
    values = totals(matches, "first_bloods")
    assert_leaders_across(home, question, values)


@pytest.mark.parametrize("template", ("{n}'s k/d across all games", "k/d ratio for {n} this season",
                                      "{n} kill death ratio overall"))
def test_kd_gives_the_season_totals_ratio_beside_the_per_game_mean(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    games_ = games_of(matches, player)
    kills, deaths = sum(g["kills"] for g in games_), sum(g["deaths"] for g in games_)
    mean = sum(g["kills"] / max(g["deaths"], 1) for g in games_) / len(games_)
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    assert f"{number(kills / max(deaths, 1), 2)} from the season totals" in answer, answer
    assert f"{number(mean, 2)} K/D per game" in answer, answer


@pytest.mark.parametrize("template", ("{n}'s kills, deaths and assists in total",
                                      "{n} kills and deaths and assists across all games",
                                      "average kills, deaths, assists per game for {n}"))
def test_kills_deaths_and_assists_at_once(seasons, template):
    home, matches = seasons
    player = named_players(matches, least=3)[1]
    games_ = games_of(matches, player)
    pkg, _ = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    for metric in ("kills", "deaths", "assists"):
        total = sum(g[metric] for g in games_)
        assert f"{number(total)} {metric}" in answer, answer
        assert number(total / len(games_), 2) in answer, answer


@pytest.mark.parametrize("template", ("{a} and {b} kills each way", "{a} vs {b}, kills on each other",
                                      "{a} v {b} when on opposite teams, who won more",
                                      "{a} against {b} as opponents",
                                      "how many times did {a} kill {b} across all games, and vice versa",
                                      "{a} and {b}: how often have they killed one another",
                                      "how many times did {a} and {b} slay each other",
                                      "overall, how many deaths has {a} had to {b} and how many has {b} had to {a}"))
def test_head_to_head_said_any_way(seasons, template):
    home, matches = seasons
    players = named_players(matches, least=3)
    a, b = next((a, b) for a in players for b in players
                if a < b and expected_h2h(matches, a, b)["as_opponents"] >= 2)
    want = expected_h2h(matches, a, b)
    pkg, _ = ask_across(home, template.format(a=a, b=b))
    answer = answered_across(pkg)
    assert f"{a} killed {b} {times(want['kills_a_on_b'])}" in answer, answer
    assert f"{b} killed {a} {times(want['kills_b_on_a'])}" in answer, answer
    assert f"{want['as_opponents']} as opponents" in answer, answer


def structure_deaths(matches, word: str) -> dict[str, int]:
    """Each player's deaths to structures whose name holds `word` (METRICS.md: tower, phoenix, titan)."""
    out: dict[str, int] = {}
    for m in matches:
        for d in m.truth["deaths_to_npcs"]:
            if d["victim"] in m.truth["players"] and word in (d["killer"] or "").lower():
                out[d["victim"]] = out.get(d["victim"], 0) + 1
    return out


@pytest.mark.parametrize(("question", "word"), (("how many times did anyone die to a tower this season", "tower"),
                                                ("total deaths to towers across all games", "tower"),
                                                ("how many times did someone die to a phoenix overall", "phoenix")))
def test_deaths_to_one_kind_of_structure_over_the_season(seasons, question, word):
    home, matches = seasons
    total = sum(structure_deaths(matches, word).values())
    pkg, _ = ask_across(home, question)
    answer = answered_across(pkg)
    assert f"{number(total)} deaths to {word}" in answer, answer


@pytest.mark.parametrize("question", ("who died to towers the most this season",
                                      "which player has the most deaths to towers across all games"))
def test_deaths_to_towers_rank_players_by_towers_alone(seasons, question):
    home, matches = seasons
    values = structure_deaths(matches, "tower")
    assert_leaders_across(home, question, values)


@pytest.mark.parametrize(("template", "metric", "result"), (
    ("total gold for {n} in the games they won", "gold", "win"),
    ("{n}'s kills across all games in matches lost", "kills", "loss"),
    ("how much damage did {n} deal in their wins, in total", "damage_dealt", "win"),
))
def test_a_players_figure_over_only_the_games_won_or_lost(seasons, template, metric, result):
    home, matches = seasons
    player = named_players(matches, least=3)[2]
    kept = [g for g in games_of(matches, player) if g["result"] == result]
    pkg, rows = ask_across(home, template.format(n=player))
    answer = answered_across(pkg)
    assert pkg.plan.season.result == result
    if kept:
        assert rows[0]["matches"] == len(kept), rows
        assert number(sum(g[metric] for g in kept)) in answer, answer
