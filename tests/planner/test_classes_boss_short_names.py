"""Round 59's class, end to end on the simulated match of `match`, every figure from truth.py's objectives: the bosses'
short names ("fg" the Fire Giant, "gf" the Gold Fury) name their objectives wherever objectives are read, so a list of
kinds with them ("objectives (towers, fg, gf)") counts every kind it lists, never the towers alone."""

from __future__ import annotations

import pytest

from combat_analysis.formatting import number


def _taken(match, team: int, kinds: set[str]) -> int:
    return sum(1 for o in match.truth["objectives"] if o["team"] == team and (
        o["target"].lower() in kinds or any(k in o["target"].lower() for k in kinds)))


@pytest.mark.parametrize(("said", "kinds"), [("towers + fgs", {"tower", "fire giant"}),
                                              ("gf/fg/towers", {"tower", "fire giant", "gold fury"})])
def test_short_boss_names_in_a_list_of_kinds_are_counted(match, said, kinds):
    team = 2
    want = _taken(match, team, kinds)
    got = match.ask(f"objectives chaos got ({said})")
    assert {str(v) for f in got.plan.filters if f.dimension == "objective" for v in f.values} == kinds, got.plan
    assert f" {number(want)} objective" in got.text, (want, got.text)
