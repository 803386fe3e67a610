"""Pairs of a player and whom they hit, ranked (round 51), end to end on the simulated match of `match`, every figure
from truth.py: the top damage "from anyone to one foe" is the largest pair of attacker and target, not a
player's total; kills on the same victim count each killer and victim; one named player's is their top target; and
"by a single player" alone still ranks players. Round 52: a role said with the gods it is asked of names their
players, and a non-player's name typed with a slip is still that non-player."""

from __future__ import annotations

from collections import Counter

import pytest

from combat_analysis.formatting import number
from tests.support.said import says


def _pairs_of_damage(match) -> Counter:
    return Counter({(p, t): d for p in match.players
                    for t, d in match.truth["players"][p]["damage_to_each_player"].items() if d})


def _pairs_of_kills(match) -> Counter:
    return Counter((k["killer"], k["victim"]) for k in match.truth["kills"] if k["killer"] in match.players)


def _top(pairs: Counter) -> tuple[list[tuple[str, str]], float]:
    best = max(pairs.values())
    return sorted(p for p, v in pairs.items() if v == best), best


@pytest.mark.parametrize("template", ["whats the biggest damage total from one player against a single opponent",
                                      "top dmg dealt by anyone into one specific enemy"])
def test_the_largest_pair_of_attacker_and_target_by_damage(match, template):
    tied, best = _top(_pairs_of_damage(match))
    got = match.ask(template)
    head = got.text.split(" (next")[0]
    assert got.plan.group_by == ("player", "target"), got.plan
    assert all(f"{a} on {b}" in head for a, b in tied) and says(head, best), (tied, best, got.text)
    assert "% of" not in got.text, got.text  # no player's share of a total said of a pair


def test_kills_on_the_same_victim_name_every_pair_tied(match):
    tied, best = _top(_pairs_of_kills(match))
    got = match.ask("which killer got the same victim the most times")
    head = got.text.split(" (next")[0]
    assert all(f"{a} on {b}" in head for a, b in tied) and f" {number(best)}" in head, (tied, best, got.text)
    assert "not used" not in " ".join(got.plan.caveats), got.plan.caveats


def test_one_named_players_damage_to_one_enemy_is_their_top_target(match):
    name = sorted(match.players)[2]
    hit = {t: d for t, d in match.truth["players"][name]["damage_to_each_player"].items() if d}
    top = max(hit, key=hit.get)
    got = match.ask(f"the most damage {name} put into a single enemy")
    head = got.text.split(" (ahead")[0]
    assert top in head and says(head, hit[top]), (top, hit[top], got.text)


def test_the_most_by_a_single_player_still_ranks_players(match):
    kills = {p: match.truth["players"][p]["kills"] for p in match.players}
    got = match.ask("the most kills by a single player")
    assert got.plan.group_by == ("player",), got.plan
    assert says(got.text.split(".")[0], max(kills.values())), got.text


def test_the_pairs_are_a_table_of_their_own_for_the_chart(match):
    pairs = _pairs_of_damage(match)
    got = match.ask("highest damage from one player to a single enemy player")
    table = got.pkg.data.transformed_data["pairs"]
    named = {r["pair"]: r["damage_to_players"] for r in table.rows}
    assert named and all(named[f"{a} on {b}"] == pairs[(a, b)] for a, b in (k.split(" on ", 1) for k in named)), named


# Round 52: a role said with the gods it is asked of, and a slip in a non-player's name


def _one_a_side(match) -> tuple[str, str, str]:
    """A role with one player a team, and the gods those two play."""
    for role in sorted({p.role for p in match.players.values()}):
        of = sorted((p for p, info in match.players.items() if info.role == role), key=lambda p: match.players[p].team)
        gods = [match.players[p].god for p in of]
        if len(of) == 2 and len(set(gods)) == 2 and all(
                sum(i.god == g for i in match.players.values()) == 1 for g in gods):
            return role, gods[0], gods[1]
    raise AssertionError("a role with one player a team, each on a god of their own")


def test_a_role_said_with_its_gods_names_their_players(match):
    role, god_a, god_b = _one_a_side(match)
    players = {match.players[p].god: p for p in match.players}
    dealt = {g: match.truth["players"][players[g]]["damage_dealt"] for g in (god_a, god_b)}
    got = match.ask(f"between {god_a} and {god_b}, which {role.lower()} put out more damage")
    for god in (god_a, god_b):
        assert f"{players[god]} ({god})" in got.text and says(got.text, dealt[god]), (god, dealt, got.text)


@pytest.mark.parametrize(("typed", "npc"), [("gold fyry", "Gold Fury"), ("fire gaint", "Fire Giant")])
def test_a_slip_in_a_non_players_name_is_still_its_own_damage(match, typed, npc):
    dealt = sum(float(e["value1"]) for e in match.events if e.get("eventType") == "CombatMsg"
                and e.get("type") in ("Damage", "CritDamage") and e.get("sourceowner") == npc)
    got = match.ask(f"total damage the {typed} did?")
    assert f"{npc} dealt" in got.text and says(got.text, dealt), (dealt, got.text)


# Round 53: the least gold said as one word, the three parts of a KDA listed, one side's damage on the other


def test_the_poorest_is_the_least_gold(match):
    gold = {p: match.truth["players"][p]["gold"] for p in match.players}
    low = min(gold, key=gold.get)
    got = match.ask("which of the ten ended up poorest")
    assert got.text.startswith(f"{low} had the lowest gold") and says(got.text, gold[low]), (low, got.text)


@pytest.mark.parametrize("said", ["kills/deaths/assists", "kills deaths assists"])
def test_the_three_parts_listed_are_three_figures(match, said):
    name = sorted(match.players)[4]
    row = match.truth["players"][name]
    got = match.ask(f"{name} {said}?")
    assert got.plan.metrics == ("kills", "deaths", "assists"), got.plan
    assert all(says(got.text, row[k]) for k in ("kills", "deaths", "assists")), (row, got.text)


def test_slashed_figures_of_their_own_stay_one_figure(match):
    assert match.ask("whose kill/death ratio was best").plan.metrics == ("kd",)


@pytest.mark.parametrize(("template", "dealer"), [("how much dmg did chaos put on order", 2),
                                                  ("order's damage into the chaos gods, total", 1)])
def test_one_sides_damage_on_the_other_is_its_damage_to_players(match, template, dealer):
    want = sum(r["damage_to_players"] for r in match.truth["players"].values() if r["team"] == dealer)
    got = match.ask(template)
    assert got.text.startswith(f"Team {dealer} dealt") and says(got.text.split(".")[0], want), (want, got.text)


# Round 55: a sign joining two names is no part of the first


@pytest.mark.parametrize("sign", ["+", "&"])
def test_a_sign_between_two_bosses_joins_them(match, sign):
    hit: dict[str, float] = {}
    for e in match.events:
        if e.get("eventType") == "CombatMsg" and e.get("type") in ("Damage", "CritDamage") \
                and e.get("targetowner") in ("Gold Fury", "Fire Giant") and e.get("sourceowner") in match.players:
            hit[e["sourceowner"]] = hit.get(e["sourceowner"], 0) + float(e["value1"])
    top = max(hit, key=hit.get)
    got = match.ask(f"top damage dealt into the gold fury {sign} the fire giant, which player")
    head = got.text.split(" (ahead")[0]
    assert top in head and says(head, hit[top]), (top, hit[top], got.text)
