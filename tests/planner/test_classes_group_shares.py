"""A group's share of a match total, end to end on the simulated match of `spoken`, every figure from truth.py (its
players' figures and `window_stats`): a role's (or two roles') total over the match's total of the same figure, both
stated with the percentage; several players together; a side or a player (said by name or by god) in a window, over
the match's total in that window; a part of a role's own figure ("of the supports' damage") over that figure."""

from __future__ import annotations

import functools

import pytest

from tests.support import said
from tests.support.truth_checks import truth_tool

says = functools.partial(said.says, clocks=False)

ROLE_WORDS = {"Support": "supports", "Jungle": "junglers", "Middle": "mids", "Solo": "solos", "Carry": "carries"}


def _said_share(text: str, part: float, total: float) -> None:
    assert says(text, part) and says(text, total), (part, total, text)
    assert says(text, round(part / total * 100, 2), tol=0.0051), (part / total * 100, text)
    assert "match's" in text, text  # the base is named


def _of(spoken, where, figure: str) -> float:
    return sum(row[figure] for p, row in spoken.truth["players"].items() if where(p, row))


@functools.lru_cache(maxsize=2)
def _events(log) -> tuple:
    events = truth_tool.load(str(log))[0]
    truth_tool.match_clock(events)
    return tuple(events)


@pytest.mark.parametrize(("template", "role", "figure"), [
    ("what percent of all damage came from the {r}", "Support", "damage_dealt"),
    ("the {r}' share of the match's gold", "Jungle", "gold"),
    ("how much of the total kills did the {r} get, in percent", "Middle", "kills"),
    ("what % of all assists were the {r}'", "Carry", "assists"),
    ("fraction of the game's damage taken that the {r} soaked up", "Solo", "damage_taken"),
])
def test_a_roles_share_of_the_match_total(spoken, template, role, figure):
    part = _of(spoken, lambda p, row: row["role"] == role, figure)
    total = _of(spoken, lambda p, row: True, figure)
    a = spoken.ask(template.format(r=ROLE_WORDS[role]))
    assert a.refusal is None, a.text
    _said_share(a.text, part, total)
    assert role in a.text, a.text


def test_two_roles_together(spoken):
    part = _of(spoken, lambda p, row: row["role"] in ("Support", "Solo"), "healing_done")
    a = spoken.ask("what fraction of all healing was done by the supports and the solos")
    _said_share(a.text, part, _of(spoken, lambda p, row: True, "healing_done"))


def test_several_players_together(spoken):
    a_, b_ = sorted(spoken.truth["players"])[:2]
    part = _of(spoken, lambda p, row: p in (a_, b_), "kills")
    a = spoken.ask(f"what % of all the kills came from {a_} and {b_}")
    _said_share(a.text, part, spoken.truth["total_kills"])


@pytest.mark.parametrize(("template", "team"), [("what percent of the kills in the first ten minutes did {s} get", 2),
                                                ("{s}'s share of all gold earned before minute 10", 1)])
def test_a_sides_share_in_a_window(spoken, template, team):
    stats = truth_tool.window_stats(list(_events(spoken.log)), 0, 600)
    figure = "kills" if "kills" in template else "gold"
    part = sum(stats[p][figure] for p, row in spoken.truth["players"].items() if row["team"] == team)
    total = sum(s[figure] for s in stats.values())
    a = spoken.ask(template.format(s={1: "order", 2: "chaos"}[team]))
    _said_share(a.text, part, total)


@pytest.mark.parametrize("by_god", [False, True])
def test_one_players_share_in_a_window(spoken, by_god):
    name = sorted(spoken.truth["players"])[4]
    stats = truth_tool.window_stats(list(_events(spoken.log)), 1200, None)
    said = f"the {spoken.truth['players'][name]['god']}" if by_god else name
    a = spoken.ask(f"what percentage of the damage after minute 20 came from {said}")
    _said_share(a.text, stats[name]["damage_dealt"], sum(s["damage_dealt"] for s in stats.values()))


def test_a_part_of_a_roles_own_figure(spoken):
    part = _of(spoken, lambda p, row: row["role"] == "Support", "damage_to_players")
    whole = _of(spoken, lambda p, row: row["role"] == "Support", "damage_dealt")
    a = spoken.ask("what share of the supports' damage went to enemy gods")
    assert says(a.text, part) and says(a.text, whole) and says(a.text, round(part / whole * 100, 2), tol=0.0051), a.text
    assert not says(a.text, _of(spoken, lambda p, row: True, "damage_to_players")), a.text
