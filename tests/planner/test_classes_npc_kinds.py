"""One-match answers by class, end to end on the simulated match of `spoken`, every figure from truth.py: a kind of
non-player said with a word for "kind" ("what sort of X", "the X type") is that kind, as the bare kind word is
(METRICS.md: damage done by a non-player is the sum with it as source); and a kind word in a player's slot ("of
the monster did") is never refused as an unknown player's name."""

from __future__ import annotations

import pytest

from tests.support.said import says

MINIONS = ("Swordsman", "Archer", "Brute", "Champion Swordsman")
JUNGLE = ("Satyr", "Chimera", "Alpha Chimera", "Harpy", "Elder Harpy", "Roaming Harpy", "Cyclops", "Cyclops Warrior",
          "Queen Naga", "Naga Soldier")


def _top(truth: dict, kind: tuple[str, ...]) -> tuple[str, float]:
    """The non-player of the kind with the most damage dealt (truth.py's damage by non-player source)."""
    dealt = {name: amount for name, amount in truth["npc_damage"].items()
             if name in kind or name.removeprefix("Fire ") in kind}
    return max(dealt.items(), key=lambda kv: kv[1])


@pytest.mark.parametrize(("question", "kind"), [
    ("which minion type dealt the most dmg", MINIONS),
    ("what sort of creep dealt the biggest total damage", MINIONS),
    ("what kind of jungle camp dished out the most dmg", JUNGLE),
    ("what type of monster hit hardest", JUNGLE),
])
def test_a_kind_said_with_a_word_for_kind_is_that_kind(spoken, question, kind):
    name, amount = _top(spoken.truth, kind)
    a = spoken.ask(question)
    assert name in a.text and says(a.text, amount), a.text
    assert "cannot" not in a.text, a.text
