"""Round s52's cross-match classes, over both simulated seasons, each figure from truth.py: two players' kills on each
other said as "each ... the other" are their head to head; the players who took part in the games, said as "diff"
players or as having "shown up" in them, are the season's different players; and "gone down" is a verb of falling."""

from __future__ import annotations

from combat_analysis.formatting import number
from tests.support.season import answered_across, ask_across, expected_h2h, named_players


def test_each_killing_the_other_is_the_head_to_head(seasons):
    home, matches = seasons
    a, b = named_players(matches, least=3)[:2]
    want = expected_h2h(matches, a, b)
    answer = answered_across(ask_across(home, f"{a} and {b} across the season: how often did each of them slay the "
                                              "other")[0])
    assert f"{a} killed {b} {number(want['kills_a_on_b'])} time" in answer, (want, answer)
    assert f"{b} killed {a} {number(want['kills_b_on_a'])} time" in answer, (want, answer)


def test_the_players_who_took_part_are_counted(seasons):
    home, matches = seasons
    players = {p for m in matches for p in m.truth["players"]}
    for question in ("how many diff players were there in these matches", "number of players that turned up in the games"):
        answer = answered_across(ask_across(home, question)[0])
        assert f"{len(players)} different players" in answer, (question, len(players), answer)


def test_gone_down_is_falling(seasons):
    home, matches = seasons
    towers = sum(1 for m in matches for o in m.truth["objectives"] if "Tower" in o["target"])
    answer = answered_across(ask_across(home, "all games together, how many towers have gone down")[0])
    assert f"{number(towers)} towers destroyed in total" in answer, (towers, answer)
