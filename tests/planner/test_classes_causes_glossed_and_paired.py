"""One-match answers by class, end to end on the simulated match of `spoken` (some deaths and hits from
non-players), every figure from truth.py: a death's cause turned around with its verb ("werent caused by
enemy gods"); a gloss after the causes ("(not players)", "i.e. not to gods") that only says what they are; two causes
of one kind that no death can both have, read as either, never as a zero; and both sides' structures set against
each other after the question of who dealt more."""

from __future__ import annotations

import pytest

from tests.support.said import says

MINIONS = ("Swordsman", "Archer", "Brute", "Champion Swordsman")


def _deaths_to(truth: dict, killed_by) -> int:
    return sum(1 for d in truth["deaths_to_npcs"] if killed_by(d["killer"]))


def test_a_cause_turned_around_with_its_verb(spoken):
    a = spoken.ask("total deaths that werent caused by enemy gods")
    assert says(a.text, len(spoken.truth["deaths_to_npcs"])), a.text
    assert not says(a.text, spoken.truth["total_kills"]), a.text


@pytest.mark.parametrize(("question", "killed_by"), [
    ("deaths from the titans or towers (not players), how many", lambda k: k.endswith(("Tower", "Titan"))),
    ("how many ppl died to minions, i.e. not to gods", lambda k: k in MINIONS),
])
def test_a_gloss_after_the_causes_keeps_them(spoken, question, killed_by):
    expected = _deaths_to(spoken.truth, killed_by)
    assert 0 < expected < len(spoken.truth["deaths_to_npcs"])
    a = spoken.ask(question)
    assert says(a.text, expected), a.text


def test_two_causes_no_death_can_both_have_are_either(spoken):
    expected = _deaths_to(spoken.truth, lambda k: k in MINIONS) + spoken.truth["total_kills"]
    a = spoken.ask("how many died to minions, or to gods")
    assert says(a.text, expected), a.text
    assert "either" in " ".join(a.plan.assumptions), a.plan.assumptions


def test_both_sides_towers_after_the_question_of_who_dealt_more(spoken):
    towers = {k: v for k, v in spoken.truth["npc_damage"].items() if k.endswith("Tower")}
    top = max(towers, key=towers.get)
    a = spoken.ask("who hit harder overall, chaos towers or order towers")
    assert a.text.index(top) < min(a.text.index(t) for t in towers if t != top), a.text
    assert all(says(a.text, v) for v in towers.values()), a.text
