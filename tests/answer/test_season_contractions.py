"""Contractions typed without their apostrophe or with a misplaced one, across matches (the one-match side is
tests/planner/test_classes_contractions.py): read as the contraction, so the answer is the one the question with its
apostrophe gets, over both simulated seasons checked against truth.py."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import number
from tests.support.season import answered_across, ask_across, event_games, leaders, totals


@pytest.mark.parametrize(("typed", "written", "figure"), [
    ("theyre asking who got the most kills across all matches",
     "they're asking who got the most kills across all matches", "kills"),
    ("i dont know: who died the most over every game", "i don't know: who died the most over every game", "deaths"),
    ("im curious, most assists in all matches?", "i'm curious, most assists in all matches?", "assists"),
    ("couldnt find it - who has the most gold across all games",
     "couldn't find it - who has the most gold across all games", "gold"),
    ("i cant tell who dealt the most damage overall", "i can't tell who dealt the most damage overall",
     "damage_dealt"),
    ("i havent checked who dealt the most damage overall", "i haven't checked who dealt the most damage overall",
     "damage_dealt"),
    ("i did'nt see: who got the most kills in all games", "i didn't see: who got the most kills in all games", "kills"),
])
def test_a_contraction_typed_bare_across_matches(seasons, typed, written, figure):
    home, matches = seasons
    pkg, rows = ask_across(home, typed)
    answer = answered_across(pkg)
    assert answer == answered_across(ask_across(home, written)[0])
    values = totals(event_games(matches), figure)
    top = leaders(values)
    assert top[0] in answer and number(values[top[0]]) in answer, answer
