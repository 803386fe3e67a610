"""A god against a god, end to end on a simulated match and checked against truth.py: each god played by one player
is that player, and the answer names both gods beside their players and both figures."""

from __future__ import annotations

import pytest

from tests.support.said import says


@pytest.mark.parametrize(("question", "figure"), [
    ("did the {a} deal more damage than the {b}", "damage_dealt"),
    ("{a} vs {b}, who took more damage", "damage_taken"),
    ("compare the {a} and the {b} on gold", "gold"),
])
def test_two_gods_name_both_gods_and_both_figures(spoken, question, figure):
    players = spoken.truth["players"]
    one, two = (next(p for p, r in players.items() if r["team"] == team) for team in (1, 2))
    gods = {p: players[p]["god"] for p in (one, two)}
    a = spoken.ask(question.format(a=gods[one].lower(), b=gods[two].lower()))
    for p in (one, two):
        assert f"{p} ({gods[p]})" in a.text, a.text
        assert says(a.text, players[p][figure]), a.text
