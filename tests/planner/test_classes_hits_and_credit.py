"""Reading classes of the sixth round, end to end on the simulated match of `match` (some deaths dealt by towers,
phoenixes, titans, fire minions and bosses), every figure from truth.py's events: a hitting verb whose object is a
boss or a structure is the damage dealt to it, a yes or no about a non-player killing anyone is its kills, and a
misspelt figure word keeps its first letter."""

from __future__ import annotations

from collections import Counter

import pytest

from combat_analysis.planner.read.reading import read_metrics
from tests.support.said import says

_DAMAGE = ("Damage", "CritDamage")
MINION_NAMES = ("Swordsman", "Archer", "Brute")  # METRICS.md: and their Champion and Fire variants


# --------------------------------------------------------------------------- a hit on a boss or a structure

def _damage_to(match, target: str, by: str) -> Counter:
    out: Counter = Counter()
    for e in match.events:
        if e.get("type") in _DAMAGE and e.get("targetowner") == target and e.get("sourceowner") in match.players:
            player = match.players[e["sourceowner"]]
            out[getattr(player, by) if by != "player" else e["sourceowner"]] += float(e["value1"])
    return out


def _hit_target(match) -> str:
    hit = Counter(e["targetowner"] for e in match.events if e.get("type") in _DAMAGE
                  and e.get("sourceowner") in match.players and e.get("targetowner") in ("Fire Giant", "Gold Fury"))
    return hit.most_common(1)[0][0]


@pytest.mark.parametrize(("template", "by"), [
    ("which role hit the {t} the most", "role"), ("who damaged the {t} the most overall", "player"),
    ("which god damaged the {t} most", "god"), ("which player did the most dmg on the {t}", "player")])
def test_a_hitting_verb_on_a_boss_is_the_damage_dealt_to_that_boss(match, template, by):
    target = _hit_target(match)
    board = _damage_to(match, target, by)
    leader, value = board.most_common(1)[0]
    got = match.ask(template.format(t=target.lower()))
    assert got.refusal is None and str(leader) in got.text and says(got.text, value), (got.text, board.most_common(3))
    # the damage to every boss together is another, nearby figure
    bosses = _damage_to(match, "Fire Giant", by) + _damage_to(match, "Gold Fury", by)
    assert bosses[leader] == value or not says(got.text, bosses[leader]), got.text


def test_the_damage_to_one_boss_named_after_damage_is_that_boss_alone(match):
    target = _hit_target(match)
    board = _damage_to(match, target, "player")
    leader, value = board.most_common(1)[0]
    got = match.ask(f"who did the most damage to the {target.lower()}?")
    assert leader in got.text and says(got.text, value), (got.text, board.most_common(3))


def test_the_last_hit_on_a_structure_stays_its_taking(match):
    tower = next(e for e in match.events if e.get("type") == "KillingBlow" and "Tower" in e.get("targetowner", "")
                 and e.get("sourceowner") in match.players)
    side = tower["targetowner"].split()[0].lower()
    got = match.ask(f"who got the last hit on the first {side} tower")
    assert tower["sourceowner"] in got.text and "damage" not in got.text, got.text


# --------------------------------------------------------------------------- did a non-player kill anyone

def _deaths_to(match, kind_names) -> int:
    return sum(1 for e in match.events if e.get("type") == "KillingBlow" and e.get("targetowner") in match.players
               and any(k in e.get("sourceowner", "") for k in kind_names))


@pytest.mark.parametrize(("template", "names"), [
    ("did minions kill anyone?", MINION_NAMES), ("did the towers ever kill anybody", ("Tower",)),
    ("have the phoenixes got any kills", ("Phoenix",)), ("did the titans kill any players", ("Titan",))])
def test_a_yes_or_no_about_a_non_player_killing_anyone_counts_its_kills(match, template, names):
    want = _deaths_to(match, names)
    got = match.ask(template)
    assert got.refusal is None and says(got.text, want), (got.text, want)
    player_kills = sum(1 for e in match.events if e.get("type") == "KillingBlow"
                       and e.get("sourceowner") in match.players and e.get("targetowner") in match.players)
    assert not says(got.text, player_kills), got.text


def test_a_yes_or_no_about_a_player_killing_anyone_stays_their_kills(match):
    player = next(iter(match.players))
    want = sum(1 for e in match.events if e.get("type") == "KillingBlow" and e.get("sourceowner") == player
               and e.get("targetowner") in match.players)
    got = match.ask(f"did {player} kill anyone?")
    assert player in got.text and says(got.text, want), got.text


# --------------------------------------------------------------------------- a slip keeps its first letter

@pytest.mark.parametrize("typed", ["who picks up boots first", "the most hills", "any bills to pay"])
def test_a_word_one_letter_from_a_figure_at_its_start_is_no_slip_of_it(typed):
    assert read_metrics(typed).evidence != "fuzzy", read_metrics(typed)


@pytest.mark.parametrize(("typed", "meant"), [("who got the most kils", "kills"), ("most healling", "healing_done"),
                                               ("who had the most asissts", "assists")])
def test_a_slip_inside_a_figure_word_is_still_read(typed, meant):
    assert meant in read_metrics(typed).ids, read_metrics(typed)
