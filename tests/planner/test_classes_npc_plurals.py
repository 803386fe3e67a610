"""One-match answers by class, end to end on the bundled sample, every figure from truth.py: a minion, camp or boss
named in the plural ("archers", "swordsmen", "harpies") is that non-player (METRICS.md: damage done by a non-player
is the sum with that name as source); non-players ranked on the damage they dealt are ranked from the lowest when
the question asks for the least, and the answer says it of them as it would of players, without "non-players from"."""

from __future__ import annotations

import pytest

from tests.support.said import says

JUNGLE = ("Satyr", "Chimera", "Alpha Chimera", "Roaming Harpy", "Cyclops")
MINIONS = ("Swordsman", "Archer", "Brute", "Champion Swordsman")


@pytest.mark.parametrize(("question", "name"), [
    ("how much dmg did archers put out", "Archer"),
    ("total damage from the swordsmen?", "Swordsman"),
    ("roaming harpies: how much damage did they do", "Roaming Harpy"),
    ("what was the cyclopses' total damage", "Cyclops"),
    ("dmg by champion swordsmen", "Champion Swordsman"),
])
def test_a_non_player_named_in_the_plural_is_that_non_player(sample, question, name):
    a = sample.ask(question)
    assert a.plan.metrics[:1] == ("npc_damage",), a.plan
    assert name in a.text and says(a.text, sample.truth["npc_damage"][name]), a.text


@pytest.mark.parametrize(("question", "kind", "lowest"), [
    ("which jungle camp did the least dmg", JUNGLE, True),
    ("what minion hurt the least", MINIONS, True),
    ("which jungle camp dealt the most damage", JUNGLE, False),
])
def test_non_players_ranked_on_their_damage_follow_the_question_s_order(sample, question, kind, lowest):
    dealt = {n: v for n, v in sample.truth["npc_damage"].items() if n in kind}
    name = (min if lowest else max)(dealt, key=dealt.get)
    a = sample.ask(question)
    head = a.text.split(":")[0]
    assert name in head and ("least" if lowest else "most") in head, a.text
    assert says(a.text, dealt[name]), a.text
    assert "non-players from" not in a.text and "attacker" not in a.text, a.text


def test_two_non_players_compared_are_named_as_the_ones_ranked(sample):
    dealt = sample.truth["npc_damage"]
    a = sample.ask("archers or brutes, which dealt less damage?")
    assert a.text.startswith("Of Brute and Archer, the least damage was dealt by Brute"), a.text
    assert says(a.text, dealt["Brute"]) and says(a.text, dealt["Archer"]), a.text
