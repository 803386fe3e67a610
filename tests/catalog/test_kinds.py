"""Entity kinds by name, per METRICS.md: the roster first, then structures, bosses, minions, jungle camps."""

import pytest

from combat_analysis.catalog.kinds import entity_kind, entity_team

ROSTER = {"Brisk", "Naga Fan 7", "Tower"}


@pytest.mark.parametrize(("name", "kind"), [
    ("Brisk", "player"),
    ("Naga Fan 7", "player"),  # a player is a player whatever the name looks like
    ("Tower", "player"),
    ("Order Tower", "structure"), ("Chaos Phoenix", "structure"), ("Order Titan", "structure"),
    ("Gold Fury", "boss"), ("Fire Giant", "boss"), ("Oni Fury", "boss"),
    ("Champion Swordsman", "minion"), ("Chaos Archer", "minion"), ("Fire Brute", "minion"),
    ("Satyr", "jungle"), ("Alpha Chimera", "jungle"), ("Roaming Harpy", "jungle"), ("Elder Harpy", "jungle"),
    ("Cyclops Warrior", "jungle"), ("Queen Naga", "jungle"), ("Naga Soldier", "jungle"),
    ("Mysterious Stranger", "unknown"), ("", "unknown"),
])
def test_kinds_follow_metrics_md(name, kind):
    assert entity_kind(name, ROSTER) == kind


def test_sides_own_structures_and_minions():
    assert entity_team("Order Tower", "structure", {}) == 1
    assert entity_team("Chaos Archer", "minion", {}) == 2
    assert entity_team("Gold Fury", "boss", {}) is None
    assert entity_team("Brisk", "player", {"Brisk": 2}) == 2
