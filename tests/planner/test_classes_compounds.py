"""Compounds in one match, end to end on the simulated match of `spoken` (some deaths dealt by towers, bosses,
titans, minions and jungle camps), every figure from truth.py: a figure phrase of two words written as one word
("killcount") is read as the phrase, and a non-player kind before "deaths" ("tower deaths") is the deaths that kind
dealt, never the objectives of that kind taken (`planner/read/compounds.py`)."""

from __future__ import annotations

import re

import pytest

from combat_analysis.formatting import times
from combat_analysis.planner.read import compounds
from tests.support.said import says
from tests.support.truth_checks import truth_tool


def leaders(truth: dict, figure: str) -> list[str]:
    best = max(r[figure] for r in truth["players"].values())
    return sorted(p for p, r in truth["players"].items() if r[figure] == best)


# ------------------------------------------------------------------------------- closed compounds of a figure

@pytest.mark.parametrize(("question", "figure"), [
    ("who had the highest killcount", "kills"),
    ("which player had the most goldearned", "gold"),
    ("top healingdone in the match?", "healing_done"),
    ("who soaked the biggest damagetaken", "damage_taken"),
])
def test_a_figure_phrase_written_as_one_word_ranks_by_that_figure(spoken, question, figure):
    top = leaders(spoken.truth, figure)
    a = spoken.ask(question)
    assert a.refusal is None, a.text
    assert all(p in a.text for p in top) and says(a.text, spoken.truth["players"][top[0]][figure]), a.text
    joined = re.search(r"\b(\w+(?:count|earned|done|taken))\b", question).group(1)
    assert any(note.startswith(f"'{joined}' read as '") for note in a.plan.assumptions), a.plan.assumptions


@pytest.mark.parametrize("template", ["what was {a}'s dmgtaken", "how much goldearned for {a}",
                                      "{a} killcount?"])
def test_one_players_figure_written_as_one_word(spoken, template):
    figure = {"dmgtaken": "damage_taken", "goldearned": "gold", "killcount": "kills"}[
        next(w for w in ("dmgtaken", "goldearned", "killcount") if w in template)]
    name = sorted(spoken.truth["players"])[2]
    a = spoken.ask(template.format(a=name))
    assert a.refusal is None and name in a.text, a.text
    assert says(a.text, spoken.truth["players"][name][figure]), (figure, a.text)


@pytest.mark.parametrize(("word", "phrase"), [("killcount", "kill count"), ("winrate", None), ("goldlead", "gold lead"),
                                              ("healingreceived", "healing received"), ("damagedealt", "damage dealt"),
                                              ("lottery", None), ("otherwise", None)])
def test_a_word_is_split_only_into_a_known_figure_phrase(word, phrase):
    assert compounds.joined(word) == phrase
    # the season's own figure phrases are given by the cross-match planner
    assert compounds.joined("winrates", compounds.figure_phrases() | {"win rate"}) == "win rates"


def test_a_name_found_in_the_text_is_never_split():
    text = "how many kills did killcount get, and the killcount of the rest"
    said, notes = compounds.split_joined(text, keep=[(text.index("killcount"), text.index("killcount") + 9)])
    assert said == "how many kills did killcount get, and the kill count of the rest", said
    assert notes == ("'killcount' read as 'kill count'",)


# ------------------------------------------------------------------ a non-player kind before "deaths"

_MINIONS = ("Swordsman", "Archer", "Brute")  # METRICS.md's minions; its jungle camps are the other non-players


def _kind_of(killer: str, players: set[str]) -> str:
    kind = truth_tool.entity_kind(killer, players)
    if kind == "structure":
        return next(k for k in ("tower", "phoenix", "titan") if k in killer.lower())
    if kind == "npc":
        return "minion" if any(m in killer for m in _MINIONS) else "jungle"
    return kind


def _deaths_by(truth: dict, kind: str) -> dict[str, int]:
    players = set(truth["players"])
    out = dict.fromkeys(truth["players"], 0)
    for d in truth["deaths_to_npcs"]:
        if _kind_of(d["killer"], players) == kind:
            out[d["victim"]] += 1
    return out


@pytest.mark.parametrize(("question", "kind"), [
    ("who had the most tower deaths", "tower"),
    ("which player had the most minion deaths", "minion"),
    ("most jungle deaths?", "jungle"),
    ("who suffered the most boss deaths", "boss"),
    ("who had the most camp deaths", "jungle"),
])
def test_a_kind_before_deaths_ranks_the_deaths_that_kind_dealt(spoken, question, kind):
    deaths = _deaths_by(spoken.truth, kind)
    best = max(deaths.values())
    assert best > 0
    top = sorted(p for p, n in deaths.items() if n == best)
    a = spoken.ask(question)
    assert a.refusal is None and all(p in a.text for p in top) and says(a.text, best), (deaths, a.text)
    assert "destroyed" not in a.text and "Jungle player" not in a.text, a.text
    assert any("deaths' read as deaths to" in note for note in a.plan.assumptions), a.plan.assumptions


@pytest.mark.parametrize(("template", "kind"), [("how many tower deaths did {a} have", "tower"),
                                                ("{a}'s titan deaths", "titan"),
                                                ("number of minion deaths for {a}", "minion")])
def test_one_players_deaths_to_a_kind_said_before_deaths(spoken, template, kind):
    deaths = _deaths_by(spoken.truth, kind)
    name = max(deaths, key=lambda p: (deaths[p], p))
    a = spoken.ask(template.format(a=name))
    said = says(a.text, deaths[name]) or f" {times(deaths[name])}" in a.text  # "died to titans once"
    assert a.refusal is None and name in a.text and said, (deaths[name], a.text)


def test_tower_deaths_of_the_match_are_no_towers_taken(spoken):
    deaths = sum(_deaths_by(spoken.truth, "tower").values())
    taken = sum("Tower" in o["target"] for o in spoken.truth["objectives"])
    a = spoken.ask("how many tower deaths were there in the match")
    assert says(a.text, deaths), (deaths, taken, a.text)
    if taken != deaths:
        assert not says(a.text, taken), (deaths, taken, a.text)


def test_player_deaths_stay_the_players_deaths(spoken):
    a = spoken.ask("player deaths by team")
    for team in ("1", "2"):
        assert says(a.text, spoken.truth["teams"][team]["deaths"]), a.text
