"""Subjects of one figure that are no player's name, end to end on a simulated match where some deaths come from
towers, phoenixes, titans and (fire) minions and some tower damage from phoenixes, every figure checked against
truth.py's events: gods standing for players head to head, an item's proc as the one dealing damage, two
non-players each, a side's structures compared, a side's role set against the other side's, a side's role asked
whom it hit, causes of death with a narrower kind left out, and gold the log does not hold."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.support.said import says

_DAMAGE = ("Damage", "CritDamage")


def _damage(match, where) -> int:
    return int(sum(float(e["value1"]) for e in match.events if e.get("type") in _DAMAGE and where(e)))


def _player_kills(match) -> list[tuple[str, str]]:
    return [(e["sourceowner"], e["targetowner"]) for e in match.events if e.get("type") == "KillingBlow"
            and e["sourceowner"] in match.players and e["targetowner"] in match.players]


# ---------------------------------------------------------------------------- gods standing for players head to head

def _pair(match, kills: bool) -> tuple[str, str]:
    """Two players of opposite sides: with kills between them (or, `kills` False, none from the first)."""
    pairs = Counter(_player_kills(match))
    for a, pa in match.players.items():
        for b, pb in match.players.items():
            if pa.team != pb.team and (pairs[(a, b)] > 0) == kills:
                return a, b
    raise AssertionError("no pair")


@pytest.mark.parametrize("template", ["how many times did {a} kill {b}", "how many kills did {a} get on {b}",
                                      "did the {a} ever kill the {b}", "{a} kills on {b}?",
                                      "how many times did {a} slay {b} in the match"])
@pytest.mark.parametrize("with_kills", [True, False])
def test_a_god_killing_a_god_is_one_players_kills_on_the_other(match, template, with_kills):
    a, b = _pair(match, with_kills)
    want = Counter(_player_kills(match))[(a, b)]
    got = match.ask(template.format(a=match.players[a].god, b=match.players[b].god))
    assert got.refusal is None and says(got.text, want), got.text
    # head to head: neither player's own total of kills is the answer
    total = sum(1 for k, _ in _player_kills(match) if k == a)
    assert total == want or not says(got.text, total), got.text
    assert a in got.text and b in got.text, got.text


@pytest.mark.parametrize("template", ["how much damage did {a} do to {b}", "{a} dmg on {b}",
                                      "what damage did the {a} deal against the {b}", "how hard did {a} hit {b}"])
def test_a_gods_damage_to_a_god_is_one_players_damage_to_the_other(match, template):
    a, b = _pair(match, True)
    want = _damage(match, lambda e: e["sourceowner"] == a and e["targetowner"] == b)
    got = match.ask(template.format(a=match.players[a].god, b=match.players[b].god))
    assert got.refusal is None and says(got.text, want), got.text
    assert not says(got.text, match.truth["players"][a]["damage_dealt"]), got.text


# ----------------------------------------------------------------------------- gold the log does not hold, refused

@pytest.mark.parametrize("template", ["{p} passive gold income?", "{p}'s gold from passive income",
                                      "what was {p}'s passive gpm", "how much gold did {p} earn passively",
                                      "gold {p} made off the passive trickle", "how much gold did {p} spend in total",
                                      "total gold spent by {p}", "{p}'s overall spending", "how much gold was left unspent for {p}",
                                      "banked gold of {p} at the end"])
def test_gold_the_log_does_not_hold_is_refused_never_the_gold_earned(match, template):
    player = next(iter(match.players))
    got = match.ask(template.format(p=player))
    assert got.refusal is not None, got.text
    assert got.refusal.suggestions and not any(c.isdigit() for s in got.refusal.suggestions for c in s)
    assert not says(got.text, match.truth["players"][player]["gold"]), got.text


@pytest.mark.parametrize(("question", "reason"), [("total team spending for order and chaos", "spent on items"),
                                                  ("passive income per team", "passive gold income"),
                                                  ("which side had more passive gold", "passive gold income")])
def test_a_sides_gold_the_log_does_not_hold_is_refused(match, question, reason):
    got = match.ask(question)
    assert got.refusal is not None and reason in got.text, got.text


@pytest.mark.parametrize("template", ["how much gold did {p} earn", "{p} gold from minions",
                                      "which passive ability of {p} hit hardest"])
def test_gold_earned_and_passive_abilities_are_still_answered(match, template):
    player = next(iter(match.players))
    got = match.ask(template.format(p=player))
    assert "passive gold income" not in got.text, got.text
    assert got.refusal is None or "passive" in template, got.text


# ------------------------------------------------------------------------------------- two non-players, each one's

@pytest.mark.parametrize("template", ["what damage did the {a} and the {b} each do", "{a} and {b} damage, separately",
                                      "how much did the {a} and {b} deal respectively", "{a} vs {b} dmg",
                                      "dmg by {a} and {b} individually", "{a}, {b}: damage of each one"])
@pytest.mark.parametrize(("a", "b"), [("fire giant", "gold fury"), ("gold fury", "fire giant")])
def test_two_non_players_each_give_both_figures(match, template, a, b):
    want = {n: _damage(match, lambda e, n=n: e["sourceowner"] == n) for n in ("Fire Giant", "Gold Fury")}
    assert all(want.values())
    got = match.ask(template.format(a=a, b=b))
    assert got.refusal is None, got.text
    for name, value in want.items():
        assert re.search(rf"{name}\W+(?:with\s+)?{value:,}\b", got.text), (name, value, got.text)
    assert "was not used" not in got.text, got.text


# ------------------------------------------------------------------------ an item's effect as the one dealing damage

def _effect_damage(match, effect: str) -> dict[str, int]:
    per: Counter = Counter()
    for e in match.events:
        if e.get("type") in _DAMAGE and e.get("itemname") == effect and e["sourceowner"] in match.players:
            per[e["sourceowner"]] += int(float(e["value1"]))
    return dict(per)


@pytest.mark.parametrize("template", ["how much damage did {full} do", "what did the {short} deal across everyone",
                                      "{short} procs total dmg", "how much dmg came from {full} in the whole game",
                                      "total damage dealt by the {short}"])
@pytest.mark.parametrize(("full", "short"), [("Bumba's Cudgel", "cudgel"), ("Bragi's Harp", "harp")])
def test_an_items_effect_deals_the_damage_of_every_player_who_used_it(match, template, full, short):
    per = _effect_damage(match, full)
    assert per
    got = match.ask(template.format(full=full, short=short))
    assert got.refusal is None, got.text
    assert f"{sum(per.values()):,} in all, from {len(per)} player" in got.text, (per, got.text)
    top = max(per, key=per.get)
    assert f"{top}: {per[top]:,}" in got.text, got.text


def test_one_players_damage_with_an_items_effect_stays_theirs(match):
    per = _effect_damage(match, "Bumba's Cudgel")
    player = max(per, key=per.get)
    got = match.ask(f"how much damage did {player} do with the cudgel")
    assert says(got.text, per[player]) and "in all" not in got.text, got.text


# -------------------------------------------------------------------------- a side's role against the other side's

_SIDE = {1: "order", 2: "chaos"}
_ROLE_SAID = {"Support": "support", "Carry": "adc", "Jungle": "jungler", "Middle": "mid", "Solo": "solo"}


def _of(match, team: int, role: str) -> str:
    return next(p for p, r in match.players.items() if r.team == team and r.role == role)


@pytest.mark.parametrize(("template", "figure"), [
    ("did the {s1} {r1} get more kills than the {s2} {r2}", "kills"),
    ("{s1} {r1} vs {s2} {r2} gold", "gold"),
    ("who dealt more damage, the {r1} on {s1} or the {r2} on {s2}?", "damage_dealt"),
    ("did {s1}'s {r1} die more than {s2}'s {r2}", "deaths"),
])
@pytest.mark.parametrize(("r1", "r2"), [("Support", "Carry"), ("Middle", "Jungle")])
def test_a_sides_role_against_the_other_sides_role_compares_two_players(match, template, figure, r1, r2):
    a, b = _of(match, 2, r1), _of(match, 1, r2)
    got = match.ask(template.format(s1=_SIDE[2], r1=_ROLE_SAID[r1], s2=_SIDE[1], r2=_ROLE_SAID[r2]))
    assert got.refusal is None, got.text
    for player in (a, b):
        assert re.search(rf"{re.escape(player)}\W+{int(match.truth['players'][player][figure]):,}\b", got.text), got.text
    assert "was not used" not in got.text, got.text


@pytest.mark.parametrize(("template", "support_team"), [
    ("we played order - did their support have more kills than our carry", 2),
    ("as chaos, did our support end with more kills than the order adc", 2),
    ("as order, did my supp get more kills than the chaos adc", 1),
    ("i was on team 2, our carry vs the order support kills", 1),
])
def test_our_role_is_the_askers_sides(match, template, support_team):
    a, b = _of(match, support_team, "Support"), _of(match, 3 - support_team, "Carry")
    got = match.ask(template)
    assert got.refusal is None, got.text
    for player in (a, b):
        assert re.search(rf"{re.escape(player)}\W+{int(match.truth['players'][player]['kills'])}\b", got.text), got.text


# --------------------------------------------------------------------- a side's structures compared as damage dealers

@pytest.mark.parametrize("template", ["did {a}'s {k} hit harder than {b}'s over the game", "whose {k} did more damage",
                                      "{a} {k} vs {b} {k} damage", "did the {a} {k} deal more damage than the {b} {k}",
                                      "which side's {k} dealt more dmg", "did the {a} {k} or the {b} {k} hit hardest"])
@pytest.mark.parametrize("k", ["towers", "phoenixes"])
@pytest.mark.parametrize(("a", "b"), [("order", "chaos"), ("chaos", "order")])
def test_a_sides_structures_compared_on_the_damage_they_dealt(match, template, k, a, b):
    word = "Tower" if k == "towers" else "Phoenix"
    want = {side: _damage(match, lambda e, side=side: e["sourceowner"] == f"{side} {word}") for side in ("Order", "Chaos")}
    assert all(want.values())
    got = match.ask(template.format(a=a, b=b, k=k))
    assert got.refusal is None, got.text
    for side, value in want.items():
        assert re.search(rf"{side} {word}\W+(?:with\s+)?{value:,}\b", got.text), (side, value, got.text)
    leader = max(want, key=want.get)
    assert re.search(rf"\b(?:is|dealt by) {leader} {word}\b", got.text), got.text
    assert "took" not in got.text and "destroyed" not in got.text, got.text


# ------------------------------------------------------------------------------ causes with a narrower kind left out

def _npc_deaths(match, keep) -> list[dict]:
    return [e for e in match.events if e.get("type") == "KillingBlow" and e["targetowner"] in match.players
            and e["sourceowner"] not in match.players and keep(e["sourceowner"])]


@pytest.mark.parametrize(("template", "kept", "gone"), [
    ("how many deaths to structures but not the titan", ("Tower", "Phoenix", "Titan"), "Titan"),
    ("players died to structures how many times, excluding titans", ("Tower", "Phoenix", "Titan"), "Titan"),
    ("deaths to buildings other than phoenixes", ("Tower", "Phoenix", "Titan"), "Phoenix"),
    ("how many times did people die to minions, not counting the fire ones", ("Archer", "Swordsman", "Brute"), "Fire"),
    ("deaths to minions excluding the fire variants", ("Archer", "Swordsman", "Brute"), "Fire"),
    ("deaths to towers but not to phoenixes", ("Tower",), "Phoenix"),
])
def test_a_cause_with_a_narrower_kind_left_out(match, template, kept, gone):
    want = len(_npc_deaths(match, lambda k: any(w in k for w in kept) and gone not in k))
    whole = len(_npc_deaths(match, lambda k: any(w in k for w in kept)))
    assert want and (whole > want or "Tower" == kept[0])
    got = match.ask(template)
    assert got.refusal is None and says(got.text, want), (want, got.text)
    assert whole == want or not says(got.text, whole), got.text
    assert "was not used" not in got.text, got.text


def test_a_ranking_by_a_cause_with_a_kind_left_out(match):
    per = Counter(e["targetowner"] for e in _npc_deaths(match, lambda k: "Minion" not in k and any(
        w in k for w in ("Tower", "Phoenix", "Titan")) and "Titan" not in k))
    top = max(per.values())
    got = match.ask("who died to structures the most, excluding titans")
    assert any(p in got.text.split(":")[0] for p, n in per.items() if n == top) and says(got.text, top), got.text


# ------------------------------------------------------------------------- a side's role asked whom it hit hardest

@pytest.mark.parametrize(("template", "team", "role"), [
    ("the order mid - whom did she hit hardest", 1, "Middle"),
    ("chaos jungler: what enemy god did he hit hardest", 2, "Jungle"),
    ("which god did our support hit hardest (we're chaos)", 2, "Support"),
    ("who did the order adc damage the most", 1, "Carry"),
    ("which opponent did team 2's solo hit hardest", 2, "Solo"),
])
def test_a_sides_role_asked_whom_it_hit_hardest(match, template, team, role):
    player = _of(match, team, role)
    per: Counter = Counter()
    biggest: dict[str, float] = {}
    for e in match.events:
        if e.get("type") in _DAMAGE and e["sourceowner"] == player and e["targetowner"] in match.players:
            per[e["targetowner"]] += float(e["value1"])
            biggest[e["targetowner"]] = max(biggest.get(e["targetowner"], 0), float(e["value1"]))
    top = max(per.values())
    leaders = [p for p, v in per.items() if v == top]
    got = match.ask(template)
    assert got.refusal is None and player in got.text and says(got.text, top), got.text
    assert any(p in got.text for p in leaders), got.text
    if "hardest" in template:
        assert any(f"against {p}: {int(biggest[p]):,}" in got.text for p in leaders), got.text


@pytest.mark.parametrize("question", ["who hits hardest", "which player hit hardest", "who was hitting hardest"])
def test_a_player_who_hits_hardest_dealt_the_most_damage(match, question):
    dealt = {p: match.truth["players"][p]["damage_dealt"] for p in match.players}
    top = max(dealt, key=dealt.get)
    got = match.ask(question)
    assert got.refusal is None and top in got.text and f"{int(dealt[top]):,}" in got.text, got.text
    assert "hits landed" not in got.text, got.text


@pytest.mark.parametrize("question", ["which god ability dealt the most damage", "what god skill did the most dmg",
                                      "top 3 god abilities by damage"])
def test_a_god_word_before_an_ability_word_ranks_abilities_not_gods(match, question):
    (top, value), *_ = match.truth["top_abilities"]
    got = match.ask(question)
    assert got.refusal is None and got.plan.group_by == ("ability",), got.plan
    assert top in got.text and f"{int(value):,}" in got.text, got.text
