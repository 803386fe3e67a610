"""A time window anchored on an event instead of a clock, end to end on the simulated match of `spoken`, every figure
from truth.py (its events and `window_stats`): before an event is the window up to its second, not including it;
after it, from its second on, as "after minute N" is; a list of events after it leaves the event itself out (the
first objective or kill after one is the next one). The event is an objective (its place, its side,
its kind), first blood or the first death, said with any preposition of before or after; the rest of the question is
answered over the window (the leader of a figure, a side's figures, the last objective before another one, the first
kill after one); an event that never happened is refused saying so, with no number."""

from __future__ import annotations

import functools

import pytest

from combat_analysis.formatting import clock
from tests.support import said
from tests.support.truth_checks import truth_tool

says = functools.partial(said.says, clocks=False)
has_number = functools.partial(said.has_number, clocks=False)


@functools.lru_cache(maxsize=2)
def _events(log) -> tuple:
    """truth.py's events of the log, each with its match second."""
    events = truth_tool.load(str(log))[0]
    truth_tool.match_clock(events)
    return tuple(events)


def _stats(spoken, lo: int, hi: int | None) -> dict:
    """Every player's figures over match seconds lo <= s < hi (truth.py)."""
    return truth_tool.window_stats(list(_events(spoken.log)), lo, hi)


def _objectives(spoken, kind: str) -> list[dict]:
    return [o for o in spoken.truth["objectives"] if kind in o["target"]]


def _leader(stats: dict, figure: str) -> tuple[str, float]:
    name = max(stats, key=lambda p: (stats[p][figure], p))
    return name, stats[name][figure]


# ------------------------------------------------------------------------- a figure before or after an objective

@pytest.mark.parametrize(("template", "kind", "place", "before", "figure"), [
    ("who dealt the most damage before the first tower fell", "Tower", 0, True, "damage_dealt"),
    ("most gold prior to the 2nd tower going down?", "Tower", 1, True, "gold"),
    ("who had the most assists since the first gold fury was taken", "Gold Fury", 0, False, "assists"),
    ("top killer after the second fire giant", "Fire Giant", 1, False, "kills"),
])
def test_a_figure_in_the_window_before_or_after_an_objective(spoken, template, kind, place, before, figure):
    at = _objectives(spoken, kind)[place]["second"]
    stats = _stats(spoken, 0, at) if before else _stats(spoken, at, None)
    name, value = _leader(stats, figure)
    a = spoken.ask(template)
    assert a.refusal is None and name in a.text and says(a.text, value), (name, value, a.text)
    assert clock(at) in a.text, a.text


@pytest.mark.parametrize(("template", "before"), [("kills for each side after first blood", False),
                                                  ("team kills before fb", True),
                                                  ("how many kills did each team get once first blood was drawn", False)])
def test_a_sides_figures_before_or_after_first_blood(spoken, template, before):
    at = spoken.truth["first_blood"]["second"]
    stats = _stats(spoken, 0, at) if before else _stats(spoken, at, None)
    a = spoken.ask(template)
    for team in (1, 2):
        kills = sum(stats[p]["kills"] for p, row in spoken.truth["players"].items() if row["team"] == team)
        assert says(a.text, kills), (team, kills, a.text)


def test_before_first_blood_no_player_had_a_kill(spoken):
    at = spoken.truth["first_blood"]["second"]
    assert all(row["kills"] == 0 for row in _stats(spoken, 0, at).values())
    a = spoken.ask("who had the most kills before first blood")
    assert a.refusal is None and clock(at) in a.text and says(a.text, 0), a.text


# ------------------------------------------------------------- the last objective before another one, and the like

@pytest.mark.parametrize(("template", "kind", "place", "last"), [
    ("which objective fell last before the second fire giant was killed", "Fire Giant", 1, True),
    ("which objective fell right before the gold fury", "Gold Fury", 0, True),
    ("what was the first objective after the first fire giant went down", "Fire Giant", 0, False),
    ("which objective came just after the 2nd gold fury", "Gold Fury", 1, False),
])
def test_the_objective_nearest_another_one(spoken, template, kind, place, last):
    at = _objectives(spoken, kind)[place]["second"]
    objectives = spoken.truth["objectives"]
    want = [o for o in objectives if o["second"] < at][-1] if last else next(o for o in objectives if o["second"] > at)
    a = spoken.ask(template)
    assert a.refusal is None and want["target"] in a.text and want["clock"] in a.text, (want, a.text)
    assert clock(at) in a.text, a.text


@pytest.mark.parametrize("template", ["who got the first kill after the first gold fury",
                                      "first kill following the gold fury?", "who got the first kill after fb"])
def test_the_first_kill_after_an_event_is_the_next_one(spoken, template):
    at = spoken.truth["first_blood"]["second"] if "fb" in template else _objectives(spoken, "Gold Fury")[0]["second"]
    kill = next(k for k in truth_tool.kill_list(list(_events(spoken.log)), spoken.truth["players"]) if k["second"] > at)
    a = spoken.ask(template)
    assert kill["killer"] in a.text and kill["victim"] in a.text and clock(kill["second"]) in a.text, (kill, a.text)
    assert "first blood" not in a.text.replace(f"after first blood at {clock(at)}", ""), a.text


def test_a_sides_own_structure_and_a_side_taking_one(spoken):
    lost = next(o for o in spoken.truth["objectives"] if o["target"] == "Chaos Tower")
    name, value = _leader(_stats(spoken, 0, lost["second"]), "damage_dealt")
    a = spoken.ask("until chaos lost its first tower, who did the most damage")
    assert name in a.text and says(a.text, value) and lost["clock"] in a.text, a.text
    taken = next(o for o in spoken.truth["objectives"] if o["team"] == 2 and "Tower" in o["target"])
    name, value = _leader(_stats(spoken, taken["second"], None), "gold")
    a = spoken.ask("after chaos took their first tower, who earned the most gold")
    assert name in a.text and says(a.text, value) and taken["clock"] in a.text, a.text


# ----------------------------------------------------------------------------- an event that never happened

@pytest.mark.parametrize("template", ["damage per player after the {n} phoenix", "who died most before the titan fell",
                                      "kills by side since the {n} gold fury was taken"])
def test_an_event_that_never_happened_is_refused_saying_so(spoken, template):
    phoenixes, furies = len(_objectives(spoken, "Phoenix")), len(_objectives(spoken, "Gold Fury"))
    assert not _objectives(spoken, "Titan")
    n = {"phoenix": phoenixes + 1, "gold fury": furies + 1}["phoenix" if "phoenix" in template else "gold fury"]
    word = ("first", "second", "third", "fourth", "fifth")[n - 1]
    a = spoken.ask(template.format(n=word))
    assert a.refusal is not None and "never happened" in a.text, a.text
    assert not has_number(a.text), a.text


# ----------------------------------------------------------------------------------------- two events together

def test_the_time_between_two_events(spoken):
    lo, hi = spoken.truth["first_blood"]["second"], _objectives(spoken, "Tower")[0]["second"]
    stats = _stats(spoken, lo, hi)
    a = spoken.ask("kills per team after first blood and before the first tower fell")
    for team in (1, 2):
        kills = sum(stats[p]["kills"] for p, row in spoken.truth["players"].items() if row["team"] == team)
        assert says(a.text, kills), (team, kills, a.text)
    assert clock(lo) in a.text and clock(hi) in a.text, a.text


def test_two_events_in_the_wrong_order_leave_no_time(spoken):
    fury, tower = _objectives(spoken, "Gold Fury")[0], _objectives(spoken, "Tower")[0]
    assert fury["second"] > tower["second"]
    a = spoken.ask("damage per player after the first gold fury but before the first tower fell")
    assert a.refusal is not None and not has_number(a.text), a.text
