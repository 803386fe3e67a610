"""One-match reading classes, end to end on the simulated match of `spoken` (some deaths dealt by towers, bosses,
titans, minions and jungle camps), every figure from truth.py: a later clause that names only another cause of the
first clause's deaths; which non-players of a kind killed anybody, each named; a cause left out of a count of
deaths; objectives asked as a bare noun phrase, listed; and shares said to two decimals."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import percent
from tests.support.said import says


def _deaths_to(truth: dict, victim: str | None, ending: str) -> int:
    return sum(1 for d in truth["deaths_to_npcs"] if (victim is None or d["victim"] == victim)
               and d["killer"].endswith(ending))


def _most_npc_deaths(truth: dict) -> str:
    return max(truth["players"], key=lambda p: (truth["players"][p]["deaths_to_npcs"], p))


# ------------------------------------------------ a later clause naming only another cause of the same deaths

@pytest.mark.parametrize(("template", "first", "second"), [
    ("how often was {a} killed by a tower, and how many were by a titan", "Tower", "Titan"),
    ("{a} died to minions how many times? plus how many from the fire giant", "Swordsman", "Fire Giant")])
def test_a_clause_with_only_a_cause_counts_the_same_players_deaths_by_it(spoken, template, first, second):
    name = _most_npc_deaths(spoken.truth)
    got = spoken.ask(template.format(a=name))
    counts = (_deaths_to(spoken.truth, name, first) + (_deaths_to(spoken.truth, name, "Archer")
                                                       if first == "Swordsman" else 0),
              _deaths_to(spoken.truth, name, second))
    assert len(got.plan.parts) == 1, got.text
    sentences = got.text.split(". ")
    assert says(sentences[0], counts[0]) and says(sentences[1], counts[1]), (counts, got.text)


def test_a_count_of_all_deaths_then_those_to_non_players(spoken):
    name = _most_npc_deaths(spoken.truth)
    row = spoken.truth["players"][name]
    got = spoken.ask(f"{name.lower()}: deaths overall, plus how many came at the hands of npcs")
    assert says(got.text, row["deaths"]) and says(got.text, row["deaths_to_npcs"]), got.text


# ------------------------------------------------------------ which non-players of a kind killed anybody

@pytest.mark.parametrize(("template", "ending"), [("which minions ever took out a player?", ("Swordsman", "Archer")),
                                                  ("what towers killed anyone", ("Tower",))])
def test_which_of_a_kind_killed_anybody_names_each_killer(spoken, template, ending):
    deaths = [d for d in spoken.truth["deaths_to_npcs"] if d["killer"].endswith(ending)]
    got = spoken.ask(template)
    assert deaths and all(d["killer"] in got.text for d in deaths), got.text
    assert says(got.text, len(deaths)), got.text
    assert not any(d["killer"] in got.text for d in spoken.truth["deaths_to_npcs"] if not d["killer"].endswith(ending))


# --------------------------------------------------------------------------- a cause left out of deaths

@pytest.mark.parametrize("template", ["{a} deaths without counting tower ones", "how many times did {a} die, "
                                      "excluding the deaths caused by towers"])
def test_a_cause_left_out_of_a_players_deaths(spoken, template):
    name = _most_npc_deaths(spoken.truth)
    towers = _deaths_to(spoken.truth, name, "Tower")
    assert towers
    got = spoken.ask(template.format(a=name))
    assert says(got.text.split(". ")[0], spoken.truth["players"][name]["deaths"] - towers), got.text


def test_a_cause_left_out_of_a_sides_deaths(spoken):
    teams = {p: r["team"] for p, r in spoken.truth["players"].items()}
    by_players = sum(1 for k in spoken.truth["kills"] if teams[k["victim"]] == 2)
    npc = sum(1 for d in spoken.truth["deaths_to_npcs"] if teams[d["victim"]] == 2)
    got = spoken.ask("chaos deaths, leaving out the ones enemy gods dealt")
    assert says(got.text, npc) and not says(got.text, npc + by_players), got.text
    assert "'leaving'" not in got.text, got.text  # the words of leaving out are read, never said to be unused


# ------------------------------------------------------------ objectives asked as a bare noun phrase

@pytest.mark.parametrize(("question", "start", "end"), [("objectives before minute 12", 0, 720),
                                                        ("towers after the 15 min mark", 900, 10**6)])
def test_objectives_named_alone_are_listed_with_their_count(spoken, question, start, end):
    words = ("Tower",) if "towers" in question else ("Tower", "Phoenix", "Titan", "Fury", "Giant")
    taken = [o for o in spoken.truth["objectives"] if start <= o["second"] < end and any(w in o["target"] for w in words)]
    got = spoken.ask(question)
    assert taken and says(got.text.split(":")[0], len(taken)), got.text
    assert all(o["clock"] in got.text for o in taken), got.text


# ------------------------------------------------------------------------ shares to two decimals

def test_a_players_share_of_the_matchs_damage_is_said_to_two_decimals(spoken):
    name = max(spoken.truth["players"], key=lambda p: spoken.truth["players"][p]["damage_dealt"])
    whole = sum(r["damage_dealt"] for r in spoken.truth["players"].values())
    share = 100 * spoken.truth["players"][name]["damage_dealt"] / whole
    got = spoken.ask(f"what part of the game's damage was {name}'s, in %")
    assert percent(share) in got.text and says(got.text, share, tol=0.005), (share, got.text)


# ------------------------------------------------------------------------- healing by whom it healed

def _healing_on(log, target: str) -> dict[str, int]:
    """Each healer's healing done on `target` (truth.py's reading of the log's Healing events; self-heals count)."""
    from tests.support.truth_checks import truth_tool

    healed: dict[str, int] = {}
    for e in truth_tool.load(str(log))[0]:
        if e.get("type") == "Healing" and e.get("targetowner") == target:
            healed[e["sourceowner"]] = healed.get(e["sourceowner"], 0) + int(float(e["value1"]))
    return healed


def _most_healed(truth: dict) -> str:
    return max(truth["players"], key=lambda p: (truth["players"][p]["healing_received"], p))


@pytest.mark.parametrize("template", ["which player healed {a} the most", "who heals {a} most?"])
def test_who_healed_a_player_ranks_healers_on_that_player(spoken, template):
    name = _most_healed(spoken.truth)
    healed = _healing_on(spoken.log, name)
    top = max(healed.values())
    got = spoken.ask(template.format(a=name))
    lead = got.text.split(":")[0]
    assert any(p in lead for p, v in healed.items() if v == top) and says(got.text, top), (healed, got.text)
    assert " on " + name in got.text and "against" not in got.text, got.text


def test_how_much_one_player_healed_another(spoken):
    name = _most_healed(spoken.truth)
    healed = _healing_on(spoken.log, name)
    healer = max((p for p in healed if p != name), key=lambda p: (healed[p], p))
    got = spoken.ask(f"how much did {healer} heal {name}")
    assert says(got.text.split(". ")[0], healed[healer]), (healed[healer], got.text)


# ------------------------------------------------------------------------ hit the hardest, in the passive

@pytest.mark.parametrize("template", ["who got hit the hardest", "which chaos player was hit the most"])
def test_hit_hardest_in_the_passive_is_damage_taken(spoken, template):
    players = {p: r for p, r in spoken.truth["players"].items() if "chaos" not in template or r["team"] == 2}
    top = max(players, key=lambda p: players[p]["damage_taken"])
    got = spoken.ask(template)
    assert got.plan.metrics == ("damage_taken",), got.plan.metrics
    assert top in got.text.split(":")[0] and says(got.text, players[top]["damage_taken"]), got.text
