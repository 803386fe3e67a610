"""Round s53's cross-match classes, over both simulated seasons, each figure from truth.py: a question with no scope
word about one player who did not play the latest match is that player's own latest match (never the latest match's
totals with the name unread); and "across his games" is every match."""

from __future__ import annotations

import pytest

from combat_analysis.contracts.plan import OneMatch
from combat_analysis.formatting import number
from tests.support.season import answered_across, ask_across, start_order


def _absent(matches) -> tuple[str, object]:
    """A player who did not play the latest match, and the latest match they played."""
    ordered = start_order(matches)
    for player in sorted({p for m in ordered for p in m.truth["players"]}):
        if player not in ordered[-1].truth["players"]:
            return player, [m for m in ordered if player in m.truth["players"]][-1]
    pytest.skip("everyone played the latest match")


def test_a_player_absent_from_the_latest_match_is_asked_of_their_own(seasons):
    home, matches = seasons
    player, own = _absent(matches)
    pkg, _ = ask_across(home, f"{player} deaths?")
    scope = pkg.plan.scope
    assert isinstance(scope, OneMatch) and scope.match_id == own.match_id, scope
    deaths = own.truth["players"][player]["deaths"]
    assert pkg.response.direct_answer.endswith(f"{player} died {number(deaths)} times."), (deaths, pkg.response)


def test_across_his_games_is_every_match(seasons):
    home, matches = seasons
    player, _ = _absent(matches)
    deaths = sum(m.truth["players"][player]["deaths"] for m in matches if player in m.truth["players"])
    answer = answered_across(ask_across(home, f"{player}'s deaths across her games")[0])
    assert f"Deaths: {number(deaths)} in total" in answer, (deaths, answer)
