"""A time window anchored on one player's own event, end to end on the simulated match of `spoken`, every figure from
truth.py (its kills, deaths from any source and `window_stats`): the player's first or last (or n-th) death, kill or
assist, said with the player's name, their god, or a pronoun for the one player the question names ("Brisk's first
death", "his last kill", "before she first died", "after zeus died for the last time"). Before it is the window up to
its second, not including it; after it, from its second on. An event the player never had is refused saying so, with
no number; a pronoun that points to no one player is refused too, never answered over the whole match."""

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
    events = truth_tool.load(str(log))[0]
    truth_tool.match_clock(events)
    return tuple(events)


def _own(spoken, player: str, kind: str) -> list[int]:
    """The match seconds of one player's deaths (from any source), kills or assists (truth.py), in order."""
    events = list(_events(spoken.log))
    if kind == "death":
        return sorted(e["_s"] for e in events if e.get("eventType") == "CombatMsg" and e.get("type") == "KillingBlow"
                      and e.get("targetowner") == player)
    kills = truth_tool.kill_list(events, spoken.truth["players"])
    return [k["second"] for k in kills if (k["killer"] == player if kind == "kill" else player in k["assists"])]


def _player(spoken, kind: str, at_least: int) -> str:
    """A player with at least `at_least` events of the kind, the first by name."""
    return next(p for p in sorted(spoken.truth["players"]) if len(_own(spoken, p, kind)) >= at_least)


def _god(spoken, player: str) -> str:
    return spoken.truth["players"][player]["god"]


def _stats(spoken, lo: int, hi: int | None) -> dict:
    return truth_tool.window_stats(list(_events(spoken.log)), lo, hi)


# (template, the event's kind, its place: 0 first, -1 last, 1 second; before; the figure asked of the same player)
_CASES = [
    ("how much gold did {name} earn before {name}'s first death", "death", 0, True, "gold"),
    ("{god}'s damage after his first kill", "kill", 0, False, "damage_dealt"),
    ("kills by {name} until her last death", "death", -1, True, "kills"),
    ("how many assists did {name} have prior to their 1st kill", "kill", 0, True, "assists"),
    ("{name} damage taken since {god}'s last assist", "assist", -1, False, "damage_taken"),
    ("gold earned by {name} before he first died", "death", 0, True, "gold"),
    ("how much damage did {god} deal after she died for the last time", "death", -1, False, "damage_dealt"),
    ("{name}'s deaths following his second death", "death", 1, False, "deaths"),
    ("xp for {name} up to {name}s first assist", "assist", 0, True, "experience"),
]


@pytest.mark.parametrize(("template", "kind", "place", "before", "figure"), _CASES)
def test_a_players_figure_over_a_window_anchored_on_their_own_event(spoken, template, kind, place, before, figure):
    player = _player(spoken, kind, 2)
    at = _own(spoken, player, kind)[place]
    stats = _stats(spoken, 0, at) if before else _stats(spoken, at, None)
    question = template.format(name=player, god=_god(spoken, player))
    a = spoken.ask(question)
    assert a.refusal is None and says(a.text, stats[player][figure]), (question, stats[player][figure], a.text)
    assert clock(at) in a.text and player in a.text, (question, a.text)


@pytest.mark.parametrize(("template", "figure"), [("who had the most kills before {name}'s last death", "kills"),
                                                  ("top damage dealer after {god}'s last kill", "damage_dealt")])
def test_a_leader_over_a_window_anchored_on_one_players_event(spoken, template, figure):
    player = _player(spoken, "kill", 2)
    kind, place = ("death", -1) if "death" in template else ("kill", -1)
    at = _own(spoken, player, kind)[place]
    stats = _stats(spoken, 0, at) if "before" in template else _stats(spoken, at, None)
    leader = max(stats, key=lambda p: (stats[p][figure], p))
    a = spoken.ask(template.format(name=player, god=_god(spoken, player)))
    assert a.refusal is None and leader in a.text and says(a.text, stats[leader][figure]), (leader, a.text)
    assert clock(at) in a.text, a.text


_NTH = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
        "twelfth", "thirteenth", "fourteenth", "fifteenth")


@pytest.mark.parametrize(("template", "kind"), [("damage {name} dealt after his {nth} kill", "kill"),
                                                ("{god}'s gold before her {nth} kill", "kill"),
                                                ("kills by {name} since {name}'s {nth} death", "death"),
                                                ("{name}'s healing after he died for the {nth} time", "death")])
def test_an_event_the_player_never_had_is_refused_saying_so(spoken, template, kind):
    """One more of the event than the player had: never happened, so refused, never the whole match's figure."""
    players = sorted(spoken.truth["players"])
    player = next(p for p in players if len(_own(spoken, p, kind)) < len(_NTH) and ("{god}" not in template or sum(
        spoken.truth["players"][q]["god"] == spoken.truth["players"][p]["god"] for q in players) == 1))
    nth = _NTH[len(_own(spoken, player, kind))]
    a = spoken.ask(template.format(name=player, god=_god(spoken, player), nth=nth))
    named = _god(spoken, player) if "{god}" in template else player
    assert a.refusal is not None and named in a.text and nth in a.text and "never happened" in a.text, a.text


@pytest.mark.parametrize("template", ["damage dealt after his first kill", "who had the most gold before her last death"])
def test_a_pronoun_that_points_to_no_one_player_is_refused(spoken, template):
    a = spoken.ask(template)
    assert a.refusal is not None and not has_number(a.text), a.text
