"""Reading classes of round 42, end to end on the simulated match of `match`, every figure from truth.py (its figures,
its events and its `window_stats`): a person asked of one side is ranked among that side's players; a restatement
after a question mark keeps the side (and the phase) the vaguer part named; a part said to be "not just" what is asked
leaves the whole figure; a left-out killer that is no part of the causes named leaves those causes whole; and "fed"
as a state is gold."""

from __future__ import annotations

import pytest

from tests.support.said import says
from tests.support.truth_checks import truth_tool

_SIDES = {"order": 1, "chaos": 2}


def _side_leader(match, side: str, key: str, figures: dict | None = None) -> tuple[str, float]:
    rows = figures or match.truth["players"]
    mine = [p for p, info in match.players.items() if info.team == _SIDES[side]]
    best = max(mine, key=lambda p: rows[p][key])
    assert sorted(rows[p][key] for p in mine)[-2] < rows[best][key], "no tie at the top of the side"
    return best, rows[best][key]


# ----------------------------------------------------------- a person asked of one side: that side's players ranked

@pytest.mark.parametrize(("template", "key"), [
    ("who soaked for {side}", "damage_taken"),
    ("on {side}, who tanked", "damage_taken"),
    ("who was the healer for team {n}", "healing_done"),
    ("which player on the {side} side healed", "healing_done"),
])
@pytest.mark.parametrize("side", ["order", "chaos"])
def test_a_person_asked_of_one_side_is_that_sides_leader(match, template, key, side):
    name, value = _side_leader(match, side, key)
    got = match.ask(template.format(side=side, n=_SIDES[side]))
    assert name in got.text.split(".")[0] and says(got.text.split(".")[0], value), got.text


# ------------------------------------------------- a restatement after a question mark keeps the vaguer part's side

@pytest.mark.parametrize(("template", "key"), [
    ("who went off for {side}? kills", "kills"),
    ("best player on {side}?? in terms of damage", "damage_dealt"),
    ("who carried on the {side} side? gold", "gold"),
])
@pytest.mark.parametrize("side", ["order", "chaos"])
def test_a_restatement_keeps_the_side_the_question_named(match, template, key, side):
    name, value = _side_leader(match, side, key)
    got = match.ask(template.format(side=side))
    assert name in got.text.split(".")[0] and says(got.text.split(".")[0], value), got.text


@pytest.mark.parametrize("side", ["order", "chaos"])
def test_a_phase_said_before_the_side_keeps_both(match, side):
    late = truth_tool.window_stats(match.events, 1200, None)
    name, value = _side_leader(match, side, "kills", late)
    got = match.ask(f"who showed up late for {side}? by kills")
    assert "late game" in got.text and name in got.text.split(".")[0] and says(got.text.split(".")[0], value), got.text


# --------------------------------------------------------------- "not just X": the whole of what is asked

@pytest.mark.parametrize(("template", "key"), [
    ("how much damage did {p} put out (all of it, not only on gods)", "damage_dealt"),
    ("{p} total dmg, not just to players", "damage_dealt"),
    ("deaths of {p}, and not just to enemy gods", "deaths"),
])
def test_a_part_said_to_be_not_just_what_is_asked_leaves_the_whole(match, template, key):
    name = sorted(match.players)[3]
    want = match.truth["players"][name][key]
    got = match.ask(template.format(p=name))
    assert says(got.text.split(".")[0], want), (got.text, want)


# ------------------------------------------ a killer left out that is none of the causes named leaves them whole

def _deaths_to(match, kind_words: tuple[str, ...]) -> int:
    return sum(1 for d in match.truth["deaths_to_npcs"] if any(w in d["killer"] for w in kind_words))


@pytest.mark.parametrize(("question", "kinds"), [
    ("deaths to towers and phoenixes, not counting the fire giant", ("Tower", "Phoenix")),
    ("how many times did people die to minions, leaving out the titans", ("Swordsman", "Archer")),
])
def test_a_left_out_killer_outside_the_causes_leaves_them_whole(match, question, kinds):
    want = _deaths_to(match, kinds)
    assert want > 0
    got = match.ask(question)
    assert says(got.text.split(".")[0], want), (got.text, want)


# ------------------------------------------------------------------- "fed" as a state is being ahead in gold

@pytest.mark.parametrize("side", ["order", "chaos"])
def test_the_most_fed_of_a_side_is_its_gold_leader(match, side):
    name, value = _side_leader(match, side, "gold")
    got = match.ask(f"who got the most fed on {side}")
    assert name in got.text.split(".")[0] and says(got.text.split(".")[0], value), got.text
