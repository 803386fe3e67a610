"""One-match reading classes, end to end on the simulated match of `match` (some deaths dealt by towers, phoenixes,
titans, fire minions and bosses), every figure from truth.py's events, each class in several wordings of our own:
typos of the grouping nouns, exclusions said before the main clause, causes said in contrast and the non-player
kind said generally, and parts that lean on the part before them."""

from __future__ import annotations

from collections import Counter

import pytest

from combat_analysis.formatting import percent
from combat_analysis.planner.read.spelling import corrected
from tests.support.said import says

_DAMAGE = ("Damage", "CritDamage")


def _damage(match, where) -> int:
    return int(sum(float(e["value1"]) for e in match.events if e.get("type") in _DAMAGE and where(e)))


def _top(figures: dict[str, float]) -> tuple[str, float]:
    name = max(figures, key=lambda k: figures[k])
    return name, figures[name]


# --------------------------------------------------------------------------- 4: typos of the grouping nouns

@pytest.mark.parametrize(("typed", "meant"), [
    ("which abilty hit hardest", "ability"), ("top 3 ablities by damage", "abilities"),
    ("which abiltiy did the most damage", "ability"), ("what itme was bought most", "item"),
    ("which itmes got bought", "items"), ("which rloe dealt the most", "role"), ("dmg per rolle", "role"),
    ("which godd had the most kills", "god"), ("which gdo had the most kills", "god"),
    ("which palyer healed the most", "player"), ("kills by minnute", "minute"), ("gold per minte", "minute"),
    ("which objectve fell first", "objective")])
def test_a_typo_of_a_grouping_noun_is_read_as_the_noun(typed, meant):
    text, notes = corrected(typed)
    assert meant in text.split() and notes, (text, notes)


@pytest.mark.parametrize("plain", ["a good role", "which rule", "gods", "every item", "the rol", "kills per game"])
def test_a_known_or_unrelated_word_is_not_corrected(plain):
    assert corrected(plain) == (plain, ())


def _ability_damage(match) -> dict[str, float]:
    out: Counter = Counter()
    for e in match.events:
        if e.get("type") in _DAMAGE and e["sourceowner"] in match.players:
            out[e["itemname"]] += float(e["value1"])
    return dict(out)


@pytest.mark.parametrize(("template", "grouping"), [
    ("which abilty did the most damage", "ability"), ("top abilites by damage dealt", "ability"),
    ("what ablity dealt the most dmg", "ability"), ("which rloe dealt the most damage", "role"),
    ("the rolle with the most damage", "role"), ("which godd did the most damage", "god"),
    ("damage by gdo, which was highest", "god")])
def test_a_grouping_noun_with_a_typo_keeps_its_grouping(match, template, grouping):
    if grouping == "ability":
        name, value = _top(_ability_damage(match))
    elif grouping == "role":
        name, value = _top({r: v["damage_dealt"] for r, v in match.truth["roles"].items()})
    else:
        name, value = _top({g: v["damage_dealt"] for g, v in match.truth["gods"].items()})
    got = match.ask(template)
    assert got.refusal is None and grouping in got.plan.group_by, (got.plan.group_by, got.text)
    assert name in got.text and says(got.text, value), got.text


# ------------------------------------------- 3: causes said in contrast, and the non-player kind said generally

def _deaths(match, team: int | None = None, npc: bool | None = None, killers: tuple[str, ...] = ()) -> int:
    """Player deaths from the raw log (METRICS.md: a KillingBlow on a player), by the victim's side and killer."""
    out = 0
    for e in match.events:
        victim = match.players.get(e.get("targetowner", "")) if e.get("type") == "KillingBlow" else None
        if victim is None or team is not None and victim.team != team:
            continue
        by_player = e["sourceowner"] in match.players
        if npc is not None and by_player == npc or killers and not any(e["sourceowner"].endswith(k) for k in killers):
            continue
        out += 1
    return out


_NPC_WORDS = ["pve", "npcs", "non-players", "non players", "things that aren't a player", "anything that is not a god",
              "stuff that isn't a player"]


@pytest.mark.parametrize("said", _NPC_WORDS)
@pytest.mark.parametrize("template", ["how many deaths came from {k}", "how many times did players die to {k}",
                                      "deaths to {k}?"])
def test_the_non_player_kind_said_generally_is_every_non_player(match, template, said):
    want = _deaths(match, npc=True)
    assert 0 < want < _deaths(match)
    got = match.ask(template.format(k=said))
    assert got.refusal is None and says(got.text, want), got.text
    assert not says(got.text, _deaths(match)) and not says(got.text, _deaths(match, npc=False)), got.text


@pytest.mark.parametrize("template", ["how many deaths were to something rather than to players",
                                      "deaths instead of to players?", "how many deaths other than to players",
                                      "how many times did players die, not to a player", "deaths not to enemy gods",
                                      "how many deaths were to anything but players", "deaths other than players?",
                                      "how many deaths besides the gods",
                                      # the count asked between the deaths and their cause
                                      "out of every death, how many were NOT to players",
                                      "out of the deaths, how many werent to gods"])
def test_a_cause_said_in_contrast_is_left_out(match, template):
    want = _deaths(match, npc=True)
    got = match.ask(template)
    assert got.refusal is None and says(got.text, want), got.text
    assert not says(got.text, _deaths(match, npc=False)), got.text  # never the kind said in contrast
    assert "was not used" not in got.text, got.text


@pytest.mark.parametrize("template", ["how many times did players die to towers rather than to gods",
                                      "deaths to towers instead of to players"])
def test_a_contrast_after_causes_keeps_the_causes(match, template):
    got = match.ask(template)
    assert got.refusal is None and says(got.text, _deaths(match, killers=(" Tower",))), got.text
    assert "was not used" not in got.text, got.text


@pytest.mark.parametrize(("template", "team"), [("how many deaths did order have to npcs", 1),
                                                ("how many deaths did chaos suffer to non-players", 2),
                                                ("how many times did order die to pve rather than to players", 1),
                                                ("chaos deaths to things that aren't a player", 2),
                                                # the kinds spelt out in a bracket, the contrast after it
                                                ("order: deaths to npcs (towers, camps, minions, bosses) and not to "
                                                 "players?", 1),
                                                ("how often did chaos die to pve (bosses, towers etc) instead of to "
                                                 "enemy gods", 2)])
def test_a_sides_deaths_to_the_non_player_kind(match, template, team):
    want = _deaths(match, team=team, npc=True)
    got = match.ask(template)
    assert got.refusal is None and says(got.text, want), got.text
    assert not says(got.text, _deaths(match, team=team)), got.text


@pytest.mark.parametrize("template", ["what percent of deaths were to npcs", "what share of deaths came from pve",
                                      "percentage of deaths to things that aren't a player",
                                      "what fraction of the deaths were not to players"])
def test_the_non_player_kinds_share_of_the_matchs_deaths_names_its_base(match, template):
    part, whole = _deaths(match, npc=True), _deaths(match)
    got = match.ask(template)
    assert got.refusal is None and says(got.text, part), got.text
    assert percent(part / whole * 100) in got.text and f"of the match's {whole} deaths" in got.text, got.text
    assert "not computed" not in got.text, got.text


@pytest.mark.parametrize(("template", "team"), [("what share of order's deaths came from non-players", 1),
                                                ("what percentage of chaos deaths were to things that aren't players", 2)])
def test_a_sides_share_of_its_own_deaths_names_its_base(match, template, team):
    part, whole = _deaths(match, team=team, npc=True), _deaths(match, team=team)
    got = match.ask(template)
    assert percent(part / whole * 100) in got.text and f"of team {team}'s {whole} deaths" in got.text, got.text


@pytest.mark.parametrize("template", ["what share of deaths were to towers", "what percent of the deaths were to towers"])
def test_a_share_of_deaths_to_towers_is_no_list_of_towers_taken(match, template):
    part, whole = _deaths(match, killers=(" Tower",)), _deaths(match)
    got = match.ask(template)
    assert got.plan.metrics[0] == "deaths" and percent(part / whole * 100) in got.text, got.text


# ----------------------------------------------------- 2: an exclusion said before the main clause keeps its grouping

_LEAVE_OUT = ["not counting {x}", "excluding {x}", "leaving out {x}", "other than {x}", "besides {x}", "apart from {x}"]


def _rich(match) -> str:
    """The player with the most damage dealt, whose leaving out changes every ranking below."""
    return max(match.truth["players"], key=lambda p: match.truth["players"][p]["damage_dealt"])


@pytest.mark.parametrize("cue", _LEAVE_OUT)
@pytest.mark.parametrize("main", ["which ability did the most damage", "what skill dealt the most dmg"])
def test_an_exclusion_first_keeps_an_ability_question(match, cue, main):
    player = _rich(match)
    name, value = _top({a: v for a, v in _ability_damage_without(match, {player}).items()})
    got = match.ask(f"{cue.format(x=player)}, {main}")
    assert got.refusal is None and got.plan.group_by == ("ability",), (got.plan.group_by, got.text)
    assert name in got.text and says(got.text, value), got.text


def _ability_damage_without(match, left_out: set[str]) -> dict[str, float]:
    out: Counter = Counter()
    for e in match.events:
        if e.get("type") in _DAMAGE and e["sourceowner"] in match.players and e["sourceowner"] not in left_out:
            out[e["itemname"]] += float(e["value1"])
    return dict(out)


@pytest.mark.parametrize("cue", _LEAVE_OUT[:3])
def test_an_exclusion_first_keeps_an_item_question(match, cue):
    player = _rich(match)
    bought = Counter(e["itemname"] for e in match.events if e.get("type") == "ItemPurchase" and e["sourceowner"] != player)
    (name, value), (_, second) = bought.most_common(2)
    assert value > second
    got = match.ask(f"{cue.format(x=player)}, what item was bought the most")
    assert got.plan.group_by == ("item",) and name in got.text and says(got.text, value), got.text


@pytest.mark.parametrize("cue", _LEAVE_OUT[:4])
def test_an_exclusion_first_keeps_a_god_or_role_question(match, cue):
    gods = {g: v["damage_dealt"] for g, v in match.truth["gods"].items() if "Support" not in
            {match.players[p].role for p in v["players"]}}
    name, value = _top(gods)
    got = match.ask(f"{cue.format(x='the supports')}, which god dealt the most damage")
    assert got.plan.group_by == ("god",) and name in got.text and says(got.text, value), got.text
    player = _rich(match)
    roles: Counter = Counter()
    for p, v in match.truth["players"].items():
        if p != player:
            roles[v["role"]] += v["healing_done"]
    (role, healed), = roles.most_common(1)
    got = match.ask(f"{cue.format(x=match.players[player].god)}, which role healed the most")
    assert got.plan.group_by == ("role",) and role in got.text and says(got.text, healed), got.text


@pytest.mark.parametrize("cue", _LEAVE_OUT)
@pytest.mark.parametrize(("main", "figure"), [("who dealt the most damage", "damage_dealt"),
                                              ("who got the most kills", "kills"), ("top 2 healers", "healing_done")])
def test_an_exclusion_first_keeps_a_player_ranking(match, cue, main, figure):
    ranked = sorted(match.truth["players"], key=lambda p: -match.truth["players"][p][figure])
    left_out = ranked[0]
    got = match.ask(f"{cue.format(x=left_out)}, {main}")
    assert got.plan.intent.value == "ranking" and got.plan.group_by == ("player",), got.text
    assert any(f.op == "!=" and left_out in f.values for f in got.plan.filters), got.plan.filters
    assert ranked[1] in got.text and says(got.text, match.truth["players"][ranked[1]][figure]), got.text
    assert "was not used" not in got.text, got.text


def test_two_players_left_out_first_are_not_compared(match):
    ranked = sorted(match.truth["players"], key=lambda p: -match.truth["players"][p]["healing_done"])
    got = match.ask(f"not counting {ranked[0]} and {ranked[1]}, who healed the most")
    assert got.plan.intent.value == "ranking", got.text
    assert got.text.startswith(ranked[2]) and says(got.text, match.truth["players"][ranked[2]]["healing_done"]), got.text


@pytest.mark.parametrize(("side", "team"), [("order", 1), ("chaos", 2)])
def test_a_sides_role_left_out_first_is_its_player(match, side, team):
    player = next(p for p, v in match.players.items() if v.team == team and v.role == "Jungle")
    name, value = _top(_ability_damage_without(match, {player}))
    got = match.ask(f"not counting the {side} jungler, which ability did the most damage")
    assert got.plan.group_by == ("ability",) and name in got.text and says(got.text, value), got.text
    assert any(f.op == "!=" and player in f.values for f in got.plan.filters), got.plan.filters


# ------------------------------------------- 1a: a last part that names only a new subject keeps the figure and shape

_LEADS = [", and {s}?", "? what about {s}", "? {s} too?", ". same for {s}", ", how about {s}", ", {s} as well?"]


def _npc_damage(match, name: str) -> int:
    return _damage(match, lambda e: e["sourceowner"] == name)


def _credited_kills(match, name: str) -> int:
    return sum(1 for e in match.events if e.get("type") == "KillingBlow" and e["sourceowner"] == name
               and e["targetowner"] in match.players)


@pytest.mark.parametrize("lead", _LEADS)
@pytest.mark.parametrize(("said", "npc"), [("the fire giant", "Fire Giant"), ("the gold fury", "Gold Fury"),
                                           ("the order towers", "Order Tower"), ("the chaos phoenix", "Chaos Phoenix")])
def test_a_non_player_after_a_players_damage_gets_the_damage(match, lead, said, npc):
    player = _rich(match)
    want = _npc_damage(match, npc)
    got = match.ask(f"how much damage did {player} deal{lead.format(s=said)}")
    assert got.refusal is None and says(got.text, match.truth["players"][player]["damage_dealt"]), got.text
    assert says(got.text, want), (want, got.text)
    assert [p.metrics[0] for p in got.plan.parts] == ["npc_damage"], got.plan.parts


@pytest.mark.parametrize("lead", _LEADS[:4])
@pytest.mark.parametrize(("said", "npc"), [("the order towers", "Order Tower"), ("the fire giant", "Fire Giant")])
def test_a_non_player_after_a_players_kills_gets_the_deaths_it_dealt(match, lead, said, npc):
    player = _rich(match)
    want = _credited_kills(match, npc)
    assert want
    got = match.ask(f"how many kills did {player} get{lead.format(s=said)}")
    assert says(got.text, match.truth["players"][player]["kills"]) and says(got.text, want), (want, got.text)
    assert got.plan.parts and got.plan.parts[0].metrics[0] == "deaths", got.plan.parts


@pytest.mark.parametrize("lead", _LEADS[:3])
def test_a_player_after_a_non_players_damage_gets_the_damage(match, lead):
    player = _rich(match)
    got = match.ask(f"how much damage did the gold fury do{lead.format(s=player)}")
    assert says(got.text, _npc_damage(match, "Gold Fury")), got.text
    assert says(got.text, match.truth["players"][player]["damage_dealt"]), got.text


@pytest.mark.parametrize("lead", _LEADS)
@pytest.mark.parametrize(("first", "then", "value"), [
    ("what was {a}'s kda", "{b}", lambda m, a, b: (m.truth["players"][a]["kda"], m.truth["players"][b]["kda"])),
    ("how many assists did {a} get", "the {g}", lambda m, a, b: (m.truth["players"][a]["assists"],
                                                                  m.truth["players"][b]["assists"])),
    ("how much gold did order earn", "chaos", lambda m, a, b: (m.truth["teams"]["1"]["gold"], m.truth["teams"]["2"]["gold"])),
    ("damage taken by the chaos jungler", "the order jungler", None)])
def test_a_player_god_or_side_after_a_figure_gets_the_figure(match, lead, first, then, value):
    ranked = sorted(match.players)
    a, b = ranked[0], ranked[1]
    if value is None:
        jungle = {v.team: p for p, v in match.players.items() if v.role == "Jungle"}
        a, b = jungle[2], jungle[1]
        want = (match.truth["players"][a]["damage_taken"], match.truth["players"][b]["damage_taken"])
    else:
        want = value(match, a, b)
    got = match.ask(first.format(a=a) + lead.format(s=then.format(b=b, g=match.players[b].god)))
    assert got.refusal is None and all(says(got.text, w, 0.005) for w in want), (want, got.text)
    assert "was not used" not in got.text, got.text


# --------------------------------------------- 1b: a part that restates the one before it is the reading answered

def _leader(match, figure: str) -> tuple[str, float]:
    return _top({p: v[figure] for p, v in match.truth["players"].items()})


@pytest.mark.parametrize("cue", [", like", ", i.e.", " - as in", ", meaning", "? i mean", ", ie"])
@pytest.mark.parametrize(("vague", "sharp", "figure"), [
    ("who was the deadliest", "who had the most gold", "gold"), ("who carried", "who had the most kills", "kills"),
    ("who was the tankiest", "who took the most damage", "damage_taken"),
    ("who popped off", "who healed the most", "healing_done")])
def test_the_sharper_part_is_the_figure_answered(match, cue, vague, sharp, figure):
    name, value = _leader(match, figure)
    got = match.ask(f"{vague}{cue} {sharp}")
    assert got.refusal is None and got.plan.metrics[0] == _CATALOG.get(figure, figure), (got.plan.metrics, got.text)
    assert got.text.startswith(name) and says(got.text, value), got.text


_CATALOG = {"mitigated": "damage_mitigated"}


@pytest.mark.parametrize("template", ["who hunted {p} the most, i.e. who killed {o} most",
                                      "who fed on {p}, like who got the most kills on {o}",
                                      "who was eating {p} alive? i mean who killed {o} the most"])
def test_a_loose_verb_sharpened_by_a_kill_question_counts_kills_on_the_player(match, template):
    def killers(victim: str) -> list[tuple[str, int]]:
        return Counter(e["sourceowner"] for e in match.events if e.get("type") == "KillingBlow"
                       and e["targetowner"] == victim and e["sourceowner"] in match.players).most_common(2)
    # a victim whose killers have one leader
    victim = next(p for p in sorted(match.players) if len(found := killers(p)) == 2 and found[0][1] > found[1][1])
    (name, value), _ = killers(victim)
    got = match.ask(template.format(p=victim, o="them"))
    assert got.plan.metrics[0] == "kills" and got.text.startswith(name) and says(got.text, value), got.text
    assert not says(got.text, match.truth["players"][victim]["gold"]), got.text


@pytest.mark.parametrize(("vague", "fragment", "figure"), [("best players?", "top 3 by kda", "kda"),
                                                           ("who was the best,", "top 2 by gold", "gold"),
                                                           ("most valuable -", "top 3 by assists", "assists")])
def test_a_verbless_top_n_fragment_names_the_figure(match, vague, fragment, figure):
    ranked = sorted(match.truth["players"].values(), key=lambda v: -v[figure])
    n = int(fragment.split()[1])
    got = match.ask(f"{vague} {fragment}")
    assert got.plan.metrics[0] == figure and got.plan.limit == n, got.plan
    assert all(says(got.text, v[figure], 0.005) for v in ranked[:n]), got.text
    assert "MVP" not in got.text, got.text


@pytest.mark.parametrize("question", ["top 3 players, by damage", "players like Brisk, how much gold did they get",
                                      "who dealt the most damage, like to players?"])
def test_no_restatement_reads_as_before(match, question):
    got = match.ask(question)
    assert got.refusal is None and got.plan.metrics, got.text


@pytest.mark.parametrize("template", ["{p}'s most used ability? by hits",
                                      "which skill did {p} land most - by number of hits, not dmg"])
def test_a_figure_fragment_after_a_grouped_question_qualifies_it(match, template):
    """A verbless "by <figure>" after a question with its own subject and grouping is read with it, as one
    question: the grouping and the subject stay (it was answered as the match's total of the figure)."""
    name = min(p for p in match.players if not any(c.isdigit() for c in p))
    hits = match.truth["players"][name]["ability_hits"]
    top = max(hits, key=hits.get)
    got = match.ask(template.format(p=name))
    assert got.refusal is None and "ability" in got.plan.group_by, (got.plan.group_by, got.text)
    assert top in got.text and says(got.text, hits[top]), got.text
