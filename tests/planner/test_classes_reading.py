"""How a one-match question is read, by word class, end to end on a simulated match (`renamed`) and checked against
truth.py: windows with both ends said on the clock, "<figure> wise", hitting buildings, typos in ranking and figure
words, doing-verbs beside a figure, possessives without their apostrophe, when an item was bought, and the speaker's
side."""

from __future__ import annotations

import functools

import pytest

from combat_analysis.formatting import clock
from tests.support import said
from tests.support.truth_checks import truth_tool

says = functools.partial(said.says, clocks=False)


def leaders(players: dict, figure: str, team: int | None = None) -> tuple[list[str], float]:
    pool = {p: f for p, f in players.items() if team is None or f["team"] == team}
    best = max(f[figure] for f in pool.values())
    return [p for p, f in pool.items() if f[figure] == best], best


def leader(players: dict, figure: str, team: int | None = None) -> tuple[str, float]:
    names, best = leaders(players, figure, team)
    assert len(names) == 1, f"the simulated match ties on {figure}: pick another"
    return names[0], best


# ---------------------------------------------------------------------------------- A: windows with both ends

@pytest.mark.parametrize(("template", "lo", "hi"), [
    ("how much gold did {p} earn from 7:00 to 7:59", 420, 480),
    ("{p} gold between 6:30 and 9", 390, 540),
    ("gold {p} got 5-8 min", 300, 480),
    ("from 10:00 until 12:15 how much gold did {p} make", 600, 736),
])
def test_a_window_with_both_ends_keeps_both(renamed, template, lo, hi):
    player = "MoonRiver"
    gold = truth_tool.window_stats(renamed.events, lo, hi)[player]["gold"]
    whole = renamed.truth["players"][player]["gold"]
    assert gold != whole
    a = renamed.ask(template.format(p=player))
    assert a.refusal is None and says(a.text, gold), (a.text, gold)
    # the window is said with both its ends, as read
    assert any(end in a.text for end in (clock(hi), clock(hi - 1), f"minute {hi // 60}")), a.text


# ------------------------------------------------------------------------- B, C, D, E: figure words as said

@pytest.mark.parametrize("question", ["who was the most fed, gold wise", "richest player? gold-wise",
                                      "who popped off the most, gold wise"])
def test_a_figure_said_wise_is_the_figure_ranked(renamed, question):
    name, gold = leader(renamed.truth["players"], "gold")
    a = renamed.ask(question)
    assert a.plan.metrics[0] == "gold" and name in a.text and says(a.text, gold), a.text


@pytest.mark.parametrize("question", ["who hit structures the hardest", "tower dmg leader?",
                                      "which player hit the towers the most", "most structure dmg"])
def test_hitting_buildings_is_damage_to_structures(renamed, question):
    name, damage = leader(renamed.truth["players"], "damage_to_structures")
    a = renamed.ask(question)
    assert a.plan.metrics[0] == "damage_to_structures" and name in a.text and says(a.text, damage), a.text


@pytest.mark.parametrize(("question", "figure"), [
    ("{p} bigest hit?", "biggest_hit"), ("whats the higest hit {p} landed", "biggest_hit"),
    ("how much dmage did {p} take", "damage_taken"), ("{p} total expereince", "experience"),
])
def test_typos_in_ranking_and_figure_words(renamed, question, figure):
    player = "MoonRiver"
    a = renamed.ask(question.format(p=player))
    assert a.plan.metrics[0] == figure and says(a.text, renamed.truth["players"][player][figure]), a.text


def test_a_typo_never_turns_a_name_or_open_word():
    from combat_analysis.planner.read.spelling import corrected
    assert corrected("who won the lottery") == ("who won the lottery", ())
    # "hugest" and "highest" are each one slip from "higest": the likeliest slip (a dropped letter) decides
    assert corrected("higest kills")[0] == "highest kills"
    assert corrected("the carrys gold")[0] == "the carrys gold"
    # a contraction is one word: "weren't" and "wasn't" are not "were"/"was" with a letter too many
    assert corrected("deaths that weren't to gods, and wasn't that hard")[1] == ()


@pytest.mark.parametrize(("typed", "meant"), [("who got teh most kills", "who got the most kills"),
                                               ("kills adn deaths of thier jungler", "kills and deaths of their jungler"),
                                               ("damage wiht abilities", "damage with abilities"),
                                               ("was thier gold more taht game", "was their gold more that game")])
def test_a_little_word_with_two_letters_swapped_is_spelled_out(typed, meant):
    from combat_analysis.planner.read.spelling import corrected
    assert corrected(typed) == (meant, ())


@pytest.mark.parametrize("typed", ["the ten", "a tie", "then at", "hte"[:2], "tha"])
def test_a_word_is_no_little_word_unless_two_neighbours_are_swapped(typed):
    from combat_analysis.planner.read.spelling import corrected
    assert corrected(typed)[0] == typed


@pytest.mark.parametrize("question", ["who spammed the most cc", "who threw out the most crowd control",
                                      "which player used the most cc"])
def test_a_doing_verb_beside_a_figure_is_that_figure(renamed, question):
    names, cc = leaders(renamed.truth["players"], "cc_applied")
    a = renamed.ask(question)
    assert a.plan.metrics[0] == "cc_applied" and all(n in a.text for n in names) and says(a.text, cc), a.text


# ---------------------------------------------------------------------------------- F: possessives

@pytest.mark.parametrize(("said", "player"), [("kaitos", "风_kaito"), ("moons", "MoonRiver"), ("steels", "강철Steel"),
                                              ("kuros", "Kuro猫")])
def test_a_possessive_without_its_apostrophe_is_the_player(renamed, said, player):
    a = renamed.ask(f"{said} kills?")
    assert a.refusal is None and player in a.text, a.text
    assert says(a.text, renamed.truth["players"][player]["kills"]), a.text


# ---------------------------------------------------------------------------------- G: when an item was bought

@pytest.mark.parametrize(("template", "edge"), [("when did {p} buy his first {item}", 0),
                                                ("what minute did {p} get their last {item}", -1),
                                                ("when did {p} buy {start}", 0)])
def test_when_an_item_was_bought(renamed, template, edge):
    player = "MoonRiver"
    timeline = renamed.truth["players"][player]["item_timeline"]
    item = next(t["item"] for t in timeline if sum(u["item"] == t["item"] for u in timeline) > 1
                and len(t["item"]) > 6) if any(sum(u["item"] == t["item"] for u in timeline) > 1 and
                                               len(t["item"]) > 6 for t in timeline) else timeline[0]["item"]
    times = [t["second"] for t in timeline if t["item"] == item]
    a = renamed.ask(template.format(p=player, item=item.lower(), start=item.lower()[:6]))
    assert a.refusal is None and clock(times[edge]) in a.text and item in a.text, a.text


# ---------------------------------------------------------------------------------- H: the speaker's side

@pytest.mark.parametrize(("template", "ours"), [("we were {side}, who on their team was killing us the most", 1),
                                                ("we're {side} - who killed us the most", 1),
                                                ("our team was {side}; who was killing us", 1)])
@pytest.mark.parametrize("side", ["order", "chaos"])
def test_the_speakers_side_resolves_us_and_them(renamed, template, ours, side):
    mine = 1 if side == "order" else 2
    name, kills = leader(renamed.truth["players"], "kills", team=3 - mine)
    a = renamed.ask(template.format(side=side))
    assert a.refusal is None and f"team {3 - mine}" in a.text.lower(), a.text
    # "who" asks for a person, with or without "the most": the other side's players ranked by kills
    assert name in a.text and says(a.text, kills), a.text
