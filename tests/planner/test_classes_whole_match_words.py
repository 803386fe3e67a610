"""A figure asked "over the game", "across the match", "throughout the match", "for the game" with no time word of its
own is the whole match's total, led by the number; a real trend question (over time, trend, per minute graph, how did
it change) still gets the per-minute series, and the series says its total too. End to end on the simulated match of
`match`, every value from truth.py."""

from __future__ import annotations

import pytest

from tests.support.said import says

WHOLE = [("{p}'s damage over the game", "player", "damage_dealt"),
         ("how much gold did {p} earn across the match", "player", "gold"),
         ("{p} kills through the whole game", "player", "kills"),
         ("healing for the game, {p}", "player", "healing_done"),
         ("{p}'s gold throughout the match", "player", "gold"),
         ("damage dealt over the match by {s}", "team", "damage_dealt"),
         ("{s} kills over the course of the game", "team", "kills"),
         ("how many deaths did {s} hav across the game", "team", "deaths"),
         ("{s}'s assists ovr the match?", "team", "assists")]


@pytest.mark.parametrize(("template", "who", "figure"), WHOLE)
def test_a_figure_over_the_game_is_its_whole_match_total(match, template, who, figure):
    name = sorted(match.players)[3]
    side = match.players[name].team
    value = match.truth["players"][name][figure] if who == "player" else match.truth["teams"][str(side)][figure]
    a = match.ask(template.format(p=name, s=("order", "chaos")[side - 1]))
    assert a.refusal is None and "minute" not in a.plan.group_by, a.plan
    assert says(a.text, value) and "per minute" not in a.text, a.text


@pytest.mark.parametrize(("template", "figure"), [("{p}'s gold over time", "gold"),
                                                  ("how did {p}'s damage change over the match", "damage_dealt"),
                                                  ("{p} kills trend", "kills"),
                                                  ("graph {p}'s healing per minute", "healing_done")])
def test_a_trend_is_the_series_and_its_total(match, template, figure):
    name = sorted(match.players)[5]
    a = match.ask(template.format(p=name))
    assert "minute" in a.plan.group_by, a.plan
    assert "per minute" in a.text and says(a.text, match.truth["players"][name][figure]) and "in total" in a.text, \
        a.text
