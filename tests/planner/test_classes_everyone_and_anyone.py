"""One-match reading classes, end to end on the simulated match of `spoken` (some deaths dealt by towers, bosses,
titans, minions and camps), every figure from truth.py: everyone of one side, each with their own figure; a yes or
no about anybody doing a thing, answered with who did; a second figure asked through "of it"; a list asked with
its count; and "the first N" after a time preposition, read as minutes."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.said import says

_MINIONS = ("Swordsman", "Archer")  # the minion killers `spoken` writes in (tests/planner/conftest.py)


def _side(truth: dict, team: int) -> list[str]:
    return [p for p, v in truth["players"].items() if v["team"] == team]


# ------------------------------------------------------------------- everyone of one side, each with a figure

@pytest.mark.parametrize(("template", "team", "figure"), [
    ("deaths for everyone on chaos", 2, "deaths"), ("each order player's gold", 1, "gold"),
    ("list the assists of every team 2 player", 2, "assists"), ("kills for everybody on order pls", 1, "kills")])
def test_everyone_of_one_side_is_each_player_of_it(spoken, template, team, figure):
    got = spoken.ask(template)
    players = _side(spoken.truth, team)
    assert got.plan.group_by == ("player",), (got.plan.group_by, got.text)
    for player in players:
        assert player in got.text and says(got.text, spoken.truth["players"][player][figure]), (player, got.text)
    others = [p for p in spoken.truth["players"] if p not in players]
    assert not any(p in got.text.split(":")[0] or f"{p}:" in got.text for p in others), got.text
    assert f"team {team}'s players" in got.text, got.text


def test_the_enemy_players_of_the_asker_are_the_other_side(spoken):
    got = spoken.ask("damage of every enemy player, we were order")
    for player in _side(spoken.truth, 2):
        assert f"{player}:" in got.text and says(got.text, spoken.truth["players"][player]["damage_dealt"]), got.text
    assert not any(f"{p}:" in got.text for p in _side(spoken.truth, 1)), got.text


# --------------------------------------------------------------- a yes or no about anybody, answered with who

def _bought_by_some(truth: dict) -> tuple[str, Counter]:
    """An item some players bought and others did not, with each buyer's count."""
    buyers: dict[str, Counter] = {}
    for player, figures in truth["players"].items():
        for item in figures["items"]:
            buyers.setdefault(item, Counter())[player] += 1
    item = next(i for i, c in sorted(buyers.items()) if 2 <= len(c) <= 8 and " " in i)
    return item, buyers[item]


@pytest.mark.parametrize("template", ["did anybody purchase {item}", "has anyone picked up {item}? which players",
                                      "did any player get {item}"])
def test_did_anyone_buy_an_item_names_every_buyer_and_nobody_else(spoken, template):
    item, buyers = _bought_by_some(spoken.truth)
    got = spoken.ask(template.format(item=item.lower()))
    for player, count in buyers.items():
        assert f"{player}: {count}" in got.text, (player, count, got.text)
    assert f"{len(buyers)} players" in got.text, got.text
    assert not any(f"{p}:" in got.text for p in spoken.truth["players"] if p not in buyers), got.text


def test_a_yes_or_no_on_deaths_to_a_kind_lists_those_deaths_with_no_caveat(spoken):
    deaths = [d for d in spoken.truth["deaths_to_npcs"] if d["killer"] in _MINIONS]
    got = spoken.ask("did anybody die to minions")
    assert says(got.text, len(deaths)) and all(d["victim"] in got.text for d in deaths), got.text
    assert "not applied" not in got.text, got.text


def test_did_anyone_then_a_superlative_is_still_the_leader(spoken):
    players = spoken.truth["players"]
    top = max(players, key=lambda p: players[p]["gold"])
    got = spoken.ask("did anyone earn the most gold")
    assert got.text.startswith(top) and says(got.text, players[top]["gold"]), got.text


# ------------------------------------------------------------------- a second figure asked through "of it"

@pytest.mark.parametrize(("template", "first", "second"), [
    ("damage {p} received, and what part of it was mitigated", "damage_taken", "mitigated"),
    ("{p}'s damage taken, how much of that was mitigated", "damage_taken", "mitigated")])
def test_a_figure_of_its_own_asked_of_the_first_is_answered_beside_it(spoken, template, first, second):
    player = sorted(spoken.truth["players"])[3]
    figures = spoken.truth["players"][player]
    got = spoken.ask(template.format(p=player))
    assert says(got.text, figures[first]) and says(got.text, figures[second]), got.text


# ------------------------------------------------------------------------------ a list asked with its count

@pytest.mark.parametrize("template", ["which players did minions kill, and how often in all",
                                      "minions killed whom? and how many times"])
def test_who_died_to_a_kind_and_how_many_times_names_them_and_the_total(spoken, template):
    deaths = [d for d in spoken.truth["deaths_to_npcs"] if d["killer"] in _MINIONS]
    got = spoken.ask(template)
    assert says(got.text, len(deaths)), got.text
    assert all(d["victim"] in got.text for d in deaths), got.text


# ------------------------------------------------------------ "the first N" after a time preposition: minutes

@pytest.mark.parametrize(("template", "minutes"), [("the player with most deaths during the first 10", 10),
                                                   ("most deaths within the first 8?", 8)])
def test_the_first_n_after_a_time_preposition_is_minutes(spoken, template, minutes):
    deaths = Counter(k["victim"] for k in spoken.truth["kills"] if k["second"] < 60 * minutes)
    deaths.update(d["victim"] for d in spoken.truth["deaths_to_npcs"] if d["second"] < 60 * minutes)
    top = max(deaths.values())
    leaders = [p for p, n in deaths.items() if n == top]
    got = spoken.ask(template)
    assert got.plan.window is not None and got.plan.window.end_s == 60 * minutes, got.plan
    assert any(p in got.text for p in leaders) and says(got.text, top), (leaders, top, got.text)


# ------------------------------------------------------- whom a subject killed, said with the subject first

def test_a_player_then_killed_whom_lists_the_victims(spoken):
    kills = spoken.truth["kills"]
    player = max(spoken.truth["players"], key=lambda p: sum(k["killer"] == p for k in kills))
    victims = {k["victim"] for k in kills if k["killer"] == player}
    got = spoken.ask(f"{player} killed whom?")
    assert all(v in got.text for v in victims), (victims, got.text)


def test_a_kind_then_killed_whom_lists_the_deaths_it_dealt(spoken):
    deaths = [d for d in spoken.truth["deaths_to_npcs"] if d["killer"] in _MINIONS]
    got = spoken.ask("so the minions killed who")
    assert says(got.text, len(deaths)) and all(d["victim"] in got.text for d in deaths), got.text


# ---------------------------------------------------------- a god named as the subject is said in the answer

@pytest.mark.parametrize(("template", "figure"), [("total dmg from the {god}", "damage_dealt"),
                                                  ("how much cc did {god} inflict", "cc_applied")])
def test_a_god_named_as_the_subject_is_said_beside_its_player(spoken, template, figure):
    player, row = sorted(spoken.truth["players"].items())[2]
    got = spoken.ask(template.format(god=row["god"].lower()))
    assert player in got.text and row["god"] in got.text and says(got.text, row[figure]), got.text
    assert "not used" not in got.text, got.text
