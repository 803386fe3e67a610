"""Round 58's class, end to end on the simulated match of `match`, every figure from truth.py's item lists: "built" is
a verb of buying, so the players who (have) built an item are counted as those who bought it, and a build counted ("how
many items did X build") is the items in it, never the build order or the player's core stats."""

from __future__ import annotations

from collections import Counter

from tests.support.said import says


def test_the_players_who_built_an_item_are_counted(match):
    buyers = Counter()
    for player in match.players:
        for item in set(match.truth["players"][player]["items"]):
            buyers[item] += 1
    item = sorted(i for i, n in buyers.items() if 1 < n < len(match.players))[0]
    got = match.ask(f"how many people have built {item.lower()}")
    assert got.plan.intent != "refuse", got.text
    assert got.text.startswith(f"{buyers[item]} players had any items purchased of {item}"), (buyers[item], got.text)


def test_a_build_counted_is_the_items_in_it(match):
    player = sorted(match.players)[4]
    items = match.truth["players"][player]["items"]
    got = match.ask(f"so how many items did {player} build")
    assert got.plan.metrics == ("items_purchased",), got.plan
    assert says(got.text, len(items)) and "KDA" not in got.text, (len(items), got.text)
