"""One-match answers by class, every figure from truth.py: "how many players <did something>" counts the people who
did it at all, named with the figure and what narrowed it, and says how many times it was done in all ("in total"
asks for those times alone); a kill verb whose object is a kind of non-player ("killed the most jungle monsters")
counts that kind's killing blows; a match with no Titan kill says its winner is unknown, with no figure beside it
that would read as a guess; a player's average ranked in one match is the figure of that one game."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.paths import SAMPLE_LOG
from tests.support.said import says
from tests.support.truth_checks import npc_killing_blows


def _buyers(truth: dict) -> tuple[str, set[str], int]:
    """An item bought by several players, at least one of them more than once, its buyers and its purchases."""
    bought = {p: Counter(row["items"]) for p, row in truth["players"].items()}
    items = sum(bought.values(), Counter())
    for item in sorted(items, key=lambda i: (-items[i], i)):
        buyers = {p for p, c in bought.items() if c[item]}
        if 1 < len(buyers) < items[item]:
            return item, buyers, items[item]
    raise AssertionError("no item bought more often than by how many bought it")


def test_how_many_players_bought_an_item_counts_the_buyers(sample):
    item, buyers, purchases = _buyers(sample.truth)
    a = sample.ask(f"how many players bought {item.lower()}")
    assert a.text.startswith(f"{len(buyers)} players") and item in a.text, a.text
    assert all(p in a.text for p in sorted(buyers)[:3]) and f"({purchases} in all)" in a.text, a.text


def test_how_many_players_died_to_a_kind_of_killer_counts_the_victims(match):
    died = Counter(e["victim"] for e in match.truth["deaths_to_npcs"] if e["killer"].endswith("Tower"))
    assert len(died) < sum(died.values()), "some player died to towers more than once in the simulated match"
    a = match.ask("how many players died to a tower")
    assert a.text.startswith(f"{len(died)} players") and "Tower" in a.text, a.text
    assert f"({sum(died.values())} in all)" in a.text, a.text


@pytest.mark.parametrize("question", ["who killed the most jungle monsters", "which player killed the most camps?"])
def test_killing_the_most_of_a_kind_counts_that_kind(sample, question):
    killed = npc_killing_blows(SAMPLE_LOG, "jungle")
    top, n = killed.most_common(1)[0]
    a = sample.ask(question)
    assert a.text.startswith(top) and says(a.text.split("(")[0], n) and "was not used" not in a.text, a.text


def test_how_many_players_killed_minions_names_their_minions(sample):
    killed = npc_killing_blows(SAMPLE_LOG, "minion")
    top, n = killed.most_common(1)[0]
    a = sample.ask("how many players killed minions")
    assert a.text.startswith(f"{len(killed)} players") and f"{top} ({n})" in a.text, a.text
    assert "qualifier" not in a.text, a.text


@pytest.mark.parametrize("question", ["who won", "which side won the game?"])
def test_an_unknown_winner_carries_no_figure(match, question):
    assert match.truth["winner"] is None, "no Titan fell in the simulated match"
    a = match.ask(question)
    assert a.text.startswith("The winner is unknown: no Titan fell") and "does not record" in a.text, a.text
    insights = a.pkg.response.key_insights
    assert not any(ch.isdigit() for ch in " ".join([a.text, *insights])), (a.text, insights)


@pytest.mark.parametrize(("template", "top"), [("the {n} best avg dmg players", 3), ("highest avg damage?", 1)])
def test_a_players_average_over_one_match_is_ranked_as_the_figure(sample, template, top):
    damage = {p: row["damage_dealt"] for p, row in sample.truth["players"].items()}
    ranked = sorted(damage, key=lambda p: -damage[p])
    a = sample.ask(template.format(n=top))
    assert a.text.index(ranked[0]) < a.text.index(ranked[1]) and says(a.text, damage[ranked[0]]), a.text
    assert "average" not in a.text.split(".")[0] and ranked[top] not in a.text.split("(")[0], a.text
