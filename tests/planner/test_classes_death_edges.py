"""One-match answers by class, end to end on the simulated match of `spoken`, every figure from truth.py: the first
or last deaths said of the people who died, several of them ("the first three players to die", "the last two guys
to go down"), are the match's first or last deaths from any source (METRICS.md: deaths from any source), in time
order, never the players ranked by their deaths."""

from __future__ import annotations

import pytest


def _deaths_in_order(truth: dict) -> list[dict]:
    """Every death of the match, player kills and deaths to non-players (truth.py's two lists), in time order."""
    return sorted([*truth["kills"], *truth["deaths_to_npcs"]], key=lambda d: (d["second"], d.get("line", 0)))


@pytest.mark.parametrize(("question", "edge", "n"), [
    ("who were the first three players to die", "first", 3),
    ("first 2 ppl to get killed?", "first", 2),
    ("name the last two guys to go down", "last", 2),
])
def test_several_people_at_an_edge_are_the_edge_deaths(spoken, question, edge, n):
    deaths = _deaths_in_order(spoken.truth)
    wanted = deaths[:n] if edge == "first" else deaths[-n:]
    a = spoken.ask(question)
    assert f"The {edge} {n} deaths" in a.text, a.text
    places = [a.text.find(f"{d['victim']} at {d['clock']}") for d in wanted]
    assert -1 not in places and places == sorted(places), a.text
    assert "most" not in a.text.split(".")[0], a.text
