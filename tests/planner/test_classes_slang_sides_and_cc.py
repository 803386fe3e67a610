"""Reading classes of the sixth round, end to end on the simulated match of `match`, every figure from truth.py
(its figures, its window_stats and its events): being beaten said in the passive is dying, a chat past tense with
"'d", a slip in a verb of receiving, the early or late game said as a bare adverb, a side's names asked for, whom a
player killed said with any killing verb, a role set against itself, and crowd control by kind (refused) or on a
player (its target)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.said import has_number, says
from tests.support.truth_checks import truth_tool


def _leader(figures: dict[str, float]) -> tuple[str, float]:
    name = max(figures, key=lambda k: figures[k])
    return name, figures[name]


def _window(match, lo: int, hi: int | None, key: str) -> dict[str, float]:
    stats = truth_tool.window_stats(match.events, lo, hi)
    return {p: stats[p][key] for p in match.players}


def _unique_leader(figures: dict[str, float]) -> bool:
    top = sorted(figures.values(), reverse=True)
    return len(top) < 2 or top[0] != top[1]


# --------------------------------------------------------------------------- being beaten is dying

@pytest.mark.parametrize("template", ["who got stomped the most{w}", "who was getting clapped the most{w}",
                                      "which player got bodied most{w}?", "who got smoked the most times{w}"])
@pytest.mark.parametrize(("window", "lo", "hi"), [("", 0, None), (" in the late game", 1200, None)])
def test_being_beaten_said_in_the_passive_is_dying(match, template, window, lo, hi):
    deaths = _window(match, lo, hi, "deaths")
    leader, value = _leader(deaths)
    got = match.ask(template.format(w=window))
    assert got.plan.metrics == ("deaths",), got.plan
    assert says(got.text, value) and (leader in got.text or not _unique_leader(deaths)), (got.text, deaths)


@pytest.mark.parametrize("typed", ["who int'd the most", "who feed'd the hardest"])
def test_a_chat_past_tense_with_an_apostrophe_is_the_verb(match, typed):
    deaths = {p: match.truth["players"][p]["deaths"] for p in match.players}
    got = match.ask(typed)
    assert got.plan.metrics == ("deaths",) and says(got.text, max(deaths.values())), got.text


# --------------------------------------------------------------------------- a slip in a verb of receiving

@pytest.mark.parametrize(("template", "key"), [("how much healing did {p} recieve", "healing_received"),
                                                ("how much dmg did {p} recieve", "damage_taken"),
                                                ("healing recived by {p}?", "healing_received")])
def test_a_slip_in_a_verb_of_receiving_is_still_receiving(match, template, key):
    player = sorted(match.players)[3]
    want = match.truth["players"][player][key]
    got = match.ask(template.format(p=player))
    assert says(got.text, want), (got.text, want)


# --------------------------------------------------------------------------- the phase as a bare adverb

@pytest.mark.parametrize(("template", "lo", "hi"), [
    ("how many times did {p} die early?", 0, 600), ("did {p} get farmed early", 0, 600),
    ("how many kills did {p} get late", 1200, None), ("{p} deaths early in the game", 0, 600)])
def test_a_phase_said_as_a_bare_adverb_is_its_window(match, template, lo, hi):
    player = sorted(match.players)[1]
    stats = truth_tool.window_stats(match.events, lo, hi)
    key = "kills" if "kills" in template else "deaths"
    got = match.ask(template.format(p=player))
    whole = match.truth["players"][player][key]
    assert says(got.text, stats[player][key]), (got.text, stats[player][key])
    assert whole == stats[player][key] or not says(got.text, whole), got.text


def test_how_early_asks_for_a_time_not_a_window(match):
    got = match.ask("how early was first blood?")
    assert got.plan.window is None, got.plan


# --------------------------------------------------------------------------- a side's names

@pytest.mark.parametrize(("template", "team"), [("whos on {side} side? names pls", None), ("list the {side} team", None),
                                                ("{side} side names?", None), ("who's on the winning team", "won")])
@pytest.mark.parametrize("side", ["order", "chaos"])
def test_a_sides_names_asked_for_list_its_players(match, template, team, side):
    number = match.truth["winner"] if team == "won" else (1 if side == "order" else 2)
    got = match.ask(template.format(side=side))
    mine = [p for p, info in match.players.items() if info.team == number]
    theirs = [p for p, info in match.players.items() if info.team != number]
    assert all(p in got.text for p in mine) and not any(p in got.text for p in theirs), got.text


# --------------------------------------------------------------------------- whom a player killed

def _victims(match, killer: str) -> Counter:
    return Counter(e["targetowner"] for e in match.events if e.get("type") == "KillingBlow"
                   and e.get("sourceowner") == killer and e.get("targetowner") in match.players)


@pytest.mark.parametrize("template", ["which enemy did {p} get the most kills on", "on whom did {p} farm kills the most",
                                      "who was {p}'s favourite target to kill", "whom did the {g} murder most"])
def test_whom_a_player_killed_most_said_with_any_killing_verb(match, template):
    killer = max(match.players, key=lambda p: (_victims(match, p).most_common(1)[0][1] if _victims(match, p) else 0,
                                               -len(_victims(match, p))))
    victim, times = _victims(match, killer).most_common(1)[0]
    got = match.ask(template.format(p=killer, g=match.players[killer].god))
    assert victim in got.text and says(got.text, times), (got.text, _victims(match, killer))
    assert not says(got.text, match.truth["players"][killer]["kills"]) or \
        match.truth["players"][killer]["kills"] == times, got.text


# --------------------------------------------------------------------------- a role against itself

@pytest.mark.parametrize(("template", "role", "key"), [("gold, mid vs mid", "Middle", "gold"),
                                                        ("solo v solo kills", "Solo", "kills"),
                                                        ("jungle vs jungle kills", "Jungle", "kills")])
def test_a_role_set_against_itself_compares_its_two_players_over_the_match(match, template, role, key):
    got = match.ask(template)
    for player, info in match.players.items():
        if info.role == role:
            assert player in got.text and says(got.text, match.truth["players"][player][key]), got.text
    assert got.plan.window is None, got.plan


# --------------------------------------------------------------------------- crowd control by kind, and on a player

@pytest.mark.parametrize("template", ["how many times was {p} stunned specifically, not slowed", "stuns vs roots for {p}",
                                      "what kind of cc did {p} use most", "{p} cc count, only counting stuns",
                                      "did {p} land more roots or slows"])
def test_one_kind_of_crowd_control_singled_out_is_refused(match, template):
    player = sorted(match.players)[0]
    got = match.ask(template.format(p=player))
    assert got.refusal is not None and "kind" in got.text and not has_number(got.text.replace(player, "")), \
        got.text


def _cc_on(match, target: str) -> Counter:
    return Counter(e["sourceowner"] for e in match.events if e.get("type") == "CrowdControl"
                   and e.get("targetowner") == target and e.get("sourceowner") in match.players)


@pytest.mark.parametrize("template", ["who cc'd {p} the most", "who stunned {p} most often", "which player rooted {p} most"])
def test_crowd_control_put_on_a_player_is_counted_by_its_target(match, template):
    target = max(match.players, key=lambda p: sum(_cc_on(match, p).values()))
    board = _cc_on(match, target)
    top = board.most_common(1)[0][1]
    got = match.ask(template.format(p=target))
    leaders = [p for p, n in board.items() if n == top]
    assert any(p in got.text for p in leaders) and says(got.text, top), (got.text, board.most_common(3))
    assert not says(got.text, match.truth["players"][target]["cc_applied"]) or \
        match.truth["players"][target]["cc_applied"] == top, got.text
