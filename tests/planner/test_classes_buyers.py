"""Who bought an item first, with the buying verbs of chat, end to end on a simulated match and checked against
truth.py: the first buyer and the time of the purchase."""

from __future__ import annotations

import pytest


def _first_buyers(truth: dict) -> dict[str, tuple[str, int]]:
    """item -> (its first buyer, the match second), for items bought by several players with no tie for first."""
    times: dict[str, list[tuple[int, str]]] = {}
    for player, row in truth["players"].items():
        for buy in row["item_timeline"]:
            times.setdefault(buy["item"], []).append((buy["second"], player))
    out = {}
    for item, buys in times.items():
        buys.sort()
        if len({p for _, p in buys}) > 1 and buys[0][0] < buys[1][0] and buys[0][0] > 0:
            out[item] = (buys[0][1], buys[0][0])
    return out


def _said(item: str) -> list[str]:
    """The item as players type it: lower case, and without its apostrophe."""
    return list(dict.fromkeys((item.lower(), item.lower().replace("'", ""))))


@pytest.mark.parametrize("question", [
    "who rushed {item} first and when",
    "who copped {item} first?",
    "who picked up {item} first, at what time",
    "who grabbed {item} first",
])
def test_the_first_buyer_of_an_item_and_when(spoken, question):
    firsts = _first_buyers(spoken.truth)
    assert firsts, "the match needs an item several players bought"
    ordered = sorted(firsts, key=lambda i: ("'" not in i, i))  # names with an apostrophe first
    for item in ordered[:2]:
        player, second = firsts[item]
        for said in _said(item):
            a = spoken.ask(question.format(item=said))
            assert player in a.text, a.text
            assert f"{second // 60}:{second % 60:02d}" in a.text, a.text
            assert a.refusal is None and "not used" not in a.text, a.text


@pytest.mark.parametrize("question", ["what did {p} pick up first", "what did the {p} grab first?", "what did {p} cop first"])
def test_a_player_s_first_pickup(spoken, question):
    for player, row in list(spoken.truth["players"].items())[:3]:
        first = row["item_timeline"][0]
        a = spoken.ask(question.format(p=player))
        assert first["item"] in a.text and player in a.text, a.text
