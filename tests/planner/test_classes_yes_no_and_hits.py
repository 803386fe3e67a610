"""One-match answer shapes of the twelfth round, end to end on the simulated matches of `match` and `spoken`, every
figure from truth.py (its figures or its events): a yes or no comparison of two subjects opens with the truthful Yes
or No (level figures are neither), the biggest hit of the match, a player, a side or a window names its ability and
target, a check after the question about its answer's subject never narrows the question, and a side's place on the
gold difference minute by minute."""

from __future__ import annotations

import re

import pytest

from tests.support.said import says

_DAMAGE = ("Damage", "CritDamage")
SIDES = {1: "order", 2: "chaos"}


def _verdict(text: str) -> str:
    return "Yes" if text.startswith("Yes") else "No" if text.startswith("No") else "neither"


# --------------------------------------------------------------------- 1: a yes or no comparison of two subjects

def _two_players(truth: dict, figure: str) -> tuple[str, str]:
    """Two players whose figure differs, the first the one with more."""
    ranked = sorted(truth["players"], key=lambda p: (-truth["players"][p][figure], p))
    return ranked[0], ranked[-1]


@pytest.mark.parametrize(("template", "figure", "way"), [
    ("did {a} out-damage {b}", "damage_dealt", "more"),
    ("did {a} outheal {b}?", "healing_done", "more"),
    ("was {a}'s gold higher than {b}'s", "gold", "more"),
    ("did {a} die less than {b}", "deaths", "less"),
    ("so did {a} take more dmg than {b}", "damage_taken", "more"),
    ("did {a} have fewer assists than {b}", "assists", "less"),
])
@pytest.mark.parametrize("order", ["high first", "low first"])
def test_a_yes_or_no_comparison_of_two_players_opens_with_the_truthful_answer(match, template, figure, way, order):
    high, low = _two_players(match.truth, figure)
    a, b = (high, low) if order == "high first" else (low, high)
    va, vb = match.truth["players"][a][figure], match.truth["players"][b][figure]
    got = match.ask(template.format(a=a, b=b))
    want = "Yes" if (va > vb if way == "more" else va < vb) else "No"
    assert _verdict(got.text) == want, (got.text, va, vb)
    assert says(got.text, va) and says(got.text, vb) and a in got.text and b in got.text, got.text


@pytest.mark.parametrize(("template", "figure", "way"), [
    ("did {x} get more kills than {y}", "kills", "more"),
    ("did {x} out-farm {y}", "gold", "more"),
    ("did {x} deal less damage than {y} overall", "damage_dealt", "less"),
    ("was {x} healing lower than {y}'s?", "healing_done", "less"),
])
@pytest.mark.parametrize("first", [1, 2])
def test_a_yes_or_no_comparison_of_the_two_sides(match, template, figure, way, first):
    second = 3 - first
    va, vb = match.truth["teams"][str(first)][figure], match.truth["teams"][str(second)][figure]
    got = match.ask(template.format(x=SIDES[first], y=SIDES[second]))
    want = "Yes" if (va > vb if way == "more" else va < vb) else "No"
    assert _verdict(got.text) == want, (got.text, va, vb)
    assert says(got.text, va) and says(got.text, vb), got.text


@pytest.mark.parametrize(("template", "x", "y", "figure", "way"), [
    ("did the supports heal more than the junglers", "Support", "Jungle", "healing_done", "more"),
    ("did the mids outdamage the carries", "Middle", "Carry", "damage_dealt", "more"),
    ("did the solo laners die less than the supports?", "Solo", "Support", "deaths", "less"),
])
def test_a_yes_or_no_comparison_of_two_roles_sums_each_role(match, template, x, y, figure, way):
    va, vb = match.truth["roles"][x][figure], match.truth["roles"][y][figure]
    got = match.ask(template)
    want = "Yes" if (va > vb if way == "more" else va < vb) else "No"
    assert _verdict(got.text) == want and says(got.text, va) and says(got.text, vb), (got.text, va, vb)


def test_a_yes_or_no_comparison_of_two_gods_is_of_their_players(match):
    gods = {}
    for name, p in match.players.items():
        gods.setdefault(p.god, []).append(name)
    (ga, (a,)), (gb, (b,)) = [(g, ps) for g, ps in sorted(gods.items()) if len(ps) == 1][:2]
    va, vb = match.truth["players"][a]["kills"], match.truth["players"][b]["kills"]
    got = match.ask(f"did the {ga.lower()} out-kill the {gb.lower()}")
    want = "Yes" if va > vb else "No" if va < vb else "neither"
    assert _verdict(got.text) == want and says(got.text, va) and says(got.text, vb), (got.text, va, vb)


@pytest.mark.parametrize("template", ["did {a} get more kills than {b}", "were {a}'s kills fewer than {b}'s"])
def test_level_figures_are_neither_yes_nor_no(match, template):
    players = match.truth["players"]
    level = [(a, b) for a in sorted(players) for b in sorted(players) if a < b and players[a]["kills"] == players[b]["kills"]]
    assert level, "the simulated match has two players level on kills"
    a, b = level[0]
    got = match.ask(template.format(a=a, b=b))
    assert _verdict(got.text) == "neither" and "level" in got.text and says(got.text, players[a]["kills"]), got.text


@pytest.mark.parametrize("template", ["who had more assists, {a} or {b}, and did {a} deal more damage than {b}",
                                      "did {a} deal more damage than {b}, and who got more assists"])
def test_a_yes_or_no_comparison_asked_beside_another_question(match, template):
    a, b = _two_players(match.truth, "damage_dealt")[::-1]
    va, vb = match.truth["players"][a]["damage_dealt"], match.truth["players"][b]["damage_dealt"]
    got = match.ask(template.format(a=a, b=b))
    want = "Yes" if va > vb else "No"
    assert re.search(rf"(?:^|\. ){want}\. Damage dealt", got.text) and says(got.text, va) and says(got.text, vb), \
        (got.text, va, vb)


def test_a_threshold_is_no_comparison_of_two_subjects(match):
    a = sorted(match.truth["players"])[0]
    got = match.ask(f"did {a} get more than 2 kills")
    assert got.plan.compare is None, got.plan


# ----------------------------------------------------------------------- 2: the biggest hit, its ability and target

def _hits(match, keep=lambda e: True) -> list[dict]:
    return [e for e in match.events if e.get("type") in _DAMAGE and e.get("sourceowner") in match.players and keep(e)]


def _biggest(hits: list[dict]) -> dict:
    """The biggest hit, the first in the log of that size (truth.py's rule)."""
    return max(hits, key=lambda e: (float(e["value1"]), -e["_line"]))


def _names_the_hit(text: str, hit: dict) -> bool:
    return all(w in text for w in (hit["sourceowner"], hit["itemname"], hit["targetowner"])) and \
        says(text, float(hit["value1"]))


@pytest.mark.parametrize("question", ["tell me the single biggest hit in this match",
                                      "the game's biggest hit: with which ability?",
                                      "who hit the hardest in one hit, and on whom",
                                      "largest hit anyone landed: who and with what"])
def test_the_biggest_hit_of_the_match_names_player_amount_ability_and_target(match, question):
    hit = match.truth["biggest_hit"]
    got = match.ask(question)
    assert all(hit[k] in got.text for k in ("player", "ability", "target")) and says(got.text, hit["value"]), \
        (got.text, hit)


@pytest.mark.parametrize("template", ["what was {p}'s biggest hit", "{p} hardest single hit?",
                                      "the largest hit {p} landed, with which ability"])
def test_one_players_biggest_hit_names_its_ability_and_target(match, template):
    player = sorted(match.players)[3]
    hit = _biggest(_hits(match, lambda e: e["sourceowner"] == player))
    got = match.ask(template.format(p=player))
    assert _names_the_hit(got.text, hit), (got.text, hit)


@pytest.mark.parametrize(("template", "side"), [("what was chaos's biggest hit", 2), ("order's largest single hit", 1),
                                                ("biggest hit by team 2", 2)])
def test_one_sides_biggest_hit_names_its_player_ability_and_target(match, template, side):
    hit = _biggest(_hits(match, lambda e: match.players[e["sourceowner"]].team == side))
    got = match.ask(template)
    assert _names_the_hit(got.text, hit), (got.text, hit)


@pytest.mark.parametrize(("question", "lo", "hi"), [("biggest hit in the first 10 minutes", 0, 600),
                                                    ("what was the largest single hit after minute 20", 1200, 10**6)])
def test_the_biggest_hit_of_a_window_names_its_ability_and_target(match, question, lo, hi):
    hit = _biggest(_hits(match, lambda e: lo <= e["_s"] < hi))
    got = match.ask(question)
    assert _names_the_hit(got.text, hit), (got.text, hit)


# ------------------------------------------------------------------- 3: a check of the answer's subject, after it

def _leaders(truth: dict, figure: str, lowest: bool = False) -> list[str]:
    players = truth["players"]
    end = (min if lowest else max)(players[p][figure] for p in players)
    return [p for p in players if players[p][figure] == end]


@pytest.mark.parametrize(("template", "figure", "lowest", "checked"), [
    ("whose damage was the lowest of everyone, and is that one a {v}", "damage_dealt", True, "role"),
    ("who piled up the most kills, was that {v}", "kills", False, "team"),
    ("which player earned the most gold - is he on {v}?", "gold", False, "team"),
    ("who healed the most, and did they play {v}", "healing_done", False, "god"),
    ("lowest assists in the match? was it a {v}", "assists", True, "role"),
])
@pytest.mark.parametrize("same", [True, False])
def test_a_check_after_the_question_is_answered_of_its_subject_and_never_narrows_it(match, template, figure, lowest,
                                                                                    checked, same):
    leaders = _leaders(match.truth, figure, lowest)
    leader = match.players[leaders[0]]
    actual = getattr(leader, checked)
    other = next(getattr(p, checked) for p in match.players.values() if getattr(p, checked) != actual)
    asked = actual if same else other
    said = SIDES[asked] if checked == "team" else asked.lower()
    got = match.ask(template.format(v=said))
    # the question is answered over everyone: the leader of all players and their figure
    assert got.refusal is None and leaders[0] in got.text and says(got.text, match.truth["players"][leaders[0]][figure]), \
        got.text
    assert not [f for f in got.plan.filters if f.dimension == checked], got.plan.filters
    check = got.text[got.text.index(". ") + 2:] if ". " in got.text else ""
    want = "Yes" if all(getattr(match.players[p], checked) == asked for p in leaders) else \
        "No" if all(getattr(match.players[p], checked) != asked for p in leaders) else "Not all"
    assert check.startswith(want), (got.text, leaders, asked)
    truly = f"team {actual}" if checked == "team" else actual
    assert truly in check, (got.text, truly)


def _after_answer(text: str) -> str:
    return text[text.index(". ") + 2:] if ". " in text else ""


@pytest.mark.parametrize("template", ["who got the most frags, and was it {p}", "top killer in the game - was that {p}?",
                                      "most kills? was it the {s} {r}"])
@pytest.mark.parametrize("same", [True, False])
def test_a_check_of_a_player_by_name_or_by_side_and_role(match, template, same):
    leaders = _leaders(match.truth, "kills")
    asked = leaders[0] if same else next(p for p in sorted(match.players) if p not in leaders)
    info = match.players[asked]
    got = match.ask(template.format(p=asked, s=SIDES[info.team], r=info.role.lower()))
    assert got.refusal is None and leaders[0] in got.text and says(got.text, match.truth["players"][leaders[0]]["kills"])
    assert got.plan.check is not None and got.plan.check.values == (asked,), got.plan.check
    want = "Yes" if leaders == [asked] else "No" if asked not in leaders else "Not all"
    assert _after_answer(got.text).startswith(want), (got.text, leaders, asked)


def test_a_check_of_a_gods_side_reads_its_players(match):
    gods = {}
    for name, p in match.players.items():
        gods.setdefault(p.god, []).append(name)
    board = {g: sum(match.truth["players"][p]["damage_dealt"] for p in ps) for g, ps in gods.items()}
    top = max(board, key=lambda g: board[g])
    sides = {match.players[p].team for p in gods[top]}
    got = match.ask("which god put out the most damage, and was it on order")
    assert top in got.text and says(got.text, board[top]) and got.plan.group_by == ("god",), got.text
    want = "Yes" if sides == {1} else "No" if 1 not in sides else "Partly"
    assert _after_answer(got.text).startswith(want), (got.text, sides)


def test_a_question_without_a_check_is_planned_as_before(match):
    got = match.ask("which support dealt the least damage")
    assert got.plan.check is None and [f for f in got.plan.filters if f.dimension == "role"], got.plan


# ------------------------------------------------------------------ 4: a side's place on the gold difference by minute

def _place(truth: dict, side: int) -> tuple[list[int], list[int], tuple[int, float] | None]:
    """The minutes a side led and trailed on the gold difference (METRICS.md: team 1 minus team 2) and its largest
    lead with its minute."""
    diffs = [d if side == 1 else -d for d in truth["team_gold_difference_by_minute"]]
    ahead = [m for m, d in enumerate(diffs) if d > 0]
    behind = [m for m, d in enumerate(diffs) if d < 0]
    best = max(((m, diffs[m]) for m in ahead), key=lambda md: (md[1], -md[0]), default=None)
    return ahead, behind, best


@pytest.mark.parametrize(("template", "way"), [("was {s} ever ahead in gold", "ahead"),
                                               ("did {s} lead on the gold graph at any point", "ahead"),
                                               ("at any point was {s} behind in gold minute by minute", "behind"),
                                               ("did {s} ever trail on gold, and by how much", "behind")])
@pytest.mark.parametrize("fixture", ["match", "spoken"])
@pytest.mark.parametrize("side", [1, 2])
def test_whether_a_side_was_ever_ahead_on_the_gold_difference(request, fixture, template, way, side):
    game = request.getfixturevalue(fixture)
    ahead, behind, best = _place(game.truth, side)
    got = game.ask(template.format(s=SIDES[side]))
    asked = ahead if way == "ahead" else behind
    assert _verdict(got.text) == ("Yes" if asked else "No"), (got.text, ahead, behind)
    assert got.plan.metrics[0] == "gold_diff", got.plan
    if best is None:
        assert "never ahead" in got.text, got.text
    else:
        minute, lead = best
        assert f"largest lead {lead:,.0f} at minute {minute}" in got.text, (got.text, best)
        assert f"ahead on gold in {len(ahead)} of the" in got.text or f"ahead in {len(ahead)} of the" in got.text, \
            got.text
