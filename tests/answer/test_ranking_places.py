"""A place in a ranking, asked for as "the second most" or as a place ("who was 3rd in kills"), names the row that
holds it; a place a tie shares is named by the places the tied players hold, and the player above them is above.
Checked on the sample match against its truth file."""

from __future__ import annotations

import json

import pytest

from combat_analysis import formatting as fmt
from tests.support.paths import TRUTH_FILE
from tests.support.stages import ask_sample

TRUTH = json.loads(TRUTH_FILE.read_text(encoding="utf-8"))["players"]
PLACES = {2: ("2nd", "second"), 3: ("3rd", "third"), 4: ("4th", "fourth")}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
FORMS = ("who's {p} in {m}", "who was {p} on {m}?", "which player came {p} for {m}", "who finished in {p} place for {m}")
FIGURES = {"kills": "kills", "gold": "gold", "deaths": "deaths", "damage_dealt": "damage"}


def _board(figure: str) -> list[tuple[str, float]]:
    return sorted(((name, p[figure]) for name, p in TRUTH.items()), key=lambda item: (-item[1], item[0]))


def _holders(figure: str, place: int) -> tuple[list[str], int]:
    """The players tied with the one at `place`, and the first place their value holds."""
    board = _board(figure)
    value = board[place - 1][1]
    tied = [name for name, v in board if v == value]
    return tied, [v for _, v in board].index(value) + 1


CASES = [(figure, place, FORMS[(i + place) % len(FORMS)]) for i, figure in enumerate(sorted(FIGURES))
         for place in sorted(PLACES)]


@pytest.mark.parametrize(("figure", "place", "form"), CASES)
def test_a_place_asked_for_names_who_holds_it(stage_env, figure, place, form):
    question = form.format(p=PLACES[place][place % 2], m=FIGURES[figure])
    direct = ask_sample(stage_env, question).response.direct_answer
    tied, first = _holders(figure, place)
    board = _board(figure)
    assert all(name in direct for name in tied), (question, direct)
    assert fmt.number(board[place - 1][1]) in direct, (question, direct)
    if len(tied) > 1:
        assert f"tied for {ORDINALS[first - 1]} and" in direct or f"tied for places {first} to" in direct, \
            (question, direct)
    if first > 1:  # whoever is named as above them has more
        above = board[first - 2]
        assert f"behind {above[0]} with {fmt.number(above[1])}" in direct, (question, direct)
    assert "ahead of" not in direct or len(tied) == 1, (question, direct)
