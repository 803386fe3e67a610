"""One-match answers by class, end to end on the bundled sample, every figure from truth.py: a claim about a player's
role said player first ("<player> was on <role>, right?", "<player> ran <role> yeah?") is checked against the role the
log gives (METRICS.md: the RoleAssigned event), yes or no, never read as a figure filtered by that role; chat's
reactions ("smh", "idk", "rip") are fillers, never refused as unknown names."""

from __future__ import annotations

import pytest

from tests.support.said import says

SAID_ROLE = {"Jungle": "jungle", "Carry": "adc", "Solo": "solo", "Support": "supp", "Middle": "mid"}


def _player_and_another_role(truth: dict) -> tuple[str, str, str]:
    player, row = sorted(truth["players"].items())[0]
    other = next(r for r in SAID_ROLE if r != row["role"])
    return player, row["role"], other


@pytest.mark.parametrize("template", ["{p} was on {r}, right?", "{p} ran {r} yeah?", "{p} was playing {r} correct?"])
def test_a_wrong_role_claimed_player_first_is_denied(sample, template):
    player, role, other = _player_and_another_role(sample.truth)
    a = sample.ask(template.format(p=player, r=SAID_ROLE[other]))
    assert a.refusal is None, a.text
    assert f"No: {player} played {role}, not {other}" in a.text, a.text


def test_the_right_role_claimed_player_first_is_confirmed(sample):
    player, role, _ = _player_and_another_role(sample.truth)
    a = sample.ask(f"{player} played {SAID_ROLE[role]}, right?")
    assert f"Yes: {player} played {role}" in a.text, a.text


@pytest.mark.parametrize("filler", ["smh", "idk", "ffs"])
def test_a_chat_reaction_is_no_name(sample, filler):
    deaths = {p: row["deaths"] for p, row in sample.truth["players"].items()}
    most = max(deaths.values())
    a = sample.ask(f"{filler} who died the most")
    assert a.refusal is None and says(a.text, most), a.text
    assert all(p in a.text for p, d in deaths.items() if d == most), a.text
