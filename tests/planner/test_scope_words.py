"""Scope words read by class (combat_analysis/planner/read/scope.py): a slip of a scope or match-figure word is
mended and said, "<figure>-wise" says a figure, "the latest game" picks the warehouse's latest match (a player's
"last game" is theirs), and a day named by month and day selects that day's matches."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest

from combat_analysis.contracts.selection import DateRange
from combat_analysis.planner.read.scope import read_scope

IDS = ("1001", "1002", "1003")
LATEST = datetime(2025, 9, 11, 18, 30)


@pytest.mark.parametrize(("question", "slip", "word"), (
    ("most assists ovreall", "ovreall", "overall"),
    ("who healed the most thsi season", "thsi", "this"),
    ("top killer acros all matches", "acros", "across"),
    ("most deaths this seasn", "seasn", "season"),
    ("gold leader overal", "overal", "overall"),
))
def test_a_slipped_scope_word_reads_as_every_match_and_is_said(question, slip, word):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == "all", scope
    assert f"'{slip}' read as '{word}'" in scope.spelled


@pytest.mark.parametrize("question", ("what is the reason kai lost", "who is the gamer with most kills",
                                      "which matched player died"))
def test_a_real_word_one_letter_away_is_left_alone(question):
    scope = read_scope(question, IDS, LATEST)
    assert scope.spelled == () and scope.kind == "none", scope


@pytest.mark.parametrize(("question", "figure"), (("ana best game gold-wise", "gold"),
                                                 ("worst match deaths-wise for bo", "deaths"),
                                                 ("damage-wise, who led", "damage")))
def test_a_wise_suffix_reads_as_by_its_figure(question, figure):
    scope = read_scope(question, IDS, LATEST)
    assert f"by {figure}" in scope.rest and "wise" not in scope.rest, scope


def test_slipped_figure_words_of_a_match_are_mended_in_the_rest():
    scope = read_scope("mean game lenght acros all games", IDS, LATEST)
    assert scope.kind == "all" and "length" in scope.rest, scope


@pytest.mark.parametrize("question", ("who won the latest game", "which side took the most recent match",
                                      "kills in the last match", "what happened in our newest game"))
def test_the_latest_game_is_the_warehouse_latest_match(question):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == "match" and scope.match_id == IDS[-1], scope
    assert not any(w in scope.rest for w in ("latest", "recent", "newest", " last ")), scope


@pytest.mark.parametrize("question", ("ana's kills in her last game", "bo deaths in his latest match"))
def test_a_players_last_game_is_their_own(question):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == "matches" and scope.last == 1, scope


def test_the_last_n_games_are_still_n():
    assert read_scope("kills over the last 3 games", IDS, LATEST).last == 3


@pytest.mark.parametrize(("question", "n"), (("ana's deaths in her 4 latest games", 4),
                                             ("bo: kda during his six most recent matches", 6)))
def test_the_count_said_before_last_is_the_last_n(question, n):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == "matches" and scope.last == n and "recent" not in scope.rest and "latest" not in scope.rest


def test_without_matches_the_latest_game_is_no_scope():
    assert read_scope("who won the latest game").kind == "none"


@pytest.mark.parametrize(("question", "day"), (
    ("who dealt the most damage on sept 7th", date(2025, 9, 7)),
    ("kills on the 5th of september", date(2025, 9, 5)),
    ("top healer on aug 30", date(2025, 8, 30)),
    ("first blood on 11 september", date(2025, 9, 11)),
    ("gold on december 24, 2024", date(2024, 12, 24)),
    ("deaths on october 2", date(2024, 10, 2)),  # after the latest match's day: the year before
))
def test_a_day_by_month_and_day_selects_that_day(question, day):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == "matches" and scope.selection == DateRange.days(day, day), scope


def test_an_impossible_day_is_no_day():
    assert read_scope("kills on february 30", IDS, LATEST).kind != "matches"


@pytest.mark.parametrize(("question", "day"), (
    ("who won on thursday", date(2025, 9, 11)),  # LATEST is a Thursday: that day itself
    ("first blood from last monday", date(2025, 9, 8)),
    ("kills in friday's game", date(2025, 9, 5)),
    ("who won on the 9th", date(2025, 9, 9)),
    ("top damage on the 20th", date(2025, 8, 20)),  # after the latest match's day: the month before
))
def test_a_weekday_or_a_day_of_the_month_is_one_day_not_after_the_latest_match(question, day):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == "matches" and scope.selection == DateRange.days(day, day) and scope.one_day, scope


@pytest.mark.parametrize("question", ("who got first blood on the 3rd minute", "kills in the 2nd game",
                                      "what did monday say", "deaths before the 5th tower"))
def test_an_ordinal_of_something_else_or_a_bare_weekday_is_no_day(question):
    assert read_scope(question, IDS, LATEST).kind != "matches"


@pytest.mark.parametrize("question", ("best average kda", "who has the highest avg damage",
                                      "lowest mean deaths among the supports"))
def test_the_best_of_an_average_is_across_matches(question):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == "all" and scope.by_nature, scope


# The asker's own games, said with "we" or "our" and no identity: every loaded match, never a name.
@pytest.mark.parametrize(("question", "said"), (
    ("in the games we've had, who dealt the most damage", "games we have had"),
    ("who's been the top killer in games we're in", "games we are in"),
    ("most assists across the matches weve played", "matches we have played"),
    ("who died most in our games", "our games"),
    ("in all of our matches who healed the most", "all of our matches"),
    ("which games that we played had the most kills", "games that we played"),
    ("gold leader of the rounds we’ve had", "rounds we have had"),
))
def test_the_askers_own_games_are_every_match(question, said):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == "all" and any(said in w for w in scope.words), scope
    assert not re.search(r"\bwe\b|\bour\b|we've|we're", scope.rest), scope


@pytest.mark.parametrize("question", ("if we'd count every game, who has the most deaths",
                                      "have we ever had someone get 30 kills across all matches",
                                      "what's the most gold we've seen this season"))
def test_the_askers_contractions_are_spelled_out_as_plain_words(question):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == "all" and not re.search(r"we['’]", scope.rest), scope


@pytest.mark.parametrize(("question", "scope_word"), (("who had the most kills in our games this season",
                                                       "this season"),
                                                      ("across our matches, all season, who won most", "all season")))
def test_every_scope_word_of_all_matches_is_cut(question, scope_word):
    scope = read_scope(question, IDS, LATEST)
    assert scope_word in scope.words and "season" not in scope.rest, scope


@pytest.mark.parametrize(("question", "kind"), (("what happened in our newest game", "match"),
                                                ("in the games we won, who had the most kills", "all")))
def test_one_game_of_ours_or_the_games_we_won_are_not_every_match_said_as_ours(question, kind):
    scope = read_scope(question, IDS, LATEST)
    assert scope.kind == kind and not any("we won" in w for w in scope.words), scope
