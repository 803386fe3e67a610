"""Purchases of named items: who bought an item, how often and when; and a purchase that never happened is said as
such, not as "no matching data". Checked on the sample match against its truth file."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from combat_analysis import formatting as fmt
from tests.support.paths import TRUTH_FILE
from tests.support.stages import ask_sample

PLAYERS = json.loads(TRUTH_FILE.read_text(encoding="utf-8"))["players"]
BOUGHT = {item: Counter(name for name, p in PLAYERS.items() for i in p["items"] if i == item)
          for item in {i for p in PLAYERS.values() for i in p["items"]}}
# the item most bought by more than one player, and one bought by one player only
SHARED = max((i for i, c in BOUGHT.items() if len(c) > 1), key=lambda i: (sum(BOUGHT[i].values()), i))
NEVER = sorted((name, item) for name, p in PLAYERS.items() for item in BOUGHT if item not in p["items"])[0]


@pytest.mark.parametrize("form", ["who bought {i}", "which players built {i}?", "{i} buyers"])
def test_who_bought_an_item_names_each_buyer_and_how_often(stage_env, form):
    question = form.format(i=SHARED.lower())
    direct = ask_sample(stage_env, question).response.direct_answer
    buyers = BOUGHT[SHARED]
    assert f"{SHARED} was bought {fmt.times(sum(buyers.values()))}" in direct, (question, direct)
    assert all(f"{name} {fmt.times(n)}" in direct for name, n in buyers.items()), (question, direct)
    assert "items in this order" not in direct, direct


def test_no_sentence_calls_the_purchases_of_one_item_a_build(stage_env):
    pkg = ask_sample(stage_env, f"who bought {SHARED}")
    said = " ".join([pkg.response.direct_answer, *pkg.response.key_insights])
    # "X bought 1 item, starting with Soul Gem": false of a player who bought 20 items
    assert "starting with" not in said and "ending with" not in said, said


@pytest.mark.parametrize("form", ["when did {p} buy {i}", "what time did {p} pick up {i}"])
def test_a_purchase_that_never_happened_says_so(stage_env, form):
    name, item = NEVER
    direct = ask_sample(stage_env, form.format(p=name, i=item)).response.direct_answer
    assert direct == f"No purchase of {item} by {name} was recorded in this match.", direct
