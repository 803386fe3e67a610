"""A count, then a second part that narrows the same set and points back at it ("how many of those", "of them", "and
how many were ..."): both numbers, each with what it counts; the second is the narrowed one (deaths not to players or
to minions, kills in a window or by one side). End to end on the simulated match of `match` (some deaths dealt by
towers, phoenixes, titans, minions and bosses), every value from truth.py."""

from __future__ import annotations

import pytest

from tests.support.said import says
from tests.support.truth_checks import MINION_NAME

SIDES = {1: "order", 2: "chaos"}


def _team_of(match, player: str) -> int:
    return match.players[player].team


def _not_to_players(match, team: int | None = None, player: str | None = None) -> int:
    return sum(1 for d in match.truth["deaths_to_npcs"] if (team is None or _team_of(match, d["victim"]) == team)
               and (player is None or d["victim"] == player))


@pytest.mark.parametrize("template", ["how many deaths were there, and how many of those were not to players?",
                                      "total deaths - how many of them werent to players",
                                      "deaths in the match, how many of those were to non players"])
def test_deaths_then_those_not_to_players(match, template):
    a = match.ask(template)
    total, npc = match.truth["total_deaths"], _not_to_players(match)
    assert a.refusal is None and says(a.text, total) and says(a.text, npc), a.text
    assert a.text.index(f"{total:,}") < a.text.index(f" {npc} "), a.text  # the whole, then the narrowed


@pytest.mark.parametrize("template", ["how many times did {s} die and how many of them were not by players",
                                      "what were {s}'s deaths, and how many weren't to players",
                                      "{s} deaths: how many of those to npcs"])
def test_a_sides_deaths_then_those_to_non_players(match, template):
    team = 2
    a = match.ask(template.format(s=SIDES[team]))
    assert says(a.text, match.truth["teams"][str(team)]["deaths"]), a.text
    assert says(a.text, _not_to_players(match, team=team)), a.text


@pytest.mark.parametrize("template", ["how many deaths did {p} have and how many of those to minions",
                                      "{p}'s deaths, and how many were to minions?"])
def test_a_players_deaths_then_those_to_minions(match, template):
    name = max(match.players, key=lambda p: match.truth["players"][p]["deaths_to_npcs"])
    minions = sum(1 for d in match.truth["deaths_to_npcs"] if d["victim"] == name and MINION_NAME.match(d["killer"]))
    a = match.ask(template.format(p=name))
    assert says(a.text, match.truth["players"][name]["deaths"]) and "minion" in a.text, a.text
    assert says(a.text, minions) or minions == 1 and "to minions once" in a.text, a.text


@pytest.mark.parametrize(("template", "minute"), [("how many kills did {s} get, and how many of those were after minute {m}", 20),
                                                  ("{s} kills and how many were after min {m}", 15),
                                                  ("how many kills for {s}? how many of them in the first {m} minutes", 10)])
def test_a_sides_kills_then_those_in_a_window(match, template, minute):
    team = 1
    kills = [k for k in match.truth["kills"] if _team_of(match, k["killer"]) == team]
    inside = [k for k in kills if (k["second"] >= 60 * minute if "after" in template else k["second"] < 60 * minute)]
    a = match.ask(template.format(s=SIDES[team], m=minute))
    assert says(a.text, len(kills)) and says(a.text, len(inside)), a.text
    assert f"minute {minute}" in a.text or f"first {minute} minutes" in a.text, a.text


@pytest.mark.parametrize("template", ["kills in the match, how many of them by {s}",
                                      "how many kills were there, and how many were by {s}",
                                      "total kills - how many of those did {s} get"])
def test_all_kills_then_one_sides(match, template):
    team = 2
    a = match.ask(template.format(s=SIDES[team]))
    assert says(a.text, match.truth["total_kills"]) and says(a.text, match.truth["teams"][str(team)]["kills"]), a.text
    assert "team 2" in a.text.lower(), a.text


@pytest.mark.parametrize("template", ["deaths including the pve ones - how many of them were by players?",
                                      "how many deaths incl. pve? and how many of those were by players",
                                      "deaths counting towers and minions too, how many of those were by enemy players"])
def test_a_widened_count_then_those_by_players(match, template):
    """A count widened to every cause ("including pve") is the whole count; the narrowed part says its own cause
    alone, never the widening beside it."""
    total, npc = match.truth["total_deaths"], _not_to_players(match)
    a = match.ask(template)
    assert a.refusal is None and says(a.text, total) and says(a.text, total - npc), a.text
    narrowed = a.text[a.text.index(f" {total - npc:,} ") - 80:]
    assert "non-players" not in narrowed.split(".")[-2], a.text  # the second sentence names players alone
