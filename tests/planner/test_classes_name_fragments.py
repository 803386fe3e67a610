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



@pytest.mark.parametrize(("question", "roster", "player"), [
    ("how much dmg did feeds do", ("Sir Feeds", "mid_or_feed"), "Sir Feeds"),  # a whole word of a name stays it
    ("what did jins build", ("ジン_jin", "mid_or_feed"), "ジン_jin"),  # a possessive typed without its apostrophe
    ("who feeds the most", ("ジン_jin", "mid_or_feed"), None),  # another form of "feed": no fragment of a name
])
def test_a_known_words_other_form_is_a_name_only_where_a_name_holds_it_whole(question, roster, player):
    from combat_analysis.planner.read.names import find_mentions
    from combat_analysis.planner.vocabulary import PlayerInfo, Vocabulary

    vocab = Vocabulary(players=tuple(PlayerInfo(player=p, team=1, role=None, god=None) for p in roster))
    found = [m.name for m in find_mentions(question, vocab) if m.kind == "player"]
    assert found == ([player] if player else []), found
