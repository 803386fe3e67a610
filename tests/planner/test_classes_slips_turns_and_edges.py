"""One-match reading classes, end to end on the simulated match of `spoken`, every figure from truth.py: a misspelt
figure beside one spelt right; blows counted in times; "it" for the one non-player a first clause is about; the first
or last objective said with the plain noun; the first or last N kills or deaths (the match's too, N said in words
past ten); a side's number beside "or less"; both ways offered; a leading interjection; the last purchases told in
the order made; a verb of receiving after one of two figures; an adverb or a count noun inside a negated cause; a
bare list of figures after a slang question; the killing ability of first blood; and "jungle" listed among the kinds
a damage target leaves out."""

from __future__ import annotations

import re

import pytest

from tests.support.said import says
from tests.support.truth_checks import player_at


def _leader(truth: dict, figure: str) -> str:
    return max(truth["players"], key=lambda p: truth["players"][p][figure])


# ------------------------------------------------------------------------------------ slips and counted blows

def test_a_misspelt_figure_beside_one_spelt_right_is_read_too(spoken):
    name = player_at(spoken.truth, 2, "Carry")
    row = spoken.truth["players"][name]
    got = spoken.ask(f"{name}'s kils and gold")
    assert set(got.plan.metrics) >= {"kills", "gold"}, got.plan.metrics
    assert says(got.text, row["kills"]) and says(got.text, row["gold"]), (row["kills"], row["gold"], got.text)


@pytest.mark.parametrize("counted", ["how often did {n} hit", "number of times {n} hit something"])
def test_a_striking_verb_counted_in_times_is_hits_landed(spoken, counted):
    name = player_at(spoken.truth, 1, "Middle")
    hits = sum(spoken.truth["players"][name]["ability_hits"].values())
    got = spoken.ask(counted.format(n=name))
    assert got.plan.metrics[0] == "hits" and says(got.text, hits), (hits, got.text)


# ---------------------------------------------------------------------------------- "it", a non-player named

def test_it_in_a_later_clause_is_the_one_non_player_the_first_named(spoken):
    bosses = [o for o in spoken.truth["objectives"] if o["target"] == "Fire Giant"]
    got = spoken.ask("what did the fire giant deal in damage, and how many times was it slain")
    assert len(got.plan.parts) == 1, got.plan
    assert says(got.text, len(bosses)), (len(bosses), got.text)


# --------------------------------------------------------------------------------- the first or last objective

@pytest.mark.parametrize(("said", "index"), [("first objective?", 0), ("last objective pls", -1)])
def test_the_plain_objective_noun_with_an_edge_is_that_objective(spoken, said, index):
    taken = sorted(spoken.truth["objectives"], key=lambda o: o["second"])[index]
    got = spoken.ask(said)
    assert taken["clock"] in got.text and taken["target"].split()[-1] in got.text, (taken, got.text)


# ------------------------------------------------------------------------------- sides, both ways, interjections

def test_a_sides_number_is_no_threshold_and_both_ways_offered_is_no_yes_or_no(spoken):
    kills = {t: spoken.truth["teams"][str(t)]["kills"] for t in (1, 2)}
    got = spoken.ask("we were order - did we get more kills than the enemy team or fewer")
    assert got.plan.condition is None and got.plan.compare is None, got.plan
    assert not got.text.startswith(("Yes", "No")), got.text
    assert says(got.text, kills[1]) and says(got.text, kills[2]), (kills, got.text)


@pytest.mark.parametrize("opening", ["umm", "wait,", "uh ok"])
def test_a_leading_interjection_asks_nothing(spoken, opening):
    leader = _leader(spoken.truth, "assists")
    got = spoken.ask(f"{opening} which player had the most assists")
    assert got.text.startswith(leader) and "not used" not in got.text, (leader, got.text)


# ----------------------------------------------------------------------------------------- purchases in time

def test_the_last_purchases_are_told_in_the_order_they_were_made(spoken):
    name = player_at(spoken.truth, 2, "Support")
    last = spoken.truth["players"][name]["items"][-3:]
    got = spoken.ask(f"{name}'s final 3 buys")
    places = [got.text.find(item) for item in last]
    assert all(p >= 0 for p in places) and places == sorted(places), (last, got.text)


# ------------------------------------------------------------------------------- one of two figures turned

def test_a_receiving_verb_after_one_of_two_like_figures_turns_that_one(spoken):
    name = player_at(spoken.truth, 1, "Support")
    row = spoken.truth["players"][name]
    got = spoken.ask(f"{name} heal output compared with heal received")
    assert got.plan.metrics[:2] == ("healing_done", "healing_received"), got.plan.metrics
    assert says(got.text, row["healing_done"]) and says(got.text, row["healing_received"]), got.text


@pytest.mark.parametrize("said", ["{n}'s deaths, plus how many of them weren't actually to enemy gods",
                                  "{n}'s death tally, and how many of those weren't to enemy gods"])
def test_an_adverb_or_a_count_noun_keeps_a_negated_cause_negated(spoken, said):
    name = player_at(spoken.truth, 2, "Jungle")
    row = spoken.truth["players"][name]
    got = spoken.ask(said.format(n=name))
    assert says(got.text, row["deaths"]) and says(got.text, row["deaths_to_npcs"]), (row["deaths"], got.text)


# ---------------------------------------------------------------------------- figures listed after slang

def test_figures_listed_bare_after_a_slang_question_rank_it(spoken):
    leader = _leader(spoken.truth, "kills")
    row = spoken.truth["players"][leader]
    got = spoken.ask("who went off the hardest? kills and assists")
    assert got.text.startswith(leader) and says(got.text, row["kills"]) and says(got.text, row["assists"]), got.text


# -------------------------------------------------------------------------------------- first blood's ability

def test_first_blood_names_its_killing_ability(spoken):
    first = spoken.truth["first_blood"]
    blow = next(k for k in spoken.truth["kills"] if k["second"] == first["second"] and k["victim"] == first["victim"])
    got = spoken.ask("which ability drew first blood")
    assert f" with {blow['ability']} " in got.text, (blow, got.text)


# ------------------------------------------------------------------------ kinds a damage target leaves out

def test_jungle_listed_among_kinds_left_out_of_a_target_is_no_role(spoken):
    dealt = {t: spoken.truth["teams"][str(t)]["damage_to_players"] for t in (1, 2)}
    got = spoken.ask("each team's damage on gods (not towers or jungle)")
    assert not any(f.dimension == "role" for f in got.plan.filters), got.plan.filters
    assert says(got.text, dealt[1]) and says(got.text, dealt[2]), (dealt, got.text)
    assert "was not used" not in got.text and "were not used" not in got.text, got.text


# ------------------------------------------------------------------------------ the first or last N events

def test_a_players_first_kills_counted_are_listed_in_time_order(spoken):
    name = player_at(spoken.truth, 1, "Jungle")
    own = sorted((k for k in spoken.truth["kills"] if k["killer"] == name), key=lambda k: k["second"])[:2]
    got = spoken.ask(f"{name}'s first two kills")
    assert got.text.startswith(f"{name}'s first 2 kills"), got.text
    places = [got.text.find(f"on {k['victim']} at {k['clock']}") for k in own]
    assert all(p >= 0 for p in places) and places == sorted(places), (own, got.text)


def test_the_matchs_last_kills_counted_are_listed_in_time_order(spoken):
    last = sorted(spoken.truth["kills"], key=lambda k: (k["second"], k["line"]))[-3:]
    got = spoken.ask("the last 3 kills")
    places = [got.text.find(f"{k['killer']} on {k['victim']} at {k['clock']}") for k in last]
    assert all(p >= 0 for p in places) and places == sorted(places), (last, got.text)
    assert "died" not in got.text.split(":")[0], got.text  # never "died 3 times": these are the last three only


@pytest.mark.parametrize("count", ["4", "four"])
def test_the_matchs_first_kills_counted_are_a_list_opened_by_first_blood(spoken, count):
    first = sorted(spoken.truth["kills"], key=lambda k: (k["second"], k["line"]))[:4]
    got = spoken.ask(f"show me the first {count} kills")
    assert got.text.startswith("The first 4 kills"), got.text
    places = [got.text.find(f"{k['killer']} on {k['victim']} at {k['clock']}") for k in first]
    assert all(p >= 0 for p in places) and places == sorted(places), (first, got.text)
    assert first[0]["victim"] == spoken.truth["first_blood"]["victim"]


def test_a_count_word_past_ten_before_the_last_deaths_lists_that_many(spoken):
    deaths = [*spoken.truth["kills"], *spoken.truth["deaths_to_npcs"]]  # METRICS.md: deaths from any source
    clocks = sorted(d["clock"] for d in sorted(deaths, key=lambda d: d["second"])[-12:])  # ties share a clock
    got = spoken.ask("list the final twelve deaths")
    assert got.text.startswith("The last 12 deaths"), got.text
    assert sorted(re.findall(r" at (\d+:\d\d) \(", got.text)) == clocks, (clocks, got.text)
