"""Reading classes of round 46, end to end on the simulated match of `match`, every figure from truth.py's events: a
boss named as a bare noun before the damage is what was hit once a person is asked ("fire giant dmg" by player),
and alone still the boss's own damage; several names after one "to" are hit together; the kind named as the target
keeps a gloss of its members from turning into a source; and a hit said as done at once ("in one shot") is the
biggest single hit."""

from __future__ import annotations

import pytest

from tests.support.said import says


def _to(match, *targets: str) -> dict[str, float]:
    """Damage dealt by each player to any of `targets` (METRICS.md's damage: Damage and CritDamage amounts)."""
    out: dict[str, float] = {}
    for e in match.events:
        if e.get("eventType") == "CombatMsg" and e.get("type") in ("Damage", "CritDamage") \
                and e.get("targetowner") in targets and e.get("sourceowner") in match.players:
            out[e["sourceowner"]] = out.get(e["sourceowner"], 0) + float(e["value1"])
    return out


def _npc_dealt(match, npc: str) -> float:
    return sum(float(e["value1"]) for e in match.events if e.get("eventType") == "CombatMsg"
               and e.get("type") in ("Damage", "CritDamage") and e.get("sourceowner") == npc)


def _leader(values: dict[str, float]) -> str:
    best = max(values.values())
    leaders = [p for p, v in values.items() if v == best]
    assert len(leaders) == 1, values
    return leaders[0]


@pytest.mark.parametrize("template", ["who put out the most {b} dmg", "{b} damage by player, who's first",
                                      "whose {b} damage was highest"])
@pytest.mark.parametrize("boss", ["Fire Giant", "Gold Fury"])
def test_a_boss_before_the_damage_is_what_a_person_hit(match, template, boss):
    hit = _to(match, boss)
    top = _leader(hit)
    got = match.ask(template.format(b=boss.lower()))
    head = got.text.split(".")[0]
    assert top in head and says(head, hit[top]) and f"{boss} dealt" not in got.text, (top, hit[top], got.text)


@pytest.mark.parametrize("boss", ["Fire Giant", "Gold Fury"])
def test_a_boss_before_the_damage_with_no_person_asked_is_its_own(match, boss):
    got = match.ask(f"{boss.lower()} dmg?")
    assert f"{boss} dealt" in got.text and says(got.text, _npc_dealt(match, boss)), got.text


@pytest.mark.parametrize("template", ["top damage to the gold fury and the fire giant, by player",
                                      "most gold fury & fire giant dmg, who"])
def test_two_bosses_hit_are_counted_together(match, template):
    hit = _to(match, "Fire Giant", "Gold Fury")
    top = _leader(hit)
    got = match.ask(template)
    head = got.text.split(".")[0]
    assert top in head and says(head, hit[top]), (top, hit[top], got.text)


def test_two_players_hit_by_one_are_counted_together(match):
    name, *others = sorted(match.players)
    victims = [p for p in others if match.players[p].team != match.players[name].team][:2]
    want = sum(_to(match, v).get(name, 0) for v in victims)
    got = match.ask(f"how much dmg did {name} deal to {victims[0]} and {victims[1]}")
    assert says(got.text.split(".")[0], want), (want, got.text)


def test_the_bosses_named_as_hit_keep_a_gloss_of_them_as_what_was_hit(match):
    hit = {p: match.truth["players"][p]["damage_to_bosses"] for p in match.players}
    top = _leader(hit)
    got = match.ask("which player damaged the bosses most? [gold fury/fire giant dmg]")
    head = got.text.split(".")[0]
    assert top in head and says(head, hit[top]) and "dealt 0" not in got.text, (top, got.text)


@pytest.mark.parametrize("said", ["hardest in one shot", "the most dmg with a single strike", "the biggest shot"])
def test_a_hit_done_at_once_is_the_biggest_single_hit(match, said):
    role = sorted({p.role for p in match.players.values()})[0]
    hits = {p: match.truth["players"][p]["biggest_hit"] for p, v in match.players.items() if v.role == role}
    top = _leader(hits)
    got = match.ask(f"which {role.lower()} hit {said}".replace("hit the most dmg", "did the most dmg")
                    .replace("hit the biggest", "had the biggest"))
    head = got.text.split("(")[0]
    assert top in head and says(head, hits[top]) and "damage dealt" not in head, (top, hits[top], got.text)


@pytest.mark.parametrize("template", ["where did {p} die the most", "where on the map were {p}'s deaths"])
def test_where_a_player_died_gives_each_deaths_place_first(match, template):
    from combat_analysis.formatting import number

    name = sorted(match.players)[3]
    deaths = [e for e in match.events if e.get("type") == "KillingBlow" and e.get("targetowner") == name
              and e.get("sourceowner") in match.players]
    assert deaths, name
    first = deaths[0]
    got = match.ask(template.format(p=name))
    place = f"(x {number(float(first['locationx']))}, y {number(float(first['locationy']))})"
    assert got.text.lower().startswith(f"{name}'s {len(deaths)} deaths".lower()) and place in got.text.split(". ")[0], (place, got.text)
    assert "coordinates, not by lane" in got.text, got.text


def test_the_ability_an_objective_was_taken_with_is_said_when_asked(match):
    blows = [e for e in match.events if e.get("type") == "KillingBlow" and e.get("sourceowner") in match.players
             and any(w in (e.get("targetowner") or "") for w in ("Tower", "Phoenix", "Titan", "Fire Giant", "Gold Fury"))]
    assert blows, "an objective last hit by a player"
    blow = blows[-1]
    kind = next(w for w in ("Tower", "Phoenix", "Titan", "Fire Giant", "Gold Fury") if w in blow["targetowner"])
    got = match.ask(f"{blow['sourceowner']} finished which {kind.lower()}s, and using what ability?")
    assert f"by {blow['sourceowner']} with {blow['itemname']}" in got.text, (blow, got.text)
    assert " with " not in match.ask(f"when did {blow['sourceowner']} take {kind.lower()}s").text.split(":")[-1], blow


def test_a_share_of_a_players_kills_on_one_victim_names_that_base(match):
    name = max(match.players, key=lambda p: match.truth["players"][p]["kills"])
    victims = {e["targetowner"] for e in match.events if e.get("type") == "KillingBlow" and e.get("sourceowner") == name
               and e.get("targetowner") in match.players}
    victim = sorted(victims)[0]
    got = match.ask(f"{name}'s kills on {victim}, by ability")
    assert f"of {name}'s kills on {victim})" in got.text, got.text


def _fights_from(match, start_s: int) -> tuple[int, int, int]:
    """Our team-fight rule (answer/patterns.py: deaths from any source, a gap of at most TEAM_FIGHT_GAP_S seconds, at
    least TEAM_FIGHT_MIN_DEATHS deaths) over truth.py's deaths: the fights begun at `start_s` or later, and how many
    each team won (the other team lost more)."""
    from combat_analysis.answer.patterns import TEAM_FIGHT_GAP_S, TEAM_FIGHT_MIN_DEATHS

    deaths = sorted([(k["second"], match.players[k["victim"]].team) for k in match.truth["kills"]]
                    + [(d["second"], match.players[d["victim"]].team) for d in match.truth["deaths_to_npcs"]])
    groups: list[list[tuple[int, int]]] = []
    for d in deaths:
        if groups and d[0] - groups[-1][-1][0] <= TEAM_FIGHT_GAP_S:
            groups[-1].append(d)
        else:
            groups.append([d])
    fights = [g for g in groups if len(g) >= TEAM_FIGHT_MIN_DEATHS and g[0][0] >= start_s]
    won = [sum(1 for g in fights if sum(t == 3 - team for _, t in g) > sum(t == team for _, t in g)) for team in (1, 2)]
    return len(fights), won[0], won[1]


@pytest.mark.parametrize("said", ["who won the team fights after 20 min", "late game teamfights: which side won them, "
                                  "so after minute 20"])
def test_team_fights_asked_in_a_window_are_those_begun_in_it_and_won_is_theirs(match, said):
    count, one, two = _fights_from(match, 1200)
    got = match.ask(said)
    assert got.text.startswith(f"{count} team fight") and f"team 1 won {one} and team 2 won {two}" in got.text, \
        ((count, one, two), got.text)
    assert "won the match" not in got.text, got.text


def test_a_kind_then_two_names_sets_the_names_against_each_other(match):
    a, b = sorted(match.players)[:2]
    got = match.ask(f"who had more damage to gods, {a} or {b}?")
    for name in (a, b):
        assert says(got.text.split(".")[0], match.truth["players"][name]["damage_to_players"]), (name, got.text)


@pytest.mark.parametrize("verb", ["beat on", "pick on"])
def test_a_striking_verb_with_its_particle_asks_whom_a_player_hit(match, verb):
    name = sorted(match.players)[4]
    hit = match.truth["players"][name]["damage_to_each_player"]
    top = max(hit, key=hit.get)
    got = match.ask(f"whom did {name} {verb} the most, damage-wise")
    head = got.text.split(".")[0]
    assert top in head and says(head, hit[top]), (top, hit[top], got.text)
