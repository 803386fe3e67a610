"""Objectives whose last hit was a minion's, end to end on a bundled real-format match (corpus match 21: towers and a
phoenix last hit by Swordsman, Archer, Champion Swordsman and Brute), every objective from truth.py: whether any,
how many and which kinds of minion took them, each objective with its time and killer; a minion kind by the name
the log gives it (any number, any case); a window; a kind that took none says so. METRICS.md: an objective's
killing blow may come from a minion, and the side opposing the structure's owner took it."""

from __future__ import annotations

import functools
import re
from collections import Counter

import pytest

from combat_analysis.formatting import times
from tests.support import said

says = functools.partial(said.says, clocks=False)


def _players_taking(corpus_match) -> set[str]:
    return {o["killer"] for o in corpus_match.truth["objectives"] if o["killer_is_player"]}


@pytest.mark.parametrize("question", ["did minions get the last hit on any objective",
                                      "creeps last hitting objectives: which ones and when?",
                                      "which kinds of minion last-hit structures or bosses, and at what times",
                                      "how many objectives ended with a minion landing the final blow"])
def test_objectives_last_hit_by_minions_with_each_kind_counted(corpus_match, question):
    taken = corpus_match.by_minions
    a = corpus_match.ask(question)
    assert a.refusal is None and says(a.text, len(taken)), a.text
    for o in taken:
        assert o["clock"] in a.text, (o, a.text)
    for killer, n in Counter(o["killer"] for o in taken).items():
        assert f"{killer} {times(n)}" in a.text, (killer, n, a.text)
    assert not any(p in a.text for p in _players_taking(corpus_match)), a.text


@pytest.mark.parametrize(("question", "kind"), [("did any archers finish a tower", "Archer"),
                                                ("which objectives did the Brute last hit?", "Brute"),
                                                ("how many structures fell to swordsmen", "Swordsman"),
                                                ("were any phoenixes or towers taken down by brutes", "Brute")])
def test_a_minion_kind_by_its_name_in_the_log(corpus_match, question, kind):
    taken = [o for o in corpus_match.by_minions if kind in o["killer"].split()]
    assert taken
    a = corpus_match.ask(question)
    assert a.refusal is None and says(a.text, len(taken)), a.text
    assert all(o["clock"] in a.text for o in taken), a.text
    others = {o["killer"] for o in corpus_match.by_minions} - {o["killer"] for o in taken}
    assert not any(f"by {k}," in a.text for k in others), a.text
    assert "was not used" not in a.text, a.text


@pytest.mark.parametrize("question", ["minion last hits on towers after minute 15",
                                      "after the 15 minute mark, which towers did the minion waves finish off"])
def test_minion_last_hits_in_a_window(corpus_match, question):
    taken = [o for o in corpus_match.by_minions if o["second"] >= 900 and "Tower" in o["target"]]
    early = [o for o in corpus_match.by_minions if o["second"] < 900]
    assert taken and early
    a = corpus_match.ask(question)
    assert says(a.text, len(taken)) and all(o["clock"] in a.text for o in taken), a.text
    assert not any(o["clock"] in a.text for o in early), a.text


@pytest.mark.parametrize("question", ["did the jungle camps get the last hit on any structure",
                                      "any towers finished off by jungle monsters?"])
def test_a_kind_that_took_none_says_so(corpus_match, question):
    a = corpus_match.ask(question)
    assert a.refusal is None and re.search(r"\bno\b", a.text), a.text
