"""A ranking narrowed to a role's or a team's players says so, so that "X had the most assists" is true of whom it
ranks: the lead names the role or team, every base names the same players, and no per-team total of a role's
players reads as a team's total. A condition of one is said in the singular, and whether anyone on one side did
something is that side's figure, never "only" that side. Checked on the sample match against its truth file."""

from __future__ import annotations

import json

import pytest

from combat_analysis import formatting as fmt
from tests.support.paths import TRUTH_FILE
from tests.support.stages import ask_sample

TRUTH = json.loads(TRUTH_FILE.read_text(encoding="utf-8"))["players"]
ROLE_WORDS = {"Support": "supp", "Jungle": "jungler", "Carry": "adc", "Solo": "solo laner", "Middle": "mid laner"}
QUESTIONS = ("which {r} had the most {m}", "what {r} got the most {m}?", "{r} with the most {m}")
FIGURES = {"assists": "assists", "kills": "kills", "gold": "gold"}


def _board(role: str, figure: str) -> list[tuple[str, float]]:
    players = [(name, p[figure]) for name, p in TRUTH.items() if p["role"] == role]
    return sorted(players, key=lambda item: (-item[1], item[0]))


# a tie is worded by its own test: here, the role/figure pairs the sample match does not tie on
CASES = [(role, figure) for role in sorted(ROLE_WORDS) for figure in sorted(FIGURES)
         if _board(role, figure)[0][1] != _board(role, figure)[1][1]]


@pytest.mark.parametrize(("role", "figure"), CASES)
def test_a_role_ranking_names_the_role_in_its_lead_and_bases(stage_env, role, figure):
    board = _board(role, figure)
    turn = sorted(ROLE_WORDS).index(role) + sorted(FIGURES).index(figure)
    question = QUESTIONS[turn % len(QUESTIONS)].format(r=ROLE_WORDS[role], m=FIGURES[figure])
    pkg = ask_sample(stage_env, question)
    direct = pkg.response.direct_answer
    assert direct.startswith(f"Among the {role} players, {board[0][0]} "), (question, direct)
    assert fmt.number(board[0][1]) in direct and board[1][0] in direct, (question, direct)
    said = list(pkg.response.key_insights)
    # the teams' own totals are far larger than two players'; a per-team sum of one role must not be said
    assert not any("players total" in s for s in said), said
    shares = [s for s in said if "% of the" in s]
    assert shares and all(f"2 {role} players'" in s for s in shares), shares


@pytest.mark.parametrize(("figure", "noun"), [("kills", "kill"), ("assists", "assist")])
def test_a_condition_of_one_names_its_figure_in_the_singular_and_keeps_every_player_meeting_it(stage_env, figure,
                                                                                              noun):
    kept = {name for name, p in TRUTH.items() if p[figure] >= 1}
    direct = ask_sample(stage_env, f"list the players that had at least one {noun}").response.direct_answer
    assert f"at least 1 {noun}," in direct, direct  # never "at least 1 kills"
    listed = direct.split(": ", 1)[1]
    assert all(f"{name}: {fmt.number(TRUTH[name][figure])}" in listed for name in kept), (kept, direct)
    assert len(listed.split("; ")) == len(kept), (kept, direct)


@pytest.mark.parametrize(("side", "team"), [("order", 1), ("chaos", 2)])
def test_whether_anyone_on_a_side_died_is_that_sides_deaths_never_only_that_side(stage_env, side, team):
    """Narrowed to one side, the one row is the side asked about: "Only team 1 had any deaths" was false."""
    deaths = sum(p["deaths"] for p in TRUTH.values() if p["team"] == team)
    direct = ask_sample(stage_env, f"did anyone on {side} die").response.direct_answer
    assert f"{fmt.number(deaths)} times" in direct and "Only" not in direct and "with any" not in direct, (deaths, direct)
