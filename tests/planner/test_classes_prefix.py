"""A player named by the start of their name ("tsu" for Tsunami88), end to end on a simulated match and checked
against truth.py: read as the one player whose name starts with it, or a question naming every candidate."""

from __future__ import annotations

import pytest

from combat_analysis.planner.read.names import common, squash
from tests.support.said import says


def _unique_starts(players) -> dict[str, str]:
    """Three letters that start exactly one player's name and are no ordinary word -> that player."""
    starts = {}
    for p in players:
        key = squash(p)[:3]
        if len(key) == 3 and key.isascii() and key.isalpha() and not common(key) \
                and sum(squash(o).startswith(key) for o in players) == 1 and not any(key in squash(o)[1:] for o in players):
            starts[key] = p
    return starts


@pytest.mark.parametrize(("question", "figure"), [
    ("{p} dmg", "damage_dealt"),
    ("how many kills did {p} get", "kills"),
    ("{p} gold?", "gold"),
    ("how much healing did {p} do", "healing_done"),
])
def test_the_start_of_one_name_is_that_player(prefixed, question, figure):
    starts = _unique_starts(prefixed.truth["players"])
    assert starts, "the match needs a player with a three-letter start of their own"
    for key, player in list(starts.items())[:2]:
        a = prefixed.ask(question.format(p=key))
        assert player in a.text and a.refusal is None, a.text
        assert says(a.text, prefixed.truth["players"][player][figure]), a.text


@pytest.mark.parametrize("question", ["kes dmg?", "how many deaths did kes have", "what did kes build"])
def test_the_start_of_several_names_asks_which(prefixed, question):
    a = prefixed.ask(question)
    assert "Kestrel9" in a.text and "KesselRun" in a.text, a.text
    assert not says(a.text, prefixed.truth["players"]["Kestrel9"]["damage_dealt"]), a.text
