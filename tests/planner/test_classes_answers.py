"""One-match answers by class, end to end on the simulated match of `spoken` (some deaths dealt by towers, bosses,
titans, minions and jungle camps; some structures finished by minions), every figure from truth.py: kinds of ability
left out, a non-player as a killer of players or of structures, what a side lost, two players' difference, a share of
a subject's own whole, a count and the part of it not to players, a side's roster, and a tie said as one."""

from __future__ import annotations

import re

import pytest

from tests.support.said import says

_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")  # where each number stands in the text
MINIONS = ("Swordsman", "Archer", "Brute", "Champion Swordsman")


def player_of(truth: dict, team: int, role: str) -> str:
    return next(p for p, r in truth["players"].items() if r["team"] == team and r["role"] == role)


def item_effects(truth: dict) -> set[str]:
    """Abilities that are items' effects (METRICS.md: item procs): named like an item, or used by several players."""
    items = {i for row in truth["players"].values() for i in row["items"]}
    return {a for a, users in truth["ability_players"].items() if a in items or len(users) > 1}


# ------------------------------------------------------------------------------- A: kinds of ability left out

@pytest.mark.parametrize("question", ["strongest ability by damage (no autos, no item procs)",
                                      "which real ability did the most damage overall",
                                      "top damage ability, not counting basic attacks or item effects",
                                      "highest damage ability without autos and without item procs"])
def test_abilities_with_basic_attacks_and_item_effects_left_out(spoken, question):
    items = item_effects(spoken.truth)
    ranked = [(a, v) for a, v in spoken.truth["top_abilities"]
              if not a.endswith("Basic Attack") and a not in items]
    name, value = ranked[0]
    a = spoken.ask(question)
    assert name in a.text and says(a.text, value), a.text
    assert not any(a.text.startswith(b) or f"is {b}" in a.text for b, _ in spoken.truth["top_abilities"]
                   if b.endswith("Basic Attack")), a.text


@pytest.mark.parametrize("question", ["best ability by damage, no autos", "top ability by damage w/o basic attacks"])
def test_no_autos_leaves_out_basic_attacks_only(spoken, question):
    name, value = next((a, v) for a, v in spoken.truth["top_abilities"] if not a.endswith("Basic Attack"))
    a = spoken.ask(question)
    assert name in a.text and says(a.text, value), a.text
    assert "without basic attacks" in a.text, a.text


# ------------------------------------------------------------------- B: a non-player as the killer of players

@pytest.mark.parametrize(("question", "killer"), [("how many people did the fire giant kill", "Fire Giant"),
                                                  ("how many players did the towers kill", "Tower"),
                                                  ("how many gods did the titans kill", "Titan")])
def test_people_a_non_player_killed_are_its_victims(spoken, question, killer):
    deaths = [d for d in spoken.truth["deaths_to_npcs"] if killer in d["killer"]]
    assert deaths
    a = spoken.ask(question)
    assert says(a.text, len(deaths)), a.text
    assert all(d["victim"] in a.text for d in deaths), a.text


# ------------------------------------------------------------- C: structures finished by a non-player

@pytest.mark.parametrize("question", ["how many structures got last hit by minions",
                                      "which towers were finished off by minions",
                                      "structures destroyed by minions"])
def test_structures_finished_by_minions_name_each_killer(spoken, question):
    by_minions = [o for o in spoken.truth["objectives"] if o["kind"] == "structure" and o["killer"] in MINIONS]
    assert by_minions
    a = spoken.ask(question)
    assert says(a.text, len(by_minions)), a.text
    assert all(o["killer"] in a.text and o["clock"] in a.text for o in by_minions), a.text


# ----------------------------------------------------------------------------------- D: what a side lost

@pytest.mark.parametrize(("question", "side"), [("we were order, how many of our towers/phoenixes did we lose", "Order"),
                                                ("how many towers/phoenixes did chaos lose", "Chaos"),
                                                ("we're chaos - how many towers and phoenixes did we lose", "Chaos")])
def test_a_sides_towers_and_phoenixes_lost_are_summed(spoken, question, side):
    lost = [o for o in spoken.truth["objectives"] if o["target"] in (f"{side} Tower", f"{side} Phoenix")]
    a = spoken.ask(question)
    assert says(a.text, len(lost)), a.text
    assert "winner" not in a.text.lower(), a.text


def test_we_were_a_side_reads_our_towers_as_that_sides(spoken):
    lost = sum(1 for o in spoken.truth["objectives"] if o["target"] == "Order Tower")
    a = spoken.ask("we were order. how many towers did we lose")
    assert says(a.text, lost), a.text


# ---------------------------------------------------------------------------- E: two players' difference

@pytest.mark.parametrize(("template", "figure"), [("gold diff {a} vs {b}", "gold"),
                                                  ("the gold difference between {a} and {b}", "gold"),
                                                  ("how far ahead was {a} over {b} in damage", "damage_dealt")])
def test_two_players_difference_gives_both_figures_and_the_gap(spoken, template, figure):
    truth = spoken.truth
    a_name, b_name = player_of(truth, 1, "Carry"), player_of(truth, 2, "Carry")
    a_value, b_value = truth["players"][a_name][figure], truth["players"][b_name][figure]
    a = spoken.ask(template.format(a=a_name, b=b_name))
    assert says(a.text, a_value) and says(a.text, b_value) and says(a.text, abs(a_value - b_value)), a.text
    assert "team" not in a.text.lower().split(".")[0], a.text


# ------------------------------------------------------------------------- F: a share of the subject's own whole

@pytest.mark.parametrize(("template", "part"), [("how much of {a}'s damage went into enemy gods, in %", "damage_to_players"),
                                                ("what percent of {a}'s damage was to gods", "damage_to_players"),
                                                ("what share of {a}'s dmg went to structures", "damage_to_structures")])
def test_a_share_of_a_players_own_damage(spoken, template, part):
    name = player_of(spoken.truth, 1, "Solo")
    row = spoken.truth["players"][name]
    a = spoken.ask(template.format(a=name))
    assert says(a.text, row[part] / row["damage_dealt"] * 100, tol=0.1), a.text
    assert says(a.text, row["damage_dealt"]) and "damage dealt" in a.text, a.text
    assert "team 1's" not in a.text, a.text


def test_a_share_of_a_sides_own_damage(spoken):
    team = spoken.truth["teams"]["2"]
    a = spoken.ask("what share of chaos's damage went to enemy gods")
    assert says(a.text, team["damage_to_players"] / team["damage_dealt"] * 100, tol=0.1), a.text


# -------------------------------------------------------------- G: a count and the part of it not to players

def _died_to_npcs(truth: dict) -> str:
    return max(truth["players"], key=lambda p: (truth["players"][p]["deaths_to_npcs"], p))


@pytest.mark.parametrize("template", ["{a} deaths? and how many of those werent to enemy gods",
                                      "how many times did {a} die, and how many of them didnt come from players",
                                      "{a}'s deaths, and how many of those weren't to enemy players"])
def test_a_players_deaths_and_those_not_to_players(spoken, template):
    name = _died_to_npcs(spoken.truth)
    row = spoken.truth["players"][name]
    assert row["deaths_to_npcs"]
    a = spoken.ask(template.format(a=name))
    total_at = next(m.start() for m in _NUMBER.finditer(a.text) if abs(float(m.group().replace(",", "")) - row["deaths"]) < 0.5)
    part = [m for m in _NUMBER.finditer(a.text) if abs(float(m.group().replace(",", "")) - row["deaths_to_npcs"]) < 0.5]
    assert part and part[-1].start() > total_at, a.text
    assert "was not used" not in a.text, a.text


@pytest.mark.parametrize("question", ["overall kills vs overall deaths, and how many deaths werent to players",
                                      "total kills vs total deaths in the match, and how many deaths weren't to enemy gods"])
def test_match_totals_and_the_deaths_not_to_players(spoken, question):
    truth = spoken.truth
    a = spoken.ask(question)
    assert says(a.text, truth["total_kills"]) and says(a.text, truth["total_deaths"]), a.text
    assert says(a.text, truth["total_deaths"] - truth["total_kills"]), a.text


# --------------------------------------------------------------------------------------- H: a side's roster

@pytest.mark.parametrize(("question", "team"), [("who was on chaos? names and gods", 2), ("who played for order", 1),
                                                ("who were on order, names + roles", 1)])
def test_a_sides_roster_names_every_player_and_god(spoken, question, team):
    mine = {p: r for p, r in spoken.truth["players"].items() if r["team"] == team}
    a = spoken.ask(question)
    assert all(p in a.text and r["god"] in a.text for p, r in mine.items()), a.text
    assert not any(p in a.text for p, r in spoken.truth["players"].items() if r["team"] != team), a.text


# ------------------------------------------------------------------------------------------ I: a tie is said

def test_two_players_level_on_a_count_are_tied(spoken):
    players = spoken.truth["players"]
    pair = next(((a, b, f) for f in ("kills", "deaths", "assists") for a in sorted(players) for b in sorted(players)
                 if a < b and players[a][f] == players[b][f]), None)
    assert pair is not None
    a_name, b_name, figure = pair
    a = spoken.ask(f"{a_name} vs {b_name} {figure}")
    assert "tied" in a.text and says(a.text, players[a_name][figure]), a.text
