"""One player's figure split by a slot, end to end on the simulated match of `spoken`, checked against truth.py:
damage split by the enemy it hit, kills by the ability of the killing blow."""

from __future__ import annotations

import re

import pytest

from tests.support.said import says


def nth_player(truth: dict, n: int) -> str:
    return sorted(truth["players"])[n]


# ------------------------------------------------------------------------------------ damage split by whom it hit

@pytest.mark.parametrize(("template", "n"), [("who did {p} damage the most", 0),
                                             ("which enemy god did {p} hit hardest", 3),
                                             ("which enemy took the most damage from {p}", 5),
                                             ("which opponent did {p} deal the most damage to", 7)])
def test_the_enemy_a_player_hit_hardest_is_the_one_they_damaged_most(spoken, template, n):
    player = nth_player(spoken.truth, n)
    split = spoken.truth["players"][player]["damage_to_each_player"]
    target, amount = max(split.items(), key=lambda kv: kv[1])
    a = spoken.ask(template.format(p=player))
    assert target in a.text and says(a.text, amount), a.text


@pytest.mark.parametrize(("template", "n"), [("{p} damage to each enemy", 1), ("{p}'s damage split by enemy", 6),
                                             ("how much damage did {p} do per opponent", 8)])
def test_a_players_damage_to_each_enemy_names_every_enemy_with_its_amount(spoken, template, n):
    player = nth_player(spoken.truth, n)
    a = spoken.ask(template.format(p=player))
    for target, amount in spoken.truth["players"][player]["damage_to_each_player"].items():
        assert target in a.text and says(a.text, amount), (target, a.text)
    assert "minion" not in a.text.lower(), a.text


# ------------------------------------------------------------------------------------- kills by the killing blow

@pytest.mark.parametrize(("template", "n"), [("what did {p} get their kills with", 2),
                                             ("what did {p} kill people with", 4),
                                             ("what did {p} land killing blows with", 9)])
def test_what_a_player_killed_with_is_their_kills_by_ability(spoken, template, n):
    player = nth_player(spoken.truth, n)
    by_ability = spoken.truth["players"][player]["kills_by_ability"]
    assert by_ability
    a = spoken.ask(template.format(p=player))
    for ability, count in by_ability.items():
        assert ability in a.text, (ability, a.text)
        assert says(a.text, count), (ability, a.text)


# ----------------------------------------------------------------------------- several figures of one player

@pytest.mark.parametrize(("template", "figures"), [
    ("{p} k/d/a and gold", ("kills", "deaths", "assists", "gold")),
    ("{p}'s k / d / a", ("kills", "deaths", "assists")),
    ("damage dealt, taken and healing for {p}", ("damage_dealt", "damage_taken", "healing_done")),
    ("{p}'s damage done and taken", ("damage_dealt", "damage_taken")),
    ("healing done and received by {p}", ("healing_done", "healing_received")),
])
def test_every_figure_a_list_names_is_answered_with_its_number(spoken, template, figures):
    player = nth_player(spoken.truth, 4)
    row = spoken.truth["players"][player]
    a = spoken.ask(template.format(p=player))
    for figure in figures:
        assert says(a.text, row[figure]), (figure, a.text)


# ------------------------------------------------------------------------------- items counted by a partial name

def _bought(truth: dict) -> tuple[str, str, int]:
    """A player, an item of several words they bought, and how many times they bought it."""
    for player in sorted(truth["players"]):
        items = truth["players"][player]["items"]
        for item in sorted(set(items)):
            if " " in item and "'" not in item:
                return player, item, items.count(item)
    raise AssertionError("no item of several words was bought")


@pytest.mark.parametrize("template", ("how many {items} did {p} buy", "how many {lower} did {p} purchase",
                                      "number of {lower} {p} bought"))
def test_an_item_named_in_the_plural_or_in_lower_case_is_counted(spoken, template):
    player, item, times = _bought(spoken.truth)
    a = spoken.ask(template.format(items=item + "s", lower=item.lower() + "s", p=player))
    assert item in a.text and says(a.text, times), a.text


def test_an_item_named_by_the_last_word_of_its_name_alone_is_counted(spoken):
    every = {i for row in spoken.truth["players"].values() for i in row["items"]}
    heads = {}
    for item in every:
        heads.setdefault(item.split()[-1].lower(), []).append(item)
    player, item = next((p, i) for p in sorted(spoken.truth["players"]) for i in sorted(set(
        spoken.truth["players"][p]["items"])) if " " in i and len(heads[i.split()[-1].lower()]) == 1)
    times = spoken.truth["players"][player]["items"].count(item)
    a = spoken.ask(f"how many {item.split()[-1].lower()}s did {player} buy")
    assert item in a.text and says(a.text, times), a.text


# --------------------------------------------------------------------- non-players credited with kills, by side

def _tower_deaths(truth: dict, side: str | None) -> int:
    return sum(1 for d in truth["deaths_to_npcs"] if "Tower" in d["killer"] and (side is None or d["killer"].startswith(side)))


@pytest.mark.parametrize(("question", "side"), [("how many kills did the towers get", None),
                                                ("how many players did the order towers kill", "Order"),
                                                ("how many kills did chaos towers secure", "Chaos")])
def test_kills_credited_to_towers_are_the_deaths_they_dealt(spoken, question, side):
    a = spoken.ask(question)
    assert says(a.text, _tower_deaths(spoken.truth, side)), a.text


@pytest.mark.parametrize("question", ["how much damage did the towers deal", "total damage done by towers"])
def test_tower_damage_is_the_towers_alone(spoken, question):
    want = sum(v for k, v in spoken.truth["npc_damage"].items() if "Tower" in k)
    a = spoken.ask(question)
    assert says(a.text, want), a.text


# ------------------------------------------------------------------------------ deaths with every cause included

@pytest.mark.parametrize("question", ["total deaths, including those to towers, minions and camps",
                                      "how many deaths were there counting deaths to npcs"])
def test_deaths_including_non_players_count_every_death(spoken, question):
    a = spoken.ask(question)
    assert says(a.text, len(spoken.truth["kills"]) + len(spoken.truth["deaths_to_npcs"])), a.text


def test_a_players_deaths_including_non_players(spoken):
    player = nth_player(spoken.truth, 2)
    row = spoken.truth["players"][player]
    a = spoken.ask(f"how many times did {player} die, including to minions and towers")
    assert says(a.text, row["deaths"]), a.text  # a player's deaths are of any cause (METRICS.md)


@pytest.mark.parametrize("question", ["how many kills did chaos get", "kills for the order side?",
                                      "how many kills did order team get"])
def test_a_side_word_alone_is_the_sides_players_not_its_towers(question):
    from combat_analysis.planner import plan_question
    from tests.support.planner import sample_vocabulary

    plan = plan_question(question, sample_vocabulary())
    assert plan.metrics[0] == "kills"
    assert not any(f.dimension in ("source", "source_kind") for f in plan.filters)


# ------------------------------------------------------------------------ "when" a figure was at its most: a minute

def _kill_minutes(truth: dict, team: int | None = None, player: str | None = None) -> dict[int, int]:
    """Kills per minute of the match (METRICS: minute m holds match seconds 60m up to 60m + 60), by a team or a
    player, from truth.py's kill list."""
    teams = {name: p["team"] for name, p in truth["players"].items()}
    minutes: dict[int, int] = {}
    for kill in truth["kills"]:
        if (team is None or teams.get(kill["killer"]) == team) and player in (None, kill["killer"]):
            minutes[kill["second"] // 60] = minutes.get(kill["second"] // 60, 0) + 1
    return minutes


def _top_minutes(minutes: dict[int, int]) -> tuple[list[int], int]:
    most = max(minutes.values())
    return sorted(m for m, n in minutes.items() if n == most), most


@pytest.mark.parametrize(("template", "team"), [("when did order get the most kills", 1),
                                                ("when were chaos getting the most kills?", 2),
                                                ("when did team 1 peak on kills", 1)])
def test_when_a_side_got_the_most_kills_is_its_top_minute(spoken, template, team):
    tops, most = _top_minutes(_kill_minutes(spoken.truth, team=team))
    a = spoken.ask(template)
    assert all(f"minute {m}" in a.text.lower() for m in tops) and says(a.text, most), a.text
    assert f"team {team}" in a.text, a.text  # whose kills, said


@pytest.mark.parametrize(("template", "n"), [("when did {p} get the most kills", 0), ("when did {p} kill the most", 4)])
def test_when_a_player_got_the_most_kills_is_their_top_minute(spoken, template, n):
    player = sorted(spoken.truth["players"], key=lambda p: -spoken.truth["players"][p]["kills"])[n % 2]
    tops, most = _top_minutes(_kill_minutes(spoken.truth, player=player))
    a = spoken.ask(template.format(p=player))
    assert all(f"minute {m}" in a.text.lower() for m in tops) and says(a.text, most), a.text


# ----------------------------------------------------------------- a role's "matchup": its two players compared

@pytest.mark.parametrize(("template", "role"), [("how did the {w} matchup go", "Jungle"), ("{w} match-up?", "Middle"),
                                                ("how did the {w} duel go", "Support"), ("{w} matchups", "Carry")])
def test_a_roles_matchup_compares_its_two_players(spoken, template, role):
    words = {"Jungle": "jungle", "Middle": "mid", "Support": "supp", "Carry": "adc"}
    a = spoken.ask(template.format(w=words[role]))
    players = {name: p for name, p in spoken.truth["players"].items() if p["role"] == role}
    assert len(players) == 2 and a.refusal is None, a.text
    for name, p in players.items():
        assert name in a.text and says(a.text, p["kills"]) and says(a.text, p["damage_dealt"]), (name, a.text)


@pytest.mark.parametrize("template", ["who got the most kills and when", "who had the most kills, and when?",
                                      "most kills? when"])
def test_a_bare_when_after_a_ranking_is_the_leaders_top_minute(spoken, template):
    kills = {name: p["kills"] for name, p in spoken.truth["players"].items()}
    leader = max(kills, key=lambda name: kills[name])
    assert sorted(kills.values())[-2] < kills[leader]  # the simulated match has one leader
    tops, most = _top_minutes(_kill_minutes(spoken.truth, player=leader))
    a = spoken.ask(template)
    assert a.text.startswith(leader) and says(a.text, kills[leader]), a.text
    assert all(f"minute {m}" in a.text.lower() for m in tops) and says(a.text, most), a.text


@pytest.mark.parametrize("template", ["who got the most kills in the late game and when", "most kills late game? when"])
def test_a_bare_when_keeps_the_leaders_window(spoken, template):
    # METRICS.md: the late game is from match second 1200 on
    late = [k for k in spoken.truth["kills"] if k["second"] >= 1200]
    kills: dict[str, int] = {}
    for kill in late:
        kills[kill["killer"]] = kills.get(kill["killer"], 0) + 1
    leader = max(kills, key=lambda name: kills[name])
    assert sorted(kills.values())[-2] < kills[leader]  # the simulated match has one late-game leader
    tops, most = _top_minutes(_kill_minutes({**spoken.truth, "kills": late}, player=leader))
    a = spoken.ask(template)
    assert a.text.startswith(leader) and says(a.text, kills[leader]), a.text
    assert all(f"minute {m}" in a.text.lower() for m in tops) and says(a.text, most), a.text
    assert all(int(m) >= 20 for m in re.findall(r"minute (\d+)", a.text.lower())), a.text
