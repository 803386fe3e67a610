"""Round 56's one-match classes, end to end on the simulated match of `match`, every figure from truth.py: a count
then the first or last of what it counted ("how many X, and who got the last one") answers both; a ranked victim
("her usual victim") is whom the player killed the most; a god word before an ability word says whose ability it is,
not who was hit; and solo kills are the kills no teammate assisted (METRICS.md's assists, none for the kill)."""

from __future__ import annotations

from collections import Counter

import pytest

from combat_analysis.formatting import clock, number
from tests.support.said import says


def _ends(events: list[dict]) -> tuple[dict, dict]:
    ordered = sorted(events, key=lambda e: (e["second"], e.get("line", 0)))
    return ordered[0], ordered[-1]


def test_a_count_of_objectives_then_the_last_one_answers_both(match):
    towers = [o for o in match.truth["objectives"] if o["kind"] == "structure" and "Tower" in o["target"]]
    _, last = _ends(towers)
    got = match.ask("how many towers went down in total and who took down the final one")
    assert got.plan.parts and got.plan.parts[0].limit == 1, got.plan
    assert f"Towers destroyed in the match: {len(towers)}." in got.text, (len(towers), got.text)
    assert f"at {clock(last['second'])}" in got.text and last["killer"] in got.text, (last, got.text)


def test_a_players_death_count_then_who_killed_them_first(match):
    name = sorted(match.players)[1]
    deaths = [k for k in match.truth["kills"] if k["victim"] == name] or pytest.skip("no player kill on them")
    first, _ = _ends(deaths)
    got = match.ask(f"{name.lower()} deaths? and who got him first")
    count = match.truth["players"][name]["deaths"]
    assert f"died {number(count)} times" in got.text, (count, got.text)
    assert f"first death was at {clock(first['second'])}" in got.text, (first, got.text)


def test_the_matchs_kills_then_the_earliest_one(match):
    first, _ = _ends(match.truth["kills"])
    got = match.ask("total kills this game + who got the earliest one?")
    assert f"Kills in the match: {number(match.truth['total_kills'])}." in got.text, got.text
    assert f"{first['killer']} on {first['victim']} at {clock(first['second'])}" in got.text, (first, got.text)


@pytest.mark.parametrize("template", ["who ended up as {n}'s regular victim", "{n} number one victim?"])
def test_a_ranked_victim_is_whom_the_player_killed_the_most(match, template):
    name = max(match.players, key=lambda p: match.truth["players"][p]["kills"])
    victims = Counter(k["victim"] for k in match.truth["kills"] if k["killer"] == name)
    best = max(victims.values())
    got = match.ask(template.format(n=name))
    head = got.text.split(" (ahead")[0]
    assert got.plan.group_by == ("victim",) and got.plan.metrics == ("kills",), got.plan
    assert all(v in head for v, n in victims.items() if n == best) and says(head, best), (victims, got.text)


def test_a_god_word_before_an_ability_word_is_whose_ability(match):
    ability, damage = match.truth["top_abilities"][0]
    got = match.ask("the most damaging god abilities overall")
    assert got.plan.metrics == ("damage_dealt",) and not got.plan.filters, got.plan
    assert ability in got.text and says(got.text, damage), (ability, damage, got.text)


def _solo_kills(match) -> Counter:
    return Counter(k["killer"] for k in match.truth["kills"] if not k["assists"])


def test_solo_kills_are_the_kills_nobody_assisted(match):
    solo = _solo_kills(match)
    best = max(solo.values())
    got = match.ask("who racked up the most unassisted kills")
    assert got.plan.metrics == ("solo_kills",), got.plan
    assert all(p in got.text.split(" (ahead")[0] for p, n in solo.items() if n == best) and says(got.text, best), \
        (solo, got.text)


def test_solo_before_kills_is_the_figure_not_the_role(match):
    name = sorted(match.players)[0]
    got = match.ask(f"did {name} get any solo kills")
    assert not [f for f in got.plan.filters if f.dimension == "role"], got.plan
    assert says(got.text, _solo_kills(match)[name]), got.text
