"""The moment of a player's (a god's, a role's, a side's) first or last kill, death or assist, in any words ("her first
death, at what time", "time of the thor's last kill", "what minute did the supports first get an assist"): the match
clock of that event and what it was (whom the kill was on, who dealt the death, whose kill the assist was on), said as
the first or last of those events of that subject, end to end on the simulated match of `match` and checked against
truth.py (its kills with their assists, and the deaths non-players dealt)."""

from __future__ import annotations

import pytest

from combat_analysis.answer.fidelity import check_package
from combat_analysis.formatting import clock

SIDES = {1: "order", 2: "chaos"}
ROLE_WORDS = {"Support": "support", "Jungle": "jungler", "Carry": "carry", "Solo": "solo laner", "Middle": "mid"}
PLURALS = {"Support": "supports", "Jungle": "junglers", "Carry": "carries", "Solo": "solo laners", "Middle": "mids"}

# (template, edge): {s} the subject as said, {ps} its possessive
TEMPLATES = {
    "kill": [("when did {s} get their first kill", "first"), ("time of {ps} last kill", "last"),
             ("what minute did {s} first get a kill", "first"), ("{ps} final kill - at what time?", "last"),
             ("the last time {s} got a kill, when", "last")],
    "death": [("{ps} first death, at what time", "first"), ("when did {s} die for the last time", "last"),
              ("what minute did {s} first die", "first"), ("time of {ps} latest death", "last"),
              ("when was the first time {s} died", "first")],
    "assist": [("what minute did {s} get their first assist", "first"), ("when did {s} last assist", "last"),
               ("{ps} final assist, when", "last"), ("at what time did {s} assist for the first time", "first"),
               ("when was the first time {s} assisted", "first")],
}
SUBJECTS = ["player", "god", "role", "side", "side_role"]
CASES = [(kind, template, edge, subject) for kind, templates in TEMPLATES.items()
         for i, (template, edge) in enumerate(templates) for subject in SUBJECTS]


def _possessive(said: str) -> str:
    return f"{said}'" if said.endswith("s") and not said[0].isupper() else f"{said}'s"


def _subject(match, kind: str, i: int) -> tuple[str, set[str], int | None]:
    """(the subject as said, its players, its side when a side is said alone)."""
    players = sorted(match.players)
    if kind == "player":
        return players[i % len(players)], {players[i % len(players)]}, None
    if kind == "god":
        p = players[(i + 3) % len(players)]
        return f"the {match.players[p].god}", {p}, None
    if kind == "role":
        role = list(ROLE_WORDS)[i % len(ROLE_WORDS)]
        return f"the {PLURALS[role]}", {p for p, x in match.players.items() if x.role == role}, None
    if kind == "side":
        team = 1 + i % 2
        return SIDES[team], {p for p, x in match.players.items() if x.team == team}, team
    team, role = 1 + (i + 1) % 2, list(ROLE_WORDS)[(i + 2) % len(ROLE_WORDS)]
    (p,) = [p for p, x in match.players.items() if x.team == team and x.role == role]
    return f"the {SIDES[team]} {ROLE_WORDS[role]}", {p}, None


def _deaths(match) -> list[dict]:
    player_kills = [{**k, "cause": k["killer"]} for k in match.truth["kills"]]
    npc = [{**k, "cause": k["killer"], "line": 0} for k in match.truth["deaths_to_npcs"]]
    return sorted(player_kills + npc, key=lambda k: (k["second"], k["line"]))


def _events(match, kind: str, players: set[str]) -> list[dict]:
    kills = sorted(match.truth["kills"], key=lambda k: (k["second"], k["line"]))
    if kind == "kill":
        return [k for k in kills if k["killer"] in players]
    if kind == "death":
        return [d for d in _deaths(match) if d["victim"] in players]
    return [k for k in kills if players & set(k["assists"])]


@pytest.mark.parametrize(("kind", "template", "edge", "subject"), CASES,
                         ids=[f"{k}|{t[:24]}|{s}" for k, t, _, s in CASES])
def test_the_first_or_last_event_of_a_subject(match, kind, template, edge, subject):
    i = CASES.index((kind, template, edge, subject))
    said, players, _ = _subject(match, subject, i)
    got = match.ask(template.format(s=said, ps=_possessive(said)))
    assert got.refusal is None, got.text
    events = _events(match, kind, players)
    if not events:
        assert f"no {kind}s" in got.text.lower() or "did not die" in got.text, got.text
        return
    one = events[0] if edge == "first" else events[-1]
    # the edge is said, and what it was the edge of: the subject's own kills, deaths or assists
    assert f"{edge} {kind}" in got.text.lower(), got.text
    assert clock(one["second"]) in got.text, (one, got.text)
    if kind == "kill":
        assert one["victim"] in got.text, (one, got.text)
    elif kind == "death":
        assert one["cause"] in got.text and one["victim"] in got.text, (one, got.text)
    else:
        assert f"{one['killer']}'s kill of {one['victim']}" in got.text, (one, got.text)
        assert all(a in got.text for a in players & set(one["assists"])), (one, got.text)
    whole = _events(match, kind, set(match.players))
    other = whole[0] if edge == "first" else whole[-1]
    assert other["second"] == one["second"] or clock(other["second"]) not in got.text, got.text
    assert not check_package(got.pkg, include_report=False), got.text


@pytest.mark.parametrize("question", ["who got the first assist of the match", "when was the first assist",
                                      "the last assist of the game - whose was it"])
def test_the_matchs_own_first_or_last_assist_names_every_assister_of_that_kill(match, question):
    kills = sorted((k for k in match.truth["kills"] if k["assists"]), key=lambda k: (k["second"], k["line"]))
    one = kills[-1] if "last" in question else kills[0]
    got = match.ask(question)
    assert clock(one["second"]) in got.text and f"{one['killer']}'s kill of {one['victim']}" in got.text, got.text
    assert all(a in got.text for a in one["assists"]), (one, got.text)


@pytest.mark.parametrize("question", ["how many assists did {p} get", "who had the most assists",
                                      "{p}'s first kill", "did {g} get the first kill"])
def test_counts_and_first_blood_stay_as_they_were(match, question):
    p = sorted(match.players)[0]
    got = match.ask(question.format(p=p, g=f"the {match.players[p].god}"))
    assert "assist_events" not in got.plan.metrics, got.plan
    if question.startswith("did"):
        assert got.plan.metrics == ("first_blood",) and got.text.startswith(("Yes", "No")), got.text
