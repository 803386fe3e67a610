"""One-match answers by class, end to end on the bundled sample, every figure from truth.py: a clock said with a
death ("what killed X at m:ss") is that one death and its killer; a structure named in full, its side inside the name
("the last order tower to fall"), is that side's structure whoever took it, and the answer names it so; the biggest
hit on a kind of target asked with its target ("on a god, and on whom") is the biggest on that kind; picking up an
item is buying it, never the draft's picks."""

from __future__ import annotations

import pytest

from tests.support.paths import SAMPLE_LOG
from tests.support.said import says
from tests.support.truth_checks import truth_tool


def _deaths(truth: dict) -> list[dict]:
    return sorted([*truth["kills"], *truth["deaths_to_npcs"]], key=lambda d: (d["second"], d.get("line", 0)))


def test_a_clock_said_with_a_death_is_that_death(sample):
    death = next(d for d in _deaths(sample.truth) if d["killer"] not in sample.truth["players"])  # a non-player's
    a = sample.ask(f"at {death['clock']} what killed {death['victim']}")
    assert a.text.startswith(f"{death['victim']} died at {death['clock']}"), a.text
    assert death["killer"] in a.text, a.text


@pytest.mark.parametrize(("edge", "name"), [("last", "Order Tower"), ("first", "Order Phoenix")])
def test_a_structure_named_with_its_side_is_that_sides(sample, edge, name):
    fell = [o for o in sample.truth["objectives"] if o["target"] == name]
    one = fell[-1] if edge == "last" else fell[0]
    a = sample.ask(f"when did the {edge} {name.lower()} go down")
    assert f"{edge} {name}" in a.text and f"at {one['clock']}" in a.text, a.text
    assert f"Team {one['team']} took" in a.text, a.text


def test_the_biggest_hit_on_a_kind_asked_with_its_target(sample):
    events, _ = truth_tool.load(str(SAMPLE_LOG))
    players = set(sample.truth["players"])
    hits = [e for e in events if e.get("type") in ("Damage", "CritDamage") and e.get("sourceowner") in players
            and e.get("targetowner") in players]
    top = max(hits, key=lambda e: float(e["value1"]))
    a = sample.ask("whats the biggest single hit that landed on a god - who hit it and on whom")
    assert a.text.startswith(top["sourceowner"]) and top["targetowner"] in a.text, a.text
    assert says(a.text, float(top["value1"])), a.text


def test_picking_up_an_item_is_buying_it(sample):
    player = sorted(sample.truth["players"])[0]
    first = sample.truth["players"][player]["item_timeline"][0]
    a = sample.ask(f"when did {player} first pick up {first['item']}")
    assert a.refusal is None and first["clock"] in a.text, a.text
