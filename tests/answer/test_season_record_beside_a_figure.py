"""Cross-match class, over both simulated seasons, checked against truth.py aggregated in plain Python
(tests/support/season.py, docs/season.md): a player's record asked together with another figure says both, the
figure's per-game mean (the mean of per-match figures) included."""

from __future__ import annotations

import re
from statistics import fmean

import pytest

from combat_analysis.formatting import number, percent
from tests.support.season import answered_across, ask_across, expected_record, games_of, named_players


@pytest.mark.parametrize(("template", "metric"), (("{n}'s win rate, and gold per game on average", "gold"),
                                                  ("record of {n} plus the damage they average per match",
                                                   "damage_dealt")))
def test_a_record_asked_with_another_figure_says_that_figure_too(seasons, template, metric):
    home, matches = seasons
    player = named_players(matches, least=3)[0]
    played = games_of(matches, player)
    record = expected_record(played)
    answer = answered_across(ask_across(home, template.format(n=player))[0])
    if record["win_rate"] is not None:
        assert percent(record["win_rate"] * 100) in answer, (record, answer)
    assert re.search(rf"\b{record['wins']} wins?\b", answer), (record, answer)
    assert number(fmean(g[metric] for g in played), 2) in answer, (metric, answer)
