"""One-match reading classes, end to end on the simulated match of `spoken`, every figure from truth.py: a second
question after "and" typed with a contracted question word, or set against the first with "vs"; "what" as the doer
of damage (an ability or item effect, not a player); two sides' structures as the dealers of damage, said "vs";
doing badly ("inted", "threw") measured by another figure; a kind set against a damage target; a part of a player's
own figure asked "how much of"; and a group's players each and summed."""

from __future__ import annotations

import pytest

from tests.support.said import says
from tests.support.truth_checks import player_at

# --------------------------------------------------------------- a second question, contracted or set against

@pytest.mark.parametrize("joint", ["and whats", "and what's", "& whats"])
def test_a_contracted_question_word_after_and_starts_a_second_clause(spoken, joint):
    got = spoken.ask(f"top killer? {joint} each side's kill total".replace("? ", " ", 1))
    kills = {t: spoken.truth["teams"][str(t)]["kills"] for t in (1, 2)}
    leader = max(spoken.truth["players"], key=lambda p: spoken.truth["players"][p]["kills"])
    assert leader in got.text and says(got.text, kills[1]) and says(got.text, kills[2]), (kills, got.text)


def test_a_second_question_set_against_the_first_with_vs(spoken):
    name = player_at(spoken.truth, 1, "Support")
    row = spoken.truth["players"][name]
    got = spoken.ask(f"how much dmg did {name} soak vs how much did she dish out")
    assert says(got.text, row["damage_taken"]) and says(got.text, row["damage_dealt"]), got.text


# ------------------------------------------------------------------------------------- "what" did the damage

def test_what_as_the_doer_without_basic_attacks_is_an_ability_or_item_effect(spoken):
    ranked = [(a, v) for a, v in spoken.truth["top_abilities"] if not a.endswith("Basic Attack")]
    got = spoken.ask("leaving autos aside, what dealt the most dmg")
    assert got.plan.group_by == ("ability",), got.plan.group_by
    assert ranked[0][0] in got.text.split(":")[0] and says(got.text, ranked[0][1]), (ranked[:2], got.text)


# --------------------------------------------------------------------------- two sides' structures as dealers

def test_two_sides_towers_said_vs_each_with_its_damage(spoken):
    dealt = dict(spoken.truth["npc_damage"])
    got = spoken.ask("chaos towers vs order towers - how much damage did each one do")
    assert says(got.text, dealt["Order Tower"]) and says(got.text, dealt["Chaos Tower"]), (dealt, got.text)
    assert "from Chaos Tower and Order Tower" not in got.text, got.text  # the rows ranked are not said again


def test_the_dealers_kind_said_again_in_brackets_is_no_count_of_it(spoken):
    dealt = dict(spoken.truth["npc_damage"])
    got = spoken.ask("total damage the towers dealt (towers only, either side)")
    assert says(got.text, dealt["Order Tower"] + dealt["Chaos Tower"]), (dealt, got.text)
    assert "destroyed" not in got.text, got.text


# ------------------------------------------------------------------------- doing badly, by another figure

@pytest.mark.parametrize(("template", "figure"), [("who inted hardest, kda-wise", "kda"),
                                                  ("biggest thrower by k/d?", "kd")])
def test_doing_badly_measured_by_a_figure_is_its_lowest(spoken, template, figure):
    values = {p: r[figure] for p, r in spoken.truth["players"].items()}
    low = min(values.values())
    got = spoken.ask(template)
    assert got.plan.order == "asc", got.plan
    assert any(p in got.text.split(":")[0] for p, v in values.items() if v == low) and says(got.text, low, tol=0.01)


def test_inting_the_most_with_no_other_figure_is_still_the_most_deaths(spoken):
    most = max(r["deaths"] for r in spoken.truth["players"].values())
    got = spoken.ask("who was inting the most")
    assert got.plan.metrics == ("deaths",) and got.plan.order != "asc" and says(got.text, most), got.text


# ------------------------------------------------------------------ a kind set against a damage target

def test_kinds_set_against_a_damage_target_add_no_figure(spoken):
    top = max(spoken.truth["players"], key=lambda p: spoken.truth["players"][p]["damage_to_players"])
    got = spoken.ask("who put the most damage into real players rather than towers or minions")
    assert got.plan.metrics == ("damage_to_players",), got.plan.metrics
    assert top in got.text.split(":")[0] and says(got.text, spoken.truth["players"][top]["damage_to_players"])
    assert "destroyed" not in got.text, got.text


# ---------------------------------------------------------------- a part of one's own figure, "how much of"

def test_how_much_of_a_players_damage_hit_gods_gives_the_part_and_the_whole(spoken):
    name = player_at(spoken.truth, 2, "Carry")
    row = spoken.truth["players"][name]
    got = spoken.ask(f"how much of {name}s damage landed on enemy gods")
    share = 100 * row["damage_to_players"] / row["damage_dealt"]
    assert says(got.text, row["damage_to_players"]) and says(got.text, row["damage_dealt"]), got.text
    assert says(got.text, share, tol=0.006), (share, got.text)


# -------------------------------------------------------------------------- a group's players, each and summed

@pytest.mark.parametrize(("template", "figure"), [("gold for the junglers, each and together", "gold"),
                                                  ("both mids' assists individually plus the total", "assists")])
def test_a_roles_players_each_and_summed(spoken, template, figure):
    role = "Jungle" if "jungle" in template else "Middle"
    players = {p: r[figure] for p, r in spoken.truth["players"].items() if r["role"] == role}
    got = spoken.ask(template)
    assert all(p in got.text and says(got.text, v) for p, v in players.items()), (players, got.text)
    assert says(got.text, sum(players.values())), got.text
