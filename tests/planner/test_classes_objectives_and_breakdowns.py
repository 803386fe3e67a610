"""Reading classes of round 43, end to end on the simulated match of `match`, every figure from truth.py: a breakdown
asked after a clause about one player is that player's, its share naming its base; the bosses said as "jungle
bosses" are the bosses (as a cause of death, as a target, never the role); a side's towers dealing damage said with
"dmg"; an objective as the one that died is its taking, never the players' deaths; and "the kills" after a count of
objectives are who took them."""

from __future__ import annotations

import pytest

from tests.support.said import says


def _named(match, n: int) -> str:
    return sorted(match.players)[n]


# ------------------------------------------------------- a breakdown after a clause about one player is theirs

@pytest.mark.parametrize("template", ["was {p} any good? kills by ability", "{p} - how'd he do. damage per ability"])
def test_a_breakdown_after_a_clause_about_a_player_is_that_players(match, template):
    name = max(match.players, key=lambda p: match.truth["players"][p]["kills"])
    row = match.truth["players"][name]
    key = "kills_by_ability" if "kills" in template else "abilities"
    split = {a: (v if isinstance(v, int | float) else v["damage"]) for a, v in row[key].items()}
    top = max(split, key=split.get)
    got = match.ask(template.format(p=name))
    assert f"{name}'s " in got.text and f"{top}: " in got.text, got.text
    total = sum(split.values())
    assert f"of {name}'s " in got.text and says(got.text, round(split[top] / total * 100, 2), tol=0.01), got.text
    others = [a for p, r in match.truth["players"].items() if p != name for a in r[key] if a not in row[key]]
    assert not any(f"{a}: " in got.text for a in others), got.text


# ------------------------------------------------------------------------- "jungle bosses" are the bosses

def _boss_deaths(match) -> int:
    return sum(1 for d in match.truth["deaths_to_npcs"] if d["killer"] in ("Fire Giant", "Gold Fury"))


@pytest.mark.parametrize("question", ["how often did players die to the jungle bosses",
                                      "deaths caused by jungle bosses (fury, giant)"])
def test_the_jungle_bosses_as_a_cause_of_death_are_the_bosses(match, question):
    want = _boss_deaths(match)
    assert want > 0
    got = match.ask(question)
    assert "bosses" in got.text and says(got.text.split(".")[0], want), (got.text, want)


def test_the_jungle_bosses_as_a_target_are_the_bosses_and_no_role(match):
    rows = match.truth["players"]
    name = max(rows, key=lambda p: rows[p]["damage_to_bosses"])
    got = match.ask("who put the most dmg into the jungle bosses")
    assert name in got.text.split(".")[0] and says(got.text.split(".")[0], rows[name]["damage_to_bosses"]), got.text
    assert "Jungle players" not in got.text, got.text


# ------------------------------------------------------------------------- a side's towers dealing "dmg"

@pytest.mark.parametrize("side", ["Order", "Chaos"])
def test_a_sides_towers_dealing_dmg_are_that_towers_damage(match, side):
    want = match.truth["npc_damage"].get(f"{side} Tower", 0)
    got = match.ask(f"how much dmg was done by the {side.lower()} towers in all")
    assert f"{side} Tower" in got.text and says(got.text.split(".")[0], want), (got.text, want)


# ------------------------------------------------------------------------- an objective that died was taken

@pytest.mark.parametrize(("objective", "said"), [("Fire Giant", "the giant"), ("Gold Fury", "gold fury")])
def test_an_objective_that_died_was_taken_never_the_players_deaths(match, objective, said):
    taken = sum(1 for o in match.truth["objectives"] if o["target"] == objective)
    got = match.ask(f"how many times did {said} die?")
    assert says(got.text.split(".")[0], taken), got.text
    assert not says(got.text, match.truth["total_deaths"]), got.text


# ------------------------------------------------------------------ "the kills" after a count of objectives

def test_the_kills_after_a_count_of_objectives_are_who_took_them(match):
    taken = [o for o in match.truth["objectives"] if o["kind"] == "structure" and "Tower" in o["target"]]
    got = match.ask("how many towers fell, and who had the last hits")
    assert says(got.text, len(taken)), got.text
    for o in taken[:5]:
        assert f"{o['clock']} (by {o['killer']}" in got.text, (o, got.text)
