"""The match's start and end as times of day, both asked in one question with any words for the match and the
log, end to end on a simulated match and checked against truth.py: both times, never a refusal."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("question", [
    "when did the game really begin (the lobby aside), and when did the log close",
    "at what time did the game begin, and what time did it finish?",
    "when did the log start and when did it stop",
    "what time did the game kick off and when did it wrap up (clock time)",
])
def test_start_and_end_as_times_of_day(spoken, question):
    a = spoken.ask(question)
    assert a.refusal is None, a.text
    for edge in ("match_start", "match_end"):
        clock = str(spoken.truth[edge]).replace(" ", "T")[11:19]
        assert clock in a.text, (clock, a.text)
