"""The match's own clock facts, end to end on a simulated match and checked against truth.py: when the match
started (its first combat, item or reward event, never the lobby) and when its log ends, each said with the
date-time and the match clock, in several wordings of each edge."""

from __future__ import annotations

import pytest

from combat_analysis.contracts.plan import Intent
from combat_analysis.formatting import clock


@pytest.mark.parametrize("question", ["at what time did the match begin", "what time did the game get going",
                                      "wat time did this game kick off, not counting the lobby",
                                      "give me the start time of the match"])
def test_the_start_is_the_first_event_with_its_date_time(spoken, question):
    a = spoken.ask(question)
    assert a.plan.intent == Intent.EVENT_LIST and a.refusal is None, a.text
    assert a.text.startswith(f"The match started at {spoken.truth['match_start']}"), a.text
    assert spoken.truth["lobby_start"] not in a.text or spoken.truth["lobby_start"] == spoken.truth["match_start"]


@pytest.mark.parametrize("question", ["when did the combat log stop", "what time did the match wrap up",
                                      "what is the final entry in the log", "at what time did the game finish"])
def test_the_end_is_the_last_event_with_its_date_time_and_clock(spoken, question):
    a = spoken.ask(question)
    assert a.refusal is None, a.text
    assert spoken.truth["match_end"] in a.text.split("(")[0], a.text
    assert clock(spoken.truth["duration_seconds"]) in a.text, a.text


def test_how_long_is_still_the_duration(spoken):
    a = spoken.ask("how long did the game last")
    assert a.text.startswith(f"The match lasted {clock(spoken.truth['duration_seconds'])}"), a.text
