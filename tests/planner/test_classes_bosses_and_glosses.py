"""One-match answers by class, end to end on the bundled sample, every figure from truth.py (METRICS.md: objectives are
KillingBlows on a structure or a boss; bosses are the Gold Fury and the Fire Giant): the bosses taken by a player or
a side are counted as one figure, never their kills of players; a list of the kinds of objective counts every kind
it names, and says no word went unused when none did; a kind "included" counts it in with the rest; a bracket that
only spells out what its kind word covers ("bosses (fire giant and gold fury)") is no new subject."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.said import says

BOSSES = ("Gold Fury", "Fire Giant")


def _taken(truth: dict, kinds: tuple[str, ...] | None = None) -> tuple[Counter, Counter]:
    """Objectives taken by player and by team, of the kinds whose names hold one of `kinds` (every kind for None)."""
    kept = [o for o in truth["objectives"] if kinds is None or any(k in o["target"] for k in kinds)]
    return Counter(o["killer"] for o in kept if o["killer_is_player"]), Counter(o["team"] for o in kept)


@pytest.mark.parametrize("question", ["which player got the most boss kills", "who took the most bosses?"])
def test_the_bosses_a_player_took(sample, question):
    players, _ = _taken(sample.truth, BOSSES)
    n = max(players.values())
    leaders = sorted(p for p, v in players.items() if v == n)  # the sample has a tie at the top: both are named
    a = sample.ask(question)
    head = a.text.split(":")[0]
    assert all(p in head for p in leaders) and says(a.text, n), a.text
    assert not any(says(head, sample.truth["players"][p]["kills"]) for p in leaders), a.text


@pytest.mark.parametrize("team", [1, 2])
def test_the_bosses_a_side_took(sample, team):
    _, teams = _taken(sample.truth, BOSSES)
    a = sample.ask(f"bosses secured by {'order' if team == 1 else 'chaos'}?")
    assert f"Team {team}" in a.text and says(a.text, teams[team]), a.text


def test_objectives_with_their_kinds_listed_count_every_kind_and_no_word_is_left(sample):
    players, _ = _taken(sample.truth)
    leader, n = players.most_common(1)[0]
    a = sample.ask("top objective taker, counting towers, phoenixes, the titan and bosses")
    assert a.text.startswith(leader) and says(a.text.split("(")[0], n), a.text
    assert "not used" not in a.text and "cannot apply" not in a.text, a.text


@pytest.mark.parametrize("team", [1, 2])
def test_a_kind_counted_in_with_the_rest_is_every_objective(sample, team):
    _, teams = _taken(sample.truth)
    a = sample.ask(f"team {team} objectives in total, bosses included")
    assert says(a.text, teams[team]) and "not used" not in a.text, a.text


def test_a_bracket_spelling_out_the_bosses_is_no_new_subject(sample):
    dealt = {p: row["damage_to_bosses"] for p, row in sample.truth["players"].items()}
    top = max(dealt, key=dealt.get)
    a = sample.ask("top boss damage (giant + gold fury), which player?")
    assert a.text.startswith(top) and says(a.text, dealt[top]), a.text


def test_hurting_a_player_is_damage_to_them(sample):
    victim = sorted(sample.truth["players"])[0]
    dealt = {p: row["damage_to_each_player"].get(victim, 0) for p, row in sample.truth["players"].items()}
    top = max(dealt, key=dealt.get)
    a = sample.ask(f"which enemy hurt {victim} the most")
    assert a.text.startswith(top) and says(a.text, dealt[top]), a.text


def test_hurting_the_bosses_is_damage_to_bosses(sample):
    dealt = {p: row["damage_to_bosses"] for p, row in sample.truth["players"].items()}
    top = max(dealt, key=dealt.get)
    a = sample.ask("who hurt the bosses the most?")
    assert a.text.startswith(top) and says(a.text, dealt[top]) and "kills" not in a.text, a.text
