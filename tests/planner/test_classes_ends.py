"""Both ends of one figure in one question, end to end on a simulated match and checked against truth.py: the
leaders and the last, every tied player named, and both figures."""

from __future__ import annotations

import functools

import pytest

from tests.support import said

says = functools.partial(said.says, tol=0.01)


@pytest.mark.parametrize(("question", "figure", "team"), [
    ("who had the most and the least xp", "experience", None),
    ("highest and lowest gold, who?", "gold", None),
    ("who had the fewest and the most deaths on chaos", "deaths", 2),
    ("biggest and smallest damage dealt in the match", "damage_dealt", None),
    ("order: lowest and highest assists", "assists", 1),
])
def test_both_ends_of_one_figure(spoken, question, figure, team):
    rows = {p: row[figure] for p, row in spoken.truth["players"].items() if team is None or row["team"] == team}
    a = spoken.ask(question)
    for end in (max(rows.values()), min(rows.values())):
        assert says(a.text, end), a.text
        for player in (p for p, v in rows.items() if v == end):
            assert player in a.text, a.text
