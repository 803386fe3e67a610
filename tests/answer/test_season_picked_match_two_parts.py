"""One match picked by its date, its day of the month, its weekday or its place ("game 4", "the 3rd game", "the last
game"), then two parts: a match figure and who won it ("who won it", "which side won", "did we win", said after "and",
a comma or a dash): both parts, the winner as the side, or that no Titan fell. Both simulated seasons, checked against
truth.py."""

from __future__ import annotations

from datetime import datetime

import pytest

from combat_analysis.contracts.plan import OneMatch
from combat_analysis.formatting import number
from tests.support.season import ask_across, start_order

FIGURES = {"kills": ("Kills in the match", "total_kills"), "deaths": ("Deaths in the match", "total_deaths")}


def _winner(truth: dict) -> str:
    if truth["winner"] is None:
        return "no Titan fell in this match"
    return f"Team {truth['winner']} won the match"


def _answered(home, question: str, match, figure: str) -> str:
    pkg, _ = ask_across(home, question)
    text = pkg.response.direct_answer
    assert not pkg.is_refusal, text
    assert isinstance(pkg.plan.scope, OneMatch) and pkg.plan.scope.match_id == match.match_id, (pkg.plan.scope, text)
    said, key = FIGURES[figure]
    assert f"{said}: {number(match.truth[key])}" in text, text
    assert _winner(match.truth) in text and "was not applied" not in text, text
    assert text.index(said) < text.index(_winner(match.truth)), text
    return text


@pytest.mark.parametrize(("template", "figure"), [
    ("game {n} kills and who won", "kills"),
    ("in the {nth} game how many deaths, and which side won it", "deaths"),
    ("match #{n}: how many kills, did we win", "kills"),
    ("deaths in game number {n} - who took it?", "deaths"),
])
def test_a_match_by_its_place(seasons, template, figure):
    home, matches = seasons
    ordered = start_order(matches)
    for n in (3, 4):
        nth = {3: "3rd", 4: "4th"}[n]
        text = _answered(home, template.format(n=n, nth=nth), ordered[n - 1], figure)
        assert f"In game {n} of {len(ordered)} (start order), match {ordered[n - 1].match_id}" in text, text


@pytest.mark.parametrize(("template", "figure"), [
    ("in the last game how many kills, who won", "kills"),
    ("the latest match: total deaths and which team won?", "deaths"),
])
def test_the_last_match(seasons, template, figure):
    home, matches = seasons
    _answered(home, template, start_order(matches)[-1], figure)


def _day(match) -> datetime:
    return datetime.fromisoformat(match.truth["match_start"])


@pytest.mark.parametrize(("template", "figure"), [
    ("the {mon} {d} game: how many kills, and who won it", "kills"),
    ("how many deaths were there on {mon} {d} and which side won", "deaths"),
    ("on the {nth}, kills - and did order win?", "kills"),
    ("{weekday}'s game, total deaths, who won", "deaths"),
])
def test_a_match_by_its_day(seasons, template, figure):
    home, matches = seasons
    ordered = start_order(matches)
    match = ordered[-2]  # its day holds one match, a few days before the latest, in the same month
    day = _day(match)
    assert sum(_day(m).date() == day.date() for m in matches) == 1
    assert day.month == _day(ordered[-1]).month and (_day(ordered[-1]) - day).days < 7
    nth = f"{day.day}{'th' if 10 <= day.day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day.day % 10, 'th')}"
    question = template.format(mon=day.strftime("%b").lower(), d=day.day, nth=nth, weekday=day.strftime("%A").lower())
    text = _answered(home, question, match, figure)
    assert f"On {day.date().isoformat()}, in match {match.match_id}" in text, text


def test_a_place_past_the_last_match_is_refused(seasons):
    home, matches = seasons
    pkg, _ = ask_across(home, f"game {len(matches) + 5} kills and who won")
    assert pkg.is_refusal and f"game number {len(matches) + 5}" in pkg.response.direct_answer, pkg.response.direct_answer
