"""One-match questions by word class, end to end on a simulated match (`renamed`) and checked against truth.py: the
chat spellings of little words (everyone, people, and, with, you), minutes written short after a number, basic
attacks left out in a relative clause, filler adverbs, positions in a purchase list, roster look-ups by side and
role, the asker's opponents, and conditions that take in 0 and 1."""

from __future__ import annotations

import functools
import re
from collections import Counter

import pytest

from combat_analysis.planner.read.spelling import spelled_out
from tests.support import said
from tests.support.truth_checks import truth_tool

says = functools.partial(said.says, clocks=False)


def leader(players: dict, figure: str, team: int | None = None, low: bool = False) -> tuple[str, float]:
    pool = {p: f[figure] for p, f in players.items() if team is None or f["team"] == team}
    best = (min if low else max)(pool.values())
    names = [p for p, v in pool.items() if v == best]
    assert len(names) == 1, f"the simulated match ties on {figure}: pick another"
    return names[0], best


# ---------------------------------------------------------------- 1: chat spellings of everyone, people, and, with

@pytest.mark.parametrize(("said", "written"), [
    ("did every1 die", "did everyone die"), ("evry1's kda", "everyone's kda"), ("any1 die to towers", "anyone die to towers"),
    ("kills n deaths", "kills and deaths"), ("kills&deaths", "kills and deaths"), ("dmg w/autos", "dmg with autos"),
    ("how much gold did u get", "how much gold did you get"), ("ppl who died", "people who died"),
    # not a chat word: a word that only starts like one, or a letter before a slash
    ("every10 seconds", "every10 seconds"), ("n/a", "n/a"), ("nerd", "nerd"),
    # a record: one lone letter after the slash ("w/l", "w/d/l") is no "with"; "w/a" still is
    ("his w/l this season", "his w/l this season"), ("w/d/l of thor", "w/d/l of thor"), ("gold w/a buff", "gold with a buff"),
])
def test_chat_spellings_are_written_out(said, written):
    assert re.sub(r"\s+", " ", spelled_out(said)).strip() == written


def test_a_name_keeps_its_chat_spelling():
    # a span kept (a name found there) is never rewritten
    assert spelled_out("u and n", keep=[(0, 1), (6, 7)]) == "u and n"


@pytest.mark.parametrize(("question", "figure"), [
    ("how many kills did every1 get", "kills"), ("evry1's deaths?", "deaths"), ("whats the kda of every1", "kda"),
    ("list ppl by gold", "gold"), ("assists for every1 pls", "assists"),
])
def test_everyone_said_in_chat_lists_every_player(renamed, question, figure):
    a = renamed.ask(question)
    assert a.refusal is None and a.plan.metrics[0] == figure, (a.text, a.plan)
    for name, row in renamed.truth["players"].items():
        assert name in a.text and says(a.text, row[figure]), (name, a.text)


@pytest.mark.parametrize("template", ["how many kills did {p} get n who had the most deaths",
                                      "{p} kills & who died the most", "{p}'s kills, n who had the most deaths?"])
def test_n_and_ampersand_join_two_questions(renamed, template):
    player = "MoonRiver"
    top, deaths = leader(renamed.truth["players"], "deaths") if _unique(renamed, "deaths") else (None, None)
    a = renamed.ask(template.format(p=player))
    assert says(a.text, renamed.truth["players"][player]["kills"]), a.text
    most = max(r["deaths"] for r in renamed.truth["players"].values())
    assert len(a.plan.parts) == 1 and a.plan.parts[0].metrics[0] == "deaths" and says(a.text, most), a.text
    assert top is None or top in a.text


def _unique(renamed, figure: str) -> bool:
    values = [r[figure] for r in renamed.truth["players"].values()]
    return values.count(max(values)) == 1


@pytest.mark.parametrize("question", ["who had the most gold n what did they build",
                                      "most gold & what did they buy"])
def test_n_before_a_pronoun_clause_is_a_step_on_the_leader(renamed, question):
    name, gold = leader(renamed.truth["players"], "gold")
    a = renamed.ask(question)
    assert a.plan.then is not None and a.plan.then.intent == "build_order", a.plan
    items = [t["item"] for t in renamed.truth["players"][name]["item_timeline"]]
    assert says(a.text, gold) and name in a.text and items[0] in a.text and items[-1] in a.text, a.text


# ------------------------------------------------------------- 2: minutes written short after a number are a time

@pytest.mark.parametrize(("question", "figure", "start"), [
    ("who had the most kills 20 min+", "kills", 1200), ("most gold 15+ mins", "gold", 900),
    ("who dealt the most dmg 25 mins+", "damage_dealt", 1500), ("top healer after 20 min", "healing_done", 1200),
    ("most deaths from the 20min mark onwards", "deaths", 1200), ("who had the most assists 10+ min", "assists", 600),
    ("most xp 18 minutes and later", "experience", 1080),
])
def test_a_number_followed_by_min_is_a_time_never_the_minimum(renamed, question, figure, start):
    window = truth_tool.window_stats(renamed.events, start, None)
    best = max(row[figure] for row in window.values())
    names = [p for p, row in window.items() if row[figure] == best]
    a = renamed.ask(question)
    assert a.plan.order == "desc" and a.plan.condition is None, a.plan
    assert a.plan.window is not None and a.plan.window.start_s == start and a.plan.window.end_s is None, a.plan
    assert all(n in a.text for n in names) and says(a.text, best), (names, best, a.text)


@pytest.mark.parametrize("template", ["{p} damage 20 minutes and later", "{p}'s gold 15 min+"])
def test_a_players_figure_after_a_short_minute(renamed, template):
    player = "MoonRiver"
    figure, start = ("damage_dealt", 1200) if "damage" in template else ("gold", 900)
    value = truth_tool.window_stats(renamed.events, start, None)[player][figure]
    a = renamed.ask(template.format(p=player))
    assert a.plan.window is not None and a.plan.window.start_s == start and says(a.text, value), a.text


@pytest.mark.parametrize("question", ["least kills", "min deaths", "who had the min gold", "gold per min leader"])
def test_min_without_a_number_keeps_its_old_reading(renamed, question):
    a = renamed.ask(question)
    assert a.plan.window is None
    assert a.plan.order == ("desc" if "per min" in question else "asc"), a.plan


# ------------------------------------------------- 3: basic attacks left out in a relative clause, with an owner

def _first_ability(ranked: dict[str, float]) -> tuple[str, float]:
    rows = [(a, v) for a, v in ranked.items() if not a.endswith("Basic Attack")]
    assert rows[0][1] != rows[1][1], "the simulated match ties here: pick another player"
    return rows[0]


@pytest.mark.parametrize(("template", "figure"), [
    ("{p}'s most used ability that isn't his auto", "ability_hits"),
    ("what ability did {p} use most that wasn't a basic", "ability_hits"),
    ("{p} top dmg ability that's not one of her basics", "abilities"),
    ("{p}'s best ability besides his auto", "abilities"),
    ("which ability did {p} hit hardest with thats not an auto attack", "abilities"),
    ("{p}'s highest damage ability which isnt their basic attack", "abilities"),
])
def test_basic_attacks_left_out_in_a_relative_clause(renamed, template, figure):
    player = "MoonRiver"
    ability, value = _first_ability(renamed.truth["players"][player][figure])
    a = renamed.ask(template.format(p=player))
    left_out = [f for f in a.plan.filters if f.dimension == "ability" and f.op == "!="]
    assert left_out and all(v.endswith("Basic Attack") for v in left_out[0].values), a.plan.filters
    assert not any(v.endswith("Basic Attack") for v in re.findall(r"[\w' ]+Basic Attack", a.text)), a.text
    assert ability in a.text and says(a.text, value), (ability, value, a.text)


# ------------------------------------------------------------ 4: filler adverbs carry no figure and change nothing

@pytest.mark.parametrize(("plain", "filled"), [
    ("how much damage did MoonRiver deal", "how much damage did MoonRiver deal specifically"),
    ("MoonRiver's gold", "MoonRiver's gold in particular"),
    ("who had the most assists", "who precisely had the most assists"),
    ("what was MoonRiver's kda after 20 min", "what was MoonRiver's kda, specifically after 20 min"),
    ("who healed the most", "basically, who healed the most overall"),
    ("who had the most kills", "in general who exactly had the most kills"),
])
def test_a_filler_adverb_is_neutral(renamed, plain, filled):
    a, b = renamed.ask(plain), renamed.ask(filled)
    assert b.plan.caveats == a.plan.caveats == () and b.refusal is None, b.plan.caveats
    assert (b.plan.metrics, b.plan.filters, b.plan.window, b.plan.order, b.plan.limit) == \
        (a.plan.metrics, a.plan.filters, a.plan.window, a.plan.order, a.plan.limit)
    assert b.text == a.text


# ------------------------------------------------- 8: conditions on a per-player figure that take in 0 and 1

@pytest.mark.parametrize(("question", "figure", "keep"), [
    ("name the players with one or more crits", "crits", lambda v: v >= 1),
    ("who got more than eight kills", "kills", lambda v: v > 8),
    ("players with 0 crits", "crits", lambda v: v == 0),
    ("anyone who had zero crits?", "crits", lambda v: v == 0),
    ("ppl with more than ten deaths", "deaths", lambda v: v > 10),
    ("which players landed no crits", "crits", lambda v: v == 0),
    ("every1 with at least twelve assists", "assists", lambda v: v >= 12),
    # a negated verb is none at all
    ("who didnt land a crit", "crits", lambda v: v == 0),
    ("which players never got a single crit", "crits", lambda v: v == 0),
    ("did anybody not land any crits?", "crits", lambda v: v == 0),
    # "which" before a word for people, and "anybody", ask about players
    ("which guys had 0 crits", "crits", lambda v: v == 0),
    ("which folks got more than eight kills", "kills", lambda v: v > 8),
])
def test_a_condition_said_with_0_1_or_a_number_word(renamed, question, figure, keep):
    players = renamed.truth["players"]
    kept = {p for p, row in players.items() if keep(row[figure])}
    assert kept and kept != set(players), "the simulated match keeps everyone or no one here: pick another"
    a = renamed.ask(question)
    assert a.plan.condition is not None and a.plan.order == "desc", a.plan
    for name in players:
        assert (name in a.text) == (name in kept), (name, a.text)
    assert all(says(a.text, players[p][figure]) for p in kept if players[p][figure]), a.text
    if not any(players[p][figure] for p in kept):  # none at all: the players are named, with how many
        assert a.text.startswith(f"{len(kept)} player"), a.text


@pytest.mark.parametrize("question", ["players with no deaths", "anyone with zero deaths", "who went deathless"])
def test_a_condition_no_one_meets_is_said(renamed, question):
    assert all(row["deaths"] > 0 for row in renamed.truth["players"].values())
    a = renamed.ask(question)
    assert a.plan.condition is not None and "no player" in a.text.lower(), a.text


# ------------------------------------------------------- 6: who filled a side's role, with the god they played

def _roster_of(renamed) -> dict[tuple[int, str], str]:
    from combat_analysis.warehouse.store import open_warehouse
    con = open_warehouse(renamed.log.parent / "wh", "renamed")
    try:
        return {(team, role): player for player, team, role in con.execute("SELECT player, team, role FROM players").fetchall()}
    finally:
        con.close()


@pytest.mark.parametrize(("question", "team", "role"), [
    ("who was chaos's mid and what god", 2, "Middle"), ("who played jungle for order", 1, "Jungle"),
    ("the order support's god", 1, "Support"), ("who's the team 2 adc", 2, "Carry"),
    ("who was the solo for chaos, what god", 2, "Solo"), ("which god did the order carry play", 1, "Carry"),
    ("chaos jungler n his god", 2, "Jungle"),
])
def test_a_sides_role_is_its_player_with_their_god(renamed, question, team, role):
    player = _roster_of(renamed)[(team, role)]
    god = renamed.truth["players"][player]["god"]
    a = renamed.ask(question)
    assert a.plan.metrics == ("roster",), a.plan
    assert player in a.text and god in a.text and f"team {team}" in a.text, a.text
    assert not re.search(r"\bKDA\b|damage", a.text), a.text


# ------------------------------------------------------------- 7: the asker's opponents, by the side they were on

@pytest.mark.parametrize(("question", "team"), [
    ("playing as order, what gods were we up against", 2), ("who were we facing (we were chaos)", 1),
    ("the enemy team's gods, I was on order", 2), ("we were order - who did we play against?", 2),
    ("as chaos, what gods were on the enemy team", 1), ("im MoonRiver, who was I facing", 2),
])
def test_the_askers_opponents_are_the_other_sides_players_with_their_gods(renamed, question, team):
    players = renamed.truth["players"]
    a = renamed.ask(question)
    assert a.plan.metrics == ("roster",), a.plan
    for name, row in players.items():
        assert (name in a.text) == (row["team"] == team), (name, a.text)
        if row["team"] == team:
            assert row["god"] in a.text, a.text


# ---------------------------------------------------------------- 5: places in a purchase list

def purchases(renamed, player: str) -> list[tuple[str, str]]:
    """(item, match clock) of each of a player's purchases in time order, file order within a second (truth.py's
    own clock from the match start)."""
    start = truth_tool.match_clock(renamed.events)[0]
    return [(e["itemname"], truth_tool.clock((e["_t"] - start).total_seconds())) for e in renamed.events
            if e.get("type") == "ItemPurchase" and e.get("sourceowner") == player]


@pytest.mark.parametrize(("template", "place"), [
    ("when did {p} buy their second item", 2), ("{p}'s 3rd purchase?", 3), ("what was the fourth thing {p} bought", 4),
])
def test_a_place_in_a_players_build_is_that_purchase(renamed, template, place):
    player = next(iter(renamed.truth["players"]))
    item, at = purchases(renamed, player)[place - 1]
    a = renamed.ask(template.format(p=player))
    assert a.refusal is None and item in a.text and at in a.text, (purchases(renamed, player)[:place], a.text)


def test_a_place_among_one_items_purchases_is_that_copy(renamed):
    player, (item, times_bought) = next(
        (p, next(((i, n) for i, n in Counter(f["items"]).items() if n >= 2), (None, 0)))
        for p, f in renamed.truth["players"].items() if max(Counter(f["items"]).values()) >= 2)
    at = [t for i, t in purchases(renamed, player) if i == item]
    a = renamed.ask(f"when did {player} pick up the second {item}")
    assert a.refusal is None and at[1] in a.text and f"second purchase of {item}" in a.text, (at, a.text)
    beyond = renamed.ask(f"when did {player} get her sixth {item}") if times_bought < 6 else None
    assert beyond is None or f"only {times_bought} purchases" in beyond.text, beyond and beyond.text


@pytest.mark.parametrize("template", ["{p}'s opening buy and the final thing they bought", "first and last items {p} got"])
def test_the_first_and_the_last_purchase_asked_together_are_both_answered(renamed, template):
    player = next(iter(renamed.truth["players"]))
    bought = purchases(renamed, player)
    a = renamed.ask(template.format(p=player))
    assert a.refusal is None and bought[0][0] in a.text and bought[-1][0] in a.text, (bought[0], bought[-1], a.text)
    assert a.text.index(bought[0][0]) < a.text.rindex(bought[-1][0]), a.text
