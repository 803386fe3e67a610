"""Meaning read in classes, end to end on a simulated match (some deaths given to towers, bosses, titans, minions
and jungle camps), every figure checked against truth.py: slang for a figure, sides, causes of death, subjects of
every kind, aggregates, any N and any number of parts, whole lists, phases, small words, framing words, refusals."""

from __future__ import annotations

from collections import Counter

import pytest

from combat_analysis.contracts.plan import Intent
from tests.support.said import says


def leader(truth: dict, figure: str, lowest: bool = False) -> tuple[str, float]:
    rows = sorted(truth["players"].items(), key=lambda kv: kv[1][figure], reverse=not lowest)
    return rows[0][0], rows[0][1][figure]


def player_of(truth: dict, team: int, role: str) -> str:
    return next(p for p, r in truth["players"].items() if r["team"] == team and r["role"] == role)


def all_deaths(truth: dict) -> list[dict]:
    """Every player death, by a player or not, in order."""
    return sorted([*truth["kills"], *truth["deaths_to_npcs"]], key=lambda k: k["second"])


# ------------------------------------------------------------------------------------------------ slang for a figure

@pytest.mark.parametrize(("question", "figure"), [
    ("which player was the most fed", "gold"),  # being fed is being ahead in gold ("fed" as a verb is dying)
    ("who popped off hardest", "kills"),
    ("who soaked the most damage", "damage_taken"),
    ("who blocked the most damage", "mitigated"),
])
def test_slang_names_its_figure(spoken, question, figure):
    name, value = leader(spoken.truth, figure)
    a = spoken.ask(question)
    assert name in a.text and says(a.text, value), a.text


@pytest.mark.parametrize("question", ["who had the chunkiest crit", "whose crit was the biggest",
                                      "which player landed the meatiest crit"])
def test_a_crit_in_slang_is_the_biggest_hit_with_the_biggest_critical_hit_beside_it(spoken, question):
    name, value = leader(spoken.truth, "biggest_hit")
    a = spoken.ask(question)
    assert a.text.index(name) < a.text.index("critical"), a.text
    assert says(a.text, value) and "biggest critical hit" in a.text, a.text


# ------------------------------------------------------------------------------------------- sides and perspective

@pytest.mark.parametrize("question", ["did order or chaos deal more damage", "which side did more damage, order or chaos",
                                      "damage of chaos vs order"])
def test_both_sides_totals_when_a_side_is_the_subject(spoken, question):
    a = spoken.ask(question)
    for team in ("1", "2"):
        assert says(a.text, spoken.truth["teams"][team]["damage_dealt"]), a.text


@pytest.mark.parametrize(("question", "side"), [("how many towers did chaos lose", "Chaos"),
                                                ("towers order gave up", "Order"),
                                                ("how many of chaos's towers fell", "Chaos")])
def test_towers_a_side_lost_are_its_own_towers_that_fell(spoken, question, side):
    fell = sum(1 for o in spoken.truth["objectives"] if o["target"] == f"{side} Tower")
    a = spoken.ask(question)
    assert says(a.text, fell), a.text


@pytest.mark.parametrize(("question", "owner", "kind"), [
    ("which towers did team 1 knock down", "Chaos", "Tower"), ("what phoenixes did chaos take", "Order", "Phoenix"),
    ("which towers has order lost so far", "Order", "Tower"), ("what towers did team two lose and when", "Chaos", "Tower"),
])
def test_the_structures_a_side_took_or_lost_are_listed_with_their_times(spoken, question, owner, kind):
    fell = [o for o in spoken.truth["objectives"] if o["target"] == f"{owner} {kind}"]
    assert fell, "the simulated match has none of these: pick another"
    a = spoken.ask(question)
    assert a.plan.intent == Intent.EVENT_LIST and says(a.text, len(fell)), a.text
    assert all(o["clock"] in a.text for o in fell) and a.text.count(f"the {owner} {kind} at") == len(fell), a.text


@pytest.mark.parametrize(("question", "team"), [("when did chaos players die", 2), ("when did team 1 get killed", 1),
                                          ("when did the order guys die?", 1)])
def test_a_sides_deaths_are_listed_with_their_times(spoken, question, team):
    players = spoken.truth["players"]
    deaths = [d for d in (*spoken.truth["kills"], *spoken.truth["deaths_to_npcs"]) if players[d["victim"]]["team"] == team]
    a = spoken.ask(question)
    assert a.plan.intent == Intent.EVENT_LIST, a.plan
    assert a.text.startswith(f"Team {team} died {len(deaths)} times"), a.text


@pytest.mark.parametrize(("question", "team", "role"), [("the order jungler's gold", 1, "Jungle"),
                                                        ("how much gold did chaos's support earn", 2, "Support")])
def test_a_sides_role_is_that_one_player(spoken, question, team, role):
    name = player_of(spoken.truth, team, role)
    a = spoken.ask(question)
    assert a.text.startswith(name) or a.text.index(name) < 5, a.text
    assert says(a.text, spoken.truth["players"][name]["gold"]), a.text


@pytest.mark.parametrize(("question", "figure"), [("the side with more kills", "kills"),
                                                  ("the team that had the most gold", "gold")])
def test_a_side_at_the_head_of_a_ranking_ranks_the_sides(spoken, question, figure):
    teams = spoken.truth["teams"]
    a = spoken.ask(question)
    assert says(a.text, teams["1"][figure]) and says(a.text, teams["2"][figure]), a.text


def test_a_side_in_a_window_is_that_sides_total(spoken):
    early = spoken.truth["windows"]["first_10_minutes"]
    want = sum(r["gold"] for p, r in early.items() if spoken.truth["players"][p]["team"] == 2)
    a = spoken.ask("gold chaos earned in the first 10 minutes")
    assert says(a.text, want), a.text


# ------------------------------------------------------------------------------------------------ causes of death

@pytest.mark.parametrize(("question", "killer"), [("who got killed by the fire giant", "Fire Giant"),
                                                  ("which players died to a titan", "Titan"),
                                                  ("who was executed by towers", "Tower")])
def test_deaths_by_a_kind_of_killer_name_its_victims(spoken, question, killer):
    victims = {d["victim"] for d in spoken.truth["deaths_to_npcs"] if killer in d["killer"]}
    assert victims
    a = spoken.ask(question)
    assert all(v in a.text for v in victims), a.text


@pytest.mark.parametrize("question", ["how many deaths were not caused by enemy players",
                                      "deaths that did not come from an enemy god", "how often did players die to npcs"])
def test_deaths_not_by_players_count_every_other_killer(spoken, question):
    a = spoken.ask(question)
    assert says(a.text, len(spoken.truth["deaths_to_npcs"])), a.text


@pytest.mark.parametrize("question", ["who was the first player to die", "who died first"])
def test_the_first_death_is_of_any_kind(spoken, question):
    first = all_deaths(spoken.truth)[0]
    a = spoken.ask(question)
    assert first["victim"] in a.text, a.text


# ------------------------------------------------------------------------------------------------- subject kinds

@pytest.mark.parametrize("question", ["fire giant total damage output", "how much damage did the fire giant deal",
                                      "the fire giant's combined dmg"])
def test_a_non_player_subject_is_its_own_damage(spoken, question):
    a = spoken.ask(question)
    assert says(a.text, spoken.truth["npc_damage"]["Fire Giant"]), a.text


def test_a_god_subject_is_its_player(spoken):
    name, row = next(iter(spoken.truth["players"].items()))
    a = spoken.ask(f"how many kills did {row['god'].lower()} get")
    assert says(a.text, row["kills"]), a.text


# ----------------------------------------------------------------------------------------------------- aggregates

@pytest.mark.parametrize(("question", "figure", "lowest"), [("which role had the lowest average gold", "gold", True),
                                                            ("role with the best average damage", "damage_dealt", False),
                                                            ("the position that had the most average kills", "kills",
                                                             False)])
def test_a_roles_average_is_its_total_over_its_two_players(spoken, question, figure, lowest):
    roles = spoken.truth["roles"]
    role = (min if lowest else max)(roles, key=lambda r: roles[r]["average"][figure])
    a = spoken.ask(question)
    assert role in a.text and says(a.text, roles[role][figure] / 2, tol=1), a.text


def test_an_average_ratio_across_players(spoken):
    kd = [r["kills"] / max(r["deaths"], 1) for r in spoken.truth["players"].values()]
    a = spoken.ask("what was the average k/d across all players")
    assert says(a.text, sum(kd) / len(kd), tol=0.01), a.text


# ------------------------------------------------------------------------------------- any N, any number of parts

@pytest.mark.parametrize("n", [2, 3, 4])
def test_any_n_abilities(spoken, n):
    top = [a for a, _ in spoken.truth["top_abilities"][:n]]
    a = spoken.ask(f"the {n} abilities that did the most damage")
    assert [a.text.index(x) for x in top] == sorted(a.text.index(x) for x in top), a.text


def test_numbers_in_words(spoken):
    top = sorted(spoken.truth["players"], key=lambda p: -spoken.truth["players"][p]["assists"])[:3]
    a = spoken.ask("name the three players with the most assists")
    assert all(p in a.text for p in top), a.text


@pytest.mark.parametrize(("question", "figures"), [
    ("most kills, most deaths and most assists", [("kills", False), ("deaths", False), ("assists", False)]),
    ("who had the fewest deaths, and who had the most gold", [("deaths", True), ("gold", False)]),
    ("highest damage, lowest healing", [("damage_dealt", False), ("healing_done", True)]),
])
def test_each_superlative_ranks_its_own_figure(spoken, question, figures):
    a = spoken.ask(question)
    for figure, lowest in figures:
        name, value = leader(spoken.truth, figure, lowest)
        assert name in a.text and says(a.text, value), (figure, a.text)


# ---------------------------------------------------------------------------------------------------- whole lists

@pytest.mark.parametrize("question", ["what items did the support build", "show the supports' builds"])
def test_a_roles_build_covers_both_players(spoken, question):
    a = spoken.ask(question)
    for team in (1, 2):
        name = player_of(spoken.truth, team, "Support")
        assert name in a.text and spoken.truth["players"][name]["items"][0] in a.text, a.text


def test_every_kill_by_a_player_names_the_victims(spoken):
    name = max(spoken.truth["players"], key=lambda p: spoken.truth["players"][p]["kills"])
    victims = set(spoken.truth["players"][name]["victims"])
    a = spoken.ask(f"list all kills by {name}")
    assert all(v in a.text for v in victims), a.text


# ----------------------------------------------------------------------------------------------- series and phases

@pytest.mark.parametrize("question", ["how did damage change across the phases of the match",
                                      "damage in the early, mid and late game"])
def test_phases_give_each_phase(spoken, question):
    w = spoken.truth["windows"]
    a = spoken.ask(question)
    for phase in ("early_game", "mid_game", "late_game"):
        assert says(a.text, sum(r["damage_dealt"] for r in w[phase].values()), tol=1), (phase, a.text)


def test_analysing_a_role_summarises_its_players(spoken):
    a = spoken.ask("analyse the jungle players")
    for team in (1, 2):
        name = player_of(spoken.truth, team, "Jungle")
        assert name in a.text and says(a.text, spoken.truth["players"][name]["kills"]), a.text


# ------------------------------------------------------------------------------------------------------ small words

@pytest.mark.parametrize("question", ["most damage mitigated by one player", "highest mitigation by a single player"])
def test_one_player_is_not_minute_one(spoken, question):
    name, value = leader(spoken.truth, "mitigated")
    a = spoken.ask(question)
    assert a.plan.window is None and name in a.text and says(a.text, value), a.text


@pytest.mark.parametrize("frame", ["in this one", "in the scrim", "this game", "in the lobby"])
def test_framing_words_are_not_scope(spoken, frame):
    name, value = leader(spoken.truth, "kills")
    a = spoken.ask(f"who got the most kills {frame}")
    assert a.plan.intent != Intent.REFUSE and name in a.text and says(a.text, value), a.text
    assert not any("ignored" in n or "not used" in n for n in a.plan.assumptions), a.plan.assumptions


# ------------------------------------------------------------------------------------ what the log cannot say

@pytest.mark.parametrize(("question", "lacks"), [
    ("how long was {p} stunned in total", "how long"),
    ("how much prize money did the winners get", "prize"),
    ("what rank is {p}", "rank"),
    ("what was {p}'s ping", "ping"),
    ("what level did {p} reach", "level"),
])
def test_what_the_log_lacks_is_refused_by_name_with_questions_near_it(spoken, question, lacks):
    name = next(iter(spoken.truth["players"]))
    a = spoken.ask(question.format(p=name))
    assert a.plan.intent == Intent.REFUSE and a.refusal is not None, a.text
    assert lacks in a.refusal.reason.lower(), a.refusal.reason
    if "{p}" in question:
        assert any(name in s for s in a.refusal.suggestions), a.refusal.suggestions


# ------------------------------------------------------------------------------- abilities by kind, rivals, pronouns

@pytest.mark.parametrize("question", ["did {p} deal more damage with abilities or basic attacks",
                                      "{p} damage: autos vs skills"])
def test_basic_attacks_against_abilities_gives_both(spoken, question):
    name = next(iter(spoken.truth["players"]))
    abilities = spoken.truth["players"][name]["abilities"]
    basic = sum(v for k, v in abilities.items() if k.endswith("Basic Attack"))
    a = spoken.ask(question.format(p=name))
    assert says(a.text, basic) and says(a.text, sum(abilities.values()) - basic), a.text


@pytest.mark.parametrize("question", ["{p}'s damage not counting basic attacks", "damage {p} dealt besides autos"])
def test_basic_attacks_left_out(spoken, question):
    name = next(iter(spoken.truth["players"]))
    abilities = spoken.truth["players"][name]["abilities"]
    a = spoken.ask(question.format(p=name))
    assert says(a.text, sum(v for k, v in abilities.items() if not k.endswith("Basic Attack"))), a.text


@pytest.mark.parametrize("question", ["who was {p}'s nemesis", "who killed {p} the most"])
def test_who_killed_a_player_most(spoken, question):
    killers = {p: Counter(k["killer"] for k in spoken.truth["kills"] if k["victim"] == p).most_common()
               for p in spoken.truth["players"]}
    # a player one killer took down more often than any other did
    name = next(p for p, ks in killers.items() if len(ks) == 1 or ks[0][1] > ks[1][1])
    killers = killers[name]
    a = spoken.ask(question.format(p=name))
    assert killers[0][0] in a.text and says(a.text, killers[0][1]), a.text


@pytest.mark.parametrize("question", ["how many gods did {g} kill", "how many enemy gods did {g} take down",
                                      "how many players did {g} take out"])
def test_gods_as_the_victims_are_no_grouping(spoken, question):
    name, row = max(spoken.truth["players"].items(), key=lambda kv: kv[1]["kills"])
    a = spoken.ask(question.format(g=row["god"].lower()))
    assert name in a.text and says(a.text, row["kills"]), a.text


@pytest.mark.parametrize("question", ["how many towers fell, and who took them", "who destroyed towers and how many"])
def test_who_and_how_many_lists_the_takers_and_counts_them(spoken, question):
    towers = [o for o in spoken.truth["objectives"] if o["target"].endswith("Tower")]
    a = spoken.ask(question)
    assert says(a.text, len(towers)) and all(o["killer"] in a.text for o in towers[:3]), a.text
