"""One-match reading classes, end to end on the simulated match of `spoken`, every figure from truth.py: "they" once
the asker has said their side; a later clause about first blood's killer; a slang kill verb between "who" and the
victim; the whole of a figure said beside a part of it; a share of every death by a cause; a short role word's plural;
healing gotten, then done; a side up or down gold at a mark said as "min N" or a clock; whether there was any of a
count at all; which players did a thing at all; and a kind of objective left out."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import percent
from tests.support.said import says
from tests.support.truth_checks import player_at

# ---------------------------------------------------------------------------------------- "they", and "their" one

@pytest.mark.parametrize(("said", "other"), [("as chaos, what kill count did they finish on", 1),
                                             ("as order: what did they finish on in deaths", 2)])
def test_they_after_the_asker_says_their_side_is_the_other_side(spoken, said, other):
    got = spoken.ask(said)
    figure = "kills" if "kill" in said else "deaths"
    assert [f.values for f in got.plan.filters if f.dimension == "team"] == [(other,)], got.plan
    assert says(got.text, spoken.truth["teams"][str(other)][figure]), got.text


def test_a_clause_about_first_bloods_killer_is_that_player(spoken):
    blood = spoken.truth["first_blood"]
    got = spoken.ask("who drew first blood? their assists by the end")
    assert got.plan.then is not None and got.plan.bind == {"player": "killer"}, got.plan
    assert got.text.startswith(f"{blood['killer']} got first blood"), got.text
    assert says(got.text, spoken.truth["players"][blood["killer"]]["assists"]), got.text


# --------------------------------------------------------------------------------------- slang, wholes and shares

def test_a_slang_kill_verb_between_who_and_the_victim_reads_kills_on_that_victim(spoken):
    victim = player_at(spoken.truth, 1, "Carry")
    on_victim: dict[str, int] = {}
    for k in spoken.truth["kills"]:
        if k["victim"] == victim:
            on_victim[k["killer"]] = on_victim.get(k["killer"], 0) + 1
    most = max(on_victim.values())
    got = spoken.ask(f"who clapped {victim} the most")
    assert any(p in got.text for p, n in on_victim.items() if n == most) and says(got.text, most), (on_victim, got.text)


@pytest.mark.parametrize("said", ["{n}'s damage to structures versus overall damage",
                                  "what was {n}'s total damage and {n}'s damage to structures"])
def test_the_whole_said_beside_its_part_is_read_too(spoken, said):
    name = player_at(spoken.truth, 2, "Solo")
    row = spoken.truth["players"][name]
    got = spoken.ask(said.format(n=name))
    assert set(got.plan.metrics) == {"damage_dealt", "damage_to_structures"}, got.plan.metrics
    assert says(got.text, row["damage_dealt"]) and says(got.text, row["damage_to_structures"]), got.text


def test_a_share_of_every_death_by_a_cause_is_a_percentage_not_the_list(spoken):
    towers = sum(1 for d in spoken.truth["deaths_to_npcs"] if d["killer"].endswith("Tower"))
    got = spoken.ask("what fraction of all the deaths came from towers")
    assert got.plan.intent.value == "lookup" and got.plan.shape == "share", got.plan
    assert percent(towers / spoken.truth["total_deaths"] * 100) in got.text, (towers, got.text)


@pytest.mark.parametrize("word", ["jgs", "jgs'"])
def test_a_short_role_words_plural_is_the_role(spoken, word):
    got = spoken.ask(f"both {word} deaths added up")
    assert says(got.text, spoken.truth["roles"]["Jungle"]["deaths"]), got.text


def test_healing_gotten_is_received_and_a_later_doing_verb_is_healing_done(spoken):
    name = player_at(spoken.truth, 1, "Support")
    row = spoken.truth["players"][name]
    got = spoken.ask(f"{name}: how much healing did she get? how much did she give")
    assert got.plan.metrics[0] == "healing_received" and got.plan.parts[0].metrics[0] == "healing_done", got.plan
    assert says(got.text, row["healing_received"]) and says(got.text, row["healing_done"]), got.text


# ------------------------------------------------------------------------------------------------ leads on gold

@pytest.mark.parametrize(("said", "minute"), [("which side was up gold at min 8", 8),
                                              ("who was ahead gold as of the 12:00 mark", 11),
                                              ("was chaos down gold at minute 6", 6)])
def test_a_side_up_or_down_gold_at_a_moment_is_the_gold_difference(spoken, said, minute):
    diff = spoken.truth["team_gold_difference_by_minute"][minute]
    got = spoken.ask(said)
    assert got.plan.metrics == ("gold_diff",), got.plan
    assert f"minute {minute}" in got.text and says(got.text, abs(diff)), (diff, got.text)


# ------------------------------------------------------------------------------------------ any at all, or who did

def test_whether_a_player_got_any_opens_with_yes_or_no(spoken):
    fewest = min(spoken.truth["players"], key=lambda p: spoken.truth["players"][p]["kills"])
    kills = spoken.truth["players"][fewest]["kills"]
    got = spoken.ask(f"did {fewest} even get any kills")
    assert got.text.startswith("Yes: " if kills else "No: ") and says(got.text, kills), got.text


def test_which_players_did_a_thing_are_those_with_any(spoken):
    had = {p for p, r in spoken.truth["players"].items() if r["assists"] > 0}
    got = spoken.ask("which players got assists")
    assert got.plan.condition is not None and got.plan.condition.value == 0, got.plan
    assert got.text.startswith(f"{len(had)} players with any assists"), got.text
    assert all(p in got.text for p in had), (had, got.text)


def test_a_kind_of_objective_left_out_turns_its_filter(spoken):
    kept = [o for o in spoken.truth["objectives"] if o["team"] == 2 and not o["target"].endswith("Tower")]
    got = spoken.ask("how many objectives did chaos take apart from towers")
    assert any(f.dimension == "objective" and f.op == "!=" for f in got.plan.filters), got.plan
    assert says(got.text, len(kept)), (len(kept), got.text)


# ------------------------------------------------------------------ "our" alone, zero done, a window with no unit

def test_our_top_after_the_asker_says_their_side_ranks_that_side(spoken):
    mine = {p: r for p, r in spoken.truth["players"].items() if r["team"] == 1}
    top = max(mine, key=lambda p: mine[p]["damage_dealt"])
    got = spoken.ask("as order, who was our best damage dealer")
    assert got.text.startswith(f"On team 1, {top} dealt the most damage"), got.text
    assert says(got.text, mine[top]["damage_dealt"]), got.text


def test_a_figure_done_as_zero_lists_those_with_none(spoken):
    figures = {"crits": "crits", "healing_done": "healing", "damage_to_bosses": "boss damage"}
    figure = next(f for f in figures if any(r[f] == 0 for r in spoken.truth["players"].values()))
    none = sorted(p for p, r in spoken.truth["players"].items() if r[figure] == 0)
    got = spoken.ask(f"who did literally 0 {figures[figure]}")
    assert got.plan.condition is not None and got.plan.condition.op == "<=", got.plan
    assert all(p in got.text for p in none) and says(got.text, len(none)), (none, got.text)


def test_in_the_first_n_with_no_unit_is_minutes(spoken):
    window = spoken.truth["windows"]["first_10_minutes"]
    got = spoken.ask("top killer in the first 10, how many?")
    assert got.plan.window is not None and got.plan.window.end_s == 600, got.plan
    best = max(row["kills"] for row in window.values())
    assert says(got.text, best), (best, got.text)
