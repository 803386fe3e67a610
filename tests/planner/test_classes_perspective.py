"""Meaning read in classes, second set, end to end on the simulated match of `spoken` (some deaths given to towers,
bosses, titans, minions and jungle camps), every figure checked against truth.py: first blood asked from the
victim's side, populations instead of names, rankings by deaths to a cause, the asker's own team, who took an
objective, and players ranked by objective last hits."""

from __future__ import annotations

import re
from collections import Counter

import pytest

_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")
# a match clock a reader and a parser see whole: "0:20" not followed by another colon ("at 0:20: killed")
_CLOCK_RUN_ON = re.compile(r"\d:\d\d:(?!\d)")


def numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in _NUMBER.findall(text)]


def says(text: str, value: float, tol: float = 0.5) -> bool:
    return any(abs(n - value) <= tol for n in numbers(text))


def clock(second: float) -> str:
    return f"{int(second) // 60}:{int(second) % 60:02d}"


# ------------------------------------------------------------------------------- first blood from the victim's side

@pytest.mark.parametrize("question", ["who died first blood", "which player was fb", "who got killed for first blood",
                                      "who died to first blood and at what time"])
def test_first_blood_from_the_victims_side_is_first_blood(spoken, question):
    first = min(spoken.truth["kills"], key=lambda k: k["second"])
    a = spoken.ask(question)
    assert first["victim"] in a.text and first["killer"] in a.text and clock(first["second"]) in a.text, a.text
    assert "first blood" in a.text.lower() and not _CLOCK_RUN_ON.search(a.text), a.text


@pytest.mark.parametrize("question", ["who died first", "the first player to die"])
def test_the_first_death_says_whether_it_was_first_blood(spoken, question):
    deaths = sorted([*spoken.truth["kills"], *spoken.truth["deaths_to_npcs"]], key=lambda k: k["second"])
    first, by_player = deaths[0], deaths[0] in spoken.truth["kills"]
    a = spoken.ask(question)
    assert first["victim"] in a.text and clock(first["second"]) in a.text, a.text
    assert not _CLOCK_RUN_ON.search(a.text), a.text
    # a player kill is first blood; the sentence never denies it, and says so of a death that was not one
    assert ("also first blood" in a.text) == by_player, a.text
    assert "not only player kills" not in a.text, a.text


# -------------------------------------------------------------------------------------- populations instead of names

def _npc_deaths(spoken, killer_word: str) -> list[dict]:
    return [d for d in spoken.truth["deaths_to_npcs"] if killer_word in d["killer"]]


@pytest.mark.parametrize("who", ["people", "folks", "the guys", "ppl", "players", "anybody"])
def test_a_population_with_a_cause_is_a_count_not_a_name(spoken, who):
    want = len(_npc_deaths(spoken, "Tower"))
    assert want
    a = spoken.ask(f"how many times did {who} die to towers")
    assert a.refusal is None and says(a.text, want), a.text
    assert "was not used" not in a.text, a.text


# ------------------------------------------------------------------------------------ ranking by deaths to a cause

@pytest.mark.parametrize(("question", "killer_word"), [("who kept dying to towers", "Tower"),
                                                       ("which player repeatedly got killed by towers", "Tower"),
                                                       ("who keeps dying to the fire giant", "Fire Giant"),
                                                       ("who died to towers the most", "Tower")])
def test_ranking_players_by_deaths_to_a_cause(spoken, question, killer_word):
    per_player = Counter(d["victim"] for d in _npc_deaths(spoken, killer_word))
    top = max(per_player.values())
    leaders = [p for p, n in per_player.items() if n == top]
    a = spoken.ask(question)
    assert any(p in a.text.split(":")[0] for p in leaders) and says(a.text, top), a.text
    assert "was not used" not in a.text, a.text
