"""One-match answers by class, end to end on the simulated match of `spoken`, every figure from truth.py: a side's
role said as the subject whose own whole a share is of ("of the <side> <role>'s damage"), read as a named player's
own whole is; a qualifier said after such a role keeps its place in the question; an ability's name of two words
misspelt in one, the other an ordinary word said right; and a count of deaths by cause kept by a condition ("never",
"more than once"), each player's deaths to that cause counted, none being 0."""

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


# ---------------------------------------------------------- an ability's name misspelt beside an ordinary word

@pytest.mark.parametrize(("question", "ability", "caster", "figure"), [
    ("how much dmg did brisk's death gazze do", "Death Gaze", "Brisk", "abilities"),
    ("hits landed with glaical strike?", "Glacial Strike", "Psychotic8Ball", "ability_hits"),
])
def test_a_misspelt_ability_of_two_words_keeps_its_ordinary_word(spoken, question, ability, caster, figure):
    """One word of the name is an ordinary word said right ("death", "strike"), the other is misspelt."""
    a = spoken.ask(question)
    assert f"read as {ability}" in " ".join(a.plan.assumptions), a.plan.assumptions
    assert says(a.text, spoken.truth["players"][caster][figure][ability]), a.text


def test_an_ordinary_word_is_never_bent_into_an_abilitys_name(spoken):
    """'the strike' shares a word with several abilities, but no misspelt word stands beside it: no ability."""
    a = spoken.ask("which player had the top damage with the first strike of the game")
    assert not a.plan.filters or all(f.dimension != "ability" for f in a.plan.filters), a.plan


# ------------------------------------------------ deaths by cause, each player's kept by a condition on their count

MINIONS = ("Swordsman", "Archer", "Brute", "Champion Swordsman")


def _deaths_to(truth: dict, killed_by) -> dict[str, int]:
    """Each player's deaths to the non-players `killed_by` accepts (truth.py's list of deaths to non-players)."""
    counts = dict.fromkeys(truth["players"], 0)
    for death in truth["deaths_to_npcs"]:
        if killed_by(death["killer"]):
            counts[death["victim"]] += 1
    return counts


def _first_sentence(text: str) -> str:
    return text.split(". ")[0]


@pytest.mark.parametrize(("question", "killed_by", "kept"), [
    ("which players never got killed by a tower", lambda k: k.endswith("Tower"), lambda n: n == 0),
    ("who got taken out by minions more than once", lambda k: k in MINIONS, lambda n: n > 1),
])
def test_deaths_by_a_cause_are_counted_per_player_for_a_condition(spoken, question, killed_by, kept):
    counts = _deaths_to(spoken.truth, killed_by)
    expected = {p for p, n in counts.items() if kept(n)}
    assert expected and expected != set(counts), counts  # the condition keeps some players and leaves some out
    said = _first_sentence(spoken.ask(question).text)
    assert {p for p in counts if p in said} == expected, (said, counts)
    if "never" in question:  # the players kept, then the cause: never "players from towers"
        assert "with zero deaths from" in said, said
