"""One-match answers by class, end to end on the simulated match of `spoken`, every figure from truth.py: the first
or last people to die, several of them ("the first three players to die", "the last two guys to go down"), are that
many different players, each at their first (last) death from any source (METRICS.md: deaths from any source), in
time order, never the players ranked by their deaths; the first or last N deaths are deaths, a player's several."""

from __future__ import annotations

import pytest


def _deaths_in_order(truth: dict) -> list[dict]:
    """Every death of the match, player kills and deaths to non-players (truth.py's two lists), in time order."""
    return sorted([*truth["kills"], *truth["deaths_to_npcs"]], key=lambda d: (d["second"], d.get("line", 0)))


def _people_at_edge(deaths: list[dict], edge: str, n: int) -> list[dict]:
    """The first (last) `n` different players to die, each at their first (last) death."""
    seen: dict[str, dict] = {}
    for d in deaths if edge == "first" else reversed(deaths):
        seen.setdefault(d["victim"], d)
    return list(seen.values())[:n]


@pytest.mark.parametrize(("question", "edge", "n"), [
    ("who were the first three players to die", "first", 3),
    ("first 2 ppl to get killed?", "first", 2),
    ("name the last two guys to go down", "last", 2),
    ("the first 4 chaos players to die?", "first", 4),
])
def test_several_people_at_an_edge_are_different_players(spoken, question, edge, n):
    deaths = _deaths_in_order(spoken.truth)
    if "chaos" in question:
        team_2 = {p for p, row in spoken.truth["players"].items() if row["team"] == 2}
        deaths = [d for d in deaths if d["victim"] in team_2]
    wanted = _people_at_edge(deaths, edge, n)
    assert len({d["victim"] for d in wanted}) == n
    a = spoken.ask(question)
    assert f"{edge} {n} players to die" in a.text, a.text
    places = [a.text.find(f"{d['victim']} at {d['clock']}") for d in sorted(wanted, key=lambda d: d["second"])]
    assert -1 not in places and places == sorted(places), a.text
    assert "most" not in a.text.split(".")[0], a.text


@pytest.mark.parametrize(("question", "edge", "n"), [("first 4 deaths of the game", "first", 4),
                                                     ("the last three deaths", "last", 3)])
def test_the_deaths_at_an_edge_are_deaths(spoken, question, edge, n):
    deaths = _deaths_in_order(spoken.truth)
    wanted = deaths[:n] if edge == "first" else deaths[-n:]
    a = spoken.ask(question)
    assert f"The {edge} {n} deaths" in a.text, a.text
    places = [a.text.find(f"{d['victim']} at {d['clock']}") for d in wanted]
    assert -1 not in places and places == sorted(places), a.text
