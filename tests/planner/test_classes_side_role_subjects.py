"""One-match answers by class, end to end on the simulated match of `spoken`, every figure from truth.py: a side's
role said as the subject whose own whole a share is of ("of the <side> <role>'s damage"), read as a named player's
own whole is; and a qualifier said after such a role keeps its place in the question."""

from __future__ import annotations

import pytest

from tests.support.said import says
from tests.support.truth_checks import player_at


@pytest.mark.parametrize(("question", "team", "role", "part"), [
    ("how big a share of the order jungler's damage went into enemy gods", 1, "Jungle", "damage_to_players"),
    ("what percent of the chaos support's dmg hit structures", 2, "Support", "damage_to_structures"),
    ("how much of the chaos mid's damage was against gods, as a percentage", 2, "Middle", "damage_to_players"),
])
def test_a_share_of_a_side_roles_own_damage(spoken, question, team, role, part):
    row = spoken.truth["players"][player_at(spoken.truth, team, role)]
    a = spoken.ask(question)
    assert says(a.text, row[part] / row["damage_dealt"] * 100, tol=0.1), a.text
    assert says(a.text, row["damage_dealt"]), a.text
    side = f"team {team}'s"
    assert side not in a.text, a.text  # the base is the player's own damage, not the side's


def test_a_share_whose_part_is_read_with_the_figure_is_of_the_figures_whole(spoken):
    """'<name>'s dmg hit towers' reads as damage to structures at once; the whole is still all of that damage."""
    name = player_at(spoken.truth, 1, "Carry")
    row = spoken.truth["players"][name]
    a = spoken.ask(f"roughly what percentage of {name}'s dmg hit towers")
    assert says(a.text, row["damage_to_structures"] / row["damage_dealt"] * 100, tol=0.1), a.text
    assert says(a.text, row["damage_dealt"]), a.text
