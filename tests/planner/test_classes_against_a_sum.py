"""One subject's figure set against the sum of two or more others ("combined", "put together", "together", "added
up", "between them", "plus", "+"): each figure, the group's sum and which side is larger, opened by Yes or No when the
question asks it; players named by name or by god, and roles. End to end on the simulated match of `match`, every
value from truth.py."""

from __future__ import annotations

import pytest

from tests.support.said import says

FIGURES = {"damage": "damage_dealt", "kills": "kills", "healing": "healing_done", "gold": "gold", "deaths": "deaths"}
# (wording, the figure asked, whether the group is said first, the way the yes or no asks; None: no yes or no)
PLAYERS = [("did {a} deal more damage than {b} and {c} combined", "damage", False, "more"),
           ("was {a}'s healing higher than {b} and {c} put together?", "healing", False, "more"),
           ("{a}'s kills vs {b} plus {c}", "kills", False, None),
           ("did {b} and {c} combined get more kills than {a}", "kills", True, "more"),
           ("did {a} die less than {b} and {c} together", "deaths", False, "less"),
           ("{a} gold against {b} + {c}", "gold", False, None),
           ("does {a} have more dmg than {b}, {c} and {d} added up", "damage", False, "more")]


def _expected(values: list[float], group_first: bool, way: str | None) -> str | None:
    one, total = values[0], sum(values[1:])
    if way is None:
        return None
    first, second = (total, one) if group_first else (one, total)
    return "Yes" if (first > second if way == "more" else first < second) else "No"


def _ask(match, template, names):
    return match.ask(template.format(**dict(zip("abcd", names, strict=False))))


@pytest.mark.parametrize(("template", "said", "group_first", "way"), PLAYERS)
@pytest.mark.parametrize("by_god", [False, True])
def test_one_player_against_the_sum_of_others(match, template, said, group_first, way, by_god):
    players = sorted(match.players)[:4]
    figure = FIGURES[said]
    values = [match.truth["players"][p][figure] for p in players[:4 if "{d}" in template else 3]]
    names = [match.players[p].god for p in players] if by_god else players
    a = _ask(match, template, names)
    assert a.plan.summed and len(a.plan.summed) == len(values) - 1, a.plan
    assert all(says(a.text, v) for v in values) and says(a.text, sum(values[1:])), a.text
    assert says(a.text, abs(sum(values[1:]) - values[0])), a.text
    expected = _expected(values, group_first, way)
    assert a.text.startswith(f"{expected}.") if expected else not a.text.startswith(("Yes", "No")), a.text
    assert "was not used" not in a.text, a.text


@pytest.mark.parametrize(("template", "way"), [("did the junglers get more kills than the mids and solos added up", "more"),
                                               ("support healing vs carry plus mid healing", None),
                                               ("did the solo laners deal less damage than the supports and carries "
                                                "between them", "less")])
def test_one_role_against_the_sum_of_others(match, template, way):
    roles = [r for r in ("Jungle", "Middle", "Solo", "Support", "Carry")
             if r.lower()[:3] in template.split(" than ")[0].split(" vs ")[0]][:1] + \
        [r for r in ("Jungle", "Middle", "Solo", "Support", "Carry")
         if r.lower()[:3] in template.replace("mids", "middle").split(" than " if " than " in template else " vs ")[1]]
    figure = "kills" if "kills" in template else "healing_done" if "healing" in template else "damage_dealt"
    values = [sum(match.truth["players"][p][figure] for p, w in match.players.items() if w.role == r) for r in roles]
    a = match.ask(template)
    assert a.plan.group_by == ("role",) and len(a.plan.summed) == 2, a.plan
    assert all(says(a.text, v) for v in values) and says(a.text, sum(values[1:])), a.text
    expected = _expected(values, False, way)
    assert a.text.startswith(f"{expected}.") if expected else not a.text.startswith(("Yes", "No")), a.text


def test_two_subjects_with_no_adding_word_stay_a_plain_comparison(match):
    a, b, c = sorted(match.players)[:3]
    answer = match.ask(f"did {a} deal more damage than {b} and {c}")
    assert not answer.plan.summed, answer.plan
