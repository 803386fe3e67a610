"""Time phrases -> match-second windows, exactly as ../shared/METRICS.md defines them, plus names in text."""

from __future__ import annotations

import pytest

from combat_analysis.planner.read.names import find_mentions, find_roles, find_teams
from combat_analysis.planner.read.timewords import parse_time
from tests.support.planner import sample_vocabulary, tricky_vocabulary


@pytest.mark.parametrize(("phrase", "window"), [
    ("in the first 10 minutes", (0, 600, None)),
    ("first five minutes", (0, 300, None)),
    ("in the first minute", (0, 60, None)),
    ("in the last 10 minutes", (None, None, 600)),
    ("during the final 5 mins", (None, None, 300)),
    ("after minute 20", (1200, None, None)),
    ("only after 20 minutes", (1200, None, None)),
    ("after the 20 minute mark", (1200, None, None)),
    ("before minute 10", (None, 600, None)),
    ("by minute 10", (None, 600, None)),
    ("between minute 5 and 15", (300, 900, None)),
    ("between 5 and 15 minutes", (300, 900, None)),
    ("from minute 10 to minute 20", (600, 1200, None)),
    ("minutes 10-20", (600, 1200, None)),
    ("during minute 7", (420, 480, None)),
    ("at minute 15", (None, 960, None)),
    ("at the 20 minute mark", (0, 1200, None)),
    ("in the early game", (0, 600, None)),
    ("mid game", (600, 1200, None)),
    ("late-game", (1200, None, None)),
    ("in the first 30 seconds", (0, 30, None)),
    # a mark said as players do: what there was before it (METRICS.md: "at the N-minute mark")
    ("15 minutes in", (0, 900, None)),
    ("12 mins into the game", (0, 720, None)),
    ("in 20 min", (0, 1200, None)),
    ("within 8 minutes", (0, 480, None)),
    ("25 min", (0, 1500, None)),
])
def test_time_phrase_windows(phrase, window):
    parsed = parse_time(f"who dealt the most damage {phrase}?")
    assert parsed.window is not None
    assert (parsed.window.start_s, parsed.window.end_s, parsed.window.from_end_s) == window
    assert "damage" in parsed.rest


@pytest.mark.parametrize("text", ["who won", "top 3 damage", "build order", "after a kill", "who dealt the most damage",
                                  "did the match last more than 30 minutes?", "kills every 5 minutes",
                                  "how long was the game, 32 minutes?", "was it 30 min?", "kills per 10 minutes"])
def test_no_time_phrase_no_window(text):
    assert parse_time(text).window is None


def test_at_the_end_is_the_whole_match_and_says_so():
    parsed = parse_time("who had the most gold at the end")
    assert parsed.window is None and parsed.whole_match and "whole match" in parsed.assumption


@pytest.mark.parametrize(("said", "name", "how"), [
    ("mateo", "MateoUwU", "prefix"), ("leon", "León0722", "prefix"), ("León0722", "León0722", "exact"),
    ("psychotic8bal", "psychotic8ball", "prefix"), ("psychotik8ball", "psychotic8ball", "fuzzy"), ("angeldeth", "ÁngelDeth", "exact"), ("zoe rush", "zoe.rush", "exact"),
    ("o'brien", "O'Brien", "exact"), ("kraken", "Kraken_Mid", "prefix"), ("Robert'); DROP TABLE players;--",
                                                                           "Robert'); DROP TABLE players;--", "exact"),
])
def test_names_are_found_tolerantly(said, name, how):
    mentions = [m for m in find_mentions(f"how much damage did {said} deal", tricky_vocabulary()) if m.kind == "player"]
    assert [(m.name, m.how) for m in mentions] == [(name, how)]


def test_role_words_and_teams():
    roles = [r.role for r in find_roles("the adc, the jungler, solo laner and the mid", ("Carry", "Jungle", "Solo", "Middle"))]
    assert roles == ["Carry", "Jungle", "Solo", "Middle"]
    assert [t.team for t in find_teams("team 1 vs team two", 2)] == [1, 2]
    assert [t.team for t in find_teams("the losing team", 2)] == [1]
    assert [t.team for t in find_teams("the winners", None)] == [None]
    assert find_teams("what was his build order", 2) == []


def test_names_do_not_become_roles():
    vocab = sample_vocabulary()
    mentions = find_mentions("how much damage did mid_or_feed deal", vocab)
    assert [m.name for m in mentions] == ["mid_or_feed"]


@pytest.mark.parametrize(("phrase", "window", "label"), [
    # a clock end with its seconds names the window's last second; a minute number is a boundary (METRICS.md)
    ("from 3:00 to 3:59", (180, 240), "from 3:00 through 3:59"),
    ("between 9:30 and 11", (570, 660), "from 9:30 up to 11:00"),
    ("from 14:00 until 16:00", (840, 960), "from 14:00 up to 16:00"),
    ("between 2:15 and 2:45", (135, 166), "from 2:15 through 2:45"),
    ("from 5 to 6:30", (300, 391), "from 5:00 through 6:30"),
    ("in the 4-6 min window", (240, 360), "between minute 4 and minute 6"),
    ("11 to 13 mins", (660, 780), "between minute 11 and minute 13"),
])
def test_windows_with_both_ends_keep_both(phrase, window, label):
    parsed = parse_time(f"how much gold did the carry earn {phrase}?")
    assert parsed.window is not None
    assert (parsed.window.start_s, parsed.window.end_s, parsed.window.from_end_s) == (*window, None)
    assert parsed.window.label == label
    assert ":" not in parsed.rest and "gold" in parsed.rest


def test_a_count_span_is_no_window():
    assert parse_time("who got 4-6 kills?").window is None


@pytest.mark.parametrize(("phrase", "window", "label"), [
    ("from 18:00 onwards", (1080, None), "from 18:00 on"),
    ("after 9:45", (585, None), "from 9:45 on"),
    ("before 6:30", (None, 390), "before 6:30"),
    ("by the 11:00 mark", (None, 660), "before 11:00"),
])
def test_a_window_with_one_clock_end(phrase, window, label):
    parsed = parse_time(f"who had the most assists {phrase}")
    assert parsed.window is not None and parsed.window.label == label
    assert (parsed.window.start_s, parsed.window.end_s) == window and ":" not in parsed.rest
