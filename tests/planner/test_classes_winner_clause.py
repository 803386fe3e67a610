"""A match figure, then who won the match, in one question about one match ("how many kills, who won", "..., and who
won it", "... - which side took it?", "..., did we win"): both parts, the winner a question of its own, never a step
on a leader of the first part. Over the simulated match `renamed`, checked against truth.py."""

from __future__ import annotations

import pytest


def _winner(truth: dict) -> str:
    return "no Titan fell" if truth["winner"] is None else f"Team {truth['winner']} won the match"


@pytest.mark.parametrize(("question", "said", "key"), [
    ("how many kills, who won", "Kills in the match", "total_kills"),
    ("how many kills were there, and who won it?", "Kills in the match", "total_kills"),
    ("total deaths - which side took it?", "Deaths in the match", "total_deaths"),
    ("deaths in the match: did we win", "Deaths in the match", "total_deaths"),
    ("kills in the match & which team came out on top", "Kills in the match", "total_kills"),
])
def test_a_match_figure_then_the_winner(renamed, question, said, key):
    a = renamed.ask(question)
    assert a.refusal is None and "was not applied" not in a.text, a.text
    assert f"{said}: {renamed.truth[key]:,}" in a.text, a.text
    assert _winner(renamed.truth) in a.text and a.text.index(said) < a.text.index(_winner(renamed.truth)), a.text
