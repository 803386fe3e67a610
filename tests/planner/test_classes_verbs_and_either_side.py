"""Reading classes of round 44, end to end on the simulated match of `match`, every figure from truth.py: "dmg" as the
verb of whom a player hit; an objective "last hit" is its taking; both sides set as either on the gold lead ask which
led, never a yes or no of the first; a hit said as a noun ("the best hit", "X's best hit") is the biggest single hit,
never damage taken; and how long a freeze lasted is refused (the log has no crowd-control length)."""

from __future__ import annotations

import pytest

from tests.support.said import says

_SIDE = {1: "Order", 2: "Chaos"}


def test_whom_a_player_dmged_most_is_their_top_target(match):
    name = sorted(match.players)[2]
    hit = match.truth["players"][name]["damage_to_each_player"]
    top = max(hit, key=hit.get)
    got = match.ask(f"who did {name} dmg hardest")
    assert top in got.text.split(".")[0] and says(got.text.split(".")[0], hit[top]), got.text


@pytest.mark.parametrize(("kind", "said"), [("Tower", "who last-hit the towers"), ("Fire Giant", "who last hits the giants"),
                                            ("Gold Fury", "which player last hit a gold fury")])
def test_an_objective_last_hit_is_who_took_it(match, kind, said):
    taken = [o for o in match.truth["objectives"] if kind in o["target"]]
    if kind == "Fire Giant":
        said = said.replace("giants", "fire giants")
    got = match.ask(said)
    assert taken, kind
    for o in taken[:5]:
        assert f"{o['clock']} (by {o['killer']}" in got.text, (o, got.text)


@pytest.mark.parametrize("minute", [8, 15, 20])
def test_both_sides_set_as_either_on_the_gold_lead_ask_which_led(match, minute):
    diff = match.truth["team_gold_difference_by_minute"][minute - 1]
    assert diff != 0
    leader = 1 if diff > 0 else 2
    got = match.ask(f"at {minute} min was chaos or order up on gold, and by how much")
    assert not got.text.startswith(("Yes", "No")), got.text
    assert f"team {leader} led" in got.text and says(got.text, abs(diff)), (got.text, diff)


@pytest.mark.parametrize("template", ["whats the best hit of the game", "how big was {p}'s best hit"])
def test_a_hit_said_as_a_noun_is_the_biggest_single_hit(match, template):
    name = sorted(match.players)[1]
    want = match.truth["players"][name]["biggest_hit"] if "{p}" in template else match.truth["biggest_hit"]["value"]
    got = match.ask(template.format(p=name))
    assert says(got.text.split("(")[0], want) and "damage" not in got.text.split(".")[0].replace("single", ""), got.text


def test_how_long_a_freeze_lasted_is_refused(match):
    got = match.ask("for how many seconds were people frozen by ymir")
    assert got.refusal is not None and "how long crowd control lasted" in got.text, got.text


@pytest.mark.parametrize(("template", "key"), [("{side} kills per minute?", "kills"), ("how much gold a minute did {side} make", "gold")])
@pytest.mark.parametrize("team", [1, 2])
def test_one_sides_figure_per_minute_is_its_rate(match, template, key, team):
    minutes = match.truth["duration_seconds"] / 60
    want = sum(r[key] for r in match.truth["players"].values() if r["team"] == team) / minutes
    got = match.ask(template.format(side=_SIDE[team].lower()))
    assert says(got.text.split("(")[0], round(want, 2), tol=0.01), (got.text, want)
