"""A time window said in one clause with a slang "who did best" verb ("popped off", "carried", "went off", "was the
best"), and the figure to rank by named in a later clause ("...? like who had the most kills", ", in terms of gold",
"- like healing", "...? by damage taken"): the ranking is of that figure inside that window, end to end on the
simulated match of `match`, every figure from truth.py's window_stats."""

from __future__ import annotations

import pytest

from tests.support.said import numbers
from tests.support.truth_checks import truth_tool

# (how the figure is said, its key in truth.py's window_stats)
FIGURES = [("kills", "kills"), ("damage", "damage_dealt"), ("healing", "healing_done"), ("gold", "gold"),
           ("damage taken", "damage_taken"), ("assists", "assists"), ("damage to gods", "damage_to_players")]
# (the window as said, its first second, its end second or None for the end of the match)
WINDOWS = [("between minute 3 and 9", 180, 540), ("before minute 7", 0, 420), ("after minute 6", 360, None),
           ("early game", 0, 600), ("in the first 5 minutes", 0, 300), ("from minute 4 to minute 8", 240, 480)]
# A slang clause with the window, then the figure named after "?", ",", "-", "like", "in terms of", "by"
TEMPLATES = ["who popped off {w}? like who had the most {f}", "who carried {w}, in terms of {f}",
             "who went off {w} - like {f}", "who was the best {w}? by {f}", "who dominated {w}, i.e. most {f}",
             "{w}, who hard carried? by {f}", "who went crazy {w}?? in terms of {f}",
             "who showed up {w}? most {f}", "{w}, who went nuts? highest {f}"]

CASES = [(t, w, FIGURES[(i + j) % len(FIGURES)]) for i, t in enumerate(TEMPLATES) for j, w in enumerate(WINDOWS)]


@pytest.mark.parametrize(("template", "window", "figure"), CASES,
                         ids=[f"{t[:18]}|{w[0]}|{f[0]}" for t, w, f in CASES])
def test_the_named_figure_is_ranked_inside_the_window(match, template, window, figure):
    said, lo, hi = window
    words, key = figure
    stats = truth_tool.window_stats(match.events, lo, hi)
    figures = {p: stats[p][key] for p in match.players}
    best = max(figures.values())
    leaders = {p for p, v in figures.items() if v == best}
    got = match.ask(template.format(w=said, f=words))
    assert got.refusal is None, got.text
    w = got.plan.window
    assert w is not None and (w.start_s or 0, w.end_s) == (lo, hi), (got.plan, got.text)
    assert not got.plan.parts, got.plan  # one ranking, never the figure again over the whole match
    head = got.text.split(":")[0]
    assert any(p in head for p in leaders), (leaders, best, got.text)
    assert any(abs(n - best) <= 0.5 for n in numbers(got.text)), (best, got.text)
    whole = max(match.truth["players"][p][key] for p in match.players)
    assert whole == best or not any(abs(n - whole) <= 0.5 for n in numbers(got.text.split("(")[0])), got.text


@pytest.mark.parametrize("question", ["who popped off early game? in terms of kills",
                                      "who carried in the first 5 minutes, in terms of gold"])
def test_in_terms_of_is_no_unread_word(match, question):
    got = match.ask(question)
    assert "terms" not in got.text, got.text


def test_a_sharper_figure_with_its_own_time_keeps_it(match):
    stats = truth_tool.window_stats(match.events, 0, 300)
    figures = {p: stats[p]["kills"] for p in match.players}
    got = match.ask("who popped off late game, like who had the most kills in the first 5 minutes")
    w = got.plan.window
    assert w is not None and (w.start_s or 0, w.end_s) == (0, 300), got.plan
    assert any(abs(n - max(figures.values())) <= 0.5 for n in numbers(got.text)), got.text
