"""One-match answer classes, end to end on the simulated match of `spoken` (some deaths dealt by towers, bosses,
titans, minions and jungle camps; two towers last hit by minions), every figure from truth.py, each class in several
wordings of our own: a side's picks said as its comp, draft or gods; what the log never records (time spent dead,
multi-kills) refused without a number; how long until the first event of a kind; the minute with the most of a
figure; a kind of non-player as the subject of taking objectives; the purchases after the first one."""

from __future__ import annotations

import functools
import re
from collections import Counter

import pytest

from combat_analysis.formatting import clock
from tests.support.said import has_number
from tests.support.truth_checks import truth_tool

# a side, and its possessive as chat types it (no apostrophe)
SIDES = {1: ("order", "orders"), 2: ("chaos", "chaos")}


def _side(truth: dict, team: int) -> dict[str, str]:
    """The side's players and their gods."""
    return {p: row["god"] for p, row in truth["players"].items() if row["team"] == team}


# ------------------------------------------------------------- a side's picks: its comp, draft, picks or gods

@pytest.mark.parametrize("team", [1, 2])
@pytest.mark.parametrize("template", ["{s} team comp?", "what did {s} draft", "{s}'s picks", "{o} picks pls",
                                      "which gods was {s} running", "list {s}'s five gods",
                                      "what was the {s} composition"])
def test_a_sides_picks_are_its_players_with_their_gods(spoken, template, team):
    side = _side(spoken.truth, team)
    a = spoken.ask(template.format(s=SIDES[team][0], o=SIDES[team][1]))
    assert a.refusal is None and a.plan.metrics == ("roster",), a.text
    assert all(p in a.text and god in a.text for p, god in side.items()), a.text
    others = set(spoken.truth["players"]) - set(side)
    assert not any(p in a.text for p in others), a.text


@pytest.mark.parametrize("template", ["how long did the draft take", "how long was drafting", "draft length?"])
def test_the_drafts_length_is_still_the_lobby(spoken, template):
    a = spoken.ask(template)
    assert a.plan.metrics == ("lobby_info",), a.text


# --------------------------------------------------------------- never recorded: refused, with no number

@pytest.mark.parametrize("template", ["how long was {a} dead in total", "who spent the most time dead",
                                      "total respawn timers for {s}", "{a}'s death timer sum?",
                                      "how many seconds did {a} sit on the grey screen",
                                      "did anyone get a triple kill", "how many double kills did {a} get",
                                      "any pentas this game?", "{s} multi kills", "who had the most multikills",
                                      "did {s} get a quadra"])
def test_time_dead_and_multi_kills_are_refused_without_a_number(spoken, template):
    name = min(spoken.truth["players"])
    a = spoken.ask(template.format(a=name, s="chaos"))
    assert a.refusal is not None, a.text
    assert not has_number(a.text.replace(name, "")), a.text


def test_a_kill_streak_is_still_answered(spoken):
    a = spoken.ask("who had the longest kill streak")
    assert a.refusal is None and "streak" in a.text, a.text


# ------------------------------------------------------- how long until the first event: that event's time

def _first_death(truth: dict) -> int:
    return min(d["second"] for d in [*truth["kills"], *truth["deaths_to_npcs"]])


@pytest.mark.parametrize("template,event", [("how long did it take for the first player to die", "death"),
                                            ("how long until someone died first", "death"),
                                            ("how long before first blood", "blood"),
                                            ("how long did it take for the first kill to happen", "blood")])
def test_how_long_until_a_first_event_is_its_time(spoken, template, event):
    second = _first_death(spoken.truth) if event == "death" else spoken.truth["first_blood"]["second"]
    a = spoken.ask(template)
    assert a.refusal is None and clock(second) in a.text, a.text
    assert spoken.truth["duration_clock"] not in a.text, a.text  # never the match's length
    assert "not applied" not in a.text, a.text


# ------------------------------------------------------------- the minute with the most of a figure

def _top_minute(truth: dict) -> tuple[int, int]:
    minutes = Counter(k["second"] // 60 for k in truth["kills"])
    top = max(minutes.values())
    return min(m for m, n in minutes.items() if n == top), top


@pytest.mark.parametrize("template", ["which minute of the match had the most kills",
                                      "what minute of the game saw the most kills", "bloodiest minute?",
                                      "the busiest minute for kills"])
def test_the_minute_with_the_most_kills(spoken, template):
    minute, n = _top_minute(spoken.truth)
    a = spoken.ask(template)
    assert a.refusal is None and "minute" in a.plan.group_by, a.text
    assert f"minute {minute}" in a.text and str(n) in a.text, a.text


def test_the_minute_an_event_happened_is_still_its_time(spoken):
    blood = spoken.truth["first_blood"]
    a = spoken.ask("what minute of the match was first blood")
    assert blood["clock"] in a.text and "minute" not in a.plan.group_by, a.text


# ---------------------------------------------------- a kind of non-player taking objectives, with no "by"

@pytest.mark.parametrize("template", ["did the minions ever take a tower", "did minions finish any objectives off",
                                      "which objectives did minions secure", "any towers the minions destroyed?",
                                      "how many objectives did minions get, and for which side"])
def test_minions_as_the_subject_of_taking_objectives(spoken, template):
    taken = [o for o in spoken.truth["objectives"] if o["killer"] in ("Archer", "Swordsman", "Champion Swordsman",
                                                                        "Fire Archer", "Fire Swordsman")]
    assert taken, "the fixture's match has objectives last hit by minions"
    a = spoken.ask(template)
    assert a.refusal is None, a.text
    assert all(o["clock"] in a.text and o["killer"] in a.text for o in taken), a.text
    players = [o for o in spoken.truth["objectives"] if o["killer_is_player"]]
    assert not any(o["killer"] in a.text for o in players), a.text
    assert "minions' was not used" not in a.text, a.text


@pytest.mark.parametrize("template", ["did jungle camps take any objective", "did the bosses secure a tower"])
def test_a_kind_that_took_nothing_says_none(spoken, template):
    a = spoken.ask(template)
    assert a.refusal is None and re.search(r"\bno\b|\bnone\b", a.text), a.text


# ----------------------------------------------------------------- the purchases after the first one

@pytest.mark.parametrize("template,n", [("what did {a} buy after the starter, the next 2", 2),
                                        ("{a}'s next three items after her starting item", 3),
                                        ("the following two purchases after {a}'s starter", 2),
                                        ("after the first item, {a}'s next 4 buys in order", 4)])
def test_the_purchases_after_the_first_in_order(spoken, template, n):
    name = next(p for p in sorted(spoken.truth["players"]) if not any(c.isdigit() for c in p))
    bought = spoken.truth["players"][name]["item_timeline"][1:1 + n]
    a = spoken.ask(template.format(a=name))
    assert a.refusal is None, a.text
    said = [a.text.find(f"{b['item']} at {b['clock']}") for b in bought]
    assert all(i >= 0 for i in said) and said == sorted(said), a.text
    first = spoken.truth["players"][name]["item_timeline"][0]
    assert f"{first['item']} at {first['clock']}" not in a.text, a.text


# ------------------------------------------------------------- a side named through one of its players

@pytest.mark.parametrize("template,metric", [("how many kills did {a}'s team get", "kills"),
                                             ("total gold of {a}s side", "gold"),
                                             ("how much damage did the team {a} was on deal", "damage_dealt"),
                                             ("{a}'s squad: deaths?", "deaths"),
                                             ("how much did the {g}'s team heal", "healing_done")])
def test_a_side_said_through_its_player_is_that_side(spoken, template, metric):
    name = next(p for p in sorted(spoken.truth["players"]) if not any(c.isdigit() for c in p) and "'" not in p)
    row = spoken.truth["players"][name]
    team = spoken.truth["teams"][str(row["team"])]
    a = spoken.ask(template.format(a=name, g=row["god"]))
    assert a.refusal is None, a.text
    assert f"{team[metric]:,}" in a.text, a.text
    assert f"{row[metric]:,}" not in a.text or row[metric] == team[metric], a.text  # never the player's own


def test_the_best_player_of_a_side_said_through_its_player(spoken):
    name = min(spoken.truth["players"])
    team = spoken.truth["players"][name]["team"]
    side = {p: r["kills"] for p, r in spoken.truth["players"].items() if r["team"] == team}
    top = max(side.values())
    a = spoken.ask(f"who on {name}'s team had the most kills")
    assert a.refusal is None and str(top) in a.text, a.text
    assert any(p in a.text for p, k in side.items() if k == top), a.text


# ------------------------------------------------------ a side's structures as what was hit, never its damage

@functools.cache
def _events(log: str):
    return truth_tool.load(log)


def _damage_to(spoken, target: str, players: set[str]) -> int:
    """The damage players dealt to one structure, from truth.py's events (Damage and CritDamage, METRICS.md)."""
    events, _ = _events(str(spoken.log))
    return sum(int(float(e["value1"])) for e in events if e.get("type") in ("Damage", "CritDamage")
               and e.get("targetowner") == target and e.get("sourceowner") in players)


@pytest.mark.parametrize("template,target", [("how much damage was done to chaos's towers", "Chaos Tower"),
                                             ("total dmg to the order towers", "Order Tower"),
                                             ("damage dealt against order side phoenixes?", "Order Phoenix")])
def test_damage_to_a_sides_structures(spoken, template, target):
    players = set(spoken.truth["players"])
    expected = _damage_to(spoken, target, players)
    assert expected, f"the fixture's match has damage to the {target}"
    a = spoken.ask(template)
    assert a.refusal is None and f"{expected:,}" in a.text, (expected, a.text)


def test_who_hit_a_sides_towers_most_is_of_the_other_side(spoken):
    players = spoken.truth["players"]
    by = {p: _damage_to(spoken, "Order Tower", {p}) for p in players}
    top = max(by, key=by.get)
    a = spoken.ask("who did the most damage to order's towers")
    assert a.refusal is None and top in a.text and f"{by[top]:,}" in a.text, a.text
    assert players[top]["team"] == 2
