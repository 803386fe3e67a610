"""One-match answer shapes by class, end to end on the simulated match of `spoken` (some deaths dealt by towers,
bosses, titans, minions and jungle camps), every figure from truth.py: deaths to non-players by side, one player's
deaths to non-players with what killed them, a count asked with who, the match's kills against its deaths and why
they differ, damage by target with any verb, an ability kind negated where it is named, a player's figures listed
after a clause about them, and two abilities of one player side by side; a figure's whole then the part of it
dealt to gods or structures, a figure then the same subject's received figure asked with a pronoun in the passive,
a slang question restated as a bare superlative of a figure, whom a player hit the hardest with the parenthesis
saying "in total", and a player's figures listed in a window after a slang question about them."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from combat_analysis.formatting import times
from tests.support.said import says
from tests.support.truth_checks import truth_tool


def _npc_deaths_of(truth: dict, team: int) -> int:
    return sum(r["deaths_to_npcs"] for r in truth["players"].values() if r["team"] == team)


def _most_npc_deaths(truth: dict) -> str:
    return max(truth["players"], key=lambda p: (truth["players"][p]["deaths_to_npcs"], p))


# ------------------------------------------------------------------- A: deaths to non-players by side

@pytest.mark.parametrize("question", ["npc deaths by side (towers, minions, jungle camps, bosses)",
                                      "environmental deaths for each team",
                                      "pve deaths per team (tower, jungle, minions), which side had more"])
def test_deaths_to_non_players_by_side(spoken, question):
    truth = spoken.truth
    a = spoken.ask(question)
    assert says(a.text, _npc_deaths_of(truth, 1)) and says(a.text, _npc_deaths_of(truth, 2)), a.text
    assert not any(f.dimension == "role" for f in a.plan.filters), a.plan.filters  # "jungle" is a cause here


# ------------------------------------------------ B: one player's deaths to non-players and what killed them

@pytest.mark.parametrize("template", ["{a}'s npc deaths - what killed them?",
                                      "how many times did {a} die to non-players, and what got him",
                                      "{a} pve deaths? what took her out"])
def test_a_players_deaths_to_non_players_name_each_killer_with_its_count(spoken, template):
    truth = spoken.truth
    name = _most_npc_deaths(truth)
    killers = Counter(d["killer"] for d in truth["deaths_to_npcs"] if d["victim"] == name)
    a = spoken.ask(template.format(a=name))
    assert says(a.text, truth["players"][name]["deaths_to_npcs"]), a.text
    for killer, n in killers.items():
        assert f"{killer} {times(n)}" in a.text, (killer, n, a.text)


# ------------------------------------------------------------------------- C: a count asked with who

_MINIONS = ("Swordsman", "Archer", "Brute")  # METRICS.md's minions; its jungle camps are the other non-players


def _kind_of(killer: str, players: set[str]) -> str:
    kind = truth_tool.entity_kind(killer, players)
    if kind != "npc":
        return "towers" if "Tower" in killer else kind
    return "minions" if any(m in killer for m in _MINIONS) else "jungle camps"


@pytest.mark.parametrize(("template", "kind"), [("how many players died to {k}, and who were they", "towers"),
                                                ("number of deaths to {k} and which players", "minions"),
                                                ("how many times did people die to {k}? and who", "jungle camps")])
def test_a_count_with_who_names_every_victim_with_their_count(spoken, template, kind):
    players = set(spoken.truth["players"])
    deaths = [d for d in spoken.truth["deaths_to_npcs"] if _kind_of(d["killer"], players) == kind]
    assert deaths
    victims = Counter(d["victim"] for d in deaths)
    a = spoken.ask(template.format(k=kind))
    assert says(a.text, len(deaths)), a.text
    for victim, n in victims.items():
        assert f"{victim} {times(n)}" in a.text, (victim, n, a.text)


# ------------------------------------------------------- D: the match's kills against its deaths, and why

@pytest.mark.parametrize("question", ["total kills and total deaths - why is there a gap",
                                      "overall kills vs overall deaths? why are they different",
                                      "kills vs deaths in total for the match, why do they differ"])
def test_kills_against_deaths_say_the_deaths_to_non_players_as_the_reason(spoken, question):
    truth = spoken.truth
    a = spoken.ask(question)
    assert says(a.text, truth["total_kills"]) and says(a.text, truth["total_deaths"]), a.text
    assert says(a.text, len(truth["deaths_to_npcs"])) and "non-players" in a.text, a.text


# --------------------------------------------------------------------------- E: damage by target, any verb

@pytest.mark.parametrize("template", ["which enemy did {a} put the most damage into",
                                      "who did {a} dump the most dmg on",
                                      "which opponent did {a} pour the most damage into"])
def test_damage_by_target_whatever_the_verb(spoken, template):
    name = sorted(spoken.truth["players"])[3]
    targets = spoken.truth["players"][name]["damage_to_each_player"]
    top, value = next(iter(targets.items()))
    a = spoken.ask(template.format(a=name))
    assert top in a.text and says(a.text, value), a.text
    assert a.plan.group_by == ("target",), a.plan


# -------------------------------------------------------------- F: an ability kind negated where it is named

@pytest.mark.parametrize("question", ["the top damage ability that isn't a basic attack",
                                      "which ability that is not an auto attack dealt the most damage",
                                      "best non-basic-attack ability by damage"])
def test_an_ability_kind_negated_where_it_is_named_is_left_out(spoken, question):
    name, value = next((a, v) for a, v in spoken.truth["top_abilities"] if not a.endswith("Basic Attack"))
    a = spoken.ask(question)
    assert name in a.text and says(a.text, value), a.text
    assert any("basic attacks" in note and "left out" in note for note in a.plan.assumptions), a.plan.assumptions


# ------------------------------------------------ G: a player's figures listed after a clause about them

@pytest.mark.parametrize(("template", "figures"), [("{a} was she fed? kills, gold and gpm", ("kills", "gold", "gpm")),
                                                   ("how did {a} do? assists, damage and xp",
                                                    ("assists", "damage_dealt", "experience")),
                                                   ("was {a} any good? kda and healing", ("kda", "healing_done"))])
def test_figures_listed_after_a_clause_about_a_player_are_that_players(spoken, template, figures):
    name = sorted(spoken.truth["players"])[5]
    row = spoken.truth["players"][name]
    a = spoken.ask(template.format(a=name))
    for figure in figures:
        assert says(a.text, row[figure], tol=0.01 if isinstance(row[figure], float) else 0.5), (figure, a.text)
    assert not says(a.text, spoken.truth["total_kills"]) or spoken.truth["total_kills"] == row["kills"], a.text


# ------------------------------------------------------------ H: two abilities of one player side by side

@pytest.mark.parametrize("template", ["{a}'s damage with {x} vs {y}",
                                      "compare the damage {a} did with {x} and {y}",
                                      "{x} versus {y}, how much damage did {a} do with each"])
def test_two_abilities_of_one_player_each_with_the_difference(spoken, template):
    name = sorted(spoken.truth["players"])[1]
    (x, x_value), (y, y_value) = [(a, v) for a, v in spoken.truth["players"][name]["abilities"].items()
                                  if not a.endswith("Basic Attack")][:2]
    a = spoken.ask(template.format(a=name, x=x, y=y))
    assert says(a.text, x_value) and says(a.text, y_value), a.text
    assert says(a.text, x_value - y_value), a.text
    assert not says(a.text, x_value + y_value), a.text


# ---------------------------------------------------- I: a figure's whole, then the part of it dealt to a kind of target

@pytest.mark.parametrize(("template", "part"), [
    ("{a}'s total damage - how much of that hit enemy gods", "damage_to_players"),
    ("{a}'s dmg overall - how much of it hit structures?", "damage_to_structures"),
    ("total damage for {a}, how much of it was on players", "damage_to_players"),
    ("what was {a}'s damage and how much of it was dealt to the towers", "damage_to_structures")])
def test_a_whole_then_how_much_of_it_went_to_a_kind_of_target_says_both(spoken, template, part):
    name = max(spoken.truth["players"], key=lambda p: (spoken.truth["players"][p][part], p))
    row = spoken.truth["players"][name]
    assert 0 < row[part] < row["damage_dealt"]
    a = spoken.ask(template.format(a=name))
    assert says(a.text, row["damage_dealt"]) and says(a.text, row[part]), a.text
    assert ("enemy gods" if part == "damage_to_players" else "structures") in a.text, a.text


# -------------------------------- J: a figure, then the same subject's received figure asked with a pronoun, passive

@pytest.mark.parametrize(("template", "given", "received"), [
    ("what healing did {a} put out, and how much were they healed", "healing_done", "healing_received"),
    ("{a} healing, and how much was she healed for", "healing_done", "healing_received"),
    ("what dmg did {a} deal, and how much did she take", "damage_dealt", "damage_taken"),
    ("how much damage did {a} do, and how much was he hit for", "damage_dealt", "damage_taken"),
    ("{a}'s damage dealt and how much did she get hit for", "damage_dealt", "damage_taken")])
def test_a_figure_then_how_much_the_subject_received_with_a_pronoun(spoken, template, given, received):
    name = max(spoken.truth["players"], key=lambda p: (spoken.truth["players"][p]["healing_received"], p))
    row = spoken.truth["players"][name]
    a = spoken.ask(template.format(a=name))
    assert says(a.text, row[given]) and says(a.text, row[received]), (row[given], row[received], a.text)


# ------------------------------- K: a slang question restated as a bare superlative of a figure, which is the one asked

@pytest.mark.parametrize(("question", "figure"), [
    ("who got farmed the most, i mean most damage taken overall", "damage_taken"),
    ("who was getting clapped aka most damage taken", "damage_taken"),
    ("who got diffed hardest - basically the most gold", "gold"),
    ("who got bodied the most, like highest damage dealt in the match", "damage_dealt"),
    ("who was stomped hardest; as in most damage taken", "damage_taken")])
def test_a_slang_question_restated_as_a_bare_superlative_asks_that_figure(spoken, question, figure):
    players = spoken.truth["players"]
    leader = max(players, key=lambda p: (players[p][figure], p))
    a = spoken.ask(question)
    assert a.plan.metrics[0] == figure, a.plan.metrics
    assert leader in a.text and says(a.text, players[leader][figure]), a.text


# -------------------------- L: whom a player hit the hardest, a parenthesis saying "in total": the damage by target

@pytest.mark.parametrize("template", ["whom did {a} hit hardest (as in total damage)",
                                      "who did {a} hit hardest (total, not per hit)",
                                      "which enemy did {a} hit the hardest (by damage, not kills)",
                                      "who did {a} hurt the most (in total damage)",
                                      "who got hit the hardest by {a} (total dmg)",
                                      "which enemy was damaged the most by {a} (in total)",
                                      "who did {a} hit hardest? (total damage, not one hit)"])
def test_whom_a_player_hit_hardest_in_total_is_the_damage_by_target(spoken, template):
    name = sorted(spoken.truth["players"])[6]
    top, value = next(iter(spoken.truth["players"][name]["damage_to_each_player"].items()))
    a = spoken.ask(template.format(a=name))
    assert a.plan.group_by == ("target",) and not a.plan.parts, a.plan
    assert a.text.index(top) < a.text.index(f"{value:,.0f}"), a.text
    assert not says(a.text, spoken.truth["players"][name]["damage_dealt"]), a.text  # no second clause of its total


# ------------------------------- M: a player's figures listed in a window after a slang question about them

@functools.lru_cache(maxsize=1)
def _events(log) -> tuple:
    events = truth_tool.load(str(log))[0]
    truth_tool.match_clock(events)
    return tuple(events)


@pytest.mark.parametrize(("template", "lo", "hi", "figures"), [
    ("was {a} going off in the late game? their kills + deaths past 20", 1200, None, ("kills", "deaths")),
    ("was {a} going off after minute 15 - kills, deaths after 15", 900, None, ("kills", "deaths")),
    ("did {a} pop off early? damage and kills before 10", 0, 600, ("damage_dealt", "kills")),
    ("{a} went off late huh, deaths and damage taken after minute 20", 1200, None, ("deaths", "damage_taken"))])
def test_a_players_figures_in_a_window_after_a_slang_question_are_that_players(spoken, template, lo, hi, figures):
    name = max(spoken.truth["players"], key=lambda p: (spoken.truth["players"][p]["kills"], p))
    stats = truth_tool.window_stats(list(_events(spoken.log)), lo, hi)
    a = spoken.ask(template.format(a=name))
    for figure in figures:
        assert says(a.text, stats[name][figure], clocks=False), (figure, stats[name][figure], a.text)
    everyone = sum(row["deaths"] for row in stats.values())
    assert "deaths" not in figures or everyone == stats[name]["deaths"] or not says(a.text, everyone, clocks=False), \
        a.text
