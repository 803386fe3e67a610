"""A player's (a god's player's, a side's) count of one kind of objective, with a second part that leans on it through
a pronoun or a first or last one ("... and when did he take the first one", "... at what times did she get them",
"... when was their last"): both the count and the time or times asked, end to end on the simulated match of `match`
and checked against truth.py's objectives (the one asked said as that subject's own first or last)."""

from __future__ import annotations

import re

import pytest

from combat_analysis.answer.fidelity import check_package
from combat_analysis.formatting import clock

SIDES = {1: "order", 2: "chaos"}
# the kind as said in the plural, as said once, the answer's noun, and the word its objectives' names hold
KINDS = {"tower": ("towers", "tower", "tower", "Tower"), "phoenix": ("phoenixes", "phoenix", "phoenix", "Phoenix"),
         "fire giant": ("fire giants", "fire giant", "Fire Giant", "Fire Giant"),
         "gold fury": ("gold furies", "gold fury", "Gold Fury", "Gold Fury"),
         "objective": ("objectives", "objective", "objective", "")}
# (template, what is asked of them: the first, the last or every time); {s} the subject, {pr} {pos} its pronouns
TEMPLATES = [("how many {plural} did {s} take, and when did {pr} take the first one", "first"),
             ("how many {plural} did {s} get? when was the last one", "last"),
             ("how many {plural} did {s} destroy and at what times did {pr} get them", "all"),
             ("{one} count for {s}, and when was {pos} last", "last"),
             ("how many {plural} did {s} secure - what time was {pos} first?", "first"),
             ("how many {plural} did {s} kill? their times", "all")]
SUBJECTS = ["player", "god", "side"]
CASES = [(t, asked, kind, subject) for t, asked in TEMPLATES for kind in KINDS for subject in SUBJECTS]


def _of_kind(match, kind: str) -> list[dict]:
    word = KINDS[kind][3]
    return sorted((o for o in match.truth["objectives"] if word in o["target"]), key=lambda o: o["second"])


def _subject(match, kind: str, subject: str) -> tuple[str, str, str, list[dict]]:
    """(the subject as said, its pronoun, its possessive pronoun, the objectives of the kind it took)."""
    taken = _of_kind(match, kind)
    if subject == "side":
        team = max((1, 2), key=lambda t: (sum(o["team"] == t for o in taken), -t))
        return SIDES[team], "they", "their", [o for o in taken if o["team"] == team]
    counts = {p: sum(o["killer"] == p for o in taken) for p in match.players}
    player = max(sorted(counts), key=lambda p: counts[p])
    said = player if subject == "player" else f"the {match.players[player].god}"
    return said, "she", "her", [o for o in taken if o["killer"] == player]


@pytest.mark.parametrize(("template", "asked", "kind", "subject"), CASES,
                         ids=[f"{t[:26]}|{k}|{s}" for t, _, k, s in CASES])
def test_the_count_and_the_times_leaning_on_it(match, template, asked, kind, subject):
    plural, one, noun, _ = KINDS[kind]
    said, pronoun, possessive, took = _subject(match, kind, subject)
    question = template.format(plural=plural, one=one, s=said, pr=pronoun, pos=possessive)
    got = match.ask(question)
    assert got.refusal is None, got.text
    if not took:
        assert re.search(rf"\btook no {re.escape(noun)}", got.text, re.IGNORECASE), (question, got.text)
        return
    counted = rf"\btook {len(took)} {re.escape(noun)}" if len(took) > 1 else rf"\btook 1 {re.escape(noun)}\b"
    assert re.search(counted, got.text, re.IGNORECASE), (question, len(took), got.text)
    for o in took:  # every one with its time: the count's list
        assert clock(o["second"]) in got.text, (o, got.text)
    if asked != "all" and len(took) > 1:
        edge = took[0] if asked == "first" else took[-1]
        said_edge = rf"the {asked} at {clock(edge['second'])}|{asked} {re.escape(noun)}[^.]*{clock(edge['second'])}"
        assert re.search(said_edge, got.text, re.IGNORECASE), (edge, got.text)
    assert not check_package(got.pkg, include_report=False), got.text


def test_a_count_without_a_time_stays_a_count(match):
    got = match.ask("how many towers did order take")
    assert got.plan.intent.value != "event_list", got.plan
