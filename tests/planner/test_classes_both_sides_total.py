"""A figure split by side and asked of "both teams", "the two sides", "each side", "together", "in total": each side's
figure and their sum, said with what it counts; a rate (KDA) has no sum, and a side-by-side question that asks no
total stays as it was. End to end on the simulated match of `match`, every value from truth.py."""

from __future__ import annotations

import pytest

from tests.support.said import says

BOTH = [("how many kills did both teams get", "kills"), ("total deaths for both teams", "deaths"),
        ("how much gold did each side earn in total", "gold"), ("kills for the two teams together", "kills"),
        ("assists for each team and the total", "assists"), ("both sides' healing combined?", "healing_done"),
        ("dmg dealt by the 2 teams, added up", "damage_dealt"), ("order and chaos deaths altogether", "deaths")]


@pytest.mark.parametrize(("question", "figure"), BOTH)
def test_both_sides_and_their_sum(match, question, figure):
    one, two = (match.truth["teams"][t][figure] for t in ("1", "2"))
    a = match.ask(question)
    assert a.plan.group_by == ("team",), a.plan
    assert says(a.text, one) and says(a.text, two) and says(a.text, one + two), a.text
    assert "Both teams together" in a.text, a.text


def test_both_sides_in_a_window_sum_in_that_window(match):
    kills = [k for k in match.truth["kills"] if k["second"] >= 1200]
    a = match.ask("kills for both teams after minute 20")
    assert says(a.text, len(kills)) and "after minute 20" in a.text.split("Both teams together")[1], a.text


@pytest.mark.parametrize("question", ["kda for both teams", "order vs chaos kills", "which team had more kills",
                                      "which side earned more gold overall", "team with the most total deaths"])
def test_no_sum_where_none_is_asked_or_none_adds_up(match, question):
    a = match.ask(question)
    assert "Both teams together" not in a.text, a.text


@pytest.mark.parametrize(("question", "figure", "fewest"), [("the side with more gold, and by how much?", "gold", False),
                                                          ("the side with the fewest deaths?", "deaths", True),
                                                          ("who won the kill race, order or chaos, n by how many", "kills",
                                                           False)])
def test_two_sides_ranked_say_the_other_side_and_the_difference(match, question, figure, fewest):
    one, two = (match.truth["teams"][t][figure] for t in ("1", "2"))
    a = match.ask(question)
    assert says(a.text, one) and says(a.text, two), a.text
    assert says(a.text, abs(one - two)), a.text  # "a difference of N" in a ranking, "N more" side by side
