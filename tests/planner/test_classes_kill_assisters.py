"""One-match answers by class, end to end on the bundled sample, every figure from truth.py: who assisted one
player's kills of another (METRICS.md: assists), the killer said first or the victim first, is each of those kills
with its time and its assisters, and a clock said with the question keeps the kill of that second; what a player
thought or meant is refused, never answered with a figure; a place in a build with the item left unsaid ("his
second one") is the purchase at that place."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.said import has_number


def _kills(truth: dict, killer: str, victim: str) -> list[dict]:
    return [k for k in truth["kills"] if (k["killer"], k["victim"]) == (killer, victim)]


def _pair(truth: dict) -> tuple[str, str]:
    """The killer and victim of the most kills between two players."""
    return Counter((k["killer"], k["victim"]) for k in truth["kills"]).most_common(1)[0][0]


@pytest.mark.parametrize("template", ["who assisted {k}'s kills on {v}", "who helped {k} kill {v}?",
                                      "assists on the kills of {v} by {k} - who were they"])
def test_the_assisters_of_one_player_s_kills_of_another(sample, template):
    killer, victim = _pair(sample.truth)
    kills = _kills(sample.truth, killer, victim)
    a = sample.ask(template.format(k=killer, v=victim))
    assert a.text.startswith(f"{killer} killed {victim} {len(kills)} times"), a.text
    for part, kill in zip(a.text.split(";"), kills, strict=True):  # each kill in time order, with its assisters
        assert f"at {kill['clock']}" in part, a.text
        assert all(name in part for name in kill["assists"]) and (kill["assists"] or "no assist" in part), a.text


def test_a_clock_said_keeps_the_kill_of_that_second(sample):
    kill = next(k for k in sample.truth["kills"] if len(k["assists"]) >= 3
                and len(_kills(sample.truth, k["killer"], k["victim"])) > 1)
    a = sample.ask(f"at {kill['clock']}, {kill['killer']}'s kill on {kill['victim']}: which teammates assisted")
    assert a.text.startswith(f"{kill['killer']} killed {kill['victim']} at {kill['clock']}, assisted by"), a.text
    assert all(name in a.text for name in kill["assists"]), a.text
    others = [k for k in _kills(sample.truth, kill["killer"], kill["victim"]) if k is not kill]
    assert not any(f"at {k['clock']}" in a.text for k in others), a.text


@pytest.mark.parametrize("template", ["what was {p} thinking at the end there", "what did {p} think he was doing",
                                      "whats the mindset of {p} in lane"])
def test_what_a_player_thought_is_refused(sample, template):
    player = _pair(sample.truth)[0]
    a = sample.ask(template.format(p=player))
    assert a.refusal is not None, a.text
    assert not has_number(a.text.replace(player, "")), a.text


def test_a_place_in_a_build_with_the_item_unsaid(sample):
    player = _pair(sample.truth)[0]
    second = sample.truth["players"][player]["item_timeline"][1]
    a = sample.ask(f"and when did {player} buy his second one")
    assert second["item"] in a.text and second["clock"] in a.text, a.text
