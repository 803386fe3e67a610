"""An ability's figure with a god or player said after "on", "with" or "as", end to end on a simulated match and checked
against truth.py: when nobody but that player casts the ability, "on <god>" is playing it (the player's own damage,
hits, crits or healing with it); a figure received ("damage taken by"), a landing verb ("hits landed on") or an
ability other players cast too keeps the one named as the one hit."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from tests.support.said import says
from tests.support.truth_checks import truth_tool

_KINDS = {"damage": ("Damage", "CritDamage"), "hits": ("Damage", "CritDamage"), "crits": ("CritDamage",),
          "healing": ("Healing",)}


_CASTS: dict[str, tuple] = {}


def _cast(spoken):
    """truth.py's events of the match: each ability's casters, and each figure by (caster, ability) and by
    (caster, target, ability); worked out once per match."""
    if str(spoken.log) not in _CASTS:
        _CASTS[str(spoken.log)] = _casts(spoken)
    return _CASTS[str(spoken.log)]


def _casts(spoken):
    events, _ = truth_tool.load(str(spoken.log))
    players = spoken.truth["players"]
    casters: dict[str, set[str]] = defaultdict(set)
    by_caster: dict[str, Counter] = {figure: Counter() for figure in _KINDS}
    on_target: dict[str, Counter] = {figure: Counter() for figure in _KINDS}
    for e in events:
        source, ability = e.get("sourceowner"), e.get("itemname")
        if source not in players or not ability or e.get("eventType") != "CombatMsg":
            continue
        casters[ability].add(source)
        for figure, types in _KINDS.items():
            if e.get("type") in types:
                amount = 1 if figure in ("hits", "crits") else int(e["value1"])
                by_caster[figure][(source, ability)] += amount
                on_target[figure][(source, e.get("targetowner"), ability)] += amount
    return casters, by_caster, on_target


def _own(spoken, cast, figure: str, team: int) -> tuple[str, str, str, int]:
    """A player of `team`, their god and the ability (no basic attack) only they cast with the largest `figure`."""
    casters, by_caster, _ = cast
    players = spoken.truth["players"]
    (player, ability), value = max(
        ((key, v) for key, v in by_caster[figure].items() if players[key[0]]["team"] == team
         and casters[key[1]] == {key[0]} and not key[1].endswith("Basic Attack")), key=lambda kv: (kv[1], kv[0]))
    return player, players[player]["god"], ability, value


# the god or player after "on" (and "with", "as") casting an ability nobody else casts: that player's figure with it
@pytest.mark.parametrize(("question", "figure"), [
    ("how much damage did {ability} do on {god}", "damage"),
    ("{ability} dmg on the {god}?", "damage"),
    ("what did {low} deal on {player}", "damage"),
    ("total damage from {ability} on the {god}", "damage"),
    ("{low} damage as the {god}", "damage"),
    ("how many hits did {ability} get on the {god}", "hits"),
    ("number of {low} hits on {god}", "hits"),
    ("{ability} hits on {player}?", "hits"),
    ("how many crits did {ability} have on {god}", "crits"),
    ("{low} critical hits on the {god}", "crits"),
    ("crits with {ability} on {player}", "crits"),
    ("how many crits did {low} get with the {god}", "crits"),
    ("how much did {ability} heal on the {god}", "healing"),
    ("{low} healing on {god}", "healing"),
    ("healing done with {ability} on {player}", "healing"),
])
@pytest.mark.parametrize("team", [1, 2])
def test_on_a_god_that_alone_casts_the_ability_is_the_caster(spoken, question, figure, team):
    cast = _cast(spoken)
    player, god, ability, value = _own(spoken, cast, figure, team)
    a = spoken.ask(question.format(ability=ability, low=ability.lower(), god=god.lower(), player=player))
    assert a.refusal is None, a.text
    assert not any(f.dimension == "target" for f in a.plan.filters), a.plan
    assert player in a.text and ability in a.text and says(a.text, value), (question, a.text, value)


# a figure received, a landing verb, or an ability others cast too: the one named stays the one hit
@pytest.mark.parametrize("question", [
    "hits landed on the {god} with {ability}",
    "how many hits did {low} land on {god}",
    "{low} used on the {god}: how much damage",
])
def test_a_landing_verb_keeps_the_god_as_the_one_hit(spoken, question):
    cast = _cast(spoken)
    player, god, ability, _ = _own(spoken, cast, "damage", 1)
    a = spoken.ask(question.format(ability=ability, low=ability.lower(), god=god.lower()))
    assert any(f.dimension == "target" and list(f.values) == [player] for f in a.plan.filters), a.plan
    assert says(a.text, 0), a.text  # nobody else casts it, so nobody hit its caster with it


@pytest.mark.parametrize("question", [
    "damage taken by the {victim_god} from {ability}",
    "how much damage did {victim} take from {low}",
])
def test_damage_taken_from_an_ability_is_the_victims(spoken, question):
    cast = _cast(spoken)
    _, by_caster, on_target = cast
    player, _, ability, _ = _own(spoken, cast, "damage", 1)
    players = spoken.truth["players"]
    hit = {t: v for (s, t, a), v in on_target["damage"].items() if s == player and a == ability and t in players}
    victim = max(hit, key=lambda t: (hit[t], t))
    a = spoken.ask(question.format(victim_god=players[victim]["god"].lower(), victim=victim, ability=ability,
                                   low=ability.lower()))
    assert victim in a.text and f"from {ability}" in a.text and says(a.text, hit[victim]), (a.text, hit[victim])
    assert not any(f.dimension == "source" for f in a.plan.filters), a.plan  # the ability is no attacker
    own = spoken.ask(question.format(victim_god=players[player]["god"].lower(), victim=player, ability=ability,
                                     low=ability.lower()))
    assert says(own.text, 0) and not says(own.text, by_caster["damage"][(player, ability)]), own.text


def test_an_ability_others_cast_too_keeps_the_god_as_the_one_hit(spoken):
    cast = _cast(spoken)
    casters, _, on_target = cast
    players = spoken.truth["players"]
    shared = max((a for a, who in casters.items() if len(who) > 1), key=lambda a: (len(casters[a]), a))
    player = min(players)
    want = sum(v for (_, t, a), v in on_target["damage"].items() if t == player and a == shared)
    for question in (f"how much damage did {shared} do on the {players[player]['god'].lower()}",
                     f"{shared} dmg on {player}"):
        a = spoken.ask(question)
        assert any(f.dimension == "target" and list(f.values) == [player] for f in a.plan.filters), (question, a.plan)
        assert says(a.text, want), (question, a.text, want)


def test_another_gods_ability_on_a_god_is_the_damage_to_that_god(spoken):
    cast = _cast(spoken)
    _, _, on_target = cast
    players = spoken.truth["players"]
    caster, _, ability, _ = _own(spoken, cast, "damage", 1)
    hit = {t: v for (s, t, a), v in on_target["damage"].items() if s == caster and a == ability and t in players}
    victim = max(hit, key=lambda t: (hit[t], t))
    a = spoken.ask(f"{ability.lower()} damage on the {players[victim]['god'].lower()}")
    assert any(f.dimension == "target" and list(f.values) == [victim] for f in a.plan.filters), a.plan
    assert says(a.text, hit[victim]), (a.text, hit[victim])
