"""A day as a selector, over both simulated seasons, against truth.py (tests/support/season.py): a one-match
question about a day with one match is answered as that match, said by its day and id; a day with several stays
a set of matches; a day with none is refused with no figure of another day; "which day" ranks matches."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest

from combat_analysis.contracts.plan import ManyMatches, OneMatch
from combat_analysis.formatting import clock, number
from tests.support.season import ask_across, match_figures

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _by_day(matches) -> Counter:
    return Counter(f["started_at"].date() for f in match_figures(matches))


def _said(day, with_year: bool) -> str:
    return f"{_MONTHS[day.month - 1]} {day.day}" + (f", {day.year}" if with_year else "")


@pytest.mark.parametrize("template", ("who drew first blood on {d}, and at what time",
                                      "{d}: first blood, who and when?",
                                      "in the game on {d} who got first blood"))
def test_a_one_match_question_about_a_day_of_one_match_is_that_match(seasons, template):
    home, matches = seasons
    days = _by_day(matches)
    figures = [f for f in match_figures(matches) if days[f["started_at"].date()] == 1 and f["first_blood_killer"]]
    for f in (figures[0], figures[-1]):
        day = f["started_at"].date()
        pkg, _ = ask_across(home, template.format(d=_said(day, with_year=True)))
        answer = pkg.response.direct_answer
        assert isinstance(pkg.plan.scope, OneMatch) and pkg.plan.scope.match_id == f["match_id"], pkg.plan
        assert answer.startswith(f"On {day.isoformat()}, in match {f['match_id']}: "), answer
        assert f["first_blood_killer"] in answer and clock(f["first_blood_s"]) in answer, answer


def test_a_day_of_the_week_is_the_latest_such_day(seasons):
    home, matches = seasons
    figures = match_figures(matches)
    latest = max(f["started_at"] for f in figures).date()
    days = _by_day(matches)
    assert any(days[latest - timedelta(days=back)] == 1 for back in range(7))  # the one-match case is asked
    for back in range(7):
        day = latest - timedelta(days=back)
        pkg, _ = ask_across(home, f"how many kills were there on {_WEEKDAYS[day.weekday()]}")
        if days[day] == 1:
            want = next(f for f in figures if f["started_at"].date() == day)
            assert isinstance(pkg.plan.scope, OneMatch) and pkg.plan.scope.match_id == want["match_id"], pkg.plan
            assert number(want["kills"]) in pkg.response.direct_answer, pkg.response.direct_answer
        elif days[day] == 0:
            assert pkg.is_refusal and day.isoformat() not in pkg.response.direct_answer, pkg.response.direct_answer
        else:
            assert isinstance(pkg.plan.scope, ManyMatches), pkg.plan


def test_a_day_with_no_match_is_refused_and_a_day_of_several_stays_several(seasons):
    home, matches = seasons
    days = _by_day(matches)
    first = min(days)
    empty = next(first + timedelta(days=n) for n in range(1, 400) if first + timedelta(days=n) not in days)
    pkg, _ = ask_across(home, f"who won on {_said(empty, with_year=True)}")
    assert pkg.is_refusal and "no match in the warehouse was played" in pkg.response.direct_answer
    several = [d for d, n in days.items() if n > 1]
    if several:
        pkg, rows = ask_across(home, f"who got the most kills on {_said(several[0], with_year=True)}")
        assert isinstance(pkg.plan.scope, ManyMatches) and not pkg.is_refusal, pkg.plan


@pytest.mark.parametrize(("template", "metric", "pick"), (("which day had the most kills", "kills", max),
                                                          ("the longest game was on what day?", "duration_s", max),
                                                          ("on which date was the shortest match", "duration_s", min)))
def test_which_day_ranks_the_matches_and_names_each_by_its_day(seasons, template, metric, pick):
    home, matches = seasons
    figures = match_figures(matches)
    want = pick(f[metric] for f in figures)
    first = min((f for f in figures if f[metric] == want), key=lambda f: (f["started_at"], f["match_id"]))
    pkg, rows = ask_across(home, template)
    answer = pkg.response.direct_answer
    assert rows[0]["match_id"] == first["match_id"], rows[:2]
    assert f"match {first['match_id']} ({first['started_at'].date().isoformat()})" in answer, answer


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def test_a_day_of_the_month_alone_is_in_the_latest_matchs_month(seasons):
    home, matches = seasons
    figures = match_figures(matches)
    latest = max(f["started_at"] for f in figures).date()
    days = _by_day(matches)
    day = max(d for d, n in days.items() if n == 1 and (d.year, d.month) == (latest.year, latest.month))
    want = next(f for f in figures if f["started_at"].date() == day)
    pkg, _ = ask_across(home, f"what was the total kill count on the {_ordinal(day.day)}")
    assert isinstance(pkg.plan.scope, OneMatch) and pkg.plan.scope.match_id == want["match_id"], pkg.plan
    assert number(want["kills"]) in pkg.response.direct_answer, pkg.response.direct_answer


_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december")


def test_a_month_named_alone_is_every_match_started_in_that_calendar_month(seasons):
    home, matches = seasons
    figures = match_figures(matches)
    months = Counter((f["started_at"].year, f["started_at"].month) for f in figures)
    latest = max(f["started_at"] for f in figures)
    asked = 0
    for year, month in months:
        if year != latest.year or month == 5:
            continue  # a month named alone is of the latest match's year; "may" alone is not read (docs/season.md)
        kills = sum(f["kills"] for f in figures if (f["started_at"].year, f["started_at"].month) == (year, month))
        pkg, _ = ask_across(home, f"total kills during {_MONTH_NAMES[month - 1]}")
        answer = pkg.response.direct_answer
        assert number(kills) in answer, (year, month, kills, answer)
        if months[(year, month)] > 1:
            assert f"{year}-{month:02d}-01 00:00" in answer, answer
        asked += 1
    assert asked, months  # some month was asked about
