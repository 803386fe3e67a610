"""One-match answers by class, end to end on the bundled sample, every figure from truth.py: a boss said in a plural
however spelt ("-ys") is the objectives of its kind; a god named as the one dealing damage to a named player
keeps the god as the subject; deaths a kind of non-player "caused" are the deaths it dealt; "other than basic
attacks" leaves them out of a ranking by ability, never sets them against the abilities."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.said import says
from tests.support.truth_checks import MINION_NAME

SIDES = {1: "order", 2: "chaos"}


@pytest.mark.parametrize("template", ["{s} took how many gold furys", "count of gold furys {s} got?"])
def test_a_boss_in_a_misspelt_plural_counts_its_kind(sample, template):
    taken = Counter(o["team"] for o in sample.truth["objectives"] if o["target"] == "Gold Fury")
    side = max(taken, key=taken.get)
    a = sample.ask(template.format(s=SIDES[side]))
    assert says(a.text, taken[side]) and "damage" not in a.text, a.text


def test_a_god_dealing_damage_to_a_named_player_stays_the_subject(sample):
    dealer = sorted(sample.truth["players"])[0]
    row = sample.truth["players"][dealer]
    target = max(row["damage_to_each_player"], key=row["damage_to_each_player"].get)
    a = sample.ask(f"what damage did the {row['god'].lower()} put into {target.lower()}")
    assert says(a.text, row["damage_to_each_player"][target]), a.text


@pytest.mark.parametrize(("question", "killed_by"), [
    ("how many deaths have minions caused", lambda killer: bool(MINION_NAME.match(killer))),
    ("how many deaths have the towers inflicted?", lambda killer: killer.endswith("Tower")),
])
def test_deaths_a_kind_caused_are_the_deaths_it_dealt(sample, question, killed_by):
    n = sum(1 for d in sample.truth["deaths_to_npcs"] if killed_by(d["killer"]))
    a = sample.ask(question)
    assert says(a.text, n) and not says(a.text, sample.truth["total_deaths"]), a.text


def test_basic_attacks_said_other_than_are_left_out_of_a_ranking_by_ability(sample):
    player = sorted(sample.truth["players"])[0]
    hits = {k: v for k, v in sample.truth["players"][player]["ability_hits"].items() if not k.endswith("Basic Attack")}
    top = max(hits, key=hits.get)
    a = sample.ask(f"{player}: which ability got used the most, other than basic attacks?")
    assert a.text.split(":")[1].strip().startswith(top) and says(a.text, hits[top]), a.text
    assert "Basic Attack" not in a.text, a.text
