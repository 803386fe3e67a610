"""Solo kills across matches (round 56), over both simulated seasons, each figure from truth.py's kill list: a kill is
solo when no teammate assisted it (METRICS.md's assists, none for the kill); the season's board ranks players by
their solo kills in all, and one player's total is the sum over the games they played."""

from __future__ import annotations

from collections import Counter

from combat_analysis.formatting import number
from tests.support.season import answered_across, ask_across


def _solo_kills(matches) -> Counter:
    return Counter(k["killer"] for m in matches for k in m.truth["kills"] if not k["assists"])


def test_the_board_of_solo_kills_leads_with_the_most(seasons):
    home, matches = seasons
    solo = _solo_kills(matches)
    best = max(solo.values())
    answer = answered_across(ask_across(home, "which player has the most unassisted kills over the season")[0])
    leaders = [p for p, n in solo.items() if n == best]
    assert any(f"{p} with {number(best)} solo kills in total" in answer for p in leaders), (leaders, best, answer)


def test_one_players_solo_kills_are_summed_over_their_games(seasons):
    home, matches = seasons
    solo = _solo_kills(matches)
    player = sorted(solo)[0]
    answer = answered_across(ask_across(home, f"{player} solo kills, all matches")[0])
    assert f"{player}: {number(solo[player])} solo kills in total" in answer, (solo[player], answer)
