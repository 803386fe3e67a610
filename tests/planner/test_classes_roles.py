"""A role named with a side or as a lane matchup, end to end on a simulated match and checked against truth.py: the
god a side's role played, and a role's two players set against each other on any figure, with the gap said."""

from __future__ import annotations

import pytest

from tests.support.said import says
from tests.support.truth_checks import player_at

_SIDES = {1: "order", 2: "chaos"}
_ROLE_WORDS = {"Support": "supp", "Carry": "adc", "Jungle": "jungler", "Middle": "mid", "Solo": "solo lane"}


@pytest.mark.parametrize(("question", "team", "role"), [
    ("wat god did the {side} {role} pick", 1, "Middle"),
    ("wut god was the {side} {role} on", 2, "Support"),
    ("which god did {side} {role} lock in", 2, "Jungle"),
    ("wich god did the {side} {role} play?", 1, "Carry"),
    ("what did the {side} {role} lock in", 1, "Solo"),
    ("wat did {side} {role} pick", 2, "Middle"),
])
def test_the_god_of_a_side_s_role(spoken, question, team, role):
    player = player_at(spoken.truth, team, role)
    a = spoken.ask(question.format(side=_SIDES[team], role=_ROLE_WORDS[role]))
    assert spoken.truth["players"][player]["god"] in a.text, a.text
    assert player in a.text, a.text
    assert a.refusal is None and "not used" not in a.text, a.text


@pytest.mark.parametrize(("question", "role", "figure"), [
    ("{role} gold diff", "Solo", "gold"),
    ("{role} gold difference?", "Middle", "gold"),
    ("how far ahead was the {role} over the other one in xp", "Jungle", "experience"),
    ("{role} diff in damage", "Support", "damage_dealt"),
    ("top lane kills diff", "Solo", "kills"),
])
def test_a_role_s_matchup_names_both_players_both_figures_and_the_gap(spoken, question, role, figure):
    one, two = (player_at(spoken.truth, team, role) for team in (1, 2))
    values = {p: spoken.truth["players"][p][figure] for p in (one, two)}
    a = spoken.ask(question.format(role=_ROLE_WORDS[role]))
    for p in (one, two):
        assert p in a.text, a.text
        assert says(a.text, values[p]), a.text
    assert says(a.text, abs(values[one] - values[two])), a.text
    assert "team" not in a.text.lower().split(".")[0], a.text
