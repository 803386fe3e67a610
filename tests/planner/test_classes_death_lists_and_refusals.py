"""Reading classes of the seventh round, end to end on the simulated match of `match` (some deaths dealt by
non-players), every figure from truth.py (its kill list, its deaths to non-players, its figures): a player said by
their god or by a side's role in a list of deaths or kills, being beaten said with
its cause, a figure of receiving said with "by" its receiver, a non-player said with a head noun as the subject of
damage, net worth (gold earned, said as a reading), and what the log cannot say of damage or of the draft
(refused)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.support.said import says

_SIDE = {1: "order", 2: "chaos"}


def _deaths_of(match, player: str) -> list[tuple[int, str]]:
    """(second, killer) of every death of `player`, whoever or whatever dealt the blow."""
    return sorted((e["_s"], e["sourceowner"]) for e in match.events
                  if e.get("type") == "KillingBlow" and e.get("targetowner") == player)


def _clock(second: int) -> str:
    return f"{second // 60}:{second % 60:02d}"


def _player_of(match, team: int, role: str) -> str:
    return next(p for p, info in match.players.items() if info.team == team and info.role == role)


def _with_npc_deaths(match) -> str:
    """A player some of whose deaths a non-player dealt, so a list of their deaths must hold both kinds."""
    npc_victims = Counter(d["victim"] for d in match.truth["deaths_to_npcs"])
    return max(sorted(npc_victims), key=lambda p: npc_victims[p])


# --------------------------------------------------------------------------- a player said by god or side role

@pytest.mark.parametrize("template", ["who killed {g}", "when did the {g} die", "who took out the {g}",
                                      "list every death of {g}"])
def test_a_death_list_of_a_player_said_by_their_god_is_theirs(match, template):
    player = _with_npc_deaths(match)
    deaths = _deaths_of(match, player)
    got = match.ask(template.format(g=match.players[player].god.lower()))
    assert got.plan.metrics == ("death_events",), got.plan
    assert player in got.text and says(got.text, len(deaths)), (got.text, len(deaths))
    others = [p for p in match.players if p != player]
    assert not any(f"{p} at " in got.text for p in others), got.text  # nobody else's deaths listed


@pytest.mark.parametrize("template", ["what killed the {g}", "how did {g} die", "why did the {g} keep dying",
                                      "the {g}'s death recap"])
def test_a_death_recap_of_a_player_said_by_their_god_is_theirs(match, template):
    player = _with_npc_deaths(match)
    deaths = _deaths_of(match, player)
    got = match.ask(template.format(g=match.players[player].god.lower()))
    assert got.plan.metrics == ("death_recap",), got.plan
    assert got.text.startswith(f"{player} died {len(deaths)} times"), (got.text, len(deaths))


@pytest.mark.parametrize(("template", "order"), [("when did {s} {r} die for the first time", 0),
                                                 ("the {s} {r}'s last death, when", -1),
                                                 ("when did the {r} on {s} die first", 0)])
def test_the_first_or_last_death_of_a_side_role_is_that_players(match, template, order):
    player = _with_npc_deaths(match)
    info = match.players[player]
    second, _ = _deaths_of(match, player)[order]
    got = match.ask(template.format(s=_SIDE[info.team], r=info.role.lower()))
    assert player in got.text and _clock(second) in got.text, (got.text, _clock(second))
    assert f"of {player} was {player}'s" not in got.text, got.text  # said once


@pytest.mark.parametrize("template", ["who killed the {s} {r}", "who took out {s}'s {r}",
                                      "who slew the {s} side {r}"])
def test_killing_a_side_role_names_that_player_as_the_victim(match, template):
    for team in (1, 2):  # the side said of the role is the victim's side, never read as the killers'
        player = _player_of(match, team, "Jungle")
        got = match.ask(template.format(s=_SIDE[team], r="jungler"))
        assert player in got.text and says(got.text, len(_deaths_of(match, player))), (got.text, player)


@pytest.mark.parametrize("template", ["how many kills on the {s} {r}", "who killed {s}'s {r} the most",
                                      "kills on the {r} of {s}"])
def test_kills_on_a_side_role_are_kills_with_that_victim(match, template):
    player = _player_of(match, 2, "Support")
    on = Counter(k["killer"] for k in match.truth["kills"] if k["victim"] == player)
    got = match.ask(template.format(s="chaos", r="support"))
    assert any(f.dimension == "victim" and f.values == (player,) for f in got.plan.filters), got.plan
    want = max(on.values()) if "most" in template else sum(on.values())
    assert says(got.text, want), (got.text, on)


# --------------------------------------------------------------------------- being beaten, with its cause

@pytest.mark.parametrize(("template", "killers"), [("who got stomped by minions", r"Archer|Swordsman|Brute"),
                                                   ("which players got wrecked by towers", r"Tower"),
                                                   ("who got clapped by the fire giant?", r"Fire Giant"),
                                                   # killing slang in the passive, before "by"
                                                   ("list every1 who got shot down by towers", r"Tower"),
                                                   ("who was deleted by minions", r"Archer|Swordsman|Brute"),
                                                   ("which ppl got one-shot by the fire giant", r"Fire Giant")])
def test_being_beaten_by_a_kind_names_its_victims(match, template, killers):
    # METRICS.md's kinds by name: minions (Archer, Swordsman, Brute and their fire and champion forms), towers, bosses
    victims = Counter(d["victim"] for d in match.truth["deaths_to_npcs"] if re.search(killers, d["killer"]))
    got = match.ask(template)
    assert got.plan.metrics == ("death_events",), got.plan
    assert victims and all(v in got.text for v in victims), (got.text, victims)


# --------------------------------------------------------------------------- a figure of receiving "by" its receiver

@pytest.mark.parametrize(("template", "key"), [("damage taken by {p}", "damage_taken"),
                                                ("how much damage was taken by the {g}", "damage_taken"),
                                                ("healing received by {p}?", "healing_received")])
def test_a_figure_of_receiving_by_a_player_is_that_players_own(match, template, key):
    player = sorted(match.players)[2]
    want = match.truth["players"][player][key]
    got = match.ask(template.format(p=player, g=match.players[player].god))
    assert says(got.text, want), (got.text, want)
    assert f"from {player}" not in got.text, got.text


# --------------------------------------------------------------------------- a non-player with a head noun

@pytest.mark.parametrize("template", ["which npc entity dealt the most damage", "what npc unit dealt the most dmg",
                                      "which npc creature dealt the most damage?"])
def test_a_non_player_said_with_a_head_noun_is_the_subject_of_damage(match, template):
    npc_damage = match.truth["npc_damage"]
    leader = max(npc_damage, key=lambda k: npc_damage[k])
    got = match.ask(template)
    assert leader in got.text and says(got.text, npc_damage[leader]), (got.text, leader)


# --------------------------------------------------------------------------- what the log cannot say

@pytest.mark.parametrize("question", [
    "how much physical damage did {p} do", "magical dmg by {p} vs the rest", "who dealt the most true damage",
    "how much of {p}'s damage was magic damage", "which gods got banned", "who was first pick",
    "what was the draft order", "was {g} picked last"])
def test_damage_kinds_and_the_draft_are_refused(match, question):
    player = sorted(match.players)[0]
    got = match.ask(question.format(p=player, g=match.players[player].god))
    assert got.refusal is not None, got.text
    assert not re.search(r"\d", got.text.split("You could ask")[0]), got.text  # no nearby number


@pytest.mark.parametrize("question", ["how long did the draft take", "who picked {g}"])
def test_the_lobby_and_who_played_a_god_stay_answered(match, question):
    player = sorted(match.players)[0]
    got = match.ask(question.format(g=match.players[player].god))
    assert got.refusal is None, got.text
    if "picked" in question:
        assert player in got.text, got.text


# --------------------------------------------------------------------------- net worth is gold, said as a reading

@pytest.mark.parametrize("question", ["who had the highest networth", "whose net worth was biggest?"])
def test_net_worth_is_gold_earned_said_as_a_reading(match, question):
    gold = {p: match.truth["players"][p]["gold"] for p in match.players}
    leader = max(gold, key=lambda p: gold[p])
    got = match.ask(question)
    assert got.plan.metrics == ("gold",) and leader in got.text and says(got.text, gold[leader]), got.text
    assert any("worth" in a for a in got.plan.assumptions), got.plan.assumptions
