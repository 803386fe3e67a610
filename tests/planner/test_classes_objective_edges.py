"""One objective by its place in time, end to end on the simulated match of `spoken`, against truth.py's objectives:
who took the first (last) of a kind, asked of a side, a god or a role, is that one objective with its side and last
hitter, never the counts per side; a yes or no naming a side or a player as its taker is the match's first (last) of
the kind, whoever took it, checked, never that side's own first or its count."""

from __future__ import annotations

import pytest

_KINDS = {"tower": "Tower", "phoenix": "Phoenix"}
_SIDE = {1: "order", 2: "chaos"}


def _edge(truth: dict, kind: str, edge: str) -> dict:
    """The first or last objective of a kind (truth.py's objectives are in time order)."""
    taken = [o for o in truth["objectives"] if o["target"].endswith(_KINDS[kind])]
    return taken[0] if edge == "first" else taken[-1]


def _clock(second: float) -> str:
    return f"{int(second) // 60}:{int(second) % 60:02d}"


@pytest.mark.parametrize(("template", "kind", "edge"), [
    ("which team took the {e} {k}", "tower", "first"), ("which side got {e} {k}?", "tower", "first"),
    ("{e} {k}, which team", "phoenix", "last"), ("what god grabbed the {e} {k}", "tower", "last"),
    ("which role destroyed the {e} {k}", "phoenix", "first")])
def test_who_took_one_objective_by_its_place_is_that_objective(spoken, template, kind, edge):
    want = _edge(spoken.truth, kind, edge)
    a = spoken.ask(template.format(e=edge, k=kind))
    assert a.plan.metrics == ("objective_events",) and a.plan.limit == 1, a.plan
    assert f"Team {want['team']} took the {edge} {kind}" in a.text and _clock(want["second"]) in a.text, a.text
    assert want["killer"] in a.text, a.text


@pytest.mark.parametrize(("template", "kind", "edge"), [
    ("did {s} take the {e} {k}", "tower", "first"), ("did {s} get the {e} {k}?", "phoenix", "last"),
    ("was the {e} {k} taken by {s}", "tower", "first"), ("is it true {s} secured the {e} {k}", "tower", "last")])
@pytest.mark.parametrize("mine", [True, False])
def test_did_a_side_take_one_objective_is_checked_on_the_matchs_one(spoken, template, kind, edge, mine):
    want = _edge(spoken.truth, kind, edge)
    side = want["team"] if mine else 3 - want["team"]
    a = spoken.ask(template.format(s=_SIDE[side], e=edge, k=kind))
    assert a.text.startswith("Yes" if mine else "No"), a.text
    assert f"Team {want['team']} took the {edge} {kind}" in a.text and _clock(want["second"]) in a.text, a.text


@pytest.mark.parametrize("template", ["did {p} take the first tower", "did {p} last hit the first tower"])
@pytest.mark.parametrize("mine", [True, False])
def test_did_a_player_take_one_objective_is_checked_on_its_last_hitter(spoken, template, mine):
    want = _edge(spoken.truth, "tower", "first")
    players = sorted(spoken.truth["players"])
    player = want["killer"] if mine else next(p for p in players if p != want["killer"])
    a = spoken.ask(template.format(p=player))
    assert a.text.startswith("Yes" if mine else "No"), a.text
    assert want["killer"] in a.text and _clock(want["second"]) in a.text, a.text


def test_a_sides_own_first_asked_with_when_stays_its_own(spoken):
    """"When did order take its first tower" asks for that side's first, not the match's."""
    side = next(t for t in (1, 2) if any(o["team"] == t and o["target"].endswith("Tower")
                                         for o in spoken.truth["objectives"]))
    own = next(o for o in spoken.truth["objectives"] if o["team"] == side and o["target"].endswith("Tower"))
    a = spoken.ask(f"when did {_SIDE[side]} take its first tower")
    assert _clock(own["second"]) in a.text and not a.text.startswith(("Yes", "No")), a.text
