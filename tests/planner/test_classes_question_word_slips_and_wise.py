"""Reading classes of round 50, end to end on the simulated match of `match`, every figure from truth.py: a slip one
swap from both "how" and "who" ("hwo") is read by what follows it, and a figure ranked again past a comma after a
"<figure> wise" is asked as plainly as the one before "wise"."""

from __future__ import annotations

import pytest

from combat_analysis.planner.read.spelling import question_word
from tests.support.said import says


def _leader(values: dict[str, float]) -> str:
    best = max(values.values())
    leaders = [p for p, v in values.items() if v == best]
    assert len(leaders) == 1, values
    return leaders[0]


@pytest.mark.parametrize(("rest", "word"), [(" many towers fell", "how"), (" far behind was order at ten", "how"),
                                            (" did she die", "how"), (" was her build", "how"),
                                            (" did he hit hardest", "who"), (" got first blood", "who"),
                                            (" was the best support", "who")])
def test_a_slip_of_both_how_and_who_is_read_by_what_follows(rest, word):
    assert question_word("hwo", rest) == word


def test_a_slip_of_one_question_word_is_that_word_whatever_follows():
    assert question_word("wehn", " did he hit hardest") == "when"


def test_who_slipped_before_a_ranked_target_names_the_target(match):
    name = sorted(match.players)[0]
    hit = {v: d for v, d in match.truth["players"][name]["damage_to_each_player"].items() if d}
    top = _leader(hit)
    got = match.ask(f"hwo did {name} hit for the most damage")
    head = got.text.split(".")[0]
    assert top in head and says(head, hit[top]) and not got.text.startswith("Yes"), (top, hit[top], got.text)


def test_how_slipped_before_a_count_counts(match):
    name = sorted(match.players)[1]
    deaths = match.truth["players"][name]["deaths"]
    got = match.ask(f"hwo many deaths for {name}")
    assert says(got.text.split(".")[0], deaths), (deaths, got.text)


@pytest.mark.parametrize(("template", "rate"), [("who carried gold wise, highest gpm", "gpm"),
                                                ("damage-wise who was best? top dpm", "dpm")])
def test_a_rate_ranked_after_a_figure_said_wise_is_the_rate(match, template, rate):
    rates = {p: match.truth["players"][p][rate] for p in match.players}
    top = _leader(rates)
    got = match.ask(template)
    head = got.text.split(". ")[0]
    assert top in head and says(head, rates[top], tol=0.01), (top, rates[top], got.text)


def test_a_figure_said_wise_still_outranks_slang_elsewhere(match):
    gold = {p: match.truth["players"][p]["gold"] for p in match.players}
    top = _leader(gold)
    got = match.ask("gold wise, the most fed one?")
    assert top in got.text.split(".")[0] and says(got.text.split(".")[0], gold[top]), (top, got.text)


@pytest.mark.parametrize("verb", ["deal", "dish out"])
def test_how_much_a_player_dealt_with_no_figure_word_is_damage(match, verb):
    name = sorted(match.players)[3]
    dealt = match.truth["players"][name]["damage_dealt"]
    got = match.ask(f"so how much did {name} {verb} overall")
    assert got.text.startswith(f"{name} dealt") and says(got.text, dealt), (dealt, got.text)
