"""Who took a kind of objective, then a clause leaning on it ("then the earliest?", "the last?", "how many of
them"), end to end on a simulated match and checked against truth.py: both parts are answered, every objective of the
kind with its taker and time (or each side's or player's count), and then the first or last of them."""

from __future__ import annotations

import re

import pytest

from combat_analysis.formatting import clock

KINDS = {"tower": ("towers", "Tower"), "phoenix": ("phoenixes", "Phoenix"), "Gold Fury": ("gold furies", "Gold Fury"),
         "Fire Giant": ("fire giants", "Fire Giant")}


def _taken(spoken, kind: str) -> list[dict]:
    word = KINDS[kind][1]
    return [o for o in spoken.truth["objectives"] if word in o["target"]]


def _edge_said(text: str, kind: str, edge: str, o: dict) -> bool:
    """The first (last) one said as such, with its time and its killer."""
    return re.search(rf"\bthe {edge} {re.escape(kind)}\b", text, re.IGNORECASE) is not None \
        and f"{clock(o['second'])}, last hit by {o['killer']}" in text


@pytest.mark.parametrize(("question", "edge"), [
    ("who took the {plural}, and at what time did the earliest go", "first"),
    ("who secured the {plural}? when did the first one happen", "first"),
    ("which players killed {plural} and the last one?", "last"),
    ("who got the {plural}, then when was the final one", "last"),
    ("who destroyed {plural}; and the earliest?", "first"),
])
@pytest.mark.parametrize("kind", list(KINDS))
def test_the_takers_listed_then_the_edge(spoken, question, edge, kind):
    taken = _taken(spoken, kind)
    assert taken, kind
    a = spoken.ask(question.format(plural=KINDS[kind][0]))
    assert a.refusal is None, a.text
    listed, said = a.text.split(". ", 1) if ". " in a.text else (a.text, "")
    assert re.match(rf"{len(taken)} {re.escape(kind[:-1])}\w* (?:was|were) taken", listed, re.IGNORECASE), a.text
    for o in taken:  # every one, with its taker and its time
        assert f"at {clock(o['second'])} (by {o['killer']}, team {o['team']})" in listed, (o, a.text)
    one = taken[0] if edge == "first" else taken[-1]
    assert _edge_said(said, kind, edge if edge in ("first", "last") else "first", one), a.text


@pytest.mark.parametrize(("question", "edge"), [
    ("which side took the {plural}; the opening one when?", "first"),
    ("how many {plural} did each team get, and the last one?", "last"),
    ("{plural} per side, and when was the last", "last"),
])
@pytest.mark.parametrize("kind", ["tower", "Fire Giant"])
def test_each_sides_count_then_the_edge(spoken, question, edge, kind):
    taken = _taken(spoken, kind)
    a = spoken.ask(question.format(plural=KINDS[kind][0]))
    for team in (1, 2):
        count = sum(1 for o in taken if o["team"] == team)
        assert re.search(rf"team {team}: {count}\b", a.text), (team, count, a.text)
    assert _edge_said(a.text, kind, edge, taken[0] if edge == "first" else taken[-1]), a.text


def test_the_most_then_the_first(spoken):
    taken = _taken(spoken, "tower")
    counts: dict[str, int] = {}
    for o in taken:
        if o["killer_is_player"]:
            counts[o["killer"]] = counts.get(o["killer"], 0) + 1
    best = max(counts.values())
    a = spoken.ask("who took the most towers, and the earliest of them?")
    assert any(f"{p} " in a.text for p, n in counts.items() if n == best) and f": {best}" in a.text, a.text
    assert _edge_said(a.text, "tower", "first", taken[0]), a.text


@pytest.mark.parametrize("question", ["who took the {plural} and how many of them were there",
                                      "who secured {plural}, how many"])
def test_the_takers_and_how_many(spoken, question):
    taken = _taken(spoken, "tower")
    a = spoken.ask(question.format(plural="towers"))
    assert f"{len(taken)} towers were taken" in a.text, a.text
    for o in taken:
        assert f"at {clock(o['second'])} (by {o['killer']}, team {o['team']})" in a.text, (o, a.text)


def test_a_first_of_something_else_is_not_the_objectives(spoken):
    taken = _taken(spoken, "tower")
    fb = spoken.truth["first_blood"]
    a = spoken.ask("who took the towers and who got the first kill")
    for o in taken:
        assert f"at {clock(o['second'])} (by {o['killer']}" in a.text, (o, a.text)
    assert "first tower" not in a.text and f"{fb['killer']} got first blood" in a.text, a.text


def test_the_first_one_alone_stays_one(spoken):
    taken = _taken(spoken, "tower")
    a = spoken.ask("who took the first tower")
    assert _edge_said(a.text, "tower", "first", taken[0]) and clock(taken[1]["second"]) not in a.text, a.text
