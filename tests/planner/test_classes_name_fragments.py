"""One-match answers by class on the bundled sample, every figure from truth.py: another form of a word the planner
knows ("feeds" beside "feed") is that word, never a loose fragment of a player's name that holds it (mid_or_feed)."""

from __future__ import annotations

import pytest

from tests.support.said import says


@pytest.mark.parametrize("question", ["who feeds the most", "which player feeds hardest?"])
def test_a_known_words_other_form_is_no_fragment_of_a_name(sample, question):
    assert any("feed" in p for p in sample.truth["players"]), "a player of the sample has 'feed' in the name"
    deaths = {p: row["deaths"] for p, row in sample.truth["players"].items()}
    top = max(deaths, key=deaths.get)
    a = sample.ask(question)
    assert a.text.startswith(top) and says(a.text.split("(")[0], deaths[top]), a.text
