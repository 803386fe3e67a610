"""A window anchored on one player's purchase of an item (round 57), end to end on the simulated match of `match`,
every figure from truth.py's item timeline: "after her <item>" is from the second after that purchase, so a build
after it never lists the item itself; "right after" or "next" is the one purchase that followed; "before" is the
window up to it; the buyer is the player said, the one a pronoun points back to (a player named by side and role
too), or the item's one buyer; and a purchase that never happened is refused, never answered over the whole match."""

from __future__ import annotations

from collections import Counter

import pytest

from combat_analysis.formatting import clock


def _bought(match, player: str) -> list[dict]:
    return match.truth["players"][player]["item_timeline"]


def _anchor_of(match) -> tuple[str, dict]:
    """A player and a purchase of theirs in the middle of their build, of an item they bought once."""
    for player in sorted(match.players):
        items = _bought(match, player)
        once = Counter(i["item"] for i in items)
        for at, item in enumerate(items[2:-2], start=2):
            if once[item["item"]] == 1 and items[at + 1]["second"] > item["second"]:
                return player, item
    pytest.skip("no purchase bought once mid-build")


def test_a_build_after_a_purchase_starts_after_it(match):
    player, anchor = _anchor_of(match)
    after = [i["item"] for i in _bought(match, player) if i["second"] > anchor["second"]]
    got = match.ask(f"what did {player} buy after their {anchor['item'].lower()}")
    assert f"built {len(after)} item" in got.text and f"purchase at {anchor['clock']}" in got.text, (after, got.text)
    assert got.text.split(" in this order: ")[1].startswith(after[0]), got.text


@pytest.mark.parametrize("template", ["what did {n} pick up directly after the {i}", "the next thing {n} picked up after "
                                      "{i}"])
def test_the_purchase_right_after_is_the_next_one(match, template):
    player, anchor = _anchor_of(match)
    following = next(i for i in _bought(match, player) if i["second"] > anchor["second"])
    got = match.ask(template.format(n=player, i=anchor["item"]))
    assert got.plan.limit == 1, got.plan
    assert f"was {following['item']} at {clock(following['second'])}" in got.text, (following, got.text)


def test_before_a_purchase_is_the_build_up_to_it(match):
    player, anchor = _anchor_of(match)
    before = [i for i in _bought(match, player) if i["second"] < anchor["second"]]
    got = match.ask(f"{player.lower()}'s items before buying the {anchor['item']}")
    assert f"built {len(before)} item" in got.text and before[-1]["item"] in got.text, (before, got.text)


def test_a_player_named_by_side_and_role_is_whose_purchase(match):
    player, anchor = _anchor_of(match)
    info = match.players[player]
    side = "order" if info.team == 1 else "chaos"
    following = next(i for i in _bought(match, player) if i["second"] > anchor["second"])
    got = match.ask(f"which item did the {side} {info.role.lower()} buy straight after her {anchor['item']}")
    assert following["item"] in got.text and player in got.text, (following, got.text)


def test_a_purchase_that_never_happened_is_refused(match):
    player, anchor = _anchor_of(match)
    other = next(p for p in sorted(match.players) if all(i["item"] != anchor["item"] for i in _bought(match, p)))
    got = match.ask(f"what did {other} buy after his {anchor['item']}")
    assert got.plan.intent == "refuse", got.text
    assert "no purchase of" in got.plan.refusal.reason and anchor["item"] in got.plan.refusal.reason, got.plan.refusal
