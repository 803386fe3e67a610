"""One-match answer classes, end to end on the simulated match of `spoken` (some deaths and hits dealt by towers,
bosses, titans, minions and jungle camps), every figure from truth.py, each class in several wordings of our own:
what an item cost or what was spent on it (refused, gold earned and the items bought still answered), ..."""

from __future__ import annotations

from collections import Counter

import pytest

from combat_analysis.formatting import times
from tests.support.said import has_number, says


def _buyer(truth: dict) -> tuple[str, str]:
    """A player with no digit in the name and the last item they bought."""
    name = next(p for p in sorted(truth["players"]) if not any(c.isdigit() for c in p) and truth["players"][p]["items"])
    return name, truth["players"][name]["items"][-1]


# ------------------------------------------------------- 1: what an item cost or what a player spent: refused

@pytest.mark.parametrize("template", ["how much gold did {a} spend on {i}",
                                      "what did {i} cost {a}?",
                                      "how much did {a} pay for his {i}",
                                      "{a} paid how much for {i}",
                                      "gold {a} spent on {i}?",
                                      "how much gold did {a} put into {i}",
                                      "how much did {i} set {a} back",
                                      "how expensive was {a}'s {i}",
                                      "how much gold did {a} spend in total",
                                      "how much has {a} spent on items"])
def test_what_was_paid_for_an_item_is_refused_with_suggestions(spoken, template):
    name, item = _buyer(spoken.truth)
    a = spoken.ask(template.format(a=name, i=item))
    assert a.refusal is not None, a.text
    assert "price" in a.refusal.reason and len(a.refusal.suggestions) == 3, a.refusal
    assert not has_number(a.text), a.text  # never a nearby number


@pytest.mark.parametrize("template", ["how much gold did {a} earn", "how much gold did {a} get",
                                      "{a} gold earned?", "how much gold did {a} make"])
def test_gold_earned_still_answers_gold(spoken, template):
    name, _ = _buyer(spoken.truth)
    a = spoken.ask(template.format(a=name))
    assert a.refusal is None and says(a.text, spoken.truth["players"][name]["gold"]), a.text


@pytest.mark.parametrize("template", ["what items did {a} buy", "what did {a} spend his gold on",
                                      "where did {a}'s gold go", "what did {a} blow her money on"])
def test_what_the_gold_went_on_lists_the_items(spoken, template):
    name, item = _buyer(spoken.truth)
    items = spoken.truth["players"][name]["items"]
    a = spoken.ask(template.format(a=name))
    assert a.plan.intent == "build_order" and f"{len(items)} items" in a.text and item in a.text, a.text


# ----------------------------------------------------------------------- 2: whom the biggest hit landed on

def _hits(spoken) -> list[dict]:
    from tests.support.truth_checks import truth_tool

    players = set(spoken.truth["players"])
    return [e for e in truth_tool.load(str(spoken.log))[0]
            if e.get("type") in ("Damage", "CritDamage") and e.get("sourceowner") in players]


@pytest.mark.parametrize("question", ["who was the biggest hit on", "the biggest hit of the game landed on whom?",
                                      "against whom was the largest single hit", "who took the biggest hit",
                                      "biggest hit in the match: who was it on", "the hardest single hit and its target"])
def test_the_biggest_hit_names_its_target_attacker_and_amount(spoken, question):
    hit = spoken.truth["biggest_hit"]
    a = spoken.ask(question)
    assert hit["player"] in a.text and hit["target"] in a.text and says(a.text, hit["value"]), a.text


@pytest.mark.parametrize("template", ["who was {a}'s biggest hit against", "on whom did {a} land her biggest hit",
                                      "who did {a} hit with his biggest hit", "{a} biggest single hit - on who?"])
def test_one_players_biggest_hit_names_its_target(spoken, template):
    name = sorted(spoken.truth["players"])[2]
    mine = [e for e in _hits(spoken) if e["sourceowner"] == name]
    top = max(float(e["value1"]) for e in mine)
    targets = {e["targetowner"] for e in mine if float(e["value1"]) == top}
    a = spoken.ask(template.format(a=name))
    assert says(a.text, top) and all(t in a.text for t in targets), a.text


# ------------------------------------------------ 3: a side's structures lost, how many and when the first fell

def _lost(truth: dict, side: int, kind: str) -> list[dict]:
    return [o for o in truth["objectives"] if o["owner_team"] == side and kind.capitalize() in o["target"]]


@pytest.mark.parametrize(("template", "side", "kind"), [
    ("how many {k}s did {s} lose and when did the first go down", 1, "tower"),
    ("how many {k}s has {s} lost? when did the first one fall", 2, "tower"),
    ("number of {s} {k}s destroyed, and when the first went down", 1, "tower"),
    ("how many {k}es did {s} lose and when did the first go down", 1, "phoenix"),
    ("how many {k}es did {s} lose and when did the first go down", 2, "phoenix"),
    ("how many {k}s did {s} lose, and at what time", 2, "tower")])
def test_a_sides_structures_lost_count_and_first_time(spoken, template, side, kind):
    lost = _lost(spoken.truth, side, kind)
    word = {1: "order", 2: "chaos"}[side]
    a = spoken.ask(template.format(k=kind, s=word))
    if not lost:
        assert f"took no {kind}" in a.text, a.text
        return
    first = f"the first at {lost[0]['clock']}" if len(lost) > 1 else f"{lost[0]['target']} at {lost[0]['clock']}"
    assert says(a.text, len(lost)) and first in a.text, a.text
    assert f"Team {3 - side} took {len(lost)} {kind}" in a.text, a.text


# ------------------------------------------------------------- 4: kill participation, its base named

def _kp(truth: dict, name: str) -> tuple[float, int]:
    row = truth["players"][name]
    team_kills = truth["teams"][str(row["team"])]["kills"]
    return 100 * (row["kills"] + row["assists"]) / max(team_kills, 1), team_kills


@pytest.mark.parametrize("template", ["what was {a}'s kill participation", "{a} kp?",
                                      "kill participation of {a}", "how involved in kills was {a} - kp%",
                                      "what share of the team's kills did {a} take part in"])
def test_one_players_kill_participation_names_the_teams_kills(spoken, template):
    name = sorted(spoken.truth["players"])[1]
    kp, team_kills = _kp(spoken.truth, name)
    a = spoken.ask(template.format(a=name))
    assert f"{kp:.2f}".rstrip("0").rstrip(".") + "%" in a.text and f"their team's {team_kills} kills" in a.text, a.text


@pytest.mark.parametrize("question", ["who had the highest kill participation", "best kp in the match",
                                      "highest kill participation %", "who took part in the most of his team's kills"])
def test_kill_participation_ranking(spoken, question):
    truth = spoken.truth
    best = max(truth["players"], key=lambda p: _kp(truth, p)[0])
    kp, team_kills = _kp(truth, best)
    a = spoken.ask(question)
    assert a.text.startswith(best) and says(a.text, round(kp, 2), 0.006), a.text
    assert f"of their team's {team_kills} kills" in a.text, a.text


@pytest.mark.parametrize("question", ["kill participation per team", "each side's kp", "kp by team"])
def test_kill_participation_per_team_is_the_mean_of_its_players(spoken, question):
    truth = spoken.truth
    a = spoken.ask(question)
    for team in (1, 2):
        mine = [p for p, r in truth["players"].items() if r["team"] == team]
        mean = sum(_kp(truth, p)[0] for p in mine) / len(mine)
        assert says(a.text, round(mean, 2), 0.006), (team, mean, a.text)
        assert f"its {truth['teams'][str(team)]['kills']} kills" in a.text, a.text


# ------------------------------------------- 5: the asker's side, damage from the other side to one of ours

def _damage_to_from(spoken, victim: str, side: int) -> int:
    attackers = {p for p, r in spoken.truth["players"].items() if r["team"] == side}
    return round(sum(float(e["value1"]) for e in _hits(spoken)
                     if e["targetowner"] == victim and e["sourceowner"] in attackers))


@pytest.mark.parametrize(("template", "ours"), [
    ("we were {us}, how much damage did {them} do to our {god}", 1),
    ("we were {us} - how much dmg did the enemy team deal to our {god}?", 2),
    ("how much damage did the other side do to our {god}? we were {us}", 1),
    ("i was on {us}. how much damage did our {god} take from {them}", 2),
    ("we're {us}, how much damage did the enemy put on our {god}", 2),
    ("playing as {us}: how much damage did our {god} take from the enemy team", 1)])
def test_damage_from_the_other_side_to_one_of_ours(spoken, template, ours):
    truth = spoken.truth
    victim = next(p for p in sorted(truth["players"]) if truth["players"][p]["team"] == ours)
    god = truth["players"][victim]["god"]
    sides = {1: "order", 2: "chaos"}
    a = spoken.ask(template.format(us=sides[ours], them=sides[3 - ours], god=god.lower()))
    assert says(a.text, _damage_to_from(spoken, victim, 3 - ours)) and victim in a.text, a.text


# ------------------------------------------------ 6: whom a player went after, in players' words

@pytest.mark.parametrize("template", ["who was {a} focusing", "who was {a} diving", "who did {a} hunt the most",
                                      "which enemy was {a} targeting", "{a}'s main target?", "who did {a} tunnel",
                                      "{a} was chasing who?", "which opponent did {a} go after"])
def test_whom_a_player_went_after_is_whom_they_hit_the_most(spoken, template):
    name = sorted(spoken.truth["players"])[4]
    top, value = next(iter(spoken.truth["players"][name]["damage_to_each_player"].items()))
    a = spoken.ask(template.format(a=name))
    assert top in a.text and says(a.text, value), a.text
    assert a.plan.group_by == ("target",) and a.plan.shape == "leader", a.plan


# ------------------------------------------------ 7: one player's kills, basic attacks against everything else

@pytest.mark.parametrize("template", ["how many of {a}'s kills were autos vs abilities",
                                      "split {a}'s kills into basic attacks and everything else",
                                      "of {a}'s kills, how many came from basic attacks and how many from abilities",
                                      "{a} kills by autos vs skills", "were most of {a}'s kills from autos?",
                                      "{a} kills: auto attacks or the rest?"])
def test_a_players_kills_split_by_basic_attacks_and_the_rest(spoken, template):
    name = next(p for p in sorted(spoken.truth["players"])
                if any(k.endswith("Basic Attack") for k in spoken.truth["players"][p]["kills_by_ability"]))
    by = spoken.truth["players"][name]["kills_by_ability"]
    autos = sum(n for k, n in by.items() if k.endswith("Basic Attack"))
    a = spoken.ask(template.format(a=name))
    assert f"{name} got {autos} kill" in a.text and "with basic attacks" in a.text, a.text
    assert f"{name} got {sum(by.values()) - autos} kill" in a.text and "without basic attacks" in a.text, a.text
    assert "not used" not in a.text, a.text


# ------------------------------------------------------ 8: the lobby's length, first event to the match start

@pytest.mark.parametrize("question", ["how long was the draft", "how long were we in the lobby before loading in",
                                      "how long did pick phase take?", "lobby length", "how long did the lobby last",
                                      "time spent in god select before the game started"])
def test_the_lobby_lasts_from_the_first_event_to_the_match_start(spoken, question):
    from datetime import datetime

    truth = spoken.truth
    seconds = round((datetime.fromisoformat(truth["match_start"]) - datetime.fromisoformat(truth["lobby_start"]))
                    .total_seconds())
    assert seconds > 0
    a = spoken.ask(question)
    assert f"{seconds // 60}:{seconds % 60:02d}" in a.text and f"{seconds:,} seconds" in a.text, a.text


@pytest.mark.parametrize("question", ["who got the most kills in this lobby", "who stomped the lobby"])
def test_the_lobby_as_the_match_itself_is_no_lobby_length(spoken, question):
    assert spoken.ask(question).plan.metrics != ("lobby_info",)


# ------------------------------------------------------ 9: a side's deaths from every source, non-players included

@pytest.mark.parametrize(("template", "side"), [("how many times did {s} die, towers and minions included", 1),
                                                ("how many deaths did {s} have, npcs counted too", 2),
                                                ("{s}'s total deaths from any source", 1),
                                                ("how often did {s} die to all causes", 2),
                                                ("{s} team deaths", 1)])
def test_a_sides_deaths_count_every_source(spoken, template, side):
    a = spoken.ask(template.format(s={1: "order", 2: "chaos"}[side]))
    assert says(a.text, spoken.truth["teams"][str(side)]["deaths"]), a.text
    assert not says(a.text, spoken.truth["teams"][str(side)]["structures"]) or "tower" not in a.text, a.text


@pytest.mark.parametrize("question", ["team deaths", "deaths per side, everything counted",
                                      "team deaths, towers, minions and camps included"])
def test_team_deaths_are_each_sides_deaths_from_every_source(spoken, question):
    a = spoken.ask(question)
    assert a.plan.group_by == ("team",), a.plan
    for side in ("1", "2"):
        assert says(a.text, spoken.truth["teams"][side]["deaths"]), a.text


# ------------------------------------------- 10: whom a boss, structure or camp killed, each victim with a count

def _victims_of(truth: dict, killer_word: str) -> Counter:
    return Counter(d["victim"] for d in truth["deaths_to_npcs"] if killer_word in d["killer"])


@pytest.mark.parametrize(("template", "killer"), [("who got killed by the {k}", "Fire Giant"),
                                                  ("who did the {k} kill", "Titan"),
                                                  ("which players did the {k} take out", "Gold Fury"),
                                                  ("victims of the {k}?", "Cyclops"),
                                                  ("the {k}'s victims", "Fire Giant"),
                                                  ("which players died to the {k}", "Order Tower")])
def test_whom_a_non_player_killed_names_each_victim_with_a_count(spoken, template, killer):
    victims = _victims_of(spoken.truth, killer)
    assert victims
    a = spoken.ask(template.format(k=killer.lower()))
    assert says(a.text, sum(victims.values())), a.text
    for victim, n in victims.items():
        assert f"{victim} {times(n)}" in a.text, (victim, n, a.text)
    assert " 1 time" not in a.text, a.text  # once is "once" (formatting.times)


# -------------------------------------------- a side word that starts a structure's name is part of that name

@pytest.mark.parametrize("question", ["how much damage was dealt to the order tower", "total dmg into the Order Tower",
                                      "how much damage did the order tower take"])
def test_a_structure_named_with_its_side_word_is_that_structure(spoken, question):
    want = round(sum(float(e["value1"]) for e in _hits(spoken) if e["targetowner"] == "Order Tower"))
    a = spoken.ask(question)
    assert says(a.text, want), a.text
    assert not any("read as team" in note for note in a.plan.assumptions), a.plan.assumptions
    assert not any(f.dimension == "team" for f in a.plan.filters), a.plan.filters


def test_a_side_word_inside_a_structure_name_gives_no_team_note(spoken):
    a = spoken.ask("who died to the order tower")
    assert not any("read as team" in note for note in a.plan.assumptions), a.plan.assumptions


# ---------------------------------------------- who killed a player: every killer, non-players too, with counts

@pytest.mark.parametrize("template", ["who killed {a}", "who all killed {a}?", "{a}'s killers", "killers of {a}"])
def test_who_killed_a_player_names_every_killer_with_a_count(spoken, template):
    truth = spoken.truth
    name = max(truth["players"], key=lambda p: (truth["players"][p]["deaths_to_npcs"], p))
    from tests.support.truth_checks import truth_tool

    killers = Counter(e["sourceowner"] for e in truth_tool.load(str(spoken.log))[0]
                      if e.get("type") == "KillingBlow" and e.get("targetowner") == name)
    a = spoken.ask(template.format(a=name))
    assert says(a.text, truth["players"][name]["deaths"]), a.text
    for killer, n in killers.items():
        assert f"{killer} {times(n)}" in a.text, (killer, n, a.text)


@pytest.mark.parametrize("template", ["how many times did towers kill {a}", "{a}'s deaths, and how many of those "
                                      "came from towers"])
def test_towers_as_the_killer_are_deaths_to_towers(spoken, template):
    truth = spoken.truth
    name = max(truth["players"], key=lambda p: (truth["players"][p]["deaths_to_npcs"], p))
    n = sum(1 for d in truth["deaths_to_npcs"] if d["victim"] == name and "Tower" in d["killer"])
    a = spoken.ask(template.format(a=name))
    assert f"died to towers {times(n)}" in a.text or n == 0 and "never died to towers" in a.text, a.text


# ------------------------------------------------- "fed" said of a player reads as "most fed" does: gold earned

@pytest.mark.parametrize("template", ["was {a} fed", "did {a} get fed?", "how fed was {a}", "{a} was so fed"])
def test_fed_said_of_a_player_is_gold_as_most_fed_is(spoken, template):
    name = sorted(spoken.truth["players"])[0]
    most = spoken.ask("who was the most fed")
    a = spoken.ask(template.format(a=name))
    assert most.plan.metrics[0] == a.plan.metrics[0] == "gold", (most.plan, a.plan)
    assert says(a.text, spoken.truth["players"][name]["gold"]), a.text
    assert not any("name" in note.split() for note in a.plan.assumptions), a.plan.assumptions
