"""Reading classes of round 15a, end to end on the simulated match of `match`, every figure from truth.py (its figures
and its events): a role of the other side said with a possessive pointing away from the asker (and "our" pointing at
the asker's side), a figure restricted with "only"/"just" over slang, two abilities of one player side by side,
players' slang verbs of killing another player, and a count of the players a condition on a figure keeps."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pytest

from combat_analysis.planner.read import killverbs
from tests.support.said import says


def _player(match, team: int, role: str) -> str:
    return next(p for p, info in match.players.items() if info.team == team and info.role == role)


# --------------------------------------------------------------------------- the other side's role, from the asker

_SIDES = {"order": 1, "chaos": 2}
_ROLE_SAID = {"jungler": "Jungle", "mid": "Middle", "supp": "Support", "adc": "Carry", "solo": "Solo"}


@pytest.mark.parametrize(("template", "key", "theirs"), [
    ("we are {side}, how much gold did their {role} get", "gold", True),
    ("I was on {side}; how many kills did the opposing {role} have", "kills", True),
    ("im on {side}. enemy {role} deaths?", "deaths", True),
    ("as {side}, what was the other team's {role} damage", "damage_dealt", True),
    ("we were {side} - how much did the opponent's {role} heal", "healing_done", True),
    ("(we played {side}) how many assists did our {role} get", "assists", False),
    ("we're {side}, gold of our {role}", "gold", False),
])
@pytest.mark.parametrize(("side", "role"), [("order", "jungler"), ("chaos", "mid"), ("order", "supp"),
                                            ("chaos", "adc"), ("chaos", "solo")])
def test_a_role_said_from_the_askers_side_is_that_sides_player(match, template, key, theirs, side, role):
    mine = _SIDES[side]
    meant = _player(match, 3 - mine if theirs else mine, _ROLE_SAID[role])
    other = _player(match, mine if theirs else 3 - mine, _ROLE_SAID[role])
    want = match.truth["players"][meant][key]
    got = match.ask(template.format(side=side, role=role))
    assert meant in got.text and says(got.text, want), (got.text, meant, want)
    assert other not in got.text, got.text


# --------------------------------------------------------------------------- a figure restricted with only / just

_FIGURE = {"gold": "gold", "deaths": "deaths", "damage": "damage_dealt", "healing": "healing_done",
           "assists": "assists"}
_TRUTH_KEY = {"gold": "gold", "deaths": "deaths", "damage_dealt": "damage_dealt", "healing_done": "healing_done",
              "assists": "assists"}


@pytest.mark.parametrize("template", ["who was the most fed, {f} only", "who popped off? just {f}",
                                      "who hard carried - only counting {f}", "who was the tankiest, {f} only please",
                                      "who dominated. only {f}", "most fed player? {f} just"])
@pytest.mark.parametrize("figure", ["gold", "deaths", "damage", "healing", "assists"])
def test_a_figure_restricted_with_only_or_just_is_the_figure_answered_alone(match, template, figure):
    metric_id = _FIGURE[figure]
    values = {p: match.truth["players"][p][_TRUTH_KEY[metric_id]] for p in match.players}
    top = max(values.values())
    got = match.ask(template.format(f=figure))
    assert got.plan.metrics == (metric_id,), (got.plan.metrics, got.text)
    leaders = [p for p, v in values.items() if v == top]
    assert says(got.text.split(".")[0], top) and any(p in got.text for p in leaders), (got.text, values)


# --------------------------------------------------------------------------- two abilities of one player

def _healing_by_ability(match, player: str) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for e in match.events:
        if e.get("type") == "Healing" and e.get("sourceowner") == player:
            out[e.get("itemname")] += int(float(e["value1"]))
    return dict(out)


def _two_abilities(match, player: str) -> tuple[str, str]:
    """Two of the player's own abilities (no basic attack, no item effect), as the log names them."""
    own = [a for a in match.truth["players"][player]["abilities"]
           if "Basic Attack" not in a and "'" not in a and a.lower() not in ("vanish",)]
    return own[0], own[-1]


@pytest.mark.parametrize(("template", "key"), [
    ("{a} or {b}, which did more damage for {p}", "damage"),
    ("{p}'s {a} and {b} dmg, how much each?", "damage"),
    ("how much damage did {p} do with {a} compared to {b}", "damage"),
    ("{p}: {a} versus {b} damage", "damage"),
    ("which healed more for {p}, {a} or {b}", "healing"),
    ("{p} healing with {a} vs {b}, how much each", "healing"),
    ("which hit more times for {p}, {a} or {b}", "hits"),
    ("did {p} land more hits with {a} or {b}", "hits"),
])
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("index", [0, 6])
def test_two_abilities_of_one_player_are_each_answered_never_summed(match, template, key, lower, index):
    player = sorted(match.players)[index]
    a, b = _two_abilities(match, player)
    figures = {"damage": match.truth["players"][player]["abilities"],
               "hits": match.truth["players"][player]["ability_hits"],
               "healing": _healing_by_ability(match, player)}[key]
    va, vb = figures.get(a, 0), figures.get(b, 0)
    said = (lambda s: s.lower()) if lower else (lambda s: s)
    got = match.ask(template.format(p=player, a=said(a), b=said(b)))
    assert says(got.text, va) and says(got.text, vb), (got.text, va, vb)
    assert a in got.text and b in got.text, got.text
    if va != vb:  # which is larger, said
        first, second = (a, b) if va > vb else (b, a)
        assert re.search(rf"{re.escape(first)}[^;]*?\b(?:ahead of|more than)\s+{re.escape(second)}\b", got.text), \
            got.text
    assert not says(got.text.split("; ")[0], va + vb) or va + vb in (va, vb), got.text  # never their sum


# --------------------------------------------------------------------------- slang verbs of killing a player

def _victims(match, killer: str) -> Counter:
    return Counter(e["targetowner"] for e in match.events if e.get("type") == "KillingBlow"
                   and e.get("sourceowner") == killer and e.get("targetowner") in match.players)


def _pair(match) -> tuple[str, str, int]:
    """A killer, their most frequent victim and how often, of names with no apostrophe."""
    best = max(((k, v, n) for k in match.players if "'" not in k for v, n in _victims(match, k).items()
                if "'" not in v), key=lambda t: t[2])
    return best


@pytest.mark.parametrize("template", [
    "how many times did {a} clap {b}", "how many times did {a} smoke {b}", "how often has {a} dunked on {b}",
    "{a} merced {b} how many times?", "how many times did {a} pick off {b}", "how many times has {a} been farming {b}",
    "how many times did the {ga} body the {gb}", "how often did {a} one shot {b}", "how many times did {a} wreck {b}",
    "how many times was {a} deleting {b}", "count the times {a} clapped up {b}", "how many times did {a} frag {b}",
    "how many times did {a} take out {b}", "how often did {a} murder {b}", "how many times had {a} ganked {b}",
])
def test_a_slang_verb_of_killing_between_two_players_is_the_kills_of_one_on_the_other(match, template):
    killer, victim, times = _pair(match)
    question = template.format(a=killer, b=victim, ga=match.players[killer].god, gb=match.players[victim].god)
    got = match.ask(question)
    assert got.plan.metrics[0] == "kills", (got.plan, got.text)
    assert says(got.text, times), (got.text, times)
    assert not says(got.text, match.truth["players"][killer]["kills"]) or \
        match.truth["players"][killer]["kills"] == times, got.text


@pytest.mark.parametrize("template", ["whom did {a} clap the most", "who did {a} smoke most", "who did {a} dunk on most?"])
def test_whom_a_player_beat_most_said_with_a_slang_verb_is_their_top_victim(match, template):
    killer, victim, times = _pair(match)
    got = match.ask(template.format(a=killer))
    top = _victims(match, killer)
    leaders = [v for v, n in top.items() if n == times]
    assert says(got.text, times) and any(v in got.text for v in leaders), (got.text, top)


@pytest.mark.parametrize(("question", "kept"), [
    ("how many times did Brisk smoke zoe.rush", False),
    ("how many times has Brisk clapped up zoe.rush", False),
    ("did Brisk farm more gold than zoe.rush", True),  # a figure word that is no verb between two names
    ("how many times did Brisk assassinate zoe.rush", True),  # an ability of the match keeps its name
    ("who got clapped the most", True),  # no two players: being beaten, read elsewhere
    ("how many times did Brisk pick zoe.rush", True),  # "pick" is slang only with "off"
])
def test_a_slang_verb_is_rewritten_only_between_two_players(vocab, question, kept):
    out = killverbs.plain(question, vocab)
    assert (out == question) == kept, out
    if not kept:
        assert re.search(r"\bkill(?:ed|ing)?\b", out), out


# --------------------------------------------------------------------------- how many players meet a condition

def _kept(match, key: str, test, team: int | None = None, role: str | None = None) -> dict[str, float]:
    return {p: match.truth["players"][p][key] for p, info in match.players.items()
            if test(match.truth["players"][p][key]) and (team is None or info.team == team)
            and (role is None or info.role == role)}


def _middle(match, key: str) -> int:
    values = sorted(match.truth["players"][p][key] for p in match.players)
    return int(values[len(values) // 2])


@pytest.mark.parametrize(("template", "key", "op"), [
    ("how many players died more than {n} times", "deaths", ">"),
    ("how many players got over {n} kills", "kills", ">"),
    ("how many gods dealt at least {n} damage", "damage_dealt", ">="),
    ("how many people earned under {n} gold", "gold", "<"),
    ("how many ppl had fewer than {n} assists", "assists", "<"),
    ("how many of the players took more than {n} damage", "damage_taken", ">"),
])
def test_how_many_players_meet_a_condition_is_their_number_with_their_names(match, template, key, op):
    n = _middle(match, key)
    test = {">": lambda v: v > n, ">=": lambda v: v >= n, "<": lambda v: v < n}[op]
    kept = _kept(match, key, test)
    got = match.ask(template.format(n=n))
    assert got.plan.shape == "count", got.plan
    assert re.match(rf"{len(kept)} players? had\b", got.text) or (not kept and got.text.startswith("No player")), \
        (got.text, kept)
    assert all(p in got.text and says(got.text, v) for p, v in kept.items()), (got.text, kept)
    assert not any(p in got.text for p in match.players if p not in kept), got.text


@pytest.mark.parametrize(("template", "key", "team", "role"), [
    ("how many players on chaos got more than {n} kills", "kills", 2, None),
    ("how many order players died at least {n} times", "deaths", 1, None),
    ("how many supports had fewer than {n} deaths", "deaths", None, "Support"),
    ("how many junglers dealt more than {n} damage", "damage_dealt", None, "Jungle"),
])
def test_how_many_of_a_side_or_role_meet_a_condition(match, template, key, team, role):
    n = _middle(match, key)
    op = ">=" if "at least" in template else "<" if "fewer" in template else ">"
    test = {">": lambda v: v > n, ">=": lambda v: v >= n, "<": lambda v: v < n}[op]
    kept = _kept(match, key, test, team, role)
    got = match.ask(template.format(n=n))
    assert re.search(rf"\b{len(kept)} players? had\b", got.text) or (not kept and got.text.startswith("No player")), \
        (got.text, kept)
    assert all(p in got.text for p in kept), (got.text, kept)


def test_a_count_of_many_players_names_a_few_and_how_many_more(match):
    kept = _kept(match, "damage_dealt", lambda v: v > 1000)
    assert len(kept) == 10
    got = match.ask("how many players dealt more than 1000 damage")
    assert got.text.startswith("10 players had") and "and 2 more" in got.text, got.text
