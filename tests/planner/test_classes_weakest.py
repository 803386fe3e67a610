"""Slang for the weakest player of a side or of the match, end to end on a simulated match and checked against
truth.py: read as the lowest KDA (METRICS.md), every tied player named, and the reading said."""

from __future__ import annotations

import re

import pytest

_SIDES = {1: "order", 2: "chaos"}


@pytest.mark.parametrize(("question", "team"), [
    ("who was the problem on {side}", 1),
    ("who was the weak link on {side}?", 2),
    ("{side}'s liability this game", 1),
    ("whos the weakest link in the lobby", None),
    ("which player was the problem", None),
])
def test_the_weakest_player_is_the_lowest_kda(spoken, question, team):
    kda = {p: row["kda"] for p, row in spoken.truth["players"].items() if team is None or row["team"] == team}
    lowest = min(kda.values())
    a = spoken.ask(question.format(side=_SIDES.get(team, "")))
    assert "KDA" in a.text and "lowest" in a.text, a.text
    for player in (p for p, v in kda.items() if v == lowest):
        assert player in a.text, a.text
    said = [float(n) for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", a.text.split("(")[0])]
    assert any(abs(n - lowest) <= 0.005 for n in said), a.text
