"""One-match reading classes, end to end on the simulated match of `match` (some deaths dealt by towers, phoenixes,
titans, fire minions and bosses), every figure from truth.py's events, each class in several wordings of our own:
typos of the grouping nouns, exclusions said before the main clause, causes said in contrast and the non-player
kind said generally, and parts that lean on the part before them."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from combat_analysis.planner.read.spelling import corrected

_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")
_DAMAGE = ("Damage", "CritDamage")


def says(text: str, value: float, tol: float = 0.5) -> bool:
    return any(abs(float(n.replace(",", "")) - value) <= tol for n in _NUMBER.findall(text))


def _damage(match, where) -> int:
    return int(sum(float(e["value1"]) for e in match.events if e.get("type") in _DAMAGE and where(e)))


def _top(figures: dict[str, float]) -> tuple[str, float]:
    name = max(figures, key=lambda k: figures[k])
    return name, figures[name]


# --------------------------------------------------------------------------- 4: typos of the grouping nouns

@pytest.mark.parametrize(("typed", "meant"), [
    ("which abilty hit hardest", "ability"), ("top 3 ablities by damage", "abilities"),
    ("which abiltiy did the most damage", "ability"), ("what itme was bought most", "item"),
    ("which itmes got bought", "items"), ("which rloe dealt the most", "role"), ("dmg per rolle", "role"),
    ("which godd had the most kills", "god"), ("which gdo had the most kills", "god"),
    ("which palyer healed the most", "player"), ("kills by minnute", "minute"), ("gold per minte", "minute"),
    ("which objectve fell first", "objective")])
def test_a_typo_of_a_grouping_noun_is_read_as_the_noun(typed, meant):
    text, notes = corrected(typed)
    assert meant in text.split() and notes, (text, notes)


@pytest.mark.parametrize("plain", ["a good role", "which rule", "gods", "every item", "the rol", "kills per game"])
def test_a_known_or_unrelated_word_is_not_corrected(plain):
    assert corrected(plain) == (plain, ())


def _ability_damage(match) -> dict[str, float]:
    out: Counter = Counter()
    for e in match.events:
        if e.get("type") in _DAMAGE and e["sourceowner"] in match.players:
            out[e["itemname"]] += float(e["value1"])
    return dict(out)


@pytest.mark.parametrize(("template", "grouping"), [
    ("which abilty did the most damage", "ability"), ("top abilites by damage dealt", "ability"),
    ("what ablity dealt the most dmg", "ability"), ("which rloe dealt the most damage", "role"),
    ("the rolle with the most damage", "role"), ("which godd did the most damage", "god"),
    ("damage by gdo, which was highest", "god")])
def test_a_grouping_noun_with_a_typo_keeps_its_grouping(match, template, grouping):
    if grouping == "ability":
        name, value = _top(_ability_damage(match))
    elif grouping == "role":
        name, value = _top({r: v["damage_dealt"] for r, v in match.truth["roles"].items()})
    else:
        name, value = _top({g: v["damage_dealt"] for g, v in match.truth["gods"].items()})
    got = match.ask(template)
    assert got.refusal is None and grouping in got.plan.group_by, (got.plan.group_by, got.text)
    assert name in got.text and says(got.text, value), got.text
