"""Yes or no checks of a superlative, end to end on the simulated matches of `match` and `spoken`, every figure from
truth.py (its figures, its window_stats and its events): whether one player, god, side or role holds the most or the
least of a figure, in the whole match or a window, opens with the truthful Yes or No, the subject's own figure, and
when No who held it and with how much (a tie is said to be shared); words that frame a claim to be checked ("is it
true that", "am i right that", "..., right?") are the question's yes or no, never unread words, and a claim of a plain
fact (who won, who drew first blood) is answered Yes or No too."""

from __future__ import annotations

import pytest

from tests.support.said import says
from tests.support.truth_checks import truth_tool

SIDES = {1: "order", 2: "chaos"}
RATIOS = ("kda", "kd", "gpm", "dpm", "xpm")


def _verdict(text: str) -> str:
    return "Yes" if text.startswith("Yes") else "No" if text.startswith("No") else "neither"


def _ends(scores: dict, lowest: bool) -> tuple[list, float]:
    """Every subject holding the end asked (the most, or the least) and that figure."""
    end = (min if lowest else max)(scores.values())
    return sorted((k for k, v in scores.items() if v == end), key=str), end


def _other(scores: dict, holders: list) -> object:
    """A subject that does not hold it, the one furthest from it."""
    return max((k for k in scores if k not in holders), key=lambda k: (abs(scores[k] - scores[holders[0]]), str(k)))


def _assert_checked(got, subject: object, said: str, scores: dict, lowest: bool, figure: str) -> None:
    """The answer opens with the truthful Yes or No, gives the subject's own figure, and when No, who held it and with
    how much; a subject level with others at the end shares it."""
    holders, end = _ends(scores, lowest)
    tol = 0.006 if figure in RATIOS else 0.5
    text = got.text
    assert got.refusal is None and "was not used" not in text, text
    assert _verdict(text) == ("Yes" if subject in holders else "No"), (text, holders, end, scores[subject])
    assert said in text and says(text, scores[subject], tol), (text, said, scores[subject])
    if subject in holders:
        assert ("shares it" in text) == (len(holders) > 1), (text, holders)
    else:
        assert says(text, end, tol) and any(str(h) in text for h in holders), (text, holders, end)


# ------------------------------------------------------------------------------------ 1: one player holds it or not

@pytest.mark.parametrize(("template", "figure", "lowest"), [
    ("did {p} deal the most damage", "damage_dealt", False),
    ("was {p} the top killer in this game", "kills", False),
    ("has {p} got the fewest deaths of anyone?", "deaths", True),
    ("did {p} earn more gold than everybody else", "gold", False),
    ("was {p} the one with the lowest kda", "kda", True),
    ("is {p} number one on assists", "assists", False),
    ("did {p} tank the most dmg", "damage_taken", False),
    ("did {p} outheal everyone", "healing_done", False),
    ("was {p} the deadliest player", "kills", False),
])
@pytest.mark.parametrize("holds", [True, False])
@pytest.mark.parametrize("fixture", ["match", "sample"])
def test_whether_one_player_holds_a_superlative(request, fixture, template, figure, lowest, holds):
    game = request.getfixturevalue(fixture)
    scores = {p: game.truth["players"][p][figure] for p in game.players}
    holders, _ = _ends(scores, lowest)
    player = holders[0] if holds else _other(scores, holders)
    got = game.ask(template.format(p=player))
    _assert_checked(got, player, player, scores, lowest, figure)
    # ranked over everyone, the subject checked, never a filter that leaves the others out
    assert got.plan.check is not None and got.plan.check.values == (player,), got.plan
    assert not [f for f in got.plan.filters if f.dimension == "player"], got.plan.filters


@pytest.mark.parametrize(("template", "figure", "lowest", "lo", "hi"), [
    ("did {p} get the most kills in the first 10 minutes", "kills", False, 0, 600),
    ("after minute 20 did {p} deal the most damage", "damage_dealt", False, 1200, None),
    ("was {p} the player with the least gold in the early game", "gold", True, 0, 600),
    ("between minute 10 and 20, did {p} die the most", "deaths", False, 600, 1200),
])
@pytest.mark.parametrize("holds", [True, False])
def test_whether_one_player_holds_a_superlative_in_a_window(match, template, figure, lowest, lo, hi, holds):
    stats = truth_tool.window_stats(match.events, lo, hi)
    scores = {p: stats[p][figure] for p in match.players}
    holders, _ = _ends(scores, lowest)
    player = holders[0] if holds else _other(scores, holders)
    _assert_checked(match.ask(template.format(p=player)), player, player, scores, lowest, figure)


def test_a_subject_level_with_another_at_the_top_shares_it(match):
    """A window and figure where two or more players are level at the top (found in the match's own figures)."""
    found = None
    for lo, hi in ((0, 300), (0, 420), (0, 600), (300, 600), (600, 900)):
        stats = truth_tool.window_stats(match.events, lo, hi)
        for figure in ("kills", "deaths", "assists"):
            scores = {p: stats[p][figure] for p in match.players}
            holders, end = _ends(scores, False)
            if len(holders) > 1 and end > 0:
                found = found or (lo, hi, figure, scores, holders)
    assert found, "the simulated match has a window where two players are level at the top"
    lo, hi, figure, scores, holders = found
    verb = {"kills": "get the most kills", "deaths": "die the most", "assists": "have the most assists"}[figure]
    got = match.ask(f"did {holders[-1]} {verb} between minute {lo // 60} and {hi // 60}")
    _assert_checked(got, holders[-1], holders[-1], scores, False, figure)
    assert all(h in got.text for h in holders), (got.text, holders)


# ------------------------------------------------------------------------------------ 2: a god, a side, a role

def _gods(match) -> dict[str, list[str]]:
    gods: dict[str, list[str]] = {}
    for name, p in match.players.items():
        gods.setdefault(p.god, []).append(name)
    return gods


@pytest.mark.parametrize(("template", "figure", "lowest"), [
    ("did the {g} deal the most damage", "damage_dealt", False),
    ("was {g} the god that died least", "deaths", True),
    ("did the {g} player have the highest gpm", "gpm", False),
])
@pytest.mark.parametrize("holds", [True, False])
def test_a_god_of_one_player_is_that_player(match, template, figure, lowest, holds):
    gods = _gods(match)
    scores = {ps[0]: match.truth["players"][ps[0]][figure] for ps in gods.values() if len(ps) == 1}
    assert len(scores) == len(match.players), "every god of the simulated match has one player"
    holders, _ = _ends(scores, lowest)
    player = holders[0] if holds else _other(scores, holders)
    god = match.players[player].god
    got = match.ask(template.format(g=god.lower()))
    _assert_checked(got, player, player, scores, lowest, figure)
    assert f"({god})" in got.text, got.text


@pytest.mark.parametrize(("template", "figure", "lowest"), [
    ("did {s} have the highest kills", "kills", False),
    ("was {s} the side with the fewest deaths", "deaths", True),
    ("did team {n} earn the most gold?", "gold", False),
    ("did {s} do the most healing in the match", "healing_done", False),
    ("was {s} the richest side", "gold", False),
    ("was {s} the side with more crowd control", "cc_applied", False),
    ("did {s} die less", "deaths", True),
])
@pytest.mark.parametrize("side", [1, 2])
@pytest.mark.parametrize("fixture", ["match", "spoken"])
def test_whether_a_side_holds_a_superlative(request, fixture, template, figure, lowest, side):
    game = request.getfixturevalue(fixture)
    scores = {t: game.truth["teams"][str(t)][figure] for t in (1, 2)}
    got = game.ask(template.format(s=SIDES[side], n=side))
    _assert_checked(got, side, f"eam {side}", scores, lowest, figure)
    assert got.plan.group_by == ("team",) and got.plan.check.values == (side,), got.plan


@pytest.mark.parametrize(("template", "figure", "lowest"), [
    ("did the {r} heal the most", "healing_done", False),
    ("were the {r} the role with the least damage dealt", "damage_dealt", True),
    ("did the {r} get the most kills of any role", "kills", False),
])
@pytest.mark.parametrize(("said", "role"), [("supports", "Support"), ("junglers", "Jungle"), ("mid laners", "Middle"),
                                            ("solos", "Solo")])
def test_whether_a_role_holds_a_superlative_sums_its_players(match, template, figure, lowest, said, role):
    scores = {r: v[figure] for r, v in match.truth["roles"].items()}
    got = match.ask(template.format(r=said))
    _assert_checked(got, role, role, scores, lowest, figure)
    assert got.plan.group_by == ("role",), got.plan


def test_a_side_said_beside_a_player_is_whom_they_are_ranked_among(match):
    side = 1
    on_side = {p: match.truth["players"][p]["kills"] for p in match.players if match.players[p].team == side}
    holders, _ = _ends(on_side, False)
    player = _other(on_side, holders)
    got = match.ask(f"did {player} get the most kills on {SIDES[side]}")
    _assert_checked(got, player, player, on_side, False, "kills")
    assert f"team {side}" in got.text, got.text


# ------------------------------------------------------------------- 3: a claim framed to be checked, plain or superlative

@pytest.mark.parametrize(("frame", "plain"), [
    ("is it true that {p} dealt the most damage", "did {p} deal the most damage"),
    ("am i right that {p} got the fewest deaths of anyone?", "has {p} got the fewest deaths of anyone?"),
    ("correct me if i'm wrong but {p} had the most assists", "did {p} have the most assists"),
    ("would you say {p} earned more gold than everybody else", "did {p} earn more gold than everybody else"),
    ("{p} was the top killer in this game, right?", "was {p} the top killer in this game"),
    ("i heard {p} healed the most - true?", "did {p} heal the most"),
])
@pytest.mark.parametrize("holds", [True, False])
def test_framing_words_neither_go_unread_nor_change_the_answer(match, frame, plain, holds):
    figure = {"damage": "damage_dealt", "deaths": "deaths", "assists": "assists", "gold": "gold", "killer": "kills",
              "healed": "healing_done"}[next(w for w in ("damage", "deaths", "assists", "gold", "killer", "healed")
                                             if w in frame)]
    lowest = "fewest" in frame
    scores = {p: match.truth["players"][p][figure] for p in match.players}
    holders, _ = _ends(scores, lowest)
    player = holders[0] if holds else _other(scores, holders)
    framed, bare = match.ask(frame.format(p=player)), match.ask(plain.format(p=player))
    _assert_checked(framed, player, player, scores, lowest, figure)
    assert framed.text == bare.text, (framed.text, bare.text)


@pytest.mark.parametrize("template", ["is it true that {p} got first blood", "{p} drew first blood, right?",
                                      "correct me if im wrong, {p} got fb", "did {p} get first blood"])
@pytest.mark.parametrize("holds", [True, False])
def test_a_claim_of_first_blood_by_a_player_is_answered_yes_or_no(match, template, holds):
    killer = match.truth["first_blood"]["killer"]
    player = killer if holds else sorted(p for p in match.players if p != killer)[0]
    got = match.ask(template.format(p=player))
    assert got.refusal is None and "was not used" not in got.text, got.text
    assert _verdict(got.text) == ("Yes" if holds else "No") and killer in got.text, (got.text, killer)
    assert match.truth["first_blood"]["clock"] in got.text, got.text


@pytest.mark.parametrize("template", ["am i right that {s} won", "would you say {s} won the game",
                                      "did {s} win", "{s} took the win, correct?"])
@pytest.mark.parametrize("side", [1, 2])
def test_a_claim_that_a_side_won_is_answered_yes_or_no(sample, template, side):
    winner = sample.truth["winner"]
    assert winner in (1, 2), "a Titan fell in the sample match"
    got = sample.ask(template.format(s=SIDES[side]))
    assert got.refusal is None and "was not used" not in got.text, got.text
    assert _verdict(got.text) == ("Yes" if side == winner else "No") and f"team {winner}" in got.text, got.text


@pytest.mark.parametrize("question", ["did order win", "is it true that chaos won"])
def test_a_claim_that_a_side_won_a_match_with_no_winner_is_neither(match, question):
    assert match.truth["winner"] is None, "no Titan fell in the simulated match"
    got = match.ask(question)
    assert _verdict(got.text) == "neither" and "winner is unknown" in got.text, got.text


@pytest.mark.parametrize("template", ["is it true that {s} drew first blood", "{s} got first blood, no?"])
@pytest.mark.parametrize("side", [1, 2])
def test_a_claim_that_a_side_drew_first_blood_reads_the_killers_side(match, template, side):
    killer = match.truth["first_blood"]["killer"]
    got = match.ask(template.format(s=SIDES[side]))
    assert _verdict(got.text) == ("Yes" if match.players[killer].team == side else "No") and killer in got.text, \
        got.text


@pytest.mark.parametrize("template", ["is it true that {a} dealt more damage than {b}", "{a} outdamaged {b}, right?"])
def test_a_framed_comparison_of_two_players_is_the_yes_or_no_comparison(match, template):
    ranked = sorted(match.players, key=lambda p: -match.truth["players"][p]["damage_dealt"])
    for a, b in ((ranked[0], ranked[-1]), (ranked[-1], ranked[0])):
        va, vb = match.truth["players"][a]["damage_dealt"], match.truth["players"][b]["damage_dealt"]
        got = match.ask(template.format(a=a, b=b))
        assert _verdict(got.text) == ("Yes" if va > vb else "No") and says(got.text, va) and says(got.text, vb), \
            got.text


def test_framing_around_a_question_of_its_own_answers_that_question(match):
    scores = {p: match.truth["players"][p]["kills"] for p in match.players}
    holders, end = _ends(scores, False)
    got = match.ask("correct me if i'm wrong, but who got the most kills?")
    assert _verdict(got.text) == "neither" and got.plan.check is None, got.text
    assert holders[0] in got.text and says(got.text, end) and "was not used" not in got.text, got.text


# ---------------------------------------------------------------------------------------- what stays as it was

@pytest.mark.parametrize("template", ["did {p} get more than 2 kills", "what was {p}'s biggest hit",
                                      "how much damage did {p} deal", "who got the most kills, was it {p}",
                                      "{p} was on my side, who killed us the most"])
def test_questions_that_ask_no_superlative_of_a_subject_are_planned_as_before(match, template):
    player = sorted(match.players)[0]
    got = match.ask(template.format(p=player))
    assert got.plan.compare is None, got.plan
