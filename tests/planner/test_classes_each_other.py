"""Two players' figures on each other in one match (round s52), end to end on the simulated match of `match`, every
figure from truth.py: "did A and B kill each other", "A vs B, how many times did each kill the other" are A's kills on
B and B's on A, never their kills in all; damage and healing said on each other are each one's on the other."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import number


def _rivals(match) -> tuple[str, str]:
    """Two players of opposite sides who killed each other."""
    for k in match.truth["kills"]:
        back = [x for x in match.truth["kills"] if x["killer"] == k["victim"] and x["victim"] == k["killer"]]
        if back and k["killer"] in match.players:
            return tuple(sorted((k["killer"], k["victim"])))  # type: ignore[return-value]
    pytest.skip("no two players killed each other")


def _kills(match, a: str, b: str) -> int:
    return sum(1 for k in match.truth["kills"] if k["killer"] == a and k["victim"] == b)


@pytest.mark.parametrize("template", ["{a} versus {b}: how many times did each one kill the other",
                                      "how often have {a} and {b} killed one another"])
def test_kills_on_each_other_are_each_ones_on_the_other(match, template):
    a, b = _rivals(match)
    got = match.ask(template.format(a=a, b=b))
    assert f"{a} got {number(_kills(match, a, b))} kill" in got.text, got.text
    assert f"{b} got {number(_kills(match, b, a))} kill" in got.text, got.text


def test_damage_to_each_other_is_each_ones_on_the_other(match):
    a, b = _rivals(match)
    hit = match.truth["players"]
    got = match.ask(f"dmg {a} and {b} dealt to each other")
    assert f"{a} dealt {number(hit[a]['damage_to_each_player'][b])} damage" in got.text, got.text
    assert f"{b} dealt {number(hit[b]['damage_to_each_player'][a])} damage" in got.text, got.text
