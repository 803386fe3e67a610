"""Two classes end to end on the simulated match of `spoken`, every figure from truth.py:

- kills between two players said in the passive, the victim first and the killer after "by" ("how many times was B
  killed by A", "B got ganked by the zeus how many times", "how often did B die to A"): A's kills on B, with the
  slang kill verbs the planner knows (`read/killverbs.py`), and a player who dealt the blows named bare ("died to A");
- a figure's name said participle first, then "only" or "just" or other words ("mitigated damage only", "received
  healing just", "earned gold", "taken damage", "dealt damage"): that one figure, as its noun-first name reads."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from tests.support import said
from tests.support.truth_checks import truth_tool

says = functools.partial(said.says, clocks=False)


@functools.lru_cache(maxsize=2)
def _events(log) -> tuple:
    events = truth_tool.load(str(log))[0]
    truth_tool.match_clock(events)
    return tuple(events)


def _kills(spoken) -> list[dict]:
    return truth_tool.kill_list(list(_events(spoken.log)), spoken.truth["players"])


def _unique_god(spoken, player: str) -> bool:
    gods = [row["god"] for row in spoken.truth["players"].values()]
    return gods.count(spoken.truth["players"][player]["god"]) == 1


def _pair(spoken) -> tuple[str, str, int]:
    """(killer, victim, the killer's kills on the victim): the pair with the most, both on gods no one else played."""
    pairs = Counter((k["killer"], k["victim"]) for k in _kills(spoken))
    (a, b), n = next(((a, b), n) for (a, b), n in sorted(pairs.items(), key=lambda x: (-x[1], x[0]))
                     if _unique_god(spoken, a) and _unique_god(spoken, b))
    return a, b, n


# ------------------------------------------------------------------------------- kills said in the passive

@pytest.mark.parametrize("template", [
    "how many times was {b} killed by {a}",
    "{b} got killed by {a} how many times",
    "how often did {b} die to {a}",
    "how many times has {bg} been ganked by {ag}",
    "{b} got clapped by the {ag} how many times?",
    "how many times was {b} picked off by {a}",
    "how often has {b} been slain by {a}",
    "count of times {b} was deleted by {ag}",
])
def test_kills_said_in_the_passive_are_the_killers_kills_on_the_victim(spoken, template):
    a, b, n = _pair(spoken)
    god = {p: spoken.truth["players"][p]["god"] for p in (a, b)}
    question = template.format(a=a, b=b, ag=god[a], bg=god[b])
    answer = spoken.ask(question)
    assert answer.refusal is None and says(answer.text, n) and a in answer.text and b in answer.text, \
        (question, n, answer.text)
    assert f"the {a}" not in answer.text, answer.text


def test_kills_said_in_the_passive_within_a_window(spoken):
    a, b, _ = _pair(spoken)
    n = sum(1 for k in _kills(spoken) if k["killer"] == a and k["victim"] == b and k["second"] < 15 * 60)
    answer = spoken.ask(f"how many times was {b} taken out by {a} before minute 15")
    assert answer.refusal is None and says(answer.text, n) and "15" in answer.text, (n, answer.text)


def test_the_passive_turned_round_keeps_who_killed_whom(spoken):
    """The other way round is the other player's kills: B's kills on A."""
    a, b, _ = _pair(spoken)
    n = sum(1 for k in _kills(spoken) if k["killer"] == b and k["victim"] == a)
    answer = spoken.ask(f"how many times was {a} killed by {b}")
    assert answer.refusal is None and says(answer.text, n), (n, answer.text)


@pytest.mark.parametrize("template", [
    "how many times did {ag} kill {b}",
    "{ag} killed {b} how many times?",
    "how often did {a} kill the {bg}",
    "did the {ag} kill {b} a lot? how many times",
])
def test_a_god_and_a_player_either_side_of_a_plain_kill_are_the_two_players(spoken, template):
    """A god said for one of the two, the other said by name: the god's player's kills on the other (it gave every
    kill on the victim, the killer dropped)."""
    a, b, n = _pair(spoken)
    god = {p: spoken.truth["players"][p]["god"] for p in (a, b)}
    question = template.format(a=a, b=b, ag=god[a], bg=god[b])
    answer = spoken.ask(question)
    assert answer.refusal is None and says(answer.text, n) and a in answer.text and b in answer.text, \
        (question, n, answer.text)


# ------------------------------------------------------------------------ a participle before its figure

_FIGURES = {"mitigated": "mitigated", "healing received": "healing_received", "gold": "gold",
            "damage taken": "damage_taken", "damage dealt": "damage_dealt"}


@pytest.mark.parametrize(("template", "figure"), [
    ("{name}'s mitigated damage only", "mitigated"),
    ("{name} mitigated damage just", "mitigated"),
    ("just the mitigated dmg of {god}", "mitigated"),
    ("received healing only for {name}", "healing received"),
    ("{god} received healing, only that", "healing received"),
    ("earned gold just for {name}", "gold"),
    ("{name}'s earned gold only", "gold"),
    ("taken damage only, {name}", "damage taken"),
    ("{god} taken damage just", "damage taken"),
    ("dealt damage only {name}", "damage dealt"),
    ("{name}'s dealt damage only please", "damage dealt"),
])
def test_a_participle_before_its_figure_reads_as_that_figure(spoken, template, figure):
    name = next(p for p in sorted(spoken.truth["players"]) if _unique_god(spoken, p))
    question = template.format(name=name, god=spoken.truth["players"][name]["god"])
    value = spoken.truth["players"][name][_FIGURES[figure]]
    answer = spoken.ask(question)
    assert answer.refusal is None and says(answer.text, value), (question, value, answer.text)


@pytest.mark.parametrize(("template", "figure"), [("who had the most mitigated damage only", "mitigated"),
                                                  ("most received healing just", "healing received"),
                                                  ("which player had the highest taken damage only", "damage taken")])
def test_a_participle_first_figure_ranked(spoken, template, figure):
    key = _FIGURES[figure]
    rows = spoken.truth["players"]
    leader = max(rows, key=lambda p: (rows[p][key], p))
    answer = spoken.ask(template)
    assert answer.refusal is None and leader in answer.text and says(answer.text, rows[leader][key]), answer.text
