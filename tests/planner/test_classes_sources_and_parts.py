"""One-match answers by class, end to end on the simulated match of `spoken` (some hits and deaths dealt by towers,
bosses, titans, minions and jungle camps), every figure from truth.py: a side's non-players as the subject of a damage
figure, damage to structures asked with slashed words, the biggest hit with who and with what, the top damage source
with item effects kept, a near tie between the sides, an objective near a time said loosely, deaths by cause and by
window side by side, and a ratio then a count by cause about the same player."""

from __future__ import annotations

import pytest

from combat_analysis import formatting as fmt
from combat_analysis.formatting import number
from tests.support.said import says


def player_of(truth: dict, team: int, role: str) -> str:
    return next(p for p, r in truth["players"].items() if r["team"] == team and r["role"] == role)


def _deaths(truth: dict) -> list[dict]:
    """Every death, to players and to non-players, with its victim, killer and second (truth.py's lists)."""
    return [*truth["kills"], *truth["deaths_to_npcs"]]


# ------------------------------------------------------------- A: a side's non-players as the subject of damage

@pytest.mark.parametrize("question", ["which side's towers did more damage", "whose towers hurt people more, order or chaos's",
                                      "chaos towers or order towers: which dealt more damage?"])
def test_each_sides_towers_damage_and_which_is_higher(spoken, question):
    order, chaos = spoken.truth["npc_damage"]["Order Tower"], spoken.truth["npc_damage"]["Chaos Tower"]
    higher = "Order Tower" if order > chaos else "Chaos Tower"
    a = spoken.ask(question)
    assert says(a.text, order) and says(a.text, chaos), a.text
    assert a.text.startswith(higher) or f"is {higher}" in a.text or f"dealt by {higher}:" in a.text, a.text


@pytest.mark.parametrize(("question", "source"), [("how much damage did the chaos towers deal", "Chaos Tower"),
                                                  ("what did order's towers do in damage", "Order Tower")])
def test_one_sides_towers_damage(spoken, question, source):
    a = spoken.ask(question)
    assert says(a.text, spoken.truth["npc_damage"][source]), a.text


@pytest.mark.parametrize("question", ["who dealt the most tower/structure damage", "top structure/tower dmg",
                                      "who hit the towers/phoenixes hardest"])
def test_damage_to_structures_asked_with_slashed_words(spoken, question):
    players = spoken.truth["players"]
    leader = max(players, key=lambda p: players[p]["damage_to_structures"])
    a = spoken.ask(question)
    assert a.text.startswith(leader) and says(a.text, players[leader]["damage_to_structures"]), a.text
    assert "destroyed" not in a.text, a.text


# ------------------------------------------------------------------- B: the biggest hit, who and with what

@pytest.mark.parametrize("question", ["who hit the single hardest blow of the match, and with what",
                                      "whose hit was the largest, and with which ability?",
                                      "who landed the biggest hit and what ability did they use"])
def test_the_biggest_hit_with_who_and_which_ability(spoken, question):
    hit = spoken.truth["biggest_hit"]
    a = spoken.ask(question)
    assert hit["player"] in a.text and hit["ability"] in a.text and says(a.text, hit["value"]), a.text


# ------------------------------------------------------------ C: the top damage source, item effects kept

@pytest.mark.parametrize("question", ["biggest damage source apart from basic attacks, item procs included",
                                      "top dmg source not counting autos"])
def test_the_top_damage_source_without_basic_attacks_says_item_effects_count(spoken, question):
    name, value = next((a, v) for a, v in spoken.truth["top_abilities"] if not a.endswith("Basic Attack"))
    a = spoken.ask(question)
    assert name in a.text and says(a.text, value), a.text
    assert "item effect" in a.text, a.text


@pytest.mark.parametrize("question", ["what item effect dealt the most dmg", "top item effect by dmg dealt?",
                                      "item procs: which one hit hardest overall"])
def test_item_procs_asked_about_are_the_abilities_used_by_several_gods(spoken, question):
    # an item's effect is an ability several players' gods used (METRICS.md: the ability breakdown includes item procs)
    users = spoken.truth["ability_players"]
    procs = [(a, v) for a, v in spoken.truth["top_abilities"] if len(users.get(a, ())) > 1
             and not a.endswith("Basic Attack")]
    name, value = max(procs, key=lambda p: p[1])
    a = spoken.ask(question)
    assert a.text.split(" (")[0].endswith(f"is {name}: {number(value)}") or f"{name}: {number(value)}" in a.text, a.text


# ------------------------------------------------------------------------------ D: a near tie between the sides

@pytest.mark.parametrize(("question", "figure"), [("did order or chaos heal more? seems close", "healing_done"),
                                                  ("which side took more damage, looks tight", "damage_taken"),
                                                  ("order vs chaos gold - feels even to me", "gold")])
def test_an_impression_beside_a_comparison_is_no_refusal(spoken, question, figure):
    one, two = spoken.truth["teams"]["1"][figure], spoken.truth["teams"]["2"][figure]
    a = spoken.ask(question)
    assert a.refusal is None and says(a.text, one) and says(a.text, two), a.text
    assert "was not used" not in a.text, a.text


def test_how_a_player_felt_is_still_refused(spoken):
    name = player_of(spoken.truth, 1, "Jungle")
    assert spoken.ask(f"how did {name} feel after the first death").refusal is not None


def test_a_margin_too_small_to_show_is_never_zero_percent():
    assert fmt.percent(4 / 1_217_020 * 100) == "under 0.01%"
    assert fmt.percent(0) == "0%" and fmt.percent(0.005) == "0.01%"


# --------------------------------------------------------------- E: an objective near a time said loosely

def _lone_tower(truth: dict) -> dict:
    """A tower whose side lost no other tower within three minutes of it, so 'around' its minute names it alone."""
    towers = [o for o in truth["objectives"] if o["target"].endswith("Tower")]
    return next(o for o in towers if all(abs(o["second"] - t["second"]) > 180 for t in towers
                                         if t is not o and t["target"] == o["target"]))


@pytest.mark.parametrize("template", ["who got the last hit on the {side} tower around minute {m}",
                                      "who destroyed the {side} tower at about {m} min",
                                      "{side} tower near the {m} minute mark - who got it"])
def test_the_killer_of_a_tower_near_a_loose_time(spoken, template):
    tower = _lone_tower(spoken.truth)
    side = tower["target"].split()[0].lower()
    a = spoken.ask(template.format(side=side, m=round(tower["second"] / 60)))
    assert tower["killer"] in a.text and tower["clock"] in a.text, a.text


# ------------------------------------------------------------------------ F: deaths by cause and by window

def _died_to_npcs(truth: dict) -> str:
    return max(truth["players"], key=lambda p: (truth["players"][p]["deaths_to_npcs"], p))


@pytest.mark.parametrize("template", ["of {a}'s deaths, how many came from players and how many from everything else",
                                      "how often did {a} die to enemy gods, and how often to the rest"])
def test_deaths_to_players_and_to_the_rest(spoken, template):
    name = _died_to_npcs(spoken.truth)
    row = spoken.truth["players"][name]
    a = spoken.ask(template.format(a=name))
    assert says(a.text, row["deaths"] - row["deaths_to_npcs"]) and says(a.text, row["deaths_to_npcs"]), a.text


@pytest.mark.parametrize(("template", "minutes"), [("{a} deaths: whole match and first 10?", 10),
                                                   ("{a}'s deaths over the entire game vs the first 12 minutes", 12)])
def test_deaths_over_the_whole_match_beside_a_window(spoken, template, minutes):
    name = _died_to_npcs(spoken.truth)
    early = sum(1 for d in _deaths(spoken.truth) if d["victim"] == name and d["second"] < 60 * minutes)
    a = spoken.ask(template.format(a=name))
    assert says(a.text, spoken.truth["players"][name]["deaths"]) and says(a.text, early), a.text
    assert " down " not in a.text, a.text


@pytest.mark.parametrize("question", ["more deaths to towers/minions/jungle (npcs): order or chaos?",
                                      "which team had more deaths to minions or camps (non-players)"])
def test_a_teams_deaths_to_every_non_player_when_brackets_say_so(spoken, question):
    teams = {p: r["team"] for p, r in spoken.truth["players"].items()}
    per_team = {t: sum(1 for d in spoken.truth["deaths_to_npcs"] if teams[d["victim"]] == t) for t in (1, 2)}
    a = spoken.ask(question)
    assert says(a.text, per_team[1]) and says(a.text, per_team[2]), a.text


# ------------------------------------------------------------------ G: a ratio, then a count by cause

@pytest.mark.parametrize("template", ["what's {a}'s kda and how many times did they die to a tower",
                                      "what was {a}'s KDA, and how many times did she die to a tower"])
def test_a_ratio_then_a_count_by_cause(spoken, template):
    name = max(spoken.truth["players"], key=lambda p: (
        sum(1 for d in spoken.truth["deaths_to_npcs"] if d["victim"] == p and d["killer"].endswith("Tower")), p))
    towers = sum(1 for d in spoken.truth["deaths_to_npcs"] if d["victim"] == name and d["killer"].endswith("Tower"))
    a = spoken.ask(template.format(a=name))
    assert says(a.text, spoken.truth["players"][name]["kda"], tol=0.01) and says(a.text, towers), a.text


@pytest.mark.parametrize("template", ["how many times did {a} die and who killed her",
                                      "{a}'s deaths, and who killed him"])
def test_a_count_then_who_did_it_to_that_player(spoken, template):
    name = player_of(spoken.truth, 2, "Middle")
    killers = {k["killer"] for k in spoken.truth["kills"] if k["victim"] == name}
    a = spoken.ask(template.format(a=name))
    assert says(a.text, spoken.truth["players"][name]["deaths"]), a.text
    assert killers and all(k in a.text for k in killers), a.text
