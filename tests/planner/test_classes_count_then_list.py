"""A count, then "what were they", "which ones", "name them", "list them": the count and the counted things by name,
with their times (a player's kills and whom they were on, a player's deaths and who dealt them, a side's objectives
and who took them, a player's items in order). End to end on the simulated match of `match`, every value from
truth.py."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.said import says

SIDES = {1: "order", 2: "chaos"}


def _clock(second: int) -> str:
    return f"{second // 60}:{second % 60:02d}"


def _busiest(match, figure: str) -> str:
    return max(sorted(match.players), key=lambda p: match.truth["players"][p][figure])


@pytest.mark.parametrize("template", ["how many kills did {p} get and what were they", "{p}'s kills - who were they",
                                      "{p} kills? name them", "how many kills for {p}, list em"])
def test_a_players_kills_then_the_list(match, template):
    name = _busiest(match, "kills")
    kills = [k for k in match.truth["kills"] if k["killer"] == name]
    a = match.ask(template.format(p=name))
    assert a.plan.metrics == ("kill_events",) and says(a.text, len(kills)), a.text
    assert all(k["victim"] in a.text and _clock(k["second"]) in a.text for k in kills), a.text


def test_a_players_kills_in_a_window_then_the_list(match):
    name = _busiest(match, "kills")
    kills = [k for k in match.truth["kills"] if k["killer"] == name and k["second"] >= 1200]
    a = match.ask(f"how many kills did {name} get after minute 20, name them")
    assert says(a.text, len(kills)) and "after minute 20" in a.text, a.text
    assert all(_clock(k["second"]) in a.text for k in kills), a.text


@pytest.mark.parametrize("template", ["how many times did {p} die, name them", "{p}'s deaths and which ones were they",
                                      "how many deaths did {p} have? list them"])
def test_a_players_deaths_then_who_dealt_them(match, template):
    name = _busiest(match, "deaths_to_npcs")
    deaths = [k for k in match.truth["kills"] if k["victim"] == name] + \
        [d for d in match.truth["deaths_to_npcs"] if d["victim"] == name]
    a = match.ask(template.format(p=name))
    assert a.plan.metrics == ("death_events",) and says(a.text, len(deaths)), a.text
    assert all(d["killer"] in a.text and _clock(d["second"]) in a.text for d in deaths), a.text


def test_a_players_deaths_to_non_players_then_the_list(match):
    name = _busiest(match, "deaths_to_npcs")
    deaths = [d for d in match.truth["deaths_to_npcs"] if d["victim"] == name]
    a = match.ask(f"how many deaths did {name} have that weren't to players - what were they")
    assert says(a.text, len(deaths)) or len(deaths) == 1 and "once" in a.text, a.text
    assert all(d["killer"] in a.text and _clock(d["second"]) in a.text for d in deaths), a.text
    assert not any(k["killer"] in a.text for k in match.truth["kills"] if k["victim"] == name), a.text


@pytest.mark.parametrize("template", ["how many objectives did {s} get? list them",
                                      "{s} objectives, which ones?", "how many towers did {s} destroy? which ones",
                                      # "and name them" after a count: "name" is the verb, not a player
                                      "how many objectives did {s} secure and name them",
                                      "towers destroyed by {s}: how many, and name them"])
def test_a_sides_objectives_then_the_list(match, template):
    team = 2
    taken = [o for o in match.truth["objectives"] if o["team"] == team and
             ("tower" not in template or o["target"].endswith("Tower"))]
    a = match.ask(template.format(s=SIDES[team]))
    assert a.plan.metrics == ("objective_events",) and says(a.text, len(taken)), a.text
    assert all(o["clock"] in a.text for o in taken), a.text


@pytest.mark.parametrize("template", ["how many items did {p} buy, list them", "{p}'s item count and what were they"])
def test_a_players_items_then_the_list(match, template):
    name = sorted(match.players)[2]
    items = match.truth["players"][name]["items"]
    a = match.ask(template.format(p=name))
    assert says(a.text, len(items)) and ", ".join(items) in a.text, a.text


def test_a_count_with_no_list_of_its_own_says_so(match):
    a = match.ask("how many deaths did order have? list em")
    assert says(a.text, match.truth["teams"]["1"]["deaths"]) and "not listed" in a.text, a.text


@pytest.mark.parametrize("template", ["{p} was dying a ton, who killed them most often", "{p} died so much, which enemy killed him most?",
                                      "{p}'s deaths were rough, who killed her most often"])
def test_a_question_of_its_own_after_a_comma_points_back(match, template):
    name = _busiest(match, "deaths")
    killers = Counter(k["killer"] for k in match.truth["kills"] if k["victim"] == name).most_common()
    top = killers[0][1]
    a = match.ask(template.format(p=name))
    assert says(a.text, match.truth["players"][name]["deaths"]), a.text
    assert all(k in a.text for k, n in killers if n == top) and says(a.text, top), a.text
