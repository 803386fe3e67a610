"""Kill chains defined in the question, across matches, over both simulated seasons (tests/support/season.py): the
board of players with their totals and games, a side's and a role's board, a player's total, the match with the most,
the season's total; both readings and several N and S in several wordings of our own; a multi-kill with no
definition refused, saying how to ask. Every number is worked out here from truth.py's kill list (its kills with
their seconds and lines) and the player deaths of truth.py's parse of each match's log."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from combat_analysis.answer.fidelity import check_text
from tests.support.chains import expected_chains, player_deaths
from tests.support.said import has_number
from tests.support.season import answered_across, ask_across, named_players


def season_chains(matches, n: int, s: int, window: bool, deaths_break: bool = True) -> list[tuple[object, list[dict]]]:
    """Every chain of every match, with its match."""
    out = []
    for m in matches:
        deaths = player_deaths(m.path)
        out += [(m, c) for c in expected_chains(m.truth["kills"], deaths, n, s, window, deaths_break)]
    return out


def _answered(pkg) -> str:
    """The direct answer of a kill-chain package across matches, every number in it traced to the data."""
    answer = answered_across(pkg)
    assert pkg.plan.chain is not None and pkg.plan.season is not None, pkg.plan
    assert not check_text(answer, pkg), check_text(answer, pkg)
    return answer


BOARD = {False: ["who had the most chains of {n} kills, each within {s} seconds of the one before, across all matches",
                 "most {n}-kill chains this season with every kill {s}s or less after the previous one"],
         True: ["who got {n} kills in {s} seconds the most times over all games",
                "career leaders in {n} kills within {s} secs"]}


@pytest.mark.parametrize("n,s,window", [(2, 10, False), (3, 20, False), (2, 8, True), (3, 30, True)])
@pytest.mark.parametrize("which", [0, 1])
def test_the_board_of_players_with_their_games(seasons, n, s, window, which):
    home, matches = seasons
    chains = season_chains(matches, n, s, window)
    pkg, rows = ask_across(home, BOARD[window][which].format(n=n, s=s))
    answer = _answered(pkg)
    assert pkg.plan.season.figure == "board", pkg.plan.season
    counts = Counter(c[0]["killer"] for _, c in chains)
    games = Counter(p for m in matches for p in m.truth["players"])
    assert {r["player"]: r["kill_chains"] for r in rows if r["kill_chains"]} == dict(counts)
    assert all(r["matches"] == games[r["player"]] for r in rows), rows
    assert f"In all, {len(chains)} chain" in answer if chains else "no player had any" in answer, answer
    if chains:
        top = max(counts.values())
        leaders = sorted(p for p, v in counts.items() if v == top)
        assert sorted(r["player"] for r in rows if r["rank"] == 1) == leaders
        assert f"{leaders[0]} ({games[leaders[0]]} game" in answer and f"the most kill chains of at least {n} kills: {top}" \
            in answer, answer


@pytest.mark.parametrize("template,subject,key", [
    ("which side has the most chains of {n} kills within {s} seconds across all matches", "side", "team"),
    ("which role got the most {n} kill chains, each within {s}s of the one before, over every game", "role", "role")])
def test_a_board_of_sides_or_roles(seasons, template, subject, key):
    home, matches = seasons
    n, s = 2, 12
    chains = season_chains(matches, n, s, "one before" not in template)
    pkg, rows = ask_across(home, template.format(n=n, s=s))
    _answered(pkg)
    assert pkg.plan.season.subject == subject, pkg.plan.season
    counts = Counter(m.truth["players"][c[0]["killer"]][key] for m, c in chains)
    got = {r[subject]: r["kill_chains"] for r in rows if r["kill_chains"]}
    if subject == "side":
        got = {int(re.search(r"team (\d)", name).group(1)): v for name, v in got.items()}
    assert got == dict(counts)


@pytest.mark.parametrize("template", ["how many chains of {n} kills in {s} seconds has {p} had across all matches",
                                      "{p} total {n}-kill chains, each kill within {s}s of the previous, all games",
                                      "over all games how often did {p} get {n} kills within {s} seconds"])
@pytest.mark.parametrize("n,s", [(2, 10), (3, 30)])
def test_a_players_total(seasons, template, n, s):
    home, matches = seasons
    window = "previous" not in template
    chains = season_chains(matches, n, s, window)
    counts = Counter(c[0]["killer"] for _, c in chains)
    players = named_players(matches)
    player = max(players, key=lambda p: (counts.get(p, 0), p))
    pkg, rows = ask_across(home, template.format(p=player, n=n, s=s))
    answer = _answered(pkg)
    assert pkg.plan.season.figure == "profile" and pkg.plan.season.players == (player,), pkg.plan.season
    games = sum(1 for m in matches if player in m.truth["players"])
    mine = [(m, c) for m, c in chains if c[0]["killer"] == player]
    assert rows[0]["kill_chains"] == len(mine) and rows[0]["matches"] == games, rows
    assert f"{player} had {len(mine)} kill chains of at least {n} kills in {games} game" in answer, answer
    if mine:
        per_match = Counter(m.match_id for m, _ in mine)
        assert rows[0]["most_in_a_match"] == max(per_match.values()), rows
        assert rows[0]["matches_with_chains"] == len(per_match), rows


@pytest.mark.parametrize("template", ["which match had the most chains of {n} kills within {s} seconds",
                                      "game with the most {n} kill chains (each kill {s} s or less after the one before) "
                                      "across all matches"])
def test_the_match_with_the_most(seasons, template):
    home, matches = seasons
    n, s = 2, 10
    chains = season_chains(matches, n, s, "one before" not in template)
    pkg, rows = ask_across(home, template.format(n=n, s=s))
    answer = _answered(pkg)
    assert pkg.plan.season.figure == "matches", pkg.plan.season
    per_match = Counter(m.match_id for m, _ in chains)
    assert {r["match_id"]: r["kill_chains"] for r in rows if r["kill_chains"]} == dict(per_match)
    top = max(per_match.values())
    best = sorted(mid for mid, v in per_match.items() if v == top)
    assert sorted(r["match_id"] for r in rows if r["rank"] == 1) == best
    assert best[0] in answer and f"in one match: {top}" in answer, answer


@pytest.mark.parametrize("template", ["how many chains of {n} kills in {s} seconds were there across all matches",
                                      "total {n}-kill chains this season, each within {s}s of the one before",
                                      "season count of {n} kills within {s} secs, even if the killer died in between",
                                      # the chain's rule in a parenthesis, the rule on deaths said of its own
                                      "how many chains this season? (a chain = {n} kills each within {s} sec of the one "
                                      "before, a death in between resets the count)"])
@pytest.mark.parametrize("n,s", [(2, 15), (4, 40)])
def test_the_season_total(seasons, template, n, s):
    home, matches = seasons
    allowed = "even if" in template
    chains = season_chains(matches, n, s, "one before" not in template, deaths_break=not allowed)
    pkg, rows = ask_across(home, template.format(n=n, s=s))
    answer = _answered(pkg)
    assert pkg.plan.season.figure == "season" and pkg.plan.chain.deaths_break is not allowed, pkg.plan
    assert rows[0]["kill_chains"] == len(chains), rows
    assert rows[0]["matches_with_chains"] == len({m.match_id for m, _ in chains}), rows
    if chains:
        assert f"there were {len(chains)} kill chains of at least {n} kills" in answer, answer
    assert ("a death of the killer in between not breaking it" if allowed
            else "with no death of the killer in between") in answer, answer


@pytest.mark.parametrize("question", ["most pentakills this season", "triple kills across all matches by player",
                                      "who has the most kill chains over all games"])
def test_a_multi_kill_with_no_definition_is_refused_across_matches(seasons, question):
    home, _ = seasons
    pkg, _ = ask_across(home, question)
    assert pkg.plan.refusal is not None, pkg.response.direct_answer
    assert "defines no multi-kill" in pkg.plan.refusal.reason, pkg.plan.refusal
    assert not has_number(pkg.plan.refusal.reason), pkg.plan.refusal
