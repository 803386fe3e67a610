"""The lane, side of the map or place of a structure or objective, end to end on a simulated match: the log names towers
and phoenixes by their team alone (FORMAT.md, METRICS.md), so it is refused with that reason and never answered with a
count or a time of objectives; a lane asked of a player stays their role, checked against truth.py."""

from __future__ import annotations

import re

import pytest

from combat_analysis.formatting import clock


@pytest.mark.parametrize("question", [
    "which lane was the opening tower in",
    "in what lane did the earliest phoenix drop",
    "in which lane did chaos lose their second tower",
    "the last tower that went down, which lane was it in?",
    "was the first phoenix mid or bot",
    "was the order phoenix in the top lane",
    "did the first tower go down in the bot lane",
    "which lane did order lose the most towers in",
    "what lane were the turrets taken from",
    "which side of the map was the gold fury on",
    "the fire giant: what side of the map",
    "where was the last tower",
    "where did the first phoenix fall",
    "where on the map was the titan killed",
    "location of the chaos titan",
    "the towers' positions",
    "which lane was the third objective taken in",
])
def test_a_lane_or_place_of_an_objective_is_refused(spoken, question):
    a = spoken.ask(question)
    assert a.refusal is not None, (question, a.text)
    assert "lane, side of the map or place of a structure or objective" in a.refusal.reason, a.refusal.reason
    assert not re.search(r"\d", a.text), a.text  # never a count or a time of the objectives


def test_a_players_lane_is_their_role(spoken):
    players = spoken.truth["players"]
    for player, row in sorted(players.items())[:4]:
        for question in (f"what lane was {player} in", f"{player}'s lane?"):
            a = spoken.ask(question)
            assert a.refusal is None and row["role"] in a.text, (question, a.text)


@pytest.mark.parametrize(("question", "figure"), [
    ("which lane dealt the most damage", "damage_dealt"),
    ("what lane got the most kills", "kills"),
])
def test_a_lane_ranked_is_the_roles(spoken, question, figure):
    roles = spoken.truth["roles"]
    best = max(roles, key=lambda role: roles[role][figure])
    a = spoken.ask(question)
    assert a.refusal is None and f"The {best} role" in a.text, a.text
    assert f"{roles[best][figure]:,}" in a.text, (a.text, roles[best][figure])


def test_objectives_asked_beside_lane_words_of_players_are_answered(spoken):
    towers = [o for o in spoken.truth["objectives"] if "Tower" in o["target"]]
    a = spoken.ask("was the first tower taken by the mid or the jungler")
    assert a.refusal is None and clock(towers[0]["second"]) in a.text and towers[0]["killer"] in a.text, a.text
    mid_game = [o for o in towers if 600 <= o["second"] < 1200]
    a = spoken.ask("how many towers fell in the mid game")
    assert a.refusal is None and re.search(rf"\b{len(mid_game)}\b", a.text), (a.text, len(mid_game))
